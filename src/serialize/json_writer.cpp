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

void write_string(std::string& out, std::string_view s) {
  // Most strings (names, types, code) need no care: they are checked a word at a time.
  size_t plain = 0;  // s[0, plain) needs no care
  for (uint64_t word; plain + 8 <= s.size(); plain += 8) {
    std::memcpy(&word, s.data() + plain, 8);
    if (needs_care(word)) break;
  }
  for (size_t i = plain; i < s.size(); ++i)
    if (static_cast<unsigned char>(s[i]) >= 0x80) {  // nlohmann checks and passes UTF-8 through
      out += json(std::string(s)).dump();
      return;
    }
  out += '"';
  size_t clean = 0;  // s[clean, i) needs no escape
  for (size_t i = plain; i < s.size(); ++i) {
    unsigned char c = s[i];
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out.append(s.data() + clean, i - clean);
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
  out.append(s.data() + clean, s.size() - clean);
  out += '"';
}

template <class Integer>
void write_integer(std::string& out, Integer n) {
  char digits[24];
  out.append(digits, std::to_chars(digits, digits + sizeof digits, n).ptr);
}

// nlohmann's dump(0) of `j`: its layout at indent 0 is the same at every depth.
void write_value(std::string& out, const json& j) {
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
        if (object) {
          write_string(out, it.key());
          out += ": ";
        }
        write_value(out, *it);
      }
      out += '\n';
      out += object ? '}' : ']';
      return;
    }
    case json::value_t::binary: throw std::invalid_argument("JsonWriter: binary values are not written (plans have none)");
    default: out += j.dump(); return;  // floats (shortest round trip), discarded
  }
}

}  // namespace

JsonWriter& JsonWriter::begin_object() {
  element();
  out_ += '{';
  open_.push_back({true});
  return *this;
}

JsonWriter& JsonWriter::begin_array() {
  element();
  out_ += '[';
  open_.push_back({false});
  return *this;
}

JsonWriter& JsonWriter::end_object() {
  if (open_.empty() || !open_.back().object) throw std::logic_error("JsonWriter: end_object without an open object");
  if (open_.back().count) out_ += '\n';
  out_ += '}';
  open_.pop_back();
  return *this;
}

JsonWriter& JsonWriter::end_array() {
  if (open_.empty() || open_.back().object) throw std::logic_error("JsonWriter: end_array without an open array");
  if (open_.back().count) out_ += '\n';
  out_ += ']';
  open_.pop_back();
  return *this;
}

JsonWriter& JsonWriter::key(std::string_view key) {
  if (open_.empty() || !open_.back().object) throw std::logic_error("JsonWriter: a key outside an object");
  Open& o = open_.back();
  // Compared as std::map compares them: the keys themselves, not as written (quoted, escaped).
  if (o.count && !(std::string_view(o.last_key) < key))
    throw std::logic_error("JsonWriter: member \"" + std::string(key) + "\" after \"" + o.last_key + "\": members go in ascending key order");
  o.last_key.assign(key);
  out_ += o.count++ ? ",\n" : "\n";
  write_string(out_, key);
  out_ += ": ";
  return *this;
}

void JsonWriter::element() {
  if (open_.empty() || open_.back().object) return;  // a member's value follows its key
  out_ += open_.back().count++ ? ",\n" : "\n";
}

JsonWriter& JsonWriter::value(std::string_view s) {
  element();
  write_string(out_, s);
  return *this;
}

JsonWriter& JsonWriter::value(bool b) {
  element();
  out_ += b ? "true" : "false";
  return *this;
}

JsonWriter& JsonWriter::value(std::nullptr_t) {
  element();
  out_ += "null";
  return *this;
}

JsonWriter& JsonWriter::signed_value(int64_t n) {
  element();
  write_integer(out_, n);
  return *this;
}

JsonWriter& JsonWriter::unsigned_value(uint64_t n) {
  element();
  write_integer(out_, n);
  return *this;
}

JsonWriter& JsonWriter::value(const std::vector<std::string>& items) {
  begin_array();
  for (const auto& s : items) value(s);
  return end_array();
}

JsonWriter& JsonWriter::value(const json& doc) {
  element();
  write_value(out_, doc);
  return *this;
}

std::string JsonWriter::take() {
  if (!open_.empty()) throw std::logic_error("JsonWriter: an object or array is still open");
  return std::move(out_);
}

}  // namespace thundercc
