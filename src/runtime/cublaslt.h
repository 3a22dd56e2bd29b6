// cuBLASLt's float32 linear with an epilogue (bias, then ReLU or tanh GELU) in one call, for
// runtime/linear_epilogue.cpp. libcublasLt is found at run time (dlopen; the one LibTorch's CUDA
// build loaded where it did), never linked, so the runtime builds and loads without it; its
// functions are declared by hand and checked against cublasLt.h where the toolkit is installed.
// No LibTorch here: what is decided around the call (the overlap check, the record of a choice)
// is tested where there is no GPU.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "thundercc/plan/linear_epilogue.h"

namespace thundercc::runtime {

// Why cuBLASLt cannot be used (its library not found, a function missing), or empty.
const std::string& cublaslt_problem();
size_t cublaslt_version();  // cublasLtGetVersion(); 0 where it cannot be used

// out[m, n] = activation(x[m, k] weight[n, k]^T + bias[n]), every matrix row-major and dense, on
// CUDA device `device`, which the caller has made current, enqueued on `stream` (a cudaStream_t).
// `bias` may be null. `workspace`: device memory for cuBLASLt. Throws ThunderError naming the
// call that failed.
struct LtLinear {
  int64_t m = 0, n = 0, k = 0;
  const float *x = nullptr, *weight = nullptr, *bias = nullptr;
  float* out = nullptr;
  plan::Activation activation = plan::Activation::relu;
};
void cublaslt_linear(const LtLinear& product, int device, void* stream, void* workspace, size_t workspace_bytes);

// Whether [a, a + a_bytes) and [b, b + b_bytes) share a byte.
bool bytes_overlap(const void* a, size_t a_bytes, const void* b, size_t b_bytes);
// The first of the product's operands (input, weight, bias: null where absent) that the
// activation's planned buffer `out` overlaps, or null: the single call would write over what it
// still reads, so the linear and the region run as two instructions instead.
struct LtOperand {
  const char* name;
  const void* data;
  size_t bytes;
};
const char* overlapped_operand(const void* out, size_t out_bytes, const std::vector<LtOperand>& operands);

// What a measured choice between the epilogue and the separate linear and region is for: the
// GPU, the cuBLASLt version and the product (its sizes, whether it has a bias, the activation).
// Its SHA-256 names the record in the kernel cache.
std::string epilogue_choice_key(const std::string& gpu, size_t version, int64_t m, int64_t n, int64_t k, bool bias,
                                plan::Activation activation);

}  // namespace thundercc::runtime
