#include "thundercc/passes/pass_manager.h"

#include "thundercc/errors.h"

namespace thundercc {

PassManager& PassManager::add(Pass pass) {
  passes_.push_back(std::move(pass));
  return *this;
}

PassManager& PassManager::insert_after(const std::string& anchor, Pass pass) {
  for (auto it = passes_.begin(); it != passes_.end(); ++it)
    if (it->name == anchor) {
      passes_.insert(it + 1, std::move(pass));
      return *this;
    }
  throw ThunderError("ValueError", str("no pass named '", anchor, "' to insert '", pass.name, "' after"));
}

std::vector<PassStage> PassManager::run(const Trace& trace, const PassContext& context) const {
  std::vector<PassStage> stages;
  stages.reserve(passes_.size());  // `current` points into it
  const Trace* current = &trace;
  for (const auto& pass : passes_) {
    Trace next = pass.run(*current, context);
    next.provenance = pass.name;
    stages.push_back({pass.name, std::move(next)});
    current = &stages.back().trace;
  }
  return stages;
}

}  // namespace thundercc
