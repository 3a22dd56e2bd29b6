// plan.json: what `thundercc run` needs and nothing it must re-derive. Built from an execution
// trace: every tensor gets a slot; each statement becomes an instruction naming the operator
// (and so the kernel) that runs it, its arguments as slots and constants, its output slots, and
// the slots to free after it (from the trace's `del` statements).
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "thundercc/executors/fuser/kernel_library.h"
#include "thundercc/ir/trace.h"

namespace thundercc {

inline constexpr const char* kPlanFormat = "thundercc.plan";
inline constexpr int kPlanFormatVersion = 2;

// With a backward trace (a training step), the plan also holds the backward program; the forward
// program's output is then (outputs, saved_for_backward). A trace with fusion regions needs `kernels`.
nlohmann::json build_plan(const Trace& execution_trace, const Trace* backward = nullptr, int64_t saved_bytes = 0,
                          const PlanKernels* kernels = nullptr);

}  // namespace thundercc
