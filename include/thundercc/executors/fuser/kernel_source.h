// The code generator: one fusion region (a fusion bound symbol whose subsymbols are prims) as one
// kernel, from one description with two targets.
//
// CPU: a C++ function `extern "C" void NAME(const void* const* inputs, void* const* outputs,
// int64_t part, int64_t parts, const int64_t* sizes)` over contiguous buffers, one loop over rows,
// inner loops over the last dimension that GCC and Clang vectorize (`#pragma omp simd`, glibc's
// vector math for exp, tanh, ...).
// CUDA: a `__global__` function taking each buffer as a parameter; with reductions, blocks
// striding over the rows, a block's threads over the last dimension, reductions by warp shuffles
// and a shared slot per warp (a warp per row where rows have at most 32 columns); without, the
// grid's threads striding over all elements, 16 bytes of each buffer at a time where their
// addresses allow. For NVRTC.
//
// A CPU kernel takes its sizes (rows, columns, domain dimensions, broadcast strides) as an argument,
// so that a region of one structure at other sizes (a dynamic plan's) is the same kernel; a CUDA
// kernel bakes them in. The function's name is the hash of its source, so identical regions (the
// layers of a model) share one kernel, in a plan and in the kernel cache.
#pragma once

#include <string>
#include <vector>

#include "thundercc/ir/symbol.h"

namespace thundercc::fuser {

enum class Target { CPU, CUDA };

struct GeneratedKernel {
  std::string function;  // "tcc_" + the first 16 hex digits of the source's SHA-256
  std::string source;    // a whole translation unit
  int64_t grid = 1;      // CUDA: the blocks it is launched with
  std::vector<int64_t> sizes;  // CPU: the sizes argument it is called with for this region
};

// Throws ThunderError when the region is not one kernel (the fusion pass never makes such a region).
GeneratedKernel generate_kernel(const BoundSymbol& fusion, Target target);

// What a region's source depends on (its prims, their arguments, shapes and dtypes), its values
// numbered in order of appearance: regions with one signature (a model's layers) generate one
// source, so a plan generates each once.
std::string region_signature(const BoundSymbol& fusion);

// A plan's CUDA kernels as one translation unit, compiled into one PTX module: the prelude once,
// then each kernel.
std::string cuda_module_source(const std::vector<GeneratedKernel>& kernels);

// The C library's math functions as kernels compiled for the host declare them (no standard
// headers: they would be most of a kernel's compile time).
const std::string& host_math_declarations();

// The block size CUDA kernels are written for (their launch must use it).
inline constexpr int kCudaBlockSize = 256;
// The most blocks a CUDA kernel is launched with (its blocks then take several rows, or its
// threads several elements, each): a few waves of a large GPU. A launch on a GPU takes fewer
// where the device runs fewer of the kernel's blocks at once (runtime/cuda_driver.h).
inline constexpr int64_t kMaxBlocks = 8192;

}  // namespace thundercc::fuser
