// Symbolic sizes: reading a trace's symbols, evaluating the size expressions the capture fitted,
// and specializing a symbolic trace at given sizes (size_symbols.h says why specialization).
#include "thundercc/serialize/size_symbols.h"

#include <cctype>
#include <functional>
#include <set>

#include "thundercc/errors.h"

namespace thundercc {
namespace {

using json = nlohmann::json;

// A recursive-descent reader of one expression, evaluated as it is read.
class ExpressionReader {
 public:
  ExpressionReader(const std::string& text, const SizeBinding& values) : text_(text), values_(values) {}

  int64_t read() {
    int64_t value;
    skip_spaces();
    if (peek() == '(') {
      ++at_;
      value = sum();
      expect(')');
      expect('/');
      int64_t divisor = integer();
      if (divisor < 2) throw ThunderError("ValueError", str("size expression '", text_, "' divides by ", divisor));
      if (value % divisor != 0)
        throw ThunderError("ValueError", str("'", text_, "' is ", value, "/", divisor, ", not an integer"));
      value /= divisor;
    } else {
      value = sum();
    }
    skip_spaces();
    if (at_ != text_.size()) fail(str("'", text_[at_], "'"));
    return value;
  }

 private:
  int64_t sum() {
    skip_spaces();
    bool negative = peek() == '-';
    if (negative) ++at_;
    int64_t total = checked(negative ? -1 : 1, term(), '*');
    for (skip_spaces(); peek() == '+' || peek() == '-'; skip_spaces()) {
      bool minus = text_[at_++] == '-';
      int64_t t = term();
      total = checked(total, minus ? -t : t, '+');
    }
    return total;
  }

  int64_t term() {
    int64_t product = factor();
    for (skip_spaces(); peek() == '*'; skip_spaces()) {
      ++at_;
      product = checked(product, factor(), '*');
    }
    return product;
  }

  int64_t factor() {
    skip_spaces();
    if (std::isdigit(static_cast<unsigned char>(peek()))) return integer();
    size_t start = at_;
    while (at_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[at_])) || text_[at_] == '_')) ++at_;
    if (start == at_ || std::isdigit(static_cast<unsigned char>(text_[start]))) fail(at_ < text_.size() ? str("'", text_[at_], "'") : "end");
    std::string name = text_.substr(start, at_ - start);
    auto it = values_.find(name);
    if (it == values_.end()) throw ThunderError("ValueError", str("'", text_, "' names '", name, "', which is not a symbol of the trace"));
    return it->second;
  }

  int64_t integer() {
    skip_spaces();
    size_t start = at_;
    int64_t value = 0;
    while (at_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[at_])))
      value = checked(checked(value, 10, '*'), text_[at_++] - '0', '+');
    if (start == at_) fail(at_ < text_.size() ? str("'", text_[at_], "'") : "end");
    return value;
  }

  int64_t checked(int64_t a, int64_t b, char op) const {
    int64_t out;
    if (op == '*' ? __builtin_mul_overflow(a, b, &out) : __builtin_add_overflow(a, b, &out))
      throw ThunderError("ValueError", str("'", text_, "' overflows 64 bits"));
    return out;
  }

  void expect(char c) {
    skip_spaces();
    if (peek() != c) fail(at_ < text_.size() ? str("'", text_[at_], "'") : "end");
    ++at_;
  }
  char peek() const { return at_ < text_.size() ? text_[at_] : '\0'; }
  void skip_spaces() {
    while (peek() == ' ') ++at_;
  }
  [[noreturn]] void fail(const std::string& found) const {
    throw ThunderError("ValueError", str("size expression '", text_, "': unexpected ", found, " at ", at_));
  }

  const std::string& text_;
  const SizeBinding& values_;
  size_t at_ = 0;
};

bool is_symint(const json& v) { return v.is_object() && v.size() == 1 && v.contains("symint") && v["symint"].is_string(); }

// Replaces the expressions under `v` in place; `size` when `v` is (in) a tensor's shape.
void substitute(json& v, const SizeBinding& values, bool size, const std::function<std::string()>& where) {
  if (is_symint(v)) {
    const std::string expression = v["symint"].get<std::string>();
    int64_t value;
    try {
      value = evaluate_size_expression(expression, values);
    } catch (const ThunderError& e) {
      throw LoadError(str(where(), ": ", e.what()));
    }
    if (size && value < 0) throw LoadError(str(where(), ": the size '", expression, "' is ", value));
    v = value;
    return;
  }
  if (v.is_array()) {
    for (auto& item : v) substitute(item, values, size, where);
  } else if (v.is_object()) {
    for (auto& [key, item] : v.items()) substitute(item, values, size || key == "shape", where);
  }
}

}  // namespace

std::string SizeSymbol::describe() const { return str(name, " = ", input, ".shape[", dim, "] in [", min, ", ", max, "]"); }

std::vector<SizeSymbol> read_size_symbols(const json& doc, const std::string& where) {
  std::vector<SizeSymbol> out;
  if (!doc.is_object() || !doc.contains("symbols")) return out;
  std::map<std::string, const SizeSymbol*> by_name;
  std::set<std::pair<std::string, int64_t>> dims;
  const json& symbols = doc["symbols"];
  for (size_t k = 0; k < symbols.size(); ++k) {
    const json& entry = symbols[k];
    SizeSymbol s{entry["name"].get<std::string>(), entry["input"].get<std::string>(), entry["dim"].get<int64_t>(),
                 entry["min"].get<int64_t>(), entry["max"].get<int64_t>(), entry["hint"].get<int64_t>()};
    const std::string at = str(where, ": /symbols/", k, ": ", s.describe());
    if (!(s.min <= s.hint && s.hint <= s.max)) throw LoadError(str(at, " does not hold its captured size ", s.hint));
    if (!dims.insert({s.input, s.dim}).second) throw LoadError(str(at, ": ", s.input, ".shape[", s.dim, "] has two symbols"));
    // The input's recorded shape names the symbol at that dimension: what run reads it from.
    const json* input = nullptr;
    for (const auto& i : doc["inputs"])
      if (i.value("name", "") == s.input && i.contains("tensor")) input = &i;
    if (!input) throw LoadError(str(at, ": the trace has no tensor input '", s.input, "'"));
    if (input->contains("fqn")) throw LoadError(str(at, ": '", s.input, "' is a module's parameter or buffer, whose size is fixed"));
    const json& shape = (*input)["tensor"]["shape"];
    if (s.dim >= static_cast<int64_t>(shape.size()) || shape[static_cast<size_t>(s.dim)] != json{{"symint", s.name}})
      throw LoadError(str(at, ": the input's shape ", shape.dump(), " does not have {\"symint\": \"", s.name, "\"} at dimension ", s.dim));
    out.push_back(std::move(s));
  }
  for (const auto& s : out) {
    auto [it, fresh] = by_name.emplace(s.name, &s);
    if (!fresh && (it->second->min != s.min || it->second->max != s.max || it->second->hint != s.hint))
      throw LoadError(str(where, ": /symbols: ", it->second->describe(), " and ", s.describe(), " share a name but not a range and size"));
  }
  return out;
}

SizeBinding hint_binding(const std::vector<SizeSymbol>& symbols) {
  SizeBinding out;
  for (const auto& s : symbols) out[s.name] = s.hint;
  return out;
}

std::string size_symbols_comment(const std::vector<SizeSymbol>& symbols) {
  std::string out;
  for (const auto& s : symbols)
    out += str(out.empty() ? "# Symbolic sizes, here at the sizes captured (run compiles the trace again for others): " : "; ",
               s.describe(), " (captured at ", s.hint, ")");
  return out.empty() ? out : out + "\n";
}

int64_t evaluate_size_expression(const std::string& expression, const SizeBinding& values) {
  return ExpressionReader(expression, values).read();
}

bool holds_size_expressions(const json& v) {
  if (is_symint(v)) return true;
  if (v.is_array() || v.is_object())
    for (const auto& item : v) if (holds_size_expressions(item)) return true;
  return false;
}

json specialize_trace(const json& doc, const SizeBinding& values, const std::string& where) {
  json out = doc;
  out.erase("symbols");
  const std::string& at = where;
  for (auto& input : out["inputs"])
    substitute(input, values, false, [&] { return str(at, ": input ", input.value("name", "?")); });
  auto& statements = out["bound_symbols"];
  for (size_t i = 0; i < statements.size(); ++i) {
    const json& b = statements[i];
    auto statement = [&] {
      return str(at, ": statement ", i, " (", b.value("symbol", "?"), b.contains("source") ? " at " + b.value("source", "") : "", ")");
    };
    substitute(statements[i], values, false, statement);
  }
  substitute(out["output"], values, false, [&] { return str(at, ": the output"); });
  return out;
}

}  // namespace thundercc
