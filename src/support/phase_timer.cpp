#include "thundercc/support/phase_timer.h"

#include <atomic>
#include <cstdio>
#include <mutex>
#include <vector>

namespace thundercc {
namespace {

struct Phase {
  std::string name;
  int depth;
  double seconds = 0;
  int runs = 0;
};

// Phases may be timed on several threads (the traces print beside the kernels' build): the list
// is shared under a lock, the nesting depth is each thread's own.
struct Timings {
  std::atomic<bool> enabled = false;
  std::mutex lock;
  std::vector<Phase> phases;
};

thread_local int depth = 0;

Timings& timings() {
  static Timings t;
  return t;
}

}  // namespace

PhaseTimer::PhaseTimer(std::string_view phase) {
  Timings& t = timings();
  if (!t.enabled.load(std::memory_order_relaxed)) return;
  {
    std::lock_guard<std::mutex> guard(t.lock);
    for (size_t i = 0; i < t.phases.size() && index_ < 0; ++i)
      if (t.phases[i].name == phase && t.phases[i].depth == depth) index_ = static_cast<int>(i);
    if (index_ < 0) {
      index_ = static_cast<int>(t.phases.size());
      t.phases.push_back({std::string(phase), depth});
    }
  }
  ++depth;
  start_ = std::chrono::steady_clock::now();
}

PhaseTimer::~PhaseTimer() {
  if (index_ < 0) return;
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  --depth;
  Timings& t = timings();
  std::lock_guard<std::mutex> guard(t.lock);
  Phase& p = t.phases[index_];
  p.seconds += seconds;
  ++p.runs;
}

void PhaseTimer::enable() { timings().enabled = true; }

bool PhaseTimer::enabled() { return timings().enabled.load(std::memory_order_relaxed); }

std::string PhaseTimer::report() {
  Timings& t = timings();
  std::lock_guard<std::mutex> guard(t.lock);
  double total = 0;
  for (const auto& p : t.phases)
    if (p.depth == 0) total += p.seconds;
  std::string out = "phase times (wall clock):\n";
  char line[512];
  for (const auto& p : t.phases) {
    std::snprintf(line, sizeof line, "%9.2f ms %5.1f%%  %*s%s%s\n", p.seconds * 1e3, total > 0 ? 100 * p.seconds / total : 0.0,
                  2 * p.depth, "", p.name.c_str(), p.runs > 1 ? (" (x" + std::to_string(p.runs) + ")").c_str() : "");
    out += line;
  }
  std::snprintf(line, sizeof line, "%9.2f ms  total\n", total * 1e3);
  return out + line;
}

}  // namespace thundercc
