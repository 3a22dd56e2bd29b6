// The order of the passes from a traced program to its execution trace, as Thunder runs them.
#include "thundercc/passes/passes.h"

namespace thundercc {

std::vector<PassStage> compile_for_execution(const Trace& traced, const std::vector<const Executor*>& executors) {
  std::vector<PassStage> stages;
  auto run = [&](Trace t) {
    std::string name = t.provenance;
    stages.push_back({std::move(name), std::move(t)});
    return stages.back().trace;
  };
  Trace t = run(dead_code_elimination(traced));
  t = run(common_subexpression_elimination(t));
  t = run(transform_for_execution(t, executors));
  t = run(dead_code_elimination(t));
  run(delete_last_used(t));
  return stages;
}

}  // namespace thundercc
