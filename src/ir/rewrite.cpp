#include "thundercc/ir/rewrite.h"

#include <unordered_set>

#include "thundercc/errors.h"
#include "thundercc/ir/trace.h"

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

void rename_results(const Value& produced_value, const Value& original_value, Replacement& r, const std::string& what) {
  std::vector<Value> produced, original;
  for_each_proxy(produced_value, [&](const Value& v) { produced.push_back(v); });
  for_each_proxy(original_value, [&](const Value& v) { original.push_back(v); });
  check(produced.size() == original.size(), [&] {
    return str(what, " returned ", produced.size(), " proxies for ", original.size(), " outputs");
  });
  std::unordered_set<const void*> computed;
  for (const auto& b : r.bound_symbols) for_each_proxy(b.output, [&](const Value& v) { computed.insert(proxy_key(v)); });
  ValueMap rename;
  for (size_t i = 0; i < produced.size(); ++i) {
    if (proxy_key(produced[i]) == proxy_key(original[i])) continue;
    if (computed.count(proxy_key(produced[i]))) rename.set(produced[i], original[i]);
    else r.aliases.set(original[i], produced[i]);
  }
  for (auto& b : r.bound_symbols) rename.apply(b);
  r.result = rename.apply(produced_value);
}

Replacement replace_bound_symbol(const BoundSymbol& original, const std::function<Value()>& record) {
  Replacement r;
  Value result;
  {
    tracing::SinkGuard guard(r.bound_symbols);
    tracing::NameStem naming(tracing::statement_stem(original));
    result = record();
  }
  rename_results(result, original.output, r, "the replacement of " + original.sym->id);
  return r;
}

}  // namespace thundercc
