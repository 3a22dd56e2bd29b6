// Data parallelism (Thunder's ddp transform, thunder/distributed/transforms/ddp_v2.py): every rank
// runs the same training step on its own shard of the batch, and the backward averages each
// parameter gradient over the ranks. Each gradient's all-reduce is started right after the
// statement that computes it and waited for at the end, so that the communication of early
// gradients overlaps the computation of later ones. The average (the sum over the world size) is
// taken by the run, which knows the world size: the plan runs on any number of ranks, and alone as
// it would without the transform.
#include "thundercc/langs/prims.h"
#include "thundercc/passes/passes.h"

namespace thundercc {

Trace distributed_data_parallel(Trace backward) {
  std::unordered_set<const void*> gradients;
  for_each_proxy(backward.output, [&](const Value& v) { gradients.insert(proxy_key(v)); });
  Trace out = backward.derive("Distributed data parallel (all-reduce of the gradients)");
  TracingScope scope(out);
  ValueMap started;  // gradient -> its all-reduce, in flight
  std::vector<Value> in_flight;
  auto start = [&](const Value& g) {
    if (!gradients.count(proxy_key(g)) || started.contains(g)) return;
    started.set(g, prims::all_reduce(g.as_tensor(), "avg", true));
    in_flight.push_back(g);
  };
  for (const auto& in : out.inputs) for_each_proxy(in.value, start);  // a cotangent passed through as a gradient
  for (auto& b : backward.bound_symbols) {
    Value made = b.output;
    out.bound_symbols.push_back(std::move(b));
    for_each_proxy(made, start);
  }
  ValueMap averaged;
  for (const auto& g : in_flight) averaged.set(g, prims::wait(started.apply(g).as_tensor()));
  out.output = averaged.apply(backward.output);
  return out;
}

}  // namespace thundercc
