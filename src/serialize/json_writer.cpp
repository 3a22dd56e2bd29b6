#include "thundercc/serialize/json_writer.h"

#include <charconv>
#include <cstdint>
#include <cstring>
#include <stdexcept>

namespace thundercc {
namespace {

using json = nlohmann::json;

// Whether any byte of `word` is below 0x20, '"', '\\' or 0x80 and above: the bytes a JSON string
// cannot carry as they are (the per-word SWAR tests for a byte below n and a zero byte).
bool needs_care(uint64_t word) {
  constexpr uint64_t kOnes = 0x0101010101010101ull, kHighs = 0x8080808080808080ull;
  auto zero_byte = [](uint64_t v) { return (v - kOnes) & ~v & kHighs; };
  return ((word - kOnes * 0x20) | zero_byte(word ^ (kOnes * '"')) | zero_byte(word ^ (kOnes * '\\')) | word) & kHighs;
}

void write_string(std::string& out, const std::string& s) {
  // Most strings (names, types, code) need no care: they are checked a word at a time.
  size_t plain = 0;  // s[0, plain) needs no care
  for (uint64_t word; plain + 8 <= s.size(); plain += 8) {
    std::memcpy(&word, s.data() + plain, 8);
    if (needs_care(word)) break;
  }
  for (size_t i = plain; i < s.size(); ++i)
    if (static_cast<unsigned char>(s[i]) >= 0x80) {  // nlohmann checks and passes UTF-8 through
      out += json(s).dump();
      return;
    }
  out += '"';
  size_t clean = 0;  // s[clean, i) needs no escape
  for (size_t i = plain; i < s.size(); ++i) {
    unsigned char c = s[i];
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out.append(s, clean, i - clean);
    clean = i + 1;
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default: {
        static const char hex[] = "0123456789abcdef";
        out += "\\u00";
        out += hex[c >> 4];
        out += hex[c & 15];
      }
    }
  }
  out.append(s, clean, s.size() - clean);
  out += '"';
}

template <class Integer>
void write_integer(std::string& out, Integer n) {
  char digits[24];
  out.append(digits, std::to_chars(digits, digits + sizeof digits, n).ptr);
}

void write_value(std::string& out, const json& j, int indent, int depth) {
  switch (j.type()) {
    case json::value_t::null: out += "null"; return;
    case json::value_t::boolean: out += j.get<bool>() ? "true" : "false"; return;
    case json::value_t::number_integer: write_integer(out, j.get<int64_t>()); return;
    case json::value_t::number_unsigned: write_integer(out, j.get<uint64_t>()); return;
    case json::value_t::string: write_string(out, j.get_ref<const std::string&>()); return;
    case json::value_t::array:
    case json::value_t::object: {
      bool object = j.is_object();
      if (j.empty()) {
        out += object ? "{}" : "[]";
        return;
      }
      out += object ? "{\n" : "[\n";
      bool first = true;
      for (auto it = j.begin(); it != j.end(); ++it) {
        if (!first) out += ",\n";
        first = false;
        out.append(static_cast<size_t>(indent) * (depth + 1), ' ');
        if (object) {
          write_string(out, it.key());
          out += ": ";
        }
        write_value(out, *it, indent, depth + 1);
      }
      out += '\n';
      out.append(static_cast<size_t>(indent) * depth, ' ');
      out += object ? '}' : ']';
      return;
    }
    case json::value_t::binary: throw std::invalid_argument("write_json: binary values are not written (plans have none)");
    default: out += j.dump(); return;  // floats (shortest round trip), discarded
  }
}

}  // namespace

std::string write_json(const json& doc, int indent) {
  if (indent < 0) throw std::invalid_argument("write_json: the indent must be 0 or more (compact text: dump())");
  std::string out;
  write_value(out, doc, indent, 0);
  return out;
}

}  // namespace thundercc
