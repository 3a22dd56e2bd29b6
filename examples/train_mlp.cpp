// Trains the bundled MLP classifier with plain SGD through a compiled training step, using
// thundercc as a library (runtime::Plan): each step runs the plan's forward (the loss) and its
// backward (the parameters' gradients), then updates the parameters in place.
//
//   thundercc compile traces/mlp.json -o out
//   train_mlp out/mlp.plan.json traces/mlp.inputs.pt [STEPS=200] [LR=0.1]
//
// Prints the loss every 20 steps and after the last; the inputs file gives the batch and the
// initial parameters. tests/python/test_train.py runs the same steps in PyTorch and compares.
#include <ATen/ATen.h>

#include <cstdio>
#include <exception>
#include <fstream>
#include <string>

#include "thundercc/plan/plan_codec.h"
#include "thundercc/runtime/plan_runner.h"

using namespace thundercc::runtime;

int main(int argc, char** argv) {
  register_builtin_kernels();
  if (argc < 3 || argc > 5) {
    std::fprintf(stderr, "usage: train_mlp PLAN.plan.json INPUTS.pt [STEPS=200] [LR=0.1]\n");
    return 2;
  }
  try {
    const std::string plan_path = argv[1];
    const int steps = argc > 3 ? std::stoi(argv[3]) : 200;
    const double lr = argc > 4 ? std::stod(argv[4]) : 0.1;
    Plan plan(thundercc::plan::read_plan_file(plan_path), plan_path);
    if (!plan.has_backward()) throw std::runtime_error(plan_path + ": the plan is not a training step (no input requires grad)");
    if (plan.cotangents().size() != 1) throw std::runtime_error(plan_path + ": expected one scalar loss as the output");

    std::vector<at::Tensor> inputs = read_tensor_file(argv[2], plan.inputs());
    plan.check_inputs(inputs);
    const at::Tensor seed = at::ones({}, inputs.front().options().dtype(at::kFloat));
    for (int step = 1; step <= steps; ++step) {
      at::Tensor loss = plan.forward(inputs).at(0);
      std::vector<at::Tensor> grads = plan.backward({seed.to(loss.scalar_type())});
      for (size_t i = 0; i < inputs.size(); ++i)
        if (grads[i].defined()) inputs[i].sub_(grads[i], lr);  // the parameters: the inputs that get a gradient
      if (step == 1 || step % 20 == 0 || step == steps) std::printf("step %d loss %.9g\n", step, loss.item<double>());
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}
