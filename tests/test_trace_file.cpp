// trace.json: read-write identity, golden printed traces of the bundled examples, and every kind
// of bad file with the message that names the place and the problem.
#include <bit>
#include <cmath>
#include <filesystem>
#include <functional>
#include <random>
#include <nlohmann/json.hpp>

#include "test_util.h"
#include "thundercc/ir/printer.h"
#include "thundercc/ir/rewrite.h"
#include "thundercc/serialize/json_reader.h"
#include "thundercc/serialize/json_writer.h"
#include "thundercc/serialize/compiled_schema.h"
#include "thundercc/serialize/schema.h"
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
          "bad.json: /bound_symbols/1: TypeError: add() got an unexpected keyword argument 'beta'\n  in ltorch.add(a, t1, beta=2)\n"
          "  at add_mul.py:2");
  }
  SECTION("a meta function rejects the inputs") {
    json doc = add_mul();
    doc["inputs"][1]["tensor"]["shape"] = {3, 1};
    CHECK(load_error(doc.dump()) ==
          "bad.json: /bound_symbols/0: RuntimeError: Attempting to broadcast a dimension of length 2 at -2! Mismatching argument at index 0 had shapes (3, 1) and (2, 2).\n"
          "  in ltorch.mul(b, a)\n"
          "  at add_mul.py:2");
  }
  SECTION("recorded metadata that the meta function does not produce") {
    json doc = add_mul();
    doc["bound_symbols"][0]["output"]["tensor"]["shape"] = {2, 3};
    CHECK(load_error(doc.dump()) ==
          "bad.json: /bound_symbols/0: the recorded output metadata do not match the meta function's for\n"
          "  t1 = ltorch.mul(b, a)  # t1: \"cpu f32[2, 2]\"\n"
          "  recorded t0: cpu f32[2, 3]\n"
          "  computed t1: cpu f32[2, 2]\n"
          "  at add_mul.py:2");
    doc = add_mul();
    doc["bound_symbols"][1]["output"]["tensor"]["dtype"] = "float64";
    CHECK(load_error(doc.dump()).ends_with("  recorded t1: cpu f64[2, 2]\n  computed t2: cpu f32[2, 2]\n  at add_mul.py:2"));
    doc = add_mul();
    doc["bound_symbols"][1]["output"]["tensor"]["requires_grad"] = true;
    CHECK(load_error(doc.dump()).ends_with("  recorded t1: cpu f32[2, 2] (requires_grad=True)\n  computed t2: cpu f32[2, 2]\n  at add_mul.py:2"));
  }
}

namespace {

// The trace re-tracing gives without remembering anything: every statement called again.
Trace called_again(const Trace& recorded) {
  Trace traced;
  traced.name = recorded.name;
  TracingScope scope(traced);
  for (const auto& in : recorded.inputs) {
    traced.names->reserve(in.name);
    for (const auto& t : tensors_in(in.value))
      if (t.name() != in.name) traced.names->reserve(t.name());
    traced.inputs.push_back(in);
  }
  ValueMap map;
  for (const auto& b : recorded.bound_symbols) {
    Values args;
    for (const auto& a : b.args) args.push_back(map.apply(a));
    Kwargs kwargs;
    for (const auto& [k, v] : b.kwargs) kwargs.emplace_back(k, map.apply(v));
    Value out = call(*b.sym, args, kwargs);
    traced.bound_symbols.back().source = b.source;
    traced.bound_symbols.back().scope = b.scope;
    std::vector<Value> recorded_out, computed_out;
    for_each_proxy(b.output, [&](const Value& v) { recorded_out.push_back(v); });
    for_each_proxy(out, [&](const Value& v) { computed_out.push_back(v); });
    REQUIRE(recorded_out.size() == computed_out.size());
    for (size_t i = 0; i < recorded_out.size(); ++i) map.set(recorded_out[i], computed_out[i]);
  }
  traced.output = map.apply(recorded.output);
  return traced;
}

}  // namespace

TEST_CASE("re-tracing replays repeated calls as calling them again would record them") {
  size_t replayed_in_all = 0;
  for (const auto& entry : std::filesystem::directory_iterator("traces")) {
    if (entry.path().extension() != ".json") continue;
    INFO(entry.path());
    const Trace recorded = decode_trace(json::parse(read_text(entry.path())), entry.path());
    size_t replayed = 0;
    const Trace traced = retrace(recorded, entry.path(), NameStyle::Thunder, &replayed);
    CHECK(print_trace(traced) == print_trace(called_again(recorded)));
    replayed_in_all += replayed;
  }
  // The same program twice over, as a stack of layers repeats itself: every statement of the
  // second copy is replayed, and its values get the names calling it again gives them.
  const Trace once = decode_trace(json::parse(read_text("traces/gpt2_block.json")), "gpt2_block.json");
  Trace twice = once;
  ValueMap second;
  for (const auto& b : once.bound_symbols) {
    BoundSymbol copy = b;
    copy.args.clear();
    for (const auto& a : b.args) copy.args.push_back(second.apply(a));
    for (auto& [k, v] : copy.kwargs) v = second.apply(v);
    for_each_proxy(b.output, [&](const Value& v) {
      if (v.is_tensor()) second.set(v, Tensor(std::make_shared<const TensorProxyNode>(TensorProxyNode{v.as_tensor().name() + "_again", v.as_tensor().meta()})));
    });
    copy.output = second.apply(b.output);
    twice.bound_symbols.push_back(copy);
  }
  size_t replayed = 0;
  const Trace traced = retrace(twice, "twice.json", NameStyle::Thunder, &replayed);
  CHECK(replayed >= once.bound_symbols.size());
  CHECK(print_trace(traced) == print_trace(called_again(twice)));
  CHECK(replayed_in_all + replayed > once.bound_symbols.size());
}

TEST_CASE("requires_grad flows from inputs through prims") {
  json doc = add_mul();
  doc["inputs"][0]["tensor"]["requires_grad"] = true;
  doc["bound_symbols"][0]["output"]["tensor"]["requires_grad"] = true;
  doc["bound_symbols"][1]["output"]["tensor"]["requires_grad"] = true;
  auto loaded = load_trace_text(doc.dump(), "grad.json");
  CHECK(loaded.traced.output.as_tensor().requires_grad());
}

namespace {

// Every node of a document, by JSON pointer.
void collect_pointers(const json& j, const json::json_pointer& at, std::vector<json::json_pointer>& out) {
  out.push_back(at);
  if (j.is_object())
    for (auto it = j.begin(); it != j.end(); ++it) collect_pointers(it.value(), at / it.key(), out);
  else if (j.is_array())
    for (size_t i = 0; i < j.size(); ++i) collect_pointers(j[i], at / i, out);
}

}  // namespace

namespace {

// Every bundled trace of a few statements, and its mutations: each node replaced in turn by
// values of every kind the schema tells apart, members removed, added and renamed, items dropped
// and repeated.
void for_each_mutation(const std::function<void(const json&)>& visit) {
  const std::vector<json> replacements = {
      nullptr, true, 0, -1, 3, 1.5, 1e300, -1e19, "", "x", "t0", "float32", "cpu", "inf", json::array(), json::array({1, 2}),
      json::array({1, 2, 3}), json::array({nullptr, 1, nullptr}), json::object(), json{{"ref", "t0"}}, json{{"ref", 1}},
      json{{"float", "inf"}}, json{{"float", "big"}}, json{{"complex", {1.0, 2}}}, json{{"tuple", json::array({1})}},
      json{{"list", 1}}, json{{"slice", {1, nullptr, 2}}}, json{{"ellipsis", true}}, json{{"ellipsis", false}},
      json{{"dict", {{"a", 1}}}}, json{{"dict", {{1, 1}}}}, json{{"dtype", "int64"}}, json{{"torch_dtype", "int3"}},
      json{{"device", "cuda:0"}}, json{{"tensor", {{"name", "q"}, {"shape", {2}}, {"dtype", "float32"}, {"device", "cpu"}}}},
      json{{"number", {{"name", "n"}, {"kind", "int"}}}}, json{{"number", {{"kind", "float"}, {"value", 1.0}}}},
      json{{"ref", "t0"}, {"list", json::array()}},
      // Near misses: one keyword of the schema broken in each.
      json{{"complex", {1.0}}}, json{{"complex", {1, 2, 3}}}, json{{"complex", {"a", 1}}}, json{{"slice", {1, 2}}},
      json{{"slice", {1, 2.5, nullptr}}}, json{{"slice", {1e19, nullptr, nullptr}}},
      json{{"tensor", {{"name", "q"}, {"shape", {1e300}}, {"dtype", "float32"}, {"device", "cpu"}}}}, json{{"dict", {{"a"}}}}, json{{"dict", {{"a", 1, 2}}}}, json{{"dict", {{"a", {{"x", 1}}}}}},
      json{{"float", "nan"}, {"x", 1}}, json{{"tuple", {{{"ref", "t0"}}, {{"float", "nan"}}}}},
      json{{"number", {{"name", "n"}, {"kind", "int"}, {"value", 1}, {"extra", 1}}}},
      json{{"number", {{"name", "n"}, {"kind", "integer"}}}},
      json{{"tensor", {{"name", "q"}, {"shape", {-1}}, {"dtype", "float32"}, {"device", "cpu"}}}},
      json{{"tensor", {{"name", "q"}, {"shape", {1.0}}, {"dtype", "float32"}, {"device", "cpu"}}}},
      json{{"tensor", {{"name", "q"}, {"shape", {2}}, {"dtype", "float32"}, {"device", "cpu"}, {"requires_grad", 1}}}},
      json{{"tensor", {{"shape", {2}}, {"dtype", "float32"}, {"device", "cpu"}}}},
      json{{"name", "z"}, {"tensor", {{"shape", {2}}, {"dtype", "float32"}, {"device", "cpu"}}}},
      json{{"name", "z"}, {"tensor", {{"name", "y"}, {"shape", {2}}, {"dtype", "float32"}, {"device", "cpu"}}}},
      json{{"name", "z"}, {"tensor", {{"shape", {2}}, {"dtype", "float32"}, {"device", "cpu"}}}, {"number", {{"kind", "int"}}}},
      json{{"name", "z"}, {"number", {{"kind", "int"}, {"value", {{"ref", "t0"}}}}}}, json{{"name", "z"}},
      json{{"symbol", "s"}, {"args", json::array()}, {"output", nullptr}},
      json{{"symbol", ""}, {"args", json::array()}, {"output", nullptr}},
      json{{"symbol", std::string("\0x", 2)}, {"args", json::array()}, {"output", nullptr}},
      json{{"symbol", "s"}, {"args", json::array()}, {"output", nullptr}, {"kwargs", {{"k", {{"bad", 1}}}}}},
      json{{"symbol", "s"}, {"args", json::array()}, {"output", nullptr}, {"kwargs", {{"k", 1}}}, {"source", 1}}};
  for (const char* name : {"add_mul", "mul", "cross_entropy", "mlp"}) {
    json original = json::parse(read_text(std::string("traces/") + name + ".json"));
    visit(original);
    std::vector<json::json_pointer> pointers;
    collect_pointers(original, json::json_pointer(), pointers);
    for (const auto& at : pointers) {
      for (const auto& r : replacements) {
        json doc = original;
        doc[at] = r;
        visit(doc);
      }
      if (at.empty()) continue;
      json parent_doc = original;
      json& parent = parent_doc[at.parent_pointer()];
      if (parent.is_object()) {
        json doc = original;
        doc[at.parent_pointer()].erase(at.back());
        visit(doc);
        doc = original;
        doc[at.parent_pointer()]["zz_" + at.back()] = doc[at];
        visit(doc);
        doc[at.parent_pointer()].erase(at.back());
        visit(doc);
      } else {
        size_t i = std::stoul(at.back());
        json doc = original;
        doc[at.parent_pointer()].erase(i);
        visit(doc);
        doc = original;
        doc[at.parent_pointer()].push_back(doc[at]);
        visit(doc);
      }
    }
  }
}

}  // namespace

TEST_CASE("the compiled trace schema agrees with valijson on every bundled trace and its mutations") {
  int compared = 0, rejected = 0;
  for_each_mutation([&](const json& doc) {
    bool reference = schema_internals::valijson_accepts(doc, SchemaKind::Trace);
    bool compiled = schema_internals::compiled_accepts_trace(doc);
    if (compiled != reference) FAIL_CHECK("valijson " << reference << ", compiled " << compiled << " for " << doc.dump());
    ++compared;
    rejected += !reference;
  });
  // Both verdicts occur often, so agreement is not vacuous.
  CHECK(compared > 10000);
  CHECK(rejected > compared / 4);
  CHECK(compared - rejected > compared / 20);
}

TEST_CASE("a document the schema refuses is reported as such, though it was decoded beside the check") {
  // The decoder runs on each document before the schema's verdict: on an invalid one it must
  // throw (checked reads, never out of bounds, no float converted to an integer it overflows:
  // build-asan and the fuzzers' sanitizers would see it), and the error reported is the schema's.
  int refused = 0;
  for_each_mutation([&](const json& doc) {
    try {
      decode_trace(doc, "m.json");
    } catch (const std::exception&) {
    }
    if (schema_internals::compiled_accepts_trace(doc)) return;
    ++refused;
    std::string error = load_error(doc.dump());
    bool schema_error = error.find("does not match the trace schema") != std::string::npos;
    bool not_a_trace = error.find("is not a trace (format") != std::string::npos;  // checked first
    if (!schema_error && !not_a_trace) FAIL_CHECK(error << "\n  for " << doc.dump());
  });
  CHECK(refused > 2500);
}

TEST_CASE("the schema's patterns match as std::regex does, on the patterns it matches directly and those it does not") {
  const std::vector<std::string> patterns = {
      "^[A-Za-z_][A-Za-z0-9_]*$", "^[A-Za-z0-9_.]{0,256}$", "^[-+*/() A-Za-z0-9_]{1,512}$",
      "^(cpu|meta|cuda(:[0-9]+)?)$",  // not a run of classes: std::regex's
      "^[a-c]{2}x?[^a-c]+$", "^ab*c{1,3}$", "^[]a]*$", "^[a-]+$"};
  std::mt19937 rng(7);
  const std::string alphabet = "abcxyzAZ_09.-+*/() :]\xe9";
  int compared = 0, matched = 0;
  for (const auto& pattern : patterns) {
    SchemaPattern fast(pattern);
    std::regex reference(pattern);
    std::vector<std::string> strings = {"", "a", "cpu", "cuda:1", "cuda:", "blocks.0.attn", "_x1", "1x", std::string(257, 'a'),
                                        std::string(256, 'a'), "abbbccc", "acccc", "aaxz", "aaz", "]]a", "a-a"};
    for (int i = 0; i < 400; ++i) {
      std::string s(rng() % 8, ' ');
      for (char& c : s) c = alphabet[rng() % alphabet.size()];
      strings.push_back(s);
    }
    for (const auto& s : strings) {
      const bool expected = std::regex_search(s, reference);
      if (fast.matches(s) != expected) FAIL_CHECK(pattern << " on '" << s << "': std::regex says " << expected);
      ++compared;
      matched += expected;
    }
  }
  CHECK(matched > compared / 20);
  CHECK(compared - matched > compared / 4);
}

namespace {

// Equal as nlohmann's == says, and of the same kind at every node (== calls 1 and 1.0 equal).
bool same_document(const json& a, const json& b) {
  if (a.type() != b.type()) return false;
  if (a.is_array()) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
      if (!same_document(a[i], b[i])) return false;
    return true;
  }
  if (a.is_object()) {
    if (a.size() != b.size()) return false;
    for (auto it = a.begin(); it != a.end(); ++it)
      if (!b.contains(it.key()) || !same_document(it.value(), b[it.key()])) return false;
    return true;
  }
  if (a.is_number_float()) return std::bit_cast<uint64_t>(a.get<double>()) == std::bit_cast<uint64_t>(b.get<double>());
  return a == b;
}

struct LimitPassed {};

}  // namespace

TEST_CASE("read_json reads what nlohmann reads, the same, or declines") {
  auto limit = [](const std::string&) { throw LimitPassed{}; };
  int accepted = 0, declined = 0;
  auto compare = [&](const std::string& text) {
    std::optional<json> read;
    try {
      read = read_json(text, limit);
    } catch (const LimitPassed&) {
      return;
    }
    if (!read) {
      ++declined;
      return;
    }
    ++accepted;
    json reference;
    try {
      reference = json::parse(text);
    } catch (const json::exception& e) {
      FAIL_CHECK("read_json accepted what nlohmann refuses (" << e.what() << "): " << text);
      return;
    }
    if (!same_document(*read, reference)) FAIL_CHECK("read_json and nlohmann differ on: " << text);
  };
  // Every bundled trace is read, not declined.
  for (const auto& entry : std::filesystem::directory_iterator("traces")) {
    if (entry.path().extension() != ".json") continue;
    INFO(entry.path());
    std::string text = read_text(entry.path());
    CHECK(read_json(text, limit).has_value());
    compare(text);
  }
  for (const char* text :
       {"0", "-0", "-0.0", "1.5e-3", "1E+2", "2e308", "1e-400", "9223372036854775807", "-9223372036854775808",
        "-9223372036854775809", "18446744073709551616", "01", "1.", ".5", "-", "+1", "1e", "tru", "nul", "[1,]", "{\"a\":1,}",
        "{\"a\" 1}", "{\"a\":1}{}", "[] x", " \t\r\n[ ]\n", "\"\\u0041\\u00e9\\u20ac\"", "\"\\ud83d\\ude00\"", "\"\\u12\"",
        "\"\\x\"", "\"a\tb\"", "\"caf\xc3\xa9\"", "\"\xff\"", "{\"a\":1,\"a\":2}", "[\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"]", "\xef\xbb\xbf[]",
        "", "[", "{", "\"abc", "[1 2]", "{1:2}", "[true,false,null]", "[truex]", "1.0e+0", "-1E-0"})
    compare(text);
  // Each bundled small trace cut and with one character changed at many places.
  const std::string alphabet = "{}[]\",:\\0123456789.eE-+ tfnu\x01\xc3";
  std::mt19937 random(7);
  for (const char* name : {"add_mul", "cross_entropy", "mlp"}) {
    std::string original = read_text(std::string("traces/") + name + ".json");
    for (int i = 0; i < 3000; ++i) {
      std::string text = original;
      size_t at = random() % text.size();
      switch (random() % 4) {
        case 0: text[at] = alphabet[random() % alphabet.size()]; break;
        case 1: text.insert(at, 1, alphabet[random() % alphabet.size()]); break;
        case 2: text.erase(at, 1); break;
        case 3: text.resize(at); break;
      }
      compare(text);
    }
  }
  CHECK(accepted > 1000);
  CHECK(declined > 1000);
}

TEST_CASE("the input limits are the same whether read_json or nlohmann's parser reads the text") {
  auto verdict = [](const std::string& text) {
    try {
      parse_json_document(text, "t.json");
      return std::string("ok");
    } catch (const LoadError& e) {
      return std::string(e.what());
    }
  };
  auto never = [](const std::string&) { throw LoadError("a limit"); };
  // Each case inside an array, after an ASCII string (read_json reads it) or after a non-ASCII
  // one (read_json declines before it reaches the case, and nlohmann's parser reads it).
  struct Case {
    std::string text;
    bool ok;
  };
  const std::vector<Case> cases = {
      {std::string(64, '[') + std::string(64, ']'), false},  // 65 levels with the array around it
      {std::string(63, '[') + std::string(63, ']'), true},
      {"{\"x\": [{\"name\": \"a\"}, \"" + std::string(300, 'b') + "\"]}", true},  // an argument, not a name
      {"{\"name\": [{\"a\": 1}, \"" + std::string(300, 'b') + "\"]}", false},
      {"{\"" + std::string(300, 'k') + "\": 1}", false},
      {"{\"v\": 9223372036854775808}", false},
      {"{\"v\": 9223372036854775807}", true}};
  for (const auto& c : cases) {
    INFO(c.text.substr(0, 80));
    std::string fast = "[\"e\", " + c.text + "]";
    std::string fallback = "[\"\xc3\xa9\", " + c.text + "]";
    REQUIRE(!read_json(fallback, never).has_value());
    CHECK((verdict(fast) == "ok") == c.ok);
    CHECK(verdict(fallback) == verdict(fast));
  }
}

TEST_CASE("JsonWriter writes what nlohmann's dump(0) writes, whole documents and member by member") {
  // Member by member, as the plan's encoder writes: objects and arrays opened and closed, scalars
  // written as values (floats go through nlohmann's serializer either way).
  std::function<void(JsonWriter&, const json&)> stream = [&](JsonWriter& out, const json& doc) {
    if (doc.is_object()) {
      out.begin_object();
      for (auto it = doc.begin(); it != doc.end(); ++it) stream(out.key(it.key()), *it);
      out.end_object();
    } else if (doc.is_array()) {
      out.begin_array();
      for (const auto& item : doc) stream(out, item);
      out.end_array();
    } else if (doc.is_string()) {
      out.value(doc.get_ref<const std::string&>());
    } else if (doc.is_boolean()) {
      out.value(doc.get<bool>());
    } else if (doc.is_number_integer() && !doc.is_number_unsigned()) {
      out.value(doc.get<int64_t>());
    } else if (doc.is_null()) {
      out.value(nullptr);
    } else {
      out.value(doc);
    }
  };
  auto same = [&](const json& doc) {
    INFO(doc.dump());
    CHECK(JsonWriter().value(doc).take() == doc.dump(0));
    JsonWriter streamed;
    stream(streamed, doc);
    CHECK(streamed.take() == doc.dump(0));
  };
  for (const auto& entry : std::filesystem::directory_iterator("traces"))
    if (entry.path().extension() == ".json") same(json::parse(read_text(entry.path())));
  same(json::parse(R"({"a": [], "b": {}, "c": [[], {}, [1, -2, 3.5, 1e300, -0.0, 18446744073709551615, true, false, null]],
                       "d": "quote \" backslash \\ slash / tab \t newline \n cr \r bs \b ff \f bell \u0007 del \u007f end",
                       "e": "caf\u00e9 \u20ac \ud83d\ude00", "\u0001key": {"nested": {"deeper": ["x"]}}})"));
  same(json(std::numeric_limits<double>::quiet_NaN()));
  same(json(-std::numeric_limits<double>::infinity()));
  same(json(std::string("\x1f\x00\x7f", 3)));
  // Random documents: every kind of value, strings of every ASCII byte and some UTF-8.
  std::mt19937 random(11);
  std::function<json(int)> make = [&](int depth) -> json {
    switch (random() % (depth > 3 ? 5 : 7)) {
      case 0: return nullptr;
      case 1: return random() % 2 == 0;
      case 2: return static_cast<int64_t>(random()) - (1LL << 31);
      case 3: return std::ldexp(static_cast<double>(random()), static_cast<int>(random() % 80) - 40);
      case 4: {
        std::string s;
        for (size_t n = random() % 12; n-- > 0;) s += random() % 8 == 0 ? std::string("\xc3\xa9") : std::string(1, static_cast<char>(random() % 128));
        return s;
      }
      case 5: {
        json a = json::array();
        for (size_t n = random() % 4; n-- > 0;) a.push_back(make(depth + 1));
        return a;
      }
      default: {
        json o = json::object();
        for (size_t n = random() % 4; n-- > 0;) o[std::string(1, static_cast<char>('a' + random() % 26)) + "\n\""] = make(depth + 1);
        return o;
      }
    }
  };
  for (int i = 0; i < 2000; ++i) same(make(0));
  // A byte that needs care at every place of strings a word and more long (they are checked a
  // word at a time): the bytes on either side of each class's bounds.
  for (const std::string& special : {std::string(1, '\0'), std::string("\x1f"), std::string(" "), std::string("\""), std::string("!"),
                                    std::string("\\"), std::string("\x7f"), std::string("\xc3\xa9")})
    for (size_t length = 1; length <= 24; ++length)
      for (size_t at = 0; at < length; ++at) {
        std::string s(length, 'x');
        s.replace(at, 1, special);
        same(json(s));
      }
}

TEST_CASE("JsonWriter refuses members out of key order and documents left open") {
  JsonWriter out;
  out.begin_object().member("b", 1);
  CHECK_THROWS_WITH(out.member("a", 2), Catch::Contains("member \"a\" after \"b\": members go in ascending key order"));
  CHECK_THROWS_WITH(out.member("b", 2), Catch::Contains("after \"b\""));
  // Keys are compared as std::map compares them, not as written: '!' and ' ' sort before the
  // closing quote, an escaped '"' after '#' only when unescaped.
  CHECK(JsonWriter().begin_object().member("a", 1).member("a ~", 2).member("a!", 3).end_object().take() ==
        json{{"a", 1}, {"a ~", 2}, {"a!", 3}}.dump(0));
  CHECK(JsonWriter().begin_object().member("a\"", 1).member("a#", 2).end_object().take() == json{{"a\"", 1}, {"a#", 2}}.dump(0));
  JsonWriter escaped;
  escaped.begin_object().member("a#", 1);
  CHECK_THROWS_WITH(escaped.member("a\"", 2), Catch::Contains("members go in ascending key order"));
  CHECK_THROWS_WITH(JsonWriter().begin_array().take(), Catch::Contains("still open"));
  CHECK_THROWS_WITH(JsonWriter().begin_array().key("x"), Catch::Contains("a key outside an object"));
  CHECK_THROWS_WITH(JsonWriter().begin_array().end_object(), Catch::Contains("end_object without an open object"));
}

namespace {

// add_mul with its first dimension symbolic: a is s0 x 2, b is s0 x 1, and so are the results.
json symbolic_add_mul() {
  json doc = add_mul();
  const json s0 = {{"symint", "s0"}};
  doc["inputs"][0]["tensor"]["shape"][0] = s0;
  doc["inputs"][1]["tensor"]["shape"][0] = s0;
  for (auto& b : doc["bound_symbols"]) b["output"]["tensor"]["shape"][0] = s0;
  doc["symbols"] = json::array({{{"name", "s0"}, {"input", "a"}, {"dim", 0}, {"min", 1}, {"max", 64}, {"hint", 2}},
                                {{"name", "s0"}, {"input", "b"}, {"dim", 0}, {"min", 1}, {"max", 64}, {"hint", 2}}});
  return doc;
}

std::string expression_error(const std::string& expression, const SizeBinding& values) {
  try {
    return std::to_string(evaluate_size_expression(expression, values));
  } catch (const ThunderError& e) {
    return e.what();
  }
}

}  // namespace

TEST_CASE("size expressions evaluate as the capture fitted them, exact divisions only") {
  const SizeBinding values{{"s0", 6}, {"batch", 4}};
  CHECK(evaluate_size_expression("s0", values) == 6);
  CHECK(evaluate_size_expression("768*batch*s0", values) == 768 * 24);
  CHECK(evaluate_size_expression("-2*s0 + 64", values) == 52);
  CHECK(evaluate_size_expression("3*s0 - batch + 1", values) == 15);
  CHECK(evaluate_size_expression("(s0 + 2)/4", values) == 2);
  CHECK(expression_error("(s0 + 1)/2", values) == "'(s0 + 1)/2' is 7/2, not an integer");
  CHECK(expression_error("s1", values) == "'s1' names 's1', which is not a symbol of the trace");
  CHECK(expression_error("s0 +", values) == "size expression 's0 +': unexpected end at 4");
  CHECK(expression_error("(s0)/1", values) == "size expression '(s0)/1' divides by 1");
  CHECK(expression_error("99999999999*99999999999", values) == "'99999999999*99999999999' overflows 64 bits");
}

TEST_CASE("a symbolic trace loads at its captured sizes and specializes at others") {
  const json doc = symbolic_add_mul();
  LoadedTrace loaded = load_trace_text(doc.dump(), "dynamic.json");
  REQUIRE(loaded.symbols.size() == 2);
  CHECK(loaded.symbols[0].describe() == "s0 = a.shape[0] in [1, 64]");
  CHECK(loaded.traced.inputs[0].value.as_tensor().shape() == Shape{2, 2});
  CHECK(specialize_trace(doc, hint_binding(loaded.symbols), "dynamic.json") == add_mul());
  LoadedTrace at5 = load_trace_at_sizes(doc, {{"s0", 5}}, "dynamic.json");
  CHECK(at5.traced.inputs[1].value.as_tensor().shape() == Shape{5, 1});
  CHECK(at5.traced.bound_symbols.back().output.as_tensor().shape() == Shape{5, 2});

  json outside = doc;
  outside["symbols"][1]["hint"] = 70;
  CHECK(load_error(outside.dump()) == "bad.json: /symbols/1: s0 = b.shape[0] in [1, 64] does not hold its captured size 70");
  json unknown = doc;
  unknown["symbols"][1]["input"] = "c";
  CHECK(load_error(unknown.dump()) == "bad.json: /symbols/1: s0 = c.shape[0] in [1, 64]: the trace has no tensor input 'c'");
  json elsewhere = doc;
  elsewhere["symbols"][1]["dim"] = 1;
  CHECK(load_error(elsewhere.dump()) ==
        "bad.json: /symbols/1: s0 = b.shape[1] in [1, 64]: the input's shape [{\"symint\":\"s0\"},1] does not have {\"symint\": \"s0\"} at dimension 1");
  json weight = doc;
  weight["inputs"][1]["fqn"] = {"fc.bias"};
  CHECK(load_error(weight.dump()) == "bad.json: /symbols/1: s0 = b.shape[0] in [1, 64]: 'b' is a module's parameter or buffer, whose size is fixed");
  json unnamed = doc;
  unnamed.erase("symbols");
  CHECK(load_error(unnamed.dump()) == "bad.json: input a: 's0' names 's0', which is not a symbol of the trace");
  json two_ranges = doc;
  two_ranges["symbols"][1]["max"] = 32;
  CHECK(load_error(two_ranges.dump()) ==
        "bad.json: /symbols: s0 = a.shape[0] in [1, 64] and s0 = b.shape[0] in [1, 32] share a name but not a range and size");
  json negative = doc;
  negative["bound_symbols"][0]["output"]["tensor"]["shape"][0] = {{"symint", "s0 - 3"}};
  CHECK(load_error(negative.dump()) == "bad.json: statement 0 (torch.mul at add_mul.py:2): the size 's0 - 3' is -1");
  json bad_text = doc;
  bad_text["inputs"][0]["tensor"]["shape"][0] = {{"symint", "s0; rm"}};
  CHECK(load_error(bad_text.dump()).find("does not match the trace schema") != std::string::npos);
}
