// Wall-clock time per compiler phase, printed by `thundercc compile --time-passes` (as LLVM's
// -time-passes): where a compile's time goes, without a profiler. Off unless enabled, then a
// phase costs two clock reads and a lock. Safe to use from several threads.
#pragma once

#include <chrono>
#include <string>
#include <string_view>

namespace thundercc {

class PhaseTimer {
 public:
  // Times the enclosing scope as `phase`; a phase timed again adds up. Phases started inside
  // another are reported indented under it.
  explicit PhaseTimer(std::string_view phase);
  ~PhaseTimer();
  PhaseTimer(const PhaseTimer&) = delete;
  PhaseTimer& operator=(const PhaseTimer&) = delete;

  static void enable();
  static bool enabled();
  // One line per phase in the order first started: milliseconds, share of the outermost phases'
  // total, and how many times it ran.
  static std::string report();

 private:
  int index_ = -1;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace thundercc
