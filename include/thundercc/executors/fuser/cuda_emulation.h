// The CUDA execution model on the CPU, so that the generated CUDA kernels run, and are tested,
// where there is no GPU. A CUDA kernel's own source is compiled by the host C++ compiler after a
// header that maps CUDA's keywords and built-ins (threadIdx, blockIdx, blockDim, __shared__,
// __syncthreads, __shfl_sync, __shfl_down_sync) onto an emulator; the emulator runs each block's
// threads as fibers on the calling thread, each until it reaches __syncthreads or a shuffle or
// ends; a block's barrier opens once every one of its threads has reached it, a shuffle once the
// 32 lanes of the thread's warp have (with the full mask: the kernels shuffle whole warps only).
// Blocks run one after another, so __shared__ arrays are function statics, in one section that is
// filled with set bits (NaN, -1) before each block.
// From one barrier to the next the warps take turns, each running as far as it can (through its
// shuffles), and so do the threads within a warp, in alternating order, ascending first, so a
// kernel that reads another thread's shared memory without a barrier between reads what was not
// written yet (or what a warp ahead wrote over), and its result is wrong. THUNDERCC_CUDA_EMULATOR=alternate starts descending
// instead and runs at most 3 blocks (the kernels stride over the rest, so a block takes several
// rows): the tests run both ways. Threads that end while others wait at a barrier (undefined on
// a GPU), or lanes that never join their warp's shuffle, fail the launch. One launch runs at a
// time in a process (the emulator's state is global), as the runner launches them; it is a test
// of the kernels, not a fast way to run them.
//
// Each kernel is launched as the driver API launches it: `NAME_launch(params, grid, block)`,
// where params[k] points to the k-th argument (an input or output pointer), as cuLaunchKernel's
// kernelParams do. It returns 0, 1 when the block's threads did not all reach the same barriers,
// or 2 when a thread loaded or stored a vector at an address not aligned to its size (where a
// GPU faults: the host's loads would not).
#pragma once

#include <string>

#include "thundercc/executors/fuser/kernel_source.h"

namespace thundercc::fuser {

// The emulator: one translation unit, linked into every emulation library.
GeneratedKernel cuda_emulator();

// `kernel` (generated for Target::CUDA) for the emulator, with its `NAME_launch` entry point.
GeneratedKernel emulated_cuda_kernel(const GeneratedKernel& kernel);

// The entry point's name for a CUDA function.
inline std::string emulated_launch_name(const std::string& function) { return function + "_launch"; }

}  // namespace thundercc::fuser
