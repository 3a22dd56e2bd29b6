// The core language (thunder/clang): helpers the torch language's decompositions share. They are
// not symbols, so they leave no trace of their own; only the prims they call are recorded.
#pragma once

#include <functional>

#include "langs/utils.h"
#include "thundercc/langs/prims.h"
#include "thundercc/langs/torch.h"

namespace thundercc::core {

enum class Promotion { Default, Preserve, IntToFloat, ComplexToFloat, BoolToLong, AlwaysBool };

struct PromotedDTypes {
  DType computation;
  DType result;
};

// Type promotion as torch.result_type does it, then the promotion kind: tensors with dimensions
// beat 0-d tensors, which beat Python numbers, within the highest category (bool < int < float <
// complex). The computation dtype upcasts float16/bfloat16 to float32.
PromotedDTypes elementwise_type_promotion(const Values& args, Promotion kind);
DType promote_dtypes(DType a, DType b);
DType computation_dtype(DType d);
DType default_dtype_for(NumberKind k);

// Broadcasts tensor arguments to their common shape (CPU 0-d tensors act as numbers and stay).
Values maybe_broadcast(const Values& args);
// Converts a tensor with convert_element_type, or a Python number to the dtype's Python kind.
Value maybe_convert_to_dtype(const Value& v, DType dtype);
Tensor convert(const Tensor& a, DType dtype);
Tensor expand_to(const Tensor& a, const Shape& shape);

using UnaryPrim = Tensor (*)(const Value&);
using BinaryPrim = Tensor (*)(const Value&, const Value&);
Tensor elementwise_unary(const Value& a, UnaryPrim prim, Promotion kind);
Tensor elementwise_binary(const Value& a, const Value& b, BinaryPrim prim, Promotion kind);

// Reductions: dims canonicalized (none given means all), keepdim restored with broadcast_in_dim.
std::vector<int64_t> reduction_dims(const Tensor& a, const std::optional<std::vector<int64_t>>& dims);
Tensor restore_reduced_dims(const Tensor& reduced, const Shape& original, const std::vector<int64_t>& dims);

// Tensor.shape-style helpers.
Tensor unsqueeze_dims(const Tensor& a, std::vector<int64_t> dims);

}  // namespace thundercc::core
