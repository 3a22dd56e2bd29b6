// Liveness-based arena planning (see memory_plan.h): which values get a buffer, how long each
// buffer lives, then greedy-by-size placement.
#include "thundercc/plan/memory_plan.h"

#include <algorithm>

namespace thundercc {
namespace {

struct Buffer {
  int64_t bytes = 0;
  size_t first = 0, last = 0;  // the statements it is live through, both included
};

int64_t aligned(int64_t bytes) { return (bytes + MemoryPlan::kAlignment - 1) / MemoryPlan::kAlignment * MemoryPlan::kAlignment; }

class Liveness {
 public:
  Liveness(const std::vector<MemoryValue>& values, const std::vector<MemoryStep>& steps, const std::vector<int>& outputs)
      : values_(values), steps_(steps), last_use_(values.size(), steps.size()), reaches_output_(values.size(), false),
        keeps_(values.size()), owns_(values.size(), -1) {
    for (size_t i = 0; i < steps.size(); ++i)
      for (int s : steps[i].frees) last_use_[s] = i;
    // A value reaches the caller if it is an output or what a possible view of it made is: such a
    // value gets no buffer (written in place over a dying input, it would take that buffer with it),
    // so no value keeping a buffer is ever an output.
    for (int s : outputs)
      if (s >= 0) reaches_output_[s] = true;
    for (size_t i = steps.size(); i-- > 0;) {
      const MemoryStep& step = steps[i];
      if (step.out_buffer || step.fresh_outputs) continue;
      for (int o : step.writes)
        if (o >= 0 && reaches_output_[o])
          for (int r : step.reads) reaches_output_[r] = true;
    }
  }

  // Assigns a buffer (an index into buffers()) to every planned write: per step, per write, or -1.
  std::vector<std::vector<int>> assign() {
    std::vector<std::vector<int>> assigned(steps_.size());
    for (size_t i = 0; i < steps_.size(); ++i) {
      const MemoryStep& step = steps_[i];
      assigned[i].assign(step.writes.size(), -1);
      for (size_t k = 0; k < step.writes.size(); ++k) {
        int o = step.writes[k];
        if (o < 0) continue;
        if (!step.out_buffer && step.fresh_outputs) {
          keep(o, {});
          continue;
        }
        if (!step.out_buffer) {  // may be a view of any input: keeps what they keep
          std::vector<int> kept;
          for (int r : step.reads)
            for (int b : keeps_[r])
              if (std::find(kept.begin(), kept.end(), b) == kept.end()) kept.push_back(b);
          keep(o, kept);
          continue;
        }
        if (values_[o].bytes <= 0 || reaches_output_[o]) continue;  // fresh storage the kernel makes itself
        int b = step.out_may_alias_input ? dying_input_buffer(i, o, assigned[i]) : -1;
        if (b >= 0) {
          ++in_place_;
        } else {
          b = static_cast<int>(buffers_.size());
          buffers_.push_back({values_[o].bytes, i, i});
        }
        owns_[o] = b;
        keep(o, {b});
        assigned[i][k] = b;
      }
    }
    return assigned;
  }

  const std::vector<Buffer>& buffers() const { return buffers_; }
  size_t in_place() const { return in_place_; }

 private:
  void keep(int slot, std::vector<int> buffers) {
    for (int b : buffers) buffers_[b].last = std::max(buffers_[b].last, last_use_[slot]);
    keeps_[slot] = std::move(buffers);
  }

  // A buffer step i may write output `o` into in place: an input's own buffer, of o's shape and
  // dtype, that nothing keeps past step i, and that every input reading it reads whole (no view).
  int dying_input_buffer(size_t i, int o, const std::vector<int>& taken_here) const {
    const MemoryStep& step = steps_[i];
    for (int r : step.reads) {
      int b = owns_[r];
      if (b < 0 || buffers_[b].last > i) continue;
      if (values_[r].shape != values_[o].shape || values_[r].dtype != values_[o].dtype) continue;
      if (std::find(taken_here.begin(), taken_here.end(), b) != taken_here.end()) continue;
      bool read_whole = std::all_of(step.reads.begin(), step.reads.end(), [&](int x) {
        return std::find(keeps_[x].begin(), keeps_[x].end(), b) == keeps_[x].end() || owns_[x] == b;
      });
      if (read_whole) return b;
    }
    return -1;
  }

  const std::vector<MemoryValue>& values_;
  const std::vector<MemoryStep>& steps_;
  std::vector<size_t> last_use_;  // the step after which a slot is freed (steps.size(): never)
  std::vector<bool> reaches_output_;
  std::vector<std::vector<int>> keeps_;  // per slot: the buffers its storage may be in
  std::vector<int> owns_;                // per slot: the buffer it is the whole tensor of, or -1
  std::vector<Buffer> buffers_;
  size_t in_place_ = 0;  // outputs written over an input's buffer
};

// Greedy by size: each buffer, largest first, at the lowest offset where no buffer live at the
// same time lies. Returns the offsets and the arena's size.
std::pair<std::vector<int64_t>, int64_t> place(const std::vector<Buffer>& buffers) {
  std::vector<size_t> order(buffers.size());
  for (size_t b = 0; b < buffers.size(); ++b) order[b] = b;
  std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) { return buffers[x].bytes > buffers[y].bytes; });
  std::vector<int64_t> offsets(buffers.size());
  std::vector<size_t> placed;
  int64_t arena = 0;
  std::vector<std::pair<int64_t, int64_t>> busy;
  for (size_t b : order) {
    busy.clear();
    for (size_t p : placed)
      if (buffers[p].first <= buffers[b].last && buffers[b].first <= buffers[p].last)
        busy.emplace_back(offsets[p], offsets[p] + aligned(buffers[p].bytes));
    std::sort(busy.begin(), busy.end());
    int64_t offset = 0, size = aligned(buffers[b].bytes);
    for (const auto& [start, end] : busy) {
      if (offset + size <= start) break;
      offset = std::max(offset, end);
    }
    offsets[b] = offset;
    arena = std::max(arena, offset + size);
    placed.push_back(b);
  }
  return {offsets, arena};
}

}  // namespace

MemoryPlan plan_memory(const std::vector<MemoryValue>& values, const std::vector<MemoryStep>& steps, const std::vector<int>& outputs) {
  Liveness liveness(values, steps, outputs);
  std::vector<std::vector<int>> assigned = liveness.assign();
  auto [buffer_offsets, arena] = place(liveness.buffers());
  MemoryPlan plan;
  plan.arena_bytes = arena;
  plan.in_place = liveness.in_place();
  plan.buffers = liveness.buffers().size();
  for (const Buffer& b : liveness.buffers()) plan.buffer_bytes += aligned(b.bytes);
  plan.offsets.resize(steps.size());
  for (size_t i = 0; i < steps.size(); ++i)
    for (int b : assigned[i]) plan.offsets[i].push_back(b < 0 ? -1 : buffer_offsets[b]);
  return plan;
}

}  // namespace thundercc
