// A dynamic plan (plan.h: Dynamic) at other sizes: its symbolic trace specialized at them and
// compiled as `compile` compiled the original.
#pragma once

#include <string>

#include "thundercc/plan/plan.h"

namespace thundercc {

// The plan named `name` of a dynamic plan's trace at `sizes` (every symbol's value), compiled with
// the executors, grad transform and names it was compiled with; its fusion kernels are left for
// the runtime to build, as for any plan it did not trust, and its seed for the runtime to set.
// Throws LoadError naming `where` and the statement the sizes do not fit.
plan::Plan specialize_plan(const plan::Dynamic& dynamic, const std::string& name, const SizeBinding& sizes, const std::string& where);

}  // namespace thundercc
