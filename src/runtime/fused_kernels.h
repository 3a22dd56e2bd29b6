// The generated kernels of a plan's fusion regions at run time, each file next to the plan and
// checked against the SHA-256 the plan records before use: the CPU regions' library and the CUDA
// kernels' emulation library, loaded from the verified bytes (an in-memory file, so what runs is
// what was checked), and the CUDA kernels' PTX module, loaded by the CUDA driver on the first
// launch on a device. One Kernel per fusion instruction: its CPU function on CPU tensors, its CUDA
// kernel on CUDA tensors; with `emulate_cuda`, CPU regions run their CUDA kernel under the
// emulator instead (executors/fuser/cuda_emulation.h), launched as the driver would launch it.
//
// A kernel library is native code, as a plugin is: run plans only from folders you trust.
#pragma once

#include <memory>
#include <string>

#include "thundercc/plan/plan.h"
#include "thundercc/runtime/kernels.h"

namespace thundercc::runtime {

class CudaModule;

class FusedKernels {
 public:
  // Loads the plan's kernel library and CUDA kernels, files next to `plan_path`; throws LoadError.
  FusedKernels(const plan::Plan& plan, const std::string& plan_path, bool emulate_cuda);
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
  std::unique_ptr<Library> cpu_, emulation_;
  std::unique_ptr<CudaModule> ptx_;
  int cuda_block_ = 0;
  bool emulate_cuda_ = false;
};

}  // namespace thundercc::runtime
