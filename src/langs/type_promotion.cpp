#include <algorithm>

#include "langs/core_language.h"

namespace thundercc::core {

DType default_dtype_for(NumberKind k) {
  switch (k) {
    case NumberKind::Bool: return dtypes::bool8;
    case NumberKind::Int: return dtypes::int64;
    case NumberKind::Float: return dtypes::float32;
    case NumberKind::Complex: return dtypes::complex64;
  }
  return dtypes::float32;
}

DType promote_dtypes(DType a, DType b) {
  a = a.strong();
  b = b.strong();
  if (a == b) return a;
  if (a.is_complex() != b.is_complex() && a.is_inexact() && b.is_inexact()) {
    // float and complex: a complex dtype wide enough for both real parts (float64 + complex64 -> complex128).
    const DType& c = a.is_complex() ? a : b;
    const DType& f = a.is_complex() ? b : a;
    return to_complex_dtype(promote_dtypes(to_real_dtype(c), f));
  }
  if (a.category() != b.category()) return a.category() > b.category() ? a : b;
  switch (a.category()) {
    case DTypeCategory::Bool: return a;
    case DTypeCategory::Int: {
      bool a_unsigned = a == dtypes::uint8, b_unsigned = b == dtypes::uint8;
      if (a_unsigned != b_unsigned) {
        const DType& other = a_unsigned ? b : a;
        return other == dtypes::int8 ? dtypes::int16 : other;
      }
      return a.bytes() >= b.bytes() ? a : b;
    }
    case DTypeCategory::Float:
      // Two different 1- or 2-byte float formats (float16 and bfloat16, the float8s) meet at float32.
      if (a.bytes() == b.bytes() && a.bytes() <= 2) return dtypes::float32;
      if (a.bytes() <= 2 && b.bytes() <= 2) return a.bytes() > b.bytes() ? a : b;
      return a.bytes() > b.bytes() ? a : b;
    case DTypeCategory::Complex: return a.bytes() > b.bytes() ? a : b;
  }
  return a;
}

DType computation_dtype(DType d) {
  if (d.is_low_precision()) return d.is_complex() ? dtypes::complex64 : dtypes::float32;
  return d.strong();
}

PromotedDTypes elementwise_type_promotion(const Values& args, Promotion kind) {
  // Three priority groups, as in torch.result_type.
  std::optional<DType> dimensioned, zero_dim, numbers;
  auto merge = [](std::optional<DType>& group, DType d) { group = group ? promote_dtypes(*group, d) : d.strong(); };
  for (const auto& v : args) {
    if (v.is_tensor()) {
      const auto& t = v.as_tensor();
      merge(t.ndim() > 0 ? dimensioned : zero_dim, t.dtype());
    } else if (v.is_number()) {
      merge(numbers, default_dtype_for(v.number_kind()));
    }
  }
  check(dimensioned || zero_dim, "type promotion needs at least one tensor argument", "TypeError");
  DType promoted;
  if (dimensioned && (!zero_dim || zero_dim->category() <= dimensioned->category())) {
    promoted = *dimensioned;
  } else if (dimensioned && zero_dim->is_complex() && dimensioned->is_float()) {
    // A complex 0-d tensor keeps the precision of the dimensioned floats: f16[2] + c128[] -> complex32.
    promoted = to_complex_dtype(*dimensioned);
  } else {
    promoted = *zero_dim;
  }
  if (numbers && numbers->category() > promoted.category()) {
    // A number of a higher category takes the tensors' precision where it can: float32 + 1j -> complex64,
    // float64 + 1j -> complex128, int + 2.5 -> float32 (the default float dtype).
    if (numbers->is_complex() && promoted.is_float()) promoted = to_complex_dtype(promoted);
    else promoted = *numbers;
  }

  DType result = promoted;
  switch (kind) {
    case Promotion::Default:
    case Promotion::Preserve: break;
    case Promotion::IntToFloat:
      if (promoted.is_exact()) result = dtypes::float32;
      break;
    case Promotion::ComplexToFloat: result = to_real_dtype(promoted); break;
    case Promotion::BoolToLong:
      if (promoted.is_bool()) result = dtypes::int64;
      break;
    case Promotion::AlwaysBool: return {computation_dtype(promoted), dtypes::bool8};
  }
  DType computation = kind == Promotion::ComplexToFloat ? computation_dtype(promoted) : computation_dtype(result);
  return {computation, result};
}

Tensor expand_to(const Tensor& a, const Shape& shape) {
  if (a.shape() == shape) return a;
  int64_t offset = static_cast<int64_t>(shape.size()) - a.ndim();
  check(offset >= 0, [&] {
    return str("expand: the number of sizes provided (", shape.size(), ") must be greater or equal to the number of dimensions in the tensor (",
               a.ndim(), ")");
  });
  std::vector<int64_t> dims;
  for (int64_t i = 0; i < a.ndim(); ++i) dims.push_back(offset + i);
  return prims::broadcast_in_dim(a, shape, dims);
}

Values maybe_broadcast(const Values& args) {
  std::vector<Shape> shapes;
  for (const auto& v : args)
    if (v.is_tensor()) shapes.push_back(v.as_tensor().shape());
  Shape common = langs::broadcast_shapes(shapes);
  Values out;
  for (const auto& v : args) {
    if (v.is_tensor() && !(v.as_tensor().ndim() == 0 && v.as_tensor().device().is_cpu()))
      out.push_back(expand_to(v.as_tensor(), common));
    else
      out.push_back(v);
  }
  return out;
}

Tensor convert(const Tensor& a, DType dtype) {
  if (a.dtype() == dtype) return a;
  return prims::convert_element_type(a, dtype);
}

Value maybe_convert_to_dtype(const Value& v, DType dtype) {
  if (v.is_tensor()) return convert(v.as_tensor(), dtype);
  if (!v.is_number() || v.is_number_proxy()) return v;
  switch (dtype.category()) {
    case DTypeCategory::Bool: return v.number_kind() == NumberKind::Complex ? Value(v.as_complex() != 0.0) : Value(v.as_float() != 0.0);
    case DTypeCategory::Int: return v.number_kind() == NumberKind::Float ? Value(static_cast<int64_t>(v.as_float())) : Value(v.as_int());
    case DTypeCategory::Float: return v.number_kind() == NumberKind::Complex ? v : Value(v.as_float());
    case DTypeCategory::Complex: return Value(v.as_complex());
  }
  return v;
}

Tensor elementwise_unary(const Value& a, UnaryPrim prim, Promotion kind) {
  auto [computation, result] = elementwise_type_promotion({a}, kind);
  Tensor out = prim(maybe_convert_to_dtype(a, computation));
  return convert(out, result);
}

Tensor elementwise_binary(const Value& a, const Value& b, BinaryPrim prim, Promotion kind) {
  auto [computation, result] = elementwise_type_promotion({a, b}, kind);
  Values ab = maybe_broadcast({a, b});
  // Separate statements: the conversions are recorded in argument order.
  Value a_ = maybe_convert_to_dtype(ab[0], computation);
  Value b_ = maybe_convert_to_dtype(ab[1], computation);
  return convert(prim(a_, b_), result);
}

std::vector<int64_t> reduction_dims(const Tensor& a, const std::optional<std::vector<int64_t>>& dims) {
  if (!dims || dims->empty()) {
    std::vector<int64_t> all(a.ndim());
    for (int64_t i = 0; i < a.ndim(); ++i) all[i] = i;
    return all;
  }
  auto out = langs::canonicalize_dims(a.ndim(), *dims);
  if (a.ndim() == 0) out.clear();
  std::sort(out.begin(), out.end());
  return out;
}

Tensor restore_reduced_dims(const Tensor& reduced, const Shape& original, const std::vector<int64_t>& dims) {
  Shape shape = original;
  std::vector<int64_t> kept;
  for (int64_t i = 0; i < static_cast<int64_t>(original.size()); ++i) {
    if (std::find(dims.begin(), dims.end(), i) != dims.end()) shape[i] = 1;
    else kept.push_back(i);
  }
  return prims::broadcast_in_dim(reduced, shape, kept);
}

Tensor unsqueeze_dims(const Tensor& a, std::vector<int64_t> dims) {
  int64_t rank = a.ndim() + static_cast<int64_t>(dims.size());
  for (auto& d : dims) d = langs::canonicalize_dim(rank, d);
  std::sort(dims.begin(), dims.end());
  Shape shape;
  std::vector<int64_t> bdims;
  size_t src = 0, k = 0;
  for (int64_t i = 0; i < rank; ++i) {
    if (k < dims.size() && dims[k] == i) {
      shape.push_back(1);
      ++k;
    } else {
      bdims.push_back(i);
      shape.push_back(a.shape()[src++]);
    }
  }
  return prims::broadcast_in_dim(a, shape, bdims);
}

}  // namespace thundercc::core
