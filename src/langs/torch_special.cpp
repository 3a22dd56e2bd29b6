// torch.special: the functions that are torch ops under another name (aliases of their
// symbols), the normal distribution's functions, entropy and the multivariate log-gamma as
// decompositions, and the Bessel functions and orthogonal polynomials that ATen computes (a meta
// function each, kNoDecomposition).
#include <cmath>
#include <limits>
#include <numbers>
#include <optional>

#include "langs/torch_registry.h"
#include "thundercc/ir/trace.h"

namespace thundercc::ltorch {
namespace {

// torch.special.NAME is the torch op it names here.
const std::pair<const char*, const char*> kSpecialAliases[] = {
    {"torch.special.digamma", "torch.digamma"},   {"torch.special.psi", "torch.digamma"},
    {"torch.special.sinc", "torch.sinc"},         {"torch.special.erf", "torch.erf"},
    {"torch.special.erfc", "torch.erfc"},         {"torch.special.erfinv", "torch.erfinv"},
    {"torch.special.exp2", "torch.exp2"},         {"torch.special.expm1", "torch.expm1"},
    {"torch.special.log1p", "torch.log1p"},       {"torch.special.log_softmax", "torch.log_softmax"},
    {"torch.special.softmax", "torch.softmax"},   {"torch.special.logit", "torch.logit"},
    {"torch.special.logsumexp", "torch.logsumexp"}, {"torch.special.xlogy", "torch.xlogy"},
    {"torch.special.expit", "torch.sigmoid"},     {"torch.special.gammaln", "torch.lgamma"},
};

// Elementwise functions of one argument with no decomposition here: ATen computes them (their
// kernels in runtime/torch_kernels.cpp), integers and bools promoted to the default float. Those
// autograd does not differentiate give results that never require grad, as PyTorch's do.
struct AtenUnary {
  std::initializer_list<const char*> ids;
  bool differentiable;
};
const AtenUnary kAtenUnary[] = {
    {{"torch.i0", "torch.special.i0", "torch.Tensor.i0"}, true},
    {{"torch.special.i0e"}, true},
    {{"torch.special.i1"}, true},
    {{"torch.special.i1e"}, true},
    {{"torch.special.erfcx"}, true},
    {{"torch.special.airy_ai"}, false},
    {{"torch.special.bessel_j0"}, false},
    {{"torch.special.bessel_j1"}, false},
    {{"torch.special.bessel_y0"}, false},
    {{"torch.special.bessel_y1"}, false},
    {{"torch.special.modified_bessel_i0"}, false},
    {{"torch.special.modified_bessel_i1"}, false},
    {{"torch.special.modified_bessel_k0"}, false},
    {{"torch.special.modified_bessel_k1"}, false},
    {{"torch.special.scaled_modified_bessel_k0"}, false},
    {{"torch.special.scaled_modified_bessel_k1"}, false},
    {{"torch.special.spherical_bessel_j0"}, false},
};
// The orthogonal polynomials P_n(x), x and n tensors or numbers, broadcast and promoted together;
// autograd does not differentiate them.
const char* const kAtenPolynomials[] = {
    "torch.special.chebyshev_polynomial_t",         "torch.special.chebyshev_polynomial_u",
    "torch.special.chebyshev_polynomial_v",         "torch.special.chebyshev_polynomial_w",
    "torch.special.shifted_chebyshev_polynomial_t", "torch.special.shifted_chebyshev_polynomial_u",
    "torch.special.shifted_chebyshev_polynomial_v", "torch.special.shifted_chebyshev_polynomial_w",
    "torch.special.hermite_polynomial_h",           "torch.special.hermite_polynomial_he",
    "torch.special.laguerre_polynomial_l",          "torch.special.legendre_polynomial_p",
};

// The result of an elementwise function computed in floating point: the arguments' shapes
// broadcast, their promoted dtype with integers to the default float.
Tensor floating_result(const Values& args, bool differentiable) {
  std::optional<tracing::GradScope> constant;  // open: no input counts
  if (!differentiable) constant.emplace(Values{});
  std::vector<Shape> shapes;
  const Tensor* first = nullptr;
  for (const auto& v : args)
    if (v.is_tensor()) {
      shapes.push_back(v.as_tensor().shape());
      if (!first) first = &v.as_tensor();
    }
  check(first != nullptr, "expected a tensor argument");
  DType dtype = core::elementwise_type_promotion(args, core::Promotion::IntToFloat).result;
  return Tensor::make(langs::broadcast_shapes(shapes), dtype, first->device());
}

Tensor unary(const char* id, const Tensor& a) { return op(id, {a}); }

// Phi(x) = erfc(-x / sqrt 2) / 2, exact in both tails.
Tensor ndtr(const Tensor& x) { return mul(unary("torch.erfc", mul(x, -1.0 / std::numbers::sqrt2)), 0.5); }

}  // namespace

void register_special(SymbolTable& t) {
  for (const auto& [alias, id] : kSpecialAliases) t.add_alias(id, alias);
  const std::vector<std::string> aten{kNoDecomposition};
  for (const auto& f : kAtenUnary)
    define(t, {f.ids, "a, /", [d = f.differentiable](const Args& x) -> Value { return floating_result({x["a"]}, d); }}, aten);
  for (const char* id : kAtenPolynomials)
    define(t, {{id}, "a, n, /", [](const Args& x) -> Value { return floating_result({x["a"], x["n"]}, false); }}, aten);
  auto floating = [](const Args& x) {
    const Tensor& a = x.tensor("a");
    return a.dtype().is_inexact() ? a : to(a, dtypes::float32);
  };
  define(t, {{"torch.special.ndtr"}, "a, /", [floating](const Args& x) -> Value { return ndtr(floating(x)); }}, {kRunsDecomposed});
  // log Phi(x): log1p(-Phi(-x)) above 0, log(Phi(x)) below, and below -10 (where float32's Phi
  // nears its smallest numbers) the asymptotic series -x^2/2 - log(-x sqrt(2 pi)) + log(1 - r +
  // 3r^2 - 15r^3 + 105r^4 - 945r^5), r = 1/x^2, whose next term is below 1e-8 there.
  define(t, {{"torch.special.log_ndtr"}, "a, /", [floating](const Args& x) -> Value {
    Tensor a = floating(x);
    Tensor upper = unary("torch.log1p", -ndtr(-a));
    Tensor middle = unary("torch.log", ndtr(a));
    Tensor tail = op("torch.minimum", {a, full_like(a, -10.0)});  // finite in the branches where is not taken
    Tensor r = reciprocal(tail * tail);
    Tensor series = unary("torch.log1p", r * (r * (r * (r * (105.0 - r * 945.0) - 15.0) + 3.0) - 1.0));
    Tensor exponent = (tail * tail) * -0.5;
    Tensor asymptotic = exponent - unary("torch.log", tail * -std::sqrt(2.0 * std::numbers::pi)) + series;
    Tensor deep = a < -10.0;
    Tensor below_zero = where(deep, asymptotic, middle);
    Tensor positive = a > 0.0;
    return where(positive, upper, below_zero);
  }}, {kRunsDecomposed});
  define(t, {{"torch.special.ndtri"}, "a, /", [floating](const Args& x) -> Value {
    return mul(unary("torch.erfinv", floating(x) * 2.0 - 1.0), std::numbers::sqrt2);
  }}, {kRunsDecomposed});
  // -x log x for x > 0, 0 at 0, -inf below; NaN stays NaN.
  define(t, {{"torch.special.entr"}, "a, /", [floating](const Args& x) -> Value {
    Tensor a = floating(x);
    Tensor positive = op("torch.clamp", {a, Value(std::numeric_limits<double>::min())});
    Tensor entropy = -(a * unary("torch.log", positive));
    Tensor zero = eq(a, 0.0);
    Tensor zeros = zeros_like(a);
    Tensor minus_infinity = full_like(a, -std::numeric_limits<double>::infinity());
    Tensor below = where(zero, zeros, minus_infinity);
    Tensor nan = unary("torch.isnan", a);
    Tensor not_positive = where(nan, a, below);
    Tensor above_zero = a > 0.0;
    return where(above_zero, entropy, not_positive);
  }}, {kRunsDecomposed});
  // x log1p(y), 0 where x is 0 unless y is NaN.
  define(t, {{"torch.special.xlog1py"}, "a, b, /", [](const Args& x) -> Value {
    const Value& a = x["a"];
    const Value& b = x["b"];
    Tensor product = mul(a, b.is_tensor() ? unary("torch.log1p", b.as_tensor()) : Value(std::log1p(b.as_float())));
    if (!a.is_tensor() && a.as_float() == 0.0 && b.is_tensor()) return where(unary("torch.isnan", b.as_tensor()), product, 0.0);
    if (!a.is_tensor()) return a.as_float() == 0.0 && !std::isnan(b.as_float()) ? zeros_like(product) : product;
    if (!b.is_tensor() && std::isnan(b.as_float())) return product;
    Tensor zero = eq(a, int64_t{0});
    if (b.is_tensor()) zero = op("torch.logical_and", {zero, logical_not(unary("torch.isnan", b.as_tensor()))});
    return where(zero, zeros_like(product), product);
  }}, {kRunsDecomposed});
  // log Gamma_p(a) = p (p - 1) / 4 log(pi) + sum over j < p of lgamma(a - j / 2).
  define(t, {{"torch.special.multigammaln", "torch.mvlgamma", "torch.Tensor.mvlgamma"}, "a, /, p", [](const Args& x) -> Value {
    Tensor a = x.tensor("a").dtype().is_inexact() ? x.tensor("a") : to(x.tensor("a"), dtypes::float32);
    int64_t p = x.integer("p");
    check(p >= 1, [&] { return str("p has to be greater than or equal to 1, but got ", p); });
    Tensor total = full_like(a, static_cast<double>(p * (p - 1)) / 4.0 * std::log(std::numbers::pi));
    for (int64_t j = 0; j < p; ++j) total = total + unary("torch.lgamma", a - static_cast<double>(j) / 2.0);
    return total;
  }}, {kRunsDecomposed});
}

}  // namespace thundercc::ltorch
