// An executor of one operator: `my_mul` runs torch.mul of two float32 CPU tensors of one shape
// with its own loop. The complete plugin of docs/plugins.md, built there against
// the installed package (examples/plugin_package/CMakeLists.txt).
#include <ATen/ATen.h>

#include <thundercc/langs/torch.h>
#include <thundercc/plugin.h>
#include <thundercc/runtime/kernels.h>

using namespace thundercc;

namespace {

// The calls it takes (at compile time, on proxies): two float32 CPU tensors of one shape.
bool float32_pair(const Args& x) {
  for (const char* name : {"a", "b"}) {
    const Value& v = x[name];
    if (!v.is_tensor() || v.as_tensor().dtype() != dtypes::float32 || !v.as_tensor().device().is_cpu()) return false;
  }
  return x.tensor("a").shape() == x.tensor("b").shape();
}

// Its kernel (at run time, on tensors).
void loop_mul(runtime::KernelCall& call) {
  at::Tensor a = call.arg(0).tensor().contiguous(), b = call.arg(1).tensor().contiguous();
  at::Tensor out = at::empty_like(a);
  const float *x = a.data_ptr<float>(), *y = b.data_ptr<float>();
  float* z = out.data_ptr<float>();
  for (int64_t i = 0; i < out.numel(); ++i) z[i] = x[i] * y[i];
  call.set_output(0, out);
}

}  // namespace

THUNDERCC_PLUGIN {
  Executor& ex = registrar.operator_executor("my_executor", "0.1");
  // The operator, traced like torch.mul (its metadata and the comments of printed traces).
  const Symbol& my_mul = ex.register_operator("my_mul", "a, b", [](const Args& x) -> Value { return ltorch::mul(x["a"], x["b"]); });
  ex.register_implementation("torch.mul", {.op = &my_mul, .checker = float32_pair});
  if (auto* kernels = registrar.kernels()) kernels->add(my_mul.id, loop_mul);
}
