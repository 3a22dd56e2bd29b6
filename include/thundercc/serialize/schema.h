// JSON Schema validation (valijson) of the documents thundercc reads.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace thundercc {

enum class SchemaKind { Trace, Plan };

// Throws LoadError naming `where`, the JSON pointer of the most specific violation and its reason.
void check_schema(const nlohmann::json& doc, SchemaKind kind, const std::string& where);

}  // namespace thundercc
