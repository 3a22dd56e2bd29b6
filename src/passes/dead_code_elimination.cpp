// Dead code elimination: walking backwards from the outputs, keep a bound symbol when something
// later needs one of its outputs, or when it is tagged DONT_DCE; drop the rest.
#include <algorithm>
#include <unordered_set>

#include "thundercc/ir/rewrite.h"
#include "thundercc/passes/passes.h"

namespace thundercc {

Trace dead_code_elimination(Trace trace) {
  Trace out = trace.derive("Dead Code Elimination");
  std::unordered_set<const void*> needed;
  for_each_proxy(trace.output, [&](const Value& v) { needed.insert(proxy_key(v)); });
  std::vector<BoundSymbol*> kept;
  for (auto it = trace.bound_symbols.rbegin(); it != trace.bound_symbols.rend(); ++it) {
    auto& b = *it;
    bool keep = b.sym->has_tag("DONT_DCE") || b.has_tag("DONT_DCE");
    for_each_proxy(b.output, [&](const Value& v) { keep = keep || needed.count(proxy_key(v)); });
    if (!keep) continue;
    kept.push_back(&b);
    for (const auto& in : b.input_proxies()) needed.insert(proxy_key(in));
  }
  out.bound_symbols.reserve(kept.size());
  for (auto it = kept.rbegin(); it != kept.rend(); ++it) out.bound_symbols.push_back(std::move(**it));
  out.output = std::move(trace.output);
  return out;
}

}  // namespace thundercc
