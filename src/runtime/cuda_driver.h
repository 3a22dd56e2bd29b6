// A PTX module launched through the CUDA driver API. libcuda is found at run time (dlopen of
// libcuda.so.1), never linked, so the runtime builds and loads where there is no GPU; the first
// launch on a device loads the module into that device's primary context (the one LibTorch's CUDA
// runtime uses), where the driver compiles the PTX for the GPU it finds.
//
// Kernels run on the stream they are given: LibTorch's current stream (cuda_streams.h), so that
// they are ordered with LibTorch's own kernels on it and with the runner's tensors, which
// LibTorch's CUDA allocator serves for that stream. Launches are asynchronous, as LibTorch's: a
// fault inside a kernel is reported by a later call. A launch leaves its device's primary context
// current on the calling thread, as LibTorch's runtime API calls do.
//
// CudaGraph: the work enqueued on a stream recorded once (stream capture) and replayed there with
// one launch (run --cuda-graphs).
#pragma once

#include <functional>
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
  // any grid); `params` as cuLaunchKernel's kernelParams (params[k] points to argument k);
  // `stream` a CUstream (null: the legacy default stream). Throws ThunderError with the driver's message.
  void launch(const std::string& function, int device, unsigned grid, unsigned block, void** params, void* stream) const;

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

// The device work `enqueue` puts on `stream` (a CUstream other than the legacy default stream,
// whose context is current), recorded without running it and instantiated once; launch() replays
// it. The capture is thread-local: a call from this thread that would wait for the device (a
// synchronization, a copy to pageable host memory) fails it, and the error names the call.
class CudaGraph {
 public:
  CudaGraph(void* stream, const std::function<void()>& enqueue);
  ~CudaGraph();
  CudaGraph(const CudaGraph&) = delete;
  CudaGraph& operator=(const CudaGraph&) = delete;

  void launch(void* stream) const;
  size_t nodes() const { return nodes_; }
  size_t kernels() const { return kernels_; }  // of the nodes, kernel launches

 private:
  void* graph_ = nullptr;  // CUgraph
  void* exec_ = nullptr;   // CUgraphExec
  size_t nodes_ = 0, kernels_ = 0;
};

// The name of CUDA device `device` (cuDeviceGetName: "NVIDIA H200"), what a measured choice is for.
std::string cuda_device_name(int device);

// Waits for the work enqueued on `stream` (a CUstream); whether it is being captured now.
void synchronize_stream(void* stream);
bool stream_is_capturing(void* stream);

}  // namespace thundercc::runtime
