// The built-in registrations, in dependency order: symbols first (the prims, then the torch
// language, whose decompositions call them), then the grad rules (keyed by symbol id), then the
// executors (which register an operator for each symbol they run).
#include "thundercc/builtins.h"

#include <mutex>

#include "thundercc/autodiff/autodiff.h"
#include "thundercc/executors/builtin_executors.h"
#include "thundercc/langs/prims.h"
#include "thundercc/langs/torch.h"

namespace thundercc {

void register_builtins() {
  static std::once_flag once;
  std::call_once(once, [] {
    register_prims(SymbolTable::global());
    register_torch_language(SymbolTable::global());
    register_builtin_grad_rules();
    register_torch_executor(ExecutorRegistry::global());
    register_fuser_executor(ExecutorRegistry::global());
  });
}

}  // namespace thundercc
