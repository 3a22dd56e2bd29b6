// Serves a compiled plan from C++ with thundercc's runtime as a library (docs/serving.md, Embedding a plan):
// loads the plan once per thread, gives every copy the same weight tensors by name (held, not
// copied), runs the threads at once on the program's other inputs by name, and swaps the weights
// between rounds.
//
//   thundercc compile model.json -o out
//   embed_plan out/model.plan.json INPUTS.pt THREADS WEIGHTS.pt OUTPUTS.pt [WEIGHTS.pt OUTPUTS.pt]...
//
// INPUTS.pt: the inputs that are not the module's weights, a dict by name (torch.save({"x": x}, F)).
// WEIGHTS.pt: what torch.save(model.state_dict()) wrote. For each weights file in turn, writes the
// outputs to the file after it; exits 1 when the threads' outputs differ.
#include <ATen/ATen.h>

#include <cstdio>
#include <exception>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "thundercc/runtime/plan_runner.h"

using thundercc::runtime::Plan;

int main(int argc, char** argv) {
  if (argc < 6 || (argc - 4) % 2 != 0) {
    std::fprintf(stderr, "usage: embed_plan PLAN INPUTS.pt THREADS WEIGHTS.pt OUTPUTS.pt [WEIGHTS.pt OUTPUTS.pt]...\n");
    return 2;
  }
  try {
    const int threads = std::stoi(argv[3]);
    std::vector<std::unique_ptr<Plan>> plans;
    for (int t = 0; t < threads; ++t) plans.push_back(Plan::load(argv[1]));
    std::map<std::string, at::Tensor> inputs;  // by name: Plan::run checks them
    try {
      for (auto& [name, tensor] : thundercc::runtime::read_state_dict(argv[2])) inputs[name] = tensor;
    } catch (const std::exception&) {
      throw std::runtime_error(std::string(argv[2]) + ": expected the inputs by name, a dict: torch.save({\"x\": x}, FILE)");
    }

    for (int round = 4; round + 1 < argc; round += 2) {
      const auto weights = thundercc::runtime::read_state_dict(argv[round]);
      for (auto& plan : plans) plan->set_weights(weights, argv[round]);  // the same tensors for every copy
      std::vector<std::vector<at::Tensor>> outputs(threads);
      std::vector<std::thread> running;
      std::vector<std::exception_ptr> failed(threads);
      for (int t = 0; t < threads; ++t)
        running.emplace_back([&, t] {
          try {
            outputs[t] = plans[t]->run(inputs);
          } catch (...) {
            failed[t] = std::current_exception();
          }
        });
      for (auto& thread : running) thread.join();
      for (const auto& f : failed)
        if (f) std::rethrow_exception(f);
      for (int t = 1; t < threads; ++t)
        for (size_t k = 0; k < outputs[0].size(); ++k)
          if (!at::equal(outputs[t][k], outputs[0][k])) {
            std::fprintf(stderr, "error: thread %d's output %zu differs from thread 0's\n", t, k);
            return 1;
          }
      thundercc::runtime::write_tensor_file(argv[round + 1], outputs[0]);
      std::printf("%s: %d threads agree, outputs written to %s\n", argv[round], threads, argv[round + 1]);
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}
