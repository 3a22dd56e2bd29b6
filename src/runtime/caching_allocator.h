// A caching CPU allocator for `thundercc run`: freed blocks of 1 MiB and more stay with the
// process and serve the next request of the same (rounded) size, so a plan run again allocates
// no fresh memory from the system. Each fresh large block costs a page fault per 4 KiB page
// (a 128 MB tensor about 0.5 s here); after the first runs, none.
//
// Installed as LibTorch's CPU allocator, it serves every ATen allocation of the process, and
// counts the bytes live (with their peak) and the bytes taken fresh from the system.
#pragma once

#include <cstddef>

namespace thundercc::runtime {

struct AllocatorStats {
  size_t live_bytes = 0;
  size_t peak_live_bytes = 0;   // since the last reset_peak
  size_t fresh_bytes = 0;       // blocks of 1 MB and more newly allocated since the last reset_peak (malloc reuses smaller ones)
  size_t cached_bytes = 0;      // freed blocks kept for reuse
};

// Makes the caching allocator LibTorch's CPU allocator (idempotent).
void install_caching_allocator();
AllocatorStats allocator_stats();
void reset_allocator_peak();
// Also exported as C functions (thundercc_install_caching_allocator, thundercc_reset_allocator_peak,
// thundercc_allocator_live_bytes, thundercc_allocator_peak_bytes) for measuring PyTorch eager.

}  // namespace thundercc::runtime
