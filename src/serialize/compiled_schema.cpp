#include "thundercc/serialize/compiled_schema.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace thundercc {

SchemaPattern::SchemaPattern(const std::string& pattern) {
  if (!parse(pattern)) regex_.emplace(pattern);
}

// `^`, then runs (a character class or a plain character, with *, +, ?, {n} or {m,n}), then `$`.
bool SchemaPattern::parse(const std::string& p) {
  if (p.size() < 2 || p.front() != '^' || p.back() != '$') return false;
  const size_t end = p.size() - 1;
  size_t i = 1;
  auto is_plain = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == ' ' || c == ':'; };
  while (i < end) {
    Run run;
    if (p[i] == '[') {
      ++i;
      const bool negated = i < end && p[i] == '^';
      if (negated) ++i;
      if (i < end && p[i] == ']') return false;  // ECMAScript's empty class
      while (i < end && p[i] != ']') {
        char c = p[i];
        if (c == '\\' || c == '[') return false;  // escapes and classes like [:alpha:]: std::regex's
        if (i + 2 < end && p[i + 1] == '-' && p[i + 2] != ']') {
          for (int x = static_cast<unsigned char>(c); x <= static_cast<unsigned char>(p[i + 2]); ++x) run.chars.set(x);
          i += 3;
        } else {
          run.chars.set(static_cast<unsigned char>(c));
          ++i;
        }
      }
      if (i >= end) return false;
      ++i;  // ']'
      if (negated) run.chars.flip();
    } else if (is_plain(p[i])) {
      run.chars.set(static_cast<unsigned char>(p[i++]));
    } else {
      return false;
    }
    if (i < end && (p[i] == '*' || p[i] == '+' || p[i] == '?')) {
      run.min = p[i] == '+' ? 1 : 0;
      run.max = p[i] == '?' ? 1 : std::string::npos;
      ++i;
    } else if (i < end && p[i] == '{') {
      const size_t close = p.find('}', i);
      if (close == std::string::npos || close >= end) return false;
      const std::string bounds = p.substr(i + 1, close - i - 1);
      const size_t comma = bounds.find(',');
      auto number = [](const std::string& d, size_t& out) {
        if (d.empty() || !std::all_of(d.begin(), d.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) return false;
        out = std::stoul(d);
        return true;
      };
      if (comma == std::string::npos) {
        if (!number(bounds, run.min)) return false;
        run.max = run.min;
      } else if (!number(bounds.substr(0, comma), run.min) || !number(bounds.substr(comma + 1), run.max) || run.max < run.min) {
        return false;
      }
      i = close + 1;
    }
    runs_.push_back(run);
  }
  return true;
}

bool SchemaPattern::matches(const std::string& s) const {
  if (regex_) return std::regex_search(s, *regex_);
  // The positions of `s` the runs so far can end at.
  std::vector<char> reached(s.size() + 1, 0), next(s.size() + 1);
  reached[0] = 1;
  for (const Run& run : runs_) {
    std::fill(next.begin(), next.end(), 0);
    bool any = false;
    for (size_t start = 0; start <= s.size(); ++start) {
      if (!reached[start]) continue;
      for (size_t n = 0, at = start;; ++n, ++at) {
        if (n >= run.min) next[at] = any = true;
        if (n == run.max || at == s.size() || !run.chars.test(static_cast<unsigned char>(s[at]))) break;
      }
    }
    if (!any) return false;
    reached.swap(next);
  }
  return reached[s.size()];
}

namespace {

using json = nlohmann::json;

enum TypeBit : unsigned { kNull = 1, kBoolean = 2, kInteger = 4, kNumber = 8, kString = 16, kArray = 32, kObject = 64 };

unsigned type_bit(const std::string& name) {
  static const std::pair<const char*, unsigned> names[] = {{"null", kNull},     {"boolean", kBoolean}, {"integer", kInteger},
                                                           {"number", kNumber}, {"string", kString},   {"array", kArray},
                                                           {"object", kObject}};
  for (const auto& [n, bit] : names)
    if (name == n) return bit;
  throw std::logic_error("CompiledSchema: unknown type '" + name + "'");
}

// The types a value satisfies: an integer is also a number.
unsigned type_bits(const json& v) {
  switch (v.type()) {
    case json::value_t::null: return kNull;
    case json::value_t::boolean: return kBoolean;
    case json::value_t::number_integer:
    case json::value_t::number_unsigned: return kInteger | kNumber;
    case json::value_t::number_float: return kNumber;
    case json::value_t::string: return kString;
    case json::value_t::array: return kArray;
    case json::value_t::object: return kObject;
    default: return 0;
  }
}

// valijson's strict equality for const and enum: numbers compare by value whatever their kind.
bool same_value(const json& expected, const json& v) {
  if (expected.is_number()) return v.is_number() && expected.get<double>() == v.get<double>();
  if (expected.type() != v.type()) return false;
  if (expected.is_array()) {
    if (expected.size() != v.size()) return false;
    for (size_t i = 0; i < v.size(); ++i)
      if (!same_value(expected[i], v[i])) return false;
    return true;
  }
  if (expected.is_object()) {
    if (expected.size() != v.size()) return false;
    for (auto it = expected.begin(); it != expected.end(); ++it) {
      auto found = v.find(it.key());
      if (found == v.end() || !same_value(it.value(), *found)) return false;
    }
    return true;
  }
  return expected == v;
}

// valijson counts characters up to the first NUL, as C strings end there.
uint64_t utf8_length(const std::string& s) {
  uint64_t n = 0;
  for (char c : s) {
    if (c == '\0') break;
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++n;
  }
  return n;
}

uint64_t count(const json& j) {
  if (!j.is_number_integer() || j.get<int64_t>() < 0) throw std::logic_error("CompiledSchema: a count must be an integer >= 0");
  return j.get<uint64_t>();
}

bool is_annotation(const std::string& keyword) {
  return keyword == "$schema" || keyword == "$id" || keyword == "title" || keyword == "description" ||
         keyword == "$comment" || keyword == "definitions";
}

}  // namespace

CompiledSchema::CompiledSchema(const json& schema) {
  schema_ = &schema;
  root_ = compile(schema);
  schema_ = nullptr;
}

int CompiledSchema::compile(const json& schema) {
  if (!schema.is_object()) throw std::logic_error("CompiledSchema: a schema must be an object");
  if (schema.contains("$ref")) {
    for (auto it = schema.begin(); it != schema.end(); ++it)
      if (it.key() != "$ref" && !is_annotation(it.key()))
        throw std::logic_error("CompiledSchema: '" + it.key() + "' beside $ref");
    return compile_ref(schema["$ref"].get<std::string>());
  }
  int index = static_cast<int>(nodes_.size());
  nodes_.emplace_back();
  Node node = build(schema);
  nodes_[index] = std::move(node);
  return index;
}

int CompiledSchema::compile_ref(const std::string& ref) {
  for (const auto& [r, index] : compiled_refs_)
    if (r == ref) return index;
  if (!ref.starts_with("#/")) throw std::logic_error("CompiledSchema: only local $ref is supported, not '" + ref + "'");
  const json& target = schema_->at(json::json_pointer(ref.substr(1)));
  if (target.contains("$ref")) throw std::logic_error("CompiledSchema: a $ref to a $ref ('" + ref + "')");
  // Reserved before it is built, so a definition can refer to itself.
  int index = static_cast<int>(nodes_.size());
  nodes_.emplace_back();
  compiled_refs_.emplace_back(ref, index);
  Node node = build(target);
  nodes_[index] = std::move(node);
  return index;
}

CompiledSchema::Node CompiledSchema::build(const json& schema) {
  Node node;
  auto compile_all = [&](const json& list) {
    std::vector<int> out;
    for (const auto& s : list) out.push_back(compile(s));
    return out;
  };
  for (auto it = schema.begin(); it != schema.end(); ++it) {
    const std::string& keyword = it.key();
    const json& v = it.value();
    if (is_annotation(keyword)) continue;
    if (keyword == "type") {
      if (v.is_string()) node.types = type_bit(v.get<std::string>());
      else
        for (const auto& t : v) node.types |= type_bit(t.get<std::string>());
    } else if (keyword == "const") {
      node.allowed = {v};
      node.restricted_to_allowed = true;
    } else if (keyword == "enum") {
      node.allowed = v.get<std::vector<json>>();
      node.restricted_to_allowed = true;
    } else if (keyword == "required") {
      node.required = v.get<std::vector<std::string>>();
    } else if (keyword == "properties") {
      for (auto p = v.begin(); p != v.end(); ++p) node.properties.emplace_back(p.key(), compile(p.value()));
      std::sort(node.properties.begin(), node.properties.end());
    } else if (keyword == "additionalProperties") {
      if (v.is_boolean()) node.closed = !v.get<bool>();
      else node.additional = compile(v);
    } else if (keyword == "items") {
      if (v.is_array()) node.tuple_items = compile_all(v);
      else node.items = compile(v);
    } else if (keyword == "minItems") {
      node.min_items = count(v);
    } else if (keyword == "maxItems") {
      node.max_items = count(v);
    } else if (keyword == "minLength") {
      node.min_length = count(v);
    } else if (keyword == "minimum") {
      node.minimum = v.get<double>();
    } else if (keyword == "pattern") {
      node.pattern.emplace(v.get<std::string>());
    } else if (keyword == "allOf") {
      node.all_of = compile_all(v);
    } else if (keyword == "anyOf") {
      node.any_of = compile_all(v);
    } else if (keyword == "oneOf") {
      node.one_of = compile_all(v);
    } else if (keyword == "not") {
      node.negated = compile(v);
    } else {
      throw std::logic_error("CompiledSchema: the keyword '" + keyword + "' is not supported");
    }
  }
  return node;
}

bool CompiledSchema::accepts(const json& value, int index) const {
  const Node& node = nodes_[index];
  if (node.types && !(node.types & type_bits(value))) return false;
  if (node.restricted_to_allowed &&
      std::none_of(node.allowed.begin(), node.allowed.end(), [&](const json& a) { return same_value(a, value); }))
    return false;
  switch (value.type()) {
    case json::value_t::object:
      if (!accepts_object(value, node)) return false;
      break;
    case json::value_t::array:
      if (node.min_items && value.size() < *node.min_items) return false;
      if (node.max_items && value.size() > *node.max_items) return false;
      if (node.items >= 0) {
        for (const auto& item : value)
          if (!accepts(item, node.items)) return false;
      } else {
        for (size_t i = 0; i < node.tuple_items.size() && i < value.size(); ++i)
          if (!accepts(value[i], node.tuple_items[i])) return false;
      }
      break;
    case json::value_t::string: {
      const auto& s = value.get_ref<const std::string&>();
      if (node.min_length && utf8_length(s) < *node.min_length) return false;
      if (node.pattern && !node.pattern->matches(s)) return false;
      break;
    }
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
    case json::value_t::number_float:
      if (node.minimum && value.get<double>() < *node.minimum) return false;
      break;
    default: break;
  }
  for (int s : node.all_of)
    if (!accepts(value, s)) return false;
  if (!node.any_of.empty() && std::none_of(node.any_of.begin(), node.any_of.end(), [&](int s) { return accepts(value, s); }))
    return false;
  if (!node.one_of.empty() &&
      std::count_if(node.one_of.begin(), node.one_of.end(), [&](int s) { return accepts(value, s); }) != 1)
    return false;
  if (node.negated >= 0 && accepts(value, node.negated)) return false;
  return true;
}

bool CompiledSchema::accepts_object(const json& value, const Node& node) const {
  for (const auto& key : node.required)
    if (!value.contains(key)) return false;
  // nlohmann's objects and the node's properties are both sorted by key: one merged walk.
  auto property = node.properties.begin();
  for (auto it = value.begin(); it != value.end(); ++it) {
    const std::string& key = it.key();
    while (property != node.properties.end() && property->first < key) ++property;
    if (property != node.properties.end() && property->first == key) {
      if (!accepts(it.value(), property->second)) return false;
    } else if (node.closed) {
      return false;
    } else if (node.additional >= 0 && !accepts(it.value(), node.additional)) {
      return false;
    }
  }
  return true;
}

}  // namespace thundercc
