// Seeds 000 and 004: a fused softmax cross-entropy executor in the style of Apex's xentropy.
//  - `apex_xentropy` claims torch.nn.functional.cross_entropy (older add_operator_executor API),
//    when the checker accepts the call: reductions none, sum and mean, class-index targets,
//    2-D float logits on the CPU, no class weights.
//  - `xentropy_forward` and `xentropy_backward` are operators with meta functions (seed 004): the
//    per-row losses with the rows' log-sum-exp, and the gradient of the logits from them.
//  - Seed 004's custom forward and backward of cross_entropy: an augmented forward records
//    xentropy_forward (then the reduction) and saves the logits, targets and log-sum-exp; the
//    backward records xentropy_backward. They apply to the calls the checker accepts; other
//    calls are differentiated through cross_entropy's decomposition.
// The CPU kernels make one pass over each row and run rows in parallel; xentropy_cuda.cu holds
// the same kernels for CUDA.
#include <ATen/ATen.h>
#include <ATen/Parallel.h>

#include <cmath>

#include "thundercc/autodiff/autodiff.h"
#include "thundercc/errors.h"
#include "thundercc/langs/torch.h"
#include "thundercc/plugin.h"
#include "thundercc/runtime/kernels.h"

using namespace thundercc;

namespace {

constexpr const char* kCrossEntropySignature =
    "a, /, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction='mean', label_smoothing=0.0";

bool apex_xentropy_checker(const Args& x) {
  const auto& reduction = x["reduction"];
  // Apex's xentropy only supports "sum", "mean" or "none" reductions.
  if (reduction.kind() != Value::Kind::String) return false;
  const auto& r = reduction.as_string();
  if (r != "sum" && r != "mean" && r != "none") return false;
  // What these kernels take: 2-D float logits and 1-D class indices on the CPU, no class weights.
  const auto& a = x.tensor("a");
  const auto& target = x["target"];
  return x.is_none("weight") && x.is_none("size_average") && x.is_none("reduce") && a.ndim() == 2 &&
         (a.dtype() == dtypes::float32 || a.dtype() == dtypes::float64) && a.device().is_cpu() && target.is_tensor() &&
         target.as_tensor().ndim() == 1 && target.as_tensor().dtype().is_integer();
}

// Per row: the loss and the log-sum-exp, in one pass for the max and one for the sum.
template <class T>
void forward_rows(const at::Tensor& logits, const at::Tensor& labels, int64_t ignore_index, double smoothing,
                  at::Tensor& losses, at::Tensor& lse) {
  const int64_t rows = logits.size(0), classes = logits.size(1);
  const T* x = logits.data_ptr<T>();
  const int64_t* t = labels.data_ptr<int64_t>();
  T* loss = losses.data_ptr<T>();
  T* row_lse = lse.data_ptr<T>();
  at::parallel_for(0, rows, 16, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      const T* row = x + i * classes;
      double max = -INFINITY, sum = 0, total = 0;
      for (int64_t j = 0; j < classes; ++j) max = std::max<double>(max, row[j]);
      for (int64_t j = 0; j < classes; ++j) {
        sum += std::exp(row[j] - max);
        total += row[j];
      }
      double log_sum_exp = max + std::log(sum);
      row_lse[i] = static_cast<T>(log_sum_exp);
      if (t[i] == ignore_index) {
        loss[i] = 0;
        continue;
      }
      double nll = log_sum_exp - row[t[i]];
      double smooth = log_sum_exp - total / static_cast<double>(classes);
      loss[i] = static_cast<T>((1.0 - smoothing) * nll + smoothing * smooth);
    }
  });
}

std::pair<at::Tensor, at::Tensor> xentropy_forward(const at::Tensor& logits_in, const at::Tensor& labels_in,
                                                   int64_t ignore_index, double smoothing) {
  at::Tensor logits = logits_in.contiguous();
  at::Tensor labels = labels_in.to(at::kLong).contiguous();
  at::Tensor losses = at::empty({logits.size(0)}, logits.options());
  at::Tensor lse = at::empty({logits.size(0)}, logits.options());
  AT_DISPATCH_FLOATING_TYPES(logits.scalar_type(), "xentropy_forward",
                             [&] { forward_rows<scalar_t>(logits, labels, ignore_index, smoothing, losses, lse); });
  return {losses, lse};
}

at::Tensor xentropy_backward(const at::Tensor& grad_in, const at::Tensor& logits_in, const at::Tensor& labels_in,
                             const at::Tensor& lse_in, double smoothing, int64_t ignore_index) {
  at::Tensor logits = logits_in.contiguous();
  at::Tensor labels = labels_in.to(at::kLong).contiguous();
  at::Tensor lse = lse_in.to(logits.scalar_type()).contiguous();
  at::Tensor grad = grad_in.to(logits.scalar_type()).expand({logits.size(0)}).contiguous();
  at::Tensor out = at::empty_like(logits);
  const int64_t rows = logits.size(0), classes = logits.size(1);
  AT_DISPATCH_FLOATING_TYPES(logits.scalar_type(), "xentropy_backward", [&] {
    const scalar_t* x = logits.data_ptr<scalar_t>();
    const scalar_t* g = grad.data_ptr<scalar_t>();
    const int64_t* t = labels.data_ptr<int64_t>();
    const scalar_t* row_lse = lse.data_ptr<scalar_t>();
    scalar_t* dx = out.data_ptr<scalar_t>();
    at::parallel_for(0, rows, 16, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        scalar_t* drow = dx + i * classes;
        if (t[i] == ignore_index) {
          std::fill(drow, drow + classes, scalar_t(0));
          continue;
        }
        const scalar_t* row = x + i * classes;
        const double uniform = smoothing / static_cast<double>(classes);
        for (int64_t j = 0; j < classes; ++j) {
          double p = std::exp(static_cast<double>(row[j]) - row_lse[i]);
          double target = (j == t[i] ? 1.0 - smoothing : 0.0) + uniform;
          drow[j] = static_cast<scalar_t>(g[i] * (p - target));
        }
      }
    });
  });
  return out;
}

// apex_xentropy(a, target, weight, size_average, ignore_index, reduce, reduction, label_smoothing)
void apex_xentropy(runtime::KernelCall& call) {
  const at::Tensor& labels = call.arg(1).tensor();
  int64_t ignore_index = call.arg(4).integer();
  auto [losses, lse] = xentropy_forward(call.arg(0).tensor(), labels, ignore_index, call.arg(7).real());
  const std::string reduction = call.arg(6).string();
  if (reduction == "none") call.set_output(0, losses);
  else if (reduction == "sum") call.set_output(0, losses.sum());
  else call.set_output(0, losses.sum() / (labels != ignore_index).sum().to(losses.scalar_type()));
}

}  // namespace

THUNDERCC_PLUGIN {
  Executor& ex = registrar.add_operator_executor(
      "apex_xentropy", {{"torch.nn.functional.cross_entropy", {"apex_xentropy", apex_xentropy_checker}}}, "0.1");

  // Seed 004's symbols, with meta functions: per-row losses and log-sum-exp, and the backward.
  const Symbol& forward = ex.register_operator("xentropy_forward", kCrossEntropySignature, [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    check(x["reduction"].as_string() == "none", [&] { return thundercc::str("Invalid reduction: ", x["reduction"].as_string()); }, "ValueError");
    Tensor losses = Tensor::make({a.shape()[0]}, a.dtype(), a.device());
    Tensor lse = Tensor::make({a.shape()[0]}, a.dtype(), a.device());
    return Value::tuple({losses, lse});
  }, {.is_like = false});
  const Symbol& backward = ex.register_operator(
      "xentropy_backward", "grad, logits, labels, max_log_sum_exp, smoothing, ignore_index=-100",
      [](const Args& x) -> Value { return Tensor::like(x.tensor("logits")); }, {.is_like = false});

  register_augmented_forward(
      "torch.nn.functional.cross_entropy",
      [&forward](const Args& x) -> std::pair<Value, Values> {
        const Tensor& logits = x.tensor("a");
        const Value& target = x["target"];
        const Value& ignore_index = x["ignore_index"];
        const std::string& reduction = x["reduction"].as_string();
        Value rows = call(forward, {logits, target, Value(), Value(), ignore_index, Value(), std::string("none"), x["label_smoothing"]});
        Tensor losses = rows.items()[0].as_tensor(), max_log_sum_exp = rows.items()[1].as_tensor();
        Value primal = losses, count;  // count: the targets not ignored, which "mean" divides by
        if (reduction == "sum") {
          primal = ltorch::sum(losses);
        } else if (reduction == "mean") {
          Tensor total = ltorch::sum(losses);
          Tensor counted = ltorch::sum(ltorch::ne(target, ignore_index));
          primal = total / counted;
          count = counted;
        }
        return {primal, {logits, target, max_log_sum_exp, x["reduction"], x["label_smoothing"], ignore_index, count}};
      },
      apex_xentropy_checker);
  register_backward("torch.nn.functional.cross_entropy", [&backward](const Values& saved, const Values& cotangents) -> Values {
    const Tensor& logits = saved[0].as_tensor();
    const std::string& reduction = saved[3].as_string();
    Tensor grad = cotangents[0].as_tensor();
    if (reduction == "mean") grad = ltorch::true_divide(grad, saved[6]);
    if (reduction != "none") grad = ltorch::expand(grad, {logits.shape()[0]});
    Value grad_logits = call(backward, {grad, logits, saved[1], saved[2], saved[4], saved[5]});
    Values grads(8);  // one per parameter of cross_entropy; only the logits get one
    grads[0] = grad_logits;
    return grads;
  });

  if (auto* kernels = registrar.kernels()) {
    kernels->add("apex_xentropy:apex_xentropy", apex_xentropy);
    kernels->add(forward.id, [](runtime::KernelCall& call) {
      auto [losses, lse] = xentropy_forward(call.arg(0).tensor(), call.arg(1).tensor(), call.arg(4).integer(), call.arg(7).real());
      call.set_output(0, losses);
      call.set_output(1, lse);
    });
    kernels->add(backward.id, [](runtime::KernelCall& call) {
      call.set_output(0, xentropy_backward(call.arg(0).tensor(), call.arg(1).tensor(), call.arg(2).tensor(), call.arg(3).tensor(),
                                           call.arg(4).real(), call.arg(5).integer()));
    });
  }
}
