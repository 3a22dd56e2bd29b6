// `thundercc reduce` as a library call: shrinks a trace.json that fails (to compile, to run, or to
// agree with the torch executor) to a smallest program that still fails the same way, as LLVM's
// llvm-reduce and PyTorch's minifiers do, and writes it with a PyTorch script that runs it eagerly.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace thundercc {

enum class Failure : uint8_t {
  CompileFails,  // `thundercc compile` exits with an error (or crashes, or hangs)
  RunFails,      // it compiles, and `thundercc run --fill random` exits with an error
  Differs,       // it runs, and its outputs or gradients differ from the plan compiled with --executors torch
};

struct ReduceOptions {
  Failure until = Failure::CompileFails;
  std::string out_dir = ".";
  // A candidate fails "the same way" when its output contains this text; when empty, when its
  // first error line equals the original's up to numbers (statement indices, slots, sizes).
  std::string expect_error;
  std::string executors;             // compile's --executors (empty: its default list)
  std::vector<std::string> plugins;  // given to every compile and run
  // compile's other options (`reduce ... -- --optimizer sgd --lr 0.1`), given to every candidate's
  // compile, the reference's too: a failure that needs them can be reduced.
  std::vector<std::string> compile_options;
  // Differs: the tolerances. Looser than run's defaults (Thunder's by dtype): a candidate's inputs
  // are random where the program computed them, and on such values two executors that sum in
  // another order differ past float32's tight tolerances without being wrong.
  double rtol = 1e-3, atol = 1e-3;
  std::optional<int64_t> seed;       // run's --seed: of the random inputs and the plan's random ops
  double timeout_seconds = 300;                // per compile or run; past it, the outcome is "timed out"
};

// Reduces the trace.json at `path` and writes DIR/NAME.reduced.json and DIR/NAME.reduced.py (both
// or neither). Throws LoadError when the file cannot be read or does not fail the way asked.
void reduce_file(const std::string& path, const ReduceOptions& options);

}  // namespace thundercc
