// trace.json: its definitions and references (names defined before use, printable, unique), and a
// recorded trace encoded back; the values themselves go through value_codec.h.
#include <cmath>
#include <limits>
#include <unordered_map>

#include "thundercc/errors.h"
#include "thundercc/ir/printer.h"
#include "thundercc/ir/pyliteral.h"
#include "thundercc/serialize/json_reader.h"
#include "thundercc/serialize/trace_file.h"

namespace thundercc {
namespace {
using json = nlohmann::json;
}  // namespace

namespace {

class Decoder {
 public:
  explicit Decoder(std::string where) : where_(std::move(where)) {}

  [[noreturn]] void fail(const std::string& pointer, const std::string& message) const {
    throw LoadError(where_ + ": " + pointer + ": " + message);
  }

  TensorMeta tensor_meta(const json& j, const std::string& at) const { return decode_tensor_meta(j, at, where_); }

  void require_new(const std::string& name, const std::string& at) const {
    require_printable(name, at);
    if (defined_.count(name)) fail(at, "the name '" + name + "' is already defined");
  }
  void define(const std::string& name, const Value& v, const std::string& at) {
    require_new(name, at);
    defined_.emplace(name, v);
  }

  // Names become Python identifiers in printed traces: a keyword, or a name the printed trace
  // uses itself (torch, prims, float, ...), would change what it means.
  void require_printable(const std::string& name, const std::string& at) const {
    if (!is_printable_name(name))
      fail(at, "the name " + string_repr(name) + " cannot name a value in a printed trace (not a Python identifier, a keyword, or a name printed traces use)");
  }

  // A definition: a tensor or number proxy (with its name), or a collection of them.
  Value definition(const json& j, const std::string& at) {
    if (j.is_null()) return None{};
    if (j.contains("tensor")) {
      const auto& t = j["tensor"];
      auto name = t.at("name").get<std::string>();
      require_new(name, at + "/tensor/name");
      Value v = make_named_tensor(name, tensor_meta(t, at + "/tensor"));
      define(name, v, at + "/tensor/name");
      return v;
    }
    if (j.contains("number")) {
      const auto& n = j["number"];
      auto name = n.at("name").get<std::string>();
      require_new(name, at + "/number/name");
      auto kind = number_kind(n.at("kind").get<std::string>(), at + "/number/kind");
      std::optional<Value> value;
      if (n.contains("value")) value = constant(n["value"], at + "/number/value");
      Value v = make_named_number(name, kind, value);
      define(name, v, at + "/number/name");
      return v;
    }
    for (const char* seq : {"tuple", "list"})
      if (j.contains(seq)) {
        Values items;
        for (size_t i = 0; i < j[seq].size(); ++i) items.push_back(definition(j[seq][i], at + "/" + seq + "/" + std::to_string(i)));
        return std::string(seq) == "tuple" ? Value::tuple(std::move(items)) : Value::list(std::move(items));
      }
    fail(at, "expected a tensor, number, tuple, list or null definition");
  }

  NumberKind number_kind(const std::string& s, const std::string& at) const {
    if (s == "bool") return NumberKind::Bool;
    if (s == "int") return NumberKind::Int;
    if (s == "float") return NumberKind::Float;
    if (s == "complex") return NumberKind::Complex;
    fail(at, "unknown number kind '" + s + "'");
  }

  // An argument: a constant or a reference to a defined name.
  Value constant(const json& j, const std::string& at) const {
    return decode_value(j, at, [&](const json& ref, const std::string& ref_at) -> Value {
      if (!ref.contains("ref")) fail(ref_at, "unknown value tag");
      auto name = ref["ref"].get<std::string>();
      auto it = defined_.find(name);
      if (it == defined_.end()) fail(ref_at, "'" + name + "' is not defined");
      return it->second;
    }, where_);
  }

 private:
  std::string where_;
  std::unordered_map<std::string, Value> defined_;
};

json encode_reference(const Value& proxy) { return json_member("ref", proxy_name(proxy)); }

json encode_constant(const Value& v) { return encode_value(v, encode_reference); }

json encode_items(const Values& items, json (*encode)(const Value&)) {
  json a(json::value_t::array);
  for (const auto& x : items) a.push_back(encode(x));
  return a;
}

json encode_definition(const Value& v) {
  if (v.is_tensor()) {
    json t = encode_tensor_meta(v.as_tensor().meta());
    t["name"] = v.as_tensor().name();
    return json_member("tensor", std::move(t));
  }
  if (v.is_number_proxy()) {
    const auto& n = v.as_number_proxy();
    json j{{"name", n->name}, {"kind", number_kind_name(n->kind)}};
    if (n->value) j["value"] = encode_constant(*n->value);
    return json_member("number", std::move(j));
  }
  if (v.kind() == Value::Kind::Tuple) return json_member("tuple", encode_items(v.items(), encode_definition));
  if (v.kind() == Value::Kind::List) return json_member("list", encode_items(v.items(), encode_definition));
  return nullptr;
}

}  // namespace

namespace {

// The member `key` of `j`, or `fallback`, by reference: json::value copies the member.
const json& member_or(const json& j, const char* key, const json& fallback) {
  auto it = j.find(key);
  return it == j.end() ? fallback : *it;
}

}  // namespace

Trace decode_trace(const json& doc, const std::string& where) {
  static const json kNoArgs(json::value_t::array), kNoKwargs(json::value_t::object), kNull;
  Decoder d(where);
  Trace trace;
  trace.name = doc.value("name", "computation");
  d.require_printable(trace.name, "/name");
  TracingScope scope(trace);
  const auto& inputs = doc.at("inputs");
  for (size_t i = 0; i < inputs.size(); ++i) {
    const auto& in = inputs[i];
    std::string at = "/inputs/" + std::to_string(i);
    auto name = in.at("name").get<std::string>();
    d.require_new(name, at + "/name");
    Value v;
    if (in.contains("tensor")) {
      v = make_named_tensor(name, d.tensor_meta(in["tensor"], at + "/tensor"));
      d.define(name, v, at + "/name");
    } else if (in.contains("number")) {
      json def = in["number"];
      def["name"] = name;
      v = d.definition(json{{"number", def}}, at);
    } else {
      v = d.definition(in.at("collection"), at + "/collection");
    }
    std::vector<std::string> fqn;
    if (in.contains("fqn")) {
      if (!v.is_tensor()) d.fail(at + "/fqn", "only a tensor input is a module's parameter or buffer");
      fqn = in["fqn"].get<std::vector<std::string>>();
    }
    trace.inputs.push_back({name, v, std::move(fqn)});
  }
  const auto& bsyms = doc.at("bound_symbols");
  for (size_t i = 0; i < bsyms.size(); ++i) {
    const auto& b = bsyms[i];
    std::string at = "/bound_symbols/" + std::to_string(i);
    auto id = b.at("symbol").get<std::string>();
    const Symbol* sym = SymbolTable::global().find(id);
    if (!sym) d.fail(at + "/symbol", "unknown symbol '" + id + "'");
    BoundSymbol bsym;
    bsym.sym = sym;
    if (id != sym->id) bsym.called_as = id;
    const json& args = member_or(b, "args", kNoArgs);
    for (size_t k = 0; k < args.size(); ++k) bsym.args.push_back(d.constant(args[k], at + "/args/" + std::to_string(k)));
    const json& kwargs = member_or(b, "kwargs", kNoKwargs);
    for (const auto& [key, value] : kwargs.items()) {
      d.require_printable(key, at + "/kwargs");
      bsym.kwargs.emplace_back(key, d.constant(value, at + "/kwargs/" + key));
    }
    bsym.output = d.definition(member_or(b, "output", kNull), at + "/output");
    bsym.source = b.value("source", "");
    bsym.scope = b.value("scope", "");
    trace.bound_symbols.push_back(std::move(bsym));
  }
  trace.output = d.constant(member_or(doc, "output", kNull), "/output");
  return trace;
}

json encode_trace(const Trace& recorded) {
  json doc{{"format", kTraceFormat}, {"version", kTraceFormatVersion}, {"name", recorded.name}};
  json inputs(json::value_t::array);
  for (const auto& in : recorded.inputs) {
    json j{{"name", in.name}};
    if (in.value.is_tensor()) {
      j["tensor"] = encode_tensor_meta(in.value.as_tensor().meta());
    } else if (in.value.is_number_proxy()) {
      json n = encode_definition(in.value)["number"];
      n.erase("name");
      j["number"] = n;
    } else {
      j["collection"] = encode_definition(in.value);
    }
    if (!in.fqn.empty()) j["fqn"] = in.fqn;
    inputs.push_back(j);
  }
  doc["inputs"] = inputs;
  json bsyms(json::value_t::array);
  for (const auto& b : recorded.bound_symbols) {
    json j{{"symbol", b.called_as.empty() ? b.sym->id : b.called_as}, {"args", encode_items(b.args, encode_constant)}, {"kwargs", json(json::value_t::object)}};
    for (const auto& [k, v] : b.kwargs) j["kwargs"][k] = encode_constant(v);
    j["output"] = encode_definition(b.output);
    if (!b.source.empty()) j["source"] = b.source;
    if (!b.scope.empty()) j["scope"] = b.scope;
    bsyms.push_back(j);
  }
  doc["bound_symbols"] = bsyms;
  doc["output"] = encode_constant(recorded.output);
  return doc;
}

}  // namespace thundercc
