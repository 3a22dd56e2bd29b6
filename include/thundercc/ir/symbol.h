// Symbols and bound symbols. A Symbol is an operation: its id (the name traces refer to it by,
// e.g. "torch.nn.functional.linear" or "prims.add"), a Python-style signature with defaults, and a
// meta function. For a prim the meta function checks the inputs and returns output proxies; for
// any other symbol it is the decomposition, and what it calls while being traced becomes the bound
// symbol's subsymbols. Binding normalizes a call the way Thunder's does: defaults are filled in,
// positional parameters are passed positionally, keyword-only ones by keyword.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "thundercc/ir/value.h"

namespace thundercc {

using Kwargs = std::vector<std::pair<std::string, Value>>;

struct Param {
  enum class Kind : uint8_t { PositionalOnly, PositionalOrKeyword, VarPositional, KeywordOnly };
  std::string name;
  Kind kind = Kind::PositionalOrKeyword;
  std::optional<Value> default_value;
};

struct Signature {
  std::vector<Param> params;  // in Python's order (positional, *args, keyword-only)
  // Parses Python parameter syntax: "a, b, /, *, alpha=1", "a, /, *shape", "a, dim=None, keepdim=False".
  static Signature parse(std::string_view text);
  std::string str() const;  // the same syntax back, defaults as Python literals
  int index_of(std::string_view name) const;  // -1 when absent
};

class Symbol;
struct BoundSymbol;

// The arguments of one call, bound to the symbol's parameters (defaults filled in). What meta
// functions and decompositions read.
class Args {
 public:
  Args(const Symbol& sym, Values values) : sym_(&sym), values_(std::move(values)) {}
  const Value& operator[](std::string_view param) const;
  const Tensor& tensor(std::string_view param) const;
  int64_t integer(std::string_view param) const;
  double real(std::string_view param) const;
  bool flag(std::string_view param) const;
  std::vector<int64_t> ints(std::string_view param) const;
  bool is_none(std::string_view param) const { return (*this)[param].is_none(); }
  const Symbol& symbol() const { return *sym_; }
  const Values& values() const { return values_; }

 private:
  const Symbol* sym_;
  Values values_;  // one per parameter; a var-positional parameter holds a tuple
};

using MetaFunction = std::function<Value(const Args&)>;

class Symbol {
 public:
  std::string id;      // canonical id: "torch.add", "prims.add"
  std::string name;    // "add"
  std::string module;  // printing module: "ltorch", "prims", "torch", "Tensor", or "" (bare)
  Signature signature;
  MetaFunction meta;
  bool is_prim = false;
  std::vector<std::string> tags;     // "SHAPE_OP", "REDUCTION_OP", "RANDOM_OP", "DONT_DCE", ...
  std::vector<std::string> aliases;  // other ids that name this symbol: "torch.Tensor.add", ...
  std::string executor;              // for an executor's operator: the executor that runs it
  bool omit_default_kwargs = false;  // print keyword arguments only where they differ from the defaults
  // How a statement of this symbol prints when not as a call (del, ...).
  std::function<std::string(const BoundSymbol&)> printer;

  bool has_tag(std::string_view tag) const;
  std::string qualified_name() const { return module.empty() ? name : module + "." + name; }

  // Binds a call's arguments to the signature (Python's rules and TypeError messages).
  Args bind(const Values& args, const Kwargs& kwargs) const;
  // The normalized call: positional parameters (var-positional expanded) and keyword-only ones.
  std::pair<Values, Kwargs> normalize(const Args& bound) const;
};

// A bound symbol's tag: a dtype conversion a decomposition made for its own arithmetic (into its
// computation dtype, or its result back into the result dtype), not one the program asked for.
// Only these may be elided as float round trips (fusion); a program's casts are kept bit-exact.
inline constexpr const char* kDecompositionCast = "DECOMPOSITION_CAST";

struct BoundSymbol {
  const Symbol* sym = nullptr;
  Values args;
  Kwargs kwargs;
  Value output;
  std::vector<BoundSymbol> subsymbols;
  std::vector<std::string> header;  // comment lines printed above the statement
  std::vector<std::string> tags;
  std::string source;     // where the user wrote it ("model.py:12"), when known
  std::string scope;      // the module that made the call ("h.0.mlp.c_fc"), when known
  std::string called_as;  // the alias a captured program used ("torch.Tensor.add"), when not sym->id

  bool has_tag(std::string_view tag) const;  // the statement's own tags, not its symbol's
  // Every tensor or number proxy read by the call (args and kwargs, in order).
  std::vector<Value> input_proxies() const;
  std::vector<Value> output_proxies() const;
  // A torch-language call whose decomposition records nothing yet makes values of its own (a
  // LAPACK factorization): only an executor's kernel runs it, only a grad rule differentiates it.
  bool is_opaque() const;
};

// Symbols by id and by alias. The global table holds the prims, the torch language (both added by
// register_builtins, builtins.h) and executors' operators;
// a compilation has a table of its own over it (see PassContext::symbols) for the symbols that
// belong to that compilation alone (fusion regions, helpers), so they neither leak into the
// process nor collide between compilations. Lookups fall back to the parent; ids are unique
// across a table and its parents.
class SymbolTable {
 public:
  explicit SymbolTable(const SymbolTable* parent = nullptr) : parent_(parent) {}
  static SymbolTable& global();
  const Symbol& add(Symbol sym);
  // Another id for a symbol of this table (torch.special.expit for torch.sigmoid).
  void add_alias(std::string_view id, std::string alias);
  const Symbol* find(std::string_view id) const;
  const Symbol& get(std::string_view id) const;  // throws when unknown
  const std::vector<const Symbol*>& all() const { return ordered_; }  // this table's own, not the parent's

 private:
  const SymbolTable* parent_;
  std::unordered_map<std::string, const Symbol*> by_id_;
  std::vector<const Symbol*> ordered_;
  std::vector<std::unique_ptr<Symbol>> owned_;
};

// Calls a symbol inside the active trace: binds, runs its meta function (recording the
// decomposition as subsymbols for non-prims) and appends the bound symbol to the current scope.
Value call(const Symbol& sym, const Values& args, const Kwargs& kwargs = {});
Value call(std::string_view id, const Values& args, const Kwargs& kwargs = {});

}  // namespace thundercc
