#include "thundercc/ir/symbol.h"

#include <algorithm>
#include <unordered_set>

#include "thundercc/errors.h"
#include "thundercc/ir/pyliteral.h"
#include "thundercc/ir/trace.h"

namespace thundercc {


namespace {

// Splits on commas that are not inside brackets or quotes.
std::vector<std::string> split_top_level(std::string_view text) {
  std::vector<std::string> parts;
  int depth = 0;
  char quote = 0;
  std::string current;
  for (char c : text) {
    if (quote) {
      if (c == quote) quote = 0;
    } else if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == '(' || c == '[') {
      ++depth;
    } else if (c == ')' || c == ']') {
      --depth;
    } else if (c == ',' && depth == 0) {
      parts.push_back(current);
      current.clear();
      continue;
    }
    current += c;
  }
  parts.push_back(current);
  return parts;
}

std::string trim(std::string s) {
  auto b = s.find_first_not_of(' ');
  auto e = s.find_last_not_of(' ');
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

[[noreturn]] void type_error(const Symbol& sym, const std::string& what) {
  throw ThunderError("TypeError", str(sym.name, "() ", what));
}

}  // namespace

Signature Signature::parse(std::string_view text) {
  Signature sig;
  bool keyword_only = false;
  for (auto raw : split_top_level(text)) {
    auto token = trim(raw);
    if (token.empty()) continue;
    if (token == "/") {
      for (auto& p : sig.params) p.kind = Param::Kind::PositionalOnly;
      continue;
    }
    if (token == "*") {
      keyword_only = true;
      continue;
    }
    Param p;
    if (token[0] == '*') {
      p.name = token.substr(1);
      p.kind = Param::Kind::VarPositional;
      keyword_only = true;
      sig.params.push_back(std::move(p));
      continue;
    }
    auto eq = token.find('=');
    p.name = trim(token.substr(0, eq));
    if (eq != std::string::npos) p.default_value = parse_py_literal(trim(token.substr(eq + 1)));
    p.kind = keyword_only ? Param::Kind::KeywordOnly : Param::Kind::PositionalOrKeyword;
    sig.params.push_back(std::move(p));
  }
  return sig;
}

std::string Signature::str() const {
  std::string out;
  auto sep = [&] { if (!out.empty()) out += ", "; };
  bool star_written = false;
  for (size_t i = 0; i < params.size(); ++i) {
    const auto& p = params[i];
    if (p.kind == Param::Kind::KeywordOnly && !star_written) {
      sep();
      out += "*";
      star_written = true;
    }
    sep();
    if (p.kind == Param::Kind::VarPositional) {
      out += "*" + p.name;
      star_written = true;
    } else {
      out += p.name;
      if (p.default_value) out += "=" + py_repr(*p.default_value);
    }
    bool last_positional_only = p.kind == Param::Kind::PositionalOnly &&
                                (i + 1 == params.size() || params[i + 1].kind != Param::Kind::PositionalOnly);
    if (last_positional_only) out += ", /";
  }
  return out;
}

int Signature::index_of(std::string_view name) const {
  for (size_t i = 0; i < params.size(); ++i)
    if (params[i].name == name) return static_cast<int>(i);
  return -1;
}

const Value& Args::operator[](std::string_view param) const {
  int i = sym_->signature.index_of(param);
  check(i >= 0, [&] { return str(sym_->id, " has no parameter '", param, "'"); });
  return values_[i];
}

const Tensor& Args::tensor(std::string_view param) const {
  const auto& v = (*this)[param];
  check(v.is_tensor(), [&] { return str(sym_->name, "(): expected '", param, "' to be a tensor, but got ", py_repr(v)); });
  return v.as_tensor();
}

int64_t Args::integer(std::string_view param) const {
  const auto& v = (*this)[param];
  check(v.is_int_like() || v.kind() == Value::Kind::Bool,
        [&] { return str(sym_->name, "(): expected '", param, "' to be an int, but got ", py_repr(v)); });
  return v.as_int();
}

double Args::real(std::string_view param) const {
  const auto& v = (*this)[param];
  check(v.is_number() && v.number_kind() != NumberKind::Complex,
        [&] { return str(sym_->name, "(): expected '", param, "' to be a number, but got ", py_repr(v)); });
  return v.as_float();
}

bool Args::flag(std::string_view param) const {
  const auto& v = (*this)[param];
  check(v.kind() == Value::Kind::Bool,
        [&] { return str(sym_->name, "(): expected '", param, "' to be a bool, but got ", py_repr(v)); });
  return v.as_bool();
}

std::vector<int64_t> Args::ints(std::string_view param) const {
  const auto& v = (*this)[param];
  // A var-positional shape may be passed as ints or as one sequence: view(2, 3) or view((2, 3)).
  if (v.kind() == Value::Kind::Tuple && v.items().size() == 1 && v.items()[0].is_sequence()) return v.items()[0].as_ints();
  check(v.is_int_like() || (v.is_sequence() && std::all_of(v.items().begin(), v.items().end(),
                                                           [](const Value& x) { return x.is_int_like(); })),
        [&] { return str(sym_->name, "(): expected '", param, "' to be an int or a sequence of ints, but got ", py_repr(v)); });
  return v.as_ints();
}

bool Symbol::has_tag(std::string_view tag) const { return std::find(tags.begin(), tags.end(), tag) != tags.end(); }
bool BoundSymbol::has_tag(std::string_view tag) const { return std::find(tags.begin(), tags.end(), tag) != tags.end(); }

Args Symbol::bind(const Values& args, const Kwargs& kwargs) const {
  const auto& params = signature.params;
  // Parameters come in Python's order, as Signature::parse makes them: positional ones, then
  // *args, then keyword-only ones. A fusion region's signature has a parameter per input, hundreds
  // in a training step's optimizer update, so which parameters have a value is a vector, not a word.
  size_t positional = 0;
  while (positional < params.size() && (params[positional].kind == Param::Kind::PositionalOnly ||
                                        params[positional].kind == Param::Kind::PositionalOrKeyword))
    ++positional;
  bool has_varargs = positional < params.size() && params[positional].kind == Param::Kind::VarPositional;
  if (args.size() > positional && !has_varargs)
    type_error(*this, str("takes ", positional, " positional argument", positional == 1 ? "" : "s", " but ", args.size(),
                          (args.size() == 1 ? " was" : " were"), " given"));
  Values values(params.size());
  std::vector<bool> given(params.size());  // parameter i has a value
  for (size_t i = 0; i < args.size() && i < positional; ++i) {
    values[i] = args[i];
    given[i] = true;
  }
  if (has_varargs) {
    values[positional] = Value::tuple(args.size() > positional ? Values(args.begin() + positional, args.end()) : Values{});
    given[positional] = true;
  }
  for (const auto& [key, value] : kwargs) {
    int i = signature.index_of(key);
    if (i < 0 || params[i].kind == Param::Kind::VarPositional)
      type_error(*this, str("got an unexpected keyword argument '", key, "'"));
    if (params[i].kind == Param::Kind::PositionalOnly)
      type_error(*this, str("got some positional-only arguments passed as keyword arguments: '", key, "'"));
    if (given[i]) type_error(*this, str("got multiple values for argument '", key, "'"));
    values[i] = value;
    given[i] = true;
  }
  for (size_t i = 0; i < params.size(); ++i) {
    if (given[i]) continue;
    if (!params[i].default_value) {
      bool kw = params[i].kind == Param::Kind::KeywordOnly;
      type_error(*this, str("missing 1 required ", kw ? "keyword-only" : "positional", " argument: '", params[i].name, "'"));
    }
    values[i] = *params[i].default_value;
  }
  return Args(*this, std::move(values));
}

std::pair<Values, Kwargs> Symbol::normalize(const Args& bound) const {
  Values args;
  Kwargs kwargs;
  const auto& params = signature.params;
  args.reserve(params.size());
  for (size_t i = 0; i < params.size(); ++i) {
    const auto& v = bound.values()[i];
    switch (params[i].kind) {
      case Param::Kind::PositionalOnly:
      case Param::Kind::PositionalOrKeyword: args.push_back(v); break;
      case Param::Kind::VarPositional:
        for (const auto& x : v.items()) args.push_back(x);
        break;
      case Param::Kind::KeywordOnly: kwargs.emplace_back(params[i].name, v); break;
    }
  }
  return {std::move(args), std::move(kwargs)};
}

namespace {
void collect_proxies(const Value& v, std::vector<Value>& out) {
  if (v.is_tensor() || v.is_number_proxy()) out.push_back(v);
  else if (v.is_sequence())
    for (const auto& x : v.items()) collect_proxies(x, out);
}
}  // namespace

bool BoundSymbol::is_opaque() const {
  if (sym->is_prim || !subsymbols.empty()) return false;
  auto name = [](const Value& v) -> const std::string& { return v.is_tensor() ? v.as_tensor().name() : v.as_number_proxy()->name; };
  std::unordered_set<std::string> inputs;
  for (const auto& v : input_proxies()) inputs.insert(name(v));
  for (const auto& v : output_proxies())
    if (!inputs.count(name(v))) return true;
  return false;
}

std::vector<Value> BoundSymbol::input_proxies() const {
  std::vector<Value> out;
  out.reserve(args.size() + kwargs.size());
  for (const auto& a : args) collect_proxies(a, out);
  for (const auto& [k, v] : kwargs) collect_proxies(v, out);
  return out;
}

std::vector<Value> BoundSymbol::output_proxies() const {
  std::vector<Value> out;
  collect_proxies(output, out);
  return out;
}

SymbolTable& SymbolTable::global() {
  static auto* table = new SymbolTable();  // never destroyed: plugins' symbols outlive static destruction order
  return *table;
}

const Symbol& SymbolTable::add(Symbol sym) {
  for (const auto& id : sym.aliases) check(!find(id), [&] { return str("symbol id '", id, "' is already registered"); });
  check(!find(sym.id), [&] { return str("symbol id '", sym.id, "' is already registered"); });
  owned_.push_back(std::make_unique<Symbol>(std::move(sym)));
  const Symbol* s = owned_.back().get();
  by_id_[s->id] = s;
  for (const auto& id : s->aliases) by_id_[id] = s;
  ordered_.push_back(s);
  return *s;
}

void SymbolTable::add_alias(std::string_view id, std::string alias) {
  check(!find(alias), [&] { return str("symbol id '", alias, "' is already registered"); });
  auto owned = std::find_if(owned_.begin(), owned_.end(), [&](const auto& s) { return s->id == id; });
  check(owned != owned_.end(), [&] { return str("unknown symbol '", id, "' in this table"); }, "KeyError");
  (*owned)->aliases.push_back(alias);
  by_id_[std::move(alias)] = owned->get();
}

const Symbol* SymbolTable::find(std::string_view id) const {
  auto it = by_id_.find(std::string(id));
  if (it != by_id_.end()) return it->second;
  return parent_ ? parent_->find(id) : nullptr;
}

const Symbol& SymbolTable::get(std::string_view id) const {
  const Symbol* s = find(id);
  check(s != nullptr, [&] { return str("unknown symbol '", id, "'"); }, "KeyError");
  return *s;
}

Value call(const Symbol& sym, const Values& args, const Kwargs& kwargs) {
  Args bound = sym.bind(args, kwargs);
  auto [normalized_args, normalized_kwargs] = sym.normalize(bound);
  BoundSymbol bsym;
  bsym.sym = &sym;
  bsym.args = std::move(normalized_args);
  bsym.kwargs = std::move(normalized_kwargs);
  if (sym.is_prim) {
    tracing::GradScope grad(bsym.input_proxies());
    bsym.output = sym.meta(bound);
  } else {
    tracing::SinkGuard guard(bsym.subsymbols);
    bsym.output = sym.meta(bound);
  }
  Value out = bsym.output;
  tracing::active_sink().push_back(std::move(bsym));
  return out;
}

Value call(std::string_view id, const Values& args, const Kwargs& kwargs) {
  return call(SymbolTable::global().get(id), args, kwargs);
}

}  // namespace thundercc
