// The passes from a traced program to an execution trace. Each returns a new trace of the same
// series (sharing names) whose provenance names the pass, as Thunder's "# Constructed by" line does.
#pragma once

#include <vector>

#include "thundercc/extend.h"
#include "thundercc/ir/trace.h"

namespace thundercc {

// Keeps what the outputs need, and bound symbols tagged DONT_DCE.
Trace dead_code_elimination(const Trace& trace);
// Reuses the result of an earlier identical call (same symbol and arguments), except random ops.
Trace common_subexpression_elimination(const Trace& trace);
// Lets executors claim the bound symbols, in list order (see claim_executors.cpp).
Trace transform_for_execution(const Trace& trace, const std::vector<const Executor*>& executors);
// After each statement, `del` the values no later statement reads.
Trace delete_last_used(const Trace& trace);

// The `del` statement's symbol: prints `del a, t1`.
const Symbol& python_del();

struct PassStage {
  std::string name;  // the pass's provenance, "Dead Code Elimination"
  Trace trace;
};

// The whole pipeline, every stage kept: DCE, CSE, claiming, DCE, Delete Last Used.
std::vector<PassStage> compile_for_execution(const Trace& traced, const std::vector<const Executor*>& executors);

}  // namespace thundercc
