// Visiting and rewriting the proxies of values and bound symbols: the mutator passes share.
#pragma once

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

// Replaces proxies by other values, everywhere in a value or a bound symbol (recursively).
class ValueMap {
 public:
  void set(const Value& from, const Value& to) { map_[proxy_key(from)] = to; }
  bool contains(const Value& v) const { return map_.count(proxy_key(v)) != 0; }
  bool empty() const { return map_.empty(); }
  Value apply(const Value& v) const;
  void apply(BoundSymbol& bsym) const;  // args, kwargs, output and subsymbols

 private:
  std::unordered_map<const void*, Value> map_;
};

}  // namespace thundercc
