// bytes -> what `thundercc compile` does, without writing files: load and validate the trace,
// compile it with the default executors (a training step when an input requires grad, else
// inference; then also seed 001's `--transform grad`), print every trace and build the plan.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_support.h"
#include "thundercc/builtins.h"
#include "thundercc/extend.h"
#include "thundercc/ir/printer.h"
#include "thundercc/passes/passes.h"
#include "thundercc/plan/plan_codec.h"
#include "thundercc/serialize/trace_file.h"

namespace {

void compile(const thundercc::Trace& traced, thundercc::GradMode mode) {
  auto executors = thundercc::ExecutorRegistry::global().default_list();
  thundercc::CompiledProgram program = thundercc::compile_program(traced, executors, mode, /*keep_stages=*/true);
  std::string out = thundercc::print_trace(program.execution);
  if (program.backward) out += thundercc::print_trace(*program.backward);
  for (const auto& stage : program.stages) out += thundercc::print_trace(stage.trace);  // --print-after-all
  out += thundercc::plan::encode_plan(thundercc::plan::build_plan(program.execution, program.backward ? &*program.backward : nullptr,
                                                                 program.saved_bytes));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  thundercc::register_builtins();
  std::string text(reinterpret_cast<const char*>(data), size);
  thundercc_fuzz::rejecting([&] {
    thundercc::LoadedTrace loaded = thundercc::load_trace_text(text, "fuzz.json");
    (void)thundercc::print_trace(loaded.traced);  // `thundercc print`
    (void)thundercc::print_trace(loaded.traced, {.depth = 0});
    thundercc_fuzz::rejecting([&] { compile(loaded.traced, thundercc::GradMode::Auto); });
    thundercc_fuzz::rejecting([&] { compile(loaded.traced, thundercc::GradMode::Inputs); });
  });
  return 0;
}
