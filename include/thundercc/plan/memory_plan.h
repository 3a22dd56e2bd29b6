// Memory planning: places a program's intermediates in one arena by liveness, so that a plan run
// again allocates nothing for them, and storage freed early serves values made later.
//
// A value is planned when the statement that makes it writes into a buffer (its operator is
// tagged kOutBuffer, see extend.h). Any other statement may return views of its inputs (reshape,
// expand, `to` of the same dtype), so its outputs keep alive every buffer their inputs keep,
// unless its operator is tagged kFreshOutputs. A
// buffer lives from the statement that writes it until the last value keeping it is freed; a
// buffer a program output keeps is not planned (outputs go to the caller and must survive the
// next run). Where the operator allows it (kOutMayAliasInput), an output takes the buffer of a
// same-typed input that dies at that statement (in place). Buffers are then placed largest first,
// each at the lowest offset free throughout its lifetime (greedy by size).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace thundercc {

// One tensor slot of the program.
struct MemoryValue {
  int64_t bytes = 0;  // 0: never planned (empty, or not a CPU tensor)
  std::vector<int64_t> shape;
  int dtype = 0;  // any code that is equal for equal dtypes
};

// One statement of the program, in order.
struct MemoryStep {
  std::vector<int> reads;   // slots it reads
  std::vector<int> writes;  // its output slots, -1 where an output is not a tensor
  std::vector<int> frees;   // slots freed after it
  bool out_buffer = false;
  bool out_may_alias_input = false;
  bool fresh_outputs = false;  // outputs it does not write into buffers are still no views
};

struct MemoryPlan {
  static constexpr int64_t kAlignment = 64;  // what ATen's CPU allocator gives
  int64_t arena_bytes = 0;
  std::vector<std::vector<int64_t>> offsets;  // per step, per write: the arena offset, or -1 (not planned)
  int64_t buffer_bytes = 0;  // the planned buffers' sizes summed: the arena without reuse
  size_t buffers = 0;        // planned buffers
  size_t in_place = 0;       // outputs that took an input's buffer
};

// `outputs`: the slots the program returns.
MemoryPlan plan_memory(const std::vector<MemoryValue>& values, const std::vector<MemoryStep>& steps, const std::vector<int>& outputs);

}  // namespace thundercc
