// Delete Last Used: after each statement, `del` the values that no later statement reads, so the
// runtime can free them as early as possible. Values never read are deleted right after they are
// produced (inputs never read, before the first statement). What the trace returns is kept.
#include <unordered_map>
#include <unordered_set>

#include "thundercc/ir/rewrite.h"
#include "thundercc/langs/prims.h"
#include "thundercc/passes/passes.h"

namespace thundercc {

Trace delete_last_used(Trace trace) {
  Trace out = trace.derive("Delete Last Used");
  std::unordered_set<const void*> returned;
  for_each_proxy(trace.output, [&](const Value& v) { returned.insert(proxy_key(v)); });
  // The index of the last statement reading each proxy.
  std::unordered_map<const void*, size_t> last_use;
  for (size_t i = 0; i < trace.bound_symbols.size(); ++i)
    for (const auto& in : trace.bound_symbols[i].input_proxies()) last_use[proxy_key(in)] = i;

  auto del = [&](const std::vector<Value>& values) {
    if (values.empty()) return;
    BoundSymbol d;
    d.sym = &prims::python_del();
    d.args = values;
    out.bound_symbols.push_back(std::move(d));
  };
  auto dead_after = [&](const Value& v, std::optional<size_t> i) {
    if (returned.count(proxy_key(v))) return false;
    auto it = last_use.find(proxy_key(v));
    return it == last_use.end() ? true : i.has_value() && it->second == *i;
  };

  std::vector<Value> unused_inputs;
  for (const auto& in : trace.inputs)
    for_each_proxy(in.value, [&](const Value& v) {
      if (!last_use.count(proxy_key(v)) && !returned.count(proxy_key(v))) unused_inputs.push_back(v);
    });
  del(unused_inputs);

  std::unordered_set<const void*> deleted;
  for (size_t i = 0; i < trace.bound_symbols.size(); ++i) {
    const auto& b = trace.bound_symbols[i];
    std::vector<Value> dead;
    auto consider = [&](const Value& v) {
      if (deleted.count(proxy_key(v)) || !dead_after(v, i)) return;
      deleted.insert(proxy_key(v));
      dead.push_back(v);
    };
    for (const auto& in : b.input_proxies()) consider(in);
    for_each_proxy(b.output, [&](const Value& v) {
      if (!last_use.count(proxy_key(v))) consider(v);
    });
    out.bound_symbols.push_back(std::move(trace.bound_symbols[i]));
    del(dead);
  }
  out.output = std::move(trace.output);
  return out;
}

}  // namespace thundercc
