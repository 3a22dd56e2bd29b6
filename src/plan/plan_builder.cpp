#include <map>
#include <set>
#include <unordered_map>

#include "thundercc/codegen/fusion_region.h"
#include "thundercc/errors.h"
#include "thundercc/extend.h"
#include "thundercc/ir/printer.h"
#include "thundercc/ir/rewrite.h"
#include "thundercc/passes/passes.h"
#include "thundercc/plan/plan.h"
#include "thundercc/serialize/trace_file.h"

namespace thundercc {
namespace {

using json = nlohmann::json;

class SlotAssigner {
 public:
  int slot_of(const Value& proxy) {
    auto [it, inserted] = slots_.emplace(proxy_key(proxy), static_cast<int>(slots_.size()));
    return it->second;
  }
  int lookup(const Value& proxy) const {
    auto it = slots_.find(proxy_key(proxy));
    check(it != slots_.end(), [&] { return str("plan: '", proxy_name(proxy), "' is used before it is defined"); });
    return it->second;
  }
  size_t size() const { return slots_.size(); }

 private:
  std::unordered_map<const void*, int> slots_;
};

// One program (the forward, or the backward) as instructions over slots.
json build_program(const Trace& trace, std::set<std::pair<std::string, std::string>>& plugins, const PlanKernels* kernels) {
  SlotAssigner slots;
  // Number proxies (inputs with known values) are passed to kernels as their values.
  auto arg = [&](const Value& proxy) -> json {
    if (proxy.is_number_proxy()) {
      const auto& n = proxy.as_number_proxy();
      check(n->value.has_value(), [&] { return str("plan: the number '", n->name, "' has no value"); });
      return encode_value(*n->value, [](const Value&) { return json(); });
    }
    return json{{"slot", slots.lookup(proxy)}};
  };

  json inputs = json::array();
  for (const auto& in : trace.inputs)
    for_each_proxy(in.value, [&](const Value& v) {
      if (!v.is_tensor()) return;
      inputs.push_back({{"name", v.as_tensor().name()}, {"slot", slots.slot_of(v)}, {"tensor", encode_tensor_meta(v.as_tensor().meta())}});
    });

  json instructions = json::array();
  json free_at_start = json::array();
  for (const auto& b : trace.bound_symbols) {
    if (b.sym == &python_del()) {
      json& target = instructions.empty() ? free_at_start : instructions.back()["free"];
      for (const auto& v : b.args)
        if (v.is_tensor()) target.push_back(slots.lookup(v));
      continue;
    }
    check(!b.sym->executor.empty(), [&] { return str("plan: no executor claimed ", print_bound_symbol(b, {.depth = 0})); });
    const Executor& ex = ExecutorRegistry::global().get(b.sym->executor);
    std::string plugin = ExecutorRegistry::global().plugin_of(ex.name());
    if (!plugin.empty()) plugins.emplace(ex.name(), ex.version());
    json instruction{{"op", b.sym->id}, {"executor", ex.name()}};
    json args = json::array();
    for (const auto& a : b.args) args.push_back(encode_value(a, arg));
    json kwargs = json::object();
    for (const auto& [k, v] : b.kwargs) kwargs[k] = encode_value(v, arg);
    json outputs = json::array();
    for_each_proxy(b.output, [&](const Value& v) { outputs.push_back(v.is_tensor() ? json(slots.slot_of(v)) : json(nullptr)); });
    instruction["args"] = args;
    instruction["kwargs"] = kwargs;
    instruction["outputs"] = outputs;
    instruction["free"] = json::array();
    instruction["statement"] = print_bound_symbol(b, {.depth = 0});
    if (codegen::is_fusion_region(b)) {
      const std::string* function = nullptr;
      if (kernels)
        if (auto it = kernels->functions.find(b.sym->id); it != kernels->functions.end()) function = &it->second;
      check(function != nullptr, [&] { return str("plan: no kernel was generated for ", b.sym->id); });
      json reads = json::array(), writes = json::array();
      for (const auto& a : b.args) reads.push_back(encode_tensor_meta(a.as_tensor().meta()));
      for_each_proxy(b.output, [&](const Value& v) { writes.push_back(encode_tensor_meta(v.as_tensor().meta())); });
      instruction["fusion"] = {{"function", *function}, {"inputs", reads}, {"outputs", writes}};
    }
    instructions.push_back(instruction);
  }
  return json{{"inputs", inputs},
              {"slots", slots.size()},
              {"free_at_start", free_at_start},
              {"instructions", instructions},
              {"output", encode_value(trace.output, arg)}};
}

}  // namespace

json build_plan(const Trace& execution, const Trace* backward, int64_t saved_bytes, const PlanKernels* kernels) {
  std::set<std::pair<std::string, std::string>> plugins;
  json plan{{"format", kPlanFormat}, {"version", kPlanFormatVersion}, {"name", execution.name}};
  json forward = build_program(execution, plugins, kernels);
  for (auto& [key, value] : forward.items()) plan[key] = value;
  if (backward) {
    json program = build_program(*backward, plugins, kernels);
    program["saved"] = tensors_in(backward->inputs.at(0).value).size();
    program["saved_bytes"] = saved_bytes;
    plan["backward"] = program;
  }
  json plugin_list = json::array();
  for (const auto& [name, version] : plugins) plugin_list.push_back({{"name", name}, {"version", version}});
  plan["plugins"] = plugin_list;
  if (kernels && !kernels->functions.empty())
    plan["kernels"] = {{"library", kernels->library}, {"sha256", kernels->sha256}, {"compiler", kernels->compiler}, {"flags", kernels->flags}};
  return plan;
}

}  // namespace thundercc
