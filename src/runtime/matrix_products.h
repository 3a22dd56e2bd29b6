// Matrix products for the runtime's kernels (matrix_products.cpp): linear, matmul and bmm on
// oneDNN for float32 CPU tensors, at::* otherwise.
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/util/Optional.h>

namespace thundercc::runtime {

at::Tensor fast_linear(const at::Tensor& a, const at::Tensor& weight, const c10::optional<at::Tensor>& bias);
at::Tensor fast_matmul(const at::Tensor& a, const at::Tensor& b);  // at::matmul's semantics (and bmm's)

}  // namespace thundercc::runtime
