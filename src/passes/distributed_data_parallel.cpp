// Data parallelism (Thunder's ddp transform, thunder/distributed/transforms/ddp_v2.py): every rank
// runs the same training step on its own shard of the batch, and the backward averages each
// parameter gradient over the ranks. A gradient's all-reduce is started right after the statement
// that computes it and waited for at the end, so that the communication of early gradients
// overlaps the computation of later ones. With buckets (Thunder's bucketing.py, PyTorch DDP's
// bucket_cap_mb), gradients of one dtype and device are flattened into one tensor, reduced when it
// holds bucket_bytes, and cut back apart after the wait: fewer, larger messages. The first bucket
// started holds at most 1 MiB (PyTorch DDP's first_bucket_bytes): the last layers' gradients, made
// first, start communicating while the backward goes on, where one bucket larger than all the
// gradients would wait for the backward's end. The average (the
// sum over the world size) is taken by the run, which knows the world size: the plan runs on any
// number of ranks, and alone as it would without the transform.
#include <algorithm>
#include <map>

#include "thundercc/langs/prims.h"
#include "thundercc/passes/passes.h"

namespace thundercc {
namespace {

struct Bucket {
  std::vector<Tensor> gradients;
  int64_t bytes = 0;
};

// All-reduces a bucket's gradients as one flat tensor (a lone gradient as it is).
Tensor start_bucket(const Bucket& bucket) {
  if (bucket.gradients.size() == 1) return prims::all_reduce(bucket.gradients[0], "avg", true);
  std::vector<Tensor> flat;
  for (const auto& g : bucket.gradients) flat.push_back(prims::reshape(g, {g.numel()}));
  return prims::all_reduce(prims::cat(flat, 0), "avg", true);
}

// The reduced gradients, cut back out of their bucket's flat tensor.
void finish_bucket(const Bucket& bucket, const Tensor& in_flight, ValueMap& averaged) {
  Tensor reduced = prims::wait(in_flight);
  if (bucket.gradients.size() == 1) return averaged.set(bucket.gradients[0], reduced);
  int64_t offset = 0;
  for (const auto& g : bucket.gradients) {
    Tensor piece = prims::slice_prim(reduced, {offset}, {offset + g.numel()}, {1});
    averaged.set(g, prims::reshape(piece, g.shape()));
    offset += g.numel();
  }
}

constexpr int64_t kFirstBucketBytes = 1 << 20;

}  // namespace

Trace distributed_data_parallel(Trace backward, int64_t bucket_bytes) {
  std::unordered_set<const void*> gradients;  // those not yet started
  for_each_proxy(backward.output, [&](const Value& v) { gradients.insert(proxy_key(v)); });
  Trace out = backward.derive("Distributed data parallel (all-reduce of the gradients)");
  TracingScope scope(out);
  std::map<std::pair<std::string, std::string>, Bucket> filling;  // by dtype and device
  std::vector<std::pair<Bucket, Tensor>> in_flight;
  auto start = [&](const Value& v) {
    if (!gradients.erase(proxy_key(v))) return;
    const Tensor& g = v.as_tensor();
    Bucket& bucket = filling[{g.dtype().full_name(), g.device().str()}];
    bucket.gradients.push_back(g);
    bucket.bytes += g.numel() * g.dtype().bytes();
    if (bucket.bytes >= (in_flight.empty() ? std::min(bucket_bytes, kFirstBucketBytes) : bucket_bytes)) {
      in_flight.emplace_back(bucket, start_bucket(bucket));
      bucket = {};
    }
  };
  for (const auto& in : out.inputs) for_each_proxy(in.value, start);  // a cotangent passed through as a gradient
  for (auto& b : backward.bound_symbols) {
    Value made = b.output;
    out.bound_symbols.push_back(std::move(b));
    for_each_proxy(made, start);
  }
  for (auto& [key, bucket] : filling)
    if (!bucket.gradients.empty()) in_flight.emplace_back(bucket, start_bucket(bucket));
  ValueMap averaged;
  for (const auto& [bucket, reduced] : in_flight) finish_bucket(bucket, reduced, averaged);
  out.output = averaged.apply(backward.output);
  return out;
}

}  // namespace thundercc
