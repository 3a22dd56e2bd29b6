#include "thundercc/ir/pyliteral.h"

#include <charconv>
#include <cmath>
#include <unordered_set>

#include "thundercc/errors.h"

namespace thundercc {
namespace {

class LiteralParser {
 public:
  explicit LiteralParser(std::string_view text) : s_(text) {}

  Value parse_all() {
    Value v = parse();
    skip_space();
    if (pos_ != s_.size()) fail("trailing characters");
    return v;
  }

 private:
  std::string_view s_;
  size_t pos_ = 0;

  [[noreturn]] void fail(const char* what) const {
    throw ThunderError("ValueError", str("invalid Python literal '", s_, "': ", what));
  }
  void skip_space() {
    while (pos_ < s_.size() && s_[pos_] == ' ') ++pos_;
  }
  bool consume(std::string_view tok) {
    skip_space();
    if (s_.substr(pos_, tok.size()) == tok) {
      pos_ += tok.size();
      return true;
    }
    return false;
  }

  Value parse() {
    skip_space();
    if (consume("None")) return None{};
    if (consume("True")) return true;
    if (consume("False")) return false;
    if (consume("...")) return EllipsisValue{};
    if (pos_ < s_.size() && (s_[pos_] == '\'' || s_[pos_] == '"')) return parse_string();
    if (consume("(")) return parse_sequence(')', false);
    if (consume("[")) return parse_sequence(']', true);
    return parse_number();
  }

  Value parse_string() {
    char quote = s_[pos_++];
    auto end = s_.find(quote, pos_);
    if (end == std::string_view::npos) fail("unterminated string");
    std::string out(s_.substr(pos_, end - pos_));
    pos_ = end + 1;
    return out;
  }

  Value parse_sequence(char close, bool is_list) {
    Values items;
    bool trailing_comma = false;
    while (!consume(std::string_view(&close, 1))) {
      items.push_back(parse());
      trailing_comma = consume(",");
      if (!trailing_comma) {
        if (!consume(std::string_view(&close, 1))) fail("expected ',' or a closing bracket");
        break;
      }
    }
    // "(1)" is just 1 in Python; "(1,)" is a tuple.
    if (!is_list && items.size() == 1 && !trailing_comma) return items[0];
    return is_list ? Value::list(std::move(items)) : Value::tuple(std::move(items));
  }

  Value parse_number() {
    size_t start = pos_;
    while (pos_ < s_.size() && std::string_view("+-0123456789.eE").find(s_[pos_]) != std::string_view::npos) ++pos_;
    auto tok = s_.substr(start, pos_ - start);
    if (tok.empty()) fail("expected a value");
    bool is_float = tok.find_first_of(".eE") != std::string_view::npos;
    if (is_float) {
      double d = 0;
      auto [end, ec] = std::from_chars(tok.data(), tok.data() + tok.size(), d);
      if (ec != std::errc() || end != tok.data() + tok.size()) fail("bad float");
      return d;
    }
    int64_t i = 0;
    auto [end, ec] = std::from_chars(tok.data(), tok.data() + tok.size(), i);
    if (ec != std::errc() || end != tok.data() + tok.size()) fail("bad int");
    return i;
  }
};

void append_int(std::string& out, int64_t x) {
  char digits[24];
  out.append(digits, std::to_chars(digits, digits + sizeof digits, x).ptr);
}

void append_items(std::string& out, const Values& items) {
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) out += ", ";
    append_py_repr(out, items[i]);
  }
}

void append_optional_int(std::string& out, const std::optional<int64_t>& x) {
  if (x) append_int(out, *x);
  else out += "None";
}

}  // namespace

Value parse_py_literal(std::string_view text) { return LiteralParser(text).parse_all(); }

static std::string str_hex_escape(unsigned char c) {
  static const char* digits = "0123456789abcdef";
  return {'\\', 'x', digits[c >> 4], digits[c & 15]};
}

std::string float_repr(double x) {
  if (std::isnan(x)) return "float('NaN')";
  if (std::isinf(x)) return x > 0 ? "float('inf')" : "-float('inf')";
  if (x == 0) return std::signbit(x) ? "-0.0" : "0.0";
  // Shortest round-trip digits in scientific form, then laid out as Python's repr does:
  // positional for exponents in [-4, 16), scientific otherwise.
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, x, std::chars_format::scientific);
  std::string sci(buf, res.ptr);
  bool negative = sci[0] == '-';
  if (negative) sci.erase(0, 1);
  auto epos = sci.find('e');
  int exponent = std::stoi(sci.substr(epos + 1));
  std::string digits;
  for (char c : sci.substr(0, epos))
    if (c != '.') digits += c;
  std::string out;
  int ndigits = static_cast<int>(digits.size());
  if (exponent >= -4 && exponent < 16) {
    if (exponent < 0) {
      out = "0." + std::string(-exponent - 1, '0') + digits;
    } else if (exponent + 1 >= ndigits) {
      out = digits + std::string(exponent + 1 - ndigits, '0') + ".0";
    } else {
      out = digits.substr(0, exponent + 1) + "." + digits.substr(exponent + 1);
    }
  } else {
    out = digits.substr(0, 1);
    if (ndigits > 1) out += "." + digits.substr(1);
    char ebuf[16];
    std::snprintf(ebuf, sizeof ebuf, "e%c%02d", exponent < 0 ? '-' : '+', std::abs(exponent));
    out += ebuf;
  }
  return negative ? "-" + out : out;
}

std::string string_repr(std::string_view s) {
  // Python's choice of quote: single, unless the text has a single quote and no double quote.
  const char quote = s.find('\'') != std::string_view::npos && s.find('"') == std::string_view::npos ? '"' : '\'';
  std::string out(1, quote);
  for (size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c == '\\' || c == static_cast<unsigned char>(quote)) {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == 0x7f) {
      out += str_hex_escape(c);
    } else if (c == 0xc2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) < 0xa0) {
      out += str_hex_escape(static_cast<unsigned char>(s[++i]));  // U+0080-U+009F, C1 controls
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + quote;
}

std::string comment_text(std::string_view s) {
  std::string literal = string_repr(s);
  return literal.substr(1, literal.size() - 2);
}

bool is_printable_name(std::string_view name) {
  static const std::unordered_set<std::string_view> reserved{
      // Python's keywords.
      "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del",
      "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is", "lambda", "nonlocal",
      "not", "or", "pass", "raise", "return", "try", "while", "with", "yield",
      // What printed traces refer to: their imports and the builtins their literals use.
      "torch", "ltorch", "prims", "torchex", "thunder", "dtypes", "devices", "Tensor", "no_autocast", "float", "complex",
      "slice"};
  if (name.empty() || reserved.count(name)) return false;
  auto is_start = [](char c) { return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
  if (!is_start(name[0])) return false;
  for (char c : name)
    if (!is_start(c) && !(c >= '0' && c <= '9')) return false;
  return true;
}

void append_py_repr(std::string& out, const Value& v) {
  using K = Value::Kind;
  switch (v.kind()) {
    case K::None: out += "None"; return;
    case K::Bool: out += v.as_bool() ? "True" : "False"; return;
    case K::Int: append_int(out, v.as_int()); return;
    case K::Float: out += float_repr(v.as_float()); return;
    case K::Complex: {
      auto c = v.as_complex();
      out += "complex(" + float_repr(c.real()) + ", " + float_repr(c.imag()) + ")";
      return;
    }
    case K::String: out += string_repr(v.as_string()); return;
    case K::Tuple: {
      const auto& items = v.items();
      out += '(';
      append_items(out, items);
      out += items.size() == 1 ? ",)" : ")";
      return;
    }
    case K::List:
      out += '[';
      append_items(out, v.items());
      out += ']';
      return;
    case K::Slice: {
      // Thunder prints slices without spaces: slice(0,2,None).
      const auto& s = v.as_slice();
      out += "slice(";
      append_optional_int(out, s.start);
      out += ',';
      append_optional_int(out, s.stop);
      out += ',';
      append_optional_int(out, s.step);
      out += ')';
      return;
    }
    case K::Ellipsis: out += "..."; return;
    case K::DType: out += "dtypes." + v.as_dtype().full_name(); return;
    case K::TorchDType: out += "torch."; out += v.as_dtype().torch_name(); return;
    case K::Device: out += "devices.Device(\"" + v.as_device().str() + "\")"; return;
    case K::TorchDevice: out += "torch.device(\"" + v.as_any_device().str() + "\")"; return;
    case K::Tensor: out += v.as_tensor().name(); return;
    case K::Number: out += v.as_number_proxy()->name; return;
    case K::Dict: {
      out += '{';
      bool first = true;
      for (const auto& [k, x] : v.dict_items()) {
        if (!first) out += ", ";
        append_py_repr(out, Value(k));
        out += ": ";
        append_py_repr(out, x);
        first = false;
      }
      out += '}';
      return;
    }
  }
  out += "None";
}

std::string py_repr(const Value& v) {
  std::string out;
  append_py_repr(out, v);
  return out;
}

}  // namespace thundercc
