// Which plans `run --cuda-graphs` refuses, and why (plan/graph_capture.h), and the arena a plan
// on the GPU gets: checked on the bundled traces moved to cuda:0, as the GPU check moves them.
#include <catch2/catch.hpp>

#include <regex>

#include "test_util.h"
#include "thundercc/extend.h"
#include "thundercc/passes/passes.h"
#include "thundercc/plan/graph_capture.h"
#include "thundercc/plan/plan.h"
#include "thundercc/serialize/trace_file.h"

using namespace thundercc;
using thundercc::testing::read_text;

namespace {

// The bundled trace `name`, its tensors on `device` (as scripts/gpu_check.sh moves them), as a plan.
plan::Plan plan_of(const std::string& name, const std::string& device, Distributed distributed = {}) {
  std::string text = std::regex_replace(read_text("traces/" + name + ".json"), std::regex("\"device\": \"cpu\""), "\"device\": \"" + device + "\"");
  auto loaded = load_trace_text(text, name + ".json");
  auto program = compile_program(loaded.traced, {&ExecutorRegistry::global().get("fuser"), &ExecutorRegistry::global().get("torch")},
                                 GradMode::Auto, false, distributed);
  return plan::build_plan(program.execution, program.backward ? &*program.backward : nullptr, program.saved_bytes);
}

bool mentions(const std::vector<std::string>& lines, const std::string& text) {
  return std::any_of(lines.begin(), lines.end(), [&](const std::string& l) { return l.find(text) != std::string::npos; });
}

}  // namespace

TEST_CASE("graph capture: the example models' steps on cuda:0 may be recorded; on the CPU they are refused") {
  for (const char* name : {"mlp", "gpt2_block", "llama_block", "cnn"}) {
    INFO(name);
    CHECK(plan::graph_capture_blockers(plan_of(name, "cuda:0")).empty());
    auto on_cpu = plan::graph_capture_blockers(plan_of(name, "cpu"));
    REQUIRE(on_cpu.size() == 1);
    CHECK(on_cpu[0].find("no tensor of the plan is on a CUDA device") != std::string::npos);
  }
}

TEST_CASE("graph capture: collectives, random draws, value guards and tensors on the host are named") {
  Distributed ddp;
  ddp.mode = Distributed::Mode::Ddp;
  CHECK(mentions(plan::graph_capture_blockers(plan_of("mlp", "cuda:0", ddp)), "communicates with other ranks"));

  plan::Plan p = plan_of("mlp", "cuda:0");
  plan::Instruction& linear = p.forward.instructions.at(0);
  linear.stream = "t0";  // as the plan builder marks a random op
  auto found = plan::graph_capture_blockers(p);
  REQUIRE(found.size() == 1);
  CHECK(found[0].rfind("forward /instructions/0 (t0 = torch.nn.functional.linear(x, t_fc1_weight, t_fc1_bias)): draws random values", 0) == 0);
  linear.stream.reset();

  linear.op = "torch:prims.check_tensor_value";
  CHECK(mentions(plan::graph_capture_blockers(p), "forward /instructions/0 (t0 = torch.nn.functional.linear(x, t_fc1_weight, t_fc1_bias)): reads a tensor's value on the host"));
  linear.op = "torch:torch.nn.functional.linear";

  // A boolean key of an index_put: ATen's nonzero.
  plan::Instruction put = linear;
  put.op = "torch:torch.index_put";
  plan::Operand key;
  key.kind = plan::Operand::Kind::Tuple;
  plan::Operand mask;
  mask.kind = plan::Operand::Kind::Slot;
  mask.slot = p.forward.instructions.at(1).outputs.at(0);
  key.items.push_back(mask);
  put.args = {linear.args[0], key, linear.args[0]};
  put.outputs = {-1};
  put.expect = {std::nullopt};
  p.forward.instructions.insert(p.forward.instructions.begin() + 2, put);
  CHECK(!mentions(plan::graph_capture_blockers(p), "boolean mask"));  // the relu's result is a float tensor
  p.forward.instructions.at(1).fusion->outputs.at(0).dtype = dtypes::bool8;
  CHECK(mentions(plan::graph_capture_blockers(p), "forward /instructions/2 (t0 = torch.nn.functional.linear(x, t_fc1_weight, t_fc1_bias)): indexes with a boolean mask"));

  // The labels left on the host: every tensor on the plan's device, or its value would be frozen.
  plan::Plan mixed = plan_of("mlp", "cuda:0");
  for (auto* program : {&mixed.forward, &*mixed.backward})
    for (auto& in : program->inputs)
      if (in.name == "labels") in.tensor.device = Device::cpu();
  CHECK(plan::graph_capture_blockers(mixed) ==
        std::vector<std::string>{"forward input 'labels' is on cpu, not cuda:0: its value would be computed once, at the capture",
                                 "backward input 'labels' is on cpu, not cuda:0: its value would be computed once, at the capture"});
}

TEST_CASE("memory plan: a program on the GPU has its intermediates in one arena there") {
  for (const char* name : {"mlp", "gpt2_block"}) {
    INFO(name);
    plan::Plan p = plan_of(name, "cuda:0");
    for (const plan::Program* program : {&p.forward, &*p.backward}) {
      REQUIRE(program->arena);
      size_t buffers = 0;
      for (const auto& ins : program->instructions)
        for (const auto& b : ins.buffers)
          if (b) {
            ++buffers;
            CHECK(b->tensor.device == thundercc::testing::cuda(0));
          }
      CHECK(buffers == static_cast<size_t>(program->arena->buffers + program->arena->in_place));
      CHECK(buffers > 0);
    }
  }
}
