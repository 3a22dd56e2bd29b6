// Functionalization: in-place ops become their out-of-place forms, and a program input they
// modified gets its final value written back (Thunder's functionalize_inplace_ops).
//
// The front end already gives what an in-place op leaves in its first argument a fresh name
// (`t5 = ltorch.add_(x, y)`, later statements read t5), so the trace is functional but for two
// things this pass settles: the in-place symbol itself, replaced by its decomposition (the
// out-of-place op, `t5 = ltorch.add(x, y)`), and the caller's tensor, which PyTorch would have
// modified: for each program input modified in place (by an IN_PLACE symbol, or an op called
// with inplace=True), `prims.copy_(last_value, input)` at the end of the trace. Runs first, so
// every later pass (and autodiff) sees functional code.
#include <algorithm>
#include <map>
#include <unordered_map>

#include "thundercc/ir/rewrite.h"
#include "thundercc/passes/passes.h"

namespace thundercc {

bool mutates_first_argument(const BoundSymbol& b) {
  if (b.sym->has_tag("IN_PLACE")) return true;
  int inplace = b.sym->signature.index_of("inplace");
  if (inplace < 0) return false;
  Args bound = b.sym->bind(b.args, b.kwargs);
  return bound["inplace"].kind() == Value::Kind::Bool && bound.flag("inplace");
}

namespace {

// A call whose results are all among its own arguments (a decomposition that returned an input):
// it computes nothing, and its statement would redefine the input.
bool passes_through(const BoundSymbol& b) {
  std::vector<const void*> inputs;
  for (const auto& v : b.input_proxies()) inputs.push_back(proxy_key(v));
  bool any = false, all = true;
  for_each_proxy(b.output, [&](const Value& v) {
    any = true;
    all = all && std::find(inputs.begin(), inputs.end(), proxy_key(v)) != inputs.end();
  });
  return any && all;
}

}  // namespace

Trace functionalization(const Trace& trace) {
  Trace out = trace.derive("Functionalization");
  TracingScope scope(out);
  // For each program input modified in place, by position in the inputs: its latest value.
  std::unordered_map<const void*, size_t> input_position;
  std::vector<Value> input_tensors;
  for (const auto& in : trace.inputs)
    for_each_proxy(in.value, [&](const Value& v) {
      if (!v.is_tensor()) return;
      input_position[proxy_key(v)] = input_tensors.size();
      input_tensors.push_back(v);
    });
  // Kept in the trace's own names (before replacements pass values through), so that a version
  // which became an alias of another value is still known as a version.
  std::unordered_map<const void*, size_t> version_of;  // a value -> the input it is a later version of
  std::map<size_t, Value> latest;
  ValueMap aliases;

  for (const auto& original : trace.bound_symbols) {
    bool mutates = !original.args.empty() && original.args[0].is_tensor() && original.output.is_tensor() &&
                   mutates_first_argument(original);
    if (mutates) {
      const void* target = proxy_key(original.args[0]);
      auto input = input_position.find(target);
      auto version = version_of.find(target);
      std::optional<size_t> root;
      if (input != input_position.end()) root = input->second;
      else if (version != version_of.end()) root = version->second;
      if (root) {
        version_of[proxy_key(original.output)] = *root;
        latest[*root] = original.output;
      }
    }
    BoundSymbol b = original;
    aliases.apply(b);
    if (!b.sym->has_tag("IN_PLACE")) {
      out.bound_symbols.push_back(std::move(b));
      continue;
    }
    Args bound = b.sym->bind(b.args, b.kwargs);
    Replacement r = replace_bound_symbol(b, [&] { return b.sym->meta(bound); });
    for (auto& s : r.bound_symbols) {
      if (passes_through(s)) continue;  // x.copy_(y) of y's dtype and shape: x's new value is y
      s.source = b.source;
      out.bound_symbols.push_back(std::move(s));
    }
    aliases.merge(r.aliases);
  }
  for (const auto& [position, value] : latest) {
    BoundSymbol copy;
    copy.sym = &SymbolTable::global().get("prims.copy_");
    // The value the last version stands for (a replacement may have passed another through).
    copy.args = {aliases.apply(value), input_tensors[position]};
    copy.output = None{};
    out.bound_symbols.push_back(std::move(copy));
  }
  out.output = aliases.apply(trace.output);
  return out;
}

}  // namespace thundercc
