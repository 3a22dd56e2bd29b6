// thundercc's runtime as a Python extension, for thundercc_frontend.compile and .load: a plan (or a
// package) loaded and run in the Python process. Tensors pass between PyTorch and the runtime without copies (both use the
// same LibTorch); runs release the GIL.
#include <torch/extension.h>

#include "thundercc/runtime/plan_runner.h"

namespace py = pybind11;
using thundercc::runtime::InputSpec;
using thundercc::runtime::Plan;

namespace {

py::list specs(const std::vector<InputSpec>& inputs) {
  py::list out;
  for (const InputSpec& s : inputs) out.append(py::make_tuple(s.name, s.fqn, s.type_string()));
  return out;
}

}  // namespace

PYBIND11_MODULE(_thundercc_runtime, m) {
  m.doc() = "thundercc's plan runner (thundercc_frontend.compile)";
  m.attr("version") = THUNDERCC_VERSION;
  py::class_<Plan>(m, "Plan")
      // Its results are ordinary tensors (not inference tensors), which autograd can save.
      .def_static("load", [](const std::string& path) {
             std::unique_ptr<Plan> plan = Plan::load(path);
             plan->forward_program().keep_versions();
             if (plan->backward_program()) plan->backward_program()->keep_versions();
             return plan;
           }, py::arg("path"))
      // (name, state_dict keys, "cpu f32[2, 3]") per input the caller gives, in order.
      .def_property_readonly("inputs", [](const Plan& p) { return specs(p.inputs()); })
      .def_property_readonly("cotangents", [](const Plan& p) { return specs(p.cotangents()); })
      .def_property_readonly("has_backward", &Plan::has_backward)
      .def("forward", [](Plan& p, const std::vector<at::Tensor>& inputs) {
             py::gil_scoped_release released;
             return p.forward(inputs);
           }, py::arg("inputs"))
      .def("backward", [](Plan& p, const std::vector<at::Tensor>& cotangents) {
             py::gil_scoped_release released;
             return p.backward(cotangents);
           }, py::arg("cotangents"))
      // The embedding API: weights by state_dict key, held; then the other inputs by name.
      .def("set_weights", [](Plan& p, const std::vector<std::pair<std::string, at::Tensor>>& state_dict) { p.set_weights(state_dict); },
           py::arg("state_dict"))
      .def("run", [](Plan& p, const std::map<std::string, at::Tensor>& inputs) {
             py::gil_scoped_release released;
             return p.run(inputs);
           }, py::arg("inputs"));
}
