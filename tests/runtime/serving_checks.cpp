// What serving code does with runtime::Plan that only C++ can do, checked from
// tests/python/test_surfaces_red_team.py:
//
//   serving_checks inference PLAN WEIGHTS.pt INPUTS.pt OUTPUTS.pt
//     weights read under c10::InferenceMode (as serving code reads them), a run, then every
//     floating-point weight doubled in place under InferenceMode and a second run; writes both
//     runs' outputs, so that the second can be compared with eager on the doubled weights.
//   serving_checks sizes PLAN WEIGHTS.pt INPUTS.pt LIMIT N
//     a dynamic plan of one input besides its weights run at batch sizes 1..N (the first rows of
//     the input INPUTS.pt holds) keeping at most LIMIT plans for other sizes; prints how many are
//     kept after each call, then runs size 2 again and exits 1 if its outputs differ from its first
//     run's.
#include <ATen/ATen.h>

#include <cstdio>
#include <exception>
#include <map>
#include <string>
#include <vector>

#include "thundercc/runtime/plan_runner.h"

using namespace thundercc::runtime;

namespace {

std::map<std::string, at::Tensor> by_name(const std::string& path) {
  std::map<std::string, at::Tensor> out;
  for (auto& [name, tensor] : read_state_dict(path)) out[name] = tensor;
  return out;
}

int inference(char** argv) {
  auto plan = Plan::load(argv[2]);
  auto inputs = by_name(argv[4]);
  c10::InferenceMode serving;
  auto weights = read_state_dict(argv[3]);
  plan->set_weights(weights);
  std::vector<at::Tensor> outputs = plan->run(inputs);
  for (auto& [key, w] : weights)
    if (w.is_floating_point()) w.mul_(2);
  for (const auto& t : plan->run(inputs)) outputs.push_back(t);
  write_tensor_file(argv[5], outputs);
  return 0;
}

int sizes(char** argv) {
  auto plan = Plan::load(argv[2]);
  plan->set_weights(read_state_dict(argv[3]));
  const auto [name, x] = *by_name(argv[4]).begin();
  plan->set_specialized_limit(std::stoul(argv[5]));
  const int64_t n = std::stoll(argv[6]);
  at::Tensor first_at_2;
  for (int64_t s = 1; s <= n; ++s) {
    auto out = plan->run({{name, x.narrow(0, 0, s)}});
    if (s == 2) first_at_2 = out[0].clone();
    std::printf("size %lld: %zu kept\n", static_cast<long long>(s), plan->specialized_plans());
  }
  auto again = plan->run({{name, x.narrow(0, 0, 2)}});
  if (!at::equal(again[0], first_at_2)) {
    std::fprintf(stderr, "size 2 differs when compiled again\n");
    return 1;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const std::string mode = argc > 1 ? argv[1] : "";
    if (mode == "inference" && argc == 6) return inference(argv);
    if (mode == "sizes" && argc == 7) return sizes(argv);
    std::fprintf(stderr, "usage: serving_checks inference PLAN WEIGHTS INPUTS OUTPUTS | sizes PLAN WEIGHTS INPUTS LIMIT N\n");
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}
