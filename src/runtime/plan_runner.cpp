#include "thundercc/runtime/plan_runner.h"

#include <chrono>

#include <ATen/ATen.h>

#include <algorithm>
#include <cstdlib>
#include <set>
#include <stdexcept>
#include <unordered_set>

#include "runtime/caching_allocator.h"
#include "runtime/fused_kernels.h"
#include "runtime/linear_epilogue.h"
#include "thundercc/errors.h"
#include "thundercc/extend.h"
#include "thundercc/plan/memory_plan.h"
#include "thundercc/plan/plan_codec.h"
#include "thundercc/runtime/package.h"
#include "thundercc/plan/plan.h"
#include "thundercc/driver/specialize.h"
#include "thundercc/support/files.h"

namespace thundercc::runtime {
namespace {

// An instruction's argument as kernels read it: a slot, slots, or a constant.
BoundArg bind_arg(const plan::Operand& o) {
  BoundArg arg;
  switch (o.kind) {
    case plan::Operand::Kind::Slot:
      arg.kind = BoundArg::Kind::Slot;
      arg.slot = o.slot;
      break;
    case plan::Operand::Kind::Tuple:
    case plan::Operand::Kind::List:
      arg.kind = BoundArg::Kind::Slots;
      for (const auto& x : o.items) arg.slots.push_back(x.slot);  // the codec made each a slot
      break;
    default: arg.constant = o.constant; break;
  }
  return arg;
}

// The output's tensors in order; -1 for a None among them (a gradient that does not flow).
void collect_output_slots(const plan::Operand& o, std::vector<int>& out) {
  if (o.kind == plan::Operand::Kind::Slot) out.push_back(o.slot);
  else if (o.kind == plan::Operand::Kind::Constant && o.constant.is_none()) out.push_back(-1);
  else
    for (const auto& x : o.items) collect_output_slots(x, out);
}

std::string describe(const at::Tensor& t) {
  std::string shape;
  for (int64_t d = 0; d < t.dim(); ++d) shape += (d ? ", " : "") + std::to_string(t.size(d));
  return from_aten(t.device()).str() + " " + std::string(from_aten(t.scalar_type()).short_name()) + "[" + shape + "]";
}

}  // namespace

PlanRunner::PlanRunner(const plan::Program& program, const std::string& where, const FusedKernels* kernels, bool channels_last)
    : where_(where), channels_last_(channels_last) {
  // The codec checked every slot against the program's slot count.
  num_slots_ = static_cast<size_t>(program.slots);
  for (size_t i = 0; i < program.inputs.size(); ++i) {
    const plan::Input& in = program.inputs[i];
    inputs_.push_back({in.name, in.slot, in.tensor, in.fqn, in.shard_of});
    if (in.tensor.device.type == Device::Type::CUDA && !at::hasCUDA())  // before any tensor is made for it
      throw LoadError(where + ": /inputs/" + std::to_string(i) + "/tensor: the plan runs on " + in.tensor.device.str() +
                      ", but this LibTorch was built without CUDA");
  }
  free_at_start_ = program.free_at_start;
  std::unordered_set<int> input_slots;  // for KernelCall::is_program_input
  for (const auto& in : inputs_) input_slots.insert(in.slot);
  for (size_t i = 0; i < program.instructions.size(); ++i) {
    const plan::Instruction& j = program.instructions[i];
    std::string at = "/instructions/" + std::to_string(i);
    Instruction ins;
    ins.op = j.op;
    ins.channels_last = channels_last;
    if (j.fusion) {
      if (!kernels) throw LoadError(where + ": " + at + "/fusion: the plan has no generated kernels");
      fused_kernels_.push_back(std::make_unique<Kernel>(kernels->kernel(*j.fusion, at + "/fusion", where)));
      ins.kernel = fused_kernels_.back().get();
    } else {
      ins.kernel = KernelRegistry::global().find(ins.op);
    }
    if (!ins.kernel) {
      std::string plugin = j.executor.empty() ? "" : ExecutorRegistry::global().plugin_of(j.executor);
      throw LoadError(where + ": " + at + "/op: no kernel for '" + ins.op + "'" +
                      (j.executor.empty() || j.executor == "torch" ? ""
                       : plugin.empty() ? " (load the plugin of executor '" + j.executor + "' with --plugin)"
                                        : " (the plugin " + plugin + " is loaded and has executor '" + j.executor +
                                              "', but registers no kernel under this id: its kernels->add must use the operator's id)"));
    }
    ins.expect = j.expect;
    ins.executor = j.executor;
    for (const auto& a : j.args) {
      ins.args.push_back(bind_arg(a));
      const BoundArg& bound = ins.args.back();
      ins.input_args.push_back(bound.kind == BoundArg::Kind::Slot && input_slots.count(bound.slot));
    }
    for (const auto& [key, value] : j.kwargs) ins.kwargs.emplace_back(key, bind_arg(value));
    if (j.stream) ins.stream = stream_id(*j.stream);
    ins.source = j.source;
    ins.outputs = j.outputs;
    ins.free = j.free;
    ins.statement = j.statement;
    ins.fresh = j.fresh;
    instructions_.push_back(std::move(ins));
  }
  epilogues_.resize(instructions_.size());
  if (at::hasCUDA())
    for (const plan::EpiloguePair& pair : plan::linear_epilogues(program))
      epilogues_[pair.linear] =
          std::make_shared<const LinearEpilogue>(pair.activation, *instructions_[pair.linear].kernel, *instructions_[pair.linear + 1].kernel);
  collect_output_slots(program.output, output_slots_);
  slots_.resize(num_slots_);
  bind_arena(program, where);
}

void PlanRunner::check_inputs(const std::vector<at::Tensor>& inputs) const { check_against(inputs_, inputs); }

void check_against(const std::vector<InputSpec>& specs, const std::vector<at::Tensor>& inputs) {
  if (inputs.size() != specs.size()) {
    std::string names, missing;
    for (size_t i = 0; i < specs.size(); ++i) {
      names += (i ? ", " : "") + specs[i].name;
      if (i >= inputs.size()) missing += (missing.empty() ? "" : ", ") + specs[i].name;
    }
    throw ThunderError("RuntimeError", thundercc::str("the plan takes ", specs.size(), " inputs (", names, "), but got ", inputs.size(),
                                                      missing.empty() ? thundercc::str(": ", inputs.size() - specs.size(), " too many")
                                                                      : ": missing " + missing));
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    const auto& spec = specs[i];
    const at::Tensor& t = inputs[i];
    bool ok = t.defined() && has_shape(t, spec) && t.scalar_type() == to_aten(spec.meta.dtype) && from_aten(t.device()) == spec.meta.device;
    if (!ok)
      throw ThunderError("RuntimeError", thundercc::str("input '", spec.name, "': expected ", spec.type_string(), ", but got ",
                                             t.defined() ? describe(t) : std::string("nothing")));
  }
}

bool PlanRunner::in_arena(const at::Tensor& t) const {
  if (!t.defined() || !t.has_storage() || !t.storage().data()) return false;
  auto* p = static_cast<const uint8_t*>(t.storage().data());
  auto* base = static_cast<const uint8_t*>(arena_.data_ptr());
  return p >= base && p < base + arena_.numel();
}

void PlanRunner::bind_arena(const plan::Program& program, const std::string& where) {
  if (!program.arena) return;
  int64_t arena_bytes = program.arena->bytes;
  // On the device of its buffers (the plan builder plans one device's tensors: a program's on the
  // GPU, or the CPU).
  Device device = Device::cpu();
  for (const auto& j : program.instructions)
    for (const auto& b : j.buffers)
      if (b && device.is_cpu()) device = b->tensor.device;
  try {
    arena_ = at::empty({arena_bytes}, at::TensorOptions().dtype(at::kByte).device(to_aten(device)));
  } catch (const c10::Error& e) {
    throw LoadError(thundercc::str(where, ": /arena/bytes: cannot allocate the plan's arena of ", arena_bytes, " bytes on ", device.str()));
  }
  auto* base = static_cast<uint8_t*>(arena_.data_ptr());
  for (size_t i = 0; i < program.instructions.size(); ++i) {
    const auto& buffers = program.instructions[i].buffers;
    Instruction& ins = instructions_[i];
    ins.buffers.resize(buffers.size());
    for (size_t k = 0; k < buffers.size(); ++k) {
      if (!buffers[k]) continue;
      int64_t offset = buffers[k]->offset;
      const TensorMeta& meta = buffers[k]->tensor;
      // Every buffer lies inside the arena: a bad plan is an error, never a write out of bounds.
      if (!(meta.device == device) || offset < 0 || offset % MemoryPlan::kAlignment != 0 || meta.bytes() > arena_bytes - offset)
        throw LoadError(thundercc::str(where, ": /instructions/", i, "/buffers/", k, ": a ", meta.type_string(), " at offset ", offset,
                                       " does not lie in the arena of ", arena_bytes, " bytes on ", device.str()));
      ins.buffers[k] = at::from_blob(base + offset, meta.shape, at::TensorOptions().dtype(to_aten(meta.dtype)).device(to_aten(device)));
    }
  }
}

namespace {

// The flops of a matrix product (2 M N K, over its batch) or a convolution (2 per multiply-add of
// each output element, or of each input element when transposed), from its operands and result
// after its kernel ran; 0 for any other operator, whichever executor claimed it.
double product_flops(const Instruction& ins, const KernelCall& call, const std::vector<at::Tensor>& slots) {
  const std::string_view op = std::string_view(ins.op).substr(ins.op.find(':') + 1);
  if (ins.outputs.empty() || ins.outputs[0] < 0 || call.size() < 2 || !call.arg(0).is_tensor() || !call.arg(1).is_tensor()) return 0;
  const at::Tensor& out = slots[ins.outputs[0]];
  if (!out.defined()) return 0;
  const at::Tensor a = call.arg(0).tensor(), b = call.arg(1).tensor();
  const double outputs = static_cast<double>(out.numel());
  if (op == "torch.matmul" || op == "prims.matmul" || op == "torch.bmm" || op == "torch.mm" || op == "torch.nn.functional.linear" ||
      op == "prims.linear")
    return a.dim() == 0 ? 0 : 2 * outputs * static_cast<double>(a.size(-1));
  const bool convolution = op.starts_with("torch.nn.functional.conv") || op == "prims.convolution" || op == "torch.convolution";
  if (!convolution || b.dim() < 3 || b.size(0) == 0) return 0;
  const double per_output = static_cast<double>(b.numel() / b.size(0));  // input channels per group x kernel
  bool transposed = op.starts_with("torch.nn.functional.conv_transpose");
  if (op == "prims.convolution" || op == "torch.convolution") transposed = call.size() > 6 && call.arg(6).flag();
  return 2 * (transposed ? static_cast<double>(a.numel()) : outputs) * per_output;
}

}  // namespace

std::vector<at::Tensor> PlanRunner::run(const std::vector<at::Tensor>& inputs, std::vector<double>* instruction_ns) {
  // Plans compute values, never gradients: inference mode skips autograd's bookkeeping per op.
  // Results kept across runs (a prologue's) are made outside it, so that they keep a version.
  c10::InferenceMode inference(!versioned_results_);
  at::NoGradGuard no_grad;
  for (size_t i = 0; i < inputs_.size(); ++i) slots_[inputs_[i].slot] = inputs[i];
  for (int s : free_at_start_) slots_[s].reset();
  const uint64_t draw_seed = mix_seed(seed_, runs_++);
  if (instruction_ns) spans_.assign(instructions_.size(), {});
  bool made_before = false;  // this instruction's outputs were made with the one before (its epilogue)
  for (size_t i = 0; i < instructions_.size(); ++i) {
    const Instruction& ins = instructions_[i];
    KernelCall call(ins, slots_, draw_seed);
    bool with_next = false;  // this linear made the next instruction's outputs, and never its own
    auto execute = [&] {
      if (made_before) return;
      if (epilogues_[i]) {
        KernelCall next(instructions_[i + 1], slots_, draw_seed);
        with_next = epilogues_[i]->run(call, next);
      }
      if (!with_next) (*ins.kernel)(call);
    };
    try {
      if (instruction_ns) {
        auto start = std::chrono::steady_clock::now();
        execute();
        auto end = std::chrono::steady_clock::now();
        (*instruction_ns)[i] += std::chrono::duration<double, std::nano>(end - start).count();
        spans_[i] = {std::chrono::duration<double, std::nano>(start.time_since_epoch()).count(),
                     std::chrono::duration<double, std::nano>(end - start).count(), allocator_stats().live_bytes,
                     product_flops(ins, call, slots_)};
      } else {
        execute();
      }
    } catch (const c10::Error& e) {
      fail(i, e.what_without_backtrace());
    } catch (const std::exception& e) {
      fail(i, e.what());
    }
    made_before = with_next;
    for (size_t k = 0; k < ins.buffers.size() && !with_next; ++k)
      if (ins.buffers[k].defined() &&
          (!slots_[ins.outputs[k]].defined() || slots_[ins.outputs[k]].data_ptr() != ins.buffers[k].data_ptr()))
        fail(i, thundercc::str("its kernel did not write output ", k, " into the buffer the plan gave it (operators tagged ", kOutBuffer,
                               " must)"));
    for (size_t k = 0; k < ins.expect.size() && !with_next; ++k) {
      if (!ins.expect[k]) continue;
      const at::Tensor& out = slots_[ins.outputs[k]];
      const TensorMeta& m = *ins.expect[k];
      // A plugin's kernel is blamed; a built-in one computes what ATen computes for these
      // arguments, so the plan's record is what is wrong.
      const std::string blame = ExecutorRegistry::global().plugin_of(ins.executor).empty()
                                    ? "the plan records another type than its kernel computes from these arguments: was the plan edited?"
                                    : "the kernel of plugin executor '" + ins.executor + "' is wrong";
      if (!out.defined()) fail(i, thundercc::str("its kernel set no output ", k, ", which the statement makes ", m.type_string(), " (", blame, ")"));
      if (out.dim() != static_cast<int64_t>(m.shape.size()) || !std::equal(m.shape.begin(), m.shape.end(), out.sizes().begin()) ||
          out.scalar_type() != to_aten(m.dtype) || !(from_aten(out.device()) == m.device))
        fail(i, thundercc::str("its kernel returned output ", k, " as ", describe(out), ", but the statement makes ", m.type_string(), " (", blame, ")"));
    }
    if (ins.fresh && arena_.defined())
      for (size_t k = 0; k < ins.outputs.size(); ++k)
        if (ins.outputs[k] >= 0 && in_arena(slots_[ins.outputs[k]]))
          fail(i, thundercc::str("output ", k, " is a view of a planned buffer, but its operator is tagged ", kFreshOutputs));
    for (int s : ins.free) slots_[s].reset();
  }
  std::vector<at::Tensor> outputs;
  outputs.reserve(output_slots_.size());
  for (int s : output_slots_) {
    at::Tensor t = s < 0 ? at::Tensor() : slots_[s];
    // A result the runtime kept channels-last is returned contiguous, as eager returns it.
    if (channels_last_ && t.defined() && is_channels_last(t))
      t = t.contiguous();
    outputs.push_back(std::move(t));
  }
  for (auto& s : slots_) s.reset();
  return outputs;
}

namespace {

// "cpu i64[4] with values in [-1, 12]": what an argument was, for an error message. Integer
// tensors show their range, which is what an index out of range needs.
std::string describe_argument(const at::Tensor& t) {
  if (!t.defined()) return "nothing (the slot holds no tensor)";
  std::string out = describe(t);
  if (t.numel() > 0 && at::isIntegralType(t.scalar_type(), false))
    out += thundercc::str(" with values in [", t.min().item<int64_t>(), ", ", t.max().item<int64_t>(), "]");
  return out;
}

}  // namespace

void PlanRunner::fail(size_t index, const std::string& problem) const {
  const Instruction& ins = instructions_[index];
  std::string message = problem.substr(0, problem.find('\n'));  // ATen's first line, without its C++ context
  std::string statement = ins.statement.substr(0, ins.statement.find("  #"));
  std::string arguments;
  auto add = [&](const std::string& name, const BoundArg& arg) {
    if (arg.kind != BoundArg::Kind::Slot) return;
    arguments += "\n  " + name + ": " + describe_argument(slots_[arg.slot]);
  };
  for (size_t k = 0; k < ins.args.size(); ++k) add("argument " + std::to_string(k), ins.args[k]);
  for (const auto& [key, arg] : ins.kwargs) add(key, arg);
  std::string source = ins.source.empty() ? "" : "\n  at " + ins.source;
  throw ThunderError("RuntimeError",
                     thundercc::str(where_, ": /instructions/", index, ": ", statement, ": ", message, arguments, source));
}

namespace {

std::unique_ptr<FusedKernels> load_kernels(const plan::Plan& plan, const std::string& where, KernelOptions options) {
  auto fuses = [](const plan::Program* p) {
    return std::any_of(p->instructions.begin(), p->instructions.end(), [](const plan::Instruction& i) { return i.fusion.has_value(); });
  };
  const auto programs = plan.programs();
  if (std::none_of(programs.begin(), programs.end(), fuses)) return nullptr;
  return std::make_unique<FusedKernels>(plan, where, options);
}

// The plugin executors the plan names, loaded and of the version it was compiled with.
const plan::Plan& with_plugins_checked(const plan::Plan& plan, const std::string& where) {
  for (const auto& [name, version] : plan.plugins) {
    const Executor* ex = ExecutorRegistry::global().find(name);
    if (!ex)
      throw LoadError(thundercc::str(where, ": the plan needs plugin executor '", name, "' ", version,
                                     "; load it with --plugin LIB (from C++: thundercc::load_plugin)"));
    if (ex->version() != version)
      throw LoadError(thundercc::str(where, ": the plan needs executor '", name, "' version ", version, ", but the loaded plugin has ", ex->version()));
  }
  return plan;
}

std::string quoted_list(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "'" : ", '") + n + "'";
  return out;
}

std::vector<std::string> names_of(const std::vector<InputSpec>& specs) {
  std::vector<std::string> names;
  for (const auto& s : specs) names.push_back(s.name);
  return names;
}

}  // namespace

std::unique_ptr<Plan> Plan::load(const std::string& path, KernelOptions kernels) {
  register_builtin_kernels();
  PlanFile file = read_plan_or_package(path);
  if (file.packaged && kernels.trust_kernels) throw LoadError(path + ": a package holds no kernels to trust: its plan's are built here");
  auto plan = std::make_unique<Plan>(file.plan, path, kernels);
  if (file.packaged) plan->set_weights(file.weights, path);
  return plan;
}

Plan::Plan(const plan::Plan& plan, const std::string& where, KernelOptions options)
    : kernels_(load_kernels(with_plugins_checked(plan, where), where, options)),
      forward_(plan.forward, where, kernels_.get(), /*channels_last=*/!plan.backward),
      inputs_(forward_.inputs()) {
  if (plan.prologue) {
    prologue_.emplace(plan.prologue->program, where + " (prologue)", kernels_.get());
    prologue_->keep_versions();
    prologue_reads_ = plan.prologue->reads;
    std::vector<int> computed;  // the prologue's results: the forward's last inputs
    collect_output_slots(plan.prologue->program.output, computed);
    if (computed.size() > inputs_.size())
      throw LoadError(thundercc::str(where, ": the prologue computes ", computed.size(), " inputs of a forward that takes ", inputs_.size()));
    inputs_.resize(inputs_.size() - computed.size());
  }
  if (plan.backward) {
    backward_.emplace(*plan.backward, where + " (backward)", kernels_.get());
    num_saved_ = static_cast<size_t>(plan.backward->saved);
  }
  if (plan.update) {
    update_.emplace(plan.update->program, where + " (optimizer)", kernels_.get());
    parameters_ = plan.update->parameters;
    optimizer_ = plan.update->optimizer;
  }
  set_seed(static_cast<uint64_t>(plan.seed));
  where_ = where;
  kernel_options_ = options;
  if (plan.dynamic) {
    dynamic_ = plan.dynamic;
    name_ = plan.name;
    // A plan specialized from the trace is given the caller's inputs by position: the trace must
    // take them in the plan's order.
    std::vector<std::string> traced;
    for (const auto& in : plan.dynamic->trace.at("inputs")) traced.push_back(in.at("name").get<std::string>());
    if (traced != names_of(inputs_))
      throw LoadError(thundercc::str(where, ": /dynamic/trace/inputs: the symbolic trace takes ", quoted_list(traced), ", but the plan takes ",
                                     quoted_list(names_of(inputs_)), ": at other sizes its inputs would be bound to other tensors"));
    own_sizes_ = hint_binding(plan.dynamic->symbols);
    for (const auto& s : plan.dynamic->symbols) {
      auto input = std::find_if(inputs_.begin(), inputs_.end(), [&](const InputSpec& spec) { return spec.name == s.input; });
      if (input == inputs_.end() || s.dim >= static_cast<int64_t>(input->meta.shape.size()))
        throw LoadError(thundercc::str(where, ": /dynamic: ", s.describe(), " is not a dimension of an input the plan takes"));
      input->dynamic_dims.emplace_back(s.dim, s.name);
      symbols_.emplace_back(s, static_cast<size_t>(input - inputs_.begin()));
    }
  }
}

SizeBinding Plan::sizes_of(const std::vector<at::Tensor>& inputs) const {
  SizeBinding sizes;
  std::map<std::string, std::string> read_from;
  for (const auto& [s, i] : symbols_) {
    // A missing input or one of another rank: check_against names the problem.
    if (i >= inputs.size() || !inputs[i].defined() || inputs[i].dim() <= s.dim) return own_sizes_;
    const int64_t size = inputs[i].size(s.dim);
    if (size < s.min || size > s.max)
      throw ThunderError("ValueError", thundercc::str("input '", s.input, "': dimension ", s.dim, " is ", size, ", outside the range of ", s.describe()));
    auto [known, fresh] = sizes.emplace(s.name, size);
    if (!fresh && known->second != size)
      throw ThunderError("ValueError", thundercc::str("input '", s.input, "': dimension ", s.dim, " is ", size, ", but ", s.name, " is ",
                                                      known->second, " (", read_from[s.name], ")"));
    read_from.emplace(s.name, thundercc::str(s.input, ".shape[", s.dim, "]"));
  }
  return sizes;
}

size_t Plan::default_specialized_limit() {
  const char* text = std::getenv("THUNDERCC_SPECIALIZED_PLANS");
  if (!text || !*text) return 16;
  char* end = nullptr;
  const long long plans = std::strtoll(text, &end, 10);
  if (end == text || *end != '\0' || plans < 1 || plans > 1000000)
    throw LoadError(thundercc::str("THUNDERCC_SPECIALIZED_PLANS is '", text, "': a whole number from 1 to 1000000 was expected"));
  return static_cast<size_t>(plans);
}

void Plan::specialize(const std::vector<at::Tensor>& inputs) {
  if (symbols_.empty()) return;
  SizeBinding sizes = sizes_of(inputs);
  if (sizes == own_sizes_) {
    active_ = this;
    return;
  }
  auto known = specialized_.find(sizes);
  if (known == specialized_.end()) {
    // At most specialized_limit_ kept: the one used longest ago goes first.
    while (!specialized_.empty() && specialized_.size() >= specialized_limit_)
      specialized_.erase(std::min_element(specialized_.begin(), specialized_.end(), [](const auto& a, const auto& b) {
        return a.second.last_used < b.second.last_used;
      }));
    std::string at;
    for (const auto& [name, value] : sizes) at += thundercc::str(at.empty() ? " at " : ", ", name, " = ", value);
    // The plan's own kernels were compiled for its sizes: these are built here.
    auto made = std::make_unique<Plan>(specialize_plan(*dynamic_, name_, sizes, where_ + at), where_ + at,
                                       KernelOptions{kernel_options_.emulate_cuda, false});
    made->set_seed(seed_);
    made->set_steps_done(steps_done_);
    known = specialized_.emplace(std::move(sizes), Specialized{std::move(made), 0}).first;
  }
  known->second.last_used = ++specializations_;
  active_ = known->second.plan.get();
}

void Plan::set_weights(const std::vector<std::pair<std::string, at::Tensor>>& state_dict, const std::string& where) {
  if (std::none_of(inputs().begin(), inputs().end(), [](const InputSpec& s) { return !s.fqn.empty(); }))
    throw LoadError(where + ": the plan has no parameters or buffers by name: weights by name need a program captured from an nn.Module");
  std::map<std::string, at::Tensor> by_key(state_dict.begin(), state_dict.end());
  std::vector<at::Tensor> weights(inputs().size());
  std::vector<std::string> missing;
  std::set<std::string> used;
  for (size_t i = 0; i < inputs().size(); ++i) {
    const InputSpec& spec = inputs()[i];
    if (spec.fqn.empty()) continue;
    for (const auto& key : spec.fqn) {
      used.insert(key);
      if (!by_key.count(key)) missing.push_back(key);
    }
    if (!by_key.count(spec.fqn[0])) continue;
    std::vector<at::Tensor> one{by_key[spec.fqn[0]]};
    check_tensors(one, as_given({spec}), [&](size_t) { return thundercc::str(where, ": '", spec.fqn[0], "' (the plan's ", spec.name, ")"); });
    weights[i] = one[0];
  }
  std::vector<std::string> extra;
  for (const auto& [key, tensor] : by_key)
    if (!used.count(key)) extra.push_back(key);
  // Every key with one prefix more than the plan's (DistributedDataParallel's "module."): said once.
  if (!missing.empty() && missing.size() == extra.size() && extra[0].size() > missing[0].size()) {
    const std::string prefix = extra[0].substr(0, extra[0].find('.') + 1);
    if (!prefix.empty() && std::all_of(extra.begin(), extra.end(), [&](const std::string& k) {
          return k.rfind(prefix, 0) == 0 && std::find(missing.begin(), missing.end(), k.substr(prefix.size())) != missing.end();
        }))
      throw LoadError(thundercc::str(where, ": every key of the state_dict has the prefix '", prefix, "' the plan's do not (",
                                     extra[0], " for ", extra[0].substr(prefix.size()),
                                     "): save the wrapped module's state_dict (ddp.module.state_dict()), or strip the prefix"));
  }
  if (!missing.empty() || !extra.empty())
    throw LoadError(thundercc::str(where, ": the state_dict does not fit the plan:", missing.empty() ? "" : " missing keys " + quoted_list(missing),
                                   !missing.empty() && !extra.empty() ? ";" : "", extra.empty() ? "" : " unexpected keys " + quoted_list(extra)));
  // A state_dict may hold one tensor under the keys of two of the plan's parameters (tied in the
  // module that saved it, not in the one captured). load_state_dict copies into each parameter;
  // so does this, or the plan's in-place updates would reach that one tensor twice a step.
  std::map<const void*, size_t> holder_of;  // a storage's first weight
  for (size_t i = 0; i < weights.size(); ++i) {
    if (!weights[i].defined() || weights[i].storage().nbytes() == 0) continue;
    auto [it, first] = holder_of.emplace(weights[i].storage().data(), i);
    if (!first) weights[i] = weights[i].clone();
  }
  std::lock_guard<std::mutex> lock(running_);
  weights_ = std::move(weights);
}

std::vector<at::Tensor> Plan::run(const std::map<std::string, at::Tensor>& named) {
  std::lock_guard<std::mutex> lock(running_);
  std::vector<at::Tensor> args(inputs().size());
  std::vector<std::string> missing, names, others;  // others: the inputs that are not weights
  size_t given = 0;
  for (size_t i = 0; i < inputs().size(); ++i) {
    const std::string& name = inputs()[i].name;
    names.push_back(name);
    if (inputs()[i].fqn.empty()) others.push_back(name);
    if (auto it = named.find(name); it != named.end()) {
      args[i] = it->second;
      ++given;
    } else if (i < weights_.size() && weights_[i].defined()) {
      args[i] = weights_[i];
    } else {
      missing.push_back(name);
    }
  }
  if (given != named.size()) {
    std::vector<std::string> unknown;
    for (const auto& [name, tensor] : named)
      if (std::find(names.begin(), names.end(), name) == names.end()) unknown.push_back(name);
    throw LoadError(thundercc::str("the plan has no input ", quoted_list(unknown), " (its inputs other than the module's weights: ",
                                   quoted_list(others), ")"));
  }
  if (!missing.empty()) {
    // The module's tensors missing because set_weights was not called: said once, not named one by one.
    std::vector<std::string> others_missing;
    for (const auto& name : missing)
      if (std::find(others.begin(), others.end(), name) != others.end()) others_missing.push_back(name);
    if (others_missing.size() < missing.size())
      throw LoadError(thundercc::str("the module's parameters and buffers were not given: call set_weights first",
                                     others_missing.empty() ? "" : thundercc::str("; and the input", others_missing.size() > 1 ? "s " : " ",
                                                                                  quoted_list(others_missing), " not given")));
    throw LoadError(thundercc::str("the plan's input", missing.size() > 1 ? "s " : " ", quoted_list(missing), " not given"));
  }
  return forward(args);
}

void Plan::set_seed(uint64_t seed) {
  seed_ = seed;
  forward_.set_seed(seed);
  if (backward_) backward_->set_seed(seed);
  for (auto& [sizes, kept] : specialized_) kept.plan->set_seed(seed);
}

void Plan::set_steps_done(uint64_t steps) {
  steps_done_ = steps;
  forward_.set_runs(steps);
  if (backward_) backward_->set_runs(steps);
  for (auto& [sizes, kept] : specialized_) kept.plan->set_steps_done(steps);
}

std::vector<InputSpec> Plan::optimizer_state() const {
  if (!update_) return {};
  return std::vector<InputSpec>(update_->inputs().begin() + static_cast<std::ptrdiff_t>(2 * parameters_.size()), update_->inputs().end());
}

void Plan::update(const std::vector<at::Tensor>& inputs, const std::vector<at::Tensor>& grads, const std::vector<at::Tensor>& state) {
  if (!update_) throw ThunderError("RuntimeError", "the plan has no optimizer: compile it with --optimizer sgd|adamw");
  std::vector<at::Tensor> args;
  for (int64_t i : parameters_) args.push_back(inputs.at(static_cast<size_t>(i)));
  for (int64_t i : parameters_) {
    const at::Tensor& g = grads.at(static_cast<size_t>(i));
    if (!g.defined())
      throw ThunderError("RuntimeError", thundercc::str("the optimizer's step needs every parameter's gradient, but ", forward_.inputs()[i].name,
                                                        " gets none (torch.optim would skip it; capture it without requires_grad)"));
    args.push_back(g);
  }
  args.insert(args.end(), state.begin(), state.end());
  update_->check_inputs(args);
  update_->run(args);
}

Plan::~Plan() = default;

std::vector<InputSpec> Plan::cotangents() const {
  if (active_ != this) return active_->cotangents();
  if (!backward_) return {};
  return std::vector<InputSpec>(backward_->inputs().begin() + static_cast<std::ptrdiff_t>(num_saved_), backward_->inputs().end());
}

void Plan::check_inputs(const std::vector<at::Tensor>& inputs) const {
  check_against(inputs_, inputs);
  sizes_of(inputs);
}

std::vector<at::Tensor> Plan::forward(const std::vector<at::Tensor>& given, std::vector<double>* instruction_ns) {
  check_inputs(given);  // every caller's (run, the embedding API, Python's compile()): a wrong shape refused naming the input
  specialize(given);
  if (active_ != this) return active_->forward(given, instruction_ns);
  std::vector<at::Tensor> with_computed;
  if (prologue_) {
    // Run again only when a tensor it reads is another one, or was written since (its version).
    // An inference tensor (made under c10::InferenceMode) has no version: it may have been
    // written, so the prologue runs every time one is read.
    std::vector<at::Tensor> read;
    std::vector<std::tuple<const void*, const void*, int64_t>> key;
    bool unversioned = false;
    for (int64_t i : prologue_reads_) {
      const at::Tensor& t = given.at(static_cast<size_t>(i));
      read.push_back(t);
      unversioned = unversioned || t.is_inference();
      key.emplace_back(t.unsafeGetTensorImpl(), t.data_ptr(), t.is_inference() ? 0 : static_cast<int64_t>(t._version()));
    }
    if (unversioned || key != prologue_key_ || prologue_results_.empty()) {
      prologue_->check_inputs(read);
      prologue_results_ = prologue_->run(read);
      prologue_key_ = std::move(key);
    }
    with_computed = given;
    with_computed.insert(with_computed.end(), prologue_results_.begin(), prologue_results_.end());
  }
  const std::vector<at::Tensor>& inputs = prologue_ ? with_computed : given;
  std::vector<at::Tensor> outputs = forward_.run(inputs, instruction_ns);
  if (!backward_) return outputs;
  if (outputs.size() < num_saved_)
    throw ThunderError("RuntimeError", thundercc::str("the forward returned ", outputs.size(), " tensors, fewer than the ", num_saved_, " it saves"));
  auto split = outputs.end() - static_cast<std::ptrdiff_t>(num_saved_);
  saved_.assign(split, outputs.end());
  outputs.erase(split, outputs.end());
  return outputs;
}

std::vector<at::Tensor> Plan::backward(const std::vector<at::Tensor>& cotangents, std::vector<double>* instruction_ns) {
  if (active_ != this) return active_->backward(cotangents, instruction_ns);
  if (!backward_) throw ThunderError("RuntimeError", "the plan has no backward: compile a trace whose inputs require grad");
  if (saved_.size() != num_saved_) throw ThunderError("RuntimeError", "backward: run the forward first");
  std::vector<at::Tensor> inputs = saved_;
  inputs.insert(inputs.end(), cotangents.begin(), cotangents.end());
  backward_->check_inputs(inputs);
  saved_.clear();
  return backward_->run(inputs, instruction_ns);
}

}  // namespace thundercc::runtime
