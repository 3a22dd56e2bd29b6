// Faults in memory for the allocator before the caller asks for it, on a thread of its own.
#pragma once

#include <cstddef>
#include <thread>

namespace thundercc {

// Takes `bytes` from the allocator on the caller's thread (jemalloc's arena of this thread),
// then on a second thread touches each page and frees it back: the caller's later allocations
// reuse pages already faulted in. Does nothing unless the executable runs on jemalloc (which
// keeps freed pages for reuse; glibc's malloc would unmap them). The destructor waits.
class HeapWarming {
 public:
  explicit HeapWarming(size_t bytes);
  ~HeapWarming();
  HeapWarming(const HeapWarming&) = delete;
  HeapWarming& operator=(const HeapWarming&) = delete;

 private:
  std::thread toucher_;
};

}  // namespace thundercc
