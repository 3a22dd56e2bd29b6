// The fusion executor, as Thunder's nvFuser executor is for Thunder: it claims the prims a
// generated kernel computes (elementwise ops, type conversions, broadcasts, reductions over the
// last dimension, of bool, int32, int64, float32 and float64 CPU tensors), and through them every
// torch-language op whose whole decomposition is such prims (softmax, layer_norm, gelu, silu...);
// its pass (fusion_pass.cpp) groups what it claimed into regions, which the code
// generator (kernel_source.cpp) turns into kernels when the plan is written. Registered through the same
// extension API as a plugin's executor; in the default list, after plugins' executors and
// before torch (`--executors torch` leaves it out).
#include "thundercc/executors/fuser/kernel_library.h"
#include "thundercc/executors/fuser/region_analysis.h"
#include "thundercc/extend.h"

namespace thundercc {

void register_fuser_executor(ExecutorRegistry& registry) {
  Executor& fuser = registry.add("fuser", "0.1");
  const auto symbols = SymbolTable::global().all();  // a copy: registering operators adds symbols
  for (const Symbol* sym : symbols) {
    if (!sym->is_prim || !sym->executor.empty() || !fuser::is_fusible_prim(sym->id)) continue;
    const Symbol& op = fuser.register_operator(sym->name, sym->signature.str(), sym->meta,
                                               {.module = "prims", .is_like = false, .id = "fuser:" + sym->id});
    fuser.register_implementation(sym->id, Implementation{.op = &op, .checker = [id = sym->id](const Args& args) {
                                                            return fuser::RegionAnalysis::fusible(id, args.values());
                                                          }});
  }
  fuser.register_pass({"Fusion", fuse_regions});
  fuser.set_availability([](std::string* why) { return fuser::kernel_compiler_available(why); });
}

}  // namespace thundercc
