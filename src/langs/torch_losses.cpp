// Elementwise losses of the torch language (mse, l1, smooth l1, huber, binary cross entropy with
// and without logits, kl_div), the margin and embedding losses (margin ranking, hinge embedding,
// soft margin, cosine embedding, triplet margin, multi-class and multi-label margins), Poisson and
// Gaussian negative log-likelihoods: a pointwise loss, then the reduction ('none', 'sum', 'mean').
#include <algorithm>
#include <cmath>
#include <numbers>

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

// The loss reduced as `reduction` says, in its own dtype (the losses below compute in their
// inputs' promoted dtype, as PyTorch's do).
Tensor reduced_as(const Tensor& loss, const Args& x) { return reduced(loss, x, loss.dtype().strong()); }

// F.multi_margin_loss: sum over the classes i other than the target y of max(0, margin - a[y] +
// a[i])^p (times weight[y]), over the number of classes.
Value multi_margin_loss_impl(const Args& x) {
  Tensor a = x.tensor("a");
  Tensor target = x.tensor("target");
  int64_t p = x.integer("p");
  check(p == 1 || p == 2, "only p == 1 and p == 2 supported");
  check(a.ndim() <= 2 && a.numel() > 0, [&] { return str("Expected non-empty vector or matrix with optional 0-dim batch size, but got: ", shape_repr(a.shape())); });
  bool vector = a.ndim() <= 1;
  Tensor rows = vector ? reshape(a, {1, a.numel()}) : a;
  int64_t classes = rows.shape()[1];
  check(target.numel() == rows.shape()[0], [&] { return str("inconsistent target size, expected ", rows.shape()[0], " but got ", shape_repr(target.shape())); });
  Tensor column = reshape(target, {rows.shape()[0], 1});
  Tensor picked = op("torch.gather", {rows, 1, column});
  Tensor margins = op("torch.clamp_min", {rows - picked + x.real("margin"), 0});
  if (p == 2) margins = margins * margins;
  if (!x.is_none("weight")) {
    Tensor weights = op("torch.index_select", {x.tensor("weight"), 0, flatten(target)});
    margins = margins * unsqueeze(weights, 1);
  }
  Tensor classes_iota = op("torch.arange", {classes}, {{"device", Value(a.device())}});
  Tensor own = eq(classes_iota, column);
  Tensor others = where(own, 0.0, margins);
  Tensor loss = sum(others, Dims{1}) / static_cast<double>(classes);
  return reduced_as(vector ? reshape(loss, target.shape()) : loss, x);
}

// F.multilabel_margin_loss: the target holds each row's labels, up to the first -1; each label j
// against each class i not a label adds max(0, 1 - (a[j] - a[i])), over the number of classes.
Value multilabel_margin_loss_impl(const Args& x) {
  Tensor a = x.tensor("a");
  Tensor target = x.tensor("target");
  check(a.ndim() <= 2 && a.shape() == target.shape(), [&] { return str("inconsistent target size: ", shape_repr(target.shape()), " for input of size: ", shape_repr(a.shape())); });
  bool vector = a.ndim() <= 1;
  int64_t classes = a.ndim() == 0 ? 1 : a.shape().back();
  Tensor rows = vector ? reshape(a, {1, classes}) : a;
  Tensor labels = vector ? reshape(target, {1, classes}) : target;
  // The labels before the first -1 (a running product of "not -1").
  Tensor listed = op("torch.cumprod", {to(ne(labels, int64_t{-1}), dtypes::int64), 1});
  Tensor valid = ne(listed, int64_t{0});
  Tensor index = op("torch.clamp_min", {labels, 0});
  Tensor classes_iota = op("torch.arange", {classes}, {{"device", Value(a.device())}});
  Tensor matches = eq(unsqueeze(index, 2), classes_iota);  // (N, label j, class i)
  Tensor listed_matches = op("torch.logical_and", {matches, unsqueeze(valid, 2)});
  Tensor is_label = op("torch.any", {listed_matches, 1});  // (N, class i)
  Tensor scores = op("torch.gather", {rows, 1, index});
  Tensor margins = 1.0 - unsqueeze(scores, 2);
  Tensor others = unsqueeze(rows, 1);
  Tensor hinge = op("torch.clamp_min", {margins + others, 0});
  Tensor counted = op("torch.logical_and", {unsqueeze(valid, 2), unsqueeze(logical_not(is_label), 1)});
  Tensor pairs = where(counted, hinge, 0.0);
  Tensor loss = sum(pairs, Dims{1, 2}) / static_cast<double>(classes);
  return reduced_as(vector ? reshape(loss, {}) : loss, x);
}

}  // namespace

// d(anchor, positive) - d(anchor, negative) for the triplet losses, `distance(u, v)` between two
// of their arguments by name; swap takes the smaller of d(anchor, negative) and d(positive,
// negative). `tensors` names them in the dimensions' message as each loss's PyTorch does.
template <class Distance>
Tensor triplet_gap(const Args& x, const char* tensors, Distance&& distance) {
  const Tensor& anchor = x.tensor("anchor");
  check(anchor.ndim() == x.tensor("positive").ndim() && anchor.ndim() == x.tensor("negative").ndim(), [&] {
    return str("The anchor, positive, and negative ", tensors, " are expected to have the same number of dimensions, but got: anchor ",
               anchor.ndim(), "D, positive ", x.tensor("positive").ndim(), "D, and negative ", x.tensor("negative").ndim(), "D inputs");
  });
  Tensor positive = distance("anchor", "positive");
  Tensor negative = distance("anchor", "negative");
  if (x.flag("swap")) {
    Tensor swapped = distance("positive", "negative");
    negative = op("torch.minimum", {negative, swapped});
  }
  return positive - negative;
}

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
  const std::vector<std::string> decomposed{kRunsDecomposed};
  define(t, {{"torch.nn.functional.margin_ranking_loss"}, str("input1, input2, target, margin=0, ", kReduction).c_str(), [](const Args& x) -> Value {
    const Tensor& a = x.tensor("input1");
    check(a.ndim() == x.tensor("input2").ndim() && a.ndim() == x.tensor("target").ndim(), [&] {
      return str("margin_ranking_loss : All input tensors should have same dimension but got sizes: input1: ", shape_repr(a.shape()),
                 ", input2: ", shape_repr(x.tensor("input2").shape()), ", target: ", shape_repr(x.tensor("target").shape()));
    });
    Tensor difference = a - x.tensor("input2");
    Tensor ranked = -x.tensor("target") * difference;
    return reduced_as(op("torch.clamp_min", {add(ranked, x["margin"]), 0}), x);
  }}, decomposed);
  // a where the target is not -1, plus max(0, margin - a) where it is not 1.
  define(t, {{"torch.nn.functional.hinge_embedding_loss"}, str("a, target, /, margin=1.0, ", kReduction).c_str(), [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    const Tensor& target = x.tensor("target");
    Tensor below_margin = op("torch.clamp_min", {x.real("margin") - a, 0});
    Tensor not_one = ne(target, int64_t{1});
    Tensor margin_part = where(not_one, below_margin, 0.0);
    Tensor not_minus_one = ne(target, int64_t{-1});
    Tensor input_part = where(not_minus_one, a, 0.0);
    return reduced_as(margin_part + input_part, x);
  }}, decomposed);
  define(t, {{"torch.nn.functional.soft_margin_loss"}, str("a, target, /, ", kReduction).c_str(), [](const Args& x) -> Value {
    Tensor product = -x.tensor("a") * x.tensor("target");
    return reduced_as(log1p(exp(product)), x);
  }}, decomposed);
  // -(y log sigmoid(a) + (1 - y) log sigmoid(-a)), weighted, averaged over the classes (the last dim).
  define(t, {{"torch.nn.functional.multilabel_soft_margin_loss"}, str("a, target, /, weight=None, ", kReduction).c_str(), [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    const Tensor& target = x.tensor("target");
    Tensor positive = target * op("torch.nn.functional.logsigmoid", {a});
    Tensor absent = 1 - target;
    Tensor negative = absent * op("torch.nn.functional.logsigmoid", {-a});
    Tensor loss = -(positive + negative);
    if (!x.is_none("weight")) loss = loss * x.tensor("weight");
    int64_t class_dim = a.ndim() - 1;
    Tensor per_sample = sum(loss, Dims{class_dim}) / static_cast<double>(a.ndim() == 0 ? 1 : a.shape()[class_dim]);
    return reduced_as(per_sample, x);
  }}, decomposed);
  // exp(a) - y a for log inputs, a - y log(a + eps) otherwise; `full` adds Stirling's
  // approximation of log(y!) where y > 1.
  define(t, {{"torch.nn.functional.poisson_nll_loss"}, "a, target, /, log_input=True, full=False, size_average=None, eps=1e-08, reduce=None, reduction='mean'",
             [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    const Tensor& target = x.tensor("target");
    Tensor loss;
    if (x.flag("log_input")) {
      Tensor rate = exp(a);
      loss = rate - target * a;
    } else {
      Tensor log_rate = log(a + x.real("eps"));
      loss = a - target * log_rate;
    }
    if (x.flag("full")) {
      Tensor log_target = log(target);
      Tensor entropy = target * log_target - target;
      Tensor stirling = entropy + 0.5 * log(target * (2 * std::numbers::pi));
      Tensor small = le(target, int64_t{1});
      loss = loss + where(small, 0.0, stirling);
    }
    return reduced_as(loss, x);
  }}, decomposed);
  // 0.5 (log var + (a - y)^2 / var), var clamped to eps in value only (PyTorch clamps a clone
  // under no_grad: the gradient flows to var as if unclamped). PyTorch's check that no var is
  // negative reads the data: not made here.
  define(t, {{"torch.nn.functional.gaussian_nll_loss"}, "a, target, var, full=False, eps=1e-06, reduction='mean'", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    Tensor var = x.tensor("var");
    const Shape& input_shape = a.shape();
    if (var.shape() != input_shape) {
      Shape leading(input_shape.begin(), input_shape.end() - (input_shape.empty() ? 0 : 1));
      if (var.shape() == leading) var = unsqueeze(var, -1);
      else check(var.ndim() == a.ndim() && var.ndim() > 0 && Shape(var.shape().begin(), var.shape().end() - 1) == leading && var.shape().back() == 1,
                 "var is of incorrect size", "ValueError");
    }
    const std::string& reduction = x["reduction"].as_string();
    check(reduction == "none" || reduction == "mean" || reduction == "sum", [&] { return str(reduction, " is not valid"); }, "ValueError");
    Tensor clamped = op("torch.clamp_min", {var, x["eps"]});
    Tensor shift = op("torch.Tensor.detach", {clamped - var});
    Tensor v = var + shift;
    Tensor d = a - x.tensor("target");
    Tensor log_var = log(v);
    Tensor loss = (log_var + d * d / v) * 0.5;
    if (x.flag("full")) loss = loss + 0.5 * std::log(2 * std::numbers::pi);
    return reduced(loss, loss.dtype().strong(), reduction);
  }}, decomposed);
  // 1 - cos(a, b) where the target is 1, max(0, cos(a, b) - margin) where it is -1, cos over the
  // last dim with 1e-12 added to each squared norm.
  define(t, {{"torch.nn.functional.cosine_embedding_loss"}, str("input1, input2, target, margin=0, ", kReduction).c_str(), [](const Args& x) -> Value {
    const Tensor& a = x.tensor("input1");
    const Tensor& b = x.tensor("input2");
    const Tensor& target = x.tensor("target");
    check(a.shape() == b.shape(), [&] { return str("the size of tensor a (", shape_repr(a.shape()), ") must match the size of tensor b (", shape_repr(b.shape()), ")"); });
    check(a.ndim() == target.ndim() + 1 && a.ndim() <= 2, [&] {
      return str(a.ndim(), "D target tensor expects ", a.ndim() - 1, "D input tensors, but found inputs with sizes ", shape_repr(a.shape()), " and ", shape_repr(b.shape()), ".");
    });
    Dims last{a.ndim() - 1};
    Tensor dot = sum(a * b, last);
    Tensor squares_a = sum(a * a, last) + 1e-12;
    Tensor squares_b = sum(b * b, last) + 1e-12;
    Tensor cosine = dot / sqrt(squares_a * squares_b);
    Tensor above_margin = op("torch.clamp_min", {sub(cosine, x["margin"]), 0});
    Tensor positive = eq(target, int64_t{1});
    Tensor similar = where(positive, 1.0 - cosine, 0.0);
    Tensor negative = eq(target, int64_t{-1});
    Tensor dissimilar = where(negative, above_margin, 0.0);
    return reduced_as(similar + dissimilar, x);
  }}, decomposed);
  // max(0, margin + d(anchor, positive) - d(anchor, negative)), d the pairwise p-distance.
  define(t, {{"torch.nn.functional.triplet_margin_loss"}, str("anchor, positive, negative, margin=1.0, p=2, eps=1e-06, swap=False, ", kReduction).c_str(),
             [](const Args& x) -> Value {
    Tensor gap = triplet_gap(x, "tensors", [&](const char* u, const char* v) {
      return op("torch.nn.functional.pairwise_distance", {x[u], x[v], x["p"], x["eps"]});
    });
    return reduced_as(op("torch.clamp_min", {gap + x.real("margin"), 0}), x);
  }}, decomposed);
  // The same with the pairwise 2-distance (a distance function given is a Python callable: not here).
  define(t, {{"torch.nn.functional.triplet_margin_with_distance_loss"}, "anchor, positive, negative, *, distance_function=None, margin=1.0, swap=False, reduction='mean'",
             [](const Args& x) -> Value {
    check(x.is_none("distance_function"), "triplet_margin_with_distance_loss with a distance_function is not supported", "NotImplementedError");
    Tensor gap = triplet_gap(x, "input tensors", [&](const char* u, const char* v) { return op("torch.nn.functional.pairwise_distance", {x[u], x[v]}); });
    double margin = x.real("margin");
    check(margin > 0, [&] { return str("triplet_margin_with_distance_loss: expected margin to be greater than 0, got ", margin, " instead"); }, "ValueError");
    const std::string& reduction = x["reduction"].as_string();
    Tensor loss = op("torch.clamp_min", {gap + margin, 0});
    return reduced(loss, loss.dtype().strong(), reduction);
  }}, decomposed);
  define(t, {{"torch.nn.functional.multi_margin_loss"}, str("a, target, /, p=1, margin=1.0, weight=None, ", kReduction).c_str(), multi_margin_loss_impl}, decomposed);
  define(t, {{"torch.nn.functional.multilabel_margin_loss"}, str("a, target, /, ", kReduction).c_str(), multilabel_margin_loss_impl}, decomposed);
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
