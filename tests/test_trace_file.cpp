// trace.json: read-write identity, golden printed traces of the bundled examples, and every kind
// of bad file with the message that names the place and the problem.
#include <filesystem>
#include <nlohmann/json.hpp>

#include "test_util.h"
#include "thundercc/ir/printer.h"
#include "thundercc/serialize/trace_file.h"

using namespace thundercc;
using namespace thundercc::testing;
using json = nlohmann::json;

namespace {

std::string load_error(const std::string& text) {
  try {
    load_trace_text(text, "bad.json");
  } catch (const LoadError& e) {
    return e.what();
  }
  return "no error";
}

json add_mul() { return json::parse(read_text("traces/add_mul.json")); }

}  // namespace

TEST_CASE("every bundled trace reads and writes back the same JSON") {
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator("traces")) {
    if (entry.path().extension() != ".json") continue;
    INFO(entry.path());
    json original = json::parse(read_text(entry.path()));
    auto loaded = load_trace_file(entry.path());
    CHECK(encode_trace(loaded.recorded) == original);
    ++count;
  }
  CHECK(count >= 2);
}

TEST_CASE("bundled traces print as their golden files") {
  for (const char* name : {"add_mul", "cross_entropy"}) {
    INFO(name);
    auto loaded = load_trace_file(std::string("traces/") + name + ".json");
    CHECK(print_trace(loaded.traced) == read_text(std::string("tests/golden/") + name + ".print.py"));
  }
}

TEST_CASE("re-tracing renames values as Thunder's counter would and keeps sources") {
  auto loaded = load_trace_file("traces/add_mul.json");
  const auto& b = loaded.traced.bound_symbols;
  REQUIRE(b.size() == 2);
  CHECK(b[0].subsymbols.size() == 2);
  CHECK(b[0].output.as_tensor().name() == "t1");
  CHECK(b[1].output.as_tensor().name() == "t2");
  CHECK(b[1].source == "add_mul.py:2");
  CHECK(loaded.traced.output.as_tensor().same(b[1].output.as_tensor()));
}

TEST_CASE("bad trace files give clear errors") {
  SECTION("not JSON") {
    CHECK(load_error("{\"format\": ").starts_with("bad.json: not valid JSON: [json.exception.parse_error.101]"));
  }
  SECTION("schema violation, with the JSON pointer") {
    json doc = add_mul();
    doc["bound_symbols"][1]["args"][0] = json::array({1, 2});
    CHECK(load_error(doc.dump()).starts_with("bad.json: /bound_symbols/1/args/0: does not match the trace schema"));
    doc = add_mul();
    doc["version"] = 2;
    CHECK(load_error(doc.dump()).starts_with("bad.json: /version: does not match the trace schema"));
    doc = add_mul();
    doc["inputs"][0]["tensor"]["dtype"] = "float31";
    CHECK(load_error(doc.dump()).starts_with("bad.json: /inputs/0/tensor/dtype: does not match the trace schema"));
  }
  SECTION("unknown symbol") {
    json doc = add_mul();
    doc["bound_symbols"][0]["symbol"] = "torch.frobnicate";
    CHECK(load_error(doc.dump()) == "bad.json: /bound_symbols/0/symbol: unknown symbol 'torch.frobnicate'");
  }
  SECTION("undefined name") {
    json doc = add_mul();
    doc["bound_symbols"][1]["args"][1] = {{"ref", "t7"}};
    CHECK(load_error(doc.dump()) == "bad.json: /bound_symbols/1/args/1: 't7' is not defined");
    doc = add_mul();
    doc["output"] = {{"ref", "t9"}};
    CHECK(load_error(doc.dump()) == "bad.json: /output: 't9' is not defined");
  }
  SECTION("a name defined twice") {
    json doc = add_mul();
    doc["bound_symbols"][1]["output"]["tensor"]["name"] = "t0";
    CHECK(load_error(doc.dump()) == "bad.json: /bound_symbols/1/output/tensor/name: the name 't0' is already defined");
  }
  SECTION("arguments that do not bind") {
    json doc = add_mul();
    doc["bound_symbols"][1]["kwargs"] = {{"beta", 2}};
    CHECK(load_error(doc.dump()) ==
          "bad.json: /bound_symbols/1: TypeError: add() got an unexpected keyword argument 'beta'\n  in ltorch.add(a, t1, beta=2)");
  }
  SECTION("a meta function rejects the inputs") {
    json doc = add_mul();
    doc["inputs"][1]["tensor"]["shape"] = {3, 1};
    CHECK(load_error(doc.dump()) ==
          "bad.json: /bound_symbols/0: RuntimeError: Attempting to broadcast a dimension of length 2 at -2! Mismatching argument at index 0 had shapes (3, 1) and (2, 2).\n"
          "  in ltorch.mul(b, a)");
  }
  SECTION("recorded metadata that the meta function does not produce") {
    json doc = add_mul();
    doc["bound_symbols"][0]["output"]["tensor"]["shape"] = {2, 3};
    CHECK(load_error(doc.dump()) ==
          "bad.json: /bound_symbols/0: the recorded output metadata do not match the meta function's for\n"
          "  t1 = ltorch.mul(b, a)  # t1: \"cpu f32[2, 2]\"\n"
          "  recorded t0: cpu f32[2, 3]\n"
          "  computed t1: cpu f32[2, 2]");
    doc = add_mul();
    doc["bound_symbols"][1]["output"]["tensor"]["dtype"] = "float64";
    CHECK(load_error(doc.dump()).ends_with("  recorded t1: cpu f64[2, 2]\n  computed t2: cpu f32[2, 2]"));
    doc = add_mul();
    doc["bound_symbols"][1]["output"]["tensor"]["requires_grad"] = true;
    CHECK(load_error(doc.dump()).ends_with("  recorded t1: cpu f32[2, 2] (requires_grad=True)\n  computed t2: cpu f32[2, 2]"));
  }
}

TEST_CASE("requires_grad flows from inputs through prims") {
  json doc = add_mul();
  doc["inputs"][0]["tensor"]["requires_grad"] = true;
  doc["bound_symbols"][0]["output"]["tensor"]["requires_grad"] = true;
  doc["bound_symbols"][1]["output"]["tensor"]["requires_grad"] = true;
  auto loaded = load_trace_text(doc.dump(), "grad.json");
  CHECK(loaded.traced.output.as_tensor().requires_grad());
}
