// Passes and the pass manager. A pass maps a trace to a new trace of the same series; the manager
// runs named passes in a declared order, stamps each result with its "# Constructed by" line and
// keeps every stage (for --print-after-all). Executors may bring passes of their own that run
// right after claiming when they are in the executor list, as Thunder's fusion executors do.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "thundercc/extend.h"
#include "thundercc/ir/trace.h"

namespace thundercc {

struct PassContext {
  std::vector<const Executor*> executors;
  SymbolTable* symbols = nullptr;  // the compilation's own symbols, over the global table
  bool keep_stages = true;         // false: PassManager::run returns only the last stage
};

struct Pass {
  std::string name;  // the provenance it gives its trace: "Dead Code Elimination"
  std::function<Trace(Trace, const PassContext&)> run;
};

struct PassStage {
  std::string name;  // the pass that made the trace
  Trace trace;
};

class PassManager {
 public:
  PassManager& add(Pass pass);
  const std::vector<Pass>& passes() const { return passes_; }
  // Runs every pass in order; returns every stage (only the last, without context.keep_stages),
  // the last one being the result. Without kept stages, each trace, `trace` included, moves into
  // the pass that replaces it.
  std::vector<PassStage> run(Trace trace, const PassContext& context) const;

 private:
  std::vector<Pass> passes_;
};

}  // namespace thundercc
