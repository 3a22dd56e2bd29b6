// A function of a library opened with dlopen (libcuda, libcublasLt), looked up by name into the
// pointer declared by hand for it (same_abi.h checks the declaration where the header is found).
#pragma once

#include <dlfcn.h>

#include <string>

namespace thundercc::runtime {

// `fn` set to `handle`'s function `name`; where the library has none, `problem` names the first
// one missing ("<library> has no <name>").
template <class Fn>
void find_function(void* handle, Fn& fn, const char* name, const char* library, std::string& problem) {
  fn = reinterpret_cast<Fn>(dlsym(handle, name));
  if (!fn && problem.empty()) problem = std::string(library) + " has no " + name;
}

}  // namespace thundercc::runtime
