// Plugins: shared libraries that add executors (and, for `thundercc run`, their kernels). A plugin
// defines one entry point:
//
//   #include <thundercc/plugin.h>
//   THUNDERCC_PLUGIN {
//     thundercc::Executor& ex = registrar.operator_executor("my_executor", "0.1");
//     ... ex.register_operator(...), ex.register_implementation(...) ...
//     if (auto* kernels = registrar.kernels()) kernels->add("my_executor:my_op", ...);  // run time only
//   }
//
// `thundercc compile --plugin LIB` and `thundercc run --plugin LIB` load it.
#pragma once

#include <map>
#include <string>

#include "thundercc/extend.h"

namespace thundercc {

namespace runtime {
class KernelRegistry;
}

class PluginRegistrar {
 public:
  PluginRegistrar(std::string plugin, runtime::KernelRegistry* kernels) : plugin_(std::move(plugin)), kernels_(kernels) {}

  // A new executor, recorded as this plugin's (plans name the plugins they need).
  Executor& operator_executor(const std::string& name, const std::string& version);
  // The seeds' older API, also recorded as this plugin's.
  Executor& add_operator_executor(const std::string& name, const std::map<std::string, OperatorMapEntry>& op_map,
                                  const std::string& version);
  // Where kernels go; null while compiling, since kernels need LibTorch.
  runtime::KernelRegistry* kernels() const { return kernels_; }

 private:
  std::string plugin_;
  runtime::KernelRegistry* kernels_;
};

// Loads a plugin and calls its entry point. Throws std::runtime_error with a clear message.
void load_plugin(const std::string& path, runtime::KernelRegistry* kernels);

}  // namespace thundercc

#define THUNDERCC_PLUGIN_ENTRY "thundercc_plugin_register"
#define THUNDERCC_PLUGIN extern "C" void thundercc_plugin_register(::thundercc::PluginRegistrar& registrar)
