// Elementwise torch-language ops: type promotion, broadcasting, then the prim.
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "langs/torch_registry.h"
#include "thundercc/ir/pyliteral.h"
#include "thundercc/ir/rewrite.h"
#include "thundercc/ir/trace.h"

namespace thundercc::ltorch {

using core::Promotion;

namespace {

bool widens(DType from, DType to) {
  if (!from.is_float() || !to.is_float() || from == to) return false;
  if (to == dtypes::float64) return true;
  return to == dtypes::float32 && (from == dtypes::float16 || from == dtypes::bfloat16);
}

bool is_convert(const BoundSymbol& b) {
  static const Symbol* convert = &SymbolTable::global().get("prims.convert_element_type");
  return b.sym == convert && b.args[0].is_tensor();
}

// Whether tag_decomposition_casts has anything to look at (most decompositions convert nothing).
bool converts(const std::vector<BoundSymbol>& subsymbols) {
  return std::any_of(subsymbols.begin(), subsymbols.end(), [](const BoundSymbol& s) { return is_convert(s) || s.sym->has_tag(kProgramCast); });
}

// Tags the conversions a decomposition made for its own arithmetic (kDecompositionCast): a float
// widening (exact), or the rounding of a value it computed (its result, an intermediate), which
// fusion may leave out between ops as Thunder's nvFuser executor does. A narrowing conversion of
// one of its arguments (`softmax(x, -1, dtype=torch.float16)`) is the program's request and stays
// untagged. The conversions inside a nested Tensor.to are this decomposition's; other nested
// symbols tagged theirs when they were traced.
void tag_decomposition_casts(std::vector<BoundSymbol>& subsymbols, const std::vector<const void*>& arguments) {
  for (auto& s : subsymbols) {
    if (s.sym->has_tag(kProgramCast)) {
      tag_decomposition_casts(s.subsymbols, arguments);
    } else if (is_convert(s)) {
      const Value& in = s.args[0];
      bool argument = std::find(arguments.begin(), arguments.end(), proxy_key(in)) != arguments.end();
      if (!argument || widens(in.as_tensor().dtype(), s.output.as_tensor().dtype())) s.tags.push_back(kDecompositionCast);
    }
  }
}

}  // namespace

void define(SymbolTable& table, const TorchOp& op, std::vector<std::string> tags) {
  Symbol s;
  auto ids = op.ids.begin();
  s.id = *ids;
  for (++ids; ids != op.ids.end(); ++ids) s.aliases.emplace_back(*ids);
  s.name = op.name ? op.name : s.id.substr(s.id.rfind('.') + 1);
  s.module = "ltorch";
  s.signature = Signature::parse(op.signature);
  if (std::find(tags.begin(), tags.end(), kProgramCast) != tags.end()) {
    s.meta = op.decomposition;
  } else if (std::find(tags.begin(), tags.end(), kNoDecomposition) != tags.end()) {
    // Its outputs require grad as a prim's do: when an input does.
    s.meta = [meta = op.decomposition](const Args& x) -> Value {
      tracing::GradScope grad(x.values());
      return meta(x);
    };
  } else {
    s.meta = [decomposition = op.decomposition](const Args& x) -> Value {
      Value out = decomposition(x);
      std::vector<BoundSymbol>& subsymbols = tracing::active_sink();
      if (converts(subsymbols)) {
        std::vector<const void*> arguments;
        for (const auto& v : x.values()) for_each_proxy(v, [&](const Value& p) { arguments.push_back(proxy_key(p)); });
        tag_decomposition_casts(subsymbols, arguments);
      }
      return out;
    };
  }
  s.tags = std::move(tags);
  table.add(std::move(s));
}

std::optional<DType> optional_dtype(const Value& v) {
  if (v.is_none()) return std::nullopt;
  return v.as_dtype().strong();
}

std::optional<Dims> optional_dims(const Value& v) {
  if (v.is_none()) return std::nullopt;
  return v.as_ints();
}

Tensor op(std::string_view id, const Values& args, const Kwargs& kwargs) {
  Value out = call(id, args, kwargs);
  check(out.is_tensor(), [&] { return str(id, " was expected to return a tensor"); });
  return out.as_tensor();
}

Tensor abs(const Tensor& a) { return op("torch.abs", {a}); }
Tensor exp(const Tensor& a) { return op("torch.exp", {a}); }
Tensor log(const Tensor& a) { return op("torch.log", {a}); }
Tensor log1p(const Tensor& a) { return op("torch.log1p", {a}); }
Tensor sqrt(const Tensor& a) { return op("torch.sqrt", {a}); }
Tensor rsqrt(const Tensor& a) { return op("torch.rsqrt", {a}); }
Tensor reciprocal(const Tensor& a) { return op("torch.reciprocal", {a}); }
Tensor erf(const Tensor& a) { return op("torch.erf", {a}); }
Tensor tanh(const Tensor& a) { return op("torch.tanh", {a}); }
Tensor neg(const Tensor& a) { return op("torch.neg", {a}); }
Tensor sigmoid(const Tensor& a) { return op("torch.sigmoid", {a}); }
Tensor logical_not(const Tensor& a) { return op("torch.logical_not", {a}); }
Tensor add(const Value& a, const Value& b, const Value& alpha) { return op("torch.add", {a, b}, {{"alpha", alpha}}); }
Tensor sub(const Value& a, const Value& b, const Value& alpha) { return op("torch.sub", {a, b}, {{"alpha", alpha}}); }
Tensor mul(const Value& a, const Value& b) { return op("torch.mul", {a, b}); }
Tensor true_divide(const Value& a, const Value& b) { return op("torch.true_divide", {a, b}); }
Tensor pow(const Value& a, const Value& b) { return op("torch.pow", {a, b}); }
Tensor maximum(const Value& a, const Value& b) { return op("torch.maximum", {a, b}); }
Tensor eq(const Value& a, const Value& b) { return op("torch.eq", {a, b}); }
Tensor ne(const Value& a, const Value& b) { return op("torch.ne", {a, b}); }
Tensor lt(const Value& a, const Value& b) { return op("torch.lt", {a, b}); }
Tensor le(const Value& a, const Value& b) { return op("torch.le", {a, b}); }
Tensor gt(const Value& a, const Value& b) { return op("torch.gt", {a, b}); }
Tensor ge(const Value& a, const Value& b) { return op("torch.ge", {a, b}); }
Tensor where(const Value& pred, const Value& a, const Value& b) { return op("torch.where", {pred, a, b}); }
Tensor masked_fill(const Tensor& a, const Tensor& mask, const Value& value) {
  return op("torch.masked_fill", {a, mask, value});
}

namespace {

struct UnaryOp {
  const char* id;
  core::UnaryPrim prim;
  Promotion promotion;
};

// torch.X, also callable as Tensor.X, for the unary prims with a promotion (unary_ops.def).
#define THUNDERCC_TORCH_UNARY_None(name)
#define THUNDERCC_TORCH_UNARY(name, promotion) {#name, prims::name, Promotion::promotion},
#define THUNDERCC_TORCH_UNARY_Default(name) THUNDERCC_TORCH_UNARY(name, Default)
#define THUNDERCC_TORCH_UNARY_IntToFloat(name) THUNDERCC_TORCH_UNARY(name, IntToFloat)
#define THUNDERCC_TORCH_UNARY_ComplexToFloat(name) THUNDERCC_TORCH_UNARY(name, ComplexToFloat)
#define THUNDERCC_TORCH_UNARY_AlwaysBool(name) THUNDERCC_TORCH_UNARY(name, AlwaysBool)
const UnaryOp kUnaryOps[] = {
#define THUNDERCC_UNARY_OP(name, accepts, produces, promotion, ...) THUNDERCC_TORCH_UNARY_##promotion(name)
#include "thundercc/langs/unary_ops.def"
};
#undef THUNDERCC_TORCH_UNARY_None
#undef THUNDERCC_TORCH_UNARY
#undef THUNDERCC_TORCH_UNARY_Default
#undef THUNDERCC_TORCH_UNARY_IntToFloat
#undef THUNDERCC_TORCH_UNARY_ComplexToFloat
#undef THUNDERCC_TORCH_UNARY_AlwaysBool

// torch.X and Tensor.X for the binary prims with a torch-language op (binary_ops.def's torch
// column; None where the op is written by hand below).
namespace binary_promotion {
constexpr std::optional<Promotion> None, Default = Promotion::Default, IntToFloat = Promotion::IntToFloat,
                                         AlwaysBool = Promotion::AlwaysBool, BoolToLong = Promotion::BoolToLong;
}
struct BinaryOp {
  const char* id;
  core::BinaryPrim prim;
  std::optional<Promotion> promotion;
};
const BinaryOp kBinaryOps[] = {
#define THUNDERCC_BINARY_OP(name, accepts, produces, torch, promotion, ...) {#torch, prims::name, binary_promotion::promotion},
#include "thundercc/langs/binary_ops.def"
};

using langs::is_one;

// fmax/fmin: the extreme, ignoring a NaN operand (NaN only when both are; then a, which takes
// the gradient, as in PyTorch).
Tensor nan_ignoring(const Args& x, const Tensor& extreme) {
  Tensor a_nan = ne(x["a"], x["a"]);
  Tensor without_a_nan = where(a_nan, x["b"], extreme);
  Tensor b_nan = ne(x["b"], x["b"]);
  return where(b_nan, x["a"], without_a_nan);
}

// alpha * b for add and sub: alpha takes no part in type promotion; PyTorch casts it, and b, to
// the result's dtype first (bool + bool * 2 stays bool).
Value scaled_by_alpha(const Args& x) {
  const Value& b = x["b"];
  if (is_one(x["alpha"])) return b;
  DType result = core::elementwise_type_promotion({x["a"], b}, Promotion::Default).result;
  Value alpha = core::maybe_convert_to_dtype(x["alpha"], result);
  if (!b.is_tensor()) return ltorch::mul(full_like(x.tensor("a"), core::maybe_convert_to_dtype(b, result)), alpha);
  return ltorch::mul(core::maybe_convert_to_dtype(b, result), alpha);
}

// x < 0, recorded as a prim for tensors and computed directly for numbers.
Value is_negative(const Value& x) {
  if (x.is_tensor()) return prims::lt(x, int64_t{0});
  return x.as_float() < 0;
}

// `a` with 0 where `dropped` holds: the input of a branch that a where() drops there, so that the
// branch's derivative is taken at 0, never where it overflows (ELU's expm1 at 89 is inf, and 0, the
// gradient a dropped branch receives, times inf is NaN: the double-where rule).
Tensor dropped_as_zero(const Tensor& dropped, const Tensor& a) { return where(dropped, int64_t{0}, a); }

// Floor division in the computation dtype (a float16 quotient is floored before it is rounded).
Tensor floor_divide_impl(const Value& a, const Value& b) {
  auto [computation, result] = core::elementwise_type_promotion({a, b}, Promotion::Default);
  Values ab = core::maybe_broadcast({a, b});
  Value x = core::maybe_convert_to_dtype(ab[0], computation), y = core::maybe_convert_to_dtype(ab[1], computation);
  if (result.is_exact()) {
    // Python's floor division on integers: truncating division, minus one where the signs differ
    // and the division is inexact.
    Tensor quotient = prims::div(x, y);
    Value x_negative = is_negative(x);
    Value y_negative = is_negative(y);
    Tensor signs_differ = prims::ne(x_negative, y_negative);
    Tensor inexact = prims::ne(prims::fmod(x, y), int64_t{0});
    Tensor offset = prims::convert_element_type(prims::bitwise_and(signs_differ, inexact), computation);
    return core::convert(prims::sub(quotient, offset), result);
  }
  return core::convert(prims::floor(prims::div(x, y)), result);
}

}  // namespace

void register_elementwise(SymbolTable& t) {
  for (const auto& u : kUnaryOps) {
    std::string id = std::string("torch.") + u.id;
    std::string method = std::string("torch.Tensor.") + u.id;
    auto prim = u.prim;
    auto promotion = u.promotion;
    define(t, {{id.c_str(), method.c_str()}, "a, /", [prim, promotion](const Args& x) -> Value {
             return core::elementwise_unary(x["a"], prim, promotion);
           }}, {"ELEMENTWISE_OP"});
  }
  for (const auto& b : kBinaryOps) {
    if (!b.promotion) continue;
    std::string id = std::string("torch.") + b.id;
    std::string method = std::string("torch.Tensor.") + b.id;
    auto prim = b.prim;
    auto promotion = *b.promotion;
    define(t, {{id.c_str(), method.c_str()}, "a, b, /", [prim, promotion](const Args& x) -> Value {
             return core::elementwise_binary(x["a"], x["b"], prim, promotion);
           }}, {"ELEMENTWISE_OP"});
  }

  // round(a, decimals=d) as ATen's kernel: a * 10^d rounded half to even and divided back (a / 10^-d
  // multiplied back for d < 0), in the computation dtype.
  define(t, {{"torch.round", "torch.Tensor.round"}, "a, /, *, decimals=0", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    int64_t decimals = x.integer("decimals");
    if (decimals == 0) return core::elementwise_unary(a, prims::round, Promotion::Default);
    check(a.dtype().is_float(), [&] { return str("\"round_cpu\" not implemented for '", a.dtype().torch_name(), "'"); }, "RuntimeError");
    DType computation = core::computation_dtype(a.dtype());
    Tensor wide = core::convert(a, computation);
    double scale = std::pow(10.0, static_cast<double>(decimals < 0 ? -decimals : decimals));
    Tensor scaled = decimals > 0 ? prims::mul(wide, scale) : prims::div(wide, scale);
    Tensor rounded = prims::round(scaled);
    Tensor back = decimals > 0 ? prims::div(rounded, scale) : prims::mul(rounded, scale);
    return core::convert(back, a.dtype().strong());
  }});
  // The regularized lower and upper incomplete gamma functions: ATen's kernels.
  for (const auto& ids : {std::initializer_list<const char*>{"torch.igamma", "torch.Tensor.igamma", "torch.special.gammainc"},
                          std::initializer_list<const char*>{"torch.igammac", "torch.Tensor.igammac", "torch.special.gammaincc"}})
    define(t, {ids, "a, b, /", [](const Args& x) -> Value {
      DType d = core::elementwise_type_promotion({x["a"], x["b"]}, Promotion::Default).result;
      check(d.is_float(), [&] { return str("\"igamma_cpu\" not implemented for '", d.torch_name(), "'"); });
      Shape shape = langs::broadcast_shapes({x.tensor("a").shape(), x.tensor("b").shape()});
      return Tensor::make(shape, d, x.tensor("a").device());
    }}, {kNoDecomposition});
  define(t, {{"torch.special.zeta"}, "a, b, /", [](const Args& x) -> Value {
    return core::elementwise_binary(x["a"], x["b"], prims::zeta, Promotion::IntToFloat);
  }}, {"ELEMENTWISE_OP"});
  define(t, {{"torch.add", "torch.Tensor.add", "torch.Tensor.__add__"}, "a, b, /, *, alpha=1", [](const Args& x) -> Value {
    return core::elementwise_binary(x["a"], scaled_by_alpha(x), prims::add, Promotion::Default);
  }});
  define(t, {{"torch.sub", "torch.Tensor.sub", "torch.Tensor.__sub__"}, "a, b, /, *, alpha=1", [](const Args& x) -> Value {
    return core::elementwise_binary(x["a"], scaled_by_alpha(x), prims::sub, Promotion::Default);
  }});
  define(t, {{"torch.div", "torch.Tensor.div"}, "a, b, /, *, rounding_mode=None", [](const Args& x) -> Value {
    const auto& mode = x["rounding_mode"];
    if (mode.is_none()) return ltorch::true_divide(x["a"], x["b"]);
    if (mode.as_string() == "floor") return floor_divide_impl(x["a"], x["b"]);
    check(mode.as_string() == "trunc", [&] { return str("div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '", mode.as_string(), "'"); }, "ValueError");
    auto [computation, result] = core::elementwise_type_promotion({x["a"], x["b"]}, Promotion::Default);
    Tensor q = core::elementwise_binary(x["a"], x["b"], prims::div, Promotion::Default);
    return result.is_exact() ? q : core::convert(prims::trunc(core::convert(q, computation)), result);
  }});
  define(t, {{"torch.floor_divide", "torch.Tensor.floor_divide", "torch.Tensor.__floordiv__"}, "a, b, /",
             [](const Args& x) -> Value { return floor_divide_impl(x["a"], x["b"]); }});

  define(t, {{"torch.where", "torch.Tensor.where"}, "pred, a, b, /", [](const Args& x) -> Value {
    const auto& pred = x["pred"];
    check(pred.is_tensor() && pred.as_tensor().dtype().is_bool(), [&] {
      return str("where expected condition to be a boolean tensor, but got ", pred.is_tensor() ? pred.as_tensor().dtype().full_name() : py_repr(pred));
    });
    auto [computation, result] = core::elementwise_type_promotion({x["a"], x["b"]}, Promotion::Default);
    Values args = core::maybe_broadcast({pred, x["a"], x["b"]});
    Value a = core::maybe_convert_to_dtype(args[1], result);
    Value b = core::maybe_convert_to_dtype(args[2], result);
    return prims::where(args[0], a, b);
  }});
  define(t, {{"torch.masked_fill", "torch.Tensor.masked_fill"}, "a, /, mask, value", [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    return ltorch::where(x["mask"], core::maybe_convert_to_dtype(x["value"], a.dtype()), a);
  }});
  define(t, {{"torch.clamp", "torch.Tensor.clamp", "torch.clip"}, "a, /, min=None, max=None", [](const Args& x) -> Value {
    check(!x.is_none("min") || !x.is_none("max"), "clamp: at least one of 'min' or 'max' must not be None", "ValueError");
    // where, not maximum/minimum: a value equal to a bound keeps its whole gradient (as in
    // PyTorch), and NaN stays NaN.
    Tensor out = x.tensor("a");
    if (!x.is_none("min")) out = where(lt(out, x["min"]), x["min"], out);
    if (!x.is_none("max")) out = where(gt(out, x["max"]), x["max"], out);
    return out;
  }});
  define(t, {{"torch.logical_not", "torch.Tensor.logical_not"}, "a, /", [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    if (a.dtype().is_bool()) return prims::bitwise_not(a);
    return ltorch::eq(a, int64_t{0});
  }});

  define(t, {{"torch.sigmoid", "torch.Tensor.sigmoid", "torch.nn.functional.sigmoid"}, "a, /", [](const Args& x) -> Value {
    // Integers and bools become floats first (negating a uint8 would wrap).
    DType result = core::elementwise_type_promotion({x["a"]}, Promotion::IntToFloat).result;
    Tensor a = core::convert(x.tensor("a"), result);
    return 1.0 / (1.0 + exp(-a));
  }});
  define(t, {{"torch.nn.functional.relu", "torch.relu", "torch.Tensor.relu"}, "a, /, inplace=False", [](const Args& x) -> Value {
    // As ATen's clamp_min: only values below zero become zero, so NaN and -0.0 pass through
    // (where(a > 0, a, 0) would turn them into 0).
    const auto& a = x.tensor("a");
    return where(a < 0, int64_t{0}, a);
  }});
  define(t, {{"torch.nn.functional.gelu"}, "a, /, *, approximate='none'", [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    const auto& approximate = x["approximate"].as_string();
    if (approximate == "none") {
      Tensor phi = 0.5 + 0.5 * erf(a / std::sqrt(2.0));
      return a * phi;
    }
    check(approximate == "tanh", [&] { return str("gelu does not support the approximate='", approximate, "' argument"); }, "ValueError");
    Tensor a_cube = a * a * a;
    Tensor inner = std::sqrt(2.0 / M_PI) * (a + 0.044715 * a_cube);
    Tensor half_a = 0.5 * a;
    return half_a * (1.0 + tanh(inner));
  }});
  define(t, {{"torch.nn.functional.silu"}, "a, /, inplace=False", [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    return a * sigmoid(a);
  }});
  // More elementwise math, written with the ops above (Thunder's definitions).
  auto in_float = [](const Value& v, const Value& other = None{}) {
    // The computation dtype of an IntToFloat op, and the value converted to it.
    Values operands{v};
    if (!other.is_none()) operands.push_back(other);
    auto [computation, result] = core::elementwise_type_promotion(operands, Promotion::IntToFloat);
    return std::make_pair(core::maybe_convert_to_dtype(v, result), result);
  };
  define(t, {{"torch.square", "torch.Tensor.square"}, "a, /", [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    if (!a.dtype().is_bool()) return mul(a, a);
    Tensor wide = to(a, dtypes::int64);
    return mul(wide, wide);
  }});
  define(t, {{"torch.frac", "torch.Tensor.frac"}, "a, /", [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    return sub(a, core::elementwise_unary(a, prims::trunc, Promotion::Default));
  }});
  define(t, {{"torch.positive", "torch.Tensor.positive"}, "a, /", [](const Args& x) -> Value { return x.tensor("a"); }});
  define(t, {{"torch.isnan", "torch.Tensor.isnan"}, "a, /", [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    return a.dtype().is_inexact() ? ne(a, a) : op("torch.zeros_like", {a}, {{"dtype", dtypes::bool8}});
  }});
  auto infinity_test = [](int sign) {
    return [sign](const Args& x) -> Value {
      const auto& a = x.tensor("a");
      if (!a.dtype().is_inexact()) return op("torch.zeros_like", {a}, {{"dtype", dtypes::bool8}});
      const double inf = std::numeric_limits<double>::infinity();
      if (sign > 0) return eq(a, inf);
      if (sign < 0) return eq(a, -inf);
      return eq(abs(a), inf);
    };
  };
  define(t, {{"torch.isinf", "torch.Tensor.isinf"}, "a, /", infinity_test(0)});
  define(t, {{"torch.isposinf", "torch.Tensor.isposinf"}, "a, /", infinity_test(1)});
  define(t, {{"torch.isneginf", "torch.Tensor.isneginf"}, "a, /", infinity_test(-1)});
  define(t, {{"torch.deg2rad", "torch.Tensor.deg2rad"}, "a, /", [in_float](const Args& x) -> Value {
    return mul(in_float(x["a"]).first, M_PI / 180.0);
  }});
  define(t, {{"torch.rad2deg", "torch.Tensor.rad2deg"}, "a, /", [in_float](const Args& x) -> Value {
    return mul(in_float(x["a"]).first, 180.0 / M_PI);
  }});
  define(t, {{"torch.logit", "torch.Tensor.logit"}, "a, /, eps=None", [in_float](const Args& x) -> Value {
    Tensor a = in_float(x["a"]).first.as_tensor();
    if (!x.is_none("eps")) a = op("torch.clamp", {a, x["eps"], 1.0 - x.real("eps")});
    return log(a / (1 - a));
  }});
  define(t, {{"torch.nan_to_num", "torch.Tensor.nan_to_num"}, "a, /, nan=0.0, posinf=None, neginf=None", [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    if (!a.dtype().is_float()) return a;
    auto limit = [&](bool highest) -> Value {
      switch (a.dtype().type) {
        case ScalarType::Float16: return highest ? 65504.0 : -65504.0;
        case ScalarType::BFloat16: return highest ? 3.3895313892515355e38 : -3.3895313892515355e38;
        case ScalarType::Float32: return highest ? double(std::numeric_limits<float>::max()) : double(std::numeric_limits<float>::lowest());
        default: return highest ? std::numeric_limits<double>::max() : std::numeric_limits<double>::lowest();
      }
    };
    Tensor out = where(ne(a, a), x["nan"], a);
    out = where(op("torch.isposinf", {out}), x.is_none("posinf") ? limit(true) : x["posinf"], out);
    return where(op("torch.isneginf", {out}), x.is_none("neginf") ? limit(false) : x["neginf"], out);
  }});
  define(t, {{"torch.logical_and", "torch.Tensor.logical_and"}, "a, b, /", [](const Args& x) -> Value {
    return op("torch.bitwise_and", {ne(x["a"], int64_t{0}), ne(x["b"], int64_t{0})});
  }});
  define(t, {{"torch.logical_or", "torch.Tensor.logical_or"}, "a, b, /", [](const Args& x) -> Value {
    return op("torch.bitwise_or", {ne(x["a"], int64_t{0}), ne(x["b"], int64_t{0})});
  }});
  define(t, {{"torch.logical_xor", "torch.Tensor.logical_xor"}, "a, b, /", [](const Args& x) -> Value {
    return op("torch.bitwise_xor", {ne(x["a"], int64_t{0}), ne(x["b"], int64_t{0})});
  }});
  define(t, {{"torch.hypot", "torch.Tensor.hypot"}, "a, b, /", [](const Args& x) -> Value {
    // In the computation dtype (float32 for float16, float for integers), then the result's. As
    // the C library's hypot: the larger magnitude times sqrt(1 + (smaller / larger)^2), which
    // overflows and underflows only where the result does (a^2 + b^2 did at 3e19 in float32), and
    // inf where either is infinite, even beside a NaN.
    auto [computation, result] = core::elementwise_type_promotion({x["a"], x["b"]}, Promotion::Default);
    DType wide = computation.is_inexact() ? computation : dtypes::float32;
    Tensor a = abs(core::convert(x.tensor("a"), wide)), b = abs(core::convert(x.tensor("b"), wide));
    Tensor larger = op("torch.maximum", {a, b}), smaller = op("torch.minimum", {a, b});
    Tensor infinite = op("torch.logical_or", {op("torch.isinf", {a}), op("torch.isinf", {b})});
    // (0 / 0 and inf / inf would be NaN: the ratio is of 1 there.)
    Tensor ratio = smaller / where(op("torch.logical_or", {eq(larger, 0.0), infinite}), 1.0, larger);
    Tensor scaled = larger * sqrt(1.0 + ratio * ratio);
    return core::convert(where(infinite, std::numeric_limits<double>::infinity(), scaled), result);
  }});
  define(t, {{"torch.copysign", "torch.Tensor.copysign"}, "a, b, /", [in_float](const Args& x) -> Value {
    Tensor magnitude = abs(in_float(x["a"], x["b"]).first.as_tensor());
    if (!x["b"].is_tensor()) return std::signbit(x.real("b")) ? -magnitude : magnitude;
    Tensor negative = op("torch.signbit", {x.tensor("b")});
    Tensor flipped = -magnitude;
    return where(negative, flipped, magnitude);
  }});
  define(t, {{"torch.logaddexp", "torch.Tensor.logaddexp"}, "a, b, /", [](const Args& x) -> Value {
    // max + log1p(exp(-|a - b|)), which neither overflows nor loses the larger term.
    Tensor high = maximum(x["a"], x["b"]);
    // Equal operands are no gap apart, equal infinities included (inf - inf is NaN).
    Tensor same = eq(x["a"], x["b"]);
    Tensor distance = abs(sub(x["a"], x["b"]));
    Tensor gap = where(same, 0.0, distance);
    return add(high, log1p(exp(-gap)));
  }});
  define(t, {{"torch.xlogy", "torch.Tensor.xlogy"}, "a, b, /", [](const Args& x) -> Value {
    const Value& a = x["a"];
    Tensor b = x["b"].is_tensor() ? x.tensor("b") : full_like(x.tensor("a"), x["b"]);
    Tensor product = mul(a, op("torch.log", {b}));
    // 0 where a is 0, even where log(b) is infinite, but NaN where b is.
    Tensor b_nan = op("torch.isnan", {b});
    if (!a.is_tensor()) return a.as_float() == 0.0 ? where(b_nan, product, 0.0) : product;
    return where(op("torch.logical_and", {eq(a, int64_t{0}), logical_not(b_nan)}), 0.0, product);
  }});
  define(t, {{"torch.fmax", "torch.Tensor.fmax"}, "a, b, /", [](const Args& x) -> Value {
    return nan_ignoring(x, maximum(x["a"], x["b"]));
  }});
  define(t, {{"torch.fmin", "torch.Tensor.fmin"}, "a, b, /", [](const Args& x) -> Value {
    return nan_ignoring(x, op("torch.minimum", {x["a"], x["b"]}));
  }});
  define(t, {{"torch.clamp_min", "torch.Tensor.clamp_min"}, "a, /, min", [](const Args& x) -> Value {
    return op("torch.clamp", {x.tensor("a"), x["min"]});
  }});
  define(t, {{"torch.clamp_max", "torch.Tensor.clamp_max"}, "a, /, max", [](const Args& x) -> Value {
    return op("torch.clamp", {x.tensor("a"), None{}, x["max"]});
  }});
  define(t, {{"torch.lerp", "torch.Tensor.lerp"}, "a, end, /, weight", [](const Args& x) -> Value {
    Values abw = core::maybe_broadcast({x["a"], x["end"], x["weight"]});
    auto [computation, result] = core::elementwise_type_promotion({x["a"], x["end"], x["weight"]}, Promotion::Default);
    Value start = core::maybe_convert_to_dtype(abw[0], computation);
    Value end = core::maybe_convert_to_dtype(abw[1], computation);
    Value weight = core::maybe_convert_to_dtype(abw[2], computation);
    return core::convert(prims::lerp(start, end, weight), result);
  }});
  // value is cast to the operands' dtype, as PyTorch's kernel does (0.5 is 0 for integers).
  define(t, {{"torch.addcmul", "torch.Tensor.addcmul"}, "a, t1, t2, /, *, value=1", [](const Args& x) -> Value {
    auto [computation, result] = core::elementwise_type_promotion({x["a"], x["t1"], x["t2"]}, Promotion::Default);
    return add(x["a"], mul(mul(x["t1"], x["t2"]), core::maybe_convert_to_dtype(x["value"], result)));
  }});
  define(t, {{"torch.addcdiv", "torch.Tensor.addcdiv"}, "a, t1, t2, /, *, value=1", [](const Args& x) -> Value {
    return add(x["a"], mul(true_divide(x["t1"], x["t2"]), x["value"]));
  }});
  // The n-th derivative of digamma: (-1)^(n+1) n! zeta(n + 1, a) for n >= 1.
  auto polygamma = [](int64_t n, const Tensor& a) -> Tensor {
    check(n >= 0, "polygamma(n, x) does not support negative n.");
    if (n == 0) return op("torch.digamma", {a});
    auto [computation, result] = core::elementwise_type_promotion({a}, Promotion::IntToFloat);
    Tensor z = prims::zeta(static_cast<double>(n + 1), core::convert(a, computation));
    Tensor scaled = mul(z, (n % 2 ? 1.0 : -1.0) * std::tgamma(static_cast<double>(n + 1)));
    return core::convert(scaled, result);
  };
  define(t, {{"torch.polygamma", "torch.special.polygamma"}, "n, a, /", [polygamma](const Args& x) -> Value {
    return polygamma(x.integer("n"), x.tensor("a"));
  }});
  define(t, {{"torch.Tensor.polygamma"}, "a, n, /", [polygamma](const Args& x) -> Value {
    return polygamma(x.integer("n"), x.tensor("a"));
  }});
  // a = mantissa * 2 ** exponent with 0.5 <= |mantissa| < 1 (zeros, infinities and NaN keep their
  // value, exponent 0). In float64 every finite value of every float dtype scales exactly by
  // powers of two; log2's estimate of the exponent is corrected by one step where it rounds.
  define(t, {{"torch.frexp", "torch.Tensor.frexp"}, "a, /", [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    check(a.dtype().is_float(), "torch.frexp() only supports floating-point dtypes");
    Tensor wide = a.dtype() == dtypes::float64 ? a : to(a, dtypes::float64);
    Tensor nonzero = gt(abs(wide), 0.0);
    Tensor regular = op("torch.logical_and", {nonzero, op("torch.isfinite", {wide})});
    // Zeros, infinities and NaN go through the arithmetic as 1.0, whose results are discarded:
    // their gradient is then the identity's, never a NaN from the branch not taken.
    Tensor safe = where(regular, wide, 1.0);
    Tensor estimate = op("torch.floor", {op("torch.log2", {abs(safe)})}) + 1;
    // Scaled by 2 ** -e in two halves: 2 ** 1073 (a subnormal's) overflows float64.
    auto scaled_by = [&safe](const Tensor& e) {
      Tensor half = op("torch.floor", {neg(e) * 0.5});
      Tensor rest = neg(e) - half;
      Tensor partly = safe * op("torch.exp2", {half});
      return partly * op("torch.exp2", {rest});
    };
    Tensor scaled = abs(scaled_by(estimate));
    Tensor above = to(ge(scaled, 1.0), dtypes::float64);
    Tensor below = to(lt(scaled, 0.5), dtypes::float64);
    Tensor exponent = estimate + above - below;
    Tensor mantissa = scaled_by(exponent);
    Tensor kept_mantissa = where(regular, mantissa, wide);
    Tensor kept_exponent = where(regular, exponent, 0.0);
    Tensor mantissa_out = to(kept_mantissa, a.dtype().strong());
    Tensor exponent_out = to(kept_exponent, dtypes::int32);
    return Value::tuple({mantissa_out, exponent_out});
  }});
  // PyTorch's own definition: a * 2.0 ** b.
  define(t, {{"torch.ldexp", "torch.Tensor.ldexp"}, "a, b, /", [](const Args& x) -> Value {
    Tensor scale = pow(2.0, x["b"]);
    return mul(x["a"], scale);
  }});
  define(t, {{"torch.float_power", "torch.Tensor.float_power"}, "a, b, /", [](const Args& x) -> Value {
    auto wide = [](const Value& v) { return v.is_tensor() ? Value(to(v.as_tensor(), v.as_tensor().dtype().is_complex() ? dtypes::complex128 : dtypes::float64)) : v; };
    Value a = wide(x["a"]);
    Value b = wide(x["b"]);
    return pow(a, b);
  }});
  define(t, {{"torch.rsub"}, "a, b, /, *, alpha=1", [](const Args& x) -> Value {
    return sub(x["b"], x["a"], x["alpha"]);
  }});
  define(t, {{"torch.nn.functional.celu"}, "a, /, alpha=1.0, inplace=False", [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    double alpha = x.real("alpha");
    check(alpha != 0, "ZeroDivisionError: alpha cannot be 0 for CELU", "ValueError");
    Tensor positive = a > 0;
    Tensor negative_part = op("torch.expm1", {dropped_as_zero(positive, a) / alpha}) * alpha;
    return where(positive, a, negative_part);
  }});
  define(t, {{"torch.nn.functional.selu", "torch.selu"}, "a, /, inplace=False", [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    constexpr double alpha = 1.6732632423543772848170429916717, scale = 1.0507009873554804934193349852946;
    Tensor positive = a > 0;
    Tensor positive_part = a * scale;
    Tensor negative_part = op("torch.expm1", {dropped_as_zero(positive, a)}) * (alpha * scale);
    return where(positive, positive_part, negative_part);
  }});
  define(t, {{"torch.nn.functional.threshold", "torch.threshold"}, "a, threshold, value, /, inplace=False", [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    return where(gt(a, x["threshold"]), a, core::maybe_convert_to_dtype(x["value"], a.dtype()));
  }});
  define(t, {{"torch.nn.functional.hardshrink", "torch.Tensor.hardshrink"}, "a, /, lambd=0.5", [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    return where(gt(abs(a), x["lambd"]), a, 0);
  }});
  define(t, {{"torch.nn.functional.softshrink"}, "a, /, lambd=0.5", [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    double l = x.real("lambd");
    Tensor below = a < -l;
    Tensor raised = a + l;
    Tensor low_part = where(below, raised, 0);
    Tensor above = a > l;
    Tensor lowered = a - l;
    return where(above, lowered, low_part);
  }});
  define(t, {{"torch.nn.functional.tanhshrink"}, "a, /", [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    return a - tanh(a);
  }});
  define(t, {{"torch.nn.functional.prelu", "torch.prelu"}, "input, weight", [](const Args& x) -> Value {
    const auto& a = x.tensor("input");
    Tensor w = x.tensor("weight");
    // One weight per channel (dim 1), or one for all.
    if (w.numel() > 1 && a.ndim() >= 2) {
      Shape shape(a.ndim(), 1);
      shape[1] = w.numel();
      w = reshape(w, shape);
    }
    Tensor positive = a > 0;
    Tensor scaled = a * w;
    return where(positive, a, scaled);
  }});
  define(t, {{"torch.nn.functional.glu"}, "a, /, dim=-1", [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    int64_t dim = langs::canonicalize_dim(a.ndim(), x.integer("dim")), n = a.shape()[dim];
    check(n % 2 == 0, [&] { return str("Halving dimension must be even, but dimension ", dim, " is size ", n); });
    Tensor first = narrow(a, dim, 0, n / 2);
    Tensor gate = sigmoid(narrow(a, dim, n / 2, n / 2));
    return first * gate;
  }});
  define(t, {{"torch.nn.functional.softmin"}, "a, /, dim=None, _stacklevel=3, dtype=None", [](const Args& x) -> Value {
    check(!x.is_none("dim"), "softmin without dim (an implicit dimension) is not supported; give dim", "NotImplementedError");
    return op("torch.softmax", {-x.tensor("a"), x["dim"]}, {{"dtype", x["dtype"]}});
  }});
  define(t, {{"torch.nn.functional.hardtanh"}, "a, /, min_val=-1.0, max_val=1.0, inplace=False", [](const Args& x) -> Value {
    check(x.real("max_val") >= x.real("min_val"), "Hardtanh: max_val must be greater than or equal to min_val", "ValueError");
    // The bounds take a's dtype: hardtanh keeps an integer tensor's dtype.
    const auto& a = x.tensor("a");
    Value low = core::maybe_convert_to_dtype(x["min_val"], a.dtype()), high = core::maybe_convert_to_dtype(x["max_val"], a.dtype());
    // Unlike clamp's, the gradient is 0 at a bound, as ATen's hardtanh_backward passes it only
    // strictly between them (relu6 at 0, hardsigmoid at -3 and 3); NaN passes through.
    Tensor at_or_below = le(a, low);
    Tensor at_or_above = ge(a, high);
    return where(at_or_below, low, where(at_or_above, high, a));
  }});
  define(t, {{"torch.nn.functional.relu6"}, "a, /, inplace=False", [](const Args& x) -> Value {
    return op("torch.nn.functional.hardtanh", {x.tensor("a"), int64_t{0}, int64_t{6}});
  }});
  define(t, {{"torch.nn.functional.hardsigmoid"}, "a, /, inplace=False", [](const Args& x) -> Value {
    return op("torch.nn.functional.relu6", {x.tensor("a") + 3}) / 6;
  }});
  define(t, {{"torch.nn.functional.hardswish"}, "a, /, inplace=False", [](const Args& x) -> Value {
    // clamp, not relu6: ATen's (scalar) hardswish_backward keeps the bounds (a/3 + 1/2 at -3 and at 3).
    const auto& a = x.tensor("a");
    return a * op("torch.clamp", {a + 3, int64_t{0}, int64_t{6}}) / 6;
  }});
  define(t, {{"torch.nn.functional.leaky_relu"}, "a, /, negative_slope=0.01, inplace=False", [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    Tensor positive = a > 0;
    Tensor scaled = mul(a, x["negative_slope"]);
    return where(positive, a, scaled);
  }});
  define(t, {{"torch.nn.functional.elu"}, "a, /, alpha=1.0, inplace=False", [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    Tensor positive = a > 0;
    Tensor negative_part = mul(op("torch.expm1", {dropped_as_zero(positive, a)}), x["alpha"]);
    return where(positive, a, negative_part);
  }});
  define(t, {{"torch.nn.functional.mish"}, "a, /, inplace=False", [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    return a * tanh(op("torch.nn.functional.softplus", {a}));
  }});
  define(t, {{"torch.nn.functional.softsign"}, "a, /", [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    return a / (abs(a) + 1);
  }});
  define(t, {{"torch.nn.functional.logsigmoid"}, "a, /", [](const Args& x) -> Value {
    // -softplus(-a), written so that exp never overflows: min(a, 0) - log1p(exp(-|a|)).
    const auto& a = x.tensor("a");
    Tensor low = op("torch.minimum", {a, full_like(a, 0)});
    Tensor correction = log1p(exp(-abs(a)));
    return low - correction;
  }});
  define(t, {{"torch.nn.functional.softplus"}, "a, /, beta=1, threshold=20", [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    Tensor scaled = mul(a, x["beta"]);
    Tensor linear = gt(scaled, x["threshold"]);
    Tensor soft = true_divide(log1p(exp(dropped_as_zero(linear, scaled))), x["beta"]);
    return where(linear, a, soft);
  }});
}

}  // namespace thundercc::ltorch
