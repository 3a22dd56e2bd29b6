#include "thundercc/passes/pass_manager.h"

#include "thundercc/errors.h"
#include "thundercc/support/phase_timer.h"

namespace thundercc {

PassManager& PassManager::add(Pass pass) {
  passes_.push_back(std::move(pass));
  return *this;
}

std::vector<PassStage> PassManager::run(Trace trace, const PassContext& context) const {
  std::vector<PassStage> stages;
  stages.reserve(passes_.size());  // `current` points into it
  Trace* current = &trace;
  for (const auto& pass : passes_) {
    PhaseTimer timer(pass.name);
    Trace next = pass.run(context.keep_stages ? Trace(*current) : std::move(*current), context);
    next.provenance = pass.name;
    if (!context.keep_stages && !stages.empty()) stages.pop_back();  // `current` is no longer needed
    stages.push_back({pass.name, std::move(next)});
    current = &stages.back().trace;
  }
  return stages;
}

}  // namespace thundercc
