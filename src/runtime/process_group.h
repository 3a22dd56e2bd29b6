// The ranks a plan's collectives run over (prims.all_reduce, prims.wait): the process group joined
// from torchrun's environment over c10d.
#pragma once

#include <ATen/ATen.h>
#include <string>
#include <vector>

namespace thundercc::runtime {

// This process's rank and the world size: RANK and WORLD_SIZE as torchrun sets them (0 and 1 alone).
int rank();
int world_size();

// Joins the ranks before a distributed plan runs: every rank must have been given the same plan
// (its digest is compared with rank 0's through the store), and the parameters (the tensors in
// `parameters`) become rank 0's, broadcast in place.
void join_ranks(const std::string& plan_digest, std::vector<at::Tensor> parameters);
// Every rank's tensors become rank 0's, in place (a data-parallel step's buffers, as PyTorch's
// DistributedDataParallel broadcasts them before each forward).
void broadcast_from_first_rank(std::vector<at::Tensor> tensors);

// Starts reducing `t` in place over the ranks (a sum, divided by the world size when `average`):
// ready after finish_collective(t). Alone, there is nothing to reduce.
void start_all_reduce(const at::Tensor& t, bool average);
void finish_collective(const at::Tensor& t);

}  // namespace thundercc::runtime
