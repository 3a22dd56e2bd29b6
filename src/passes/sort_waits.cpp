// Sort waits (Thunder's sort_waits, thunder/distributed/utils.py): a collective started with
// do_async is ready only after its prims.wait, and the grad rules record each wait right after its
// collective. Moving every wait down to just before the first statement that reads its result (or
// to the end) lets the communication run while the statements in between compute: in FSDP's
// backward, each gradient's reduce-scatter overlaps the rest of the backward.
#include <optional>
#include <unordered_map>

#include "thundercc/passes/passes.h"

namespace thundercc {

Trace sort_waits(Trace trace) {
  Trace out = trace.derive("Sort waits (each collective waited for just before its result is read)");
  std::vector<std::optional<BoundSymbol>> waits;       // held back, in their order
  std::unordered_map<const void*, size_t> waiting;     // by the value each makes ready
  auto release = [&](const Value& v) {
    auto it = waiting.find(proxy_key(v));
    if (it == waiting.end()) return;
    out.bound_symbols.push_back(std::move(*waits[it->second]));
    waits[it->second].reset();
    waiting.erase(it);
  };
  for (auto& b : trace.bound_symbols) {
    if (b.sym->id == "prims.wait") {
      waiting[proxy_key(b.output)] = waits.size();
      waits.push_back(std::move(b));
      continue;
    }
    for (const Value& v : b.input_proxies()) release(v);
    out.bound_symbols.push_back(std::move(b));
  }
  for (auto& w : waits)  // what no statement reads: waited for at the end
    if (w) out.bound_symbols.push_back(std::move(*w));
  out.output = std::move(trace.output);
  return out;
}

}  // namespace thundercc
