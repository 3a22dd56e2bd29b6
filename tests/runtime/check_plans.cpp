// Runs every NAME.plan.json of a folder on NAME.inputs.pt, writes the outputs to NAME.thundercc_outputs.pt
// and compares them with NAME.expected.pt, in one process (LibTorch loads once). A plan with a backward also runs it on NAME.cotangents.pt (ones
// when absent), compares the gradients with NAME.grads.pt and writes them to NAME.thundercc_grads.pt. Where NAME.expected64.pt
// exists (capture's float64 run), an output element beyond tolerance passes if it is no farther from
// it than PyTorch's own is (Thunder's assert_closer, as `run --expect` judges). Driven by tests/python/test_end_to_end.py. Also checks that every
// operator the torch executor claims with has a kernel.
#include <ATen/ATen.h>

#include <filesystem>
#include <fstream>
#include <iostream>

#include "thundercc/extend.h"
#include "thundercc/plan/plan_codec.h"
#include "thundercc/runtime/plan_runner.h"
#include "thundercc/serialize/trace_file.h"
#include "thundercc/support/files.h"

using namespace thundercc;
using namespace thundercc::runtime;

int main(int argc, char** argv) {
  register_builtin_kernels();
  // --cuda-emulate: the fusion regions run their CUDA kernels under the emulator (plans compiled with --emit-cuda).
  bool emulate_cuda = argc == 3 && std::string(argv[2]) == "--cuda-emulate";
  if (argc != 2 && !emulate_cuda) {
    std::cerr << "usage: check_plans DIR [--cuda-emulate]\n";
    return 2;
  }
  int failures = 0, checked = 0;
  for (const auto& [id, impl] : ExecutorRegistry::global().get("torch").implementations())
    if (impl.op && !KernelRegistry::global().find(impl.op->id)) {
      std::cerr << "FAIL: no kernel for " << impl.op->id << "\n";
      ++failures;
    }
  std::vector<std::filesystem::path> plans;
  for (const auto& entry : std::filesystem::directory_iterator(argv[1]))
    if (entry.path().string().ends_with(".plan.json")) plans.push_back(entry.path());
  std::sort(plans.begin(), plans.end());
  at::NoGradGuard no_grad;
  for (const auto& plan_path : plans) {
    std::string stem = plan_path.string().substr(0, plan_path.string().size() - std::string(".plan.json").size());
    try {
      Plan plan(plan::read_plan_file(plan_path), plan_path, {.emulate_cuda = emulate_cuda});
      auto inputs = read_tensor_file(stem + ".inputs.pt", plan.inputs());
      plan.check_inputs(inputs);
      at::manual_seed(0);
      auto outputs = plan.forward(inputs);
      write_tensor_file(stem + ".thundercc_outputs.pt", outputs);
      if (plan.has_backward()) {
        std::vector<at::Tensor> cotangents;
        if (std::filesystem::exists(stem + ".cotangents.pt")) cotangents = read_tensor_file(stem + ".cotangents.pt", plan.cotangents());
        else
          for (const auto& spec : plan.cotangents()) cotangents.push_back(at::ones(spec.meta.shape, at::TensorOptions().dtype(to_aten(spec.meta.dtype))));
        auto all_grads = plan.backward(cotangents);
        std::vector<at::Tensor> grads;
        for (size_t i = 0; i < plan.inputs().size(); ++i)
          if (plan.inputs()[i].meta.requires_grad) grads.push_back(all_grads[i]);
        write_tensor_file(stem + ".thundercc_grads.pt", grads);
        if (std::filesystem::exists(stem + ".grads.pt"))
          for (const auto& p : compare_outputs(grads, read_optional_tensor_file(stem + ".grads.pt"), std::nullopt, std::nullopt).problems) {
            std::cerr << "FAIL: " << plan_path.filename().string() << ": gradients: " << p << "\n";
            ++failures;
          }
      }
      const std::vector<at::Tensor> reference = std::filesystem::exists(stem + ".expected64.pt")
                                                    ? read_optional_tensor_file(stem + ".expected64.pt") : std::vector<at::Tensor>{};
      auto problems = compare_outputs(outputs, read_optional_tensor_file(stem + ".expected.pt"), std::nullopt, std::nullopt, reference).problems;
      for (const auto& p : problems) std::cerr << "FAIL: " << plan_path.filename().string() << ": " << p << "\n";
      failures += problems.empty() ? 0 : 1;
    } catch (const std::exception& e) {
      std::cerr << "FAIL: " << plan_path.filename().string() << ": " << e.what() << "\n";
      ++failures;
    }
    ++checked;
  }
  std::cout << checked << " plans checked, " << failures << " failed\n";
  return failures == 0 ? 0 : 1;
}
