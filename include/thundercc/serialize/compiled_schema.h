// A JSON Schema compiled into a table of nodes that answers one question fast: does a document
// match? valijson walks a schema through virtual visitors and copies its context path for every
// child it visits; on a 2,592-symbol trace that was 18 ms of a 115 ms compile. This check is a
// plain recursive walk over precompiled nodes. It knows the draft-7 keywords thundercc's trace
// schema uses, with valijson's semantics (strict types), and refuses to compile a schema that
// uses any other; valijson still explains a document that fails (schema.cpp).
#pragma once

#include <bitset>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
#include <string>
#include <vector>

namespace thundercc {

// A `pattern`. The schema's patterns are anchored runs of character classes
// (`^[A-Za-z_][A-Za-z0-9_]*$`, `^[A-Za-z0-9_.]{0,256}$`), which are matched directly; std::regex,
// thousands of instructions a character on such quantifiers, serves any other pattern.
class SchemaPattern {
 public:
  explicit SchemaPattern(const std::string& pattern);
  bool matches(const std::string& s) const;

 private:
  struct Run {
    std::bitset<256> chars;
    size_t min = 1, max = 1;
  };
  bool parse(const std::string& pattern);

  std::vector<Run> runs_;              // when the pattern is such a run
  std::optional<std::regex> regex_;    // otherwise
};

class CompiledSchema {
 public:
  // Throws std::logic_error for a keyword or a $ref it does not support.
  explicit CompiledSchema(const nlohmann::json& schema);

  bool accepts(const nlohmann::json& doc) const { return accepts(doc, root_); }

 private:
  struct Node {
    unsigned types = 0;                                    // a bit per JSON Schema type; 0: any
    std::vector<nlohmann::json> allowed;                   // const or enum
    bool restricted_to_allowed = false;
    std::vector<std::string> required;
    std::vector<std::pair<std::string, int>> properties;   // sorted by key, as nlohmann's objects are
    bool closed = false;                                   // additionalProperties: false
    int additional = -1;                                   // additionalProperties: {schema}
    int items = -1;                                        // items: {schema}
    std::vector<int> tuple_items;                          // items: [{schema}, ...]
    std::optional<uint64_t> min_items, max_items, min_length;
    std::optional<double> minimum;
    std::optional<SchemaPattern> pattern;
    std::vector<int> all_of, any_of, one_of;
    int negated = -1;                                      // not
  };

  int compile(const nlohmann::json& schema);
  int compile_ref(const std::string& ref);
  Node build(const nlohmann::json& schema);
  bool accepts(const nlohmann::json& value, int node) const;
  bool accepts_object(const nlohmann::json& value, const Node& node) const;

  const nlohmann::json* schema_ = nullptr;  // only while compiling, to resolve $ref
  int root_ = 0;
  std::vector<std::pair<std::string, int>> compiled_refs_;
  std::vector<Node> nodes_;
};

}  // namespace thundercc
