// The printer: Python reprs of every value kind, type strings, and whole traces as Thunder prints them.
#include <limits>

#include "test_util.h"
#include "thundercc/ir/printer.h"
#include "thundercc/ir/pyliteral.h"
#include "thundercc/langs/prims.h"
#include "thundercc/langs/torch.h"

using namespace thundercc;
using namespace thundercc::testing;

TEST_CASE("floats print as Python's repr") {
  // Expected strings are what CPython's repr() prints for the same doubles.
  const std::pair<double, const char*> cases[] = {
      {0.5, "0.5"},          {1.0, "1.0"},          {-2.0, "-2.0"},        {1e-05, "1e-05"},
      {0.0001, "0.0001"},    {0.00048828125, "0.00048828125"},             {1e16, "1e+16"},
      {1e15, "1000000000000000.0"},                  {123456.789, "123456.789"},
      {0.1, "0.1"},          {1.0 / 3.0, "0.3333333333333333"},           {2.5e-10, "2.5e-10"},
      {0.044715, "0.044715"}, {0.7978845608028654, "0.7978845608028654"}, {1.7976931348623157e308, "1.7976931348623157e+308"},
      {5e-324, "5e-324"},    {0.0, "0.0"},          {-0.0, "-0.0"},        {100.0, "100.0"},
  };
  for (const auto& [x, text] : cases) {
    INFO(text);
    CHECK(float_repr(x) == text);
  }
  CHECK(float_repr(std::numeric_limits<double>::infinity()) == "float('inf')");
  CHECK(float_repr(-std::numeric_limits<double>::infinity()) == "-float('inf')");
  CHECK(float_repr(std::numeric_limits<double>::quiet_NaN()) == "float('NaN')");
}

TEST_CASE("every value kind prints as Thunder prints it") {
  Tracing t;
  Tensor a = t.input("a", {2});
  CHECK(py_repr(None{}) == "None");
  CHECK(py_repr(true) == "True");
  CHECK(py_repr(false) == "False");
  CHECK(py_repr(int64_t{-3}) == "-3");
  CHECK(py_repr(0.5) == "0.5");
  CHECK(py_repr(std::complex<double>(1, -2)) == "complex(1.0, -2.0)");
  CHECK(py_repr("mean") == "'mean'");
  CHECK(py_repr(Value::tuple({2, 2})) == "(2, 2)");
  CHECK(py_repr(Value::tuple({2048})) == "(2048,)");
  CHECK(py_repr(Value::tuple({})) == "()");
  CHECK(py_repr(Value::list({2, 2})) == "[2, 2]");
  CHECK(py_repr(Value::list({})) == "[]");
  CHECK(py_repr(Slice{0, 2, std::nullopt}) == "slice(0,2,None)");
  CHECK(py_repr(EllipsisValue{}) == "...");
  CHECK(py_repr(dtypes::float32) == "dtypes.float32");
  CHECK(py_repr(dtypes::bfloat16.as_weak()) == "dtypes.bfloat16_");
  CHECK(py_repr(TorchDType{dtypes::float16}) == "torch.float16");
  CHECK(py_repr(TorchDType{dtypes::bool8}) == "torch.bool");
  CHECK(py_repr(cuda(0)) == "devices.Device(\"cuda:0\")");
  CHECK(py_repr(TorchDevice{Device::cpu()}) == "torch.device(\"cpu\")");
  CHECK(py_repr(a) == "a");
  CHECK(py_repr(Value::tuple({a, None{}, Value::list({a})})) == "(a, None, [a])");
  CHECK(py_repr(Value::dict({{"loss", a}, {"n", 2}})) == "{'loss': a, 'n': 2}");
}

TEST_CASE("type strings show device, short dtype and shape") {
  Tracing t;
  CHECK(type_string(t.input("x", {8, 2}, dtypes::bfloat16, cuda(0))) == "cuda:0 bf16[8, 2]");
  CHECK(type_string(t.input("y", {}, dtypes::float32)) == "cpu f32[]");
  CHECK(type_string(t.input("z", {0, 3}, dtypes::int64, cuda(1))) == "cuda:1 i64[0, 3]");
  CHECK(type_string(make_named_number("n", NumberKind::Int, Value(int64_t{5}))) == "int 5");
  CHECK(type_string(make_named_number("f", NumberKind::Float, std::nullopt)) == "float");
}

TEST_CASE("a traced function prints with its decomposition, as Thunder prints it") {
  Tracing t;
  t.trace.name = "fun";
  Tensor a = t.input("a", {2, 2});
  Tensor b = t.input("b", {2, 1});
  t.trace.output = a + b * a;
  CHECK(print_trace(t.trace) == read_text("tests/golden/add_mul.print.py"));

  SECTION("--depth limits the nesting") {
    std::string shallow = print_trace(t.trace, {.depth = 0});
    CHECK(shallow.find("prims.") == std::string::npos);
    CHECK(shallow.find("  t2 = ltorch.add(a, t1, alpha=1)  # t2: \"cpu f32[2, 2]\"\n  return t2\n") != std::string::npos);
  }
}

TEST_CASE("tuple outputs, provenance, headers and value modules print as Thunder's") {
  Tracing t;
  Tensor a = t.input("a", {4, 3});
  auto [v, m] = prims::var_mean(a, {1}, 0);
  Tensor f = prims::full({2}, 1.0, cuda(0), dtypes::float16);
  t.trace.bound_symbols.back().header.push_back("a header line");
  t.trace.output = Value::tuple({v, m, f});
  t.trace.provenance = "Dead Code Elimination";
  CHECK(print_trace(t.trace) ==
        "# Constructed by Dead Code Elimination\n"
        "import thunder.core.devices as devices\n"
        "import thunder.core.dtypes as dtypes\n"
        "import thunder.core.prims as prims\n"
        "import torch\n"
        "from thunder.executors.torchex import no_autocast\n"
        "\n"
        "@torch.no_grad()\n"
        "@no_autocast\n"
        "def computation(a):\n"
        "  # a: \"cpu f32[4, 3]\"\n"
        "  (t0, t1) = prims.var_mean(a, (1,), correction=0)\n"
        "  # a header line\n"
        "  t2 = prims.full((2,), 1.0, device=devices.Device(\"cuda:0\"), dtype=dtypes.float16)  # t2: \"cuda:0 f16[2]\"\n"
        "  return (t0, t1, t2)\n");
}

TEST_CASE("printing is byte-identical from run to run") {
  auto once = [] {
    Tracing t;
    Tensor x = t.input("x", {3, 5}, dtypes::float16);
    t.trace.output = ltorch::softmax(x, -1);
    return print_trace(t.trace);
  };
  std::string first = once();
  CHECK(first == once());
  CHECK(first.find("milliseconds") == std::string::npos);
}
