// `thundercc compile` as a library call: what the CLI parses, the driver runs (compile.cpp).
#pragma once

#include <future>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "thundercc/extend.h"
#include "thundercc/passes/passes.h"
#include "thundercc/support/heap_warming.h"

namespace thundercc {

struct CompileOptions {
  std::string out_dir = ".";
  std::vector<const Executor*> executors;  // in priority order
  bool print_after_all = false;            // also each pass's trace, NAME.N.py
  GradMode mode = GradMode::Auto;
  bool emit_cuda = false;                  // every region's CUDA kernel too
  bool time_passes = false;                // phases timed on their own (printing not beside the kernels)
  int64_t seed = 0;                        // the plan's seed for its random ops
  NameStyle names = NameStyle::Thunder;    // how values and fusion regions are named (ir/trace.h)
  Distributed distributed;                 // a training step spread over ranks (passes.h)
  Optimizer optimizer;                     // the parameters' update after the backward (passes.h)
};

// The executors named in `names` (comma separated), or the default list when it is empty
// (warning when the fuser is left out because no C++ compiler runs).
std::vector<const Executor*> executor_list(const std::string& names);

// A trace.json read and parsed on a thread of its own, on a heap warmed for compiling it, while the
// caller goes on with what needs no trace: the CLI registers the built-in symbols and executors
// (a few ms) meanwhile, since parsing looks no symbol up.
class ParsedTrace {
 public:
  explicit ParsedTrace(const std::string& path);
  nlohmann::json take();  // the document, once; rethrows what reading or parsing threw

 private:
  std::optional<HeapWarming> warming_;  // held through the compile: its pages are the compile's
  std::future<nlohmann::json> document_;
};

// Loads, checks and compiles the trace.json at `path` (`parsed` already, or read here) and writes
// its execution trace(s), plan and kernels into options.out_dir, all or none. Throws LoadError
// naming the file. With `free_at_exit`, what it built is left for the process's exit to free
// (clang's -disable-free).
void compile_file(const std::string& path, const CompileOptions& options, bool free_at_exit, ParsedTrace* parsed = nullptr);

}  // namespace thundercc
