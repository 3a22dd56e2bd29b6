// A PTX module launched through the CUDA driver API. libcuda is found at run time (dlopen of
// libcuda.so.1), never linked, so the runtime builds and loads where there is no GPU; the first
// launch on a device loads the module into that device's primary context (the one LibTorch's CUDA
// runtime uses), where the driver compiles the PTX for the GPU it finds.
//
// Kernels run on the legacy default stream, which is LibTorch's current stream unless a caller
// made another current (thundercc run never does): they are ordered with LibTorch's own kernels
// on it, and the runner's tensors are allocated by LibTorch's CUDA allocator for that stream.
// Launches are asynchronous, as LibTorch's: a fault inside a kernel is reported by a later call.
// A launch leaves its device's primary context current on the calling thread, as LibTorch's
// runtime API calls do.
#pragma once

#include <map>
#include <mutex>
#include <string>
#include <utility>

namespace thundercc::runtime {

class CudaModule {
 public:
  explicit CudaModule(std::string ptx) : ptx_(std::move(ptx)) {}
  ~CudaModule();  // unloads the module from each device it was loaded into
  CudaModule(const CudaModule&) = delete;
  CudaModule& operator=(const CudaModule&) = delete;

  // Launches `function` on CUDA device `device` with `grid` blocks of `block` threads, or as
  // many as the device runs at once where that is fewer (its multiprocessors times the
  // function's blocks per multiprocessor at full occupancy: the generated kernels stride over
  // any grid); `params` as cuLaunchKernel's kernelParams (params[k] points to argument k).
  // Throws ThunderError with the driver's message.
  void launch(const std::string& function, int device, unsigned grid, unsigned block, void** params) const;

 private:
  struct Function {
    void* handle = nullptr;  // CUfunction
    unsigned block = 0;      // the block size `resident` was found for
    unsigned resident = 0;   // its blocks of `block` threads the device runs at once
  };
  struct Device {
    void* context = nullptr;  // CUcontext: the device's primary context
    void* module = nullptr;   // CUmodule
    int multiprocessors = 0;
    std::map<std::string, Function> functions;  // by name
  };
  // The function, with its device's context made current on this thread; the module is loaded
  // into each device once, a function's occupancy found once per block size.
  Function load(const std::string& function, int device, unsigned block) const;

  std::string ptx_;
  mutable std::mutex mutex_;
  mutable std::map<int, Device> devices_;
};

}  // namespace thundercc::runtime
