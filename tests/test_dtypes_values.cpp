// dtypes, devices, type promotion against PyTorch's table, broadcasting, signatures and binding.
#include <nlohmann/json.hpp>

#include "langs/core_language.h"
#include "test_util.h"
#include "thundercc/ir/pyliteral.h"

using namespace thundercc;
using namespace thundercc::testing;

TEST_CASE("dtypes have Thunder's short, full and torch names") {
  struct Row {
    DType dtype;
    const char* short_name;
    const char* full_name;
    const char* torch_name;
  };
  const Row rows[] = {
      {dtypes::bool8, "b8", "bool8", "bool"},           {dtypes::uint8, "ui8", "uint8", "uint8"},
      {dtypes::int8, "i8", "int8", "int8"},             {dtypes::int16, "i16", "int16", "int16"},
      {dtypes::int32, "i32", "int32", "int32"},         {dtypes::int64, "i64", "int64", "int64"},
      {dtypes::bfloat16, "bf16", "bfloat16", "bfloat16"}, {dtypes::float16, "f16", "float16", "float16"},
      {dtypes::float32, "f32", "float32", "float32"},   {dtypes::float64, "f64", "float64", "float64"},
      {dtypes::complex32, "c32", "complex32", "complex32"}, {dtypes::complex64, "c64", "complex64", "complex64"},
      {dtypes::complex128, "c128", "complex128", "complex128"},
      {DType(ScalarType::Float8E4M3Fn), "f8_e4m3fn", "float8_e4m3fn", "float8_e4m3fn"},
  };
  for (const auto& r : rows) {
    CHECK(r.dtype.short_name() == r.short_name);
    CHECK(r.dtype.full_name() == r.full_name);
    CHECK(r.dtype.torch_name() == r.torch_name);
    CHECK(DType::parse(r.full_name) == r.dtype);
    CHECK(DType::parse(r.torch_name) == r.dtype);
  }
  CHECK(DType::all().size() == 17);
  CHECK(dtypes::float32.as_weak().full_name() == "float32_");
  CHECK(DType::parse("float32_")->weak);
  CHECK_FALSE(DType::parse("float31"));
  CHECK(dtypes::float16.is_low_precision());
  CHECK_FALSE(dtypes::float32.is_low_precision());
  CHECK(to_complex_dtype(dtypes::float64) == dtypes::complex128);
  CHECK(to_real_dtype(dtypes::complex64) == dtypes::float32);
}

TEST_CASE("devices print as Thunder's: cpu, meta, cuda:N") {
  CHECK(Device::parse("cpu")->str() == "cpu");
  CHECK(Device::parse("meta")->str() == "meta");
  CHECK(Device::parse("cuda")->str() == "cuda:0");
  CHECK(Device::parse("cuda:3")->str() == "cuda:3");
  CHECK_FALSE(Device::parse("cuda:x"));
  CHECK_FALSE(Device::parse("tpu"));
}

TEST_CASE("type promotion matches torch.result_type for every dtype pair, 0-d tensors and numbers") {
  auto rows = nlohmann::json::parse(read_text("tests/data/promotion_table.json"));
  REQUIRE(rows.size() > 500);
  Tracing t;
  int checked = 0;
  for (const auto& row : rows) {
    DType a = *DType::parse(row[0].get<std::string>());
    Value lhs = t.input("a" + std::to_string(checked), row[1].get<bool>() ? Shape{} : Shape{2}, a);
    Value rhs;
    if (row[3].is_null()) {
      auto kind = row[2].get<std::string>();
      rhs = kind == "bool" ? Value(true) : kind == "int" ? Value(int64_t{2}) : kind == "float" ? Value(2.5)
                                                                                                : Value(std::complex<double>(0, 1));
    } else {
      rhs = t.input("b" + std::to_string(checked), row[3].get<bool>() ? Shape{} : Shape{2}, *DType::parse(row[2].get<std::string>()));
    }
    DType expected = *DType::parse(row[4].get<std::string>());
    auto promoted = core::elementwise_type_promotion({lhs, rhs}, core::Promotion::Default);
    INFO(row.dump());
    CHECK(promoted.result.full_name() == expected.full_name());
    ++checked;
  }
  CHECK(checked == static_cast<int>(rows.size()));
}

TEST_CASE("promotion kinds choose the computation and result dtypes") {
  Tracing t;
  Tensor i = t.input("i", {2}, dtypes::int32);
  Tensor h = t.input("h", {2}, dtypes::float16);
  Tensor c = t.input("c", {2}, dtypes::complex64);
  Tensor b = t.input("b", {2}, dtypes::bool8);
  using core::Promotion;
  auto check_kind = [](const Values& args, Promotion kind, DType computation, DType result) {
    auto p = core::elementwise_type_promotion(args, kind);
    CHECK(p.computation.full_name() == computation.full_name());
    CHECK(p.result.full_name() == result.full_name());
  };
  check_kind({i}, Promotion::IntToFloat, dtypes::float32, dtypes::float32);
  check_kind({h, h}, Promotion::Default, dtypes::float32, dtypes::float16);
  check_kind({c}, Promotion::ComplexToFloat, dtypes::complex64, dtypes::float32);
  check_kind({b, b}, Promotion::BoolToLong, dtypes::int64, dtypes::int64);
  check_kind({h, 2.0}, Promotion::AlwaysBool, dtypes::float32, dtypes::bool8);
  check_kind({i, 2}, Promotion::Preserve, dtypes::int32, dtypes::int32);
}

TEST_CASE("broadcasting follows NumPy's rules") {
  using langs::broadcast_shapes;
  CHECK(broadcast_shapes({{2, 1}, {2, 2}}) == Shape{2, 2});
  CHECK(broadcast_shapes({{3, 1, 5}, {4, 1}}) == Shape{3, 4, 5});
  CHECK(broadcast_shapes({{}, {2, 3}}) == Shape{2, 3});
  CHECK(broadcast_shapes({{0}, {1}}) == Shape{0});
  CHECK(broadcast_shapes({{2, 0}, {2, 1}}) == Shape{2, 0});
  CHECK(error_of([] { broadcast_shapes({{2, 3}, {4}}); }) ==
        "RuntimeError: Attempting to broadcast a dimension of length 4 at -1! Mismatching argument at index 1 had shapes (2, 3) and (4,).");
}

TEST_CASE("signatures parse Python syntax and print it back") {
  for (const char* text : {"a, b, /, *, alpha=1", "a, /, *shape", "a, /, dim=None, keepdim=False, *, dtype=None",
                           "shape, fill_value, *, device, dtype", "a, /, eps=1e-05, mode='mean', dims=(1, 2)"}) {
    CHECK(Signature::parse(text).str() == text);
  }
  auto sig = Signature::parse("a, b, /, *, alpha=1");
  REQUIRE(sig.params.size() == 3);
  CHECK(sig.params[0].kind == Param::Kind::PositionalOnly);
  CHECK(sig.params[2].kind == Param::Kind::KeywordOnly);
  CHECK(*sig.params[2].default_value == Value(int64_t{1}));
}

TEST_CASE("binding normalizes calls and raises Python's TypeErrors") {
  Tracing t;
  Tensor a = t.input("a", {2});
  const Symbol& add = SymbolTable::global().get("torch.add");
  auto [args, kwargs] = add.normalize(add.bind({a, 2.0}, {}));
  CHECK(args.size() == 2);
  REQUIRE(kwargs.size() == 1);
  CHECK(kwargs[0].first == "alpha");

  const Symbol& sum = SymbolTable::global().get("torch.sum");
  auto [sargs, skwargs] = sum.normalize(sum.bind({a}, {{"keepdim", true}}));
  CHECK(sargs.size() == 3);  // a, dim=None, keepdim=True: positional parameters stay positional
  CHECK(sargs[2] == Value(true));
  CHECK(skwargs.size() == 1);

  CHECK(error_of([&] { add.bind({a}, {}); }) == "TypeError: add() missing 1 required positional argument: 'b'");
  CHECK(error_of([&] { add.bind({a, a, a}, {}); }) == "TypeError: add() takes 2 positional arguments but 3 were given");
  CHECK(error_of([&] { add.bind({a, a}, {{"beta", 2}}); }) == "TypeError: add() got an unexpected keyword argument 'beta'");
  CHECK(error_of([&] { add.bind({a}, {{"b", a}}); }) ==
        "TypeError: add() got some positional-only arguments passed as keyword arguments: 'b'");
  CHECK(error_of([&] { sum.bind({a, 0}, {{"dim", 1}}); }) == "TypeError: sum() got multiple values for argument 'dim'");

  const Symbol& view = SymbolTable::global().get("torch.Tensor.view");
  auto bound = view.bind({a, 1, 2}, {});
  CHECK(bound.ints("shape") == std::vector<int64_t>{1, 2});
  CHECK(view.bind({a, Value::ints({1, 2})}, {}).ints("shape") == std::vector<int64_t>{1, 2});
}

TEST_CASE("one name counter is shared by all prefixes and skips taken names") {
  NameSet names;
  names.reserve("t1");
  CHECK(names.make("t") == "t0");
  CHECK(names.make("t") == "t2");  // t1 was taken
  CHECK(names.make("i") == "i3");  // the counter is shared by every prefix
  CHECK(error_of([&] { names.reserve("t0"); }) == "RuntimeError: the name 't0' is already in use");
}

TEST_CASE("Python literals parse with their kinds") {
  CHECK(parse_py_literal("None").is_none());
  CHECK(parse_py_literal("1").kind() == Value::Kind::Int);
  CHECK(parse_py_literal("1.0").kind() == Value::Kind::Float);
  CHECK(parse_py_literal("-100").as_int() == -100);
  CHECK(parse_py_literal("'mean'").as_string() == "mean");
  CHECK(parse_py_literal("(1,)").kind() == Value::Kind::Tuple);
  CHECK(parse_py_literal("[1, 2]").kind() == Value::Kind::List);
  CHECK(parse_py_literal("()").items().empty());
  CHECK(error_of([] { parse_py_literal("1 2"); }).starts_with("ValueError: invalid Python literal"));
}
