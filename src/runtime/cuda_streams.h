// LibTorch's current CUDA stream as the driver's handle, and a stream of LibTorch's pool made
// current for a while (run --cuda-graphs: the legacy default stream cannot be captured). Through
// c10's device-generic interface only, so that the runtime builds against a LibTorch without
// CUDA, where no CUDA stream is ever asked for.
#pragma once

#include <c10/core/Stream.h>
#include <c10/core/impl/VirtualGuardImpl.h>

namespace thundercc::runtime {

// The CUstream of LibTorch's current stream on CUDA device `device` (null for the legacy default
// stream). A LibTorch that cannot name a stream's handle (before PyTorch 2.2) gives null: its
// default stream, the only one thundercc makes current there.
void* current_cuda_stream(int device);

// Whether this LibTorch names its streams' handles (what --cuda-graphs needs).
bool names_cuda_streams();

// While it lives: a stream from LibTorch's pool is LibTorch's current stream on `device`, after
// the work already enqueued there has finished; the one before it is current again after.
class PoolStreamScope {
 public:
  explicit PoolStreamScope(int device);
  ~PoolStreamScope();
  PoolStreamScope(const PoolStreamScope&) = delete;
  PoolStreamScope& operator=(const PoolStreamScope&) = delete;
  void* handle() const;  // its CUstream

 private:
  c10::impl::VirtualGuardImpl impl_;
  c10::Stream stream_, previous_;
};

}  // namespace thundercc::runtime
