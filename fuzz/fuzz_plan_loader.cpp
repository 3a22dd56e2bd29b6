// bytes -> what `thundercc run` does to load a plan before running it (run_main.cpp, run()): JSON
// parsing within the limits, the format version, the plan schema, the plugins the plan needs (none
// is loaded here) and binding every instruction (runtime::Plan: kernels, constants, slots).
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_support.h"
#include "thundercc/errors.h"
#include "thundercc/extend.h"
#include "thundercc/plan/plan_codec.h"
#include "thundercc/runtime/plan_runner.h"
#include "thundercc/serialize/schema.h"
#include "thundercc/serialize/trace_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  thundercc::runtime::register_builtin_kernels();
  std::string text(reinterpret_cast<const char*>(data), size);
  const std::string where = "fuzz.plan.json";
  thundercc_fuzz::rejecting([&] {
    thundercc::plan::Plan decoded = thundercc::plan::decode_plan(thundercc::parse_json_document(text, where), where);
    for (const auto& [name, version] : decoded.plugins) {
      const thundercc::Executor* ex = thundercc::ExecutorRegistry::global().find(name);
      if (!ex) throw thundercc::LoadError(where + ": the plan needs plugin executor '" + name + "'");
      if (ex->version() != version) throw thundercc::LoadError(where + ": executor version mismatch");
    }
    thundercc::runtime::Plan plan(decoded, where);
    size_t n = plan.inputs().size() + plan.cotangents().size() + plan.forward_program().instructions().size();
    if (plan.backward_program()) n += plan.backward_program()->instructions().size();
    (void)n;
  });
  return 0;
}
