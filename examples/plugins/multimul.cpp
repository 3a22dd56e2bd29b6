// Seed 001 (the thunder.extend notebook): an OperatorExecutor with a new operator, multimul,
// registered with `like` (its decomposition gives its metadata and shows in traces) and a kernel;
// then torch.mul rewritten to multimul by an execution transform with a checker. The executor
// `myex_contiguous` is the seed's variant that makes the inputs contiguous first. The grad
// transform makes the backward of a * b one multimul call (b * g, a * g) instead of two.
//
//   thundercc compile t.json --plugin ./libthundercc_multimul.so --executors myex,torch
#include <ATen/ATen.h>

#include "thundercc/autodiff/autodiff.h"
#include "thundercc/langs/torch.h"
#include "thundercc/plugin.h"
#include "thundercc/runtime/kernels.h"

using namespace thundercc;

namespace {

// a * b for proxies (recorded as ltorch.mul) or for two Python numbers (computed here, as
// Python computes 0 * 0 without recording anything).
Value times(const Value& a, const Value& b) {
  if (!a.is_tensor() && !b.is_tensor()) {
    if (a.number_kind() == NumberKind::Float || b.number_kind() == NumberKind::Float) return a.as_float() * b.as_float();
    return a.as_int() * b.as_int();
  }
  return ltorch::mul(a, b);
}

Value multimul_like(const Args& x) {
  Value ab = times(x["a"], x["b"]);
  Value cd = times(x["c"], x["d"]);
  return Value::tuple({ab, cd});
}

bool cpu_or_number(const Value& v) { return !v.is_tensor() || v.as_tensor().device().is_cpu(); }

bool mul_to_multimul_checker(const Args& x) { return cpu_or_number(x["a"]) && cpu_or_number(x["b"]); }

void multimul_impl(runtime::KernelCall& call) {
  for (size_t pair = 0; pair < 2; ++pair) {
    runtime::ArgView lhs = call.arg(2 * pair), rhs = call.arg(2 * pair + 1);
    if (!lhs.is_tensor() && !rhs.is_tensor()) continue;  // a number, computed at compile time
    call.set_output(pair, at::mul(lhs.tensor_or_wrapped_number(), rhs.tensor_or_wrapped_number()));
  }
}

void register_myex(PluginRegistrar& registrar, const std::string& name, bool contiguous_first) {
  Executor& myex = registrar.operator_executor(name, "0.1");
  const Symbol& multimul = myex.register_operator("multimul", "a, b, c, d", multimul_like);
  ExecutionTransform mul_to_multimul = [&multimul, contiguous_first](const Args& x) -> Value {
    Value a = x["a"], b = x["b"];
    if (contiguous_first) {
      if (a.is_tensor()) a = ltorch::contiguous(a.as_tensor());
      if (b.is_tensor()) b = ltorch::contiguous(b.as_tensor());
    }
    Value result = call(multimul, {a, b, 0, 0});
    return result.items()[0];
  };
  GradTransform mymul_grad = [&multimul](const Args& x) -> Value {
    Tensor fwd = ltorch::mul(x["a"], x["b"]);
    Tensor g = get_grad(fwd);
    Value grads = call(multimul, {x["b"], g, x["a"], g});
    put_grads({x["a"], x["b"]}, {grads.items()[0], grads.items()[1]});
    return fwd;
  };
  myex.register_implementation("torch.mul", {.execution_transform = mul_to_multimul,
                                             .checker = mul_to_multimul_checker,
                                             .grad_transform = mymul_grad});
  if (auto* kernels = registrar.kernels()) kernels->add(multimul.id, multimul_impl);
}

}  // namespace

THUNDERCC_PLUGIN {
  register_myex(registrar, "myex", false);
  register_myex(registrar, "myex_contiguous", true);
}
