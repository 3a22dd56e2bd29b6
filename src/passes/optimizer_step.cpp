// The optimizer's step as a program of its own (compile --optimizer): after a training step's
// backward, every parameter (an input that requires grad) is updated from its gradient in place,
// and so is the optimizer's state, as torch.optim's SGD and AdamW (PyTorch 1.13's single-tensor
// versions) compute it. The program is traced in the torch language and compiled like any other,
// so the fuser makes the whole update a few elementwise kernels. Its state starts as zeros: SGD's
// momentum buffer then equals the first gradient as PyTorch's clone of it does, and AdamW's step
// counts from 0.
#include "thundercc/errors.h"
#include "thundercc/langs/torch.h"
#include "thundercc/passes/passes.h"

namespace thundercc {
namespace {

using namespace ltorch;

void write_back(const Tensor& into, const Tensor& value) { op("torch.Tensor.copy_", {into, value}); }

// An input of the parameter's metadata; with FSDP, a shard as the parameter is.
Tensor make_input(Trace& trace, const std::string& name, const TensorMeta& meta, const std::optional<Shape>& shard_of = {}) {
  Tensor t = Tensor::make(meta.shape, meta.dtype, meta.device);
  trace.inputs.push_back({name, t, {}, shard_of});
  return t;
}

// param -= lr * (grad + weight_decay * param), through the momentum buffer when there is one.
void sgd(const Optimizer& o, const Tensor& param, const Tensor& grad, const Tensor* buffer) {
  Tensor direction = grad;
  if (o.weight_decay != 0) direction = add(grad, param, o.weight_decay);
  if (buffer) {
    Tensor decayed = *buffer * o.momentum;
    direction = decayed + direction;
    write_back(*buffer, direction);
  }
  write_back(param, add(param, direction, -o.lr));
}

// AdamW with decoupled weight decay; the bias corrections of step t are computed in float64, as
// PyTorch computes them in Python floats.
void adamw(const Optimizer& o, const Tensor& param, const Tensor& grad, const Tensor& exp_avg, const Tensor& exp_avg_sq,
           const Tensor& step) {
  Tensor decayed = param * (1 - o.lr * o.weight_decay);
  Tensor scaled_avg = exp_avg * o.beta1;
  Tensor avg = add(scaled_avg, grad, 1 - o.beta1);
  Tensor scaled_avg_sq = exp_avg_sq * o.beta2;
  Tensor grad_sq = grad * grad;
  Tensor avg_sq = add(scaled_avg_sq, grad_sq, 1 - o.beta2);
  Tensor t = to(step, dtypes::float64);
  Tensor beta1_t = pow(number(o.beta1), t);
  Tensor step_size = o.lr / (1 - beta1_t);
  Tensor beta2_t = pow(number(o.beta2), t);
  Tensor correction2_sqrt = sqrt(1 - beta2_t);
  Tensor root = sqrt(avg_sq);
  Tensor denominator = root / correction2_sqrt + o.eps;
  Tensor ratio = avg / denominator;
  Tensor update = ratio * step_size;
  write_back(exp_avg, avg);
  write_back(exp_avg_sq, avg_sq);
  write_back(param, decayed - update);
}

}  // namespace

std::vector<size_t> optimized_parameters(const Trace& program) {
  std::vector<size_t> out;
  for (size_t i = 0; i < program.inputs.size(); ++i)
    if (program.inputs[i].value.is_tensor() && program.inputs[i].value.as_tensor().requires_grad()) out.push_back(i);
  return out;
}

Trace optimizer_step_trace(const Trace& program, const Optimizer& o) {
  Trace out;
  out.name = "optimizer_step";
  out.provenance = o.describe();
  out.names = std::make_shared<NameSet>(program.names->style());
  TracingScope scope(out);
  std::vector<size_t> parameters = optimized_parameters(program);
  check(!parameters.empty(), "--optimizer updates the inputs that require grad, and the program has none (capture it without --inference)");
  std::vector<Tensor> params, grads;
  auto shard_of = [&](size_t k) -> const std::optional<Shape>& { return program.inputs[parameters[k]].shard_of; };
  for (size_t k = 0; k < parameters.size(); ++k)
    params.push_back(make_input(out, program.inputs[parameters[k]].name, program.inputs[parameters[k]].value.as_tensor().meta(), shard_of(k)));
  for (size_t k = 0; k < parameters.size(); ++k)
    grads.push_back(make_input(out, "grad_" + program.inputs[parameters[k]].name, params[k].meta(), shard_of(k)));
  // The state, per parameter in order: SGD's momentum buffer; AdamW's two averages, then one step count.
  std::vector<std::vector<Tensor>> state(parameters.size());
  for (size_t k = 0; k < parameters.size(); ++k) {
    const std::string& name = program.inputs[parameters[k]].name;
    if (o.kind == Optimizer::Kind::Sgd && o.momentum != 0)
      state[k].push_back(make_input(out, "momentum_buffer_" + name, params[k].meta(), shard_of(k)));
    if (o.kind == Optimizer::Kind::AdamW) {
      state[k].push_back(make_input(out, "exp_avg_" + name, params[k].meta(), shard_of(k)));
      state[k].push_back(make_input(out, "exp_avg_sq_" + name, params[k].meta(), shard_of(k)));
    }
  }
  std::optional<Tensor> step;
  if (o.kind == Optimizer::Kind::AdamW) {
    step = make_input(out, "step", TensorMeta{{}, dtypes::float32, params[0].device(), false});
    Tensor next = *step + 1;
    write_back(*step, next);
    step = next;
  }
  for (size_t k = 0; k < parameters.size(); ++k) {
    if (o.kind == Optimizer::Kind::Sgd) sgd(o, params[k], grads[k], state[k].empty() ? nullptr : &state[k][0]);
    else adamw(o, params[k], grads[k], state[k][0], state[k][1], *step);
  }
  out.output = None{};
  return out;
}

std::string Optimizer::describe() const {
  if (kind == Kind::Sgd) return str("torch.optim.SGD(lr=", lr, ", momentum=", momentum, ", weight_decay=", weight_decay, ")");
  return str("torch.optim.AdamW(lr=", lr, ", betas=(", beta1, ", ", beta2, "), eps=", eps, ", weight_decay=", weight_decay, ")");
}

}  // namespace thundercc
