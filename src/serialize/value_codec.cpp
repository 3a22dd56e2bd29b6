// The value format trace.json and plan.json share: Python constants with their kinds kept apart
// (JSON integers are ints, JSON numbers with a fraction or exponent are floats, everything else
// is tagged), proxies encoded by the caller, tensor metadata, and parsing within the documented
// limits.
#include "thundercc/serialize/value_codec.h"

#include <cmath>
#include <limits>

#include "thundercc/errors.h"
#include "thundercc/ir/pyliteral.h"
#include "thundercc/serialize/json_reader.h"
#include "thundercc/serialize/json_writer.h"

namespace thundercc {
namespace {

using json = nlohmann::json;

[[noreturn]] void fail_at(const std::string& where, const std::string& pointer, const std::string& message) {
  throw LoadError(where + ": " + pointer + ": " + message);
}

// An integer of the document. The decoder may see a document before the schema check refuses it
// (they run side by side): a float here, whose conversion could overflow, is refused instead.
int64_t integer(const json& j, const std::string& at, const std::string& where) {
  if (!j.is_number_integer()) fail_at(where, at, "expected an integer, got " + j.dump());
  return j.get<int64_t>();
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
  if (j.contains("complex")) return std::complex<double>(j["complex"].at(0).get<double>(), j["complex"].at(1).get<double>());
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
      const json& part = j["slice"].at(i);
      return part.is_null() ? std::nullopt : std::optional<int64_t>(integer(part, at + "/slice", where));
    };
    return Slice{part(0), part(1), part(2)};
  }
  if (j.contains("ellipsis")) return EllipsisValue{};
  if (j.contains("dict") && j["dict"].is_array()) {
    DictItems items;
    for (size_t i = 0; i < j["dict"].size(); ++i)
      items.emplace_back(j["dict"][i].at(0).get<std::string>(),
                         decode_value(j["dict"][i].at(1), at + "/dict/" + std::to_string(i) + "/1", reference, where));
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

namespace {

// A tensor's metadata as traces and plans write it, its members in key order: `member(key, value)`
// builds a document or writes text.
template <class Member>
void tensor_meta_members(const TensorMeta& m, Member&& member) {
  member("device", m.device.str());
  member("dtype", m.dtype.full_name());
  member("requires_grad", m.requires_grad);
  member("shape", m.shape);
}

}  // namespace

json encode_tensor_meta(const TensorMeta& m) {
  // Each member placed at the end: no searching, no initializer-list copies.
  json j(json::value_t::object);
  auto& members = j.get_ref<json::object_t&>();
  tensor_meta_members(m, [&](const char* key, const auto& value) { members.emplace_hint(members.end(), key, value); });
  return j;
}

void write_tensor_meta(JsonWriter& out, const TensorMeta& m) {
  out.begin_object();
  tensor_meta_members(m, [&](const char* key, const auto& value) { out.member(key, value); });
  out.end_object();
}

json json_member(const char* key, json value) {
  json j(json::value_t::object);
  j.get_ref<json::object_t&>().emplace(key, std::move(value));
  return j;
}

TensorMeta decode_tensor_meta(const json& j, const std::string& at, const std::string& where) {
  TensorMeta m;
  const json& shape = j.at("shape");
  if (!shape.is_array()) fail_at(where, at + "/shape", "expected an array of integers, got " + shape.dump());
  for (const json& size : shape) m.shape.push_back(integer(size, at + "/shape", where));
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

}  // namespace thundercc
