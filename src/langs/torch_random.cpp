// Random ops of the torch language: rand, randn, randint, normal, bernoulli, multinomial, their
// *_like and in-place forms, and the dropout variants. Each draws through the two random prims
// (uniform, randn) or multinomial and shapes the draw with ordinary ops, as Thunder's bernoulli
// does: a plan's draws then come from its seed (run --seed), whichever executor runs the rest.
#include <cmath>

#include "langs/torch_registry.h"
#include "thundercc/ir/pyliteral.h"

namespace thundercc::ltorch {
namespace {

DType float_dtype(const Args& x, DType fallback = dtypes::float32) { return optional_dtype(x["dtype"]).value_or(fallback); }

// The uniform draw over [low, high) of a's shape (and device), in `dtype`.
Tensor uniform_like(const Tensor& a, double low, double high, DType dtype) {
  return prims::uniform(a.shape(), low, high, a.device(), dtype);
}

// A uniform draw over [0, 1) of dtype d; a complex dtype's real and imaginary parts are drawn so
// each, as PyTorch's rand does.
Tensor uniform_unit(const Shape& shape, Device device, DType d) {
  if (!d.is_complex()) return prims::uniform(shape, 0.0, 1.0, device, d);
  DType part = to_real_dtype(d);
  Tensor real = prims::uniform(shape, 0.0, 1.0, device, part);
  return prims::complex(real, prims::uniform(shape, 0.0, 1.0, device, part));
}

// Integers uniform over [low, high): a float64 draw floored (and kept below high where rounding
// reaches it).
Tensor random_integers(const Shape& shape, int64_t low, int64_t high, Device device, DType dtype) {
  check(low < high, [&] { return str("random_ expects 'from' to be less than 'to', but got from=", low, " >= to=", high); });
  Tensor draw = prims::uniform(shape, static_cast<double>(low), static_cast<double>(high), device, dtypes::float64);
  Tensor floored = op("torch.floor", {draw});
  Tensor below_high = op("torch.clamp", {floored}, {{"max", static_cast<double>(high - 1)}});
  return to(below_high, dtype);
}

// randint(high, size) or randint(low, high, size); randint_like(a, high) or (a, low, high).
std::pair<int64_t, int64_t> integer_bounds(const Values& bounds, const char* name) {
  check(bounds.size() == 1 || bounds.size() == 2, [&] { return str(name, "() expects high, or low and high"); }, "TypeError");
  if (bounds.size() == 1) return {0, bounds[0].as_int()};
  return {bounds[0].as_int(), bounds[1].as_int()};
}

void check_no_generator(const Args& x, const char* name) {
  check(x.is_none("generator"), [&] { return str(name, ": a torch.Generator argument is not supported; the plan's seed draws (run --seed)"); },
        "NotImplementedError");
}

// Whether each element of `a` is kept, with probability 1 - p (after checking p); with
// `feature_dims`, one draw per (batch, channel) keeps or drops whole feature maps.
Tensor kept(const Tensor& a, double p, bool feature_dims) {
  Shape mask_shape = a.shape();
  if (feature_dims)
    for (size_t d = 2; d < mask_shape.size(); ++d) mask_shape[d] = 1;
  Tensor r = prims::uniform(mask_shape, 0.0, 1.0, a.device(), a.dtype().is_float() ? a.dtype() : dtypes::float32);
  return r < (1.0 - p);
}

void check_probability(double p) {
  check(p >= 0.0 && p <= 1.0, [&] { return str("dropout probability has to be between 0 and 1, but got ", float_repr(p)); }, "ValueError");
}

// a's kept elements scaled by 1 / (1 - p), the rest zeroed (dropout; dropout1d/2d/3d with
// `feature_dims`).
Tensor dropout_impl(const Tensor& a, double p, bool training, bool feature_dims) {
  check_probability(p);
  if (!training || p == 0.0) return a;
  if (p == 1.0) return zeros_like(a);
  Tensor keep = kept(a, p, feature_dims);
  return a * keep * (1.0 / (1.0 - p));
}

// SELU's dropout: dropped elements take the negative saturation value, and an affine map keeps
// mean 0 and variance 1 (alpha_dropout; feature_alpha_dropout drops whole feature maps).
Tensor alpha_dropout_impl(const Tensor& a, double p, bool training, bool feature_dims) {
  check_probability(p);
  if (!training || p == 0.0) return a;
  if (p == 1.0) return zeros_like(a);
  const double alpha = -1.7580993408473766;
  const double scale = 1.0 / std::sqrt((1.0 - p) * (1.0 + p * alpha * alpha));
  const double shift = -scale * alpha * p;
  Tensor keep = kept(a, p, feature_dims);
  Tensor kept_or_saturated = where(keep, a, alpha);
  return kept_or_saturated * scale + shift;
}

Tensor created(const Args& x, const char* name, const std::function<Tensor(const Shape&, Device, DType)>& draw) {
  check_no_generator(x, name);
  check(!x.flag("requires_grad"), [&] { return str(name, "(..., requires_grad=True) inside a program is not supported; pass the tensor in"); },
        "NotImplementedError");
  return draw(x.ints("size"), device_or(x["device"], Device::cpu()), float_dtype(x));
}

}  // namespace

void register_random(SymbolTable& t) {
  const std::vector<std::string> random{"RANDOM_OP"};
  define(t, {{"torch.uniform"}, "shape, minval=0.0, maxval=1.0, *, device, dtype", [](const Args& x) -> Value {
    return prims::uniform(x.ints("shape"), x["minval"], x["maxval"], x["device"].as_any_device(), x["dtype"].as_dtype());
  }}, random);
  define(t, {{"torch.uniform_like"}, "a, /, minval=0.0, maxval=1.0, *, device=None, dtype=None", [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    return prims::uniform(a.shape(), x["minval"], x["maxval"], device_or(x["device"], a.device()), float_dtype(x, a.dtype().strong()));
  }}, random);
  define(t, {{"torch.rand"}, "*size, dtype=None, device=None, generator=None, requires_grad=False", [](const Args& x) -> Value {
    return created(x, "rand", uniform_unit);
  }}, random);
  define(t, {{"torch.randn"}, "*size, dtype=None, device=None, generator=None, requires_grad=False", [](const Args& x) -> Value {
    return created(x, "randn", [](const Shape& s, Device d, DType dt) { return prims::randn(s, d, dt); });
  }}, random);
  define(t, {{"torch.rand_like"}, "a, /, *, dtype=None, device=None, requires_grad=False", [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    return uniform_unit(a.shape(), device_or(x["device"], a.device()), float_dtype(x, a.dtype().strong()));
  }}, random);
  define(t, {{"torch.randn_like"}, "a, /, *, dtype=None, device=None, requires_grad=False", [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    return prims::randn(a.shape(), device_or(x["device"], a.device()), float_dtype(x, a.dtype().strong()));
  }}, random);
  define(t, {{"torch.randint"}, "*bounds_and_size, dtype=None, device=None, generator=None, requires_grad=False", [](const Args& x) -> Value {
    Values args = x["bounds_and_size"].items();
    check(args.size() == 2 || args.size() == 3, "randint() expects (high, size) or (low, high, size)", "TypeError");
    check_no_generator(x, "randint");
    Shape size = args.back().as_ints();
    auto [low, high] = integer_bounds(Values(args.begin(), args.end() - 1), "randint");
    return random_integers(size, low, high, device_or(x["device"], Device::cpu()), optional_dtype(x["dtype"]).value_or(dtypes::int64));
  }}, random);
  define(t, {{"torch.randint_like"}, "a, /, *bounds, dtype=None, device=None, requires_grad=False", [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    auto [low, high] = integer_bounds(x["bounds"].items(), "randint_like");
    return random_integers(a.shape(), low, high, device_or(x["device"], a.device()), float_dtype(x, a.dtype().strong()));
  }}, random);
  // Each element 1 with its probability (a's element, or p), else 0, in a's dtype.
  define(t, {{"torch.bernoulli", "torch.Tensor.bernoulli"}, "a, /, p=None, *, generator=None", [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    check_no_generator(x, "bernoulli");
    check(a.dtype().is_float(), [&] { return str("bernoulli only supports floating point dtypes, got ", a.dtype().full_name()); });
    Value probability = x.is_none("p") ? Value(a) : x["p"];
    return to(lt(uniform_like(a, 0.0, 1.0, a.dtype().strong()), probability), a.dtype().strong());
  }}, random);
  // normal(mean, std): tensors or numbers broadcast together; numbers alone need a size.
  define(t, {{"torch.normal"}, "mean, std=1.0, size=None, *, generator=None, dtype=None, device=None", [](const Args& x) -> Value {
    check_no_generator(x, "normal");
    const Value& mean = x["mean"];
    const Value& std = x["std"];
    if (!mean.is_tensor() && !std.is_tensor()) {
      check(!x.is_none("size"), "normal(mean, std) with two numbers needs a size", "TypeError");
      Tensor draw = prims::randn(x.ints("size"), device_or(x["device"], Device::cpu()), float_dtype(x));
      Tensor scaled = mul(draw, std);
      return add(scaled, mean);
    }
    const Tensor& like = mean.is_tensor() ? mean.as_tensor() : std.as_tensor();
    Shape shape = like.shape();
    if (mean.is_tensor() && std.is_tensor()) shape = core::maybe_broadcast({mean, std})[0].as_tensor().shape();
    Tensor draw = prims::randn(shape, like.device(), like.dtype().strong());
    Tensor scaled = mul(draw, std);
    return add(scaled, mean);
  }}, random);
  define(t, {{"torch.multinomial", "torch.Tensor.multinomial"}, "a, /, num_samples, replacement=False, *, generator=None",
             [](const Args& x) -> Value {
    check_no_generator(x, "multinomial");
    return prims::multinomial(x.tensor("a"), x.integer("num_samples"), x.flag("replacement"));
  }}, random);

  // The in-place fills: a takes a draw of its shape, in its dtype.
  define(t, {{"torch.Tensor.uniform_"}, "a, /, from_=0.0, to=1.0, *, generator=None", [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    check_no_generator(x, "uniform_");
    return uniform_like(a, x.real("from_"), x.real("to"), a.dtype().strong());
  }}, {"RANDOM_OP", "IN_PLACE"});
  define(t, {{"torch.Tensor.normal_"}, "a, /, mean=0.0, std=1.0, *, generator=None", [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    check_no_generator(x, "normal_");
    Tensor scaled = mul(prims::randn(a.shape(), a.device(), a.dtype().strong()), x["std"]);
    return add(scaled, x["mean"]);
  }}, {"RANDOM_OP", "IN_PLACE"});
  define(t, {{"torch.Tensor.bernoulli_"}, "a, /, p=0.5, *, generator=None", [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    check_no_generator(x, "bernoulli_");
    return to(lt(uniform_like(a, 0.0, 1.0, dtypes::float32), x["p"]), a.dtype().strong());
  }}, {"RANDOM_OP", "IN_PLACE"});
  // -log(1 - u) / lambda for u uniform on [0, 1): exponentially distributed.
  define(t, {{"torch.Tensor.exponential_"}, "a, /, lambd=1.0, *, generator=None", [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    check_no_generator(x, "exponential_");
    check(x.real("lambd") > 0.0, [&] { return str("exponential_ expects lambda > 0.0, but found lambda=", float_repr(x.real("lambd"))); });
    Tensor u = uniform_like(a, 0.0, 1.0, a.dtype().strong());
    Tensor survival = 1.0 - u;
    return true_divide(neg(log(survival)), x["lambd"]);
  }}, {"RANDOM_OP", "IN_PLACE"});

  define(t, {{"torch.nn.functional.dropout"}, "a, /, p=0.5, training=True, inplace=False", [](const Args& x) -> Value {
    return dropout_impl(x.tensor("a"), x.real("p"), x.flag("training"), false);
  }}, random);
  define(t, {{"torch.dropout"}, "a, /, p, train", [](const Args& x) -> Value {
    return dropout_impl(x.tensor("a"), x.real("p"), x.flag("train"), false);
  }}, random);
  for (const char* id : {"torch.nn.functional.dropout1d", "torch.nn.functional.dropout2d", "torch.nn.functional.dropout3d"})
    define(t, {{id}, "a, /, p=0.5, training=True, inplace=False", [](const Args& x) -> Value {
      return dropout_impl(x.tensor("a"), x.real("p"), x.flag("training"), true);
    }}, random);
  // Randomized leaky ReLU: in training each negative element's slope is drawn from
  // U(lower, upper); in evaluation it is their mean.
  define(t, {{"torch.nn.functional.rrelu", "torch.rrelu"}, "a, /, lower=0.125, upper=0.3333333333333333, training=False, inplace=False",
             [](const Args& x) -> Value {
               const auto& a = x.tensor("a");
               double lower = x.real("lower"), upper = x.real("upper");
               if (!x.flag("training")) return op("torch.nn.functional.leaky_relu", {a, (lower + upper) / 2});
               Tensor slope = uniform_like(a, lower, upper, a.dtype());
               return where(a >= 0, a, a * slope);
             }}, random);
  define(t, {{"torch.nn.functional.alpha_dropout"}, "a, /, p=0.5, training=False, inplace=False", [](const Args& x) -> Value {
    return alpha_dropout_impl(x.tensor("a"), x.real("p"), x.flag("training"), false);
  }}, random);
  define(t, {{"torch.nn.functional.feature_alpha_dropout"}, "a, /, p=0.5, training=False, inplace=False", [](const Args& x) -> Value {
    return alpha_dropout_impl(x.tensor("a"), x.real("p"), x.flag("training"), true);
  }}, random);
}

}  // namespace thundercc::ltorch
