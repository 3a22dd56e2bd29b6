#include "thundercc/support/phase_timer.h"

#include <cstdio>
#include <vector>

namespace thundercc {
namespace {

struct Phase {
  std::string name;
  int depth;
  double seconds = 0;
  int runs = 0;
};

struct Timings {
  bool enabled = false;
  int depth = 0;
  std::vector<Phase> phases;
};

Timings& timings() {
  static Timings t;
  return t;
}

}  // namespace

PhaseTimer::PhaseTimer(std::string_view phase) {
  Timings& t = timings();
  if (!t.enabled) return;
  for (size_t i = 0; i < t.phases.size() && index_ < 0; ++i)
    if (t.phases[i].name == phase && t.phases[i].depth == t.depth) index_ = static_cast<int>(i);
  if (index_ < 0) {
    index_ = static_cast<int>(t.phases.size());
    t.phases.push_back({std::string(phase), t.depth});
  }
  ++t.depth;
  start_ = std::chrono::steady_clock::now();
}

PhaseTimer::~PhaseTimer() {
  if (index_ < 0) return;
  Timings& t = timings();
  Phase& p = t.phases[index_];
  p.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  ++p.runs;
  --t.depth;
}

void PhaseTimer::enable() { timings().enabled = true; }

std::string PhaseTimer::report() {
  const Timings& t = timings();
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
