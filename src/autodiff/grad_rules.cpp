// The built-in grad rules, in the joint style (thunder/core/transforms.py): every differentiable
// prim, and direct rules for the torch-language ops whose decompositions would differentiate
// poorly (softmax, log_softmax, layer_norm, linear). Each rule recomputes the forward with the
// same call, reads the gradient of its result and puts its inputs' gradients.
//
// Prims whose results carry no gradient (comparisons, argmax, bitwise ops) need no rule: the
// transform keeps any statement whose outputs do not require grad as forward only. Rounding ops
// (floor, ceil, round, trunc, sign, nextafter) have a zero derivative: their rules put nothing.
#include <cmath>
#include <numbers>

#include "langs/utils.h"
#include "thundercc/autodiff/autodiff.h"
#include "thundercc/errors.h"
#include "thundercc/langs/prims.h"
#include "thundercc/langs/torch.h"

namespace thundercc {
namespace {

using ltorch::Dims;

// The same call again, recorded in the active trace.
Value forward(const Args& x) {
  auto [args, kwargs] = x.symbol().normalize(x);
  return call(x.symbol(), args, kwargs);
}

bool wants_grad(const Value& v) { return v.is_tensor() && v.as_tensor().requires_grad(); }

// Sums `g` down to `shape` (undoing a broadcast: leading dims, and dims of length 1).
Tensor sum_to(const Tensor& g, const Shape& shape) {
  if (g.shape() == shape) return g;
  int64_t lead = g.ndim() - static_cast<int64_t>(shape.size());
  Dims dims;
  for (int64_t d = 0; d < g.ndim(); ++d)
    if (d < lead || (shape[d - lead] == 1 && g.shape()[d] != 1)) dims.push_back(d);
  Tensor summed = dims.empty() ? g : prims::sum(g, dims);
  return summed.shape() == shape ? summed : prims::reshape(summed, shape);
}

// g as the gradient of a value of dtype d: a real value's gradient is the real part of a complex
// one (PyTorch's convention); a complex value's, a real gradient with no imaginary part.
Tensor in_dtype(const Tensor& g, DType d) {
  if (g.dtype() == d) return g;
  if (g.dtype().is_complex() && !d.is_complex()) return in_dtype(prims::real(g), d);
  if (!g.dtype().is_complex() && d.is_complex()) {
    Tensor real = in_dtype(g, to_real_dtype(d));
    return prims::complex(real, ltorch::zeros_like(real));
  }
  return prims::convert_element_type(g, d);
}

// The complex conjugate of a complex operand; real operands and numbers as they are.
Value conjugate(const Value& v) {
  if (!v.is_tensor() || !v.as_tensor().dtype().is_complex()) return v;
  return ltorch::op("torch.conj_physical", {v});
}

// Puts `g` as the gradient of an elementwise operand (a tensor of the same shape, or a CPU 0-d
// tensor standing for a number); numbers take none.
void put_operand_grad(const Value& operand, const std::function<Tensor()>& g) {
  if (!wants_grad(operand)) return;
  const Tensor& t = operand.as_tensor();
  put_grad(operand, in_dtype(sum_to(g(), t.shape()), t.dtype()));
}

// Broadcasts a reduced gradient back over the reduced dims of `a`.
Tensor unreduce(const Tensor& g, const Tensor& a, const Dims& reduced) {
  Dims kept;
  for (int64_t d = 0; d < a.ndim(); ++d)
    if (std::find(reduced.begin(), reduced.end(), d) == reduced.end()) kept.push_back(d);
  return prims::broadcast_in_dim(g, a.shape(), kept);
}

int64_t reduced_numel(const Tensor& a, const Dims& dims) {
  int64_t n = 1;
  for (auto d : dims) n *= a.shape()[d];
  return n;
}

// g * scale * exp(exponent), recorded in that order.
Tensor scaled_by_exp(const Tensor& g, double scale, const Tensor& exponent) {
  Tensor scaled = g * scale;
  return scaled * ltorch::exp(exponent);
}

using UnaryDerivative = std::function<Tensor(const Tensor& a, const Tensor& out, const Tensor& g)>;

void unary(const char* name, UnaryDerivative da) {
  register_grad(std::string("prims.") + name, [da](const Args& x) -> Value {
    Tensor out = forward(x).as_tensor();
    Tensor g = get_grad(out);
    put_grad(x["a"], da(x.tensor("a"), out, g));
    return out;
  });
}

// A rule for ops with a zero derivative: the forward, and no gradient.
void zero_derivative(const char* id) {
  register_grad(id, [](const Args& x) -> Value { return forward(x); });
}

using BinaryDerivative = std::function<Tensor(const Value& a, const Value& b, const Tensor& out, const Tensor& g)>;

void binary(const char* name, BinaryDerivative da, BinaryDerivative db) {
  register_grad(std::string("prims.") + name, [da, db](const Args& x) -> Value {
    Tensor out = forward(x).as_tensor();
    Tensor g = get_grad(out);
    const Value& a = x["a"];
    const Value& b = x["b"];
    put_operand_grad(a, [&] { return da(a, b, out, g); });
    put_operand_grad(b, [&] { return db(a, b, out, g); });
    return out;
  });
}

void register_elementwise_rules() {
  const double sqrt_pi = std::sqrt(std::numbers::pi);
  // |z|'s gradient is g z / |z| for complex z (0 at 0), as PyTorch's sgn.
  unary("abs", [](auto& a, auto& out, auto& g) {
    if (!a.dtype().is_complex()) return g * prims::sign(a);
    return g * (a / ltorch::where(ltorch::eq(out, 0.0), 1.0, out));
  });
  unary("acos", [](auto& a, auto&, auto& g) { return -(g * ltorch::rsqrt(1.0 - a * a)); });
  unary("acosh", [](auto& a, auto&, auto& g) { return g * ltorch::rsqrt(a * a - 1.0); });
  unary("asin", [](auto& a, auto&, auto& g) { return g * ltorch::rsqrt(1.0 - a * a); });
  unary("asinh", [](auto& a, auto&, auto& g) { return g * ltorch::rsqrt(a * a + 1.0); });
  unary("atan", [](auto& a, auto&, auto& g) { return g / (a * a + 1.0); });
  unary("atanh", [](auto& a, auto&, auto& g) { return g / (1.0 - a * a); });
  unary("cos", [](auto& a, auto&, auto& g) { return -(g * prims::sin(a)); });
  unary("cosh", [](auto& a, auto&, auto& g) { return g * prims::sinh(a); });
  unary("erf", [=](auto& a, auto&, auto& g) { return scaled_by_exp(g, 2.0 / sqrt_pi, -(a * a)); });
  unary("erfc", [=](auto& a, auto&, auto& g) { return scaled_by_exp(g, -2.0 / sqrt_pi, -(a * a)); });
  unary("erfinv", [=](auto&, auto& out, auto& g) { return scaled_by_exp(g, sqrt_pi / 2.0, out * out); });
  unary("erfcinv", [=](auto&, auto& out, auto& g) { return scaled_by_exp(g, -sqrt_pi / 2.0, out * out); });
  unary("exp", [](auto&, auto& out, auto& g) { return g * out; });
  unary("exp2", [](auto&, auto& out, auto& g) { return g * out * std::numbers::ln2; });
  unary("expm1", [](auto&, auto& out, auto& g) { return g * (out + 1.0); });
  unary("lgamma", [](auto& a, auto&, auto& g) { return g * prims::digamma(a); });
  unary("log", [](auto& a, auto&, auto& g) { return g / a; });
  unary("log10", [](auto& a, auto&, auto& g) { return g / (a * std::numbers::ln10); });
  unary("log1p", [](auto& a, auto&, auto& g) { return g / (a + 1.0); });
  unary("log2", [](auto& a, auto&, auto& g) { return g / (a * std::numbers::ln2); });
  unary("ndtri", [](auto&, auto& out, auto& g) { return scaled_by_exp(g, std::sqrt(2 * std::numbers::pi), out * out * 0.5); });
  unary("neg", [](auto&, auto&, auto& g) { return -g; });
  unary("reciprocal", [](auto&, auto& out, auto& g) { return -(g * out * out); });
  unary("rsqrt", [](auto&, auto& out, auto& g) { return g * (out * out * out) * -0.5; });
  unary("sin", [](auto& a, auto&, auto& g) { return g * prims::cos(a); });
  // sinc(a) = sin(pi a) / (pi a), 1 at 0: its derivative (cos(pi a) - sinc(a)) / a, 0 at 0.
  unary("sinc", [](auto& a, auto& out, auto& g) {
    Tensor at_zero = ltorch::eq(a, 0.0);  // its own statement: C++ leaves the operands' order open
    Tensor slope = (prims::cos(a * std::numbers::pi) - out) / a;
    return g * ltorch::where(at_zero, 0.0, slope);
  });
  unary("sinh", [](auto& a, auto&, auto& g) { return g * prims::cosh(a); });
  unary("sqrt", [](auto&, auto& out, auto& g) { return g / (out * 2.0); });
  unary("tan", [](auto&, auto& out, auto& g) { return g * (out * out + 1.0); });
  unary("tanh", [](auto&, auto& out, auto& g) { return g * (1.0 - out * out); });
  // digamma's derivative is trigamma, zeta(2, a) (polygamma decomposes into digamma and zeta).
  unary("digamma", [](auto& a, auto&, auto& g) { return g * prims::zeta(2.0, a); });
  unary("real", [](auto& a, auto&, auto& g) { return in_dtype(g, a.dtype()); });
  unary("imag", [](auto&, auto&, auto& g) { return prims::complex(ltorch::zeros_like(g), g); });
  register_grad("prims.complex", [](const Args& x) -> Value {
    Tensor out = forward(x).as_tensor();
    Tensor g = get_grad(out);
    put_operand_grad(x["a"], [&] { return prims::real(g); });
    put_operand_grad(x["b"], [&] { return prims::imag(g); });
    return out;
  });
  for (const char* id : {"prims.ceil", "prims.floor", "prims.round", "prims.trunc", "prims.sign", "prims.nextafter"})
    zero_derivative(id);

  binary("add", [](auto&, auto&, auto&, auto& g) { return g; }, [](auto&, auto&, auto&, auto& g) { return g; });
  binary("sub", [](auto&, auto&, auto&, auto& g) { return g; }, [](auto&, auto&, auto&, auto& g) { return -g; });
  binary("mul", [](auto&, auto& b, auto&, auto& g) { return ltorch::mul(g, conjugate(b)); },
         [](auto& a, auto&, auto&, auto& g) { return ltorch::mul(g, conjugate(a)); });
  binary("div", [](auto&, auto& b, auto&, auto& g) { return ltorch::true_divide(g, conjugate(b)); },
         [](auto&, auto& b, auto& out, auto& g) {
           Tensor scaled = ltorch::mul(g, conjugate(out));  // its own statement: C++ leaves the operands' order open
           return -ltorch::true_divide(scaled, conjugate(b));
         });
  // zeta(s, q): -s zeta(s + 1, q) in q; PyTorch defines no derivative in s.
  binary("zeta",
         [](auto&, auto&, auto&, auto&) -> Tensor {
           throw ThunderError("NotImplementedError", "the derivative for 'zeta' is not implemented.");
         },
         [](auto& s, auto& q, auto&, auto& g) {
           Value next = s.is_tensor() ? Value(ltorch::add(s, 1.0)) : Value(s.as_float() + 1.0);
           return ltorch::mul(g, ltorch::mul(ltorch::neg(prims::zeta(next, q)), s));
         });
  // atan2(a, b): b / (a^2 + b^2) and -a / (a^2 + b^2).
  auto atan2_grad = [](const Value& a, const Value& b, const Value& numerator, const Tensor& g) {
    Tensor scaled = ltorch::mul(g, numerator);
    Tensor a2 = ltorch::mul(a, a);
    Tensor b2 = ltorch::mul(b, b);
    return ltorch::true_divide(scaled, ltorch::add(a2, b2));
  };
  binary("atan2", [=](auto& a, auto& b, auto&, auto& g) { return atan2_grad(a, b, b, g); },
         [=](auto& a, auto& b, auto&, auto& g) { return -atan2_grad(a, b, a, g); });
  binary("fmod", [](auto&, auto&, auto&, auto& g) { return g; },
         [](auto& a, auto& b, auto&, auto& g) { return -(g * prims::trunc(ltorch::true_divide(a, b))); });
  binary("remainder", [](auto&, auto&, auto&, auto& g) { return g; },
         [](auto& a, auto& b, auto&, auto& g) { return -(g * prims::floor(ltorch::true_divide(a, b))); });
  // Ties share the gradient equally, as PyTorch's maximum and minimum do.
  auto select = [](bool max, bool first) {
    return [max, first](const Value& a, const Value& b, const Tensor&, const Tensor& g) {
      const Value& self = first ? a : b;
      const Value& other = first ? b : a;
      Tensor wins = max ? ltorch::gt(self, other) : ltorch::lt(self, other);
      Tensor tie = ltorch::eq(a, b);
      Tensor half = ltorch::where(tie, g * 0.5, 0.0);
      return ltorch::where(wins, g, half);
    };
  };
  binary("maximum", select(true, true), select(true, false));
  binary("minimum", select(false, true), select(false, false));
  // pow(a, b): a * b^(b-1) and out * log(a), with PyTorch's zeros where b == 0 and a == 0.
  binary("pow",
         [](auto& a, auto& b, auto&, auto& g) -> Tensor {
           if (!b.is_tensor()) {
             if (b.as_float() == 0.0) return ltorch::zeros_like(g);
             Value b_minus_1 = b.number_kind() == NumberKind::Float ? Value(b.as_float() - 1.0) : Value(b.as_int() - 1);
             return ltorch::mul(g * ltorch::pow(a, b_minus_1), b);
           }
           Tensor d = ltorch::mul(b, ltorch::pow(a, ltorch::sub(b, 1.0)));
           Tensor zero_exponent = ltorch::eq(b, 0.0);
           return ltorch::where(zero_exponent, 0.0, g * d);
         },
         [](auto& a, auto&, auto& out, auto& g) -> Tensor {
           if (!a.is_tensor()) return a.as_float() == 0.0 ? ltorch::zeros_like(g) : g * out * std::log(a.as_float());
           Tensor d = out * ltorch::log(ltorch::where(ltorch::eq(a, 0.0), 1.0, a));
           Tensor zero_base = ltorch::eq(a, 0.0);
           return ltorch::where(zero_base, 0.0, g * d);
         });

  register_grad("prims.where", [](const Args& x) -> Value {
    Tensor out = forward(x).as_tensor();
    Tensor g = get_grad(out);
    // A bool pred (the in-place ops' where(True, new value, x)) sends all of g one way.
    if (!x["pred"].is_tensor()) {
      put_operand_grad(x["pred"].as_bool() ? x["a"] : x["b"], [&] { return g; });
      return out;
    }
    put_operand_grad(x["a"], [&] { return ltorch::where(x["pred"], g, 0.0); });
    put_operand_grad(x["b"], [&] { return ltorch::where(x["pred"], 0.0, g); });
    return out;
  });
  // relu's decomposition, where(a < 0, 0, a), passes NaN and -0.0 as ATen does; differentiated
  // through, it would pass the gradient at 0 too. As autograd's threshold_backward, this rule (on
  // the torch-language op, kept whole in traces) passes it where the result is above 0 or NaN,
  // and reads the result, which the next layer keeps anyway, not the input.
  register_grad("torch.nn.functional.relu", [](const Args& x) -> Value {
    Tensor out = forward(x).as_tensor();
    Tensor g = get_grad(out);
    put_grad(x.tensor("a"), ltorch::where(ltorch::le(out, 0.0), 0.0, g));
    return out;
  });
  // sigmoid's decomposition, 1 / (1 + exp(-a)), differentiated through, multiplies a gradient of 0
  // by exp(-a) = inf below -89 (NaN where autograd gives 0); as autograd's sigmoid_backward, this
  // rule reads the result: g (1 - y) y.
  register_grad("torch.sigmoid", [](const Args& x) -> Value {
    Tensor out = forward(x).as_tensor();
    Tensor g = get_grad(out);
    Tensor slope = ltorch::mul(ltorch::sub(1.0, out), out);
    put_operand_grad(x["a"], [&] { return ltorch::mul(g, conjugate(slope)); });
    return out;
  });
  // hypot's decomposition (scaled by the larger magnitude) differentiated through would pass
  // through its where()s; as autograd's: g a / hypot and g b / hypot.
  register_grad("torch.hypot", [](const Args& x) -> Value {
    Tensor out = forward(x).as_tensor();
    Tensor g = get_grad(out);
    put_operand_grad(x["a"], [&] { return ltorch::true_divide(ltorch::mul(g, x["a"]), out); });
    put_operand_grad(x["b"], [&] { return ltorch::true_divide(ltorch::mul(g, x["b"]), out); });
    return out;
  });
  register_grad("prims.lerp", [](const Args& x) -> Value {
    Tensor out = forward(x).as_tensor();
    Tensor g = get_grad(out);
    put_operand_grad(x["start"], [&] {
      const Value& w = x["weight"];
      return ltorch::mul(g, w.is_tensor() ? Value(ltorch::sub(1.0, w)) : Value(1.0 - w.as_float()));
    });
    put_operand_grad(x["end"], [&] { return ltorch::mul(g, x["weight"]); });
    put_operand_grad(x["weight"], [&] { return ltorch::mul(g, ltorch::sub(x["end"], x["start"])); });
    return out;
  });
}

// A rule whose gradient is a function of g and the bound arguments only.
void linear_in_a(const char* id, std::function<Tensor(const Args& x, const Tensor& g)> da) {
  register_grad(id, [da](const Args& x) -> Value {
    Tensor out = forward(x).as_tensor();
    Tensor g = get_grad(out);
    put_grad(x["a"], da(x, g));
    return out;
  });
}

// The gradient of a strided slice: g scattered back with zeros (pad with interior padding).
Tensor unslice(const Tensor& g, const Shape& shape, const Dims& start, const Dims& strides) {
  Values config;
  for (size_t d = 0; d < shape.size(); ++d) {
    int64_t n = g.shape()[d];
    int64_t high = n == 0 ? shape[d] - start[d] : shape[d] - (start[d] + (n - 1) * strides[d] + 1);
    config.push_back(Value::tuple({n == 0 ? shape[d] - high : start[d], high, strides[d] - 1}));
  }
  std::vector<std::array<int64_t, 3>> triples;
  for (const auto& c : config) {
    auto v = c.as_ints();
    triples.push_back({v[0], v[1], v[2]});
  }
  return prims::pad(g, 0.0, triples);
}

void register_shape_rules() {
  linear_in_a("prims.broadcast_in_dim", [](const Args& x, const Tensor& g) {
    const Tensor& a = x.tensor("a");
    auto bdims = x.ints("broadcast_dimensions");
    Dims added;
    for (int64_t d = 0; d < g.ndim(); ++d)
      if (std::find(bdims.begin(), bdims.end(), d) == bdims.end()) added.push_back(d);
    Tensor s = added.empty() ? g : prims::sum(g, added);
    return sum_to(s, a.shape());
  });
  linear_in_a("prims.reshape", [](const Args& x, const Tensor& g) { return prims::reshape(g, x.tensor("a").shape()); });
  linear_in_a("prims.squeeze", [](const Args& x, const Tensor& g) { return prims::reshape(g, x.tensor("a").shape()); });
  linear_in_a("prims.transpose", [](const Args& x, const Tensor& g) {
    auto perm = langs::canonicalize_dims(x.tensor("a").ndim(), x.ints("permutation"));
    Dims inverse(perm.size());
    for (size_t i = 0; i < perm.size(); ++i) inverse[perm[i]] = static_cast<int64_t>(i);
    return prims::transpose(g, inverse);
  });
  linear_in_a("prims.flip", [](const Args& x, const Tensor& g) { return prims::flip(g, x.ints("dims")); });
  linear_in_a("prims.stride_order", [](const Args&, const Tensor& g) { return g; });
  linear_in_a("prims.convert_element_type", [](const Args& x, const Tensor& g) { return in_dtype(g, x.tensor("a").dtype()); });
  linear_in_a("prims.device_put", [](const Args& x, const Tensor& g) { return prims::device_put(g, x.tensor("a").device()); });
  linear_in_a("prims.slice_prim", [](const Args& x, const Tensor& g) {
    const Tensor& a = x.tensor("a");
    Dims strides = x.is_none("strides") ? Dims(a.ndim(), 1) : x.ints("strides");
    return unslice(g, a.shape(), x.ints("start_indices"), strides);
  });
  linear_in_a("prims.pad", [](const Args& x, const Tensor& g) {
    const Tensor& a = x.tensor("a");
    // Undo negative padding (a crop) with zeros first, then take every (interior + 1)-th element.
    std::vector<std::array<int64_t, 3>> uncrop;
    Dims start, end, strides;
    bool cropped = false;
    for (int64_t d = 0; d < a.ndim(); ++d) {
      auto c = x["padding_config"].items()[d].as_ints();
      uncrop.push_back({std::max<int64_t>(-c[0], 0), std::max<int64_t>(-c[1], 0), 0});
      cropped = cropped || c[0] < 0 || c[1] < 0;
      start.push_back(std::max<int64_t>(c[0], 0));
      strides.push_back(c[2] + 1);
    }
    Tensor full = cropped ? prims::pad(g, 0.0, uncrop) : g;
    for (int64_t d = 0; d < a.ndim(); ++d)
      end.push_back(a.shape()[d] == 0 ? start[d] : start[d] + (a.shape()[d] - 1) * strides[d] + 1);
    return prims::slice_prim(full, start, end, strides);
  });
  register_grad("prims.cat", [](const Args& x) -> Value {
    Tensor out = forward(x).as_tensor();
    Tensor g = get_grad(out);
    int64_t dim = langs::canonicalize_dim(out.ndim(), x.integer("dim"));
    int64_t offset = 0;
    for (const auto& v : x["tensors"].items()) {
      const Tensor& t = v.as_tensor();
      Dims start(out.ndim(), 0), end(out.shape().begin(), out.shape().end());
      start[dim] = offset;
      end[dim] = offset + t.shape()[dim];
      offset = end[dim];
      if (t.requires_grad()) put_grad(t, prims::slice_prim(g, start, end, Dims(out.ndim(), 1)));
    }
    return out;
  });
  // split and chunk cut `a` into consecutive pieces along dim: their gradients are one cat (zeros
  // for a piece no gradient reaches), where the slices' own rules would pad each to a's shape and
  // add them (a GPT-2 block's q, k and v: three pads and two adds).
  for (const char* id : {"torch.split", "torch.chunk"})
    register_grad(id, [](const Args& x) -> Value {
      Value pieces = forward(x);
      const Tensor& a = x.tensor("a");
      std::vector<Tensor> grads;
      for (const auto& piece : pieces.items()) grads.push_back(get_grad(piece));
      put_grad(a, ltorch::cat(grads, x.integer("dim")));
      return pieces;
    });
  linear_in_a("prims.unfold", [](const Args& x, const Tensor& g) {
    // out[..., i, ..., j] = a[..., i * step + j, ...]: each window offset j scatters back with a pad.
    const Tensor& a = x.tensor("a");
    int64_t dim = langs::canonicalize_dim(a.ndim(), x.integer("dim"));
    int64_t size = x.integer("size"), step = x.integer("step");
    int64_t length = a.ndim() == 0 ? 1 : a.shape()[dim];
    int64_t windows = a.ndim() == 0 ? 1 : g.shape()[dim];
    Tensor total;
    for (int64_t j = 0; j < size; ++j) {
      Dims start(g.ndim(), 0), end(g.shape().begin(), g.shape().end());
      start.back() = j;
      end.back() = j + 1;
      Tensor gj = prims::reshape(prims::slice_prim(g, start, end, Dims(g.ndim(), 1)), Shape(g.shape().begin(), g.shape().end() - 1));
      if (a.ndim() == 0) {
        gj = prims::reshape(gj, {});
      } else {
        std::vector<std::array<int64_t, 3>> config(a.ndim(), {0, 0, 0});
        int64_t high = windows == 0 ? length - j : length - (j + (windows - 1) * step + 1);
        config[dim] = {windows == 0 ? length - high : j, high, step - 1};
        gj = prims::pad(gj, 0.0, config);
      }
      total = total ? ltorch::add(total, gj) : gj;  // ltorch: computes a 16-bit float sum in float32
    }
    return total ? total : ltorch::zeros_like(a);
  });
}

void register_reduction_rules() {
  linear_in_a("prims.sum", [](const Args& x, const Tensor& g) {
    const Tensor& a = x.tensor("a");
    return unreduce(g, a, langs::canonicalize_dims(a.ndim(), x.ints("dims")));
  });
  // Each element's gradient is the product of the others (out / a is NaN at a zero): exclusive
  // prefix and suffix products over the reduced elements, laid out as one last dimension.
  register_grad("prims.prod", [](const Args& x) -> Value {
    Tensor out = forward(x).as_tensor();
    Tensor g = get_grad(out);
    const Tensor& a = x.tensor("a");
    auto dims = langs::canonicalize_dims(a.ndim(), x.ints("dims"));
    Dims order;
    Shape kept;
    for (int64_t d = 0; d < a.ndim(); ++d)
      if (std::find(dims.begin(), dims.end(), d) == dims.end()) {
        order.push_back(d);
        kept.push_back(a.shape()[d]);
      }
    order.insert(order.end(), dims.begin(), dims.end());
    int64_t n = reduced_numel(a, dims);
    if (n == 0) {
      put_grad(a, ltorch::zeros_like(a));
      return out;
    }
    Shape rows_shape = kept, ones_shape = kept;
    rows_shape.push_back(n);
    ones_shape.push_back(1);
    Tensor moved = prims::transpose(a, order);
    Tensor rows = prims::reshape(moved, rows_shape);
    Tensor ones = ltorch::full(ones_shape, 1, a.device(), a.dtype());
    auto exclusive = [&](const Tensor& t) {
      Tensor running = prims::cumprod(t, static_cast<int64_t>(kept.size()));
      Tensor before = ltorch::narrow(running, -1, 0, n - 1);
      return ltorch::cat({ones, before}, -1);
    };
    Tensor prefix = exclusive(rows);
    Tensor reversed = prims::flip(rows, {static_cast<int64_t>(kept.size())});
    Tensor reversed_prefix = exclusive(reversed);
    Tensor suffix = prims::flip(reversed_prefix, {static_cast<int64_t>(kept.size())});
    Tensor others = ltorch::mul(prefix, suffix);
    Tensor g_rows = ltorch::unsqueeze(prims::reshape(g, kept), -1);
    Tensor grad_rows = ltorch::mul(others, g_rows);
    Dims inverse(order.size());
    for (size_t i = 0; i < order.size(); ++i) inverse[order[i]] = static_cast<int64_t>(i);
    put_grad(a, prims::transpose(prims::reshape(grad_rows, moved.shape()), inverse));
    return out;
  });
  for (const char* id : {"prims.amax", "prims.amin"})
    register_grad(id, [](const Args& x) -> Value {
      // The gradient goes to the extremal elements, shared equally among ties.
      Tensor out = forward(x).as_tensor();
      Tensor g = get_grad(out);
      const Tensor& a = x.tensor("a");
      auto dims = langs::canonicalize_dims(a.ndim(), x.ints("dims"));
      Tensor hit = prims::convert_element_type(ltorch::eq(a, unreduce(out, a, dims)), a.dtype());
      Tensor count = prims::sum(hit, dims);
      put_grad(a, unreduce(g / count, a, dims) * hit);
      return out;
    });
  auto var_grad = [](const Tensor& a, const Dims& dims, double correction, const Tensor& gv) {
    Tensor mean = unreduce(prims::sum(a, dims) / static_cast<double>(reduced_numel(a, dims)), a, dims);
    Tensor gv_full = unreduce(gv, a, dims);
    return gv_full * (a - mean) * (2.0 / (static_cast<double>(reduced_numel(a, dims)) - correction));
  };
  register_grad("prims.var", [var_grad](const Args& x) -> Value {
    Tensor out = forward(x).as_tensor();
    Tensor g = get_grad(out);
    const Tensor& a = x.tensor("a");
    put_grad(a, var_grad(a, langs::canonicalize_dims(a.ndim(), x.ints("dims")), x.real("correction"), g));
    return out;
  });
  register_grad("prims.var_mean", [var_grad](const Args& x) -> Value {
    Value out = forward(x);
    Tensor gv = get_grad(out.items()[0]);
    Tensor gm = get_grad(out.items()[1]);
    const Tensor& a = x.tensor("a");
    auto dims = langs::canonicalize_dims(a.ndim(), x.ints("dims"));
    Tensor from_mean = unreduce(gm, a, dims) / static_cast<double>(reduced_numel(a, dims));
    put_grad(a, var_grad(a, dims, x.real("correction"), gv) + from_mean);
    return out;
  });
  register_grad("prims.topk", [](const Args& x) -> Value {
    // Seed 003: the values' gradient scattered back to where they came from.
    Value out = forward(x);
    const Tensor& values = out.items()[0].as_tensor();
    const Tensor& indices = out.items()[1].as_tensor();
    Tensor g = get_grad(values);
    const Tensor& a = x.tensor("a");
    put_grad(a, prims::scatter_add(ltorch::zeros_like(a), indices, g, x.integer("dim")));
    return out;
  });
}

void register_indexing_rules() {
  linear_in_a("prims.take", [](const Args& x, const Tensor& g) {
    return prims::index_add(ltorch::zeros_like(x.tensor("a")), x.tensor("index"), g, x.integer("dim"));
  });
  linear_in_a("prims.take_along_axis", [](const Args& x, const Tensor& g) {
    return prims::scatter_add(ltorch::zeros_like(x.tensor("a")), x.tensor("index"), g, x.integer("dim"));
  });
  // The sum from the end: the running sum of the flipped gradient, flipped back.
  linear_in_a("prims.cumsum", [](const Args& x, const Tensor& g) {
    int64_t dim = x.integer("dim");
    if (x.tensor("a").ndim() == 0) return g;
    Tensor flipped = prims::flip(g, {dim});
    Tensor summed = prims::cumsum(flipped, dim);
    return prims::flip(summed, {dim});
  });
  // cumprod: d out[j] / d a[k] = prod of a[i] over i <= j, i != k, for j >= k. Written without
  // dividing by a (which a zero would break): row k of an n x n table is a with a[k] replaced by 1,
  // scanned; quadratic in the scanned length.
  register_grad("prims.cumprod", [](const Args& x) -> Value {
    Tensor out = forward(x).as_tensor();
    Tensor g = get_grad(out);
    const Tensor& a = x.tensor("a");
    if (a.ndim() == 0) {
      put_grad(x["a"], g);
      return out;
    }
    int64_t dim = x.integer("dim"), last = a.ndim() - 1, n = a.shape()[dim];
    Tensor a_last = dim == last ? a : ltorch::transpose(a, dim, last);
    Tensor g_last = dim == last ? g : ltorch::transpose(g, dim, last);
    Tensor rows = ltorch::unsqueeze(prims::iota(n, 0, 1, a.device(), dtypes::int64), 1);
    Tensor columns = prims::iota(n, 0, 1, a.device(), dtypes::int64);
    Tensor skipped = ltorch::eq(rows, columns);
    Tensor table = ltorch::where(skipped, 1, ltorch::unsqueeze(a_last, -2));
    Tensor products = prims::cumprod(table, last + 1);
    Tensor weighted = ltorch::mul(products, ltorch::unsqueeze(g_last, -2));
    Tensor reached = ltorch::ge(columns, rows);
    Tensor kept = ltorch::where(reached, weighted, 0);
    Tensor grad = ltorch::sum(kept, Dims{last + 1});
    put_grad(x["a"], dim == last ? grad : ltorch::transpose(grad, dim, last));
    return out;
  });
  // Writes into a along dim, where index points (scatter*) or into the rows it lists (index_*):
  // value's gradient is g read back from there; a's is g, less what an overwrite replaced.
  struct Write {
    const char* id;
    bool along;       // index points per element (scatter*), not per row (index_*)
    bool overwrites;  // scatter, index_copy; not scatter_add, index_add
  };
  for (Write w : {Write{"prims.scatter_add", true, false}, Write{"prims.index_add", false, false}, Write{"prims.scatter", true, true},
                  Write{"prims.index_copy", false, true}})
    register_grad(w.id, [w](const Args& x) -> Value {
      Tensor out = forward(x).as_tensor();
      Tensor g = get_grad(out);
      const Tensor& index = x.tensor("index");
      int64_t dim = x.integer("dim");
      if (!w.overwrites) {
        put_grad(x["a"], g);
      } else if (wants_grad(x["a"])) {
        Tensor zeros = ltorch::zeros_like(x.tensor("value"));
        put_grad(x["a"], w.along ? prims::scatter(g, index, zeros, dim) : prims::index_copy(g, index, zeros, dim));
      }
      // (torch.gather reads the corner of g an index smaller than it in other dimensions covers.)
      if (wants_grad(x["value"]))
        put_grad(x["value"], w.along ? ltorch::op("torch.gather", {g, dim, index}) : prims::take(g, index, dim));
      return out;
    });
  // scatter_reduce (autograd's formulas): a sum passes g to a and reads it back for src; a mean
  // divides g by how many values met at each place; amax and amin share g among the values equal
  // to the result (a's counted even where include_self leaves it out, as autograd counts it).
  // Without include_self, a's value at a place written to takes no gradient. The
  // product's gradient is refused by name (no rule).
  register_grad("torch.scatter_reduce", [](const Args& x) -> Value {
    Tensor out = forward(x).as_tensor();
    Tensor g = get_grad(out);
    const Tensor& a = x.tensor("a");
    const Tensor& index = x.tensor("index");
    const Tensor& src = x.tensor("src");
    const std::string& reduce = x["reduce"].as_string();
    check(reduce != "prod", "the gradient of torch.scatter_reduce with reduce='prod' is not supported yet", "NotImplementedError");
    int64_t dim = langs::canonicalize_dim(a.ndim(), x.integer("dim"));
    bool include_self = x.flag("include_self");
    Tensor src_read = src;
    for (int64_t d = 0; d < src.ndim(); ++d)
      if (index.shape()[d] < src.shape()[d]) src_read = ltorch::narrow(src_read, d, 0, index.shape()[d]);
    Tensor grad_a = g, grad_src;
    if (reduce == "sum") {
      grad_src = ltorch::op("torch.gather", {g, dim, index});
    } else if (reduce == "mean") {
      Tensor ones = ltorch::full(index.shape(), 1, g.device(), g.dtype());
      Tensor counts = prims::scatter_add(ltorch::full(a.shape(), include_self ? 1 : 0, g.device(), g.dtype()), index, ones, dim);
      Tensor divisors = ltorch::where(ltorch::eq(counts, 0), 1, counts);
      grad_a = g / divisors;
      grad_src = ltorch::op("torch.gather", {grad_a, dim, index});
    } else {
      Tensor reached = ltorch::op("torch.gather", {out, dim, index});
      Tensor a_is_result = ltorch::to(ltorch::eq(a, out), g.dtype());
      Tensor src_is_result = ltorch::to(ltorch::eq(src_read, reached), g.dtype());
      Tensor sharing = prims::scatter_add(a_is_result, index, src_is_result, dim);
      Tensor shared = g / sharing;
      grad_a = a_is_result * shared;
      grad_src = src_is_result * ltorch::op("torch.gather", {shared, dim, index});
    }
    if (!include_self) grad_a = prims::scatter(grad_a, index, ltorch::full(index.shape(), 0, g.device(), g.dtype()), dim);
    if (wants_grad(x["a"])) put_grad(x["a"], grad_a);
    if (wants_grad(x["src"])) {
      Dims widths;  // pad's pairs, last dimension first
      for (int64_t d = src.ndim() - 1; d >= 0; --d) widths.insert(widths.end(), {0, src.shape()[d] - index.shape()[d]});
      bool whole = src.shape() == index.shape();
      put_grad(x["src"], whole ? grad_src : ltorch::op("torch.nn.functional.pad", {grad_src, Value::ints(widths)}));
    }
    return out;
  });
  register_grad("prims.embedding", [](const Args& x) -> Value {
    Tensor out = forward(x).as_tensor();
    Tensor g = get_grad(out);
    const Tensor& indices = x.tensor("a");
    const Tensor& weight = x.tensor("weight");
    int64_t n = indices.numel();
    Tensor flat_indices = prims::reshape(indices, {n});
    Tensor rows = prims::reshape(g, {n, weight.shape()[1]});
    int64_t padding_idx = x.integer("padding_idx");
    if (padding_idx != -1) rows = ltorch::where(ltorch::unsqueeze(ltorch::ne(flat_indices, padding_idx), -1), rows, 0.0);
    if (x.flag("scale_grad_by_freq")) {
      // Each row's gradient divided by how many positions read it (at::embedding_backward).
      Device device = indices.device();
      Tensor reads = ltorch::full({n}, 1, device, rows.dtype());
      Tensor counts = prims::index_add(ltorch::full({weight.shape()[0]}, 0, device, rows.dtype()), flat_indices, reads, 0);
      rows = rows / ltorch::unsqueeze(prims::take(counts, flat_indices, 0), -1);
    }
    put_grad(weight, prims::index_add(ltorch::zeros_like(weight), flat_indices, rows, 0));
    return out;
  });
}

Tensor transpose_last(const Tensor& t) {
  Dims perm;
  for (int64_t d = 0; d < t.ndim(); ++d) perm.push_back(d);
  std::swap(perm[t.ndim() - 1], perm[t.ndim() - 2]);
  return prims::transpose(t, perm);
}

// Collectives (Thunder's synchronize): the gradient of a value reduced over the ranks is the
// gradients reduced the same way; a wait passes its gradient through.
void register_collective_rules() {
  register_grad("prims.all_reduce", [](const Args& x) -> Value {
    Tensor out = forward(x).as_tensor();
    const std::string& op = x["op"].as_string();
    Tensor reduced = prims::all_reduce(get_grad(out), op, x.flag("do_async"));
    put_grad(x["a"], x.flag("do_async") ? prims::wait(reduced) : reduced);
    return out;
  });
  // A parameter's shards gathered for use (FSDP): its gradient is reduce-scattered back to the
  // shards, averaged over the ranks as Thunder's synchronize does (data parallel's mean).
  register_grad("prims.all_gather", [](const Args& x) -> Value {
    Tensor out = forward(x).as_tensor();
    Tensor scattered = prims::reduce_scatter(get_grad(out), "avg", x["world_size"].as_int(), x.flag("do_async"));
    put_grad(x["a"], x.flag("do_async") ? prims::wait(scattered) : scattered);
    return out;
  });
  // Its adjoint: every rank's slice read this rank's tensor whole.
  register_grad("prims.reduce_scatter", [](const Args& x) -> Value {
    Tensor out = forward(x).as_tensor();
    const int64_t world = x["world_size"].as_int();
    Tensor gathered = prims::all_gather(get_grad(out), world, x.flag("do_async"));
    Tensor g = x.flag("do_async") ? prims::wait(gathered) : gathered;
    put_grad(x["a"], x["op"].as_string() == "avg" ? g / static_cast<double>(world) : g);
    return out;
  });
  linear_in_a("prims.wait", [](const Args&, const Tensor& g) { return g; });
}

void register_linear_algebra_rules() {
  register_grad("prims.matmul", [](const Args& x) -> Value {
    Tensor out = forward(x).as_tensor();
    Tensor g = get_grad(out);
    const Tensor& a = x.tensor("a");
    const Tensor& b = x.tensor("b");
    // Vectors as matrices ([k] -> [1, k] on the left, [k, 1] on the right), then the matrix rule.
    Tensor a2 = a.ndim() == 1 ? prims::reshape(a, {1, a.shape()[0]}) : a;
    Tensor b2 = b.ndim() == 1 ? prims::reshape(b, {b.shape()[0], 1}) : b;
    Shape g_shape = out.shape();
    if (a.ndim() == 1) g_shape.insert(g_shape.end() - (b.ndim() == 1 ? 0 : 1), 1);
    if (b.ndim() == 1) g_shape.push_back(1);
    Tensor g2 = g.shape() == g_shape ? g : prims::reshape(g, g_shape);
    if (a.requires_grad()) {
      Tensor ga = sum_to(ltorch::matmul(g2, transpose_last(b2)), a2.shape());
      put_grad(a, ga.shape() == a.shape() ? ga : prims::reshape(ga, a.shape()));
    }
    if (b.requires_grad()) {
      Tensor gb = sum_to(ltorch::matmul(transpose_last(a2), g2), b2.shape());
      put_grad(b, gb.shape() == b.shape() ? gb : prims::reshape(gb, b.shape()));
    }
    return out;
  });
  // linear(a, w, bias) = a @ w^T + bias; the torch-language op has the same rule, so execution
  // traces keep torch.nn.functional.linear whole.
  for (const char* id : {"prims.linear", "torch.nn.functional.linear"})
    register_grad(id, [](const Args& x) -> Value {
      Tensor out = forward(x).as_tensor();
      Tensor g = get_grad(out);
      const Tensor& a = x.tensor("a");
      const Tensor& w = x.tensor("w");
      if (a.requires_grad()) put_grad(a, ltorch::matmul(g, w));
      int64_t rows = a.ndim() <= 1 ? 1 : a.numel() / a.shape().back();
      Tensor g_rows = prims::reshape(g, {rows, w.shape()[0]});
      if (w.requires_grad()) {
        Tensor g_rows_t = transpose_last(g_rows);
        put_grad(w, prims::matmul(g_rows_t, prims::reshape(a, {rows, w.shape()[1]})));
      }
      if (wants_grad(x["bias"])) put_grad(x["bias"], g_rows.shape()[0] == 1 && g.ndim() == 1 ? g : prims::sum(g_rows, {0}));
      return out;
    });
  register_grad("prims.convolution", [](const Args& x) -> Value {
    Tensor out = forward(x).as_tensor();
    Tensor g = get_grad(out);
    const Tensor& a = x.tensor("a");
    const Tensor& weight = x.tensor("weight");
    bool with_bias = wants_grad(x["bias"]);
    Value bias_sizes = x.is_none("bias") ? Value() : Value::ints(x.tensor("bias").shape(), true);
    Value grads = call("prims.convolution_backward",
                       {g, a, weight, bias_sizes, x["stride"], x["padding"], x["dilation"], x["transposed"], x["output_padding"],
                        x["groups"], Value::list({a.requires_grad(), weight.requires_grad(), with_bias})});
    put_grad(a, grads.items()[0]);
    put_grad(weight, grads.items()[1]);
    if (with_bias) put_grad(x["bias"], grads.items()[2]);
    return out;
  });
}

// The conjugate transpose of a batch of matrices.
Tensor adjoint(const Tensor& t) { return transpose_last(conjugate(t).as_tensor()); }

Tensor eye_mask(int64_t n, const Tensor& like) {
  return ltorch::op("torch.eye", {n}, {{"dtype", Value(dtypes::bool8)}, {"device", Value(like.device())}});
}

// X with half its diagonal taken off: on the diagonal of a Hermitian X + X^H that halves the real
// part, on that of a skew-Hermitian X - X^H the imaginary part.
Tensor halve_diagonal(const Tensor& x) {
  Tensor diagonal = ltorch::op("torch.diagonal", {x, int64_t{0}, int64_t{-2}, int64_t{-1}});
  Tensor half = ltorch::mul(ltorch::op("torch.diag_embed", {diagonal}), 0.5);
  return ltorch::sub(x, half);
}

// pinv(A)'s gradient (autograd's pinv_backward), the products ordered for the smaller dimension.
Tensor pinv_backward(const Tensor& g, const Tensor& pinv, const Tensor& a) {
  int64_t m = a.shape()[a.ndim() - 2], n = a.shape().back();
  Tensor pinv_h = adjoint(pinv), g_h = adjoint(g);
  if (m <= n) {
    Tensor k = ltorch::matmul(g_h, pinv);
    Tensor k_pinv_h = ltorch::matmul(k, pinv_h);
    Tensor first = ltorch::neg(adjoint(ltorch::matmul(pinv, k)));
    Tensor projected = ltorch::matmul(ltorch::matmul(a, pinv), k_pinv_h);
    Tensor rest = ltorch::sub(g_h, ltorch::matmul(k, a));
    Tensor last = ltorch::matmul(ltorch::matmul(pinv_h, pinv), rest);
    return ltorch::add(ltorch::sub(ltorch::add(first, k_pinv_h), projected), last);
  }
  Tensor k = ltorch::matmul(pinv, g_h);
  Tensor pinv_h_k = ltorch::matmul(pinv_h, k);
  Tensor first = ltorch::neg(adjoint(ltorch::matmul(k, pinv)));
  Tensor rest = ltorch::sub(g_h, ltorch::matmul(a, k));
  Tensor second = ltorch::matmul(ltorch::matmul(rest, pinv), pinv_h);
  Tensor projected = ltorch::matmul(ltorch::matmul(pinv_h_k, pinv), a);
  return ltorch::sub(ltorch::add(ltorch::add(first, second), pinv_h_k), projected);
}

// A = V diag(L) V^H: gA = V G V^H, G the skew-Hermitian part of V^H gV divided by L_j - L_i off
// the diagonal, gL on it (autograd's linalg_eig_backward for Hermitian A).
Tensor eigh_backward(const Tensor& l, const Tensor& v, const Tensor& gl, const Tensor& gv) {
  Tensor vh = adjoint(v);
  Tensor vhgv = ltorch::matmul(vh, gv);
  Tensor skew = ltorch::mul(ltorch::sub(vhgv, adjoint(vhgv)), 0.5);
  Tensor row = ltorch::unsqueeze(l, -2);
  Tensor gaps = ltorch::sub(row, ltorch::unsqueeze(l, -1));
  Tensor mask = eye_mask(l.shape().back(), l);
  Tensor e = ltorch::where(mask, 1.0, gaps);
  Tensor off = ltorch::true_divide(skew, e);
  Tensor diagonal = ltorch::op("torch.diag_embed", {in_dtype(gl, v.dtype())});
  Tensor inner = ltorch::where(mask, diagonal, off);
  return ltorch::matmul(v, ltorch::matmul(inner, vh));
}

// A = U diag(S) V^H (the thin factors): autograd's svd_backward.
Tensor svd_backward(const Tensor& u, const Tensor& s, const Tensor& vh, const Tensor& gu, const Tensor& gs, const Tensor& gvh) {
  int64_t m = u.shape()[u.ndim() - 2], n = vh.shape().back();
  Tensor uh = adjoint(u);
  Tensor uhgu_raw = ltorch::matmul(uh, gu);
  Tensor uhgu = ltorch::sub(uhgu_raw, adjoint(uhgu_raw));
  Tensor vhgv_raw = ltorch::matmul(vh, adjoint(gvh));
  Tensor vhgv = ltorch::sub(vhgv_raw, adjoint(vhgv_raw));
  Tensor s2 = ltorch::mul(s, s);
  Tensor row = ltorch::unsqueeze(s2, -2);
  Tensor gaps = ltorch::sub(row, ltorch::unsqueeze(s2, -1));
  Tensor e = ltorch::where(eye_mask(s.shape().back(), s), 1.0, gaps);
  Tensor left = ltorch::mul(uhgu, ltorch::unsqueeze(s, -2));
  Tensor right = ltorch::mul(ltorch::unsqueeze(s, -1), vhgv);
  Tensor inner = ltorch::true_divide(ltorch::add(left, right), e);
  inner = ltorch::add(inner, ltorch::op("torch.diag_embed", {in_dtype(gs, u.dtype())}));
  if (u.dtype().is_complex()) {
    Tensor diagonal = ltorch::op("torch.diagonal", {uhgu, int64_t{0}, int64_t{-2}, int64_t{-1}});
    Tensor scaled = ltorch::true_divide(diagonal, ltorch::mul(s, 2.0));
    inner = ltorch::add(inner, ltorch::op("torch.diag_embed", {scaled}));
  }
  if (m > n) {  // gA = [U inner + (I - U U^H) gU S^-1] V^H
    Tensor ga = ltorch::matmul(u, inner);
    Tensor gu_sinv = ltorch::true_divide(gu, ltorch::unsqueeze(s, -2));
    Tensor projected = ltorch::matmul(u, ltorch::matmul(uh, gu_sinv));
    ga = ltorch::sub(ltorch::add(ga, gu_sinv), projected);
    return ltorch::matmul(ga, vh);
  }
  if (m < n) {  // gA = U [inner V^H + S^-1 gV^H (I - V V^H)]
    Tensor ga = ltorch::matmul(inner, vh);
    Tensor sinv_gvh = ltorch::true_divide(gvh, ltorch::unsqueeze(s, -1));
    Tensor projected = ltorch::matmul(ltorch::matmul(sinv_gvh, adjoint(vh)), vh);
    ga = ltorch::sub(ltorch::add(ga, sinv_gvh), projected);
    return ltorch::matmul(u, ga);
  }
  return ltorch::matmul(u, ltorch::matmul(inner, vh));
}

// More of autograd's formulas for the LAPACK ops of torch_linalg.cpp (register_lapack_rules's second half).
void register_more_lapack_rules() {
  // X = A^-1 B with A triangular: gB = A^-H g (a triangular solve again), gA = -gB X^H (-X^H gB
  // for X A = B) on A's triangle (the diagonal left out for a unit triangle); batches summed back.
  register_grad("torch.linalg.solve_triangular", [](const Args& x) -> Value {
    Tensor out = forward(x).as_tensor();
    const Tensor& a = x.tensor("a");
    const Tensor& b = x.tensor("b");
    bool upper = x.flag("upper"), left = x.flag("left"), unit = x.flag("unitriangular");
    Tensor a_h = adjoint(a);
    Tensor gb = ltorch::op("torch.linalg.solve_triangular", {a_h, get_grad(out)}, {{"upper", !upper}, {"left", left}, {"unitriangular", unit}});
    if (wants_grad(x["a"])) {
      Tensor solution_h = adjoint(out);
      Tensor product = left ? ltorch::matmul(gb, solution_h) : ltorch::matmul(solution_h, gb);
      Tensor negated = ltorch::neg(product);
      Tensor triangle = ltorch::op(upper ? "torch.triu" : "torch.tril", {negated, upper ? int64_t{unit} : -int64_t{unit}});
      put_grad(a, sum_to(triangle, a.shape()));
    }
    if (wants_grad(x["b"])) put_grad(b, sum_to(gb, b.shape()));
    return out;
  });
  // d exp(A) applied to g: the top right block of exp([[A^H, g], [0, A^H]]).
  register_grad("torch.linalg.matrix_exp", [](const Args& x) -> Value {
    Tensor out = forward(x).as_tensor();
    const Tensor& a = x.tensor("a");
    int64_t n = a.shape().back();
    Tensor a_h = adjoint(a);
    Tensor top = ltorch::cat({a_h, get_grad(out)}, -1);
    Tensor bottom = ltorch::cat({ltorch::zeros_like(a_h), a_h}, -1);
    Tensor block = ltorch::cat({top, bottom}, -2);
    Tensor exponential = ltorch::op("torch.linalg.matrix_exp", {block});
    Tensor rows = ltorch::narrow(exponential, -2, 0, n);
    put_grad(a, ltorch::narrow(rows, -1, n, n));
    return out;
  });
  register_grad("torch.linalg.eigh", [](const Args& x) -> Value {
    Value out = forward(x);
    Tensor l = out.items()[0].as_tensor(), v = out.items()[1].as_tensor();
    put_grad(x.tensor("a"), eigh_backward(l, v, get_grad(l), get_grad(v)));
    return out;
  });
  register_grad("torch.symeig", [](const Args& x) -> Value {
    check(x.flag("eigenvectors"), "linalg_eig_backward: torch.symeig(A, eigenvectors=False) is not differentiable. Use torch.linalg.eigvalsh(A) instead.");
    Value out = forward(x);
    Tensor l = out.items()[0].as_tensor(), v = out.items()[1].as_tensor();
    put_grad(x.tensor("a"), eigh_backward(l, v, get_grad(l), get_grad(v)));
    return out;
  });
  // Full matrices: the columns of U and rows of V^H past min(m, n) carry no gradient.
  register_grad("torch.linalg.svd", [](const Args& x) -> Value {
    Value out = forward(x);
    Tensor u = out.items()[0].as_tensor(), s = out.items()[1].as_tensor(), vh = out.items()[2].as_tensor();
    Tensor gu = get_grad(u), gs = get_grad(s), gvh = get_grad(vh);
    int64_t k = s.shape().back();
    if (x.flag("full_matrices")) {
      u = ltorch::narrow(u, -1, 0, k);
      gu = ltorch::narrow(gu, -1, 0, k);
      vh = ltorch::narrow(vh, -2, 0, k);
      gvh = ltorch::narrow(gvh, -2, 0, k);
    }
    put_grad(x.tensor("a"), svd_backward(u, s, vh, gu, gs, gvh));
    return out;
  });
  // A = Q R: with M = gR R^H - Q^H gQ, gA = (gQ + Q sym(triu(M))) R^-H for m >= n; for m < n,
  // gA = [Q skew(tril(-M)) R1^-H, 0] + Q gR, R1 R's leading square (autograd's linalg_qr_backward).
  register_grad("torch.linalg.qr", [](const Args& x) -> Value {
    const std::string& mode = x["mode"].as_string();
    check(mode != "r", "The derivative of linalg.qr depends on Q, which is not computed when mode='r'. Please use linalg.qr(A, mode='reduced') if you are going to differentiate through linalg.qr.");
    Value out = forward(x);
    Tensor q = out.items()[0].as_tensor(), r = out.items()[1].as_tensor();
    int64_t m = q.shape()[q.ndim() - 2], n = r.shape().back();
    check(mode == "reduced" || m <= n, "The QR decomposition is not differentiable when mode='complete' and nrows > ncols.");
    Tensor gq = get_grad(q), gr = get_grad(r);
    Tensor r_part = ltorch::matmul(gr, adjoint(r));
    Tensor mh = ltorch::sub(r_part, ltorch::matmul(adjoint(q), gq));
    if (m >= n) {
      Tensor upper = ltorch::op("torch.triu", {mh});
      Tensor symmetric = halve_diagonal(ltorch::add(upper, adjoint(upper)));
      Tensor b = ltorch::add(ltorch::matmul(q, symmetric), gq);
      Tensor r_h = adjoint(r);
      put_grad(x.tensor("a"), ltorch::op("torch.linalg.solve_triangular", {r_h, b}, {{"upper", false}, {"left", false}}));
      return out;
    }
    Tensor negated = ltorch::neg(mh);
    Tensor lower = ltorch::op("torch.tril", {ltorch::sub(negated, adjoint(negated))});
    Tensor b = ltorch::matmul(q, halve_diagonal(lower));
    Tensor leading_h = adjoint(ltorch::narrow(r, -1, 0, m));
    Tensor solved = ltorch::op("torch.linalg.solve_triangular", {leading_h, b}, {{"upper", false}, {"left", false}});
    Tensor padded = ltorch::op("torch.nn.functional.pad", {solved, Value::ints({0, n - m})});
    put_grad(x.tensor("a"), ltorch::add(padded, ltorch::matmul(q, gr)));
    return out;
  });
  // cholesky_solve and cholesky_inverse run as triangular solves, but autograd differentiates them
  // as functions of the whole factor (A = L L^H, L's other triangle included): its formulas.
  register_grad("torch.cholesky_solve", [](const Args& x) -> Value {
    Tensor out = forward(x).as_tensor();
    const Tensor& b = x.tensor("b");
    const Tensor& l = x.tensor("L");
    bool upper = x.flag("upper");
    Tensor gb = ltorch::op("torch.cholesky_solve", {get_grad(out), l}, {{"upper", upper}});
    if (wants_grad(x["b"])) put_grad(b, sum_to(gb, b.shape()));
    if (wants_grad(x["L"])) {
      Tensor product = ltorch::matmul(gb, adjoint(out));
      Tensor common = ltorch::add(product, adjoint(product));
      Tensor gl = upper ? ltorch::matmul(l, common) : ltorch::matmul(common, l);
      put_grad(l, sum_to(ltorch::neg(gl), l.shape()));
    }
    return out;
  });
  register_grad("torch.cholesky_inverse", [](const Args& x) -> Value {
    Tensor out = forward(x).as_tensor();
    const Tensor& l = x.tensor("L");
    Tensor g = get_grad(out);
    Tensor hermitian = ltorch::add(g, adjoint(g));
    Tensor common = ltorch::matmul(out, ltorch::matmul(hermitian, out));
    Tensor gl = x.flag("upper") ? ltorch::matmul(l, common) : ltorch::matmul(common, l);
    put_grad(l, ltorch::neg(gl));
    return out;
  });
  register_grad("torch.linalg.pinv", [](const Args& x) -> Value {
    Tensor out = forward(x).as_tensor();
    put_grad(x.tensor("a"), pinv_backward(get_grad(out), out, x.tensor("a")));
    return out;
  });
  // The solution's gradient through pinv(A) (autograd's linalg_lstsq_backward): X = pinv(A) B, so
  // gB = pinv(A)^H gX and gA = pinv_backward(gX B^H); the residuals, rank and singular values carry none.
  register_grad("torch.linalg.lstsq", [](const Args& x) -> Value {
    Value out = forward(x);
    Tensor solution = out.items()[0].as_tensor();
    const Tensor& a = x.tensor("a");
    const Tensor& b = x.tensor("b");
    bool vector = b.ndim() == a.ndim() - 1;
    Tensor g = get_grad(solution);
    Tensor g_matrix = vector ? ltorch::unsqueeze(g, -1) : g;
    Tensor b_matrix = vector ? ltorch::unsqueeze(b, -1) : b;
    Tensor pinv = ltorch::op("torch.linalg.pinv", {a});
    if (wants_grad(x["a"])) {
      Tensor g_pinv = ltorch::matmul(g_matrix, adjoint(b_matrix));
      put_grad(a, sum_to(pinv_backward(g_pinv, pinv, a), a.shape()));
    }
    if (wants_grad(x["b"])) {
      Tensor gb = ltorch::matmul(adjoint(pinv), g_matrix);
      put_grad(b, sum_to(vector ? ltorch::squeeze(gb, {-1}) : gb, b.shape()));
    }
    return out;
  });
}

// The factorizations of torch_linalg.cpp, which have no decomposition: autograd's formulas.
void register_lapack_rules() {
  // The *_ex forms return LAPACK's info after the result: the rule of the result alone.
  auto first = [](const Value& result) { return result.is_sequence() ? result.items()[0].as_tensor() : result.as_tensor(); };
  for (const char* id : {"torch.linalg.inv", "torch.linalg.inv_ex"})
    register_grad(id, [first](const Args& x) -> Value {
      Value result = forward(x);
      Tensor out = first(result);
      Tensor inverse_h = adjoint(out);
      put_grad(x.tensor("a"), ltorch::neg(ltorch::matmul(ltorch::matmul(inverse_h, get_grad(out)), inverse_h)));
      return result;
    });
  // d det = det tr(A^-1 dA), d log|det| = Re tr(A^-1 dA): the gradient is (scale A^-1)^H.
  auto scaled_inverse = [](const Tensor& a, const Tensor& scale) {
    Tensor inverse = ltorch::op("torch.linalg.inv", {a});
    return adjoint(ltorch::mul(inverse, ltorch::unsqueeze(ltorch::unsqueeze(scale, -1), -1)));
  };
  register_grad("torch.linalg.det", [scaled_inverse](const Args& x) -> Value {
    Tensor out = forward(x).as_tensor();
    put_grad(x.tensor("a"), scaled_inverse(x.tensor("a"), ltorch::mul(get_grad(out), out)));
    return out;
  });
  register_grad("torch.linalg.slogdet", [scaled_inverse](const Args& x) -> Value {
    Value out = forward(x);
    Tensor logabsdet = out.items()[1].as_tensor();
    put_grad(x.tensor("a"), scaled_inverse(x.tensor("a"), get_grad(logabsdet)));
    return out;
  });
  // Singular values s of A = U diag(s) Vh: dA = U diag(g) Vh.
  register_grad("torch.linalg.svdvals", [](const Args& x) -> Value {
    Tensor out = forward(x).as_tensor();
    Value factors = call("torch.linalg.svd", {x["a"], false});
    Tensor u = factors.items()[0].as_tensor(), vh = factors.items()[2].as_tensor();
    put_grad(x.tensor("a"), ltorch::matmul(ltorch::mul(u, ltorch::unsqueeze(in_dtype(get_grad(out), u.dtype()), -2)), vh));
    return out;
  });
  // Eigenvalues w of a Hermitian A = V diag(w) V^H: dA = V diag(g) V^H.
  register_grad("torch.linalg.eigvalsh", [](const Args& x) -> Value {
    Tensor out = forward(x).as_tensor();
    Tensor v = call("torch.linalg.eigh", {x["a"], x["UPLO"]}).items()[1].as_tensor();
    Tensor scaled = ltorch::mul(v, ltorch::unsqueeze(in_dtype(get_grad(out), v.dtype()), -2));
    put_grad(x.tensor("a"), ltorch::matmul(scaled, adjoint(v)));
    return out;
  });
  // A = L L^H: dA = L^-H Phi(L^H dL) L^-1, made Hermitian, Phi the lower triangle with half its
  // diagonal (upper: L = U^H, dL = dU^H).
  for (const char* id : {"torch.linalg.cholesky", "torch.linalg.cholesky_ex"})
    register_grad(id, [first](const Args& x) -> Value {
      Value result = forward(x);
      Tensor out = first(result);
      bool upper = x.flag("upper");
      Tensor l = upper ? adjoint(out) : out;
      Tensor dl = upper ? adjoint(get_grad(out)) : get_grad(out);
      Tensor product = ltorch::matmul(adjoint(l), dl);
      Tensor eye = ltorch::op("torch.eye", {l.shape().back()}, {{"dtype", Value(l.dtype())}, {"device", Value(l.device())}});
      Tensor lower = ltorch::op("torch.tril", {product});
      Tensor phi = ltorch::sub(lower, ltorch::mul(ltorch::mul(product, eye), 0.5));
      Tensor inverse = ltorch::op("torch.linalg.inv", {l});
      Tensor da = ltorch::matmul(ltorch::matmul(adjoint(inverse), phi), inverse);
      put_grad(x.tensor("a"), ltorch::mul(ltorch::add(da, adjoint(da)), 0.5));
      return result;
    });
  // X = A^-1 B: dB = A^-H g, dA = -dB X^H (X A = B: dB = g A^-H, dA = -X^H dB), batches summed back.
  for (const char* id : {"torch.linalg.solve", "torch.linalg.solve_ex"})
    register_grad(id, [first](const Args& x) -> Value {
      Value result = forward(x);
      Tensor out = first(result);
      const Tensor& a = x.tensor("a");
      const Tensor& b = x.tensor("b");
      bool left = x.flag("left");
      // (B a vector, or a batch of vectors matching A's batch, as the meta function reads it.)
      bool vector = b.ndim() == 1 || (b.ndim() == a.ndim() - 1 && std::equal(b.shape().begin(), b.shape().end() - 1, a.shape().begin()));
      Tensor db = ltorch::op("torch.linalg.solve", {adjoint(a), get_grad(out)}, {{"left", left}});
      Tensor column = vector ? ltorch::unsqueeze(db, -1) : db;
      Tensor solution = vector ? ltorch::unsqueeze(out, -1) : out;
      Tensor da = left ? ltorch::neg(ltorch::matmul(column, adjoint(solution))) : ltorch::neg(ltorch::matmul(adjoint(solution), column));
      if (wants_grad(x["b"])) put_grad(b, sum_to(db, b.shape()));
      if (wants_grad(x["a"])) put_grad(a, sum_to(da, a.shape()));
      return result;
    });
  register_more_lapack_rules();
}

// softmax, log_softmax and layer_norm: one forward op, and a backward of a few ops.
void register_torch_rules() {
  // torch.special's functions that ATen computes (torch_special.cpp): the modified Bessel
  // functions I0' = I1 and I1' = I0 - I1 / x (1/2 at 0); their scaled forms e^-|x| I(x): I0e' =
  // I1e - sign(x) I0e and I1e' = I0e - I1e (sign(x) + 1 / x) (1/2 at 0); erfcx' = 2 x erfcx - 2 / sqrt(pi).
  auto special = [](const char* id, std::function<Tensor(const Tensor& a, const Tensor& out)> derivative) {
    register_grad(id, [derivative](const Args& x) -> Value {
      Tensor out = forward(x).as_tensor();
      Tensor g = get_grad(out);
      put_grad(x["a"], g * derivative(x.tensor("a"), out));
      return out;
    });
  };
  special("torch.i0", [](const Tensor& a, const Tensor&) { return ltorch::op("torch.special.i1", {a}); });
  special("torch.special.i0e", [](const Tensor& a, const Tensor& out) {
    Tensor i1e = ltorch::op("torch.special.i1e", {a});
    return i1e - prims::sign(a) * out;
  });
  special("torch.special.i1", [](const Tensor& a, const Tensor& out) {
    Tensor i0 = ltorch::op("torch.i0", {a});
    Tensor at_zero = ltorch::eq(a, 0.0);
    Tensor slope = i0 - out / a;
    return ltorch::where(at_zero, 0.5, slope);
  });
  special("torch.special.i1e", [](const Tensor& a, const Tensor& out) {
    Tensor i0e = ltorch::op("torch.special.i0e", {a});
    Tensor at_zero = ltorch::eq(a, 0.0);
    Tensor sign = prims::sign(a);
    Tensor slope = i0e - out * (sign + ltorch::reciprocal(a));
    return ltorch::where(at_zero, 0.5, slope);
  });
  // The selections on ATen's kernels (torch_reductions.cpp): along a dim, the gradient goes to the
  // selected elements, summed where cummax or cummin selects one more than once; the median of
  // everything spreads it evenly over the elements equal to it (NaN matching NaN), as PyTorch's.
  auto to_selected = [](const Tensor& a, const Tensor& g, const Tensor& indices, int64_t dim, bool keepdim) -> Tensor {
    if (a.ndim() == 0) return g;
    int64_t d = langs::canonicalize_dim(a.ndim(), dim);
    Tensor index = keepdim ? indices : ltorch::unsqueeze(indices, d);
    Tensor values = keepdim ? g : ltorch::unsqueeze(g, d);
    Tensor zeros = ltorch::zeros_like(a);
    return ltorch::op("torch.scatter_add", {zeros, d, index, values});
  };
  auto selection = [to_selected](const char* id, bool scan) {
    register_grad(id, [to_selected, scan](const Args& x) -> Value {
      Value out = forward(x);
      const Tensor& a = x.tensor("a");
      if (!out.is_sequence()) {
        Tensor value = out.as_tensor();
        Tensor equal = ltorch::eq(a, value);
        Tensor a_nan = ltorch::op("torch.isnan", {a});
        Tensor value_nan = ltorch::op("torch.isnan", {value});
        Tensor both_nan = ltorch::op("torch.logical_and", {a_nan, value_nan});
        Tensor mask = ltorch::op("torch.logical_or", {equal, both_nan});
        Tensor count = ltorch::sum(ltorch::to(mask, a.dtype()));
        Tensor share = ltorch::true_divide(get_grad(value), count);
        put_grad(x["a"], ltorch::where(mask, share, 0.0));
        return out;
      }
      Tensor values = out.items()[0].as_tensor();
      bool keepdim = scan || x.flag("keepdim");
      put_grad(x["a"], to_selected(a, get_grad(values), out.items()[1].as_tensor(), x.integer("dim"), keepdim));
      return out;
    });
  };
  for (const char* id : {"torch.median", "torch.nanmedian", "torch.kthvalue", "torch.mode"}) selection(id, false);
  for (const char* id : {"torch.cummax", "torch.cummin"}) selection(id, true);
  special("torch.special.erfcx", [](const Tensor& a, const Tensor& out) { return a * out * 2.0 - 2.0 / std::sqrt(std::numbers::pi); });
  register_grad("torch.softmax", [](const Args& x) -> Value {
    Tensor out = forward(x).as_tensor();
    Tensor g = get_grad(out);
    int64_t dim = x.integer("dim");
    Tensor ga = out * (g - ltorch::sum(g * out, Dims{dim}, true));
    put_grad(x["a"], ga.dtype() == x.tensor("a").dtype() ? ga : ltorch::to(ga, x.tensor("a").dtype()));
    return out;
  });
  // xlogy and xlog1py: PyTorch's derivative of a f(b) in a is f(b) (log, log1p), also at a = 0,
  // except that it is 0 where a = 0 and f(b) is -inf or NaN (b at or below `pole`), which the
  // decompositions' where cannot give. g f(b) is itself an xlogy (xlog1py): 0 where g is.
  auto factor_grad = [](const Value& a, const Value& b, const Tensor& g, const char* id, int64_t pole) {
    Tensor derivative = ltorch::op(id, {g, b});
    Tensor at_zero = ltorch::eq(a, int64_t{0});
    if (!b.is_tensor()) return b.as_float() <= pole ? ltorch::where(at_zero, 0.0, derivative) : derivative;
    return ltorch::where(ltorch::op("torch.logical_and", {at_zero, ltorch::le(b, pole)}), 0.0, derivative);
  };
  register_grad("torch.xlogy", [factor_grad](const Args& x) -> Value {
    Tensor out = forward(x).as_tensor();
    Tensor g = get_grad(out);
    const Value& a = x["a"];
    const Value& b = x["b"];
    put_operand_grad(a, [&] { return factor_grad(a, b, g, "torch.xlogy", 0); });
    put_operand_grad(b, [&] { return ltorch::true_divide(ltorch::mul(g, a), b); });
    return out;
  });
  register_grad("torch.special.xlog1py", [factor_grad](const Args& x) -> Value {
    Tensor out = forward(x).as_tensor();
    Tensor g = get_grad(out);
    const Value& a = x["a"];
    const Value& b = x["b"];
    put_operand_grad(a, [&] { return factor_grad(a, b, g, "torch.special.xlog1py", -1); });
    put_operand_grad(b, [&] {
      Tensor scaled = ltorch::mul(g, a);
      return ltorch::true_divide(scaled, ltorch::add(b, int64_t{1}));
    });
    return out;
  });
  // The special functions whose decompositions select among branches (where), one of which is
  // infinite where it is not taken: their derivatives as autograd's formulas.
  register_grad("torch.special.log_ndtr", [](const Args& x) -> Value {
    Tensor out = forward(x).as_tensor();
    const Tensor& a = x.tensor("a");
    // Phi'(a) / Phi(a) = exp(-a^2 / 2 - log Phi(a)) / sqrt(2 pi)
    Tensor g = get_grad(out);
    Tensor ratio = ltorch::exp(ltorch::sub(ltorch::mul(ltorch::mul(a, a), -0.5), out));
    put_grad(a, ltorch::mul(g, ltorch::mul(ratio, 1.0 / std::sqrt(2.0 * std::numbers::pi))));
    return out;
  });
  register_grad("torch.special.entr", [](const Args& x) -> Value {
    Tensor out = forward(x).as_tensor();
    const Tensor& a = x.tensor("a");
    Tensor g = get_grad(out);
    put_grad(a, ltorch::mul(g, ltorch::neg(ltorch::add(ltorch::log(a), int64_t{1}))));
    return out;
  });
  // binary_cross_entropy: PyTorch's derivative divides by max((1 - a) a, 1e-12), so that a = 0 or
  // 1 (where the forward clamps its logs) gives a large finite gradient, not the decomposition's NaN.
  // A pointwise loss's incoming gradient for each element: spread from its reduction (divided by
  // the count for 'mean'), times the weight.
  auto per_element_grad = [](const Args& x, const Tensor& g) {
    const auto& a = x.tensor("a");
    const auto& reduction = x["reduction"].as_string();
    Tensor per_element = reduction == "none" ? g : ltorch::expand(g, a.shape());
    if (reduction == "mean") per_element = per_element / static_cast<double>(std::max<int64_t>(a.numel(), 1));
    return x.is_none("weight") ? per_element : per_element * x.tensor("weight");
  };
  register_grad("torch.nn.functional.binary_cross_entropy", [per_element_grad](const Args& x) -> Value {
    Tensor out = forward(x).as_tensor();
    const auto& a = x.tensor("a");
    const auto& target = x.tensor("target");
    Tensor per_element = per_element_grad(x, get_grad(out));
    put_operand_grad(x["a"], [&] {
      Tensor denominator = ltorch::op("torch.clamp", {(1 - a) * a, 1e-12});
      return per_element * (a - target) / denominator;
    });
    // The target's is PyTorch's -logit(a), its logs unclamped: infinite at a = 0 and 1.
    put_operand_grad(x["target"], [&] {
      Tensor log_1mp = ltorch::log(1 - a);  // one statement each: the printed order is the compiler's otherwise
      Tensor log_p = ltorch::log(a);
      return per_element * (log_1mp - log_p);
    });
    return out;
  });
  // binary_cross_entropy_with_logits: PyTorch's formulas, sigmoid(a) - target for a (with
  // pos_weight p: (p target + 1 - target) sigmoid(a) - p target) and -a for the target
  // (log(1 - sigmoid(a)) - p log(sigmoid(a))). Through the decomposition, max(-a, 0) and |a| meet
  // their kinks at a = 0, where a zero-initialized head's logits start, and gave -target there.
  register_grad("torch.nn.functional.binary_cross_entropy_with_logits", [per_element_grad](const Args& x) -> Value {
    Tensor out = forward(x).as_tensor();
    const auto& a = x.tensor("a");
    const auto& target = x.tensor("target");
    Tensor per_element = per_element_grad(x, get_grad(out));
    Tensor probability = ltorch::op("torch.sigmoid", {a});
    put_operand_grad(x["a"], [&] {
      if (x.is_none("pos_weight")) return per_element * (probability - target);
      Tensor weighted = x.tensor("pos_weight") * target;
      return per_element * ((weighted + 1 - target) * probability - weighted);
    });
    put_operand_grad(x["target"], [&] {
      if (x.is_none("pos_weight")) return per_element * ltorch::neg(a);
      Tensor log_1mp = ltorch::log(1 - probability);
      Tensor weighted_log_p = x.tensor("pos_weight") * ltorch::log(probability);
      return per_element * (log_1mp - weighted_log_p);
    });
    return out;
  });
  register_grad("torch.log_softmax", [](const Args& x) -> Value {
    Tensor out = forward(x).as_tensor();
    Tensor g = get_grad(out);
    int64_t dim = x.integer("dim");
    Tensor probs = ltorch::exp(out);
    Tensor ga = g - probs * ltorch::sum(g, Dims{dim}, true);
    put_grad(x["a"], ga.dtype() == x.tensor("a").dtype() ? ga : ltorch::to(ga, x.tensor("a").dtype()));
    return out;
  });
  register_grad("torch.nn.functional.layer_norm", [](const Args& x) -> Value {
    // Recomputes the statistics from a in the backward rather than saving them.
    Tensor out = forward(x).as_tensor();
    Tensor g = get_grad(out);
    const Tensor& a = x.tensor("a");
    int64_t k = static_cast<int64_t>(x["normalized_shape"].as_ints().size());
    Dims norm_dims, batch_dims;
    for (int64_t d = 0; d < a.ndim(); ++d) (d >= a.ndim() - k ? norm_dims : batch_dims).push_back(d);
    DType compute = a.dtype().is_low_precision() ? dtypes::float32 : a.dtype();
    Tensor a_ = a.dtype() == compute ? a : ltorch::to(a, compute);
    Tensor g_ = g.dtype() == compute ? g : ltorch::to(g, compute);
    auto [var, mean] = ltorch::var_mean(a_, norm_dims, 0, true);
    Tensor rstd = ltorch::rsqrt(var + x.real("eps"));
    Tensor xhat = (a_ - mean) * rstd;
    Tensor dxhat = x.is_none("weight") ? g_ : g_ * x.tensor("weight");
    Tensor mean_dxhat = ltorch::mean(dxhat, norm_dims, true);
    Tensor mean_dxhat_xhat = ltorch::mean(dxhat * xhat, norm_dims, true);
    Tensor centered = dxhat - mean_dxhat;
    Tensor ga = rstd * (centered - xhat * mean_dxhat_xhat);
    put_grad(a, ga.dtype() == a.dtype() ? ga : ltorch::to(ga, a.dtype()));
    auto param_grad = [&](const char* name, const Tensor& per_element) {
      if (!wants_grad(x[name])) return;
      const Tensor& p = x.tensor(name);
      Tensor s = batch_dims.empty() ? per_element : ltorch::sum(per_element, batch_dims);
      put_grad(p, s.dtype() == p.dtype() ? s : ltorch::to(s, p.dtype()));
    };
    param_grad("weight", g_ * xhat);
    param_grad("bias", g_);
    return out;
  });
}

}  // namespace

// The transforms of langs/torch_fft.cpp (autograd's formulas). A transform's adjoint is the
// inverse transform under the swapped normalization (no scaling and 1/n trade places); what the
// forward cut or zero-padded along a dim, the gradient pads or cuts back; a real input takes the
// real part. A real-to-complex transform's half spectrum is zero-padded to the whole length first;
// a complex-to-real one's gradient is the real-to-complex transform of g, its bins with a mirror
// image counted twice.
enum class Fft { ComplexToComplex, RealToComplex, ComplexToReal };

// The transformed dims, as torch.fft reads dim and n or s.
Dims fft_dims(const Args& x, const Tensor& a, bool one_d) {
  if (one_d) return {langs::canonicalize_dim(a.ndim(), x.integer("dim"))};
  if (!x.is_none("dim")) return langs::canonicalize_dims(a.ndim(), x["dim"].is_int_like() ? Dims{x.integer("dim")} : x.ints("dim"));
  int64_t count = x.is_none("s") ? a.ndim() : static_cast<int64_t>(x.ints("s").size());
  Dims dims;
  for (int64_t d = a.ndim() - count; d < a.ndim(); ++d) dims.push_back(d);
  return dims;
}

// t cut or zero-padded at the end of each of dims to `lengths`.
Tensor fit_lengths(Tensor t, const Dims& dims, const std::vector<int64_t>& lengths) {
  Dims widths(2 * t.ndim(), 0);  // pad's pairs, last dimension first
  bool pads = false;
  for (size_t i = 0; i < dims.size(); ++i) {
    int64_t d = dims[i], have = t.shape()[d];
    if (have > lengths[i]) t = ltorch::narrow(t, d, 0, lengths[i]);
    if (have < lengths[i]) {
      widths[2 * (t.ndim() - 1 - d) + 1] = lengths[i] - have;
      pads = true;
    }
  }
  return pads ? ltorch::op("torch.nn.functional.pad", {t, Value::ints(widths)}) : t;
}

void register_fft_rules() {
  struct Transform {
    const char* id;
    Fft kind;
    bool one_d;
  };
  for (Transform f : {Transform{"torch.fft.fft", Fft::ComplexToComplex, true}, Transform{"torch.fft.ifft", Fft::ComplexToComplex, true},
                      Transform{"torch.fft.fft2", Fft::ComplexToComplex, false}, Transform{"torch.fft.ifft2", Fft::ComplexToComplex, false},
                      Transform{"torch.fft.fftn", Fft::ComplexToComplex, false}, Transform{"torch.fft.ifftn", Fft::ComplexToComplex, false},
                      Transform{"torch.fft.rfft", Fft::RealToComplex, true}, Transform{"torch.fft.rfft2", Fft::RealToComplex, false},
                      Transform{"torch.fft.rfftn", Fft::RealToComplex, false}, Transform{"torch.fft.irfft", Fft::ComplexToReal, true},
                      Transform{"torch.fft.irfft2", Fft::ComplexToReal, false}, Transform{"torch.fft.irfftn", Fft::ComplexToReal, false}}) {
    declare_complex_rule(f.id);
    register_grad(f.id, [f](const Args& x) -> Value {
      Tensor out = forward(x).as_tensor();
      Tensor g = get_grad(out);
      const Tensor& a = x.tensor("a");
      Dims dims = fft_dims(x, a, f.one_d);
      std::vector<int64_t> out_lengths, in_lengths;
      for (int64_t d : dims) {
        out_lengths.push_back(out.shape()[d]);
        in_lengths.push_back(a.shape()[d]);
      }
      bool inverse = std::string_view(f.id).substr(10, 1) == "i";
      Value norm = langs::swapped_fft_norm(x["norm"]);
      Tensor grad;
      if (f.kind == Fft::ComplexToComplex) {
        grad = ltorch::op(inverse ? "torch.fft.fftn" : "torch.fft.ifftn", {g, Value::ints(out_lengths), Value::ints(dims), norm});
      } else if (f.kind == Fft::RealToComplex) {
        std::vector<int64_t> whole = out_lengths;  // the transformed input's lengths
        whole.back() = x.is_none(f.one_d ? "n" : "s") ? a.shape()[dims.back()] : (f.one_d ? x.integer("n") : x.ints("s").back());
        Tensor spectrum = fit_lengths(g, {dims.back()}, {whole.back()});
        grad = ltorch::op("torch.fft.ifftn", {spectrum, Value::ints(whole), Value::ints(dims), norm});
      } else {
        Tensor half = ltorch::op("torch.fft.rfftn", {g, Value::ints(out_lengths), Value::ints(dims), norm});
        int64_t bins = half.shape()[dims.back()], mirrored = out_lengths.back() - bins;
        if (mirrored > 0) {
          std::vector<double> weights(static_cast<size_t>(bins), 1.0);
          for (int64_t k = 1; k <= mirrored; ++k) weights[static_cast<size_t>(k)] = 2.0;
          Shape weight_shape(half.ndim(), 1);
          weight_shape[dims.back()] = bins;
          Tensor doubling = prims::tensor_from_sequence(Value::list(Values(weights.begin(), weights.end())), half.device(), to_real_dtype(half.dtype()));
          half = ltorch::mul(half, ltorch::reshape(doubling, weight_shape));
        }
        grad = half;
      }
      put_grad(a, in_dtype(fit_lengths(grad, dims, in_lengths), a.dtype().strong()));
      return out;
    });
  }
}

void register_builtin_grad_rules() {
  for (const char* id : {"prims.complex", "prims.real", "prims.imag", "prims.abs", "prims.add", "prims.sub", "prims.neg",
                         "prims.mul", "prims.div", "prims.where", "prims.convert_element_type", "prims.device_put",
                         "prims.broadcast_in_dim", "prims.reshape", "prims.squeeze", "prims.transpose", "prims.flip",
                         "prims.stride_order", "prims.slice_prim", "prims.pad", "prims.cat", "prims.unfold", "prims.sum",
                         "prims.cumsum", "prims.take", "prims.take_along_axis", "prims.scatter_add", "prims.index_add",
                         "prims.scatter", "prims.index_copy"})
    declare_complex_rule(id);
  register_elementwise_rules();
  register_shape_rules();
  register_reduction_rules();
  register_indexing_rules();
  register_linear_algebra_rules();
  register_collective_rules();
  register_torch_rules();
  register_lapack_rules();
  register_fft_rules();
}

}  // namespace thundercc
