// Matrix products and convolutions for the runtime's kernels (matrix_products.cpp): linear,
// matmul, bmm, conv2d and max_pool2d on oneDNN for float32 CPU tensors, at::* otherwise.
// Given `out` (a planned buffer of the result's shape and dtype), linear and matmul write the
// result there and return it.
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/core/MemoryFormat.h>
#include <c10/util/Optional.h>

namespace thundercc::runtime {

at::Tensor fast_linear(const at::Tensor& a, const at::Tensor& weight, const c10::optional<at::Tensor>& bias,
                       const at::Tensor* out = nullptr);
// at::max_pool2d's semantics.
at::Tensor fast_max_pool2d(const at::Tensor& a, at::IntArrayRef kernel, at::IntArrayRef stride, at::IntArrayRef padding,
                           at::IntArrayRef dilation, bool ceil_mode);
// at::matmul's semantics (and bmm's).
at::Tensor fast_matmul(const at::Tensor& a, const at::Tensor& b, const at::Tensor* out = nullptr);
// at::conv2d's semantics, with numeric padding (a string padding goes to at::conv2d): float32
// on oneDNN's convolution primitive, the result in `layout` (ChannelsLast or Contiguous; in
// `out`'s memory when given). `packed_once`: the weight is a tensor whose changes its version
// counter sees (a program input), so its reordered copy is kept for the next call.
at::Tensor fast_conv2d(const at::Tensor& a, const at::Tensor& weight, const c10::optional<at::Tensor>& bias,
                       at::IntArrayRef stride, at::IntArrayRef padding, at::IntArrayRef dilation, int64_t groups,
                       const at::Tensor* out, at::MemoryFormat layout, bool packed_once);

}  // namespace thundercc::runtime
