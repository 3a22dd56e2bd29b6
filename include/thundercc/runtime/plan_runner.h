// Executes a plan.json with LibTorch. Loading binds every instruction once: kernels are looked up,
// constants decoded, slots resolved, so running does no lookups.
#pragma once

#include <nlohmann/json.hpp>

#include "thundercc/runtime/kernels.h"

namespace thundercc::runtime {

struct InputSpec {
  std::string name;
  int slot;
  TensorMeta meta;
};

class PlanRunner {
 public:
  // Throws std::runtime_error naming `where` and the place in the plan.
  PlanRunner(const nlohmann::json& plan, const std::string& where);

  const std::vector<InputSpec>& inputs() const { return inputs_; }
  // Checks the inputs against the specification, as Thunder's prologue does.
  void check_inputs(const std::vector<at::Tensor>& inputs) const;
  // Runs once; returns the outputs, flattened in order. With `instruction_ns`, also times each
  // instruction (summed into it).
  std::vector<at::Tensor> run(const std::vector<at::Tensor>& inputs, std::vector<double>* instruction_ns = nullptr);
  const std::vector<Instruction>& instructions() const { return instructions_; }

 private:
  std::vector<InputSpec> inputs_;
  std::vector<Instruction> instructions_;
  std::vector<int> free_at_start_;
  std::vector<int> output_slots_;
  size_t num_slots_ = 0;
  std::vector<at::Tensor> slots_;
};

std::vector<char> read_bytes(const std::string& path);
// What Python's torch.save wrote: a list or tuple of tensors (in signature order), or a dict by input name.
std::vector<at::Tensor> read_tensor_file(const std::string& path, const std::vector<InputSpec>& specs);
// Compares outputs as torch.testing.assert_close does (Thunder's tolerances by dtype unless given);
// returns one line per problem.
std::vector<std::string> compare_outputs(const std::vector<at::Tensor>& actual, const std::vector<at::Tensor>& expected,
                                         std::optional<double> rtol, std::optional<double> atol);

}  // namespace thundercc::runtime
