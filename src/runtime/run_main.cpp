// `thundercc run`: executes a plan with LibTorch. Lives in libthundercc_runtime, which the
// thundercc binary loads only for this command, so the compile side never loads LibTorch.
#include <CLI/CLI.hpp>
#include <torch/csrc/jit/serialization/pickle.h>

#include <ATen/ATen.h>
#include <algorithm>
#include <chrono>
#include <fstream>
#include <iostream>
#include <sstream>

#include "thundercc/errors.h"
#include "thundercc/plugin.h"
#include "thundercc/runtime/plan_runner.h"
#include "thundercc/serialize/schema.h"
#include "thundercc/serialize/trace_file.h"

namespace thundercc::runtime {
namespace {

using json = nlohmann::json;

std::vector<at::Tensor> fill_inputs(const std::vector<InputSpec>& specs, const std::string& fill, uint64_t seed) {
  at::manual_seed(seed);
  std::vector<at::Tensor> out;
  for (const auto& s : specs) {
    auto options = at::TensorOptions().dtype(to_aten(s.meta.dtype)).device(to_aten(s.meta.device));
    if (fill == "zeros") out.push_back(at::zeros(s.meta.shape, options));
    else if (fill == "ones") out.push_back(at::ones(s.meta.shape, options));
    else if (s.meta.dtype.is_inexact()) out.push_back(at::randn(s.meta.shape, options));
    // Integers: small non-negative values, valid as class indices and embedding rows.
    else out.push_back(at::randint(0, 2, s.meta.shape, options));
  }
  return out;
}

struct RunOptions {
  std::string plan_path, inputs_path, outputs_path, expect_path, fill = "random";
  uint64_t seed = 0;
  std::optional<double> rtol, atol;
  int repeat = 1, warmup = 0;
  bool profile = false;
  std::vector<std::string> plugins;
};

int run(const RunOptions& o) {
  json plan;
  try {
    auto bytes = read_bytes(o.plan_path);
    plan = json::parse(bytes.begin(), bytes.end());
  } catch (const json::parse_error& e) {
    throw LoadError(o.plan_path + ": not valid JSON: " + e.what());
  }
  check_schema(plan, SchemaKind::Plan, o.plan_path);
  for (const auto& plugin : o.plugins) load_plugin(plugin, &KernelRegistry::global());
  for (const auto& needed : plan["plugins"]) {
    auto name = needed["name"].get<std::string>(), version = needed["version"].get<std::string>();
    const Executor* ex = ExecutorRegistry::global().find(name);
    if (!ex) throw LoadError(thundercc::str(o.plan_path, ": the plan needs plugin executor '", name, "' ", version, "; load it with --plugin LIB"));
    if (ex->version() != version)
      throw LoadError(thundercc::str(o.plan_path, ": the plan needs executor '", name, "' version ", version, ", but the loaded plugin has ", ex->version()));
  }
  PlanRunner runner(plan, o.plan_path);
  std::vector<at::Tensor> inputs = o.inputs_path.empty() ? fill_inputs(runner.inputs(), o.fill, o.seed)
                                                         : read_tensor_file(o.inputs_path, runner.inputs());
  runner.check_inputs(inputs);

  at::NoGradGuard no_grad;
  for (int i = 0; i < o.warmup; ++i) runner.run(inputs);
  std::vector<double> run_ns;
  std::vector<double> instruction_ns(runner.instructions().size(), 0.0);
  std::vector<at::Tensor> outputs;
  for (int i = 0; i < std::max(o.repeat, 1); ++i) {
    auto start = std::chrono::steady_clock::now();
    outputs = runner.run(inputs, o.profile ? &instruction_ns : nullptr);
    run_ns.push_back(std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count());
  }
  std::vector<double> sorted = run_ns;
  std::sort(sorted.begin(), sorted.end());
  std::printf("%s: %zu instructions, %zu runs: median %.3f ms, min %.3f ms, max %.3f ms\n", o.plan_path.c_str(),
              runner.instructions().size(), run_ns.size(), sorted[sorted.size() / 2] / 1e6, sorted.front() / 1e6,
              sorted.back() / 1e6);
  if (o.profile) {
    std::printf("%10s  %6s  %s\n", "us/run", "share", "statement");
    double total = 0;
    for (double x : instruction_ns) total += x;
    for (size_t i = 0; i < instruction_ns.size(); ++i) {
      std::string statement = runner.instructions()[i].statement;
      statement = statement.substr(0, statement.find("  #"));
      std::printf("%10.2f  %5.1f%%  %s\n", instruction_ns[i] / run_ns.size() / 1e3, total > 0 ? 100 * instruction_ns[i] / total : 0.0,
                  statement.c_str());
    }
  }
  if (!o.outputs_path.empty()) {
    c10::List<at::Tensor> list;
    for (const auto& t : outputs) list.push_back(t);
    auto bytes = torch::jit::pickle_save(c10::IValue(list));
    std::string tmp = o.outputs_path + ".tmp";
    std::ofstream(tmp, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    std::rename(tmp.c_str(), o.outputs_path.c_str());
  }
  if (!o.expect_path.empty()) {
    auto expected = read_tensor_file(o.expect_path, {});
    auto problems = compare_outputs(outputs, expected, o.rtol, o.atol);
    if (!problems.empty()) {
      for (const auto& p : problems) std::fprintf(stderr, "error: %s: %s\n", o.plan_path.c_str(), p.c_str());
      return 1;
    }
    std::printf("%s: outputs match %s\n", o.plan_path.c_str(), o.expect_path.c_str());
  }
  return 0;
}

}  // namespace
}  // namespace thundercc::runtime

extern "C" int thundercc_run_main(int argc, char** argv) {
  using namespace thundercc;
  runtime::RunOptions o;
  CLI::App app{"thundercc run: execute a plan with LibTorch"};
  app.add_option("plan", o.plan_path, "a plan.json written by thundercc compile")->required();
  auto* inputs = app.add_option("--inputs", o.inputs_path, "inputs saved by torch.save: a list in signature order, or a dict by name");
  app.add_option("--fill", o.fill, "without --inputs: random, zeros or ones")
      ->check(CLI::IsMember({"random", "zeros", "ones"}))->excludes(inputs);
  app.add_option("--seed", o.seed, "seed for --fill random");
  app.add_option("--outputs", o.outputs_path, "write the outputs (a list, for torch.load)");
  app.add_option("--expect", o.expect_path, "compare the outputs with these (torch.save'd list)");
  app.add_option("--rtol", o.rtol, "relative tolerance (default: Thunder's, by dtype)");
  app.add_option("--atol", o.atol, "absolute tolerance (default: Thunder's, by dtype)");
  app.add_option("--repeat", o.repeat, "timed runs")->check(CLI::PositiveNumber);
  app.add_option("--warmup", o.warmup, "untimed runs first")->check(CLI::NonNegativeNumber);
  app.add_flag("--profile", o.profile, "print the time of each instruction");
  app.add_option("--plugin", o.plugins, "a plugin library to load (repeatable)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  try {
    return runtime::run(o);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}
