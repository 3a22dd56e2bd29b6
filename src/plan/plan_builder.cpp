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
#include "thundercc/serialize/trace_file.h"

namespace thundercc {
namespace {

// Empty arrays and objects are made as json(value_t::array) and json(value_t::object):
// json::array() and json::object() go through the initializer-list constructor, a cost per
// instruction here.
using json = nlohmann::json;

class SlotAssigner {
 public:
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
  // What memory planning needs of a slot: the bytes of a CPU tensor (0 for anything else).
  static MemoryValue memory_value(const Value& proxy) {
    MemoryValue m;
    if (!proxy.is_tensor()) return m;
    const TensorMeta& meta = proxy.as_tensor().meta();
    m.shape = meta.shape;
    m.dtype = static_cast<int>(meta.dtype.type);
    m.bytes = meta.device.is_cpu() ? meta.bytes() : 0;
    return m;
  }

  std::unordered_map<const void*, int> slots_;
  std::vector<MemoryValue> memory_;
  std::vector<Value> proxies_;
};

// The arena: each planned output's place in it ("buffers", beside "outputs"), its size and what
// planning saved, for the runner and for `compile -v`.
void place_in_arena(json& program, const SlotAssigner& slots, const std::vector<MemoryStep>& steps, const std::vector<int>& outputs) {
  MemoryPlan memory = plan_memory(slots.memory(), steps, outputs);
  if (memory.buffers == 0) return;
  json& instructions = program["instructions"];
  for (size_t i = 0; i < steps.size(); ++i) {
    const auto& offsets = memory.offsets[i];
    if (std::all_of(offsets.begin(), offsets.end(), [](int64_t o) { return o < 0; })) continue;
    json buffers(json::value_t::array);
    for (size_t k = 0; k < offsets.size(); ++k) {
      if (offsets[k] < 0) {
        buffers.push_back(nullptr);
        continue;
      }
      json buffer = json_member("offset", offsets[k]);
      buffer["tensor"] = encode_tensor_meta(slots.proxy(steps[i].writes[k]).as_tensor().meta());
      buffers.push_back(std::move(buffer));
    }
    instructions[i]["buffers"] = std::move(buffers);
  }
  // The runner checks these outputs are not in the arena: a wrong tag is an error, not a clobber.
  for (size_t i = 0; i < steps.size(); ++i)
    if (steps[i].fresh_outputs && !steps[i].out_buffer) instructions[i]["fresh"] = true;
  program["arena"] = {{"bytes", memory.arena_bytes}, {"buffers", memory.buffers}, {"buffer_bytes", memory.buffer_bytes},
                      {"in_place", memory.in_place}};
}

// A fusion instruction's kernels: the CPU function, or the CUDA function and its grid, or both
// (--emit-cuda), and the tensors it reads and writes.
json fusion_record(const BoundSymbol& b, const PlanKernels* kernels) {
  json fusion(json::value_t::object);
  if (kernels) {
    if (auto it = kernels->functions.find(b.sym->id); it != kernels->functions.end()) fusion["function"] = it->second;
    if (auto it = kernels->cuda.functions.find(b.sym->id); it != kernels->cuda.functions.end()) {
      fusion["cuda_function"] = it->second.name;
      fusion["grid"] = it->second.grid;
    }
  }
  check(!fusion.empty(), [&] { return str("plan: no kernel was generated for ", b.sym->id); });
  json reads(json::value_t::array), writes(json::value_t::array);
  for (const auto& a : b.args) reads.push_back(encode_tensor_meta(a.as_tensor().meta()));
  for_each_proxy(b.output, [&](const Value& v) { writes.push_back(encode_tensor_meta(v.as_tensor().meta())); });
  fusion["inputs"] = std::move(reads);
  fusion["outputs"] = std::move(writes);
  return fusion;
}

// One program (the forward, or the backward) as instructions over slots.
json build_program(const Trace& trace, std::set<std::pair<std::string, std::string>>& plugins, const PlanKernels* kernels) {
  SlotAssigner slots;
  std::vector<MemoryStep> steps;  // one per instruction
  std::vector<int>* reads = nullptr;  // the instruction being built reads these slots
  // Number proxies (inputs with known values) are passed to kernels as their values.
  auto arg = [&](const Value& proxy) -> json {
    if (proxy.is_number_proxy()) {
      const auto& n = proxy.as_number_proxy();
      check(n->value.has_value(), [&] { return str("plan: the number '", n->name, "' has no value"); });
      return encode_value(*n->value, [](const Value&) { return json(); });
    }
    int slot = slots.lookup(proxy);
    if (reads) reads->push_back(slot);
    return json_member("slot", slot);
  };

  json inputs(json::value_t::array);
  for (const auto& in : trace.inputs)
    for_each_proxy(in.value, [&](const Value& v) {
      if (!v.is_tensor()) return;
      inputs.push_back({{"name", v.as_tensor().name()}, {"slot", slots.slot_of(v)}, {"tensor", encode_tensor_meta(v.as_tensor().meta())}});
    });

  json instructions(json::value_t::array);
  json free_at_start(json::value_t::array);
  for (const auto& b : trace.bound_symbols) {
    if (b.sym == &prims::python_del()) {
      json& target = instructions.empty() ? free_at_start : instructions.back()["free"];
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
    std::string plugin = ExecutorRegistry::global().plugin_of(ex.name());
    if (!plugin.empty()) plugins.emplace(ex.name(), ex.version());
    json instruction = json_member("op", b.sym->id);
    instruction["executor"] = ex.name();
    steps.push_back({.out_buffer = b.sym->has_tag(kOutBuffer), .out_may_alias_input = b.sym->has_tag(kOutMayAliasInput),
                     .fresh_outputs = b.sym->has_tag(kFreshOutputs)});
    reads = &steps.back().reads;
    json args(json::value_t::array);
    for (const auto& a : b.args) args.push_back(encode_value(a, arg));
    json kwargs(json::value_t::object);
    for (const auto& [k, v] : b.kwargs) kwargs[k] = encode_value(v, arg);
    json outputs(json::value_t::array);
    for_each_proxy(b.output, [&](const Value& v) {
      int slot = v.is_tensor() ? slots.slot_of(v) : -1;
      outputs.push_back(slot < 0 ? json(nullptr) : json(slot));
      steps.back().writes.push_back(slot);
    });
    instruction["args"] = std::move(args);
    instruction["kwargs"] = std::move(kwargs);
    instruction["outputs"] = std::move(outputs);
    instruction["free"] = json(json::value_t::array);
    instruction["statement"] = print_bound_symbol(b, {.depth = 0});
    if (fuser::is_fusion_region(b)) instruction["fusion"] = fusion_record(b, kernels);
    instructions.push_back(std::move(instruction));
    reads = nullptr;
  }
  // Assigned member by member: a braced initializer list would copy each (large) array.
  json program(json::value_t::object);
  program["inputs"] = std::move(inputs);
  program["slots"] = slots.size();
  program["free_at_start"] = std::move(free_at_start);
  program["instructions"] = std::move(instructions);
  program["output"] = encode_value(trace.output, arg);
  std::vector<int> output_slots;
  for_each_proxy(trace.output, [&](const Value& v) {
    if (v.is_tensor()) output_slots.push_back(slots.lookup(v));
  });
  place_in_arena(program, slots, steps, output_slots);
  return program;
}

}  // namespace

json build_plan(const Trace& execution, const Trace* backward, int64_t saved_bytes, const PlanKernels* kernels) {
  std::set<std::pair<std::string, std::string>> plugins;
  json plan{{"format", kPlanFormat}, {"version", kPlanFormatVersion}, {"name", execution.name}};
  json forward = build_program(execution, plugins, kernels);
  for (auto& [key, value] : forward.items()) plan[key] = std::move(value);
  if (backward) {
    json program = build_program(*backward, plugins, kernels);
    program["saved"] = tensors_in(backward->inputs.at(0).value).size();
    program["saved_bytes"] = saved_bytes;
    plan["backward"] = std::move(program);
  }
  json plugin_list(json::value_t::array);
  for (const auto& [name, version] : plugins) plugin_list.push_back({{"name", name}, {"version", version}});
  plan["plugins"] = plugin_list;
  if (kernels && !kernels->functions.empty())
    plan["kernels"] = {{"library", kernels->library}, {"sha256", kernels->sha256}, {"compiler", kernels->compiler}, {"flags", kernels->flags}};
  if (kernels && !kernels->cuda.functions.empty()) {
    const PlanKernels::Cuda& c = kernels->cuda;
    json cuda{{"block", fuser::kCudaBlockSize}};
    if (!c.ptx.empty()) {
      cuda["ptx"] = c.ptx;
      cuda["sha256"] = c.ptx_sha256;
      cuda["compiler"] = c.compiler;
      cuda["arch"] = c.arch;
    }
    if (!c.emulation.empty()) cuda["emulation"] = {{"library", c.emulation}, {"sha256", c.emulation_sha256}};
    plan["cuda_kernels"] = std::move(cuda);
  }
  return plan;
}

}  // namespace thundercc
