// The order of the passes, as Thunder runs them: the grad transform first (when an input requires
// grad), then the executor passes, then the split into forward and backward, each of which gets
// Delete Last Used.
#include <algorithm>

#include "thundercc/autodiff/autodiff.h"
#include "thundercc/errors.h"
#include "thundercc/passes/passes.h"
#include "thundercc/support/phase_timer.h"

namespace thundercc {
namespace {

Pass pass(std::string name, Trace (*fn)(Trace)) {
  return {std::move(name), [fn](Trace t, const PassContext&) { return fn(std::move(t)); }};
}

void add_claiming(PassManager& pm, const std::vector<const Executor*>& executors) {
  pm.add({"Transform for execution", [](Trace t, const PassContext& c) { return transform_for_execution(std::move(t), c.executors); }});
  for (const Executor* ex : executors)
    for (const auto& p : ex->passes())
      pm.add({p.name, [run = p.run](Trace t, const PassContext& c) { return run(std::move(t), *c.symbols); }});
}

// A training step: a gradient can flow from an output to an input. (Inputs that require grad
// and outputs that do not, as a torch.no_grad() region makes them, give an inference program.)
bool needs_backward(const Trace& t) {
  auto any_requires_grad = [](const Value& v) {
    for (const auto& x : tensors_in(v))
      if (x.requires_grad()) return true;
    return false;
  };
  bool input = false;
  for (const auto& in : t.inputs) input = input || any_requires_grad(in.value);
  return input && any_requires_grad(t.output);
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

CompiledProgram compile_program(Trace captured, const std::vector<const Executor*>& executors, GradMode mode,
                                bool keep_stages, Distributed distributed, Optimizer optimizer) {
  CompiledProgram out;
  out.symbols = std::make_shared<SymbolTable>(&SymbolTable::global());
  PassContext context{executors, out.symbols.get(), keep_stages};
  auto keep = [&](const std::string& name, const Trace& t) {
    if (keep_stages) out.stages.push_back({name, t});
  };
  // The last stage's trace, moved out once the stages are kept.
  auto result = [&](std::vector<PassStage> stages, const std::string& prefix) {
    Trace last = keep_stages ? stages.back().trace : std::move(stages.back().trace);
    if (keep_stages) append(out.stages, std::move(stages), prefix);
    return last;
  };
  // Only a program with in-place ops gets the extra stage.
  std::optional<Trace> functional;
  if (has_mutation(captured)) {
    PhaseTimer timer("Functionalization");
    functional = functionalization(captured);
    keep("Functionalization", *functional);
  }
  Trace& traced = functional ? *functional : captured;
  if (mode == GradMode::Inputs) {
    std::optional<PhaseTimer> timer(std::in_place, "grad transform");
    Trace grad = grad_of_inputs(dead_code_elimination(std::move(traced)), executors);
    timer.reset();
    keep(grad.provenance, grad);
    out.execution = result(execution_passes(executors).run(std::move(grad), context), "");
    return out;
  }
  check(distributed.mode == Distributed::Mode::None || (mode == GradMode::Auto && needs_backward(traced)),
        "--distributed spreads a training step over ranks: the program needs an input that requires grad and an "
        "output that does (capture it without --inference)");
  check(optimizer.kind == Optimizer::Kind::None || (mode == GradMode::Auto && needs_backward(traced)),
        "--optimizer ends a training step: the program needs an input that requires grad and an output that does "
        "(capture it without --inference)");
  if (!needs_backward(traced)) {
    std::optional<PhaseTimer> fold_timer(std::in_place, "batch-norm folding");
    WithPrologue folded = fold_batch_norm(std::move(traced));
    fold_timer.reset();
    if (folded.prologue) {
      keep(folded.prologue->provenance, *folded.prologue);
      keep(folded.program.provenance, folded.program);
      out.prologue = result(execution_passes(executors).run(std::move(*folded.prologue), context), "prologue: ");
    }
    out.execution = result(execution_passes(executors).run(std::move(folded.program), context), "");
    return out;
  }
  const bool sharded = distributed.mode == Distributed::Mode::Fsdp;
  if (sharded) {
    PhaseTimer fsdp_timer("fully sharded data parallel");
    traced = fully_sharded_data_parallel(std::move(traced), distributed.world_size);
    keep(traced.provenance, traced);
  }
  // Traced now, from the parameters' signature (their shards, with fsdp); compiled last, into this
  // compilation's symbols, so that its fusion regions are numbered after the backward's.
  std::optional<Trace> update;
  if (optimizer.kind != Optimizer::Kind::None) update = optimizer_step_trace(traced, optimizer);
  std::optional<PhaseTimer> timer;
  timer.emplace("joint forward-backward (grad transform)");
  Trace joint = joint_forward_backward(dead_code_elimination(std::move(traced)), executors);
  timer.reset();
  keep(joint.provenance, joint);
  Trace simplified = result(joint_passes().run(std::move(joint), context), "");
  timer.emplace("forward-backward split");
  ForwardBackward fb = split_forward_backward(simplified, sharded && distributed.zero == 3);
  timer.reset();
  out.saved_bytes = fb.saved_bytes;
  if (distributed.mode == Distributed::Mode::Ddp) {
    fb.backward = distributed_data_parallel(std::move(fb.backward), distributed.bucket_bytes);
    keep("backward: " + fb.backward.provenance, fb.backward);
  }
  if (sharded) {
    fb.backward = sort_waits(std::move(fb.backward));
    keep("backward: " + fb.backward.provenance, fb.backward);
  }
  out.execution = result(claiming_passes(executors).run(std::move(fb.forward), context), "forward: ");
  out.backward = result(claiming_passes(executors).run(std::move(fb.backward), context), "backward: ");
  if (update) {
    keep("optimizer: traced", *update);
    Trace functional_update = functionalization(*update);  // its write-backs become prims.copy_
    keep("optimizer: Functionalization", functional_update);
    out.update = result(execution_passes(executors).run(std::move(functional_update), context), "optimizer: ");
  }
  return out;
}

}  // namespace thundercc
