// Common subexpression elimination: a call to the same symbol with the same arguments as an
// earlier one computes the same values, so its outputs are replaced by the earlier call's and it
// is dropped. Random ops are never merged: two draws are two different values.
#include <unordered_map>

#include "thundercc/ir/printer.h"
#include "thundercc/passes/passes.h"

namespace thundercc {

std::vector<BoundSymbol> merge_common_subexpressions(std::vector<BoundSymbol> statements, ValueMap& replaced,
                                                     const std::function<bool(const BoundSymbol&)>& must_stay) {
  std::vector<BoundSymbol> out;
  out.reserve(statements.size());
  std::unordered_map<std::string, Value> seen;  // the printed call -> its output
  for (auto& original : statements) {
    BoundSymbol b = std::move(original);
    replaced.apply(b);
    if (!b.sym->has_tag("RANDOM_OP") && !b.sym->has_tag("DONT_DCE") && !b.output.is_none()) {
      // The printed call names its proxies, which are unique, so equal text means equal calls.
      std::string key = b.sym->id + "|" + print_call(*b.sym, b.args, b.kwargs);
      auto [it, inserted] = seen.emplace(key, b.output);
      if (!inserted && !must_stay(b)) {
        const Value& earlier = it->second;
        std::vector<Value> mine, theirs;
        for_each_proxy(b.output, [&](const Value& v) { mine.push_back(v); });
        for_each_proxy(earlier, [&](const Value& v) { theirs.push_back(v); });
        for (size_t i = 0; i < mine.size() && i < theirs.size(); ++i) replaced.set(mine[i], theirs[i]);
        continue;
      }
    }
    out.push_back(std::move(b));
  }
  return out;
}

Trace common_subexpression_elimination(Trace trace) {
  Trace out = trace.derive("Common Subexpression Elimination");
  ValueMap replaced;
  out.bound_symbols = merge_common_subexpressions(std::move(trace.bound_symbols), replaced, [](const BoundSymbol&) { return false; });
  out.output = replaced.apply(trace.output);
  return out;
}

}  // namespace thundercc
