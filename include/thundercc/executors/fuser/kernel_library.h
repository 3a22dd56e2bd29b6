// Building generated CPU kernels: each kernel compiled once by the system C++ compiler into an
// object in the kernel cache (keyed by the SHA-256 of compiler, flags and source), the objects of
// a plan linked into one shared library (cached the same way). The plan records the library's
// SHA-256; the runner loads nothing whose hash differs.
//
// The cache is $THUNDERCC_CACHE_DIR, else $XDG_CACHE_HOME/thundercc, else ~/.cache/thundercc.
// The compiler is $THUNDERCC_CXX, else c++. Entries are written under temporary names and
// renamed, so concurrent compilations share the cache safely.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "thundercc/executors/fuser/kernel_source.h"
#include "thundercc/ir/trace.h"

namespace thundercc {

// The generated kernels of a plan's fusion regions: the CPU regions' library (written next to
// the plan) and which of its functions runs each region; with CUDA kernels (the regions on a
// CUDA device, every region with --emit-cuda), their PTX module, the emulation library that runs
// them on the CPU (executors/fuser/cuda_emulation.h), and each region's CUDA function and grid.
struct PlanKernels {
  std::string library;   // the file name, in the plan's folder
  std::string sha256;    // of the library
  std::string compiler;  // what built it, with which flags
  std::string flags;
  std::vector<std::string> isa;  // the CPU features the library may use (cpu_features() where it was built)
  std::map<std::string, std::string> functions;  // region symbol id -> function

  struct Cuda {
    std::string ptx;  // the module's file name (empty: NVRTC was not found)
    std::string ptx_sha256;
    std::string compiler;  // "NVRTC 13.0"
    std::string arch;
    std::string emulation;  // the emulation library's file name (empty: none was built)
    std::string emulation_sha256;
    struct Function {
      std::string name;
      int64_t grid;  // the blocks to launch
    };
    std::map<std::string, Function> functions;  // by region symbol id
  } cuda;
  // By region symbol id: the sizes a CPU kernel is called with (generated again by run, which
  // builds the kernels from the regions; not in plan.json).
  std::map<std::string, std::vector<int64_t>> sizes;
  // By region symbol id: the kernel of its channels-last twin (fuser/channels_last.h), for the
  // regions that have one; like `sizes`, generated again by run.
  struct Twin {
    std::string function;
    std::vector<int64_t> sizes;
  };
  std::map<std::string, Twin> channels_last;
  // By region symbol id: its region_signature, which the plan keys its table of regions by.
  std::unordered_map<std::string, std::string> signatures;
};

}  // namespace thundercc

namespace thundercc::fuser {

struct KernelLibrary {
  std::string bytes;     // the shared library
  std::string sha256;    // of `bytes`
  std::string compiler;  // the compiler's --version line
  std::string flags;
  std::vector<std::string> isa;  // -march=native: the features of the CPU that built it
  size_t compiled = 0;   // kernels compiled by this call
  size_t cached = 0;     // kernels found in the cache
};

// Throws ThunderError with the compiler's messages when a kernel does not compile.
KernelLibrary build_cpu_library(const std::vector<GeneratedKernel>& kernels);

std::string kernel_cache_dir();

// A small record the runtime keeps in the kernel cache (a measured choice), in its folder `folder`
// under `name`, checked as every entry is: nothing when it is absent or damaged.
std::optional<std::string> cached_record(const char* folder, const std::string& name);
// Writes a record (atomically, its SHA-256 beside it); a cache that cannot be written is no error.
void store_record(const char* folder, const std::string& name, const std::string& bytes);

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

}  // namespace thundercc::fuser
