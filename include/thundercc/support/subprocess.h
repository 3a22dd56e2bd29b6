// Running another program and collecting what it printed: the reducer runs `thundercc compile`
// and `thundercc run` on each candidate in a process of its own, so that a candidate that crashes,
// aborts or hangs is an outcome to compare, not the end of the reduction.
#pragma once

#include <string>
#include <vector>

namespace thundercc {

struct ProcessResult {
  int exit_code = -1;      // when it exited
  int signal = 0;          // when a signal ended it (0 otherwise)
  bool timed_out = false;  // killed, with its process group, past the time limit
  std::string output;      // standard output and error together, at most the first MiB
  bool succeeded() const { return exit_code == 0 && signal == 0 && !timed_out; }
};

// Runs argv[0] (a path; PATH is not searched) with its standard output and error captured, in a
// process group of its own (the compilers it starts are killed with it). Throws std::runtime_error
// when it cannot be started.
ProcessResult run_process(const std::vector<std::string>& argv, double timeout_seconds);

}  // namespace thundercc
