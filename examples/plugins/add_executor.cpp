// Seed 002 ("Adding an operator executor"): an executor for prims.add, written with the older
// add_operator_executor API. Its checker takes only float32 2-D inputs whose first dimension is 2;
// its implementation adds with a plain loop over the data, as the seed's NumPy function does.
//
//   thundercc compile add_mul.json --plugin ./libthundercc_add_executor.so --executors custom_add_executor,torch
#include <ATen/ATen.h>

#include "thundercc/plugin.h"
#include "thundercc/runtime/kernels.h"

using namespace thundercc;

namespace {

bool checker_add_numpy(const Args& x) {
  const auto& a = x["a"];
  const auto& b = x["b"];
  if (!a.is_tensor() || !b.is_tensor()) return false;
  const auto& ta = a.as_tensor();
  const auto& tb = b.as_tensor();
  bool first_condition = ta.dtype() == dtypes::float32 && tb.dtype() == dtypes::float32;
  bool second_condition = ta.ndim() == 2 && tb.ndim() == 2;
  bool third_condition = second_condition && ta.shape()[0] == 2 && tb.shape()[0] == 2;
  return first_condition && second_condition && third_condition;
}

// The seed converts to NumPy arrays, adds, and converts back; here the "array" is the tensor's
// contiguous CPU buffer.
void add_numpy(runtime::KernelCall& call) {
  const at::Tensor& a = call.arg(0).tensor();
  at::Tensor lhs = a.contiguous().cpu();
  at::Tensor rhs = call.arg(1).tensor().contiguous().cpu();
  at::Tensor out = at::empty_like(lhs);
  const float* x = lhs.data_ptr<float>();
  const float* y = rhs.data_ptr<float>();
  float* z = out.data_ptr<float>();
  for (int64_t i = 0, n = out.numel(); i < n; ++i) z[i] = x[i] + y[i];
  call.set_output(0, out.to(a.device()));
}

}  // namespace

THUNDERCC_PLUGIN {
  registrar.add_operator_executor("custom_add_executor", {{"prims.add", {"add_numpy", checker_add_numpy}}}, "0.1");
  if (auto* kernels = registrar.kernels()) kernels->add("custom_add_executor:add_numpy", add_numpy);
}
