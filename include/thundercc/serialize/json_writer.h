// Writes a JSON document as nlohmann's dump(indent) does, byte for byte, at a fraction of its
// cost: nlohmann's serializer decodes every string as UTF-8 a character at a time, and a plan is
// mostly strings (each instruction's printed statement). ASCII strings are escaped here; a
// string with other bytes, and every float, is left to nlohmann's serializer. The indent is 0 or
// more; binary values are refused (std::invalid_argument).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace thundercc {

std::string write_json(const nlohmann::json& doc, int indent);

}  // namespace thundercc
