// Encoding and decoding of trace.json values. Python kinds stay distinct: JSON integers are ints,
// JSON numbers with a fraction or exponent are floats, and everything else is tagged.
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

[[noreturn]] void fail_at(const std::string& where, const std::string& pointer, const std::string& message) {
  throw LoadError(where + ": " + pointer + ": " + message);
}

Value decode_tagged(const json& j, const std::string& at, const ReferenceDecoder& reference, const std::string& where) {
  // Most tagged values are references: those go straight to the caller's decoder.
  if (j.size() == 1 && j.begin().key() == "ref") return reference(j, at);
  if (j.contains("float")) {
    auto s = j["float"].get<std::string>();
    if (s == "inf") return std::numeric_limits<double>::infinity();
    if (s == "-inf") return -std::numeric_limits<double>::infinity();
    if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
    fail_at(where, at, "unknown float '" + s + "'");
  }
  if (j.contains("complex")) return std::complex<double>(j["complex"][0].get<double>(), j["complex"][1].get<double>());
  for (const char* seq : {"tuple", "list"})
    if (j.contains(seq)) {
      Values items;
      for (size_t i = 0; i < j[seq].size(); ++i) {
        const json& item = j[seq][i];
        // Only an array or object item can fail, and so needs its path.
        bool may_fail = item.is_structured();
        items.push_back(decode_value(item, may_fail ? at + "/" + seq + "/" + std::to_string(i) : at, reference, where));
      }
      return std::string(seq) == "tuple" ? Value::tuple(std::move(items)) : Value::list(std::move(items));
    }
  if (j.contains("slice") && j["slice"].is_array()) {
    auto part = [&](size_t i) -> std::optional<int64_t> {
      return j["slice"][i].is_null() ? std::nullopt : std::optional<int64_t>(j["slice"][i].get<int64_t>());
    };
    return Slice{part(0), part(1), part(2)};
  }
  if (j.contains("ellipsis")) return EllipsisValue{};
  if (j.contains("dict") && j["dict"].is_array()) {
    DictItems items;
    for (size_t i = 0; i < j["dict"].size(); ++i)
      items.emplace_back(j["dict"][i][0].get<std::string>(),
                         decode_value(j["dict"][i][1], at + "/dict/" + std::to_string(i) + "/1", reference, where));
    return Value::dict(std::move(items));
  }
  for (const char* key : {"dtype", "torch_dtype"})
    if (j.contains(key)) {
      auto d = DType::parse(j[key].get<std::string>());
      if (!d) fail_at(where, at + "/" + key, "unknown dtype '" + j[key].get<std::string>() + "'");
      return std::string(key) == "dtype" ? Value(*d) : Value(TorchDType{*d});
    }
  for (const char* key : {"device", "torch_device"})
    if (j.contains(key)) {
      auto d = Device::parse(j[key].get<std::string>());
      if (!d) fail_at(where, at + "/" + key, "unknown device '" + j[key].get<std::string>() + "'");
      return std::string(key) == "device" ? Value(*d) : Value(TorchDevice{*d});
    }
  return reference(j, at);
}

}  // namespace

json encode_tensor_meta(const TensorMeta& m) {
  // Members in key order, each placed at the end: no searching, no initializer-list copies.
  json j(json::value_t::object);
  auto& members = j.get_ref<json::object_t&>();
  members.emplace_hint(members.end(), "device", m.device.str());
  members.emplace_hint(members.end(), "dtype", m.dtype.full_name());
  members.emplace_hint(members.end(), "requires_grad", m.requires_grad);
  members.emplace_hint(members.end(), "shape", m.shape);
  return j;
}

json json_member(const char* key, json value) {
  json j(json::value_t::object);
  j.get_ref<json::object_t&>().emplace(key, std::move(value));
  return j;
}

TensorMeta decode_tensor_meta(const json& j, const std::string& at, const std::string& where) {
  TensorMeta m;
  m.shape = j.at("shape").get<Shape>();
  auto dtype = DType::parse(j.at("dtype").get<std::string>());
  if (!dtype) fail_at(where, at + "/dtype", "unknown dtype '" + j.at("dtype").get<std::string>() + "'");
  m.dtype = *dtype;
  auto device = Device::parse(j.at("device").get<std::string>());
  if (!device) fail_at(where, at + "/device", "unknown device '" + j.at("device").get<std::string>() + "'");
  m.device = *device;
  m.requires_grad = j.value("requires_grad", false);
  try {
    check_shape(m.shape, m.dtype);
  } catch (const ThunderError& e) {
    fail_at(where, at + "/shape", e.what());
  }
  return m;
}

Value decode_value(const json& j, const std::string& at, const ReferenceDecoder& reference, const std::string& where) {
  switch (j.type()) {
    case json::value_t::null: return None{};
    case json::value_t::boolean: return j.get<bool>();
    case json::value_t::number_integer:
    case json::value_t::number_unsigned: return j.get<int64_t>();
    case json::value_t::number_float: return j.get<double>();
    case json::value_t::string: return j.get<std::string>();
    case json::value_t::object: return decode_tagged(j, at, reference, where);
    default: fail_at(where, at, "bare arrays are not values; use {\"tuple\": [...]} or {\"list\": [...]}");
  }
}

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

json encode_value(const Value& v, const ProxyEncoder& proxy) {
  using K = Value::Kind;
  auto items = [&](const Values& xs) {
    json a(json::value_t::array);
    for (const auto& x : xs) a.push_back(encode_value(x, proxy));
    return a;
  };
  switch (v.kind()) {
    case K::None: return nullptr;
    case K::Bool: return v.as_bool();
    case K::Int: return v.as_int();
    case K::Float: {
      double d = v.as_float();
      if (std::isnan(d)) return json{{"float", "nan"}};
      if (std::isinf(d)) return json{{"float", d > 0 ? "inf" : "-inf"}};
      return d;
    }
    case K::Complex: return json{{"complex", {v.as_complex().real(), v.as_complex().imag()}}};
    case K::String: return v.as_string();
    case K::Tuple: return json_member("tuple", items(v.items()));
    case K::List: return json_member("list", items(v.items()));
    case K::Slice: {
      const auto& s = v.as_slice();
      auto part = [](const std::optional<int64_t>& x) { return x ? json(*x) : json(nullptr); };
      return json{{"slice", {part(s.start), part(s.stop), part(s.step)}}};
    }
    case K::Ellipsis: return json{{"ellipsis", true}};
    case K::DType: return json{{"dtype", v.as_dtype().full_name()}};
    case K::TorchDType: return json{{"torch_dtype", v.as_dtype().full_name()}};
    case K::Device: return json{{"device", v.as_device().str()}};
    case K::TorchDevice: return json{{"torch_device", v.as_any_device().str()}};
    case K::Tensor: case K::Number: return proxy(v);
    case K::Dict: {
      json pairs(json::value_t::array);
      for (const auto& [k, x] : v.dict_items()) pairs.push_back(json::array({k, encode_value(x, proxy)}));
      return json{{"dict", pairs}};
    }
  }
  return nullptr;
}

nlohmann::json parse_json_document(const std::string& text, const std::string& where) {
  using json = nlohmann::json;
  JsonLimitError fail = [&](const std::string& problem) { throw LoadError(where + ": " + problem); };
  std::optional<json> read = read_json(text, fail);
  json doc;
  if (read) {
    doc = std::move(*read);
  } else {  // what read_json declines, nlohmann's parser reads (or explains), within the same limits
    check_json_nesting(text, fail);
    try {
      doc = json::parse(text);
    } catch (const json::out_of_range& e) {  // 1e400
      fail(str("a number out of range: ", e.what()));
    } catch (const json::exception& e) {
      fail(str("not valid JSON: ", e.what()));
    }
    check_json_values(doc, fail);
  }
  for (const char* list : {"/bound_symbols", "/instructions", "/backward/instructions"}) {
    const json::json_pointer at(list);
    if (doc.contains(at) && doc[at].is_array() && doc[at].size() > limits::kStatements)
      fail(str(list, ": ", doc[at].size(), " entries (the limit is ", limits::kStatements, ")"));
  }
  return doc;
}

std::string proxy_name(const Value& proxy) {
  return proxy.is_tensor() ? proxy.as_tensor().name() : proxy.as_number_proxy()->name;
}

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
    trace.inputs.push_back({name, v});
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
    inputs.push_back(j);
  }
  doc["inputs"] = inputs;
  json bsyms(json::value_t::array);
  for (const auto& b : recorded.bound_symbols) {
    json j{{"symbol", b.called_as.empty() ? b.sym->id : b.called_as}, {"args", encode_items(b.args, encode_constant)}, {"kwargs", json(json::value_t::object)}};
    for (const auto& [k, v] : b.kwargs) j["kwargs"][k] = encode_constant(v);
    j["output"] = encode_definition(b.output);
    if (!b.source.empty()) j["source"] = b.source;
    bsyms.push_back(j);
  }
  doc["bound_symbols"] = bsyms;
  doc["output"] = encode_constant(recorded.output);
  return doc;
}

}  // namespace thundercc
