#include "thundercc/ir/dtype.h"

#include <array>

namespace thundercc {
namespace {

struct DTypeInfo {
  ScalarType type;
  std::string_view short_name;
  std::string_view full_name;
  std::string_view torch_name;
  int bytes;
  DTypeCategory category;
};

constexpr std::array<DTypeInfo, 17> kInfos{{
    {ScalarType::Bool8, "b8", "bool8", "bool", 1, DTypeCategory::Bool},
    {ScalarType::UInt8, "ui8", "uint8", "uint8", 1, DTypeCategory::Int},
    {ScalarType::Int8, "i8", "int8", "int8", 1, DTypeCategory::Int},
    {ScalarType::Int16, "i16", "int16", "int16", 2, DTypeCategory::Int},
    {ScalarType::Int32, "i32", "int32", "int32", 4, DTypeCategory::Int},
    {ScalarType::Int64, "i64", "int64", "int64", 8, DTypeCategory::Int},
    {ScalarType::BFloat16, "bf16", "bfloat16", "bfloat16", 2, DTypeCategory::Float},
    {ScalarType::Float16, "f16", "float16", "float16", 2, DTypeCategory::Float},
    {ScalarType::Float32, "f32", "float32", "float32", 4, DTypeCategory::Float},
    {ScalarType::Float64, "f64", "float64", "float64", 8, DTypeCategory::Float},
    {ScalarType::Complex32, "c32", "complex32", "complex32", 4, DTypeCategory::Complex},
    {ScalarType::Complex64, "c64", "complex64", "complex64", 8, DTypeCategory::Complex},
    {ScalarType::Complex128, "c128", "complex128", "complex128", 16, DTypeCategory::Complex},
    {ScalarType::Float8E5M2, "f8_e5m2", "float8_e5m2", "float8_e5m2", 1, DTypeCategory::Float},
    {ScalarType::Float8E5M2Fnuz, "f8_e5m2fnuz", "float8_e5m2fnuz", "float8_e5m2fnuz", 1, DTypeCategory::Float},
    {ScalarType::Float8E4M3Fn, "f8_e4m3fn", "float8_e4m3fn", "float8_e4m3fn", 1, DTypeCategory::Float},
    {ScalarType::Float8E4M3Fnuz, "f8_e4m3fnuz", "float8_e4m3fnuz", "float8_e4m3fnuz", 1, DTypeCategory::Float},
}};

const DTypeInfo& info(ScalarType t) { return kInfos[static_cast<size_t>(t)]; }

}  // namespace

std::string_view DType::short_name() const { return info(type).short_name; }
std::string DType::full_name() const { return std::string(info(type).full_name) + (weak ? "_" : ""); }
std::string_view DType::torch_name() const { return info(type).torch_name; }
int DType::bytes() const { return info(type).bytes; }
DTypeCategory DType::category() const { return info(type).category; }

bool DType::is_low_precision() const {
  return type == ScalarType::Float16 || type == ScalarType::BFloat16 || type == ScalarType::Complex32 ||
         (is_float() && bytes() == 1);
}

const std::vector<DType>& DType::all() {
  static const std::vector<DType> all = [] {
    std::vector<DType> v;
    for (const auto& i : kInfos) v.emplace_back(i.type);
    return v;
  }();
  return all;
}

std::optional<DType> DType::parse(std::string_view name) {
  bool weak = false;
  if (!name.empty() && name.back() == '_') {
    weak = true;
    name.remove_suffix(1);
  }
  for (const auto& i : kInfos)
    if (i.full_name == name || i.torch_name == name) return DType(i.type, weak);
  return std::nullopt;
}

DType to_complex_dtype(DType d) {
  switch (d.type) {
    // bfloat16 has no complex counterpart; PyTorch promotes it to complex64.
    case ScalarType::Float16: return {ScalarType::Complex32, d.weak};
    case ScalarType::BFloat16: return {ScalarType::Complex64, d.weak};
    case ScalarType::Float64: return {ScalarType::Complex128, d.weak};
    case ScalarType::Float32: return {ScalarType::Complex64, d.weak};
    default: return d;
  }
}

DType to_real_dtype(DType d) {
  switch (d.type) {
    case ScalarType::Complex32: return {ScalarType::Float16, d.weak};
    case ScalarType::Complex64: return {ScalarType::Float32, d.weak};
    case ScalarType::Complex128: return {ScalarType::Float64, d.weak};
    default: return d;
  }
}

}  // namespace thundercc
