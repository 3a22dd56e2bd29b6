// Forward-backward split: the joint trace of the grad transform becomes a forward trace, which
// returns the outputs and what the backward needs (saved_for_backward), and a backward trace
// `backward_fn(saved_for_backward, cotangents)` returning one gradient per input. What is saved
// and what the backward recomputes instead is rematerialization's choice; each recomputation runs
// right before the first backward statement that reads it, so that its result is not alive
// through the whole backward (with `regather`, FSDP's ZeRO-3, that includes gathering parameters).
#include <functional>
#include <unordered_map>
#include <unordered_set>

#include "thundercc/ir/rewrite.h"
#include "thundercc/passes/passes.h"

namespace thundercc {
namespace {

bool is_backward(const BoundSymbol& b) { return b.has_tag("BACKWARD"); }

}  // namespace

ForwardBackward split_forward_backward(const Trace& joint, bool regather) {
  ForwardBackward fb{joint.derive("Forward-backward split"), joint.derive("Forward-backward split"), 0};
  fb.forward.inputs.pop_back();  // the cotangents are the backward's
  const Value& cotangents = joint.inputs.back().value;
  const Value& primal = joint.output.items()[0];
  const Value& grads = joint.output.items()[1];

  std::vector<const BoundSymbol*> backward;
  for (const auto& b : joint.bound_symbols)
    if (is_backward(b)) backward.push_back(&b);
    else fb.forward.bound_symbols.push_back(b);

  // What the backward reads from the forward.
  std::unordered_set<const void*> defined, read;
  for_each_proxy(cotangents, [&](const Value& v) { defined.insert(proxy_key(v)); });
  auto note_read = [&](const Value& v) {
    if (!defined.count(proxy_key(v))) read.insert(proxy_key(v));
  };
  for (const BoundSymbol* b : backward) {
    for (const auto& in : b->input_proxies()) note_read(in);
    for_each_proxy(b->output, [&](const Value& v) { defined.insert(proxy_key(v)); });
  }
  for_each_proxy(grads, note_read);

  SavedForBackward chosen = rematerialize(fb.forward, read, regather);
  fb.saved_bytes = chosen.bytes;
  fb.forward.output = Value::tuple({primal, Value::tuple(chosen.saved)});

  fb.backward.name = "backward_fn";
  fb.backward.inputs = {{"saved_for_backward", Value::tuple(chosen.saved)}, {"cotangents", cotangents}};
  // Recomputations, each before the first statement reading one of its results.
  std::unordered_map<const void*, const BoundSymbol*> recomputing;
  for (const BoundSymbol* b : chosen.recomputed)
    for (const Value& v : b->output_proxies()) recomputing[proxy_key(v)] = b;
  std::unordered_set<const BoundSymbol*> emitted;
  std::function<void(const Value&)> recompute = [&](const Value& v) {
    auto it = recomputing.find(proxy_key(v));
    if (it == recomputing.end() || !emitted.insert(it->second).second) return;
    for (const Value& in : it->second->input_proxies()) recompute(in);
    fb.backward.bound_symbols.push_back(*it->second);
  };
  for (const BoundSymbol* b : backward) {
    for (const Value& in : b->input_proxies()) recompute(in);
    fb.backward.bound_symbols.push_back(*b);
  }
  for_each_proxy(grads, recompute);
  fb.backward.output = grads;
  return fb;
}

}  // namespace thundercc
