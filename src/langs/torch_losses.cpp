// Elementwise losses of the torch language (mse, l1, smooth l1, huber, binary cross entropy with
// and without logits, kl_div): a pointwise loss, then the reduction ('none', 'sum', 'mean').
#include <algorithm>
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

// F.ctc_loss: the negative log-likelihood of each target under every alignment of the input's
// steps (blanks around and between the labels, repeats merged), by the forward recursion over the
// extended labels in log space, unrolled over the steps. The lengths are specialized to the values
// seen at capture (the front end guards them). Unreachable states hold a large negative number,
// not -inf, so that logsumexp's gradient stays finite; a loss that large is an impossible
// alignment, inf as in PyTorch. The gradient is the loss's in log_probs (PyTorch's own adds
// exp(log_probs), assuming a log_softmax before: the two agree through one).
Value ctc_loss_impl(const Args& x) {
  Tensor log_probs = x.tensor("log_probs");
  Tensor targets = x.tensor("targets");
  const bool batched = log_probs.ndim() == 3;
  check(batched || log_probs.ndim() == 2, [&] { return str("ctc_loss: expected log_probs of 2 or 3 dimensions, but got ", shape_repr(log_probs.shape())); });
  check(log_probs.dtype() == dtypes::float32 || log_probs.dtype() == dtypes::float64, "ctc_loss: expected float or double log_probs");
  if (!batched) {
    log_probs = unsqueeze(log_probs, 1);
    targets = unsqueeze(targets, 0);
  }
  std::vector<int64_t> input_lengths = x["input_lengths"].as_ints(), target_lengths = x["target_lengths"].as_ints();
  const int64_t steps = log_probs.shape()[0], batch = log_probs.shape()[1], blank = x.integer("blank");
  check(static_cast<int64_t>(input_lengths.size()) == batch && static_cast<int64_t>(target_lengths.size()) == batch, [&] {
    return str("ctc_loss: expected input_lengths and target_lengths of batch size ", batch);
  });
  check(blank >= 0 && blank < log_probs.shape()[2], "blank must be in label range");
  for (int64_t n = 0; n < batch; ++n) {
    check(input_lengths[n] >= 1 && input_lengths[n] <= steps, [&] {
      return str("Expected input_lengths to have value at most ", steps, ", but got value ", input_lengths[n], " (while checking arguments for ctc_loss_cpu)");
    });
    check(target_lengths[n] >= 0, "ctc_loss: expected non-negative target lengths");
  }
  const int64_t labels = *std::max_element(target_lengths.begin(), target_lengths.end()), extended = 2 * labels + 1;
  const Device device = log_probs.device();
  // Each sample's labels, padded with blanks to the longest: from (N, S) rows or one concatenation.
  Tensor padded;
  if (labels > 0) {
    if (targets.ndim() == 2) {
      check(targets.shape()[1] >= labels, "Expected tensor to have size at least the longest target length");
      padded = narrow(targets, 1, 0, labels);
    } else {
      std::vector<Tensor> rows;
      for (int64_t n = 0, offset = 0; n < batch; offset += target_lengths[n], ++n) {
        Tensor row = narrow(targets, 0, offset, target_lengths[n]);
        rows.push_back(target_lengths[n] == labels ? row : op("torch.nn.functional.pad", {row, Value::ints({0, labels - target_lengths[n]}), "constant", blank}));
      }
      padded = op("torch.stack", {Value::list(Values(rows.begin(), rows.end())), 0});
    }
    padded = to(padded, dtypes::int64);
  }
  // The extended labels (N, 2S + 1): blank, label 1, blank, label 2, ..., blank.
  Tensor blanks = prims::full({batch, 1}, blank, device, dtypes::int64);
  Tensor ext = labels == 0 ? blanks
                           : cat({reshape(op("torch.stack", {Value::list({expand(blanks, {batch, labels}), padded}), 2}), {batch, 2 * labels}), blanks}, 1);
  Tensor scores = op("torch.gather", {log_probs, 2, expand(unsqueeze(ext, 0), {steps, batch, extended})});  // (T, N, 2S + 1)
  const double unreachable = -1e30;
  auto shifted = [&](const Tensor& alpha, int64_t by) {
    return op("torch.nn.functional.pad", {narrow(alpha, 1, 0, extended - by), Value::ints({by, 0}), "constant", unreachable});
  };
  // A label may follow the label two back (skipping the blank between) unless the two are equal.
  Tensor two_back = extended > 2 ? op("torch.nn.functional.pad", {narrow(ext, 1, 0, extended - 2), Value::ints({2, 0}), "constant", blank}) : ext;
  Tensor may_skip = op("torch.logical_and", {ne(ext, blank), ne(ext, two_back)});
  Tensor first = lt(prims::iota(extended, 0, 1, device, dtypes::int64), int64_t{2});
  Tensor alpha = where(first, op("torch.select", {scores, 0, 0}), unreachable);
  const int64_t longest = *std::max_element(input_lengths.begin(), input_lengths.end());
  std::vector<Tensor> at_step{alpha};
  for (int64_t t = 1; t < longest; ++t) {
    std::vector<Tensor> ways{alpha};
    if (extended > 1) ways.push_back(shifted(alpha, 1));
    if (extended > 2) ways.push_back(where(may_skip, shifted(alpha, 2), unreachable));
    Tensor reached = logsumexp(op("torch.stack", {Value::list(Values(ways.begin(), ways.end())), 0}), {0});
    alpha = reached + op("torch.select", {scores, 0, t});
    at_step.push_back(alpha);
  }
  // Each sample ends at its last step, on its last label or the blank after it.
  std::vector<Tensor> losses;
  for (int64_t n = 0; n < batch; ++n) {
    Tensor last = op("torch.select", {at_step[input_lengths[n] - 1], 0, n});
    int64_t end = 2 * target_lengths[n];
    Tensor likelihood = end == 0 ? op("torch.select", {last, 0, 0}) : logsumexp(narrow(last, 0, end - 1, 2), {0});
    losses.push_back(neg(likelihood));
  }
  Tensor loss = op("torch.stack", {Value::list(Values(losses.begin(), losses.end())), 0});
  Tensor impossible = gt(loss, -unreachable / 2);
  loss = where(impossible, x.flag("zero_infinity") ? 0.0 : INFINITY, loss);
  const std::string& reduction = x["reduction"].as_string();
  if (reduction == "mean") {
    Values divisors;
    for (auto l : target_lengths) divisors.push_back(std::max<int64_t>(l, 1));
    return mean(true_divide(loss, prims::tensor_from_sequence(Value::list(std::move(divisors)), device, loss.dtype())));
  }
  if (reduction == "sum") return sum(loss);
  check(reduction == "none", [&] { return str(reduction, " is not a valid value for reduction"); }, "ValueError");
  return batched ? loss : squeeze(loss, {0});
}

}  // namespace

void register_losses(SymbolTable& t) {
  define(t, {{"torch.nn.functional.ctc_loss"}, "log_probs, targets, input_lengths, target_lengths, blank=0, reduction='mean', zero_infinity=False",
             ctc_loss_impl});
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
