// JSON Schema validation of the documents thundercc reads: traces by a compiled check
// (compiled_schema.h), plans by valijson, and valijson says where a document fails.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace thundercc {

enum class SchemaKind { Trace, Plan };

// Throws LoadError naming `where`, the JSON pointer of the most specific violation and its reason.
void check_schema(const nlohmann::json& doc, SchemaKind kind, const std::string& where);

// The two verdicts, apart: the test that the compiled check agrees with valijson compares them.
namespace schema_internals {
bool valijson_accepts(const nlohmann::json& doc, SchemaKind kind);
bool compiled_accepts_trace(const nlohmann::json& doc);
}  // namespace schema_internals

}  // namespace thundercc
