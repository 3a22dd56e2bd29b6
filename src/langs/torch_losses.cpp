// Elementwise losses of the torch language (mse, l1, smooth l1, huber, binary cross entropy with
// and without logits, kl_div): a pointwise loss, then the reduction ('none', 'sum', 'mean').
#include <cmath>

#include "langs/torch_registry.h"

namespace thundercc::ltorch {
namespace {

// The loss reduced, in `dtype` (float16 and bfloat16 losses are computed in float32 and rounded
// once, as PyTorch's kernels do).
Tensor reduced(const Tensor& loss, DType dtype, const std::string& reduction) {
  auto in_dtype = [&](const Tensor& t) { return t.dtype().type == dtype.type ? t : to(t, dtype); };
  if (reduction == "none") return in_dtype(loss);
  if (reduction == "sum") return in_dtype(sum(loss));
  check(reduction == "mean", [&] { return str(reduction, " is not a valid value for reduction"); }, "ValueError");
  return in_dtype(mean(loss));
}

// The loss reduced as the call's `reduction` says, in `dtype`: PyTorch's losses differ here, most
// give the input's and target's promoted dtype (mse, l1, smooth l1, kl_div), huber the input's,
// binary_cross_entropy_with_logits the target's.
Tensor reduced(const Tensor& loss, const Args& x, DType dtype) {
  check(x.is_none("size_average") && x.is_none("reduce"), "size_average and reduce are deprecated; use reduction",
        "NotImplementedError");
  return reduced(loss, dtype, x["reduction"].as_string());
}

DType promoted(const Args& x) { return core::promote_dtypes(x.tensor("a").dtype(), x.tensor("target").dtype()).strong(); }

// The input and the target broadcast together, as PyTorch's losses do (with a warning), in the
// computation dtype.
std::pair<Tensor, Tensor> operands(const Args& x) {
  Values both = core::maybe_broadcast({x["a"], x["target"]});
  auto wide = [](const Value& v) {
    const Tensor& t = v.as_tensor();
    DType computation = core::computation_dtype(t.dtype());
    return t.dtype() == computation ? t : to(t, computation);
  };
  return {wide(both[0]), wide(both[1])};
}

constexpr const char* kReduction = "size_average=None, reduce=None, reduction='mean'";

}  // namespace

void register_losses(SymbolTable& t) {
  define(t, {{"torch.nn.functional.mse_loss"}, str("a, target, /, ", kReduction).c_str(), [](const Args& x) -> Value {
    auto [a, target] = operands(x);
    Tensor d = a - target;
    return reduced(d * d, x, promoted(x));
  }});
  define(t, {{"torch.nn.functional.l1_loss"}, str("a, target, /, ", kReduction).c_str(), [](const Args& x) -> Value {
    auto [a, target] = operands(x);
    return reduced(abs(a - target), x, promoted(x));
  }});
  define(t, {{"torch.nn.functional.smooth_l1_loss"}, str("a, target, /, ", kReduction, ", beta=1.0").c_str(),
             [](const Args& x) -> Value {
    auto [a, target] = operands(x);
    double beta = x.real("beta");
    check(beta >= 0, "smooth_l1_loss does not support negative values for beta.");
    Tensor d = abs(a - target);
    if (beta == 0) return reduced(d, x, promoted(x));
    Tensor small = d < beta;
    Tensor quadratic = d * d * (0.5 / beta);
    Tensor linear = d - 0.5 * beta;
    return reduced(where(small, quadratic, linear), x, promoted(x));
  }});
  define(t, {{"torch.nn.functional.huber_loss"}, str("a, target, /, reduction='mean', delta=1.0").c_str(), [](const Args& x) -> Value {
    auto [a, target] = operands(x);
    double delta = x.real("delta");
    Tensor d = abs(a - target);
    Tensor small = d < delta;
    Tensor quadratic = d * d * 0.5;
    Tensor linear = (d - 0.5 * delta) * delta;
    return reduced(where(small, quadratic, linear), x.tensor("a").dtype().strong(), x["reduction"].as_string());
  }});
  define(t, {{"torch.nn.functional.binary_cross_entropy"}, str("a, target, /, weight=None, ", kReduction).c_str(),
             [](const Args& x) -> Value {
    check(x.tensor("a").shape() == x.tensor("target").shape(), [&] {
      return str("Using a target size (", shape_repr(x.tensor("target").shape()), ") that is different to the input size (",
                 shape_repr(x.tensor("a").shape()), ") is deprecated. Please ensure they have the same size.");
    }, "ValueError");
    check(x.tensor("a").dtype() == x.tensor("target").dtype(), [&] {
      return str("Found dtype ", x.tensor("target").dtype().full_name(), " but expected ", x.tensor("a").dtype().full_name());
    });
    auto [a, target] = operands(x);
    // PyTorch clamps the logs at -100 so that 0 and 1 give finite losses.
    Tensor log_p = op("torch.clamp", {log(a), -100});
    Tensor log_1mp = op("torch.clamp", {log(1 - a), -100});
    Tensor positive_term = target * log_p;
    Tensor negative_term = (1 - target) * log_1mp;
    Tensor loss = -(positive_term + negative_term);
    if (!x.is_none("weight")) loss = loss * x.tensor("weight");
    return reduced(loss, x, x.tensor("a").dtype().strong());
  }});
  define(t, {{"torch.nn.functional.binary_cross_entropy_with_logits"},
             str("a, target, /, weight=None, ", kReduction, ", pos_weight=None").c_str(), [](const Args& x) -> Value {
    check(x.tensor("a").shape() == x.tensor("target").shape(), [&] {
      return str("Target size (", shape_repr(x.tensor("target").shape()), ") must be the same as input size (",
                 shape_repr(x.tensor("a").shape()), ")");
    }, "ValueError");
    auto [a, target] = operands(x);
    // (1 - y) * a + (1 + (pw - 1) * y) * log(1 + exp(-a)), with log(1 + exp(-a)) = softplus(-a)
    // written as max(-a, 0) + log1p(exp(-|a|)) so that it never overflows.
    Tensor clamped = op("torch.clamp", {-a, 0});
    Tensor log_sigmoid_neg = clamped + log1p(exp(-abs(a)));
    Tensor linear = (1 - target) * a;
    Tensor loss;
    if (x.is_none("pos_weight")) {
      loss = linear + log_sigmoid_neg;
    } else {
      Tensor scale = (x.tensor("pos_weight") - 1) * target + 1;
      loss = linear + scale * log_sigmoid_neg;
    }
    if (!x.is_none("weight")) loss = loss * x.tensor("weight");
    return reduced(loss, x, x.tensor("target").dtype().strong());
  }});
  define(t, {{"torch.nn.functional.kl_div"}, str("a, target, /, ", kReduction, ", log_target=False").c_str(),
             [](const Args& x) -> Value {
    auto [a, target] = operands(x);
    Tensor loss;
    if (x.flag("log_target")) {
      Tensor p = exp(target);
      loss = p * (target - a);
    } else {
      Tensor entropy = op("torch.xlogy", {target, target});
      loss = entropy - target * a;
    }
    if (x["reduction"].as_string() == "batchmean") {
      check(x.is_none("size_average") && x.is_none("reduce"), "size_average and reduce are deprecated; use reduction", "NotImplementedError");
      Tensor total = reduced(loss, promoted(x), "sum");
      return a.ndim() == 0 ? total : total / a.shape()[0];
    }
    return reduced(loss, x, promoted(x));
  }});
}

}  // namespace thundercc::ltorch
