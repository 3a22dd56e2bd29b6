// Running another program and collecting what it printed: the reducer runs `thundercc compile`
// and `thundercc run` on each candidate in a process of its own, so that a candidate that crashes,
// aborts or hangs is an outcome to compare, not the end of the reduction.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace thundercc {

class KilledOnInterrupt;

struct ProcessResult {
  int exit_code = -1;      // when it exited
  int signal = 0;          // when a signal ended it (0 otherwise)
  bool timed_out = false;  // killed, with its process group, past the time limit
  std::string output;      // standard output and error together, at most the first MiB
  bool succeeded() const { return exit_code == 0 && signal == 0 && !timed_out; }
};

// A shell command started in a process group of its own, its output and errors read through a
// pipe: for commands that run side by side (the fuser's compilers). An interrupt of thundercc
// kills its group (support/interrupts.h); destroying it unfinished kills and waits for it.
class StartedCommand {
 public:
  explicit StartedCommand(const std::string& command);
  ~StartedCommand();
  StartedCommand(const StartedCommand&) = delete;
  StartedCommand& operator=(const StartedCommand&) = delete;
  // Waits for it: its exit status (0 on success) and what it printed.
  std::pair<int, std::string> finish();

 private:
  int pid_ = -1, output_ = -1;
  std::unique_ptr<KilledOnInterrupt> killed_on_interrupt_;
};

// Runs argv[0] (a path; PATH is not searched) with its standard output and error captured, in a
// process group of its own (the compilers it starts are killed with it). Throws std::runtime_error
// when it cannot be started.
ProcessResult run_process(const std::vector<std::string>& argv, double timeout_seconds);

}  // namespace thundercc
