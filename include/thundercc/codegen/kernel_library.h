// Building generated CPU kernels: each kernel compiled once by the system C++ compiler into an
// object in the kernel cache (keyed by the SHA-256 of compiler, flags and source), the objects of
// a plan linked into one shared library (cached the same way). The plan records the library's
// SHA-256; the runner loads nothing whose hash differs.
//
// The cache is $THUNDERCC_CACHE_DIR, else $XDG_CACHE_HOME/thundercc, else ~/.cache/thundercc.
// The compiler is $THUNDERCC_CXX, else c++. Entries are written under temporary names and
// renamed, so concurrent compilations share the cache safely.
#pragma once

#include <string>
#include <vector>

#include "thundercc/codegen/kernel_source.h"
#include "thundercc/ir/trace.h"
#include "thundercc/plan/plan.h"

namespace thundercc::codegen {

struct KernelLibrary {
  std::string bytes;     // the shared library
  std::string sha256;    // of `bytes`
  std::string compiler;  // the compiler's --version line
  std::string flags;
  size_t compiled = 0;   // kernels compiled by this call
  size_t cached = 0;     // kernels found in the cache
};

// Throws ThunderError with the compiler's messages when a kernel does not compile.
KernelLibrary build_cpu_library(const std::vector<GeneratedKernel>& kernels);

std::string kernel_cache_dir();

// Whether the C++ compiler runs (its --version, asked once per process); `why` is set to what
// failed otherwise. The default executor list leaves the fuser out without one.
bool kernel_compiler_available(std::string* why = nullptr);

// The kernels of every fusion region in `traces` as one library, to be written as `library_name`
// next to the plan; `kernels.functions` is empty when there is no region.
struct PlanKernelBuild {
  PlanKernels kernels;
  KernelLibrary library;
};
PlanKernelBuild build_plan_kernels(const std::vector<const Trace*>& traces, const std::string& library_name);

}  // namespace thundercc::codegen
