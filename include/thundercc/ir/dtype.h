// Thunder's dtypes: every element type a tensor proxy can have, with the short names used in
// printed type strings (f32) and the full names used in code (dtypes.float32). A dtype may be
// weak: the dtype of a Python number or 0-d tensor, which loses to strong dtypes in promotion.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace thundercc {

enum class ScalarType : uint8_t {
  Bool8, UInt8, Int8, Int16, Int32, Int64,
  BFloat16, Float16, Float32, Float64,
  Complex32, Complex64, Complex128,
  Float8E5M2, Float8E5M2Fnuz, Float8E4M3Fn, Float8E4M3Fnuz,
};

// The promotion category of a dtype: bool < int < float < complex.
enum class DTypeCategory : uint8_t { Bool = 0, Int = 1, Float = 2, Complex = 3 };

struct DType {
  ScalarType type = ScalarType::Float32;
  bool weak = false;

  constexpr DType() = default;
  constexpr DType(ScalarType t, bool is_weak = false) : type(t), weak(is_weak) {}

  std::string_view short_name() const;  // "f32"
  std::string full_name() const;        // "float32", "float32_" when weak
  std::string_view torch_name() const;  // "float32" as in torch.float32, "bool" for bool8
  int bytes() const;
  DTypeCategory category() const;
  bool is_bool() const { return category() == DTypeCategory::Bool; }
  bool is_integer() const { return category() == DTypeCategory::Int; }  // excludes bool
  bool is_exact() const { return category() <= DTypeCategory::Int; }    // bool or integer
  bool is_float() const { return category() == DTypeCategory::Float; }
  bool is_complex() const { return category() == DTypeCategory::Complex; }
  bool is_inexact() const { return category() >= DTypeCategory::Float; }
  bool is_low_precision() const;  // float16, bfloat16, float8*, complex32: computed in higher precision
  DType strong() const { return {type, false}; }
  DType as_weak() const { return {type, true}; }

  // Equality ignores weakness, as Thunder's does when comparing a proxy's dtype to a dtype.
  bool operator==(const DType& o) const { return type == o.type; }
  bool same_with_weakness(const DType& o) const { return type == o.type && weak == o.weak; }

  static const std::vector<DType>& all();
  // Parses a full name ("float32", "float32_") or a torch name ("bool", "float32").
  static std::optional<DType> parse(std::string_view name);
};

namespace dtypes {
inline constexpr DType bool8{ScalarType::Bool8};
inline constexpr DType uint8{ScalarType::UInt8};
inline constexpr DType int8{ScalarType::Int8};
inline constexpr DType int16{ScalarType::Int16};
inline constexpr DType int32{ScalarType::Int32};
inline constexpr DType int64{ScalarType::Int64};
inline constexpr DType bfloat16{ScalarType::BFloat16};
inline constexpr DType float16{ScalarType::Float16};
inline constexpr DType float32{ScalarType::Float32};
inline constexpr DType float64{ScalarType::Float64};
inline constexpr DType complex32{ScalarType::Complex32};
inline constexpr DType complex64{ScalarType::Complex64};
inline constexpr DType complex128{ScalarType::Complex128};
}  // namespace dtypes

// float <-> complex counterparts (float32 <-> complex64, ...).
DType to_complex_dtype(DType d);
DType to_real_dtype(DType d);

}  // namespace thundercc
