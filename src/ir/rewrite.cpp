#include "thundercc/ir/rewrite.h"

namespace thundercc {

const void* proxy_key(const Value& v) {
  if (v.is_tensor()) return v.as_tensor().node();
  if (v.is_number_proxy()) return v.as_number_proxy().get();
  return nullptr;
}

Value ValueMap::apply(const Value& v) const {
  if (v.is_tensor() || v.is_number_proxy()) {
    auto it = map_.find(proxy_key(v));
    return it == map_.end() ? v : it->second;
  }
  if (v.is_sequence()) {
    Values items;
    for (const auto& x : v.items()) items.push_back(apply(x));
    return v.kind() == Value::Kind::Tuple ? Value::tuple(std::move(items)) : Value::list(std::move(items));
  }
  if (v.kind() == Value::Kind::Dict) {
    DictItems items;
    for (const auto& [k, x] : v.dict_items()) items.emplace_back(k, apply(x));
    return Value::dict(std::move(items));
  }
  return v;
}

void ValueMap::apply(BoundSymbol& bsym) const {
  if (map_.empty()) return;
  for (auto& a : bsym.args) a = apply(a);
  for (auto& [k, v] : bsym.kwargs) v = apply(v);
  bsym.output = apply(bsym.output);
  for (auto& s : bsym.subsymbols) apply(s);
}

}  // namespace thundercc
