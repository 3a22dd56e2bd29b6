// Matrix products for the runtime's kernels (matrix_products.cpp): linear, matmul and bmm on
// oneDNN for float32 CPU tensors, at::* otherwise. Given `out` (a planned buffer of the result's
// shape and dtype), they write the result there and return it.
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/util/Optional.h>

namespace thundercc::runtime {

at::Tensor fast_linear(const at::Tensor& a, const at::Tensor& weight, const c10::optional<at::Tensor>& bias,
                       const at::Tensor* out = nullptr);
// at::matmul's semantics (and bmm's).
at::Tensor fast_matmul(const at::Tensor& a, const at::Tensor& b, const at::Tensor* out = nullptr);

}  // namespace thundercc::runtime
