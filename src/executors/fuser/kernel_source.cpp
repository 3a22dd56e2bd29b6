// Emission follows the region's levels (region_analysis.h): per row, statements in program
// order; a row value is one scalar statement; a reduction is a loop over the columns that
// computes the element values it needs (recomputing cheap ones rather than storing them: the
// loads are cheaper than a round trip through memory; a costly one, an exp or a division, is
// kept from an earlier loop of the row in a row array on the CPU); the element outputs are one
// last loop.
#include "thundercc/executors/fuser/kernel_source.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <unordered_map>

#include "thundercc/errors.h"
#include "thundercc/executors/fuser/region_analysis.h"
#include "thundercc/ir/pyliteral.h"
#include "thundercc/ir/rewrite.h"
#include "thundercc/support/sha256.h"

namespace thundercc::fuser {
namespace {

bool is_half(DType d) { return d.type == ScalarType::BFloat16 || d.type == ScalarType::Float16; }

// The type a value is computed in. float16 and bfloat16 values are floats holding values the
// dtype represents exactly: every statement that makes one rounds (tcc_round_*), as ATen computes
// each op on them in float and rounds its result.
const char* c_type(DType d) {
  switch (d.type) {
    case ScalarType::Bool8: return "bool";
    case ScalarType::Int32: return "int32_t";
    case ScalarType::Int64: return "int64_t";
    case ScalarType::BFloat16:
    case ScalarType::Float16:
    case ScalarType::Float32: return "float";
    case ScalarType::Float64: return "double";
    default: throw ThunderError("NotImplementedError", str("fuser: no C type for ", d.short_name()));
  }
}

// The type in memory. Bool tensors are bytes, read and written as unsigned char (bool has no
// vector type: GCC leaves a loop that loads or stores bool unvectorized); the 16-bit floats are
// their bit patterns, converted on load and store.
const char* storage_type(DType d) {
  if (d.is_bool()) return "unsigned char";
  return is_half(d) ? "unsigned short" : c_type(d);
}

// "bf16" or "f16": the suffix of the conversion functions of a 16-bit float dtype.
const char* half_suffix(DType d) { return d.type == ScalarType::BFloat16 ? "bf16" : "f16"; }

// A value computed in float, rounded to a 16-bit float dtype; other dtypes' values as they are.
std::string rounded(DType d, const std::string& value) { return is_half(d) ? str("tcc_round_", half_suffix(d), "(", value, ")") : value; }

// A value as stored into a tensor of dtype `d`.
std::string stored(DType d, const std::string& value) { return is_half(d) ? str("tcc_store_", half_suffix(d), "(", value, ")") : value; }

// The C math function for an argument computed in float or in double: "tanhf" or "tanh".
std::string math(const char* name, DType d) { return std::string(name) + (std::string_view(c_type(d)) == "float" ? "f" : ""); }

// Glibc's vector math (libmvec) has SIMD versions of the ops unary_ops.def marks VectorMath;
// declaring them lets the compiler vectorize loops that call them without -ffast-math's other
// licences.
#define THUNDERCC_C_VectorMath(name) #name,
#define THUNDERCC_C_Math(name)
#define THUNDERCC_C_Special(name)
#define THUNDERCC_C_None(name)
const char* kVectorMath[] = {
#define THUNDERCC_UNARY_OP(name, accepts, produces, promotion, in_place, aten, fuser, c) THUNDERCC_C_##c(name)
#include "thundercc/langs/unary_ops.def"
};
#undef THUNDERCC_C_VectorMath
#undef THUNDERCC_C_Math
#undef THUNDERCC_C_Special
#undef THUNDERCC_C_None

// No standard headers: they would be most of a kernel's compile time. The C library's math
// functions are declared here, the rest are compiler builtins.
const char* kScalarMath[] = {"fabs", "sqrt", "floor", "ceil", "trunc", "nearbyint"};

// How generated code spells each binary prim (binary_ops.def's c column): one C operator, or a
// call of the C library's function of the prim's name (vectorized by libmvec).
enum class BinarySpelling { Infix, Call, Special, None };
struct BinaryC {
  const char* id;
  BinarySpelling spelling;
  const char* infix;
};
#define THUNDERCC_BINARY_C_Infix(op) BinarySpelling::Infix, #op
#define THUNDERCC_BINARY_C_Call BinarySpelling::Call, ""
#define THUNDERCC_BINARY_C_Special BinarySpelling::Special, ""
#define THUNDERCC_BINARY_C_None BinarySpelling::None, ""
const BinaryC kBinaryC[] = {
#define THUNDERCC_BINARY_OP(name, accepts, produces, torch, promotion, in_place, printed, kernel, fuser, c) \
  {"prims." #name, THUNDERCC_BINARY_C_##c},
#include "thundercc/langs/binary_ops.def"
};
#undef THUNDERCC_BINARY_C_Infix
#undef THUNDERCC_BINARY_C_Call
#undef THUNDERCC_BINARY_C_Special
#undef THUNDERCC_BINARY_C_None

const BinaryC* binary_c(std::string_view id) {
  static const auto* by_id = [] {
    auto* m = new std::map<std::string_view, const BinaryC*>();
    for (const auto& b : kBinaryC) (*m)[b.id] = &b;
    return m;
  }();
  auto it = by_id->find(id);
  return it == by_id->end() ? nullptr : it->second;
}

// exp for float, vectorizable and fast over its whole range. glibc's vector expf takes a scalar
// path for a whole vector when one lane is below -87.3 (where exp is subnormal or 0): every
// vector of a masked softmax row holds -inf, and such a region ran 25x slower than unmasked.
// Cephes' method: exp(x) = 2^n exp(r), n = rint(x / ln 2), r = x - n ln 2 (ln 2 in two parts,
// exactly), exp(r) by a degree-7 polynomial (within 2 ulp); 2^n as two float powers so that
// subnormal results round once and overflow gives inf. Below -104 exp rounds to 0: such a lane
// (and NaN) computes exp(0) and is replaced by 0, as a product that underflows costs a microcode
// assist (a masked softmax's exps, half of them of -inf, ran 2x slower on a Zen 5); above 89 the
// argument is clamped where exp is inf. NaN is returned as it came. The powers are bit patterns
// copied into floats (__builtin_memcpy: any GCC or Clang).
const char* kExpf =
    "static inline float tcc_pow2f(int k) {\n"
    "  int bits = (k + 127) << 23;\n"
    "  float f;\n"
    "  __builtin_memcpy(&f, &bits, sizeof f);\n"
    "  return f;\n"
    "}\n"
    "static inline float tcc_expf(float x) {\n"
    "  bool zero = !(x >= -104.0f);\n"
    "  float c = zero ? 0.0f : (x < 89.0f ? x : 89.0f);\n"
    "  float n = __builtin_rintf(c * 1.44269504088896341f);\n"
    "  float r = (c - n * 0.693359375f) + n * 2.12194440e-4f;\n"
    "  float p = 1.9875691500e-4f;\n"
    "  p = p * r + 1.3981999507e-3f;\n"
    "  p = p * r + 8.3334519073e-3f;\n"
    "  p = p * r + 4.1665795894e-2f;\n"
    "  p = p * r + 1.6666665459e-1f;\n"
    "  p = p * r + 5.0000001201e-1f;\n"
    "  p = p * r * r + r + 1.0f;\n"
    "  int k = (int)n, k1 = k >> 1, k2 = k - k1;\n"
    "  float e = p * tcc_pow2f(k1) * tcc_pow2f(k2);\n"
    "  return x != x ? x : (zero ? 0.0f : e);\n"
    "}\n";

// Conversions between float and the 16-bit floats' bit patterns, rounding to nearest even, as
// c10::BFloat16 and c10::Half convert (NaN to the quiet NaN of either sign for float16, to 0x7fc0
// for bfloat16). Branch-free, so that loops over them vectorize. `q` qualifies each function;
// tcc_bits and tcc_float reinterpret a float's bits, defined per target before these.
std::string half_conversions(const char* q) {
  return str(
      q, " float tcc_load_bf16(unsigned short h) { return tcc_float((unsigned)h << 16); }\n",
      q, " unsigned short tcc_store_bf16(float f) {\n"
      "  unsigned b = tcc_bits(f);\n"
      "  return f != f ? (unsigned short)0x7fc0 : (unsigned short)((b + 0x7fffu + ((b >> 16) & 1u)) >> 16);\n"
      "}\n",
      q, " float tcc_round_bf16(float f) { return tcc_load_bf16(tcc_store_bf16(f)); }\n",
      // float16 to float: normal numbers rebias the exponent (127 - 15), infinities and NaNs keep
      // their payload, subnormals are their mantissa times 2^-24 (exact in float).
      q, " float tcc_load_f16(unsigned short h) {\n"
      "  unsigned rest = h & 0x7fffu;\n"
      "  unsigned normal = (rest << 13) + 0x38000000u;\n"
      "  unsigned special = (rest << 13) | 0x7f800000u;\n"
      "  unsigned subnormal = tcc_bits((float)(int)rest * 5.9604644775390625e-8f);\n"
      "  unsigned magnitude = rest >= 0x7c00u ? special : rest >= 0x0400u ? normal : subnormal;\n"
      "  return tcc_float(((unsigned)(h & 0x8000u) << 16) | magnitude);\n"
      "}\n",
      // float to float16: in the normal range the 13 dropped bits round to nearest even, a carry
      // moving into the exponent (up to infinity, the clamp); below 2^-14, adding 0.5 rounds |f|
      // to a multiple of 2^-24, the ulp of floats in [0.5, 1), leaving the subnormal's mantissa.
      q, " unsigned short tcc_store_f16(float f) {\n"
      "  unsigned b = tcc_bits(f), a = b & 0x7fffffffu;\n"
      "  unsigned normal = (a - 0x38000000u + 0xfffu + ((a >> 13) & 1u)) >> 13;\n"
      "  normal = normal < 0x7c00u ? normal : 0x7c00u;\n"
      "  unsigned subnormal = tcc_bits(tcc_float(a) + 0.5f) - 0x3f000000u;\n"
      "  unsigned magnitude = a > 0x7f800000u ? 0x7e00u : a >= 0x38800000u ? normal : subnormal;\n"
      "  return (unsigned short)(((b >> 16) & 0x8000u) | magnitude);\n"
      "}\n",
      q, " float tcc_round_f16(float f) { return tcc_load_f16(tcc_store_f16(f)); }\n");
}

// The C library's math functions the kernels call, declared (no standard headers), and the
// classification macros as compiler builtins.
std::string make_math_declarations() {
  std::string s = "extern \"C\" {\n";
  for (const char* f : kVectorMath) {
    s += str("__attribute__((simd(\"notinbranch\"))) float ", f, "f(float) noexcept;\n");
    s += str("__attribute__((simd(\"notinbranch\"))) double ", f, "(double) noexcept;\n");
  }
  for (const char* f : kScalarMath) s += str("float ", f, "f(float) noexcept;\ndouble ", f, "(double) noexcept;\n");
  for (const auto& b : kBinaryC) {
    if (b.spelling != BinarySpelling::Call) continue;
    std::string_view f = std::string_view(b.id).substr(6);
    s += str("__attribute__((simd(\"notinbranch\"))) float ", f, "f(float, float) noexcept;\n");
    s += str("__attribute__((simd(\"notinbranch\"))) double ", f, "(double, double) noexcept;\n");
  }
  // signbit from the bits: GCC 12's __builtin_signbit, vectorized over a loop of unknown length
  // on a float converted from float16, fails to compile (an internal compiler error).
  return s + "}\n#define isfinite __builtin_isfinite\n"
             "template <class T> static inline bool tcc_signbit(T x) { return x < 0; }\n"
             "static inline bool tcc_signbit(float x) { unsigned b; __builtin_memcpy(&b, &x, 4); return b >> 31; }\n"
             "static inline bool tcc_signbit(double x) { unsigned long long b; __builtin_memcpy(&b, &x, 8); return b >> 63; }\n"
             "#define signbit tcc_signbit\n";
}

// A float's conversion to an integer type, kept as one: under -fno-trapping-math GCC folds
// (float)(int)x into truncf(x), which keeps the sign of -0.0 where ATen's conversions give 0.0.
const char kToInt[] =
    "#if defined(__has_builtin)\n#if __has_builtin(__builtin_assoc_barrier)\n#define TCC_KEEP(v) __builtin_assoc_barrier(v)\n"
    "#endif\n#endif\n#ifndef TCC_KEEP\n#define TCC_KEEP(v) (v)\n#endif\n";

std::string make_cpu_prelude() {
  std::string s = "typedef long int64_t;\ntypedef int int32_t;\n" + host_math_declarations() +
       "template <class T> static inline T tcc_where(bool c, T a, T b) { return c ? a : b; }\n" + kToInt +
       "template <class I, class F> static inline I tcc_to_int(F x) { return TCC_KEEP((I)x); }\n"
       + std::string(kExpf) +
       "template <class T> static inline T tcc_inf();\n"
       "template <> inline float tcc_inf<float>() { return __builtin_inff(); }\n"
       "template <> inline double tcc_inf<double>() { return __builtin_inf(); }\n"
       "template <class T> static inline T tcc_nan();\n"
       "template <> inline float tcc_nan<float>() { return __builtin_nanf(\"\"); }\n"
       "template <> inline double tcc_nan<double>() { return __builtin_nan(\"\"); }\n"
       "template <class T> static inline T tcc_lowest() { return -tcc_inf<T>(); }\n"
       "template <> inline int64_t tcc_lowest<int64_t>() { return -0x7fffffffffffffffL - 1; }\n"
       "template <> inline int32_t tcc_lowest<int32_t>() { return -0x7fffffff - 1; }\n"
       "template <class T> static inline T tcc_highest() { return tcc_inf<T>(); }\n"
       "template <> inline int64_t tcc_highest<int64_t>() { return 0x7fffffffffffffffL; }\n"
       "template <> inline int32_t tcc_highest<int32_t>() { return 0x7fffffff; }\n"
       "static inline unsigned tcc_bits(float f) { unsigned b; __builtin_memcpy(&b, &f, sizeof b); return b; }\n"
       "static inline float tcc_float(unsigned b) { float f; __builtin_memcpy(&f, &b, sizeof f); return f; }\n";
  return s + half_conversions("static inline");
}

const std::string& cpu_prelude() {
  static const std::string prelude = make_cpu_prelude();
  return prelude;
}

const std::string& cuda_prelude() {
  static const std::string prelude = "__device__ inline unsigned tcc_bits(float f) { return __float_as_uint(f); }\n"
         // N elements loaded or stored by one instruction (ld.global.v4.u32 and narrower), which
         // needs an address aligned to their size: the emulator checks it (TCC_CHECK_ALIGNED).
         "#ifndef TCC_CHECK_ALIGNED\n#define TCC_CHECK_ALIGNED(p, bytes)\n#endif\n"
         "template <class T, int N> struct __align__(sizeof(T) * N) tcc_vector { T v[N]; };\n"
         "template <int N, class T> __device__ inline tcc_vector<T, N> tcc_load_vector(const T* p) {\n"
         "  TCC_CHECK_ALIGNED(p, sizeof(T) * N);\n"
         "  return *reinterpret_cast<const tcc_vector<T, N>*>(p);\n"
         "}\n"
         "template <int N, class T> __device__ inline void tcc_store_vector(T* p, const tcc_vector<T, N>& v) {\n"
         "  TCC_CHECK_ALIGNED(p, sizeof(T) * N);\n"
         "  *reinterpret_cast<tcc_vector<T, N>*>(p) = v;\n"
         "}\n"
         "__device__ inline float tcc_float(unsigned b) { return __uint_as_float(b); }\n" + half_conversions("__device__ inline") +
         "typedef long long int64_t;\ntypedef int int32_t;\n"
         "template <class T> __device__ inline T tcc_where(bool c, T a, T b) { return c ? a : b; }\n" + kToInt +
         "template <class I, class F> __device__ inline I tcc_to_int(F x) { return TCC_KEEP((I)x); }\n"
         "template <class T> __device__ inline T tcc_inf();\n"
         "template <> __device__ inline float tcc_inf<float>() { return __int_as_float(0x7f800000); }\n"
         "template <> __device__ inline double tcc_inf<double>() { return __longlong_as_double(0x7ff0000000000000LL); }\n"
         "template <class T> __device__ inline T tcc_nan();\n"
         "template <> __device__ inline float tcc_nan<float>() { return __int_as_float(0x7fc00000); }\n"
         "template <> __device__ inline double tcc_nan<double>() { return __longlong_as_double(0x7ff8000000000000LL); }\n"
         "template <class T> __device__ inline T tcc_lowest() { return -tcc_inf<T>(); }\n"
         "template <> __device__ inline int64_t tcc_lowest<int64_t>() { return -0x7fffffffffffffffLL - 1; }\n"
         "template <> __device__ inline int32_t tcc_lowest<int32_t>() { return -0x7fffffff - 1; }\n"
         "template <class T> __device__ inline T tcc_highest() { return tcc_inf<T>(); }\n"
         "template <> __device__ inline int64_t tcc_highest<int64_t>() { return 0x7fffffffffffffffLL; }\n"
         "template <> __device__ inline int32_t tcc_highest<int32_t>() { return 0x7fffffff; }\n";
  return prelude;
}

std::string literal(const Value& v, DType as) {
  std::string t = c_type(as);
  if (v.number_kind() == NumberKind::Bool) return as.is_bool() ? (v.as_bool() ? "true" : "false") : str("(", t, ")", v.as_bool() ? 1 : 0);
  if (v.number_kind() == NumberKind::Int) {
    int64_t x = v.as_int();
    if (x == std::numeric_limits<int64_t>::min()) return str("(", t, ")(-9223372036854775807LL - 1)");
    return str("(", t, ")(", x, "LL)");
  }
  double x = v.as_float();
  if (std::isnan(x)) return str("tcc_nan<", t, ">()");
  if (std::isinf(x)) return str(x < 0 ? "-" : "", "tcc_inf<", t, ">()");
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.17g", x);
  return str("(", t, ")(", buffer, ")");
}

// The numeric value of a number argument (a constant, or a number proxy with its value).
Value number_of(const Value& v) { return v.is_number_proxy() ? *v.as_number_proxy()->value : v; }

// Each line of `code` indented by two more spaces.
std::string indented(const std::string& code) {
  std::string s;
  size_t begin = 0;
  while (begin < code.size()) {
    size_t end = code.find('\n', begin);
    end = end == std::string::npos ? code.size() : end + 1;
    s += "  " + code.substr(begin, end - begin);
    begin = end;
  }
  return s;
}

// Whether an element statement costs a call or a division: a value worth keeping for the row's
// later loops rather than computing again (Emitter::row_code).
bool costly(const BoundSymbol& b) {
  const std::string& id = b.sym->id;
  if (const BinaryC* binary = binary_c(id))
    return binary->spelling == BinarySpelling::Call || (binary->spelling == BinarySpelling::Infix && std::string_view(binary->infix) == "/");
  static const std::set<std::string_view> cheap = {"prims.broadcast_in_dim", "prims.where", "prims.neg", "prims.abs", "prims.bitwise_not",
                                                   "prims.convert_element_type", "prims.signbit", "prims.isfinite"};
  return !cheap.contains(id);
}

// What both targets write alike: the statements, reductions and stores of a region. The targets
// (CpuEmitter, CudaEmitter) say how a kernel is declared, how its loops run over rows and
// columns, and how a reduction's partial results combine, as Halide's CodeGen_C and
// CodeGen_PTX_Dev over CodeGen.
class Emitter {
 public:
  virtual ~Emitter() = default;

  std::string source(const std::string& function) const {
    // The body first: it names the sizes the declarations then read.
    std::string body = loops() + "}\n";
    return prelude() + signature(function) + " {\n" + size_declarations() + body;
  }

  // The values of the sizes the source reads, in the order of its size argument (CPU).
  std::vector<int64_t> sizes() const {
    std::vector<int64_t> out;
    for (const auto& [role, value] : sizes_) out.push_back(value);
    return out;
  }

  // The blocks a CUDA kernel is launched with; 1 for the CPU.
  virtual int64_t grid() const { return 1; }

 protected:
  explicit Emitter(const BoundSymbol& fusion) : fusion_(fusion) {
    for (const auto& b : fusion.subsymbols)
      check(region_.add(b), [&] { return str("fuser: the region of ", fusion.sym->name, " is not one kernel"); });
    for (size_t k = 0; k < fusion.args.size(); ++k) input_index_[proxy_key(fusion.args[k])] = k;
    for (const auto& b : region_.statements())
      for (const auto& o : b.output_proxies()) {
        name_[proxy_key(o)] = str("v", name_.size());
        definer_[proxy_key(o)] = &b;
      }
  }

  // The target's part.
  virtual const std::string& prelude() const = 0;
  // The function's loops: one over the rows, the row's statements inside.
  virtual std::string loops() const { return open_row_loop() + row_bases() + row_code() + "  }\n"; }
  virtual std::string signature(const std::string& function) const = 0;
  // Everything from the function's opening brace to the opened loop over rows, `row` defined.
  virtual std::string open_row_loop() const = 0;
  // A loop over the row's columns, `j` defined; `clauses` are OpenMP reduction clauses.
  virtual std::string column_loop(const std::string& clauses) const = 0;
  virtual const char* restrict_keyword() const = 0;
  // A reduction's clauses for column_loop, and the code that combines the partial results of
  // the threads that ran it.
  virtual std::string reduction_clauses(const std::string& acc, const std::string& op, bool track_nan) const = 0;
  virtual std::string combine_partials(const std::string& acc, const std::string& type, const std::string& op,
                                       bool track_nan) const = 0;
  // The condition under which a row value is stored (one thread of those sharing the row).
  virtual const char* row_store_guard() const = 0;
  // exp of a float.
  virtual std::string float_exp(const std::string& x) const = 0;
  // Whether sizes are the kernel's arguments (size()) rather than constants in its source.
  virtual bool sizes_are_arguments() const = 0;
  // Whether a row's loops may keep element values in row arrays (row_code): a thread that runs
  // a whole row.
  virtual bool keeps_row_values() const = 0;
  // Element (row, j) of the domain in the buffer `tensor` (an input or output of the domain's shape).
  virtual std::string domain_element(const std::string& tensor) const { return str(tensor, "[row * ", columns(), " + j]"); }

  // A size of the region in the code (its rows, columns, a dimension of its domain, a broadcast
  // read's stride), by what it is (`role`): a constant, or, where sizes are arguments, a local
  // (tcc_<role>) read from the kernel's size argument at entry, so that one kernel serves every
  // size of a region of one structure (the sizes a dynamic plan is specialized at). The argument
  // lists them by role, not in the order the emitter asked: C++ leaves the order of evaluating a
  // call's arguments unspecified, and the source must not depend on the compiler that built us.
  std::string size(const std::string& role, int64_t value) const {
    if (!sizes_are_arguments()) return str(value, "LL");
    sizes_.emplace(role, value);
    return "tcc_" + role;
  }
  std::string size_declarations() const {
    std::string s;
    size_t k = 0;
    for (const auto& [role, value] : sizes_) s += str("  const int64_t tcc_", role, " = tcc_size[", k++, "];\n");
    return s;
  }
  std::string columns() const { return size("columns", region_.columns()); }
  std::string rows() const { return size("rows", region_.rows()); }

  const BoundSymbol& fusion_;
  RegionAnalysis region_;
  std::map<const void*, size_t> input_index_;
  std::map<const void*, std::string> name_;  // values the region defines
  std::map<const void*, const BoundSymbol*> definer_;  // the statement defining each
  mutable std::map<std::string, int64_t> sizes_;  // size(): by role
  // While row_code emits: the element values kept in row arrays, those of them an earlier loop
  // of the row has stored, and (its first pass) the statements each loop computes.
  mutable std::set<const void*> kept_, stored_;
  mutable std::vector<std::vector<const BoundSymbol*>>* loops_seen_ = nullptr;

  template <class F>
  void for_each_output(F&& f) const {
    size_t k = 0;
    for_each_proxy(fusion_.output, [&](const Value& v) { f(v, k++); });
  }

  // The pointer qualifier of input k or of output k: __restrict, unless an output may be written
  // over an input (RegionAnalysis::may_write_over), for both of that pair. The loops' `omp simd`
  // keeps them vectorized without it.
  std::string input_qualifier(size_t k) const {
    bool aliased = false;
    for_each_output([&](const Value& out, size_t) { aliased = aliased || region_.may_write_over(fusion_.args[k], out); });
    return aliased ? "" : restrict_keyword();
  }
  std::string output_qualifier(const Value& out) const {
    bool aliased = std::any_of(fusion_.args.begin(), fusion_.args.end(), [&](const Value& in) { return region_.may_write_over(in, out); });
    return aliased ? "" : restrict_keyword();
  }

  // Inputs read through a broadcast: the row's multi-index, and each such read's row offset.
  std::string row_bases() const {
    std::string s;
    const Shape& d = region_.domain();
    bool any = false;
    for (const auto& b : region_.statements())
      if (b.sym->id == "prims.broadcast_in_dim" && !region_.defines(b.args[0])) any = true;
    if (!any || d.size() < 2) return s;
    s += "    int64_t tcc_rest = row;\n";
    for (size_t k = d.size() - 1; k-- > 0;) {
      const std::string dk = size(str("d", k), d[k]);
      s += str("    const int64_t i", k, " = tcc_rest % ", dk, "; tcc_rest /= ", dk, ";\n");
    }
    return s;
  }

  // How an element-level read of `v` is written inside a column loop.
  std::string element_read(const Value& v) const {
    auto it = name_.find(proxy_key(v));
    if (it != name_.end()) return it->second;
    if (!v.is_tensor()) return "";
    size_t k = input_index_.at(proxy_key(v));
    if (v.as_tensor().ndim() == 0) return input_read(v, str("in", k, "[0]"));
    if (v.as_tensor().shape() == region_.domain()) return input_read(v, domain_element(str("in", k)));
    return input_read(v, str("in", k, "[row]"));  // a row input (the domain's last dimension is 1)
  }

  // An input element as a value: bool inputs are bytes and 16-bit floats bit patterns (storage_type).
  static std::string input_read(const Value& v, const std::string& element) {
    DType d = v.as_tensor().dtype();
    if (d.is_bool()) return str("(", element, " != 0)");
    return is_half(d) ? str("tcc_load_", half_suffix(d), "(", element, ")") : element;
  }

  std::string row_read(const Value& v) const {
    auto it = name_.find(proxy_key(v));
    if (it != name_.end()) return it->second;
    return input_read(v, str("in", input_index_.at(proxy_key(v)), v.as_tensor().ndim() == 0 ? "[0]" : "[row]"));
  }

  // A float power by one of the exponents ATen computes without pow (its pow_tensor_scalar kernel
  // and pow_out's 0 and 1): multiplications, sqrt, reciprocals, with eager's results. A GPT-2
  // NewGELU's pow(x, 3.0) is then as fast as x * x * x.
  static std::optional<std::string> pow_by_constant(const std::string& x, double exponent, DType in) {
    const std::string one = str("((", c_type(in), ")1)");
    if (exponent == 0) return one;
    if (exponent == 1) return x;
    if (exponent == 2) return str("(", x, " * ", x, ")");
    if (exponent == 3) return str("(", x, " * ", x, " * ", x, ")");
    if (exponent == 0.5) return str(math("sqrt", in), "(", x, ")");
    if (exponent == -0.5) return str("(", one, " / ", math("sqrt", in), "(", x, "))");
    if (exponent == -1) return str("(", one, " / ", x, ")");
    if (exponent == -2) return str("(", one, " / (", x, " * ", x, "))");
    return std::nullopt;
  }

  // The expression of an elementwise prim over operand expressions.
  std::string expression(const BoundSymbol& b, const std::function<std::string(const Value&)>& read) const {
    const std::string& id = b.sym->id;
    DType out = b.output.as_tensor().dtype();
    // The dtype the prim computes in: its tensor operands' (comparisons' inputs, not their bool output).
    DType in = out;
    for (const auto& a : b.args)
      if (a.is_tensor() && id != "prims.where") { in = a.as_tensor().dtype(); break; }
    auto operand = [&](size_t k) {
      const Value& a = b.args.at(k);
      return a.is_tensor() ? read(a) : literal(number_of(a), id == "prims.where" && k == 0 ? DType(ScalarType::Bool8) : in);
    };
    std::string x = operand(0);
    if (id == "prims.pow" && in.is_float() && !b.args.at(1).is_tensor()) {
      Value exponent = number_of(b.args.at(1));
      if (exponent.kind() != Value::Kind::Complex)
        if (auto reduced = pow_by_constant(x, exponent.as_float(), in)) return *reduced;
    }
    const BinaryC* binary = binary_c(id);
    if (binary && binary->spelling == BinarySpelling::Infix) return str("(", x, " ", binary->infix, " ", operand(1), ")");
    if (binary && binary->spelling == BinarySpelling::Call)
      return str(math(id.c_str() + 6, in), "(", x, ", ", operand(1), ")");
    if (id == "prims.bitwise_not") return in.is_bool() ? str("(!", x, ")") : str("(~", x, ")");
    if (id == "prims.neg") return str("(-", x, ")");
    if (id == "prims.abs") return in.is_float() ? str(math("fabs", in), "(", x, ")") : str("(", x, " < 0 ? -", x, " : ", x, ")");
    // NaN wins, as in ATen's maximum and minimum.
    if (id == "prims.maximum" || id == "prims.minimum") {
      std::string y = operand(1);
      const char* op = id == "prims.maximum" ? ">" : "<";
      if (!in.is_float()) return str("(", x, " ", op, " ", y, " ? ", x, " : ", y, ")");
      return str("((", x, " ", op, " ", y, " || ", x, " != ", x, ") ? ", x, " : ", y, ")");
    }
    // Through a function: both operands are evaluated, so no load is conditional (GCC does not
    // vectorize a loop with a conditional load).
    if (id == "prims.where") return str("tcc_where<", c_type(out), ">(", x, ", ", operand(1), ", ", operand(2), ")");
    if (id == "prims.exp" && math("exp", in) == "expf") return float_exp(x);
    if (id == "prims.reciprocal") return str("((", c_type(in), ")1 / ", x, ")");
    if (id == "prims.rsqrt") return str("((", c_type(in), ")1 / ", math("sqrt", in), "(", x, "))");
    if (id == "prims.round") return str(math("nearbyint", in), "(", x, ")");
    if (id == "prims.isfinite") return str("isfinite(", x, ")");
    if (id == "prims.signbit") return str("signbit(", x, ")");
    if (id == "prims.convert_element_type") {
      if (out.is_bool()) return str("(", x, " != 0)");
      if (in.is_float() && out.is_integer()) return str("tcc_to_int<", c_type(out), ">(", x, ")");
      return str("((", c_type(out), ")", x, ")");
    }
    std::string fn = id.substr(id.find('.') + 1);  // the C library's name for the rest
    return str(math(fn.c_str(), in), "(", x, ")");
  }

  // The element-level statements that `targets` need, in program order.
  std::vector<const BoundSymbol*> element_statements_for(const std::vector<Value>& targets) const {
    std::set<const void*> needed;
    std::vector<Value> work = targets;
    while (!work.empty()) {
      Value v = work.back();
      work.pop_back();
      if (!v.is_tensor() || !region_.defines(v) || region_.level_of(v) != Level::Element || !needed.insert(proxy_key(v)).second) continue;
      if (stored_.contains(proxy_key(v))) continue;  // read from its row array
      for (const auto& a : definer_.at(proxy_key(v))->args) work.push_back(a);
    }
    std::vector<const BoundSymbol*> out;
    for (const auto& b : region_.statements())
      if (b.output.is_tensor() && needed.count(proxy_key(b.output))) out.push_back(&b);
    return out;
  }

  std::string element_statement(const BoundSymbol& b) const {
    const Value& out = b.output;
    std::string t = c_type(out.as_tensor().dtype());
    const std::string& name = name_.at(proxy_key(out));
    if (stored_.contains(proxy_key(out))) return str("      const ", t, " ", name, " = tcc_keep_", name, "[j];\n");
    std::string value;
    if (b.sym->id == "prims.broadcast_in_dim") {
      const Value& a = b.args[0];
      if (region_.defines(a)) {
        value = name_.at(proxy_key(a));
      } else {
        std::vector<int64_t> strides = broadcast_strides(a.as_tensor().shape(), region_.domain(), b.args[2].as_ints());
        const size_t input = input_index_.at(proxy_key(a));
        // A stride of 0 (a broadcast dimension) is the structure's; the others are sizes.
        auto stride = [&](size_t k) { return size(str("in", input, "_stride", k), strides[k]); };
        std::string offset;
        for (size_t k = 0; k + 1 < strides.size(); ++k)
          if (strides[k]) offset += str(" + i", k, " * ", stride(k));
        // The last is 1 (the input's own last dimension) or 0: kept in the source, as a contiguous
        // read vectorizes where a strided one gathers.
        if (!strides.empty() && strides.back() == 1) offset += " + j";
        else if (!strides.empty() && strides.back()) offset += str(" + j * ", stride(strides.size() - 1));
        value = input_read(a, str("in", input, "[0", offset, "]"));
      }
    } else {
      value = rounded(out.as_tensor().dtype(), expression(b, [&](const Value& v) { return element_read(v); }));
    }
    std::string s = str("      const ", t, " ", name, " = ", value, ";\n");
    if (kept_.contains(proxy_key(out))) s += str("      tcc_keep_", name, "[j] = ", name, ";\n");
    return s;
  }

  // The body of one loop over the columns: the element statements `targets` need.
  std::string element_code(const std::vector<Value>& targets) const {
    std::string s;
    std::vector<const BoundSymbol*> statements = element_statements_for(targets);
    for (const BoundSymbol* b : statements) s += element_statement(*b);
    if (loops_seen_) loops_seen_->push_back(statements);
    for (const BoundSymbol* b : statements)
      if (kept_.contains(proxy_key(b->output))) stored_.insert(proxy_key(b->output));
    return s;
  }

  // A row's code. Where two of its loops compute one costly element value (a masked softmax's
  // exp, in its sum and again in its output), the first keeps it in a row array the later ones
  // read, as ATen's softmax keeps its exps in the output: for rows of up to kKeptColumns columns,
  // at most kMaxKept values (a row array each, on the stack), on targets that keep_row_values().
  // Longer rows compute them again. A wider value computed from a one-byte one (the masked
  // scores) is kept too: GCC vectorizes a loop by its narrowest element, so a loop that reads
  // bytes runs 64 lanes at once, four registers of floats, and spilled them (a masked softmax's
  // exp loop ran 1.4x slower on a Zen 5). The latest such value is kept first, and the loops
  // are looked at again: what it was computed from is then computed once (the masked scores'
  // scaling), unless something else needs it again.
  std::string row_code() const {
    constexpr int64_t kKeptColumns = 4096;
    constexpr size_t kMaxKept = 4;
    if (!keeps_row_values()) return row_body();
    while (kept_.size() < kMaxKept) {
      std::map<const BoundSymbol*, int> loops_computing = count_loops_computing();
      const BoundSymbol* latest = nullptr;
      for (const auto& b : region_.statements())
        if (!kept_.contains(proxy_key(b.output)) && loops_computing[&b] > 1 && (costly(b) || widens_bytes(b))) latest = &b;
      if (latest == nullptr) break;
      kept_.insert(proxy_key(latest->output));
    }
    if (kept_.empty()) return row_body();
    std::string arrays;
    for (const auto& b : region_.statements())
      if (kept_.contains(proxy_key(b.output)))
        arrays += str("      ", c_type(b.output.as_tensor().dtype()), " tcc_keep_", name_.at(proxy_key(b.output)), "[", kKeptColumns, "];\n");
    std::string keeping = row_body();
    kept_.clear();
    stored_.clear();
    return str("    if (", columns(), " <= ", kKeptColumns, ") {\n", arrays, indented(keeping), "    } else {\n", indented(row_body()), "    }\n");
  }

  // How many of the row's loops compute each element statement, with the values kept so far.
  std::map<const BoundSymbol*, int> count_loops_computing() const {
    std::vector<std::vector<const BoundSymbol*>> loops;
    loops_seen_ = &loops;
    row_body();
    loops_seen_ = nullptr;
    stored_.clear();
    std::map<const BoundSymbol*, int> counts;
    for (const auto& loop : loops)
      for (const BoundSymbol* b : loop) ++counts[b];
    return counts;
  }

  // Whether `b` computes a wider element value from a one-byte one it reads element by element
  // (an input of the region, or a value of its own).
  bool widens_bytes(const BoundSymbol& b) const {
    if (b.output.as_tensor().dtype().bytes() == 1) return false;
    for (const Value& a : b.args)
      if (a.is_tensor() && a.as_tensor().dtype().bytes() == 1 && (!region_.defines(a) || region_.level_of(a) == Level::Element)) return true;
    return false;
  }

  // One accumulation over the columns: `acc` combined by `op` (+, *, max, min) with the element
  // value of `input`, or with `tcc_d` where `pre` computes it from that value.
  std::string reduction_loop(const std::string& acc, const std::string& type, const std::string& init, const Value& input,
                             const std::string& op, const std::string& pre = "") const {
    std::string x = element_read(input);
    std::string s = str("    ", type, " ", acc, " = ", init, ";\n");
    bool is_extreme = op == "max" || op == "min";
    bool track_nan = is_extreme && (type == "float" || type == "double");
    if (track_nan) s += str("    int ", acc, "_nan = 0;\n");  // int: a bool reduction does not vectorize
    s += str("    ", column_loop(reduction_clauses(acc, op, track_nan)), " {\n", element_code({input}), pre);
    std::string v = pre.empty() ? x : "tcc_d";
    if (op == "+") s += str("      ", acc, " += ", v, ";\n");
    else if (op == "*") s += str("      ", acc, " *= ", v, ";\n");
    else s += str("      ", acc, " = ", v, " ", op == "max" ? ">" : "<", " ", acc, " ? ", v, " : ", acc, ";\n");
    if (track_nan) s += str("      ", acc, "_nan |= ", v, " != ", v, ";\n");
    s += "    }\n";
    s += combine_partials(acc, type, op, track_nan);
    if (track_nan) s += str("    if (", acc, "_nan) ", acc, " = tcc_nan<", type, ">();\n");
    return s;
  }

  // A reduction in the dtype's computation type; a 16-bit float result is rounded once, at the end.
  std::string reduction(const BoundSymbol& b) const {
    const std::string& id = b.sym->id;
    const Value& input = b.args[0];
    DType d = input.as_tensor().dtype();
    std::string t = c_type(d);
    auto outs = b.output_proxies();
    auto round = [&](const std::string& acc) { return is_half(d) ? str("    ", acc, " = ", rounded(d, acc), ";\n") : std::string(); };
    if (id != "prims.var" && id != "prims.var_mean") {
      const std::string& acc = name_.at(proxy_key(outs[0]));
      if (id == "prims.sum") return reduction_loop(acc, t, str("(", t, ")0"), input, "+") + round(acc);
      if (id == "prims.prod") return reduction_loop(acc, t, str("(", t, ")1"), input, "*") + round(acc);
      if (id == "prims.amax") return reduction_loop(acc, t, str("tcc_lowest<", t, ">()"), input, "max");
      return reduction_loop(acc, t, str("tcc_highest<", t, ">()"), input, "min");
    }
    // var and var_mean: the mean, then the sum of squared deviations from it.
    std::string var = name_.at(proxy_key(outs[0]));
    std::string mean = var + "_mean";
    double correction = number_of(b.kwargs.at(0).second).as_float();
    std::string s = reduction_loop(mean + "_sum", t, str("(", t, ")0"), input, "+");
    s += str("    const ", t, " ", mean, " = ", mean, "_sum / (", t, ")", columns(), ";\n");
    s += reduction_loop(var + "_m2", t, str("(", t, ")0"), input, "+",
                        str("      const ", t, " tcc_d = (", element_read(input), " - ", mean, ") * (", element_read(input), " - ", mean, ");\n"));
    char c[40];
    std::snprintf(c, sizeof c, "%.17g", correction);
    std::string divisor = str("(", t, ")(", columns(), " - ", c, " > 0 ? ", columns(), " - ", c, " : 0)");
    s += str("    const ", t, " ", var, " = ", rounded(d, str(var, "_m2 / ", divisor)), ";\n");
    if (outs.size() > 1) s += str("    const ", t, " ", name_.at(proxy_key(outs[1])), " = ", rounded(d, mean), ";\n");
    return s;
  }

  std::string row_body() const {
    std::string s;
    for (const auto& b : region_.statements()) {
      if (is_reduction_prim(b.sym->id)) {
        s += reduction(b);
        continue;
      }
      if (region_.level_of(b.output) != Level::Row) continue;
      std::string value = b.sym->id == "prims.broadcast_in_dim"
                              ? row_read(b.args[0])
                              : rounded(b.output.as_tensor().dtype(), expression(b, [&](const Value& v) { return row_read(v); }));
      s += str("    const ", c_type(b.output.as_tensor().dtype()), " ", name_.at(proxy_key(b.output)), " = ", value, ";\n");
    }
    // The outputs: element values in one last loop, row values once per row.
    std::vector<Value> element_outputs;
    std::string stores, row_stores;
    for_each_output([&](const Value& v, size_t k) {
      if (region_.level_of(v) == Level::Element && region_.defines(v)) {
        element_outputs.push_back(v);
        stores += str("      ", domain_element(str("out", k)), " = ", stored(v.as_tensor().dtype(), element_read(v)), ";\n");
      } else {
        row_stores += str("    ", row_store_guard(), "out", k, "[row] = ", stored(v.as_tensor().dtype(), row_read(v)), ";\n");
      }
    });
    if (!element_outputs.empty()) s += str("    ", column_loop(""), " {\n", element_code(element_outputs), stores, "    }\n");
    return s + row_stores;
  }
};

// The threads that run in lockstep on an NVIDIA GPU, and exchange registers by shuffles.
constexpr int kWarpSize = 32;
// The widest load or store one thread makes in one instruction (ld.global.v4.u32).
constexpr int kVectorBytes = 16;


bool reduces(const RegionAnalysis& region) {
  return std::any_of(region.statements().begin(), region.statements().end(), [](const BoundSymbol& b) { return is_reduction_prim(b.sym->id); });
}

// A C++ function for GCC or Clang: buffers passed as arrays of pointers, a loop over rows, the
// columns' loops vectorized by `omp simd`. The runner's threads (run --threads) each call it for
// one part of `tcc_parts`: a part of the rows, or of the columns of a region that is one row
// and does not reduce (an elementwise region), in multiples of 16 elements so that no two
// threads write one cache line; a single row that reduces is part 0's alone.
class CpuEmitter final : public Emitter {
 public:
  explicit CpuEmitter(const BoundSymbol& fusion)
      : Emitter(fusion), split_columns_(region_.rows() <= 1 && !reduces(region_)) {}

 private:
  const bool split_columns_;

  const std::string& prelude() const override { return cpu_prelude(); }
  std::string signature(const std::string& function) const override {
    return "extern \"C\" void " + function +
           "(const void* const* tcc_in, void* const* tcc_out, int64_t tcc_part, int64_t tcc_parts, const int64_t* tcc_size)";
  }
  std::string open_row_loop() const override {
    std::string s;
    for (size_t k = 0; k < fusion_.args.size(); ++k) {
      const char* t = storage_type(fusion_.args[k].as_tensor().dtype());
      s += str("  const ", t, "*", input_qualifier(k), " in", k, " = static_cast<const ", t, "*>(tcc_in[", k, "]);\n");
    }
    for_each_output([&](const Value& v, size_t k) {
      const char* t = storage_type(v.as_tensor().dtype());
      s += str("  ", t, "*", output_qualifier(v), " out", k, " = static_cast<", t, "*>(tcc_out[", k, "]);\n");
    });
    const std::string rows = this->rows(), columns = this->columns();
    if (split_columns_)
      return s + str("  const int64_t tcc_chunk = ((", columns, " + tcc_parts - 1) / tcc_parts + 15) & ~15LL;\n",
                     "  const int64_t tcc_begin = tcc_part * tcc_chunk < ", columns, " ? tcc_part * tcc_chunk : ", columns, ";\n",
                     "  const int64_t tcc_end = tcc_begin + tcc_chunk < ", columns, " ? tcc_begin + tcc_chunk : ", columns, ";\n",
                     "  for (int64_t row = 0; row < ", rows, "; ++row) {\n");
    if (region_.rows() <= 1) return s + str("  if (tcc_part != 0) return;\n  for (int64_t row = 0; row < ", rows, "; ++row) {\n");
    return s + str("  for (int64_t row = ", rows, " * tcc_part / tcc_parts; row < ", rows, " * (tcc_part + 1) / tcc_parts; ++row) {\n");
  }
  std::string column_loop(const std::string& clauses) const override {
    if (split_columns_) return str("#pragma omp simd", clauses, "\n    for (int64_t j = tcc_begin; j < tcc_end; ++j)");
    return str("#pragma omp simd", clauses, "\n    for (int64_t j = 0; j < ", columns(), "; ++j)");
  }
  const char* restrict_keyword() const override { return " __restrict"; }
  std::string reduction_clauses(const std::string& acc, const std::string& op, bool track_nan) const override {
    return str(" reduction(", op, ":", acc, ")", track_nan ? str(" reduction(|:", acc, "_nan)") : "");
  }
  std::string combine_partials(const std::string&, const std::string&, const std::string&, bool) const override { return ""; }
  const char* row_store_guard() const override { return split_columns_ ? "if (tcc_part == 0) " : ""; }
  std::string float_exp(const std::string& x) const override { return str("tcc_expf(", x, ")"); }
  bool sizes_are_arguments() const override { return true; }
  bool keeps_row_values() const override { return !split_columns_; }
};

// A `__global__` function for NVRTC: buffers as parameters; with reductions, a block per row
// (blocks striding over the rows) and its threads over the columns, or a warp per row where rows
// are short (at most 32 columns: a softmax or layer_norm over a small last dimension), 8 rows a
// block; without, the grid's threads striding over every element, in 16-byte vectors where the
// buffers' addresses allow.
class CudaEmitter final : public Emitter {
 public:
  explicit CudaEmitter(const BoundSymbol& fusion)
      : Emitter(fusion),
        flat_(region_.columns() > 0 && !reduces(region_)),
        row_threads_(!flat_ && region_.columns() <= kWarpSize ? kWarpSize : kCudaBlockSize),
        vectors_(flat_ ? vector_buffers() : std::vector<Buffer>{}),
        lanes_(vector_lanes()) {}

  // Its rows where rows reduce, else a vector of elements each thread, up to kMaxBlocks (the
  // kernels stride over the rest, so any grid computes the same result).
  int64_t grid() const override {
    int64_t blocks = flat_ ? (elements() + kCudaBlockSize * lanes_ - 1) / (kCudaBlockSize * lanes_)
                           : (region_.rows() + rows_per_block() - 1) / rows_per_block();
    return std::min<int64_t>(blocks, kMaxBlocks);
  }

 private:
  // A region without reductions: the whole grid's threads over its elements (a vector of them
  // each, where vectors_ allows), not a row per block.
  const bool flat_;
  // The threads that share a row of a region that reduces: the block's, or a warp's, whose
  // reductions are then shuffles alone (no shared memory, no barrier).
  const int row_threads_;

  // A buffer of the domain's shape a flat kernel reads or writes element by element.
  struct Buffer {
    std::string name;  // "in0", "out1"
    DType dtype;
    bool output;
  };
  // Those it loads and stores as vectors, and the elements in one (1: none).
  const std::vector<Buffer> vectors_;
  const int lanes_;
  // Whether the source being written is the vector loop's, where each buffer of vectors_ is
  // read from (or written into) the vector a thread holds.
  mutable bool in_vector_loop_ = false;

  bool warp_per_row() const { return row_threads_ == kWarpSize; }
  int rows_per_block() const { return kCudaBlockSize / row_threads_; }
  int64_t elements() const { return region_.rows() * region_.columns(); }

  // The inputs of the domain's shape that a statement reads element by element (not through a
  // broadcast, which reads by its own strides), and the element outputs.
  std::vector<Buffer> vector_buffers() const {
    std::vector<Buffer> out;
    for (size_t k = 0; k < fusion_.args.size(); ++k) {
      const Value& in = fusion_.args[k];
      bool read = std::any_of(region_.statements().begin(), region_.statements().end(), [&](const BoundSymbol& b) {
        return b.sym->id != "prims.broadcast_in_dim" && std::any_of(b.args.begin(), b.args.end(), [&](const Value& a) {
                 return a.is_tensor() && proxy_key(a) == proxy_key(in);
               });
      });
      if (read && in.as_tensor().shape() == region_.domain()) out.push_back({str("in", k), in.as_tensor().dtype(), false});
    }
    for_each_output([&](const Value& v, size_t k) {
      if (region_.level_of(v) == Level::Element && region_.defines(v)) out.push_back({str("out", k), v.as_tensor().dtype(), true});
    });
    return out;
  }
  // 16 bytes of the widest buffer's elements (4 floats, 8 bfloat16s); 1 where a vector would not
  // fill once.
  int vector_lanes() const {
    int widest = 0;
    for (const Buffer& b : vectors_) widest = std::max(widest, b.dtype.bytes());
    int lanes = widest ? kVectorBytes / widest : 1;
    return lanes > 1 && elements() >= lanes ? lanes : 1;
  }
  std::string vector_type(const Buffer& b) const { return str("tcc_vector<", storage_type(b.dtype), ", ", lanes_, ">"); }

  std::string loops() const override { return lanes_ > 1 ? vector_loop() + Emitter::loops() : Emitter::loops(); }
  // The elements up to the last whole vector, lanes_ a thread at a time: its vectors loaded, each
  // lane's statements, its vectors stored. Only where every buffer's address is a multiple of its
  // vector's size (a view may start at any element); else the scalar loop does them all.
  std::string vector_loop() const {
    std::string aligned;
    for (const Buffer& b : vectors_)
      aligned += str(aligned.empty() ? "" : " && ", "(unsigned long long)", b.name, " % ", lanes_ * b.dtype.bytes(), " == 0");
    std::string s = str("  const int64_t tcc_vector_end = ", aligned, " ? ", elements() / lanes_ * lanes_, "LL : 0;\n",
                        "  for (int64_t tcc_v = (blockIdx.x * (int64_t)blockDim.x + threadIdx.x) * ", lanes_, "; tcc_v < tcc_vector_end; tcc_v += (int64_t)gridDim.x * blockDim.x * ",
                        lanes_, ") {\n");
    for (const Buffer& b : vectors_) {
      if (!b.output) s += str("    const ", vector_type(b), " ", b.name, "_v = tcc_load_vector<", lanes_, ">(", b.name, " + tcc_v);\n");
      else s += str("    ", vector_type(b), " ", b.name, "_v;\n");
    }
    in_vector_loop_ = true;
    std::string lane = row_bases() + row_body();
    in_vector_loop_ = false;
    s += str("#pragma unroll\n    for (int tcc_e = 0; tcc_e < ", lanes_, "; ++tcc_e) {\n",
             "      const int64_t tcc_i = tcc_v + tcc_e, row = tcc_i / ", region_.columns(), "LL, j = tcc_i % ", region_.columns(), "LL;\n",
             indented(lane), "    }\n");
    for (const Buffer& b : vectors_)
      if (b.output) s += str("    tcc_store_vector(", b.name, " + tcc_v, ", b.name, "_v);\n");
    return s + "  }\n";
  }
  std::string domain_element(const std::string& tensor) const override {
    return in_vector_loop_ ? tensor + "_v.v[tcc_e]" : Emitter::domain_element(tensor);
  }

  const std::string& prelude() const override { return cuda_prelude(); }
  std::string signature(const std::string& function) const override {
    std::string params;
    for (size_t k = 0; k < fusion_.args.size(); ++k)
      params += str(k ? ", " : "", "const ", storage_type(fusion_.args[k].as_tensor().dtype()), "*", input_qualifier(k), " in", k);
    for_each_output([&](const Value& v, size_t k) {
      params += str(", ", storage_type(v.as_tensor().dtype()), "*", output_qualifier(v), " out", k);
    });
    return "extern \"C\" __global__ void " + function + "(" + params + ")";
  }
  std::string open_row_loop() const override {
    if (warp_per_row())
      return str("  for (int64_t row = blockIdx.x * ", rows_per_block(), "LL + threadIdx.x / ", kWarpSize, "; row < ", region_.rows(),
                 "LL; row += gridDim.x * ", rows_per_block(), "LL) {\n");
    if (!flat_) return str("  for (int64_t row = blockIdx.x; row < ", region_.rows(), "LL; row += gridDim.x) {\n");
    int64_t columns = region_.columns();
    return str("  for (int64_t tcc_i = ", lanes_ > 1 ? "tcc_vector_end + " : "", "blockIdx.x * (int64_t)blockDim.x + threadIdx.x; tcc_i < ", elements(),
               "LL; tcc_i += (int64_t)gridDim.x * blockDim.x) {\n",
               "    const int64_t row = tcc_i / ", columns, "LL, j = tcc_i % ", columns, "LL;\n");
  }
  std::string column_loop(const std::string&) const override {
    if (flat_) return "";  // j is the thread's element
    if (warp_per_row()) return str("for (int64_t j = threadIdx.x % ", kWarpSize, "; j < ", region_.columns(), "LL; j += ", kWarpSize, ")");
    return str("for (int64_t j = threadIdx.x; j < ", region_.columns(), "LL; j += blockDim.x)");
  }
  const char* restrict_keyword() const override { return " __restrict__"; }
  std::string reduction_clauses(const std::string&, const std::string&, bool) const override { return ""; }
  // The threads' partial results combined in the accumulator's own type (int64 values beyond
  // 2^53 and integer wrap-around stay exact, as on the CPU): within each warp by shuffles; where
  // a block shares the row, the warps' results then through one shared slot each, which every
  // warp combines alike by shuffles again. Two barriers, where a shared-memory tree takes one per
  // halving.
  std::string combine_partials(const std::string& acc, const std::string& type, const std::string& op,
                               bool track_nan) const override {
    if (warp_per_row()) return warp_combine(acc, type, op, track_nan, kWarpSize) + from_lane_0(acc, track_nan);
    const int warps = kCudaBlockSize / kWarpSize;
    std::string partial = acc + "_partial", flag = acc + "_flag";
    std::string s = warp_combine(acc, type, op, track_nan, kWarpSize);
    s += str("    __shared__ ", type, " ", partial, "[", warps, "];\n");
    if (track_nan) s += str("    __shared__ int ", flag, "[", warps, "];\n");
    s += str("    if (threadIdx.x % ", kWarpSize, " == 0) {\n      ", partial, "[threadIdx.x / ", kWarpSize, "] = ", acc, ";\n");
    if (track_nan) s += str("      ", flag, "[threadIdx.x / ", kWarpSize, "] = ", acc, "_nan;\n");
    s += "    }\n    __syncthreads();\n";
    s += str("    ", acc, " = ", partial, "[threadIdx.x % ", warps, "];\n");
    if (track_nan) s += str("    ", acc, "_nan = ", flag, "[threadIdx.x % ", warps, "];\n");
    s += warp_combine(acc, type, op, track_nan, warps) + from_lane_0(acc, track_nan);
    s += "    __syncthreads();\n";  // before a block's next row writes the slots again
    return s;
  }
  // The first `lanes` lanes' values of `acc` combined into lane 0's by shuffling down.
  static std::string warp_combine(const std::string& acc, const std::string& type, const std::string& op, bool track_nan, int lanes) {
    std::string combine = op == "+" ? "a + b" : op == "*" ? "a * b" : op == "max" ? "(a > b ? a : b)" : "(a < b ? a : b)";
    std::string s = str("    for (int tcc_o = ", lanes / 2, "; tcc_o > 0; tcc_o /= 2) {\n",
                        "      const ", type, " a = ", acc, ", b = __shfl_down_sync(0xffffffffu, ", acc, ", tcc_o);\n",
                        "      ", acc, " = ", combine, ";\n");
    if (track_nan) s += str("      ", acc, "_nan |= __shfl_down_sync(0xffffffffu, ", acc, "_nan, tcc_o);\n");
    return s + "    }\n";
  }
  // Lane 0's result given to every lane, so that all agree (even where max and min differ only
  // in a zero's sign, which the lanes' orders of combining would not).
  static std::string from_lane_0(const std::string& acc, bool track_nan) {
    std::string s = str("    ", acc, " = __shfl_sync(0xffffffffu, ", acc, ", 0);\n");
    if (track_nan) s += str("    ", acc, "_nan = __shfl_sync(0xffffffffu, ", acc, "_nan, 0);\n");
    return s;
  }
  const char* row_store_guard() const override {
    static const std::string lane_0 = str("if (threadIdx.x % ", kWarpSize, " == 0) ");
    if (warp_per_row()) return lane_0.c_str();
    return flat_ ? "if (j == 0) " : "if (threadIdx.x == 0) ";
  }
  std::string float_exp(const std::string& x) const override { return str("expf(", x, ")"); }
  bool sizes_are_arguments() const override { return false; }
  bool keeps_row_values() const override { return false; }  // a row's columns are spread over threads
};

}  // namespace

const std::string& host_math_declarations() {
  static const std::string declarations = make_math_declarations();
  return declarations;
}

std::string cuda_module_source(const std::vector<GeneratedKernel>& kernels) {
  const std::string& prelude = cuda_prelude();
  std::string s = prelude;
  for (const auto& k : kernels) {
    check(k.source.starts_with(prelude), [&] { return str("fuser: ", k.function, " is not a CUDA kernel"); });
    s.append(k.source, prelude.size());
  }
  return s;
}

std::string region_signature(const BoundSymbol& fusion) {
  std::unordered_map<const void*, size_t> numbering;
  std::string s;
  char digits[24];
  std::function<void(const Value&)> put = [&](const Value& v) {
    if (v.is_tensor()) {
      auto [it, first] = numbering.emplace(proxy_key(v), numbering.size());
      s += '%';
      s.append(digits, std::to_chars(digits, digits + sizeof digits, it->second).ptr);
      if (first) {
        s += ':';
        v.as_tensor().meta().append_type_string(s);
      }
    } else if (v.is_number_proxy()) {
      const auto& value = v.as_number_proxy()->value;
      s += '#';
      if (value) append_py_repr(s, *value);
      else s += '?';
    } else if (v.is_sequence()) {
      s += '(';
      for (const auto& x : v.items()) put(x);
      s += ')';
    } else {
      append_py_repr(s, v);
    }
    s += ' ';
  };
  for (const auto& a : fusion.args) put(a);
  for (const auto& b : fusion.subsymbols) {
    s += '\n';
    s += b.sym->id;
    s += '(';
    for (const auto& a : b.args) put(a);
    for (const auto& [k, v] : b.kwargs) {
      s += k;
      s += '=';
      put(v);
    }
    s += ")->";
    put(b.output);
  }
  s += "\nreturn ";
  put(fusion.output);
  return s;
}

GeneratedKernel generate_kernel(const BoundSymbol& fusion, Target target) {
  std::unique_ptr<Emitter> emitter;
  if (target == Target::CPU) emitter = std::make_unique<CpuEmitter>(fusion);
  else emitter = std::make_unique<CudaEmitter>(fusion);
  // Named by what it computes: the source with a placeholder name, hashed.
  std::string placeholder = emitter->source("TCC_KERNEL");
  std::string function = "tcc_" + sha256_hex(placeholder).substr(0, 16);
  return {function, emitter->source(function), emitter->grid(), emitter->sizes()};
}

}  // namespace thundercc::fuser
