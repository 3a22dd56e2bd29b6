// `thundercc run`: executes a plan with LibTorch. Lives in libthundercc_runtime, which the
// thundercc binary loads only for this command, so the compile side never loads LibTorch.
#include <CLI/CLI.hpp>
#include <torch/csrc/jit/serialization/pickle.h>

#include <ATen/ATen.h>
#include <nlohmann/json.hpp>
#include <ATen/Parallel.h>
#include <ATen/detail/CUDAHooksInterface.h>
#include <sched.h>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <functional>
#include <map>
#include <numeric>
#include <set>
#include <sstream>
#include <thread>

#include "runtime/caching_allocator.h"
#include "runtime/cuda_driver.h"
#include "runtime/cuda_streams.h"
#include "runtime/process_group.h"
#include "thundercc/errors.h"
#include "thundercc/plan/graph_capture.h"
#include "thundercc/plan/plan_codec.h"
#include "thundercc/runtime/package.h"
#include "thundercc/plugin.h"
#include "thundercc/runtime/plan_runner.h"
#include "thundercc/serialize/schema.h"
#include "thundercc/support/cli_validators.h"
#include "thundercc/support/files.h"
#include "thundercc/support/sha256.h"

namespace thundercc::runtime {
namespace {

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

// Tensors read from files are CPU tensors: each goes to the device its specification names (a
// plan compiled for CUDA runs on CUDA tensors).
std::vector<at::Tensor> on_devices(std::vector<at::Tensor> tensors, const std::vector<InputSpec>& specs) {
  for (size_t i = 0; i < tensors.size() && i < specs.size(); ++i)
    if (tensors[i].defined() && !specs[i].meta.device.is_cpu()) tensors[i] = tensors[i].to(to_aten(specs[i].meta.device));
  return tensors;
}

// CUDA kernels run asynchronously: a timed run ends when every CUDA device its inputs are on has
// finished it (a plan's tensors are on its inputs' devices).
void wait_for_devices(const std::vector<InputSpec>& specs) {
  for (const auto& s : specs)
    if (s.meta.device.type == Device::Type::CUDA) at::detail::getCUDAHooks().deviceSynchronize(to_aten(s.meta.device).index());
}

struct RunOptions {
  std::string plan_path, inputs_path, outputs_path, expect_path, fill = "random";
  std::string cotangents_path, grads_out_path, expect_grads_path, expect_inputs_path;
  std::optional<int64_t> seed;  // of the random ops (default: the plan's) and of --fill random (default: 0)
  std::optional<double> rtol, atol;
  int repeat = 1, warmup = 0;
  int64_t steps = 0;  // --steps: training steps with the plan's optimizer (0: one run, no update)
  std::optional<int> threads;  // --threads (default: OMP_NUM_THREADS where set, else every core the process may use)
  std::string checkpoint_path, resume_path, weights_path, profile_json_path;
  bool profile = false, cuda_emulate = false, trust_kernels = false, cuda_graphs = false;
  std::vector<std::string> plugins;
};

// Runs the plan once: the forward, and for a training step the backward (gradients into `grads`).
std::vector<at::Tensor> step(Plan& plan, const std::vector<at::Tensor>& inputs, const std::vector<at::Tensor>& cotangents,
                             std::vector<at::Tensor>& grads, std::vector<double>* forward_ns, std::vector<double>* backward_ns) {
  auto outputs = plan.forward(inputs, forward_ns);
  if (plan.has_backward()) grads = plan.backward(cotangents, backward_ns);
  return outputs;
}

// run --cuda-graphs: the step recorded once on a stream of LibTorch's pool, made LibTorch's current
// stream for the rest of the run, and replayed (CudaGraph). Inputs live on in the tensors the
// recording read (a batch is copied into them), results in those it wrote. Memory the recorded
// run allocated and freed is the allocator's again, and the replays write it: between replays
// nothing else allocates on the device (the run only copies inputs in and reads results).
struct Graphed {
  PoolStreamScope stream;
  std::unique_ptr<CudaGraph> graph;
  std::vector<at::Tensor> outputs, grads;  // what the replays write
  explicit Graphed(int device) : stream(device) { stream.handle(); }  // a LibTorch that names none refuses before any step
};

// The CUDA device the plan runs on (graph_capture_blockers found every tensor there).
int plan_cuda_device(const std::vector<InputSpec>& specs) {
  for (const auto& s : specs)
    if (s.meta.device.type == Device::Type::CUDA) return to_aten(s.meta.device).index();
  throw LoadError("the plan takes no CUDA tensor");
}

// The floor a graph's replay is held against: as many launches of an empty kernel as it has
// kernels, in a graph of their own, replayed as often (the time of one launch per kernel).
double empty_launches_ms(int device, void* stream, size_t kernels, int replays) {
  const CudaModule empty(".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry tcc_empty()\n{\n\tret;\n}\n");
  CudaGraph graph(stream, [&] {
    for (size_t k = 0; k < kernels; ++k) empty.launch("tcc_empty", device, 1, 32, nullptr, stream);
  });
  graph.launch(stream);
  synchronize_stream(stream);
  std::vector<double> ms;
  for (int r = 0; r < replays; ++r) {
    auto start = std::chrono::steady_clock::now();
    graph.launch(stream);
    synchronize_stream(stream);
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

// Each sharded entry's shard, cut from the whole tensor: rank 0's, broadcast, as DDP's parameters
// are (a collective: every rank calls it); `from` names where they came from.
void cut_shards(const std::vector<InputSpec>& specs, std::vector<at::Tensor>& tensors, const std::string& from) {
  std::vector<at::Tensor> wholes;
  for (size_t i = 0; i < specs.size() && i < tensors.size(); ++i) {
    if (!specs[i].shard_of || !tensors[i].defined()) continue;
    if (tensors[i].sizes() != at::IntArrayRef(*specs[i].shard_of))
      throw LoadError(thundercc::str(from, ": '", specs[i].name, "' is sharded over the ranks (FSDP): give the whole ",
                                     shape_repr(*specs[i].shard_of), " tensor, of which each rank keeps its rows, not ",
                                     shape_repr(tensors[i].sizes().vec())));
    tensors[i] = tensors[i].clone();  // not the caller's: the broadcast writes into it
    wholes.push_back(tensors[i]);
  }
  broadcast_from_first_rank(wholes);
  for (size_t i = 0; i < specs.size() && i < tensors.size(); ++i)
    if (specs[i].shard_of && tensors[i].defined()) tensors[i] = rank_shard(tensors[i]);
}

// The sharded entries gathered whole again, on every rank (a collective: every rank calls it).
std::vector<at::Tensor> wholes(const std::vector<InputSpec>& specs, std::vector<at::Tensor> tensors) {
  for (size_t i = 0; i < specs.size() && i < tensors.size(); ++i)
    if (specs[i].shard_of && tensors[i].defined()) tensors[i] = gather_whole(tensors[i], *specs[i].shard_of);
  return tensors;
}

// The gradients of the inputs that require grad, in input order, whole (FSDP's shards gathered):
// what capture.py --grad writes.
std::vector<at::Tensor> input_grads(const Plan& plan, const std::vector<at::Tensor>& grads) {
  std::vector<InputSpec> specs;
  std::vector<at::Tensor> out;
  for (size_t i = 0; i < plan.inputs().size() && i < grads.size(); ++i)
    if (plan.inputs()[i].meta.requires_grad) {
      specs.push_back(plan.inputs()[i]);
      out.push_back(grads[i]);
    }
  return wholes(specs, std::move(out));
}

// Time per instruction (its median over the timed runs, as the run's own figure is: one run that a
// busy machine stalls would otherwise be charged to whichever instructions it stalled, most often
// the longest products), its share of the program's time, and the rate of each matrix product and
// convolution (GFLOP/s, to hold against the machine's FMA peak); then the products' share and rate.
void print_profile(const std::string& program, const PlanRunner& runner, const std::vector<std::vector<double>>& runs_ns) {
  auto median = [](std::vector<double> xs) {
    std::sort(xs.begin(), xs.end());
    return xs.empty() ? 0.0 : xs[xs.size() / 2];
  };
  const size_t instructions = runner.instructions().size();
  std::vector<double> instruction_ns(instructions), run_totals;
  for (size_t i = 0; i < instructions; ++i) {
    std::vector<double> across;
    for (const auto& run : runs_ns) across.push_back(run[i]);
    instruction_ns[i] = median(std::move(across));
  }
  for (const auto& run : runs_ns) run_totals.push_back(std::accumulate(run.begin(), run.end(), 0.0));
  const double total = std::accumulate(instruction_ns.begin(), instruction_ns.end(), 0.0);
  double product_ns = 0, product_flops = 0;
  if (!program.empty()) std::printf("%s: %.3f ms per run (median)\n", program.c_str(), median(run_totals) / 1e6);
  std::printf("%10s  %6s  %8s  %s\n", "us/run", "share", "GFLOP/s", "statement");
  const auto& spans = runner.last_timed_run();
  for (size_t i = 0; i < instructions; ++i) {
    std::string statement = runner.instructions()[i].statement;
    statement = statement.substr(0, statement.find("  #"));
    const double ns = instruction_ns[i], flops = i < spans.size() ? spans[i].flops : 0;
    char rate[32] = "";
    if (flops > 0 && ns > 0) std::snprintf(rate, sizeof rate, "%.1f", flops / ns);
    if (flops > 0) product_ns += ns, product_flops += flops;
    std::printf("%10.2f  %5.1f%%  %8s  %s\n", ns / 1e3, total > 0 ? 100 * ns / total : 0.0, rate, statement.c_str());
  }
  if (product_ns > 0)
    std::printf("matrix products and convolutions: %.1f%% of the time, %.1f GFLOP/s\n", 100 * product_ns / total, product_flops / product_ns);
}

// Whether the program writes into its inputs (functionalization's write-backs, prims.copy_).
bool writes_inputs(const PlanRunner& program) {
  return std::any_of(program.instructions().begin(), program.instructions().end(),
                     [](const Instruction& i) {
                       static const std::string suffix = "prims.copy_";
                       return i.op.size() >= suffix.size() && i.op.compare(i.op.size() - suffix.size(), suffix.size(), suffix) == 0;
                     });
}

// The cores this process may run on: its affinity mask (what taskset or a container allows).
int available_cores() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) return std::max(1, CPU_COUNT(&set));
  return std::max(1u, std::thread::hardware_concurrency());
}

// "{step}" in a path: the training step's number, from 0.
std::string for_step(std::string path, int64_t step) {
  for (size_t at = path.find("{step}"); at != std::string::npos; at = path.find("{step}", at)) path.replace(at, 6, std::to_string(step));
  return path;
}

// The inputs a training run carries from step to step, rather than reading them per step: the
// optimizer's parameters and the module's other state (its buffers: a batch norm's statistics),
// in input order.
std::vector<size_t> carried_inputs(Plan& plan) {
  std::vector<size_t> out;
  for (size_t i = 0; i < plan.inputs().size(); ++i)
    if (!plan.inputs()[i].fqn.empty() ||
        std::find(plan.parameters().begin(), plan.parameters().end(), static_cast<int64_t>(i)) != plan.parameters().end())
      out.push_back(i);
  return out;
}

// A training checkpoint (run --checkpoint, --resume), as PyTorch's own are saved:
//   {"model": the module's parameters and buffers by state_dict key (model.load_state_dict takes it),
//    "inputs": the other carried inputs (they require grad without being a module's), by name,
//    "optimizer": torch.optim's state_dict() of the plan's optimizer (SGD: a momentum buffer per
//                 parameter; AdamW: two averages and the step count), its load_state_dict takes it,
//    "step": the steps done}
// Sharded tensors (FSDP) are whole, so that a checkpoint does not depend on the world size.
constexpr int64_t kMostSteps = int64_t{1} << 40;  // --steps and a checkpoint's count: no sum of two overflows

struct Checkpoint {
  std::vector<at::Tensor> carried, state;
  int64_t steps = 0;
};

std::vector<InputSpec> checkpoint_specs(Plan& plan, const std::vector<size_t>& carried) {
  std::vector<InputSpec> specs;
  for (size_t i : carried) specs.push_back(plan.inputs()[i]);
  for (const auto& s : plan.optimizer_state()) specs.push_back(s);
  specs.push_back({"steps done", 0, TensorMeta{{}, dtypes::int64, Device{}, false}, {}});
  return specs;
}

// Where the optimizer's state input k (optimizer_step.cpp's order: per parameter, SGD's momentum
// buffer or AdamW's two averages; then AdamW's one step count) lives in torch.optim's state: the
// parameter's number (-1: every parameter's) and the key.
std::pair<int64_t, std::string> optimizer_state_key(Plan& plan, size_t k) {
  if (plan.optimizer().starts_with("torch.optim.SGD")) return {static_cast<int64_t>(k), "momentum_buffer"};
  if (k == 2 * plan.parameters().size()) return {-1, "step"};
  return {static_cast<int64_t>(k / 2), k % 2 == 0 ? "exp_avg" : "exp_avg_sq"};
}

// torch.optim's param_groups entry for the plan's optimizer, read off its description
// (Optimizer::describe: "torch.optim.AdamW(lr=0.001, betas=(0.9, 0.999), eps=1e-08, weight_decay=0.01)"),
// with PyTorch 1.13's other defaults.
c10::impl::GenericDict param_group(Plan& plan) {
  const std::string& text = plan.optimizer();
  std::map<std::string, std::vector<double>> values;
  auto open = text.find('('), close = text.rfind(')');
  std::string args = text.substr(open + 1, close - open - 1);
  for (size_t at = 0; at < args.size();) {
    auto equals = args.find('=', at);
    std::string key = args.substr(at, equals - at);
    key.erase(0, key.find_first_not_of(", "));
    size_t end = args[equals + 1] == '(' ? args.find(')', equals) + 1 : std::min(args.find(',', equals), args.size());
    std::string value = args.substr(equals + 1, end - equals - 1);
    std::erase(value, '(');
    std::erase(value, ')');
    std::stringstream numbers(value);
    for (std::string number; std::getline(numbers, number, ',');) values[key].push_back(std::stod(number));
    at = end;
  }
  c10::impl::GenericDict group(c10::StringType::get(), c10::AnyType::get());
  auto number = [&](const char* key) { return values.at(key).at(0); };
  bool sgd = text.starts_with("torch.optim.SGD");
  group.insert("lr", number("lr"));
  if (sgd) {
    group.insert("momentum", number("momentum"));
    group.insert("dampening", int64_t{0});
    group.insert("weight_decay", number("weight_decay"));
    group.insert("nesterov", false);
    group.insert("maximize", false);
    group.insert("foreach", c10::IValue());
    group.insert("differentiable", false);
  } else {
    group.insert("betas", c10::ivalue::Tuple::create({values.at("betas").at(0), values.at("betas").at(1)}));
    group.insert("eps", number("eps"));
    group.insert("weight_decay", number("weight_decay"));
    group.insert("amsgrad", false);
    group.insert("foreach", c10::IValue());
    group.insert("maximize", false);
    group.insert("capturable", false);
  }
  c10::impl::GenericList params(c10::AnyType::get());  // (a List[int] would need one more global to be read back)
  for (size_t k = 0; k < plan.parameters().size(); ++k) params.push_back(static_cast<int64_t>(k));
  group.insert("params", params);
  return group;
}

void write_checkpoint(const std::string& path, Plan& plan, const std::vector<size_t>& carried, const std::vector<at::Tensor>& inputs,
                      const std::vector<at::Tensor>& state, int64_t steps) {
  std::vector<at::Tensor> tensors;
  for (size_t i : carried) tensors.push_back(inputs[i]);
  tensors.insert(tensors.end(), state.begin(), state.end());
  tensors = wholes(checkpoint_specs(plan, carried), std::move(tensors));
  c10::impl::GenericDict model(c10::StringType::get(), c10::TensorType::get()), named(c10::StringType::get(), c10::TensorType::get());
  for (size_t k = 0; k < carried.size(); ++k) {
    const InputSpec& spec = plan.inputs()[carried[k]];
    for (const std::string& key : spec.fqn) model.insert(key, as_stored(tensors[k]));  // a tied weight under each of its keys
    if (spec.fqn.empty()) named.insert(spec.name, as_stored(tensors[k]));
  }
  c10::impl::GenericDict per_parameter(c10::IntType::get(), c10::AnyType::get());
  for (size_t k = 0; k < plan.parameters().size(); ++k) {
    c10::impl::GenericDict entry(c10::StringType::get(), c10::AnyType::get());
    // SGD without momentum keeps None there, as torch.optim does.
    if (plan.optimizer().starts_with("torch.optim.SGD")) entry.insert("momentum_buffer", c10::IValue());
    per_parameter.insert(static_cast<int64_t>(k), entry);
  }
  for (size_t k = 0; k < state.size(); ++k) {
    auto [parameter, key] = optimizer_state_key(plan, k);
    at::Tensor value = as_stored(tensors[carried.size() + k]);
    // AdamW's one step count becomes each parameter's own tensor, as torch.optim increments each.
    for (size_t p = 0; p < plan.parameters().size(); ++p)
      if (parameter < 0 || static_cast<size_t>(parameter) == p)
        per_parameter.at(static_cast<int64_t>(p)).toGenericDict().insert_or_assign(key, parameter < 0 ? value.clone() : value);
  }
  c10::impl::GenericDict optimizer(c10::StringType::get(), c10::AnyType::get());
  optimizer.insert("state", per_parameter);
  c10::impl::GenericList groups(c10::AnyType::get());
  groups.push_back(param_group(plan));
  optimizer.insert("param_groups", groups);
  c10::impl::GenericDict checkpoint(c10::StringType::get(), c10::AnyType::get());
  checkpoint.insert("model", model);
  checkpoint.insert("inputs", named);
  checkpoint.insert("optimizer", optimizer);
  checkpoint.insert("step", steps);
  write_pickled(path, checkpoint);
}

// The checkpoint's tensors in checkpoint_specs' order, each found by its key or name.
std::vector<at::Tensor> named_checkpoint_tensors(const c10::impl::GenericDict& file, const std::string& path, Plan& plan,
                                                 const std::vector<size_t>& carried) {
  auto entry = [&](const c10::impl::GenericDict& dict, const std::string& where, const c10::IValue& key) -> c10::IValue {
    auto found = dict.find(key);
    if (found == dict.end())
      throw LoadError(thundercc::str(path, ": the checkpoint has no ", where, " ", key.isString() ? "'" + key.toStringRef() + "'" : std::to_string(key.toInt()),
                                     ", which this plan trains"));
    return found->value();
  };
  auto section = [&](const char* name) {
    c10::IValue v = entry(file, "section", std::string(name));
    if (!v.isGenericDict()) throw LoadError(thundercc::str(path, ": the checkpoint's '", name, "' is not a dict"));
    return v.toGenericDict();
  };
  std::vector<at::Tensor> tensors;
  auto tensor = [&](const c10::IValue& v, const std::string& what) {
    if (!v.isTensor()) throw LoadError(thundercc::str(path, ": the checkpoint's ", what, " is not a tensor"));
    tensors.push_back(v.toTensor());
  };
  c10::impl::GenericDict model = section("model"), named = section("inputs");
  for (size_t i : carried) {
    const InputSpec& spec = plan.inputs()[i];
    if (spec.fqn.empty()) tensor(entry(named, "input", spec.name), "input '" + spec.name + "'");
    else tensor(entry(model, "state_dict key", spec.fqn.front()), "'" + spec.fqn.front() + "'");
  }
  c10::impl::GenericDict optimizer = section("optimizer");
  c10::IValue per_parameter = entry(optimizer, "optimizer entry", std::string("state"));
  for (size_t k = 0; k < plan.optimizer_state().size(); ++k) {
    auto [parameter, key] = optimizer_state_key(plan, k);
    c10::IValue state = per_parameter.isGenericDict() ? entry(per_parameter.toGenericDict(), "optimizer state of parameter", std::max<int64_t>(parameter, 0))
                                                      : c10::IValue();
    if (!state.isGenericDict()) throw LoadError(thundercc::str(path, ": the checkpoint's optimizer state is not torch.optim's"));
    tensor(entry(state.toGenericDict(), "optimizer state", key), "optimizer state '" + key + "'");
  }
  c10::IValue steps = entry(file, "entry", std::string("step"));
  if (!steps.isInt()) throw LoadError(thundercc::str(path, ": the checkpoint's step is not a whole number"));
  tensors.push_back(at::scalar_tensor(steps.toInt(), at::kLong));
  return tensors;
}

Checkpoint read_checkpoint(const std::string& path, Plan& plan, const std::vector<size_t>& carried) {
  const std::vector<InputSpec> entries = checkpoint_specs(plan, carried);
  const std::vector<InputSpec> specs = as_given(entries);
  c10::IValue file = read_pickled(path);
  if (!file.isGenericDict())
    throw LoadError(thundercc::str(path, ": not a training checkpoint (run --checkpoint writes a dict of model, inputs, optimizer and step)"));
  std::vector<at::Tensor> tensors = named_checkpoint_tensors(file.toGenericDict(), path, plan, carried);
  check_tensors(tensors, specs, [&](size_t k) {
    return thundercc::str(path, ": checkpoint entry ", k, " (", specs[k].name, ") was written for another plan: it");
  });
  cut_shards(entries, tensors, path);
  Checkpoint out;
  out.carried.assign(tensors.begin(), tensors.begin() + static_cast<std::ptrdiff_t>(carried.size()));
  out.state.assign(tensors.begin() + static_cast<std::ptrdiff_t>(carried.size()), tensors.end() - 1);
  out.steps = tensors.back().item<int64_t>();
  if (out.steps < 0 || out.steps > kMostSteps)
    throw LoadError(thundercc::str(path, ": the checkpoint says ", out.steps, " steps were done; a count from 0 to ", kMostSteps, " was expected"));
  return out;
}

// run --weights: a state_dict's tensors, by key, into the inputs that are the module's parameters
// and buffers (Plan::set_weights: strict).
void load_weights(const StateDict& state_dict, const std::string& where, Plan& plan, std::vector<at::Tensor>& inputs) {
  plan.set_weights(state_dict, where);
  for (size_t i = 0; i < inputs.size(); ++i)
    if (plan.weights()[i].defined()) inputs[i] = plan.weights()[i];
}

// run --profile-json: the last timed run as Chrome trace events, which chrome://tracing and
// Perfetto open: one complete event ("X") per instruction, the forward on thread 1 and the
// backward on thread 2, each with its op, executor and statement, and a counter ("C") of the
// memory the caching allocator held after each.
void write_profile_json(const std::string& path, const std::string& plan_path, Plan& plan) {
  std::vector<std::pair<const char*, PlanRunner*>> programs{{"forward", &plan.forward_program()}};
  if (plan.backward_program()) programs.emplace_back("backward", plan.backward_program());
  const double origin = plan.forward_program().last_timed_run().empty() ? 0 : plan.forward_program().last_timed_run()[0].start_ns;
  nlohmann::json events = nlohmann::json::array();
  events.push_back({{"name", "process_name"}, {"ph", "M"}, {"pid", 1}, {"args", {{"name", "thundercc run " + plan_path}}}});
  for (size_t p = 0; p < programs.size(); ++p) {
    const auto& [name, runner] = programs[p];
    const int thread = static_cast<int>(p) + 1;
    events.push_back({{"name", "thread_name"}, {"ph", "M"}, {"pid", 1}, {"tid", thread}, {"args", {{"name", name}}}});
    const auto& spans = runner->last_timed_run();
    for (size_t i = 0; i < spans.size(); ++i) {
      const Instruction& ins = runner->instructions()[i];
      const double ts = (spans[i].start_ns - origin) / 1e3;
      std::string statement = ins.statement.substr(0, ins.statement.find("  #"));
      nlohmann::json args = {{"statement", statement}, {"executor", ins.executor}, {"index", i}};
      if (spans[i].flops > 0) args["GFLOP"] = spans[i].flops / 1e9;
      events.push_back({{"name", ins.op}, {"cat", name}, {"ph", "X"}, {"pid", 1}, {"tid", thread}, {"ts", ts},
                        {"dur", spans[i].duration_ns / 1e3}, {"args", std::move(args)}});
      events.push_back({{"name", "memory"}, {"ph", "C"}, {"pid", 1}, {"ts", ts + spans[i].duration_ns / 1e3},
                        {"args", {{"live MB", static_cast<double>(spans[i].live_bytes) / 1e6}}}});
    }
  }
  write_file_atomically(path, nlohmann::json{{"traceEvents", events}, {"displayTimeUnit", "ms"}}.dump(1) + "\n");
}

// Among ranks, whose message it is (torchrun prefixes only their standard output).
std::string rank_prefix() {
  const char* rank = std::getenv("RANK");
  return std::getenv("WORLD_SIZE") ? thundercc::str("rank ", rank ? rank : "?", ": ") : "";
}

bool report(const std::string& plan_path, const std::string& what, const std::vector<std::string>& problems) {
  // A wrong result usually shows in most tensors at once: the first few tell where to look.
  constexpr size_t kShown = 10;
  for (size_t i = 0; i < std::min(problems.size(), kShown); ++i)
    std::fprintf(stderr, "error: %s%s: %s: %s\n", rank_prefix().c_str(), plan_path.c_str(), what.c_str(), problems[i].c_str());
  if (problems.size() > kShown)
    std::fprintf(stderr, "error: %s%s: %s: %zu more %s\n", rank_prefix().c_str(), plan_path.c_str(), what.c_str(), problems.size() - kShown,
                 problems.size() - kShown == 1 ? "differs" : "differ");
  return problems.empty();
}

// The first instruction of the running programs that draws random values, or null.
const Instruction* first_random_instruction(Plan& plan) {
  for (PlanRunner* runner : {&plan.forward_program(), plan.backward_program()})
    if (runner)
      for (const Instruction& ins : runner->instructions())
        if (ins.stream) return &ins;
  return nullptr;
}

// `actual` against the file `expected_path`, and against the float64 reference capture wrote beside
// it (NAME.expected64.pt beside NAME.expected.pt, NAME.grads64.pt beside NAME.grads.pt) where there
// is one: the elements it alone matched are printed, so that a user sees where eager float32 is off.
std::vector<std::string> compare_with_reference(const std::vector<at::Tensor>& actual, const std::string& expected_path,
                                                std::string_view suffix, std::string_view reference_suffix, std::string_view noun,
                                                const RunOptions& o) {
  std::string reference_path;
  if (expected_path.size() > suffix.size() && std::string_view(expected_path).substr(expected_path.size() - suffix.size()) == suffix)
    reference_path = expected_path.substr(0, expected_path.size() - suffix.size()) + std::string(reference_suffix);
  const bool has_reference = !reference_path.empty() && std::filesystem::exists(reference_path);
  const std::vector<at::Tensor> expected = read_optional_tensor_file(expected_path);
  const std::vector<at::Tensor> reference = has_reference ? read_optional_tensor_file(reference_path) : std::vector<at::Tensor>{};
  Comparison found = compare_outputs(actual, expected, o.rtol, o.atol, reference, noun);
  for (const auto& note : found.notes)
    std::printf("%s%s: %s (judged against %s)\n", rank_prefix().c_str(), o.plan_path.c_str(), note.c_str(), reference_path.c_str());
  return found.problems;
}

// The last run's outputs and gradients: compared (--expect, --expect-inputs, --expect-grads), then
// written (--outputs, --grads-out).
int finish(Plan& plan, const RunOptions& o, const std::vector<at::Tensor>& inputs, const std::vector<at::Tensor>& outputs,
           const std::vector<at::Tensor>& grads) {
  bool ok = true;
  // Gathered once, on every rank alike (FSDP's gathers are collectives).
  const std::vector<at::Tensor> whole_grads =
      (o.expect_grads_path + o.grads_out_path).empty() ? std::vector<at::Tensor>{} : input_grads(plan, grads);
  const std::vector<at::Tensor> whole_inputs = o.expect_inputs_path.empty() ? std::vector<at::Tensor>{} : wholes(plan.inputs(), inputs);
  if (!o.expect_path.empty()) {
    ok = report(o.plan_path, "outputs", compare_with_reference(outputs, o.expect_path, ".expected.pt", ".expected64.pt", "output", o)) && ok;
    if (ok) std::printf("%s: outputs match %s\n", o.plan_path.c_str(), o.expect_path.c_str());
  }
  if (!o.expect_inputs_path.empty()) {
    bool inputs_ok = report(o.plan_path, "inputs after the run",
                            compare_outputs(whole_inputs, read_tensor_file(o.expect_inputs_path, {}), o.rtol, o.atol, {}, "input").problems);
    if (inputs_ok) std::printf("%s: inputs after the run match %s\n", o.plan_path.c_str(), o.expect_inputs_path.c_str());
    ok = ok && inputs_ok;
  }
  if (!o.expect_grads_path.empty()) {
    bool grads_ok = report(o.plan_path, "gradients", compare_with_reference(whole_grads, o.expect_grads_path, ".grads.pt", ".grads64.pt", "gradient", o));
    if (grads_ok) std::printf("%s: gradients match %s\n", o.plan_path.c_str(), o.expect_grads_path.c_str());
    ok = ok && grads_ok;
  }
  if (!ok) {
    // Eager's draws and the plan's differ (as Thunder's do): a program with dropout or stochastic
    // depth on cannot match what capture saved.
    if (const Instruction* random = first_random_instruction(plan))
      std::fprintf(stderr, "note: %s%s draws random values (first: `%s`%s%s), which eager drew otherwise: its results cannot match "
                   "the saved ones; capture the program with its randomness off (model.eval(), dropout p=0) to compare\n",
                   rank_prefix().c_str(), o.plan_path.c_str(), random->statement.substr(0, random->statement.find("  #")).c_str(),
                   random->source.empty() ? "" : " at ", random->source.c_str());
    return 1;
  }
  if (!o.outputs_path.empty()) write_tensor_file(o.outputs_path, outputs);
  if (!o.grads_out_path.empty()) write_tensor_file(o.grads_out_path, whole_grads);
  return 0;
}

int run(const RunOptions& o) {
  // What the run writes can be written: checked before the work (every step), not after it.
  for (const std::string* written : {&o.outputs_path, &o.grads_out_path, &o.checkpoint_path, &o.profile_json_path})
    if (!written->empty()) check_output_path(*written);
  // A plan.json, or a package of a plan and the module's weights (thundercc package).
  PlanFile file = read_plan_or_package(o.plan_path);
  if (file.packaged && o.trust_kernels)
    throw LoadError(o.plan_path + ": a package holds no kernels to trust: run builds them from its plan (leave out --trust-kernels)");
  const plan::Plan& decoded = file.plan;
  for (const auto& plugin : o.plugins) load_plugin(plugin, &KernelRegistry::global());
  if (decoded.world_size && decoded.world_size != world_size())
    throw LoadError(thundercc::str(o.plan_path, ": the plan shards its parameters over ", decoded.world_size,
                                   " ranks (compile --distributed fsdp --world-size ", decoded.world_size, "), but runs on ", world_size(),
                                   world_size() == 1 ? " (one process: WORLD_SIZE is unset or 1)" : ""));
  // A distributed plan (its programs communicate) runs on ranks given the same plan.
  const bool distributed = plan::uses_collectives(decoded);
  if (o.cuda_graphs) {
    std::string why;
    for (const auto& line : plan::graph_capture_blockers(decoded)) why += "\n  " + line;
    if (!why.empty()) throw LoadError(o.plan_path + ": --cuda-graphs cannot record this plan's step as a CUDA graph:" + why);
  }
  if (distributed) {
    std::vector<int> cuda_devices;  // of the plan's inputs, each once
    for (const plan::Program* program : decoded.programs())
      for (const auto& in : program->inputs)
        if (in.tensor.device.type == Device::Type::CUDA &&
            std::find(cuda_devices.begin(), cuda_devices.end(), in.tensor.device.index) == cuda_devices.end())
          cuda_devices.push_back(in.tensor.device.index);
    place_this_rank(cuda_devices);
    join_ranks(sha256_hex(read_file(o.plan_path, limits::kTraceBytes)));
  }
  install_caching_allocator();
  // ATen, oneDNN and the generated kernels share these threads (LibTorch alone would take one
  // where OMP_NUM_THREADS is unset).
  if (o.threads) at::set_num_threads(*o.threads);
  else if (!std::getenv("OMP_NUM_THREADS")) at::set_num_threads(available_cores());
  Plan plan(decoded, o.plan_path, {.emulate_cuda = o.cuda_emulate, .trust_kernels = o.trust_kernels});
  if (o.seed) plan.set_seed(static_cast<uint64_t>(*o.seed));
  if (o.steps && !plan.has_optimizer())
    throw LoadError(o.plan_path + ": --steps trains with the plan's optimizer, and it has none: compile it with --optimizer sgd|adamw");
  // Training: the optimizer's state starts as zeros, or as a checkpoint left it.
  const std::vector<size_t> carried = carried_inputs(plan);
  const std::vector<InputSpec> given_specs = as_given(plan.inputs());
  std::optional<Checkpoint> resumed;
  std::optional<Graphed> graphed;  // made once the inputs are on the device
  if (!o.resume_path.empty()) {
    resumed = read_checkpoint(o.resume_path, plan, carried);
    plan.set_steps_done(static_cast<uint64_t>(resumed->steps));
  }
  const int64_t first_step = resumed ? resumed->steps : 0;
  // A batch per step: every step's file exists before the first step runs.
  if (o.steps && o.inputs_path.find("{step}") != std::string::npos)
    for (int64_t s = first_step; s < first_step + o.steps; ++s)
      if (!std::filesystem::exists(for_step(o.inputs_path, s)))
        throw LoadError(thundercc::str(for_step(o.inputs_path, s), ": no such file, and step ", s, " reads it (--steps ", o.steps,
                                       " from step ", first_step, ")"));
  std::vector<at::Tensor> inputs;
  // The inputs a file gives when the module's parameters and buffers come from elsewhere (the
  // steps before, a checkpoint, --weights): its batch. The file holds every input (the others in it
  // are ignored) or only these.
  std::vector<size_t> batch_inputs;
  std::vector<InputSpec> batch_specs;
  for (size_t i = 0; i < plan.inputs().size(); ++i)
    if (std::find(carried.begin(), carried.end(), i) == carried.end()) {
      batch_inputs.push_back(i);
      batch_specs.push_back(plan.inputs()[i]);
    }
  // The inputs checked against the plan; an error names the file they came from, then `hint`.
  auto check_inputs = [&](const std::string& path, const std::string& hint) {
    try {
      plan.check_inputs(inputs);
    } catch (const ThunderError& e) {
      throw LoadError(thundercc::str(path.empty() ? o.plan_path : path, ": ", e.what(), hint));
    }
  };
  auto read_batch = [&](int64_t s) {
    const std::string path = for_step(o.inputs_path, s);
    std::vector<at::Tensor> batch = path.empty() ? fill_inputs(batch_specs, o.fill, o.seed.value_or(0)) : read_tensor_file(path, batch_specs);
    const bool whole = batch.size() == plan.inputs().size() && batch.size() != batch_inputs.size();
    if (!whole && batch.size() != batch_inputs.size())
      throw LoadError(thundercc::str(path, ": holds ", batch.size(), " tensors: the program's ", plan.inputs().size(), " inputs, or the ",
                                     batch_inputs.size(), " that are not the module's parameters and buffers, were expected"));
    for (size_t k = 0; k < batch_inputs.size(); ++k) {
      const InputSpec& spec = plan.inputs()[batch_inputs[k]];
      at::Tensor t = batch[whole ? batch_inputs[k] : k];
      at::Tensor& input = inputs[batch_inputs[k]];
      if (graphed && graphed->graph) input.copy_(t);  // into the tensor the graph reads
      else input = spec.meta.device.is_cpu() ? t : t.to(to_aten(spec.meta.device));
    }
    check_inputs(path, "");
  };
  // The module's weights: --weights, else a package's own.
  const std::string weights_from = !o.weights_path.empty() ? o.weights_path : file.packaged ? o.plan_path : "";
  if (resumed || !weights_from.empty()) {
    inputs = fill_inputs(given_specs, "zeros", 0);
    if (!weights_from.empty())
      load_weights(!o.weights_path.empty() ? read_state_dict(o.weights_path) : file.weights, weights_from, plan, inputs);
    cut_shards(plan.inputs(), inputs, weights_from);
    if (resumed)
      for (size_t k = 0; k < carried.size(); ++k) inputs[carried[k]] = resumed->carried[k];
    read_batch(first_step);
  } else {
    // "{step}" in the path: a file per training step, from 0.
    const std::string path = for_step(o.inputs_path, first_step);
    inputs = path.empty() ? fill_inputs(given_specs, o.fill, o.seed.value_or(0))
                          : on_devices(read_tensor_file(path, given_specs), given_specs);
    const bool only_batch = !carried.empty() && inputs.size() == batch_inputs.size();
    if (inputs.size() == given_specs.size()) cut_shards(plan.inputs(), inputs, path.empty() ? o.plan_path : path);
    check_inputs(path, only_batch ? " (the file holds the inputs other than the module's parameters and buffers: give those with "
                                    "--weights FILE, what torch.save(model.state_dict()) wrote)"
                                  : "");
  }
  // A distributed plan starts from rank 0's parameters (the inputs that require grad; FSDP's were
  // broadcast whole before each rank cut its shard); before each step, the module's buffers (a
  // batch norm's statistics) become rank 0's, as DistributedDataParallel's broadcast_buffers makes them.
  std::vector<size_t> buffer_inputs;
  for (size_t i : carried)
    if (!plan.inputs()[i].meta.requires_grad && !plan.inputs()[i].fqn.empty()) buffer_inputs.push_back(i);
  auto synchronize_buffers = [&] {
    if (!distributed || world_size() == 1) return;
    std::vector<at::Tensor> buffers;
    for (size_t i : buffer_inputs) buffers.push_back(inputs[i]);
    broadcast_from_first_rank(std::move(buffers));
  };
  if (distributed) {
    if (world_size() == 1 && decoded.world_size != 1) {
      std::fprintf(stderr, "thundercc run: %s is data parallel, but runs alone (one process: WORLD_SIZE is unset or 1): its gradients "
                   "are this process's, averaged over no other rank\n", o.plan_path.c_str());
    } else {
      std::vector<at::Tensor> parameters;
      for (size_t i = 0; i < plan.inputs().size(); ++i)
        if (plan.inputs()[i].meta.requires_grad && !plan.inputs()[i].shard_of) parameters.push_back(inputs[i]);
      broadcast_from_first_rank(parameters);
    }
  }
  if (!plan.has_backward() && !(o.cotangents_path + o.grads_out_path + o.expect_grads_path).empty())
    throw LoadError(o.plan_path + ": the plan has no backward (no input of the trace requires grad), so it computes no gradients");
  // A dynamic plan compiled for these inputs' sizes (whose cotangents and programs follow).
  try {
    plan.specialize(inputs);
  } catch (const ThunderError& e) {
    throw LoadError(thundercc::str(o.inputs_path.empty() ? o.plan_path : o.inputs_path, ": ", e.what()));
  }
  // Without --cotangents, every output's gradient is seeded with ones (for a scalar loss, d loss).
  std::vector<at::Tensor> cotangents = o.cotangents_path.empty() ? fill_inputs(plan.cotangents(), "ones", 0)
                                                                 : on_devices(read_tensor_file(o.cotangents_path, plan.cotangents()), plan.cotangents());

  at::NoGradGuard no_grad;
  std::vector<at::Tensor> grads;
  std::vector<at::Tensor> outputs;
  if (o.cuda_graphs) graphed.emplace(plan_cuda_device(plan.inputs()));
  // Records a step (with the optimizer's update of `state`, when given) as the graph the later
  // ones replay: nothing runs while it is recorded.
  auto record = [&](std::vector<at::Tensor>* state) {
    graphed->graph = std::make_unique<CudaGraph>(graphed->stream.handle(), [&] {
      graphed->outputs = step(plan, inputs, cotangents, graphed->grads, nullptr, nullptr);
      if (state) plan.update(inputs, graphed->grads, *state);
    });
  };
  auto replay = [&] {
    graphed->graph->launch(graphed->stream.handle());
    outputs = graphed->outputs;
    grads = graphed->grads;
  };
  if (o.steps) {
    std::vector<at::Tensor> state = resumed ? resumed->state : fill_inputs(plan.optimizer_state(), "zeros", 0);
    const bool batches = o.inputs_path.find("{step}") != std::string::npos;
    std::vector<double> step_ms;
    for (int64_t s = first_step; s < first_step + o.steps; ++s) {
      if (batches && s != first_step) read_batch(s);
      auto started = std::chrono::steady_clock::now();
      if (graphed && graphed->graph) {
        replay();
      } else {
        synchronize_buffers();
        outputs = step(plan, inputs, cotangents, grads, nullptr, nullptr);
        plan.update(inputs, grads, state);
      }
      wait_for_devices(plan.inputs());
      step_ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count());
      // The loss: the first output, where it is one number; then the step's time (its batch's reading aside).
      if (!outputs.empty() && outputs[0].defined() && outputs[0].numel() == 1)
        std::printf("step %lld: loss %.9g, %.3f ms\n", static_cast<long long>(s), outputs[0].item<double>(), step_ms.back());
      else
        std::printf("step %lld: %.3f ms\n", static_cast<long long>(s), step_ms.back());
      std::fflush(stdout);
      if (graphed && !graphed->graph) record(&state);  // after the first step, which warmed the stream's allocations up
    }
    if (!o.checkpoint_path.empty()) write_checkpoint(o.checkpoint_path, plan, carried, inputs, state, first_step + o.steps);
    std::vector<double> sorted = step_ms;
    std::sort(sorted.begin(), sorted.end());
    std::printf("%s: %lld step%s of %s: %.3f ms per step (median; min %.3f, max %.3f), %.3f s in all\n", o.plan_path.c_str(),
                static_cast<long long>(o.steps), o.steps == 1 ? "" : "s", plan.optimizer().c_str(), sorted[sorted.size() / 2], sorted.front(), sorted.back(),
                std::accumulate(step_ms.begin(), step_ms.end(), 0.0) / 1e3);
    return finish(plan, o, inputs, outputs, grads);
  }
  // A program that modifies its inputs gets them as given at every run, so runs agree.
  std::vector<at::Tensor> given;
  if (writes_inputs(plan.forward_program()) && o.warmup + std::max(o.repeat, 1) > 1)
    for (const auto& t : inputs) given.push_back(t.clone());
  auto restore = [&] {
    for (size_t i = 0; i < given.size(); ++i) inputs[i].copy_(given[i]);
  };
  for (int i = 0; i < (graphed ? std::max(o.warmup, 1) : o.warmup); ++i) {  // a graph records a warm run
    restore();
    synchronize_buffers();
    outputs = step(plan, inputs, cotangents, grads, nullptr, nullptr);  // held, as a caller would, while the next run starts
  }
  wait_for_devices(plan.inputs());
  if (graphed) record(nullptr);
  std::vector<double> run_ns;
  std::vector<std::vector<double>> forward_ns, backward_ns;  // per timed run, per instruction
  size_t live_before = allocator_stats().live_bytes;  // inputs, the arenas, the last warm-up's outputs
  reset_allocator_peak();
  reset_communication_stats();
  for (int i = 0; i < std::max(o.repeat, 1); ++i) {
    restore();
    auto start = std::chrono::steady_clock::now();
    const bool timed = o.profile || !o.profile_json_path.empty();
    if (graphed) {
      replay();
    } else {
      synchronize_buffers();
      if (timed) {
        forward_ns.emplace_back(plan.forward_program().instructions().size(), 0.0);
        backward_ns.emplace_back(plan.has_backward() ? plan.backward_program()->instructions().size() : 0, 0.0);
      }
      outputs = step(plan, inputs, cotangents, grads, timed ? &forward_ns.back() : nullptr, timed ? &backward_ns.back() : nullptr);
    }
    wait_for_devices(plan.inputs());
    run_ns.push_back(std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count());
  }
  std::vector<double> sorted = run_ns;
  std::sort(sorted.begin(), sorted.end());
  const size_t instructions = plan.forward_program().instructions().size();
  std::string program = thundercc::str(o.plan_path, ": ", instructions, instructions == 1 ? " instruction" : " instructions",
                                       plan.has_backward() ? " (forward) and a backward" : "");
  if (run_ns.size() == 1 && o.warmup == 0)
    // A first run pays for first touches of memory and caches: not what a served plan costs.
    std::printf("%s, 1 cold run: %.3f ms (--warmup W --repeat N times steady runs)\n", program.c_str(), run_ns.front() / 1e6);
  else
    std::printf("%s, %zu runs after %d warm-up: median %.3f ms, min %.3f ms, max %.3f ms\n", program.c_str(), run_ns.size(), o.warmup,
                sorted[sorted.size() / 2] / 1e6, sorted.front() / 1e6, sorted.back() / 1e6);
  if (graphed) {
    const CudaGraph& graph = *graphed->graph;
    const double floor = empty_launches_ms(plan_cuda_device(plan.inputs()), graphed->stream.handle(), graph.kernels(), static_cast<int>(run_ns.size()));
    std::printf("CUDA graph: %zu nodes, %zu kernel launches; its replay's median is %.2fx that of %zu empty kernels' graph (%.3f ms)\n",
                graph.nodes(), graph.kernels(), sorted[sorted.size() / 2] / 1e6 / floor, graph.kernels(), floor);
  }
  if (distributed && world_size() > 1) {
    const CommunicationStats c = communication_stats();
    const double runs = static_cast<double>(run_ns.size());
    std::printf("communication per run: %.0f collectives, %.3f MB over %s (this rank's payload: all-reduced, broadcast, or gathered)\n",
                c.collectives / runs, c.bytes / runs / 1e6, backend_name());
  }
  if (!o.profile_json_path.empty()) write_profile_json(o.profile_json_path, o.plan_path, plan);
  if (o.profile) {
    AllocatorStats memory = allocator_stats();
    // Working memory: what a run holds beyond its inputs and the previous run's outputs, the arenas
    // included (benchmarks/peak_memory.py measures eager's the same way).
    int64_t arenas = plan.forward_program().arena_bytes() + (plan.has_backward() ? plan.backward_program()->arena_bytes() : 0);
    std::printf("memory: working peak %.1f MB (arena %.1f MB), %.1f MB newly taken in blocks of 1 MB and more during the timed runs\n",
                (memory.peak_live_bytes - live_before + arenas) / 1e6, arenas / 1e6, memory.fresh_bytes / 1e6);
    print_profile(plan.has_backward() ? "forward" : "", plan.forward_program(), forward_ns);
    if (plan.has_backward()) print_profile("backward", *plan.backward_program(), backward_ns);
  }
  return finish(plan, o, inputs, outputs, grads);
}

}  // namespace
}  // namespace thundercc::runtime

extern "C" int thundercc_run_main(int argc, char** argv) {
  using namespace thundercc;
  runtime::register_builtin_kernels();
  runtime::RunOptions o;
  CLI::App app{"thundercc run: execute a plan with LibTorch"};
  const CLI::Validator path = cli::non_empty_path();
  app.add_option("plan", o.plan_path, "a plan.json written by thundercc compile")->required();
  auto* inputs = app.add_option("--inputs", o.inputs_path, "inputs saved by torch.save: a list in signature order, or a dict by name")->check(path);
  app.add_option("--fill", o.fill, "without --inputs: random (the default: seeded by --seed, or 0), zeros or ones")
      ->check(CLI::IsMember({"random", "zeros", "ones"}))->excludes(inputs);
  // Tolerances: finite and not negative (NaN would make every comparison match).
  const CLI::Validator non_negative = cli::finite_number_from(0);
  app.add_option("--seed", o.seed, "seed of the plan's random ops (default: the one it records) and of --fill random (default: 0)")
      ->check(cli::whole_number(0, INT64_MAX));
  app.add_option("--outputs", o.outputs_path, "write the outputs (a list, for torch.load)")->check(path);
  app.add_option("--expect", o.expect_path, "compare the outputs with these (torch.save'd list)")->check(path);
  app.add_option("--cotangents", o.cotangents_path, "gradients of the outputs for the backward (torch.save'd; default: ones)")->check(path);
  app.add_option("--grads-out", o.grads_out_path, "write the gradients of the inputs that require grad (a tuple, None where none flows)")->check(path);
  app.add_option("--expect-inputs", o.expect_inputs_path,
                 "compare the inputs after the run with these (capture.py --save-io writes NAME.inputs_after.pt for a "
                 "program that modifies its inputs in place)")->check(path);
  app.add_option("--expect-grads", o.expect_grads_path, "compare the gradients with these (capture.py --grad writes NAME.grads.pt)")->check(path);
  app.add_option("--rtol", o.rtol, "relative tolerance (default: Thunder's, by dtype)")->check(non_negative);
  app.add_option("--atol", o.atol, "absolute tolerance (default: Thunder's, by dtype)")->check(non_negative);
  app.add_option("--repeat", o.repeat, "timed runs")->check(CLI::PositiveNumber);
  app.add_option("--warmup", o.warmup, "untimed runs first")->check(CLI::NonNegativeNumber);
  app.add_flag("--profile", o.profile, "print the time of each instruction (its median over the timed runs)");
  app.add_option("--profile-json", o.profile_json_path,
                 "write the last timed run as Chrome trace events (chrome://tracing, Perfetto): an event per instruction, forward "
                 "and backward, and the memory held after each")->check(path);
  app.add_option("--threads", o.threads,
                 "threads for ATen, oneDNN and the generated kernels (default: OMP_NUM_THREADS where set, else every core the "
                 "process may use)")
      ->check(cli::whole_number(1, 1024));
  app.add_option("--plugin", o.plugins, "a plugin library to load (repeatable)");
  auto* steps = app.add_option("--steps", o.steps,
                                "train N steps with the plan's optimizer (compile --optimizer), printing the loss of each; "
                                "--inputs may name a batch per step with {step} (from 0), parameters kept from step to step")
                    ->check(CLI::Range(int64_t{1}, runtime::kMostSteps))->excludes(app.get_option("--repeat"))->excludes(app.get_option("--warmup"))
                    ->excludes(app.get_option("--profile"))->excludes(app.get_option("--profile-json"));
  app.add_option("--checkpoint", o.checkpoint_path, "after the steps, write the parameters, the optimizer's state and the steps done")->check(path)
      ->needs(steps);
  auto* weights = app.add_option("--weights", o.weights_path,
                 "the module's parameters and buffers by name, from what torch.save(module.state_dict()) wrote (strict: a "
                 "missing, extra or mismatched key is an error); --inputs then holds the other inputs")->check(path);
  app.add_option("--resume", o.resume_path, "start from a checkpoint: its parameters, buffers and optimizer state, at the step after its last")->check(path)
      ->needs(steps)->excludes(weights);
  app.add_flag("--trust-kernels", o.trust_kernels,
               "load the kernel libraries compiled beside the plan (native code from whoever wrote it) instead of building its "
               "fusion regions' kernels here");
  auto* cuda_graphs = app.add_flag("--cuda-graphs", o.cuda_graphs,
               "record the step once as a CUDA graph and replay it (a plan on one CUDA device, with no random op, host read or "
               "collective: refused otherwise, naming what keeps it from being recorded); after its warm-up, timed runs and steps replay it, "
               "and the graph's kernels are timed against as many empty kernels")
      ->excludes(app.get_option("--profile"))->excludes(app.get_option("--profile-json"));
  app.add_flag("--cuda-emulate", o.cuda_emulate,
               "run the fusion regions' CUDA kernels on the CPU under the emulator, as the driver would launch them (a plan compiled with --emit-cuda)")
      ->excludes(cuda_graphs);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  try {
    // Under torchrun each rank reads and writes its own files: "{rank}" in a path becomes its rank.
    for (std::string* path : {&o.plan_path, &o.inputs_path, &o.outputs_path, &o.expect_path, &o.cotangents_path, &o.grads_out_path,
                              &o.expect_inputs_path, &o.expect_grads_path, &o.checkpoint_path, &o.resume_path, &o.weights_path, &o.profile_json_path})
      for (size_t at = path->find("{rank}"); at != std::string::npos; at = path->find("{rank}", at))
        path->replace(at, 6, std::to_string(runtime::rank()));
    return runtime::run(o);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s%s\n", runtime::rank_prefix().c_str(), e.what());
    return 1;
  }
}
