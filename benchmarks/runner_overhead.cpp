// The runner's per-operation cost on a plan of 100 tiny elementwise ops (benchmarks/tiny_ops.py),
// against the same ops called directly through ATen. Prints nanoseconds per op (median of rounds)
// and the ratio; scripts/bench.sh adds PyTorch eager from Python.
//
//   runner_overhead PLAN.plan.json
#include <ATen/ATen.h>
#include <ATen/Parallel.h>

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "thundercc/plan/plan_codec.h"
#include "thundercc/runtime/plan_runner.h"
#include "thundercc/serialize/trace_file.h"
#include "thundercc/support/files.h"

using namespace thundercc::runtime;

namespace {

constexpr int kOps = 100;

template <class F>
double ns_per_op(F&& run_once, int repeats) {
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < repeats; ++i) run_once();
  return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count() / repeats / kOps;
}

double median(std::vector<double> xs) {
  std::sort(xs.begin(), xs.end());
  return xs[xs.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  thundercc::runtime::register_builtin_kernels();
  if (argc != 2) {
    std::fprintf(stderr, "usage: runner_overhead PLAN.plan.json\n");
    return 2;
  }
  at::set_num_threads(1);
  // The baseline calls ATen the way the runner does: in inference mode.
  c10::InferenceMode inference;
  // A Plan, not a bare runner: a fused plan's kernel library is loaded with it.
  Plan plan(thundercc::plan::read_plan_file(argv[1]), argv[1]);
  PlanRunner& runner = plan.forward_program();
  // The 100 ops one instruction each, or fused into one kernel; the figures are per op either way.
  if (runner.instructions().size() != kOps && runner.instructions().size() != 1) {
    std::fprintf(stderr, "expected a plan of %d instructions (or one fusion), got %zu\n", kOps, runner.instructions().size());
    return 1;
  }
  at::manual_seed(0);
  std::vector<at::Tensor> inputs{at::randn({16}), at::randn({16})};
  runner.check_inputs(inputs);

  // The same chain, written against ATen directly: x = op(x, b) cycling add, mul, sub, maximum.
  auto direct = [&] {
    at::Tensor x = inputs[0];
    const at::Tensor& b = inputs[1];
    for (int i = 0; i < kOps; ++i) {
      switch (i % 4) {
        case 0: x = at::add(x, b); break;
        case 1: x = at::mul(x, b); break;
        case 2: x = at::sub(x, b); break;
        default: x = at::maximum(x, b); break;
      }
    }
    return x;
  };
  // Same result both ways, or the comparison means nothing.
  if (!at::allclose(runner.run(inputs)[0], direct())) {
    std::fprintf(stderr, "the plan and the direct ATen chain disagree\n");
    return 1;
  }
  // Rounds alternate the two, so that frequency changes and other load hit both alike; the ratio
  // is the median of the rounds' ratios.
  const int repeats = 1000, rounds = 21;
  ns_per_op(direct, repeats);
  ns_per_op([&] { return runner.run(inputs); }, repeats);
  std::vector<double> aten_rounds, plan_rounds, ratios;
  for (int r = 0; r < rounds; ++r) {
    aten_rounds.push_back(ns_per_op(direct, repeats));
    plan_rounds.push_back(ns_per_op([&] { return runner.run(inputs); }, repeats));
    ratios.push_back(plan_rounds.back() / aten_rounds.back());
  }
  std::printf("aten_direct_ns_per_op %.1f\n", median(aten_rounds));
  std::printf("thundercc_run_ns_per_op %.1f\n", median(plan_rounds));
  std::printf("ratio_run_over_aten %.3f\n", median(ratios));
  return 0;
}
