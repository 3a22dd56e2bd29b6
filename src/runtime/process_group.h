// The ranks a plan's collectives run over (prims.all_reduce, prims.wait): the process group joined
// from torchrun's environment over c10d, with Gloo or NCCL.
#pragma once

#include <ATen/ATen.h>
#include <string>
#include <vector>

namespace thundercc::runtime {

// This process's rank and the world size: RANK and WORLD_SIZE as torchrun sets them (0 and 1 alone).
int rank();
int world_size();

// Before a distributed plan binds: chooses the backend for the CUDA devices of its inputs
// (rank_placement.h: NCCL for a plan on CUDA where this LibTorch has it, else Gloo;
// THUNDERCC_DISTRIBUTED_BACKEND chooses either) and, under NCCL, runs the plan's CUDA device on
// cuda:LOCAL_RANK (swap_cuda_devices). Throws naming the rank where that cannot run.
void place_this_rank(const std::vector<int>& plan_cuda_devices);
const char* backend_name();  // "gloo" or "nccl"

// Joins the ranks before a distributed plan runs: every rank must have been given the same plan
// (its digest is compared with rank 0's through the store).
void join_ranks(const std::string& plan_digest);
// Every rank's tensors become rank 0's, in place (a data-parallel step's buffers, as PyTorch's
// DistributedDataParallel broadcasts them before each forward).
void broadcast_from_first_rank(std::vector<at::Tensor> tensors);

// Starts reducing `t` in place over the ranks (a sum, divided by the world size when `average`):
// ready after finish_collective(t). Alone, there is nothing to reduce.
void start_all_reduce(const at::Tensor& t, bool average);
// FSDP's, along the first dimension: the ranks' shards concatenated in rank order; `t` reduced
// over the ranks, of which this rank keeps its rows. Ready after finish_collective of the result.
at::Tensor start_all_gather(const at::Tensor& shard);
at::Tensor start_reduce_scatter(const at::Tensor& t, bool average);
// What this rank's collectives handed to the process group since the last reset: how many, and
// their payload's bytes (what an all-reduce or a broadcast reduces or sends, the whole tensor an
// all-gather fills).
struct CommunicationStats {
  int64_t collectives = 0, bytes = 0;
};
CommunicationStats communication_stats();
void reset_communication_stats();

// FSDP's parameters at the run's edges: this rank's shard of `whole` (its first dimension
// zero-padded to a multiple of the world size, split evenly; a 0-d tensor as one row), and the
// whole tensor of shape `whole_shape` gathered back from every rank's shard (a collective).
at::Tensor rank_shard(const at::Tensor& whole);
at::Tensor gather_whole(const at::Tensor& shard, at::IntArrayRef whole_shape);
// Waits for the collective that gave `t` (returned at once where none is in flight) and returns
// its result: `t` itself, or a compact copy of a reduce-scatter's rows.
at::Tensor finish_collective(const at::Tensor& t);

}  // namespace thundercc::runtime
