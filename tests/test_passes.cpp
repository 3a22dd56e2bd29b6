// The passes: dead code elimination, common subexpression elimination, executor claiming (order,
// checkers, execution transforms, descent, the error), Delete Last Used and rematerialization (with
// its minimum cut), on traces built with the tracing API; and the golden execution traces of the
// bundled examples.
#include "test_util.h"
#include "thundercc/autodiff/autodiff.h"
#include "thundercc/extend.h"
#include "thundercc/ir/printer.h"
#include "thundercc/langs/prims.h"
#include "thundercc/langs/torch.h"
#include "thundercc/passes/passes.h"
#include "thundercc/serialize/trace_file.h"
#include "thundercc/support/min_cut.h"

#include <set>

using namespace thundercc;
using namespace thundercc::testing;

namespace {

// An executor for these tests only: claims prims.add for float32 inputs whose first dimension is 2.
const Executor& test_add_executor() {
  static const Executor& ex = [] () -> const Executor& {
    Executor& e = ExecutorRegistry::global().add("test_add", "0.1");
    const Symbol& prim_add = SymbolTable::global().get("prims.add");
    const Symbol& op = e.register_operator("test_add_impl", prim_add.signature.str(), prim_add.meta, {.is_like = false});
    e.register_implementation("prims.add", {.op = &op, .checker = [](const Args& x) {
      return x["a"].is_tensor() && x["a"].as_tensor().dtype() == dtypes::float32 && x["a"].as_tensor().shape()[0] == 2;
    }});
    return e;
  }();
  return ex;
}

const Executor& torch_executor() { return ExecutorRegistry::global().get("torch"); }

}  // namespace

TEST_CASE("dead code elimination keeps what the outputs need") {
  Tracing t;
  Tensor a = t.input("a", {2});
  Tensor unused = ltorch::exp(a);
  t.trace.output = ltorch::neg(a);
  Trace out = dead_code_elimination(t.trace);
  CHECK(out.provenance == "Dead Code Elimination");
  REQUIRE(out.bound_symbols.size() == 1);
  CHECK(out.bound_symbols[0].sym->name == "neg");
  CHECK(unused.name() == "t0");
}

TEST_CASE("common subexpression elimination reuses identical calls, never random ones") {
  Tracing t;
  Tensor a = t.input("a", {2});
  Tensor b = t.input("b", {2});
  Tensor x = a + b;
  Tensor y = a + b;
  Tensor d1 = ltorch::dropout(a, 0.5, true);
  Tensor d2 = ltorch::dropout(a, 0.5, true);
  t.trace.output = Value::tuple({x * y, d1, d2});
  Trace out = common_subexpression_elimination(t.trace);
  CHECK(out.bound_symbols.size() == 4);  // add, the two dropouts, mul
  CHECK(body_of(out, {.depth = 0}).find("ltorch.mul(t0, t0)") != std::string::npos);
}

TEST_CASE("executors claim in list order, directly or through a whole decomposition") {
  Tracing t;
  t.trace.name = "fun";
  Tensor a = t.input("a", {2, 2});
  Tensor b = t.input("b", {2, 1});
  t.trace.output = a + b * a;

  SECTION("listed first, the add executor runs the prims.add inside ltorch.add") {
    Trace out = transform_for_execution(t.trace, {&test_add_executor(), &torch_executor()});
    CHECK(body_of(out, {.depth = 0}) ==
          "  # a: \"cpu f32[2, 2]\"\n"
          "  # b: \"cpu f32[2, 1]\"\n"
          "  t1 = torch.mul(b, a)  # t1: \"cpu f32[2, 2]\"\n"
          "  t2 = test_add_impl(a, t1)  # t2: \"cpu f32[2, 2]\"\n"
          "  return t2\n");
  }
  SECTION("listed after torch, it gets nothing: torch takes ltorch.add whole") {
    Trace out = transform_for_execution(t.trace, {&torch_executor(), &test_add_executor()});
    CHECK(body_of(out, {.depth = 0}).find("t2 = torch.add(a, t1)") != std::string::npos);
  }
  SECTION("alone, it cannot run ltorch.mul: the error names the bound symbol") {
    CHECK(error_of([&] { transform_for_execution(t.trace, {&test_add_executor()}); }) ==
          "RuntimeError: Failed to find an executor for bound symbol t1 = ltorch.mul(b, a)  # t1: \"cpu f32[2, 2]\"\n"
          "  # t0 = prims.broadcast_in_dim(b, [2, 2], (0, 1))  # t0: \"cpu f32[2, 2]\"\n"
          "  # t1 = prims.mul(t0, a)  # t1: \"cpu f32[2, 2]\"\n"
          "(no executor of [test_add] runs prims.broadcast_in_dim)");
  }
}

TEST_CASE("a checker that declines leaves the call to the next executor") {
  Tracing t;
  Tensor a = t.input("a", {3, 2}, dtypes::float64);
  t.trace.output = a + a;
  Trace out = transform_for_execution(t.trace, {&test_add_executor(), &torch_executor()});
  CHECK(body_of(out, {.depth = 0}).find("t0 = torch.add(a, a)") != std::string::npos);
}

TEST_CASE("execution transforms replace a call and keep its output's name") {
  Executor& ex = ExecutorRegistry::global().add("test_transform", "0.1");
  // exp(a) as exp2(a * log2(e)), recorded with torch-language calls.
  ex.register_implementation("torch.exp", {.execution_transform = [](const Args& x) -> Value {
    return ltorch::op("torch.exp2", {x.tensor("a") * 1.4426950408889634});
  }});
  Tracing t;
  Tensor a = t.input("a", {4});
  t.trace.output = ltorch::exp(a);
  Trace out = transform_for_execution(t.trace, {&ex, &torch_executor()});
  CHECK(body_of(out, {.depth = 0}) ==
        "  # a: \"cpu f32[4]\"\n"
        "  t1 = torch.mul(a, 1.4426950408889634)  # t1: \"cpu f32[4]\"\n"
        "  t0 = torch.exp2(t1)  # t0: \"cpu f32[4]\"\n"
        "  return t0\n");
}

TEST_CASE("Delete Last Used deletes after the last read, unused values at once, never outputs") {
  Tracing t;
  Tensor a = t.input("a", {2});
  t.input("unused", {2});
  Tensor b = ltorch::exp(a);
  ltorch::neg(b);  // never read
  t.trace.output = b + 1.0;
  Trace out = delete_last_used(transform_for_execution(t.trace, {&torch_executor()}));
  CHECK(body_of(out, {.depth = 0}) ==
        "  # a: \"cpu f32[2]\"\n"
        "  # unused: \"cpu f32[2]\"\n"
        "  del unused\n"
        "  t0 = torch.exp(a)  # t0: \"cpu f32[2]\"\n"
        "  del a\n"
        "  t1 = torch.neg(t0)  # t1: \"cpu f32[2]\"\n"
        "  del t1\n"
        "  t2 = torch.add(t0, 1.0)  # t2: \"cpu f32[2]\"\n"
        "  del t0\n"
        "  return t2\n");
}

TEST_CASE("the bundled traces compile to their golden execution traces") {
  // With the torch executor alone: the traces Thunder prints for these programs on CPU.
  for (const char* name : {"add_mul", "cross_entropy", "mul"}) {
    INFO(name);
    auto loaded = load_trace_file(std::string("traces/") + name + ".json");
    auto program = compile_program(loaded.traced, {&torch_executor()}, GradMode::Auto, /*keep_stages=*/true);
    REQUIRE(program.stages.size() == 5);
    CHECK(program.stages.back().name == "Delete Last Used");
    CHECK(!program.backward);
    CHECK(print_trace(program.execution) == read_text(std::string("tests/golden/") + name + ".trace.py"));
    // Without stages kept, the same execution trace.
    auto lean = compile_program(loaded.traced, {&torch_executor()});
    CHECK(lean.stages.empty());
    CHECK(print_trace(lean.execution) == print_trace(program.execution));
  }
}

TEST_CASE("every differentiable prim has a grad rule") {
  // Prims whose results carry no gradient (bool or integer results, creation, random draws).
  const std::set<std::string> no_gradient{
      "bitwise_not", "isfinite", "signbit", "bitwise_and", "bitwise_or", "bitwise_xor", "eq", "ge", "gt", "le", "lt", "ne",
      "shift_left", "shift_right_arithmetic", "argmax", "argmin", "full", "iota", "tensor_from_sequence", "uniform", "randn", "multinomial", "python_del",
      "convolution_backward", "copy_", "check_tensor_value"};
  std::vector<std::string> without_rule;
  for (const Symbol* s : SymbolTable::global().all())
    if (s->is_prim && s->executor.empty() && !no_gradient.count(s->name) && !has_grad_rule(*s))
      without_rule.push_back(s->name);
  CHECK(without_rule == std::vector<std::string>{});
}

TEST_CASE("symbols an executor's pass makes belong to their compilation") {
  // A pass that puts the whole trace in one region, under a symbol of the compilation's own.
  Executor& ex = ExecutorRegistry::global().add("test_region", "0.1");
  ex.register_pass({"Test regions", [](const Trace& trace, SymbolTable& symbols) {
    Symbol s;
    s.id = s.name = "test_region_0";
    s.signature = Signature::parse("*args");
    s.meta = [](const Args&) -> Value { return None{}; };
    s.executor = "test_region";
    const Symbol& region_symbol = symbols.add(std::move(s));
    Trace out = trace.derive("Test regions");
    BoundSymbol region;
    region.sym = &region_symbol;
    for (const auto& in : trace.inputs) region.args.push_back(in.value);
    region.output = trace.output;
    region.subsymbols = trace.bound_symbols;
    out.bound_symbols = {region};
    out.output = trace.output;
    return out;
  }});
  auto loaded = load_trace_file("traces/add_mul.json");
  auto first = compile_program(loaded.traced, {&ex, &torch_executor()});
  auto second = compile_program(loaded.traced, {&ex, &torch_executor()});  // the same id again: no collision
  CHECK(print_trace(first.execution).find("t2 = test_region_0(a, b)") != std::string::npos);
  CHECK(print_trace(second.execution) == print_trace(first.execution));
  CHECK(first.symbols->find("test_region_0") != second.symbols->find("test_region_0"));
  CHECK(first.symbols->find("prims.add") == SymbolTable::global().find("prims.add"));
  CHECK(SymbolTable::global().find("test_region_0") == nullptr);
  Symbol shadow;
  shadow.id = "prims.add";
  CHECK(error_of([&] { first.symbols->add(std::move(shadow)); }) ==
        "RuntimeError: symbol id 'prims.add' is already registered");
}

TEST_CASE("rematerialization saves the cheapest values and recomputes chains of cheap ops from them") {
  Tracing t;
  Tensor x = t.input("x", {2, 3}, dtypes::float32, Device::cpu(), /*requires_grad=*/true);
  Tensor w = t.input("w", {3, 4}, dtypes::float32, Device::cpu(), /*requires_grad=*/true);
  // exp's and tanh's grads read their outputs, matmul's grad for w reads c: all three are
  // recomputable from x, which the caller keeps alive anyway.
  Tensor c = ltorch::tanh(ltorch::exp(x));
  t.trace.output = ltorch::matmul(c, w);
  auto program = compile_program(t.trace, {&torch_executor()});
  REQUIRE(program.backward);
  const Value& saved = program.execution.output.items()[1];
  std::vector<std::string> names;
  for (const auto& v : saved.items()) names.push_back(v.as_tensor().name());
  CHECK(names == std::vector<std::string>{"x", "w"});
  CHECK(program.saved_bytes == (6 + 12) * 4);
  // Recomputed in the backward, right before the first statement reading their results (after
  // the gradient of c, which only needs w).
  std::string backward = body_of(*program.backward, {.depth = 0});
  size_t grad_of_c = backward.find("t14 = torch.matmul(t17, t13)");
  size_t exp = backward.find("t0 = torch.exp(x)"), tanh = backward.find("t1 = torch.tanh(t0)");
  size_t first_read = backward.find("transpose(t1, (1, 0))");
  CHECK(grad_of_c < exp);
  CHECK(exp < tanh);
  CHECK(tanh < first_read);
  CHECK(first_read != std::string::npos);
}

TEST_CASE("the minimum cut nearest the sink") {
  // source -> a -> b -> sink with capacities 5, 3, 3: the cut is one of the two 3s, and nearest
  // the sink is b -> sink. A side branch a -> c of capacity 1 reaching nothing stays on the source side.
  MinCut graph(5);
  const int source = 0, sink = 1, a = 2, b = 3, c = 4;
  graph.add_edge(source, a, 5);
  graph.add_edge(a, b, 3);
  graph.add_edge(b, sink, 3);
  graph.add_edge(a, c, 1);
  CHECK(graph.solve(source, sink) == 3);
  CHECK(graph.on_sink_side(sink));
  CHECK(!graph.on_sink_side(b));
  CHECK(!graph.on_sink_side(a));
  CHECK(!graph.on_sink_side(c));
  // Infinite edges are never cut; when every cut is infinite, solve says so.
  MinCut closed(3);
  closed.add_edge(0, 2, MinCut::kInfinite);
  closed.add_edge(2, 1, MinCut::kInfinite);
  CHECK(closed.solve(0, 1) >= MinCut::kInfinite);
  // Two parallel paths: the flow is their sum.
  MinCut parallel(4);
  parallel.add_edge(0, 2, 4);
  parallel.add_edge(0, 3, 6);
  parallel.add_edge(2, 1, MinCut::kInfinite);
  parallel.add_edge(3, 1, 2);
  CHECK(parallel.solve(0, 1) == 6);
  CHECK(parallel.on_sink_side(2));
  CHECK(!parallel.on_sink_side(3));
}

TEST_CASE("rematerialization recomputes chains of at most 16 statements") {
  Tracing t;
  Tensor x = t.input("x", {4}, dtypes::float32, Device::cpu(), /*requires_grad=*/true);
  // Each tanh's grad reads its output; recomputing all 40 from x would cost no memory at all.
  Tensor y = x;
  for (int i = 0; i < 40; ++i) y = ltorch::tanh(y);
  t.trace.output = y;
  auto program = compile_program(t.trace, {&torch_executor()});
  REQUIRE(program.backward);
  // x, and the 17th and 34th results, where a chain would grow past 16 statements.
  CHECK(program.execution.output.items()[1].items().size() == 3);
  std::string backward = body_of(*program.backward, {.depth = 0});
  size_t recomputed = 0;
  for (size_t at = backward.find("torch.tanh("); at != std::string::npos; at = backward.find("torch.tanh(", at + 1)) ++recomputed;
  CHECK(recomputed == 38);
}
