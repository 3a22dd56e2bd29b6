// What keeps a plan from being captured as a CUDA graph (plan/graph_capture.h): every tensor on
// one CUDA device, and no instruction that reads values on the host, draws on it, or communicates.
#include "thundercc/plan/graph_capture.h"

#include <map>

#include "thundercc/errors.h"

namespace thundercc::plan {

bool uses_collectives(const Plan& plan) {
  for (const Program* program : plan.programs())
    for (const auto& i : program->instructions)
      if (i.op == "torch:prims.all_reduce" || i.op == "torch:prims.all_gather" || i.op == "torch:prims.reduce_scatter") return true;
  return false;
}

namespace {

// Why the instruction cannot be replayed, or empty. `types`: each slot's tensor type so far.
std::string blocker(const Instruction& ins, const std::map<int, TensorMeta>& types) {
  // Its draws are the plan's seed mixed with the run's number, made on the host and copied over:
  // a graph would replay one run's.
  if (ins.stream) return "draws random values on the host, anew each run (a graph would replay one run's draws)";
  if (ins.op == "torch:prims.check_tensor_value") return "reads a tensor's value on the host (the guard of a value captured with .item())";
  // ATen finds a mask's true elements with nonzero, which waits for the device. The key is argument 1.
  if ((ins.op == "torch:torch.setitem" || ins.op == "torch:torch.index_put") && ins.args.size() > 1) {
    const Operand& key = ins.args[1];
    std::vector<const Operand*> parts{&key};
    for (const auto& item : key.items) parts.push_back(&item);
    for (const Operand* part : parts)
      if (auto it = types.find(part->slot); part->kind == Operand::Kind::Slot && it != types.end() && it->second.dtype == dtypes::bool8)
        return "indexes with a boolean mask (ATen's nonzero waits for the device)";
  }
  return "";
}

}  // namespace

std::vector<std::string> graph_capture_blockers(const Plan& plan) {
  std::vector<std::string> found;
  if (uses_collectives(plan)) found.push_back("the plan communicates with other ranks (compile --distributed): collectives are not captured");
  const Program* programs[] = {plan.prologue ? &plan.prologue->program : nullptr, &plan.forward, plan.backward ? &*plan.backward : nullptr,
                               plan.update ? &plan.update->program : nullptr};
  const char* names[] = {"prologue", "forward", "backward", "optimizer"};
  std::optional<Device> device;  // the first CUDA device a tensor is on
  std::vector<std::string> elsewhere;  // tensors on another device, one line each
  auto place = [&](const TensorMeta& m, const std::string& what) {
    if (m.device.type == Device::Type::CUDA && !device) device = m.device;
    if (!device || !(m.device == *device)) elsewhere.push_back(str(what, " is on ", m.device.str()));
  };
  for (size_t p = 0; p < 4; ++p) {
    if (!programs[p]) continue;
    const Program& program = *programs[p];
    std::map<int, TensorMeta> types;
    for (const auto& in : program.inputs) {
      types[in.slot] = in.tensor;
      place(in.tensor, str(names[p], " input '", in.name, "'"));
    }
    for (size_t i = 0; i < program.instructions.size(); ++i) {
      const Instruction& ins = program.instructions[i];
      const std::string at = str(names[p], " /instructions/", i, " (", ins.statement.substr(0, ins.statement.find("  #")), ")");
      if (std::string why = blocker(ins, types); !why.empty()) found.push_back(at + ": " + why);
      const std::vector<std::optional<TensorMeta>> made =
          ins.fusion ? std::vector<std::optional<TensorMeta>>(ins.fusion->outputs.begin(), ins.fusion->outputs.end()) : ins.expect;
      for (size_t k = 0; k < made.size() && k < ins.outputs.size(); ++k)
        if (made[k] && ins.outputs[k] >= 0) {
          types[ins.outputs[k]] = *made[k];
          place(*made[k], at + str(" output ", k));
        }
    }
  }
  if (!device) return {"no tensor of the plan is on a CUDA device: CUDA graphs replay a GPU's work (a CPU plan runs without --cuda-graphs)"};
  // Values the host computes would be frozen at the capture's: named up to a few, then counted.
  constexpr size_t kNamed = 5;
  for (size_t k = 0; k < elsewhere.size() && k < kNamed; ++k)
    found.push_back(elsewhere[k] + ", not " + device->str() + ": its value would be computed once, at the capture");
  if (elsewhere.size() > kNamed) found.push_back(str("and ", elsewhere.size() - kNamed, " more tensors not on ", device->str()));
  return found;
}

}  // namespace thundercc::plan
