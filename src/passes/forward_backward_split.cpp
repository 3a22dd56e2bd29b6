// Forward-backward split: the joint trace of the grad transform becomes a forward trace, which
// returns the outputs and what the backward needs (saved_for_backward), and a backward trace
// `backward_fn(saved_for_backward, cotangents)` returning one gradient per input. To save little,
// a saved value that one cheap statement (elementwise and shape prims only) computes from other
// saved values is recomputed in the backward instead of saved.
#include <unordered_map>
#include <unordered_set>

#include "thundercc/ir/rewrite.h"
#include "thundercc/passes/passes.h"

namespace thundercc {
namespace {

bool is_backward(const BoundSymbol& b) { return std::find(b.tags.begin(), b.tags.end(), "BACKWARD") != b.tags.end(); }

bool is_cheap(const BoundSymbol& b) {
  if (b.sym->has_tag("RANDOM_OP")) return false;
  if (b.sym->is_prim) return b.sym->has_tag("ELEMENTWISE_OP") || b.sym->has_tag("SHAPE_OP");
  if (b.subsymbols.empty()) return false;
  for (const auto& s : b.subsymbols)
    if (!is_cheap(s)) return false;
  return true;
}

int64_t bytes_of(const Value& v) {
  if (!v.is_tensor()) return 0;
  return v.as_tensor().meta().bytes();
}

}  // namespace

ForwardBackward split_forward_backward(const Trace& joint) {
  ForwardBackward fb{joint.derive("Forward-backward split"), joint.derive("Forward-backward split"), 0};
  fb.forward.inputs.pop_back();  // the cotangents are the backward's
  const Value& cotangents = joint.inputs.back().value;
  const Value& primal = joint.output.items()[0];
  const Value& grads = joint.output.items()[1];

  // Where each forward value comes from: an input (null) or the forward statement making it.
  std::unordered_map<const void*, const BoundSymbol*> producer;
  std::vector<Value> definition_order;
  for (const auto& in : fb.forward.inputs)
    for_each_proxy(in.value, [&](const Value& v) {
      producer[proxy_key(v)] = nullptr;
      definition_order.push_back(v);
    });
  std::vector<const BoundSymbol*> backward;
  for (const auto& b : joint.bound_symbols) {
    if (is_backward(b)) {
      backward.push_back(&b);
      continue;
    }
    fb.forward.bound_symbols.push_back(b);
    for_each_proxy(b.output, [&](const Value& v) {
      producer[proxy_key(v)] = &b;
      definition_order.push_back(v);
    });
  }

  // What the backward reads from the forward.
  std::unordered_set<const void*> defined, needed;
  for_each_proxy(cotangents, [&](const Value& v) { defined.insert(proxy_key(v)); });
  auto read = [&](const Value& v) {
    if (!defined.count(proxy_key(v)) && producer.count(proxy_key(v))) needed.insert(proxy_key(v));
  };
  for (const BoundSymbol* b : backward) {
    for (const auto& in : b->input_proxies()) read(in);
    for_each_proxy(b->output, [&](const Value& v) { defined.insert(proxy_key(v)); });
  }
  for_each_proxy(grads, read);

  // Recompute instead of saving where a cheap statement makes a value from saved ones.
  std::vector<const BoundSymbol*> recomputed;
  for (const auto& v : definition_order) {
    const BoundSymbol* p = producer[proxy_key(v)];
    if (!needed.count(proxy_key(v)) || !p || !is_cheap(*p) || p->output_proxies().size() != 1) continue;
    bool from_saved = true;
    for (const auto& in : p->input_proxies()) from_saved = from_saved && needed.count(proxy_key(in));
    if (!from_saved) continue;
    needed.erase(proxy_key(v));
    recomputed.push_back(p);
  }

  Values saved;
  for (const auto& v : definition_order)
    if (needed.count(proxy_key(v))) {
      saved.push_back(v);
      fb.saved_bytes += bytes_of(v);
    }
  fb.forward.output = Value::tuple({primal, Value::tuple(saved)});

  fb.backward.name = "backward_fn";
  fb.backward.inputs = {{"saved_for_backward", Value::tuple(saved)}, {"cotangents", cotangents}};
  for (const BoundSymbol* b : recomputed) fb.backward.bound_symbols.push_back(*b);
  for (const BoundSymbol* b : backward) fb.backward.bound_symbols.push_back(*b);
  fb.backward.output = grads;
  return fb;
}

}  // namespace thundercc
