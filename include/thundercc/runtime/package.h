// One file for a compiled model (`thundercc package`): the plan and the module's weights by
// state_dict key, as torch.save writes a dict, so that Python's torch.load reads it too:
//   {"format": "thundercc.package", "version": 1, "plan": the plan.json text, "weights": {key: tensor}}
// No binaries: `run` builds the fusion kernels from the plan's regions, as for any plan (a package
// is data, checked as a plan and as a tensor file are).
#pragma once
#include <string>
#include <utility>
#include <vector>

#include <ATen/ATen.h>

#include "thundercc/plan/plan.h"

namespace thundercc::runtime {

using StateDict = std::vector<std::pair<std::string, at::Tensor>>;

// A plan as `run`, Plan::load and the Python API read it: a plan.json, or a package and its weights.
struct PlanFile {
  plan::Plan plan;
  StateDict weights;  // a package's (empty for a plan.json)
  bool packaged = false;
};
PlanFile read_plan_or_package(const std::string& path);

// Writes a package of the plan.json at `plan_path` with `weights` (which must be every weight the
// plan takes, by key, of its shapes and dtypes: LoadError naming the first that is not).
void write_package(const std::string& path, const std::string& plan_path, const StateDict& weights);

}  // namespace thundercc::runtime
