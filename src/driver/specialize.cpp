// A dynamic plan at other sizes: the compile pipeline again, from the symbolic trace the plan
// carries, without files and without kernel records (the runtime builds the kernels, as it does
// for any plan whose kernels it does not trust). The fusion regions' prims are the process-wide
// prims, so the plan outlives the compilation's own symbol table.
#include "thundercc/driver/specialize.h"

#include "thundercc/errors.h"
#include "thundercc/extend.h"
#include "thundercc/passes/passes.h"
#include "thundercc/serialize/trace_file.h"

namespace thundercc {

plan::Plan specialize_plan(const plan::Dynamic& dynamic, const std::string& name, const SizeBinding& sizes, const std::string& where) {
  LoadedTrace loaded = load_trace_at_sizes(dynamic.trace, sizes, where, dynamic.names);
  CompiledProgram program;
  try {
    std::vector<const Executor*> executors;
    for (const auto& name : dynamic.executors) executors.push_back(&ExecutorRegistry::global().get(name));
    program = compile_program(std::move(loaded.traced), executors, dynamic.input_gradients ? GradMode::Inputs : GradMode::Auto);
  } catch (const ThunderError& e) {
    throw LoadError(where + ": " + e.what());
  }
  plan::Plan plan = plan::build_plan(program.execution, program.backward ? &*program.backward : nullptr, program.saved_bytes, plan::KernelRecords::None, nullptr,
                         program.prologue ? &*program.prologue : nullptr);
  plan.name = name;
  return plan;
}

}  // namespace thundercc
