// Visiting and rewriting the proxies of values and bound symbols: the mutator passes share.
#pragma once

#include <functional>
#include <unordered_map>

#include "thundercc/ir/symbol.h"

namespace thundercc {

// The identity of a tensor or number proxy (null for anything else).
const void* proxy_key(const Value& v);

// Calls f on every tensor and number proxy in v, depth first, in order.
template <class F>
void for_each_proxy(const Value& v, F&& f) {
  if (v.is_tensor() || v.is_number_proxy()) f(v);
  else if (v.is_sequence())
    for (const auto& x : v.items()) for_each_proxy(x, f);
  else if (v.kind() == Value::Kind::Dict)
    for (const auto& [k, x] : v.dict_items()) for_each_proxy(x, f);
}

// Calls f on every proxy of a bound symbol: its args, kwargs and output, then its subsymbols'
// (recursively), in the order ValueMap::apply rewrites them.
template <class F>
void for_each_proxy(const BoundSymbol& b, F&& f) {
  for (const auto& a : b.args) for_each_proxy(a, f);
  for (const auto& [k, v] : b.kwargs) for_each_proxy(v, f);
  for_each_proxy(b.output, f);
  for (const auto& s : b.subsymbols) for_each_proxy(s, f);
}

// Replaces proxies by other values, everywhere in a value or a bound symbol (recursively).
class ValueMap {
 public:
  void set(const Value& from, const Value& to) { map_[proxy_key(from)] = to; }
  void erase(const Value& from) { map_.erase(proxy_key(from)); }
  bool contains(const Value& v) const { return map_.count(proxy_key(v)) != 0; }
  bool empty() const { return map_.empty(); }
  Value apply(const Value& v) const;
  void apply(BoundSymbol& bsym) const;  // args, kwargs, output and subsymbols
  void merge(const ValueMap& other) {
    for (const auto& [k, v] : other.map_) map_[k] = v;
  }

 private:
  std::unordered_map<const void*, Value> map_;
};

// What a function recorded in place of a bound symbol, renamed by Thunder's rules: a result the
// function computed takes the name of the output it stands for (so later statements and printed
// traces keep their names); a result it passed through (one of its inputs, returned as is)
// replaces the original output in the statements that follow, through `aliases`.
struct Replacement {
  std::vector<BoundSymbol> bound_symbols;
  ValueMap aliases;  // original output -> the value passed through
  Value result;      // what the function returned, renamed
};

// Runs `record` in the active trace with recording redirected, and renames its results to the
// outputs of `original` (their proxies must correspond one to one, in order). Used by claiming
// (execution transforms), autodiff (the forward part of grad rules) and fusion.
Replacement replace_bound_symbol(const BoundSymbol& original, const std::function<Value()>& record);
// The renaming step alone, for bound symbols recorded elsewhere: maps `produced` (the proxies of a
// recorded result) onto `original`'s outputs.
void rename_results(const Value& produced, const Value& original, Replacement& r, const std::string& what);

}  // namespace thundercc
