#include "thundercc/serialize/schema.h"

#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include "thundercc/schemas.h"
#include "thundercc/serialize/compiled_schema.h"
#include "thundercc/serialize/trace_file.h"

namespace thundercc {
namespace {

using json = nlohmann::json;

// The schemas as valijson and the compiled check read them. valijson matches a pattern with
// std::regex, thousands of instructions a string: a fifth of a large compile for the names and
// devices every value carries. The decoder checks those definitions itself, more strictly (names
// are Python identifiers and no keyword, devices parse), so their patterns are left to it.
json schema_document(SchemaKind kind) {
  json doc = json::parse(kind == SchemaKind::Trace ? schemas::kTraceSchema : schemas::kPlanSchema);
  if (kind == SchemaKind::Trace)
    for (const char* definition : {"name", "device"}) doc["definitions"][definition].erase("pattern");
  return doc;
}

const valijson::Schema& valijson_schema(SchemaKind kind) {
  auto parse = [](SchemaKind k) {
    auto* s = new valijson::Schema();
    json doc = schema_document(k);
    valijson::SchemaParser parser;
    valijson::adapters::NlohmannJsonAdapter adapter(doc);
    parser.populateSchema(adapter, *s);
    return s;
  };
  static const valijson::Schema* trace = parse(SchemaKind::Trace);
  static const valijson::Schema* plan = parse(SchemaKind::Plan);
  return kind == SchemaKind::Trace ? *trace : *plan;
}

// Traces, which the compile path reads, go through the compiled check first; plans through
// valijson alone (the plan schema uses keywords the compiled check does not know).
const CompiledSchema& compiled_trace_schema() {
  static const CompiledSchema* compiled = new CompiledSchema(schema_document(SchemaKind::Trace));
  return *compiled;
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

namespace schema_internals {

bool valijson_accepts(const json& doc, SchemaKind kind) {
  // Without a results list valijson stops at the first failure and records no errors of the
  // branches that do not match: several times faster.
  valijson::Validator validator;
  valijson::adapters::NlohmannJsonAdapter adapter(doc);
  return validator.validate(valijson_schema(kind), adapter, nullptr);
}

bool compiled_accepts_trace(const json& doc) { return compiled_trace_schema().accepts(doc); }

}  // namespace schema_internals

void check_schema(const json& doc, SchemaKind kind, const std::string& where) {
  if (kind == SchemaKind::Trace ? compiled_trace_schema().accepts(doc) : schema_internals::valijson_accepts(doc, kind)) return;
  // Only a failing document is validated with a results list, to say where.
  valijson::Validator validator;
  valijson::adapters::NlohmannJsonAdapter adapter(doc);
  valijson::ValidationResults results;
  if (validator.validate(valijson_schema(kind), adapter, &results)) return;  // valijson is the reference
  // The deepest error is the most specific one.
  valijson::ValidationResults::Error error, best;
  size_t best_depth = 0;
  while (results.popError(error))
    if (error.context.size() >= best_depth) {
      best = error;
      best_depth = error.context.size();
    }
  std::string pointer = to_pointer(best.context), value;
  // The value itself, where it is short (a misspelled dtype, a wrong kind).
  try {
    const json& found = doc.at(json::json_pointer(pointer == "/" ? "" : pointer));
    if (found.is_primitive() && found.dump().size() <= 80) value = " (the value is " + found.dump() + ")";
  } catch (const json::exception&) {
  }
  throw LoadError(where + ": " + pointer + ": does not match the " + (kind == SchemaKind::Trace ? "trace" : "plan") +
                  " schema: " + best.description + value);
}

}  // namespace thundercc
