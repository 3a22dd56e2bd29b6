// plan.json: what `thundercc run` needs and nothing it must re-derive. Built from an execution
// trace: every tensor gets a slot; each statement becomes an instruction naming the operator
// (and so the kernel) that runs it, its arguments as slots and constants, its output slots, and
// the slots to free after it (from the trace's `del` statements).
#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <string>

#include "thundercc/ir/trace.h"

namespace thundercc {

inline constexpr const char* kPlanFormat = "thundercc.plan";
inline constexpr int kPlanFormatVersion = 2;

// The generated kernels of a plan's fusion regions: the CPU regions' library (written next to
// the plan) and which of its functions runs each region; with CUDA kernels (the regions on a
// CUDA device, every region with --emit-cuda), their PTX module, the emulation library that runs
// them on the CPU (codegen/cuda_emulation.h), and each region's CUDA function and grid.
struct PlanKernels {
  std::string library;   // the file name, in the plan's folder
  std::string sha256;    // of the library
  std::string compiler;  // what built it, with which flags
  std::string flags;
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
};

// With a backward trace (a training step), the plan also holds the backward program; the forward
// program's output is then (outputs, saved_for_backward). A trace with fusion regions needs `kernels`.
nlohmann::json build_plan(const Trace& execution_trace, const Trace* backward = nullptr, int64_t saved_bytes = 0,
                          const PlanKernels* kernels = nullptr);

}  // namespace thundercc
