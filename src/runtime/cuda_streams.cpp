// LibTorch's CUDA streams through c10's device-generic interface (cuda_streams.h).
#include "runtime/cuda_streams.h"

#include "thundercc/errors.h"

namespace thundercc::runtime {
namespace {

// c10::Stream's handle: stream_handle() in the newest LibTorch, native_handle() from PyTorch 2.2,
// none before (a template, so that a member the LibTorch lacks is not an error).
template <class S>
void* handle_of(const S& stream) {
  if constexpr (requires { stream.stream_handle(); }) return stream.stream_handle();
  else if constexpr (requires { stream.native_handle(); }) return stream.native_handle();
  else return nullptr;
}

template <class S>
constexpr bool names_handles() {
  return requires(const S& s) { s.stream_handle(); } || requires(const S& s) { s.native_handle(); };
}

c10::Device cuda_device(int device) { return c10::Device(c10::DeviceType::CUDA, static_cast<c10::DeviceIndex>(device)); }

}  // namespace

bool names_cuda_streams() { return names_handles<c10::Stream>(); }

void* current_cuda_stream(int device) {
  return handle_of(c10::impl::VirtualGuardImpl(c10::DeviceType::CUDA).getStream(cuda_device(device)));
}

PoolStreamScope::PoolStreamScope(int device)
    : impl_(c10::DeviceType::CUDA),
      stream_(impl_.getStreamFromGlobalPool(cuda_device(device))),
      previous_(impl_.getStream(cuda_device(device))) {
  // A pool stream does not wait for the default stream: what was enqueued there finishes first.
  impl_.synchronizeStream(previous_);
  impl_.exchangeStream(stream_);
}

PoolStreamScope::~PoolStreamScope() { impl_.exchangeStream(previous_); }

void* PoolStreamScope::handle() const {
  if (!names_cuda_streams())
    throw ThunderError("RuntimeError", "this LibTorch cannot name its CUDA streams' handles (c10::Stream::native_handle, PyTorch 2.2 "
                                       "and later): CUDA graphs need one");
  return handle_of(stream_);
}

}  // namespace thundercc::runtime
