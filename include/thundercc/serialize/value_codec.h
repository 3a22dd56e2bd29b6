// The value format trace.json and plan.json share (value_codec.cpp): Python constants with their
// kinds kept apart, proxies encoded by the caller ({"ref": name} in traces, {"slot": n} in plans),
// tensor metadata, and parsing within the documented limits.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "thundercc/ir/value.h"

namespace thundercc {

class JsonWriter;  // serialize/json_writer.h

// The documented limits of trace.json and plan.json (docs/limits.md), checked while parsing,
// before the schema or any walk of the document sees it.
namespace limits {
inline constexpr int kJsonDepth = 64;                     // nesting of arrays and objects
inline constexpr size_t kJsonString = size_t{1} << 20;    // characters in any string
inline constexpr size_t kJsonKey = 256;                   // characters in an object key
inline constexpr size_t kIdentifier = 256;                // a name, a reference, a symbol or op id
inline constexpr size_t kStatements = 200000;             // bound symbols of a trace, instructions of a program
}  // namespace limits

// Parses trace.json or plan.json text within those limits; integers must fit int64 and numbers
// must be finite. Throws LoadError naming `where`, the place (where known) and the limit.
nlohmann::json parse_json_document(const std::string& text, const std::string& where);

// The value grammar shared by trace.json and plan.json: Python constants with their kinds kept
// apart, and proxies encoded by the caller ({"ref": name} in traces, {"slot": n} in plans).
using ProxyEncoder = std::function<nlohmann::json(const Value& proxy)>;
nlohmann::json encode_value(const Value& v, const ProxyEncoder& proxy);
// Decodes a value; objects that are not constants ({"ref": ...}, {"slot": ...}) go to `reference`.
// `at` is the JSON pointer and `where` the file, for messages.
using ReferenceDecoder = std::function<Value(const nlohmann::json& j, const std::string& at)>;
Value decode_value(const nlohmann::json& j, const std::string& at, const ReferenceDecoder& reference, const std::string& where);
std::string proxy_name(const Value& proxy);
// A tensor's metadata: {"shape", "dtype", "device", "requires_grad"}, as traces and plans write it.
nlohmann::json encode_tensor_meta(const TensorMeta& m);
// The same, written as text.
void write_tensor_meta(JsonWriter& out, const TensorMeta& m);
// {key: value}, with the value moved in: a braced initializer list copies it (and builds the
// pair as an array first).
nlohmann::json json_member(const char* key, nlohmann::json value);
TensorMeta decode_tensor_meta(const nlohmann::json& j, const std::string& at, const std::string& where);

}  // namespace thundercc
