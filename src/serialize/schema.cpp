#include "thundercc/serialize/schema.h"

#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include "thundercc/schemas.h"
#include "thundercc/serialize/trace_file.h"

namespace thundercc {
namespace {

using json = nlohmann::json;

const valijson::Schema& schema(SchemaKind kind) {
  auto parse = [](const char* text, std::initializer_list<const char*> decoded_patterns) {
    auto* s = new valijson::Schema();
    json doc = json::parse(text);
    // valijson matches a pattern with std::regex, thousands of instructions a string: a fifth of
    // a large compile for the names and devices every value carries. The decoder checks those
    // definitions itself, more strictly (names are Python identifiers and no keyword, devices
    // parse), so their patterns are left to it.
    for (const char* definition : decoded_patterns) doc["definitions"][definition].erase("pattern");
    valijson::SchemaParser parser;
    valijson::adapters::NlohmannJsonAdapter adapter(doc);
    parser.populateSchema(adapter, *s);
    return s;
  };
  static const valijson::Schema* trace = parse(schemas::kTraceSchema, {"name", "device"});
  static const valijson::Schema* plan = parse(schemas::kPlanSchema, {});
  return kind == SchemaKind::Trace ? *trace : *plan;
}

// valijson reports a context like ["<root>", "[bound_symbols]", "[0]"]; we print JSON pointers.
std::string to_pointer(const std::vector<std::string>& context) {
  std::string out;
  for (const auto& c : context) {
    if (c == "<root>") continue;
    std::string part = c;
    if (part.size() >= 2 && part.front() == '[' && part.back() == ']') part = part.substr(1, part.size() - 2);
    if (part.size() >= 2 && part.front() == '"' && part.back() == '"') part = part.substr(1, part.size() - 2);
    out += "/" + part;
  }
  return out.empty() ? "/" : out;
}

}  // namespace

void check_schema(const json& doc, SchemaKind kind, const std::string& where) {
  valijson::Validator validator;
  valijson::adapters::NlohmannJsonAdapter adapter(doc);
  // Without a results list valijson stops at the first failure and records no errors of the
  // branches of a oneOf that do not match: several times faster. Only a failing document is
  // validated again, to say where.
  if (validator.validate(schema(kind), adapter, nullptr)) return;
  valijson::ValidationResults results;
  validator.validate(schema(kind), adapter, &results);
  // The deepest error is the most specific one.
  valijson::ValidationResults::Error error, best;
  size_t best_depth = 0;
  while (results.popError(error))
    if (error.context.size() >= best_depth) {
      best = error;
      best_depth = error.context.size();
    }
  throw LoadError(where + ": " + to_pointer(best.context) + ": does not match the " +
                  (kind == SchemaKind::Trace ? "trace" : "plan") + " schema: " + best.description);
}

}  // namespace thundercc
