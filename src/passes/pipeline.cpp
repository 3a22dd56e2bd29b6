// The order of the passes, as Thunder runs them: the grad transform first (when an input requires
// grad), then the executor passes, then the split into forward and backward, each of which gets
// Delete Last Used.
#include <algorithm>

#include "thundercc/passes/passes.h"
#include "thundercc/transforms/autodiff.h"

namespace thundercc {
namespace {

Pass pass(std::string name, Trace (*fn)(const Trace&)) {
  return {std::move(name), [fn](const Trace& t, const PassContext&) { return fn(t); }};
}

void add_claiming(PassManager& pm, const std::vector<const Executor*>& executors) {
  pm.add({"Transform for execution", [](const Trace& t, const PassContext& c) { return transform_for_execution(t, c.executors); }});
  for (const Executor* ex : executors)
    for (const auto& p : ex->passes())
      pm.add({p.name, [run = p.run](const Trace& t, const PassContext& c) { return run(t, *c.symbols); }});
}

bool any_input_requires_grad(const Trace& t) {
  for (const auto& in : t.inputs)
    for (const auto& x : tensors_in(in.value))
      if (x.requires_grad()) return true;
  return false;
}

void append(std::vector<PassStage>& to, std::vector<PassStage> stages, const std::string& prefix) {
  for (auto& s : stages) to.push_back({prefix + s.name, std::move(s.trace)});
}

bool has_mutation(const Trace& t) {
  return std::any_of(t.bound_symbols.begin(), t.bound_symbols.end(), mutates_first_argument);
}

}  // namespace

PassManager execution_passes(const std::vector<const Executor*>& executors) {
  PassManager pm;
  pm.add(pass("Dead Code Elimination", dead_code_elimination));
  pm.add(pass("Common Subexpression Elimination", common_subexpression_elimination));
  add_claiming(pm, executors);
  pm.add(pass("Dead Code Elimination", dead_code_elimination));
  pm.add(pass("Delete Last Used", delete_last_used));
  return pm;
}

PassManager joint_passes() {
  PassManager pm;
  pm.add(pass("Dead Code Elimination", dead_code_elimination));
  pm.add(pass("Common Subexpression Elimination", common_subexpression_elimination));
  return pm;
}

PassManager claiming_passes(const std::vector<const Executor*>& executors) {
  PassManager pm;
  add_claiming(pm, executors);
  pm.add(pass("Dead Code Elimination", dead_code_elimination));
  pm.add(pass("Delete Last Used", delete_last_used));
  return pm;
}

CompiledProgram compile_program(const Trace& captured, const std::vector<const Executor*>& executors, GradMode mode) {
  CompiledProgram out;
  out.symbols = std::make_shared<SymbolTable>(&SymbolTable::global());
  PassContext context{executors, out.symbols.get()};
  // Only a program with in-place ops gets the extra stage.
  std::optional<Trace> functional;
  if (has_mutation(captured)) {
    functional = functionalization(captured);
    out.stages.push_back({"Functionalization", *functional});
  }
  const Trace& traced = functional ? *functional : captured;
  if (mode == GradMode::Inputs) {
    Trace grad = grad_of_inputs(dead_code_elimination(traced), executors);
    out.stages.push_back({grad.provenance, grad});
    append(out.stages, execution_passes(executors).run(grad, context), "");
    out.execution = out.stages.back().trace;
    return out;
  }
  if (!any_input_requires_grad(traced)) {
    append(out.stages, execution_passes(executors).run(traced, context), "");
    out.execution = out.stages.back().trace;
    return out;
  }
  Trace joint = joint_forward_backward(dead_code_elimination(traced), executors);
  out.stages.push_back({joint.provenance, joint});
  append(out.stages, joint_passes().run(joint, context), "");
  ForwardBackward fb = split_forward_backward(out.stages.back().trace);
  out.saved_bytes = fb.saved_bytes;
  auto forward = claiming_passes(executors).run(fb.forward, context);
  auto backward = claiming_passes(executors).run(fb.backward, context);
  out.execution = forward.back().trace;
  out.backward = backward.back().trace;
  append(out.stages, std::move(forward), "forward: ");
  append(out.stages, std::move(backward), "backward: ");
  return out;
}

}  // namespace thundercc
