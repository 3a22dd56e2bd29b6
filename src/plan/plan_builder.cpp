#include <map>
#include <set>
#include <unordered_map>

#include "thundercc/errors.h"
#include "thundercc/executors/fuser/kernel_source.h"
#include "thundercc/executors/fuser/region_analysis.h"
#include "thundercc/extend.h"
#include "thundercc/ir/printer.h"
#include "thundercc/ir/rewrite.h"
#include "thundercc/langs/prims.h"
#include "thundercc/plan/memory_plan.h"
#include "thundercc/plan/plan.h"
#include "thundercc/serialize/value_codec.h"

namespace thundercc::plan {
namespace {

// Where the user wrote `b`: its own source, or (a fusion region's) its first statement's that has one.
std::string source_of(const BoundSymbol& b) {
  if (!b.source.empty()) return b.source;
  for (const auto& s : b.subsymbols)
    if (std::string inner = source_of(s); !inner.empty()) return inner;
  return "";
}

// The name of the value the first random op in `b` (itself, or a symbol it decomposes into) draws:
// the same whichever executor claimed the op, since executors rename no values.
std::optional<std::string> random_stream(const BoundSymbol& b) {
  for (const auto& s : b.subsymbols)
    if (auto inner = random_stream(s)) return inner;
  if (b.sym->has_tag("RANDOM_OP") && b.output.is_tensor()) return b.output.as_tensor().name();
  return std::nullopt;
}

class SlotAssigner {
 public:
  // Tensors on `arena_device` are planned into the program's arena, others allocated as they come.
  explicit SlotAssigner(Device arena_device) : arena_device_(arena_device) {}
  int slot_of(const Value& proxy) {
    auto [it, inserted] = slots_.emplace(proxy_key(proxy), static_cast<int>(slots_.size()));
    if (inserted) {
      memory_.push_back(memory_value(proxy));
      proxies_.push_back(proxy);
    }
    return it->second;
  }
  int lookup(const Value& proxy) const {
    auto it = slots_.find(proxy_key(proxy));
    check(it != slots_.end(), [&] { return str("plan: '", proxy_name(proxy), "' is used before it is defined"); });
    return it->second;
  }
  size_t size() const { return slots_.size(); }
  const std::vector<MemoryValue>& memory() const { return memory_; }
  const Value& proxy(int slot) const { return proxies_.at(slot); }

 private:
  // What memory planning needs of a slot: the bytes of a tensor on the arena's device (0 for anything else).
  MemoryValue memory_value(const Value& proxy) const {
    MemoryValue m;
    if (!proxy.is_tensor()) return m;
    const TensorMeta& meta = proxy.as_tensor().meta();
    m.shape = meta.shape;
    m.dtype = static_cast<int>(meta.dtype.type);
    m.bytes = meta.device == arena_device_ ? meta.bytes() : 0;
    return m;
  }

  Device arena_device_;

  std::unordered_map<const void*, int> slots_;
  std::vector<MemoryValue> memory_;
  std::vector<Value> proxies_;
};

// An argument or output over slots (number proxies by their values); a value with no proxy in it
// is one constant.
Operand operand(const Value& v, const std::function<int(const Value&)>& slot_of) {
  Operand o;
  if (v.is_tensor()) {
    o.kind = Operand::Kind::Slot;
    o.slot = slot_of(v);
    return o;
  }
  if (v.is_number_proxy()) {
    const auto& n = v.as_number_proxy();
    check(n->value.has_value(), [&] { return str("plan: the number '", n->name, "' has no value"); });
    o.constant = *n->value;
    return o;
  }
  bool has_proxy = false;
  for_each_proxy(v, [&](const Value&) { has_proxy = true; });
  if (!has_proxy) {
    o.constant = v;
    return o;
  }
  if (v.kind() == Value::Kind::Dict) {
    o.kind = Operand::Kind::Dict;
    for (const auto& [k, x] : v.dict_items()) {
      o.keys.push_back(k);
      o.items.push_back(operand(x, slot_of));
    }
    return o;
  }
  o.kind = v.kind() == Value::Kind::List ? Operand::Kind::List : Operand::Kind::Tuple;
  for (const auto& x : v.items()) o.items.push_back(operand(x, slot_of));
  return o;
}

// The arena: each planned output's place in it (the instruction's buffers, beside its outputs),
// its size and what planning saved, for the runner and for `compile -v`.
void place_in_arena(Program& program, const SlotAssigner& slots, const std::vector<MemoryStep>& steps, const std::vector<int>& outputs) {
  MemoryPlan memory = plan_memory(slots.memory(), steps, outputs);
  if (memory.buffers == 0) return;
  for (size_t i = 0; i < steps.size(); ++i) {
    const auto& offsets = memory.offsets[i];
    if (std::all_of(offsets.begin(), offsets.end(), [](int64_t o) { return o < 0; })) continue;
    auto& buffers = program.instructions[i].buffers;
    for (size_t k = 0; k < offsets.size(); ++k) {
      if (offsets[k] < 0) buffers.emplace_back();
      else buffers.push_back(Buffer{offsets[k], slots.proxy(steps[i].writes[k]).as_tensor().meta()});
    }
  }
  // The runner checks these outputs are not in the arena: a wrong tag is an error, not a clobber.
  for (size_t i = 0; i < steps.size(); ++i)
    if (steps[i].fresh_outputs && !steps[i].out_buffer) program.instructions[i].fresh = true;
  program.arena = Arena{memory.arena_bytes, static_cast<int64_t>(memory.buffers), memory.buffer_bytes, static_cast<int64_t>(memory.in_place)};
}

// A fusion region as a trace of its prims: what `run` builds its kernels from. Without
// requires_grad, which kernels do not read and the runner's meta functions, traced without
// grad, do not make.
Trace region_trace(const BoundSymbol& region) {
  ValueMap plain;
  auto without_grad = [&](const Value& v) {
    if (!v.is_tensor() || !v.as_tensor().requires_grad() || plain.contains(v)) return;
    TensorMeta meta = v.as_tensor().meta();
    meta.requires_grad = false;
    plain.set(v, Tensor(std::make_shared<const TensorProxyNode>(TensorProxyNode{v.as_tensor().name(), std::move(meta)})));
  };
  for (const auto& a : region.args) without_grad(a);
  for (const auto& b : region.subsymbols)
    for (const auto& o : b.output_proxies()) without_grad(o);
  Trace t;
  t.name = region.sym->id;
  for (const auto& a : region.args) t.inputs.push_back({a.as_tensor().name(), plain.apply(a)});
  for (BoundSymbol b : region.subsymbols) {
    plain.apply(b);
    t.bound_symbols.push_back(std::move(b));
  }
  t.output = plain.apply(region.output);
  return t;
}

// A fusion instruction's region and the tensors it reads and writes. Its kernels' records come
// from attach_kernels; without them (a plan specialized at run time, whose runtime generates the
// kernels itself) it is signed here.
Fusion fusion_record(const BoundSymbol& b, KernelRecords kernels) {
  Fusion fusion;
  fusion.region = region_trace(b);
  if (kernels == KernelRecords::None) fusion.signature = fuser::region_signature(b);
  for (const auto& a : b.args) fusion.inputs.push_back(a.as_tensor().meta());
  for_each_proxy(b.output, [&](const Value& v) { fusion.outputs.push_back(v.as_tensor().meta()); });
  return fusion;
}

// The device of a program's arena: its first CUDA input's device where it has one (a program on
// the GPU: one allocation for its intermediates there too, at addresses a CUDA graph can replay),
// else the CPU.
Device arena_device(const Trace& trace) {
  Device device = Device::cpu();
  for (const auto& in : trace.inputs)
    for_each_proxy(in.value, [&](const Value& v) {
      if (device.is_cpu() && v.is_tensor() && v.as_tensor().device().type == Device::Type::CUDA) device = v.as_tensor().device();
    });
  return device;
}

// One program (the forward, or the backward) as instructions over slots.
Program build_program(const Trace& trace, std::set<std::pair<std::string, std::string>>& plugins, KernelRecords kernels) {
  Program program;
  program.instructions.reserve(trace.bound_symbols.size());  // an Instruction is large to move
  SlotAssigner slots(arena_device(trace));
  std::vector<MemoryStep> steps;  // one per instruction
  steps.reserve(trace.bound_symbols.size());
  std::vector<int>* reads = nullptr;  // the instruction being built reads these slots
  auto read = [&](const Value& proxy) {
    int slot = slots.lookup(proxy);
    if (reads) reads->push_back(slot);
    return slot;
  };
  for (const auto& in : trace.inputs)
    for_each_proxy(in.value, [&](const Value& v) {
      if (v.is_tensor()) program.inputs.push_back({v.as_tensor().name(), slots.slot_of(v), v.as_tensor().meta(), in.fqn, in.shard_of});
    });
  for (const auto& b : trace.bound_symbols) {
    if (b.sym == &prims::python_del()) {
      std::vector<int>& target = program.instructions.empty() ? program.free_at_start : program.instructions.back().free;
      for (const auto& v : b.args)
        if (v.is_tensor()) {
          int slot = slots.lookup(v);
          target.push_back(slot);
          if (!steps.empty()) steps.back().frees.push_back(slot);
        }
      continue;
    }
    check(!b.sym->executor.empty(), [&] { return str("plan: no executor claimed ", print_bound_symbol(b, {.depth = 0})); });
    const Executor& ex = ExecutorRegistry::global().get(b.sym->executor);
    bool plugin = !ExecutorRegistry::global().plugin_of(ex.name()).empty();
    const bool fusion = fuser::is_fusion_region(b);
    if (plugin) plugins.emplace(ex.name(), ex.version());
    Instruction& ins = program.instructions.emplace_back();
    ins.op = b.sym->id;
    ins.executor = ex.name();
    steps.push_back({.out_buffer = b.sym->has_tag(kOutBuffer), .out_may_alias_input = b.sym->has_tag(kOutMayAliasInput),
                     .fresh_outputs = b.sym->has_tag(kFreshOutputs)});
    reads = &steps.back().reads;
    for (const auto& a : b.args) ins.args.push_back(operand(a, read));
    for (const auto& [k, v] : b.kwargs) ins.kwargs.emplace_back(k, operand(v, read));
    for_each_proxy(b.output, [&](const Value& v) {
      int slot = v.is_tensor() ? slots.slot_of(v) : -1;
      ins.outputs.push_back(slot);
      steps.back().writes.push_back(slot);
      if (!fusion) ins.expect.push_back(v.is_tensor() ? std::optional(v.as_tensor().meta()) : std::nullopt);
    });
    ins.statement = print_bound_symbol(b, {.depth = 0});
    ins.source = source_of(b);
    ins.stream = random_stream(b);
    if (fusion) ins.fusion = fusion_record(b, kernels);
    reads = nullptr;
  }
  program.slots = static_cast<int64_t>(slots.size());
  program.output = operand(trace.output, [&](const Value& v) { return slots.lookup(v); });
  std::vector<int> output_slots;
  for_each_proxy(trace.output, [&](const Value& v) {
    if (v.is_tensor()) output_slots.push_back(slots.lookup(v));
  });
  place_in_arena(program, slots, steps, output_slots);
  return program;
}

}  // namespace

Plan build_plan(const Trace& execution, const Trace* backward, int64_t saved_bytes, KernelRecords kernels, const UpdateTrace* update, const Trace* prologue) {
  std::set<std::pair<std::string, std::string>> plugins;
  Plan plan;
  plan.name = execution.name;
  plan.forward = build_program(execution, plugins, kernels);
  if (backward) {
    plan.backward = build_program(*backward, plugins, kernels);
    plan.backward->saved = static_cast<int64_t>(tensors_in(backward->inputs.at(0).value).size());
    plan.backward->saved_bytes = saved_bytes;
  }
  if (update) plan.update = Update{build_program(update->trace, plugins, kernels), update->parameters, update->optimizer};
  if (prologue) {
    std::unordered_map<const void*, int64_t> index;  // of the forward's inputs
    for (const auto& in : execution.inputs)
      for_each_proxy(in.value, [&](const Value& v) {
        if (v.is_tensor()) index.emplace(proxy_key(v), static_cast<int64_t>(index.size()));
      });
    Prologue p{build_program(*prologue, plugins, kernels), {}};
    for (const auto& in : prologue->inputs) p.reads.push_back(index.at(proxy_key(in.value)));
    plan.prologue = std::move(p);
  }
  for (const auto& [name, version] : plugins) plan.plugins.push_back({name, version});
  return plan;
}

void attach_kernels(Plan& plan, const PlanKernels& kernels) {
  for (Program* program : plan.programs())
    for (Instruction& ins : program->instructions) {
      if (!ins.fusion) continue;
      Fusion& fusion = *ins.fusion;
      if (auto it = kernels.functions.find(ins.op); it != kernels.functions.end()) fusion.function = it->second;
      if (auto it = kernels.cuda.functions.find(ins.op); it != kernels.cuda.functions.end()) {
        fusion.cuda_function = it->second.name;
        fusion.grid = it->second.grid;
      }
      check(fusion.function || fusion.cuda_function, [&] { return str("plan: no kernel was generated for ", ins.op); });
      auto signature = kernels.signatures.find(ins.op);
      check(signature != kernels.signatures.end(), [&] { return str("plan: the kernel build did not sign ", ins.op); });
      fusion.signature = signature->second;
    }
  if (!kernels.functions.empty())
    plan.kernels = KernelLibraryRecord{kernels.library, kernels.sha256, kernels.compiler, kernels.flags, kernels.isa};
  if (!kernels.cuda.functions.empty()) {
    const PlanKernels::Cuda& c = kernels.cuda;
    CudaKernelsRecord cuda;
    cuda.block = fuser::kCudaBlockSize;
    if (!c.ptx.empty()) {
      cuda.ptx = c.ptx;
      cuda.sha256 = c.ptx_sha256;
      cuda.compiler = c.compiler;
      cuda.arch = c.arch;
    }
    if (!c.emulation.empty()) cuda.emulation = LibraryFile{c.emulation, c.emulation_sha256};
    plan.cuda_kernels = std::move(cuda);
  }
}

}  // namespace thundercc::plan
