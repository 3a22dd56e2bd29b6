// A plugin with three faults, for the runner's errors to blame it (tests/python/test_plugins.py) and
// for the reducer to find (test_reduce.py): `faulty_shape` runs prims.add with a kernel that returns
// a tensor of the wrong shape; `faulty_id` registers its kernel under an id that is not its
// operator's; `faulty_gelu` computes torch.nn.functional.gelu as relu, a wrong value of the right shape;
// `faulty_tanh` gives NaN for torch.tanh's negative inputs.
#include <ATen/ATen.h>

#include "thundercc/plugin.h"
#include "thundercc/runtime/kernels.h"

using namespace thundercc;

THUNDERCC_PLUGIN {
  registrar.add_operator_executor("faulty_shape", {{"prims.add", {"add", nullptr}}}, "0.1");
  registrar.add_operator_executor("faulty_id", {{"prims.mul", {"mul", nullptr}}}, "0.1");
  registrar.add_operator_executor("faulty_gelu", {{"torch.nn.functional.gelu", {"gelu", nullptr}}}, "0.1");
  registrar.add_operator_executor("faulty_tanh", {{"torch.tanh", {"tanh", nullptr}}}, "0.1");
  if (auto* kernels = registrar.kernels()) {
    kernels->add("faulty_shape:add", [](runtime::KernelCall& call) {
      call.set_output(0, (call.arg(0).tensor() + call.arg(1).tensor()).flatten());
    });
    kernels->add("faulty_tanh:tanh", [](runtime::KernelCall& call) {
      const at::Tensor& a = call.arg(0).tensor();
      call.set_output(0, at::where(a < 0, at::full({}, NAN, a.options()), at::tanh(a)));
    });
    kernels->add("faulty_gelu:gelu", [](runtime::KernelCall& call) { call.set_output(0, at::relu(call.arg(0).tensor())); });
    kernels->add("faulty_id:multiply", [](runtime::KernelCall& call) {
      call.set_output(0, call.arg(0).tensor() * call.arg(1).tensor());
    });
  }
}
