// trace.json: the captured program. Reading decodes it into a *recorded* trace, whose bound
// symbols are the calls as the front end saw them (arguments as written, outputs with the metadata
// PyTorch produced); writing encodes a recorded trace back, so read-then-write is the identity.
// load_trace_file also checks the file against the schema and the meta functions and returns the
// trace as thundercc traces it (decompositions included, names as Thunder assigns them).
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "thundercc/errors.h"
#include "thundercc/ir/trace.h"

namespace thundercc {

inline constexpr const char* kTraceFormat = "thundercc.trace";
inline constexpr int kTraceFormatVersion = 1;

// The documented limits of trace.json and plan.json (README, "Limits"), checked while parsing,
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
// {key: value}, with the value moved in: a braced initializer list copies it (and builds the
// pair as an array first).
nlohmann::json json_member(const char* key, nlohmann::json value);
TensorMeta decode_tensor_meta(const nlohmann::json& j, const std::string& at, const std::string& where);

// Decodes a document that already passed the schema. Throws LoadError on semantic errors
// (undefined or duplicate names, unknown symbols), with `where` prefixing messages.
Trace decode_trace(const nlohmann::json& doc, const std::string& where);
nlohmann::json encode_trace(const Trace& recorded);

// Re-traces a recorded trace: every bound symbol is called again (binding its arguments, running
// its meta function and decomposition) and the computed output metadata must equal the recorded.
Trace retrace(const Trace& recorded, const std::string& where);

struct LoadedTrace {
  Trace recorded;
  Trace traced;
  // The parsed file. Kept here so that its owner chooses when to free it: freeing a large
  // document takes a good share of loading it (the compile command frees it at exit).
  nlohmann::json document;
};

// Reads, schema-checks, decodes and re-traces a trace.json.
LoadedTrace load_trace_file(const std::string& path);
// The same, from text already in memory (`where` names it in messages).
LoadedTrace load_trace_text(const std::string& text, const std::string& where);

}  // namespace thundercc
