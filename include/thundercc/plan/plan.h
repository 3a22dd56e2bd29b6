// plan.json: what `thundercc run` needs and nothing it must re-derive. Built from an execution
// trace: every tensor gets a slot; each statement becomes an instruction naming the operator
// (and so the kernel) that runs it, its arguments as slots and constants, its output slots, and
// the slots to free after it (from the trace's `del` statements).
#pragma once

#include <nlohmann/json.hpp>

#include "thundercc/ir/trace.h"

namespace thundercc {

inline constexpr const char* kPlanFormat = "thundercc.plan";
inline constexpr int kPlanFormatVersion = 1;

nlohmann::json build_plan(const Trace& execution_trace);

}  // namespace thundercc
