// Fully sharded data parallelism (Thunder's fsdp transform, thunder/distributed/transforms/fsdp_v2.py):
// each rank holds a shard of every parameter and gathers the whole parameter only to use it. A
// parameter (an input that requires grad and is a module's parameter) is split along its first
// dimension, zero-padded to a multiple of the world size; the program takes the rank's shard and
// gathers the parameter before its first use, each gather started one parameter ahead so that it
// is in flight while the previous parameter's first user runs. Differentiated, a gather's gradient
// is a reduce-scatter averaged over the ranks (grad_rules.cpp), so the backward returns the shards'
// gradients. Whether the backward reads the gathered parameters as saved by the forward (ZeRO-2)
// or gathers them again (ZeRO-3) is the forward-backward split's choice. Run before the grad
// transform, on the program.
#include <algorithm>
#include <unordered_map>

#include "thundercc/errors.h"
#include "thundercc/langs/prims.h"
#include "thundercc/passes/passes.h"

namespace thundercc {
namespace {

struct ShardedParameter {
  Tensor shard;   // the input now
  Tensor whole;   // the input as the program read it, the gathered value from now on
  size_t first_use;
};

// The whole parameter from its gathered shards: the padding cut off, a 0-d one reshaped back.
Tensor unpadded(Tensor gathered, const Tensor& whole) {
  const int64_t rows = whole.ndim() == 0 ? 1 : whole.shape()[0];
  if (gathered.shape()[0] != rows) {
    Shape end = gathered.shape();
    end[0] = rows;
    gathered = prims::slice_prim(gathered, Shape(end.size(), 0), end, Shape(end.size(), 1));
  }
  return whole.ndim() == 0 ? prims::reshape(gathered, {}) : gathered;
}

}  // namespace

Trace fully_sharded_data_parallel(Trace program, int64_t world_size) {
  check(world_size >= 1, "--world-size: expected at least 1 rank");
  Trace out = program.derive(str("Fully sharded data parallel (parameters sharded over ", world_size, " ranks)"));
  TracingScope scope(out);
  std::unordered_map<const void*, size_t> first_use;
  for (size_t i = 0; i < program.bound_symbols.size(); ++i)
    for (const Value& v : program.bound_symbols[i].input_proxies()) first_use.emplace(proxy_key(v), i);
  std::vector<ShardedParameter> parameters;
  for (auto& in : out.inputs) {
    if (in.fqn.empty() || !in.value.is_tensor() || !in.value.as_tensor().requires_grad()) continue;
    const Tensor whole = in.value.as_tensor();
    auto used = first_use.find(proxy_key(whole));
    if (used == first_use.end()) continue;  // no gradient flows to it: nothing to shard
    Shape shape = whole.ndim() == 0 ? Shape{1} : whole.shape();
    shape[0] = (shape[0] + world_size - 1) / world_size;
    // The input keeps its name; the gathered value takes a new one.
    Tensor shard(std::make_shared<const TensorProxyNode>(
        TensorProxyNode{whole.name(), TensorMeta{shape, whole.dtype(), whole.device(), true}}));
    in.value = shard;
    in.shard_of = whole.shape();
    parameters.push_back({shard, whole, used->second});
  }
  check(!parameters.empty(),
        "--distributed fsdp shards the module's parameters, and the program reads none (inputs that require grad and "
        "name a parameter: capture an nn.Module's training step)");
  std::stable_sort(parameters.begin(), parameters.end(),
                   [](const ShardedParameter& a, const ShardedParameter& b) { return a.first_use < b.first_use; });

  ValueMap gathered;
  std::vector<Tensor> in_flight(parameters.size());
  auto start = [&](size_t k) {
    if (k < parameters.size()) in_flight[k] = prims::all_gather(parameters[k].shard, world_size, true);
  };
  start(0);
  size_t next = 0;  // the parameter to gather next
  for (size_t i = 0; i < program.bound_symbols.size(); ++i) {
    for (; next < parameters.size() && parameters[next].first_use == i; ++next) {
      start(next + 1);
      Tensor waited = prims::wait(in_flight[next]);
      gathered.set(parameters[next].whole, unpadded(waited, parameters[next].whole));
    }
    BoundSymbol b = std::move(program.bound_symbols[i]);
    gathered.apply(b);
    out.bound_symbols.push_back(std::move(b));
  }
  out.output = gathered.apply(program.output);
  return out;
}

}  // namespace thundercc
