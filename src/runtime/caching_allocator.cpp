#include "runtime/caching_allocator.h"

#include <c10/core/CPUAllocator.h>
#include <c10/core/impl/alloc_cpu.h>
#include <torch/version.h>

#include <map>
#include <mutex>
#include <unordered_map>

namespace thundercc::runtime {
namespace {

constexpr size_t kCachedFrom = size_t{1} << 20;  // smaller blocks: malloc reuses them well already
constexpr size_t kGranule = size_t{64} << 10;

// LibTorch 2.3 made Allocator::allocate non-const and added copy_data (a GPU machine's PyTorch
// builds the runtime too: scripts/gpu_check.sh).
#define THUNDERCC_TORCH_2_3 (TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 3))
#if THUNDERCC_TORCH_2_3
#define THUNDERCC_ALLOCATE_CONST
#else
#define THUNDERCC_ALLOCATE_CONST const
#endif

class CachingAllocator final : public c10::Allocator {
 public:
#if THUNDERCC_TORCH_2_3
  void copy_data(void* dest, const void* src, size_t count) const override { default_copy_data(dest, src, count); }
#endif

  c10::DataPtr allocate(size_t n) THUNDERCC_ALLOCATE_CONST override {
    size_t size = n >= kCachedFrom ? (n + kGranule - 1) / kGranule * kGranule : n;
    void* data = nullptr;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (size >= kCachedFrom) {
        auto it = free_.find(size);
        if (it != free_.end()) {
          data = it->second;
          free_.erase(it);
          stats_.cached_bytes -= size;
        }
      }
      if (!data && size >= kCachedFrom) stats_.fresh_bytes += size;
      stats_.live_bytes += size;
      if (stats_.live_bytes > stats_.peak_live_bytes) stats_.peak_live_bytes = stats_.live_bytes;
    }
    if (!data) data = c10::alloc_cpu(size == 0 ? 1 : size);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      sizes_[data] = size;
    }
    // The context is the pointer itself, as raw_allocate (oneDNN's scratch memory) requires.
    return {data, data, &CachingAllocator::release, c10::Device(c10::DeviceType::CPU)};
  }

  c10::DeleterFnPtr raw_deleter() const override { return &CachingAllocator::release; }

  static void release(void* data) { instance().give_back(data); }

  static CachingAllocator& instance() {
    static auto* allocator = new CachingAllocator();  // never destroyed: tensors outlive static destructors
    return *allocator;
  }

  AllocatorStats stats() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return stats_;
  }

  void reset_peak() {
    std::lock_guard<std::mutex> lock(mutex_);
    stats_.peak_live_bytes = stats_.live_bytes;
    stats_.fresh_bytes = 0;
  }

 private:
  void give_back(void* data) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = sizes_.find(data);
    size_t size = it->second;
    sizes_.erase(it);
    stats_.live_bytes -= size;
    if (size < kCachedFrom) {
      c10::free_cpu(data);
      return;
    }
    free_.emplace(size, data);
    stats_.cached_bytes += size;
  }

  mutable std::mutex mutex_;
  mutable std::multimap<size_t, void*> free_;
  mutable std::unordered_map<void*, size_t> sizes_;  // live blocks, as counted (large ones rounded)
  mutable AllocatorStats stats_;
};

}  // namespace

void install_caching_allocator() {
  static bool installed = [] {
    c10::SetCPUAllocator(&CachingAllocator::instance(), /*priority=*/1);
    return true;
  }();
  (void)installed;
}

AllocatorStats allocator_stats() { return CachingAllocator::instance().stats(); }

void reset_allocator_peak() { CachingAllocator::instance().reset_peak(); }

}  // namespace thundercc::runtime

// The same counting from another process: benchmarks/peak_memory.py loads this library into
// PyTorch (the same LibTorch) with ctypes, so eager's peak is measured exactly as ours.
extern "C" {
void thundercc_install_caching_allocator() { thundercc::runtime::install_caching_allocator(); }
void thundercc_reset_allocator_peak() { thundercc::runtime::reset_allocator_peak(); }
size_t thundercc_allocator_live_bytes() { return thundercc::runtime::allocator_stats().live_bytes; }
size_t thundercc_allocator_peak_bytes() { return thundercc::runtime::allocator_stats().peak_live_bytes; }
}
