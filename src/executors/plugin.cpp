#include "thundercc/plugin.h"

#include <dlfcn.h>

#include <filesystem>
#include <stdexcept>

namespace thundercc {

Executor& PluginRegistrar::operator_executor(const std::string& name, const std::string& version) {
  Executor& ex = ExecutorRegistry::global().add(name, version);
  ExecutorRegistry::global().set_plugin(name, plugin_);
  return ex;
}

Executor& PluginRegistrar::add_operator_executor(const std::string& name, const std::map<std::string, OperatorMapEntry>& op_map,
                                                 const std::string& version) {
  Executor& ex = thundercc::add_operator_executor(name, op_map, version);
  ExecutorRegistry::global().set_plugin(name, plugin_);
  return ex;
}

void load_plugin(const std::string& path, runtime::KernelRegistry* kernels) {
  // dlopen searches the library path for bare names; a path with a slash is taken as it is.
  std::string target = path.find('/') == std::string::npos ? "./" + path : path;
  void* handle = dlopen(target.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (!handle) throw std::runtime_error(path + ": cannot load plugin: " + dlerror());
  using Entry = void (*)(PluginRegistrar&);
  auto entry = reinterpret_cast<Entry>(dlsym(handle, THUNDERCC_PLUGIN_ENTRY));
  if (!entry) throw std::runtime_error(path + ": not a thundercc plugin (no " THUNDERCC_PLUGIN_ENTRY " entry point)");
  PluginRegistrar registrar(std::filesystem::path(path).filename().string(), kernels);
  entry(registrar);
}

}  // namespace thundercc
