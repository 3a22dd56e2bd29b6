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

// The kernels of every fusion region in `traces`, named after the plan's `stem`: the CPU regions'
// as one library (STEM.kernels.so); the CUDA regions' (every region's, with `every_region_for_cuda`)
// as one CUDA module (STEM.kernels.cu), its PTX by NVRTC (STEM.kernels.ptx) and, with
// `every_region_for_cuda` and a C++ compiler, its emulation library (STEM.cuda_emulation.so).
// `kernels.functions` and `kernels.cuda.functions` are empty when there is no region.
struct PlanKernelBuild {
  PlanKernels kernels;
  KernelLibrary library;
  std::string cuda_source;  // empty: no CUDA kernel
  std::string ptx;          // empty: NVRTC was not found
  KernelLibrary emulation;
};
PlanKernelBuild build_plan_kernels(const std::vector<const Trace*>& traces, const std::string& stem, bool every_region_for_cuda);

// The PTX of a CUDA module's source, from the kernel cache (keyed by NVRTC's version, the
// architecture and the source) or compiled by NVRTC; throws ThunderError with NVRTC's messages.
std::string cached_ptx(const std::string& source);

}  // namespace thundercc::codegen
