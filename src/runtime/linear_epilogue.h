// A plan's linear and the ReLU or tanh GELU region after it (plan/linear_epilogue.h) computed by
// one cuBLASLt call with the activation as its epilogue (runtime/cublaslt.h), writing the
// activation's output where the plan put it, on CUDA, where that is the faster: the pair and the
// single call are timed once per GPU, cuBLASLt version and shape, and the choice kept in the kernel
// cache (as matrix_products.cpp keeps its CPU choices). THUNDERCC_LINEAR_EPILOGUE=fused or
// =separate takes one for every pair.
#pragma once

#include "thundercc/plan/linear_epilogue.h"
#include "thundercc/runtime/kernels.h"

namespace thundercc::runtime {

class LinearEpilogue {
 public:
  // `linear` and `region`: the two instructions' own kernels, which run the pair when the single
  // call does not; they outlive this.
  LinearEpilogue(plan::Activation activation, const Kernel& linear, const Kernel& region)
      : activation_(activation), linear_(linear), region_(region) {}
  // True when the single call computed the region's output (the linear's result is then never
  // made); false when the caller is to run the two instructions: tensors off the GPU or not dense
  // float32, no cuBLASLt, the activation's buffer overlapping what the product reads, or the pair
  // chosen. A recording CUDA graph is never timed (that would wait for the device): a pair not
  // chosen before it runs as two instructions.
  bool run(KernelCall& linear, KernelCall& region) const;

 private:
  plan::Activation activation_;
  const Kernel& linear_;
  const Kernel& region_;
};

}  // namespace thundercc::runtime
