// The generated kernels of a plan's fusion regions at run time. A plan is data: by default the
// runner generates each region's kernels from the prims the plan records (checked by their meta
// functions when the plan was decoded) with its own code generator, and builds them with this
// machine's compiler in this user's kernel cache (executors/fuser/kernel_library.h), for this
// CPU. The files `compile` wrote beside the plan are native code from whoever wrote the plan:
// they are loaded only with `trust_kernels` (run --trust-kernels), once their SHA-256 is the one
// the plan records and this CPU has the features they were built for.
//
// Libraries are loaded from their bytes (an in-memory file, so what runs is what was built or
// checked); the CUDA kernels' PTX module is loaded by the CUDA driver on the first launch on a
// device. One Kernel per fusion instruction: its CPU function on CPU tensors, its CUDA kernel on
// CUDA tensors; with `emulate_cuda`, CPU regions run their CUDA kernel under the emulator instead
// (executors/fuser/cuda_emulation.h), launched as the driver would launch it.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "thundercc/plan/plan.h"
#include "thundercc/runtime/kernels.h"
#include "thundercc/runtime/plan_runner.h"

namespace thundercc::runtime {

class CudaModule;

class FusedKernels {
 public:
  // Builds (or, trusted, loads from next to `plan_path`) the plan's kernels; throws LoadError.
  FusedKernels(const plan::Plan& plan, const std::string& plan_path, KernelOptions options);
  ~FusedKernels();
  FusedKernels(const FusedKernels&) = delete;
  FusedKernels& operator=(const FusedKernels&) = delete;

  // The kernel of one fusion instruction; `at` names it in errors.
  Kernel kernel(const plan::Fusion& fusion, const std::string& at, const std::string& where) const;

 private:
  struct Library {  // a library loaded from verified bytes
    void* handle = nullptr;
    int fd = -1;  // the in-memory file it was loaded from
    std::string name;
    void load(const std::string& bytes, const std::string& name, const std::string& at);
    ~Library();
  };
  void build(const plan::Plan& plan, const std::string& where);
  void load_trusted(const plan::Plan& plan, const std::string& plan_path, const std::string& where);

  std::unique_ptr<Library> cpu_, emulation_;
  std::unique_ptr<CudaModule> ptx_;
  int cuda_block_ = 0;
  bool emulate_cuda_ = false;
  // Built here: each region's functions (by region name), which replace the plan's records.
  std::map<std::string, std::string> functions_;
  std::map<std::string, std::pair<std::string, int64_t>> cuda_functions_;  // name and grid
  // Each CPU region's sizes argument (by region name), built or trusted.
  std::map<std::string, std::vector<int64_t>> sizes_;
  // The channels-last twins' kernels (by region name), built or trusted.
  std::map<std::string, PlanKernels::Twin> channels_last_;
};

}  // namespace thundercc::runtime
