#include "thundercc/serialize/json_reader.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>

#include "thundercc/errors.h"
#include "thundercc/serialize/trace_file.h"

namespace thundercc {
namespace {

using json = nlohmann::json;

// The limits, one rule each, for the reader and for the checks of nlohmann's documents.
void check_depth(int depth, const JsonLimitError& fail) {
  if (depth > limits::kJsonDepth) fail(str("nested deeper than the limit of ", limits::kJsonDepth, " arrays and objects"));
}

void check_key(const std::string& key, const JsonLimitError& fail) {
  if (key.size() > limits::kJsonKey) fail(str("an object key of ", key.size(), " characters (the limit is ", limits::kJsonKey, ")"));
}

void check_string(std::string_view key, const std::string& s, const JsonLimitError& fail) {
  bool identifier = key == "name" || key == "ref" || key == "symbol" || key == "op";
  size_t limit = identifier ? limits::kIdentifier : limits::kJsonString;
  if (s.size() > limit) fail(str("the string of \"", key, "\" has ", s.size(), " characters (the limit is ", limit, ")"));
}

void check_unsigned(std::string_view key, uint64_t u, const JsonLimitError& fail) {
  if (u > uint64_t(std::numeric_limits<int64_t>::max()))
    fail(str("\"", key, "\": the integer ", u, " is out of range (integers are 64-bit signed)"));
}

// A recursive-descent reader over the text. Every method returns false to decline; limits are
// reported through `fail_`, which throws.
class Reader {
 public:
  Reader(std::string_view text, const JsonLimitError& fail) : p_(text.data()), end_(text.data() + text.size()), fail_(fail) {}

  bool document(json& out) {
    skip_whitespace();
    if (!value(out, "", 0)) return false;
    skip_whitespace();
    return p_ == end_;
  }

 private:
  // `key` names the value in limit messages: its member's key, or the nearest one for items.
  bool value(json& out, std::string_view key, int depth) {
    if (p_ == end_) return false;
    switch (*p_) {
      case '{': return object(out, depth + 1);
      case '[': return array(out, key, depth + 1);
      case '"': {
        std::string s;
        if (!string(s)) return false;
        check_string(key, s, fail_);
        out = std::move(s);
        return true;
      }
      case 't': return literal("true", true, out);
      case 'f': return literal("false", false, out);
      case 'n': return literal("null", nullptr, out);
      default: return number(out, key);
    }
  }

  bool object(json& out, int depth) {
    check_depth(depth, fail_);
    ++p_;
    out = json(json::value_t::object);
    auto& members = out.get_ref<json::object_t&>();
    skip_whitespace();
    if (p_ != end_ && *p_ == '}') return ++p_, true;
    for (;;) {
      skip_whitespace();
      std::string key;
      if (p_ == end_ || *p_ != '"' || !string(key)) return false;
      check_key(key, fail_);
      skip_whitespace();
      if (p_ == end_ || *p_ != ':') return false;
      ++p_;
      skip_whitespace();
      json member;
      if (!value(member, key, depth)) return false;
      members.insert_or_assign(std::move(key), std::move(member));  // the last of duplicate keys wins, as in nlohmann
      skip_whitespace();
      if (p_ == end_) return false;
      if (*p_ == '}') return ++p_, true;
      if (*p_++ != ',') return false;
    }
  }

  bool array(json& out, std::string_view key, int depth) {
    check_depth(depth, fail_);
    ++p_;
    out = json(json::value_t::array);
    auto& items = out.get_ref<json::array_t&>();
    skip_whitespace();
    if (p_ != end_ && *p_ == ']') return ++p_, true;
    for (;;) {
      skip_whitespace();
      items.emplace_back();
      if (!value(items.back(), key, depth)) return false;
      skip_whitespace();
      if (p_ == end_) return false;
      if (*p_ == ']') return ++p_, true;
      if (*p_++ != ',') return false;
    }
  }

  bool string(std::string& out) {
    const char* run = ++p_;
    while (p_ != end_) {
      auto c = static_cast<unsigned char>(*p_);
      if (c == '"') {
        out.append(run, p_++);
        return true;
      }
      if (c == '\\') {
        out.append(run, p_);
        if (!escape(out)) return false;
        run = p_;
        continue;
      }
      if (c < 0x20 || c >= 0x80) return false;  // control characters are errors; UTF-8 is nlohmann's to check
      ++p_;
    }
    return false;
  }

  bool escape(std::string& out) {
    if (end_ - p_ < 2) return false;
    char c = p_[1];
    p_ += 2;
    switch (c) {
      case '"': case '\\': case '/': out += c; return true;
      case 'b': out += '\b'; return true;
      case 'f': out += '\f'; return true;
      case 'n': out += '\n'; return true;
      case 'r': out += '\r'; return true;
      case 't': out += '\t'; return true;
      case 'u': break;
      default: return false;
    }
    if (end_ - p_ < 4) return false;
    unsigned code = 0;
    auto [next, error] = std::from_chars(p_, p_ + 4, code, 16);
    if (error != std::errc() || next != p_ + 4) return false;
    p_ += 4;
    if (code < 0x80) {
      out += static_cast<char>(code);
    } else if (code < 0x800) {
      out += static_cast<char>(0xC0 | (code >> 6));
      out += static_cast<char>(0x80 | (code & 0x3F));
    } else if (code < 0xD800 || code > 0xDFFF) {  // surrogate pairs are left to nlohmann
      out += static_cast<char>(0xE0 | (code >> 12));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (code & 0x3F));
    } else {
      return false;
    }
    return true;
  }

  // JSON's grammar exactly; integers stay integers (negative ones int64, others uint64, as nlohmann
  // keeps them), anything with a fraction or an exponent is a double.
  bool number(json& out, std::string_view key) {
    const char* start = p_;
    if (*p_ == '-') ++p_;
    if (p_ == end_) return false;
    if (*p_ == '0') ++p_;
    else if (is_digit(*p_)) skip_digits();
    else return false;
    bool fraction_or_exponent = false;
    if (p_ != end_ && *p_ == '.') {
      ++p_;
      if (p_ == end_ || !is_digit(*p_)) return false;
      skip_digits();
      fraction_or_exponent = true;
    }
    if (p_ != end_ && (*p_ == 'e' || *p_ == 'E')) {
      ++p_;
      if (p_ != end_ && (*p_ == '+' || *p_ == '-')) ++p_;
      if (p_ == end_ || !is_digit(*p_)) return false;
      skip_digits();
      fraction_or_exponent = true;
    }
    if (fraction_or_exponent) {
      double d = 0;
      auto [next, error] = std::from_chars(start, p_, d);
      if (error != std::errc() || next != p_ || !std::isfinite(d)) return false;  // under- and overflow: nlohmann's
      out = d;
    } else if (*start == '-') {
      int64_t i = 0;
      auto [next, error] = std::from_chars(start, p_, i);
      if (error != std::errc() || next != p_) return false;
      out = i;
    } else {
      uint64_t u = 0;
      auto [next, error] = std::from_chars(start, p_, u);
      if (error != std::errc() || next != p_) return false;
      check_unsigned(key, u, fail_);
      out = u;
    }
    return true;
  }

  bool literal(std::string_view word, json value, json& out) {
    if (static_cast<size_t>(end_ - p_) < word.size() || std::string_view(p_, word.size()) != word) return false;
    p_ += word.size();
    out = std::move(value);
    return true;
  }

  static bool is_digit(char c) { return c >= '0' && c <= '9'; }
  void skip_digits() {
    while (p_ != end_ && is_digit(*p_)) ++p_;
  }
  void skip_whitespace() {
    while (p_ != end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
  }

  const char* p_;
  const char* end_;
  const JsonLimitError& fail_;
};

void check_values(const json& j, const std::string& key, const JsonLimitError& fail) {
  switch (j.type()) {
    case json::value_t::object:
      for (auto it = j.begin(); it != j.end(); ++it) {
        check_key(it.key(), fail);
        check_values(it.value(), it.key(), fail);
      }
      break;
    case json::value_t::array:
      for (const auto& v : j) check_values(v, key, fail);
      break;
    case json::value_t::string: check_string(key, j.get_ref<const std::string&>(), fail); break;
    case json::value_t::number_unsigned: check_unsigned(key, j.get<uint64_t>(), fail); break;
    case json::value_t::number_float:
      if (!std::isfinite(j.get<double>())) fail(str("\"", key, "\": a number out of range"));
      break;
    default: break;
  }
}

}  // namespace

void check_json_nesting(std::string_view text, const JsonLimitError& fail) {
  int depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      check_depth(++depth, fail);
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
}

void check_json_values(const json& doc, const JsonLimitError& fail) { check_values(doc, "", fail); }

std::optional<json> read_json(std::string_view text, const JsonLimitError& fail) {
  json doc;
  if (!Reader(text, fail).document(doc)) return std::nullopt;
  return doc;
}

}  // namespace thundercc
