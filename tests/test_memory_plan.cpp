// Memory planning: reuse by liveness, in place, outputs and views that keep buffers alive, and a
// simulation of random programs that checks no planned write lands on storage still in use.
#include <catch2/catch.hpp>

#include <random>

#include "thundercc/plan/memory_plan.h"

using namespace thundercc;

namespace {

MemoryValue f32(std::vector<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return {n * 4, shape, 0};
}

MemoryStep out_step(std::vector<int> reads, int write, std::vector<int> frees, bool in_place = false) {
  return {std::move(reads), {write}, std::move(frees), true, in_place};
}

MemoryStep view_step(std::vector<int> reads, int write, std::vector<int> frees) {
  return {std::move(reads), {write}, std::move(frees), false, false};
}

// Replays a plan: each slot holds the byte ranges of the arena its storage may be in (a view, all
// its inputs'). A planned write must not touch a range a slot still alive holds, except the one
// input an in-place step consumes whole.
void check_no_clobber(const std::vector<MemoryValue>& values, const std::vector<MemoryStep>& steps, const MemoryPlan& plan) {
  using Range = std::pair<int64_t, int64_t>;
  std::vector<std::vector<Range>> holds(values.size());
  std::vector<bool> alive(values.size(), true);
  for (size_t i = 0; i < steps.size(); ++i) {
    const MemoryStep& step = steps[i];
    for (size_t k = 0; k < step.writes.size(); ++k) {
      int o = step.writes[k];
      if (o < 0) continue;
      int64_t offset = plan.offsets[i][k];
      if (offset < 0) {
        if (!step.out_buffer)
          for (int r : step.reads) holds[o].insert(holds[o].end(), holds[r].begin(), holds[r].end());
        continue;
      }
      Range mine{offset, offset + values[o].bytes};
      REQUIRE(mine.second <= plan.arena_bytes);
      for (size_t s = 0; s < values.size(); ++s) {
        if (!alive[s] || static_cast<int>(s) == o) continue;
        for (const Range& r : holds[s]) {
          if (r.second <= mine.first || mine.second <= r.first) continue;
          // Overlap is allowed only with a value that dies here: unread, or read by an in-place
          // step over exactly its storage.
          bool dies = std::find(step.frees.begin(), step.frees.end(), static_cast<int>(s)) != step.frees.end();
          bool read = std::find(step.reads.begin(), step.reads.end(), static_cast<int>(s)) != step.reads.end();
          INFO("step " << i << " writes slot " << o << " at [" << mine.first << ", " << mine.second << ") over slot " << s);
          REQUIRE((dies && (!read || (step.out_may_alias_input && r == mine))));
        }
      }
      holds[o] = {mine};
    }
    for (int s : step.frees) alive[s] = false;
  }
}

}  // namespace

TEST_CASE("memory plan: a chain of elementwise ops reuses two buffers") {
  // x -> a -> b -> c -> d, each value freed after its one use; d is consumed by a final step.
  std::vector<MemoryValue> values{f32({1024}), f32({1024}), f32({1024}), f32({1024}), f32({1024}), f32({1})};
  std::vector<MemoryStep> steps{out_step({0}, 1, {}), out_step({1}, 2, {1}), out_step({2}, 3, {2}), out_step({3}, 4, {3}),
                                out_step({4}, 5, {4})};
  MemoryPlan plan = plan_memory(values, steps, {5});
  CHECK(plan.buffers == 4);
  CHECK(plan.buffer_bytes == 4 * 4096);
  CHECK(plan.arena_bytes == 2 * 4096);  // two live at once: the input and the output of a step
  CHECK(plan.offsets[4][0] == -1);      // the program's output is the caller's
  check_no_clobber(values, steps, plan);
}

TEST_CASE("memory plan: in place where the operator allows it and the input dies there") {
  std::vector<MemoryValue> values{f32({256}), f32({256}), f32({256}), f32({256}), f32({1})};
  std::vector<MemoryStep> steps{out_step({0}, 1, {}, true), out_step({1}, 2, {1}, true), out_step({2}, 3, {2}, true),
                                out_step({3}, 4, {3})};
  MemoryPlan plan = plan_memory(values, steps, {4});
  CHECK(plan.in_place == 2);  // the first step's input is the program's, never planned
  CHECK(plan.buffers == 1);
  CHECK(plan.arena_bytes == 1024);
  CHECK(plan.offsets[0][0] == plan.offsets[1][0]);
  CHECK(plan.offsets[1][0] == plan.offsets[2][0]);
  check_no_clobber(values, steps, plan);
}

TEST_CASE("memory plan: no in place over an input that lives on, of another shape or dtype, or read through a view") {
  SECTION("the input is read later") {
    std::vector<MemoryValue> values{f32({64}), f32({64}), f32({64}), f32({64})};
    std::vector<MemoryStep> steps{out_step({0}, 1, {}), out_step({1}, 2, {}, true), out_step({1, 2}, 3, {1, 2})};
    MemoryPlan plan = plan_memory(values, steps, {3});
    CHECK(plan.in_place == 0);
    CHECK(plan.offsets[0][0] != plan.offsets[1][0]);
    check_no_clobber(values, steps, plan);
  }
  SECTION("another shape or dtype") {
    std::vector<MemoryValue> values{f32({64}), f32({8, 8}), f32({64}), {256, {64}, 1}, f32({1})};
    std::vector<MemoryStep> steps{out_step({0}, 1, {}), out_step({1}, 2, {1}, true), out_step({2}, 3, {2}, true),
                                  out_step({3}, 4, {3})};
    MemoryPlan plan = plan_memory(values, steps, {4});
    CHECK(plan.in_place == 0);
    check_no_clobber(values, steps, plan);
  }
  SECTION("a view of the same buffer is read too") {
    // t = out(x); v = view(t); u = inplace_op(t, v): writing over t would change v mid-read.
    std::vector<MemoryValue> values{f32({64}), f32({64}), f32({64}), f32({64}), f32({1})};
    std::vector<MemoryStep> steps{out_step({0}, 1, {}), view_step({1}, 2, {}), out_step({1, 2}, 3, {1, 2}, true),
                                  out_step({3}, 4, {3})};
    MemoryPlan plan = plan_memory(values, steps, {4});
    CHECK(plan.in_place == 0);
    check_no_clobber(values, steps, plan);
  }
}

TEST_CASE("memory plan: a view keeps its base's buffer alive, and an output's is never planned") {
  SECTION("the base is freed before its view") {
    // t = out(x); v = view(t); del t; ... three more values made while v lives ...; y = out(v)
    std::vector<MemoryValue> values{f32({64}), f32({64}), f32({64}), f32({64}), f32({64}), f32({64}), f32({1})};
    std::vector<MemoryStep> steps{out_step({0}, 1, {}),      view_step({1}, 2, {1}),  out_step({0}, 3, {}),
                                  out_step({3}, 4, {3}),     out_step({4, 2}, 5, {4, 2}), out_step({5}, 6, {5})};
    MemoryPlan plan = plan_memory(values, steps, {6});
    CHECK(plan.offsets[2][0] != plan.offsets[0][0]);  // the value made while the view lives
    CHECK(plan.offsets[3][0] != plan.offsets[0][0]);
    check_no_clobber(values, steps, plan);
  }
  SECTION("an output that is a view") {
    std::vector<MemoryValue> values{f32({64}), f32({64}), f32({64})};
    std::vector<MemoryStep> steps{out_step({0}, 1, {}), view_step({1}, 2, {1})};
    MemoryPlan plan = plan_memory(values, steps, {2});
    CHECK(plan.offsets[0][0] == -1);
    CHECK(plan.buffers == 0);
    CHECK(plan.arena_bytes == 0);
  }
  SECTION("values never freed live to the end; empty tensors are not planned") {
    std::vector<MemoryValue> values{f32({64}), f32({64}), f32({0}), f32({64}), f32({1})};
    std::vector<MemoryStep> steps{out_step({0}, 1, {}), out_step({0}, 2, {}), out_step({0}, 3, {}), out_step({3}, 4, {3})};
    MemoryPlan plan = plan_memory(values, steps, {4});
    CHECK(plan.offsets[1][0] == -1);
    CHECK(plan.offsets[0][0] != plan.offsets[2][0]);
    check_no_clobber(values, steps, plan);
  }
}

TEST_CASE("memory plan: random programs never write over storage in use") {
  std::mt19937 rng(1234);
  for (int program = 0; program < 300; ++program) {
    std::vector<MemoryValue> values;
    std::vector<MemoryStep> steps;
    std::vector<int> live;
    const int inputs = 2;
    for (int s = 0; s < inputs; ++s) {
      values.push_back(f32({16}));
      live.push_back(s);
    }
    int n = 3 + static_cast<int>(rng() % 40);
    for (int i = 0; i < n; ++i) {
      MemoryStep step;
      int reads = 1 + static_cast<int>(rng() % 2);
      for (int r = 0; r < reads; ++r) step.reads.push_back(live[rng() % live.size()]);
      int o = static_cast<int>(values.size());
      // Same-shaped values are candidates for in place; sizes vary so buffers pack unevenly.
      values.push_back(rng() % 3 ? f32({16}) : f32({static_cast<int64_t>(1 + rng() % 64)}));
      step.writes = {o};
      step.out_buffer = rng() % 4 != 0;
      step.out_may_alias_input = step.out_buffer && rng() % 2;
      live.push_back(o);
      for (size_t k = 0; k < live.size();)
        if (live[k] >= inputs && live[k] != o && rng() % 3 == 0) {
          step.frees.push_back(live[k]);
          live.erase(live.begin() + static_cast<long>(k));
        } else {
          ++k;
        }
      steps.push_back(step);
    }
    std::vector<int> outputs{live.back()};
    MemoryPlan plan = plan_memory(values, steps, outputs);
    INFO("program " << program);
    check_no_clobber(values, steps, plan);
    CHECK(plan.arena_bytes <= plan.buffer_bytes);
    for (size_t i = 0; i < steps.size(); ++i)
      if (steps[i].writes[0] == outputs[0]) CHECK(plan.offsets[i][0] == -1);
  }
}
