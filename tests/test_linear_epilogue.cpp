// Which linear and activation pairs a cuBLASLt epilogue may compute (plan/linear_epilogue.h), on
// the bundled traces moved to cuda:0 (as the GPU check moves them) and on plans changed by hand.
#include <catch2/catch.hpp>

#include <regex>

#include "test_util.h"
#include "thundercc/extend.h"
#include "thundercc/passes/passes.h"
#include "thundercc/plan/linear_epilogue.h"
#include "thundercc/plan/plan.h"
#include "thundercc/serialize/trace_file.h"

using namespace thundercc;
using thundercc::testing::read_text;

namespace {

// The bundled trace `name` on `device`, as a plan: its training step, or with no input requiring
// grad, its inference.
plan::Plan plan_of(const std::string& name, const std::string& device, bool training = true) {
  std::string text = std::regex_replace(read_text("traces/" + name + ".json"), std::regex("\"device\": \"cpu\""), "\"device\": \"" + device + "\"");
  if (!training) text = std::regex_replace(text, std::regex("\"requires_grad\": true"), "\"requires_grad\": false");
  auto loaded = load_trace_text(text, name + ".json");
  auto program = compile_program(loaded.traced, {&ExecutorRegistry::global().get("fuser"), &ExecutorRegistry::global().get("torch")});
  return plan::build_plan(program.execution, program.backward ? &*program.backward : nullptr, program.saved_bytes);
}

std::string why_not(const plan::Program& p, size_t i) {
  plan::Activation a;
  return plan::epilogue_mismatch(p, i, &a);
}

}  // namespace

TEST_CASE("linear epilogue: the mlp step's first linear and its ReLU qualify on CUDA, not the second linear") {
  plan::Plan p = plan_of("mlp", "cuda:0");
  auto pairs = plan::linear_epilogues(p.forward);
  REQUIRE(pairs.size() == 1);
  CHECK(pairs[0].linear == 0);
  CHECK(pairs[0].activation == plan::Activation::relu);
  CHECK(why_not(p.forward, 1) == "not a linear");
  // fc2's result goes to the loss, which the torch executor runs.
  CHECK(why_not(p.forward, 2) == "the next instruction is not a fusion region");
  CHECK(why_not(plan_of("mlp", "cpu").forward, 0) == "on cpu: cuBLASLt runs CUDA tensors");
}

TEST_CASE("linear epilogue: GPT-2's GELU qualifies in inference, not in training, where the linear's result is saved") {
  plan::Plan inference = plan_of("gpt2_block", "cuda:0", false);
  REQUIRE_FALSE(inference.backward);
  auto pairs = plan::linear_epilogues(inference.forward);
  REQUIRE(pairs.size() == 1);
  CHECK(pairs[0].activation == plan::Activation::gelu_tanh);
  CHECK(inference.forward.instructions[pairs[0].linear].statement.find("t_mlp_c_fc_weight") != std::string::npos);

  plan::Plan step = plan_of("gpt2_block", "cuda:0");
  CHECK(plan::linear_epilogues(step.forward).empty());
  CHECK(why_not(step.forward, pairs[0].linear) == "the linear's result lives on after the activation (saved for the backward, or an output)");
  // The backward's products are matmuls, not linears.
  CHECK(plan::linear_epilogues(*step.backward).empty());
}

TEST_CASE("linear epilogue: another region, another dtype, a gap or a region that is not the activation do not qualify") {
  plan::Plan p = plan_of("mlp", "cuda:0");
  plan::Program relu = p.forward;

  plan::Program other = relu;  // lt(x, 0.0) made lt(x, 1.0): no longer ReLU
  Trace& region = other.instructions[1].fusion->region;
  region.bound_symbols[0].args[1] = Value(1.0);
  CHECK(why_not(other, 0) == "the next region is not ReLU or tanh GELU of the linear's result");

  plan::Program half = relu;
  half.instructions[0].expect[0]->dtype = dtypes::bfloat16;
  CHECK(why_not(half, 0) == "of bf16: the epilogue is matched for float32 only");

  plan::Program wider = relu;  // the region reads another tensor beside the linear's result
  wider.instructions[1].args.push_back(wider.instructions[0].args[0]);
  CHECK(why_not(wider, 0) == "the next region reads other tensors than the linear's result, or writes more than one");

  plan::Program kept = relu;  // the linear's result freed later: another reader may follow
  kept.instructions[1].free.clear();
  CHECK(why_not(kept, 0) == "the linear's result lives on after the activation (saved for the backward, or an output)");

  plan::Program gap = relu;  // an instruction between the two
  gap.instructions.insert(gap.instructions.begin() + 1, gap.instructions[2]);
  CHECK(why_not(gap, 0) == "the next instruction is not a fusion region");

  plan::Program last = relu;
  last.instructions.resize(1);
  CHECK(why_not(last, 0) == "the program's last instruction");
}
