// plan.json's one codec: the format and its version, the schema check and every key of the
// document are spelled in plan_codec.cpp and nowhere else.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "thundercc/plan/plan.h"

namespace thundercc::plan {

inline constexpr const char* kFormat = "thundercc.plan";
inline constexpr int kFormatVersion = 4;

// plan.json's text, newline-terminated.
std::string encode_plan(const Plan& plan);

// Checks the format version (a plan of another version is refused with a message to compile
// again), then the schema, then decodes: slots in range, tensor metadata, arguments. Throws
// LoadError naming `where` and the JSON pointer of the problem.
Plan decode_plan(const nlohmann::json& doc, const std::string& where);
// Reads the plan.json at `path` within the documented limits and decodes it.
Plan read_plan_file(const std::string& path);

}  // namespace thundercc::plan
