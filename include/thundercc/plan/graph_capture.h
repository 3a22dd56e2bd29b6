// What keeps a plan from being captured as a CUDA graph (`thundercc run --cuda-graphs`). A graph
// replays the device work one run recorded, with the addresses and values it had: nothing the host
// computes, reads back or draws may change from run to run, and nothing may wait for the device
// during the recording (which fails the capture). Read from the plan alone, before any device
// work: the runtime refuses such a plan naming each instruction and why.
#pragma once

#include <string>
#include <vector>

#include "thundercc/plan/plan.h"

namespace thundercc::plan {

// One line per thing in the plan that a CUDA graph cannot replay: "PROGRAM /instructions/I
// (STATEMENT): WHY", or the whole plan's reason (not on a CUDA device, collectives); empty when
// the plan may be captured.
std::vector<std::string> graph_capture_blockers(const Plan& plan);

// Whether a program of the plan communicates with other ranks (compile --distributed).
bool uses_collectives(const Plan& plan);

}  // namespace thundercc::plan
