#include "runtime/caching_allocator.h"

#include <c10/core/CPUAllocator.h>
#include <c10/core/impl/alloc_cpu.h>

#include <map>
#include <mutex>

namespace thundercc::runtime {
namespace {

constexpr size_t kCachedFrom = size_t{1} << 20;  // smaller blocks: malloc reuses them well already
constexpr size_t kGranule = size_t{64} << 10;

struct Block {
  void* data;
  size_t size;  // as counted (rounded for cached blocks)
};

class CachingAllocator final : public c10::Allocator {
 public:
  c10::DataPtr allocate(size_t n) const override {
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
      if (!data) stats_.fresh_bytes += size;
      stats_.live_bytes += size;
      if (stats_.live_bytes > stats_.peak_live_bytes) stats_.peak_live_bytes = stats_.live_bytes;
    }
    if (!data) data = c10::alloc_cpu(size == 0 ? 1 : size);
    return {data, new Block{data, size}, &CachingAllocator::release, c10::Device(c10::DeviceType::CPU)};
  }

  static void release(void* context) {
    auto* block = static_cast<Block*>(context);
    instance().give_back(*block);
    delete block;
  }

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
  void give_back(const Block& block) {
    std::lock_guard<std::mutex> lock(mutex_);
    stats_.live_bytes -= block.size;
    if (block.size < kCachedFrom) {
      c10::free_cpu(block.data);
      return;
    }
    free_.emplace(block.size, block.data);
    stats_.cached_bytes += block.size;
  }

  mutable std::mutex mutex_;
  mutable std::multimap<size_t, void*> free_;
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
