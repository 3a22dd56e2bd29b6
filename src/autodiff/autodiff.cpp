// The grad transform (thunder/core/transforms.py): every bound symbol of a trace is replaced by
// what its grad rule records; the forward parts stay in order, the backward parts run in reverse,
// each reading the gradients of its results (get_grad) and adding to those of its inputs
// (put_grad). The backward parts are recorded once, when their rule runs, with placeholders for
// the gradients they read; assembling the backward substitutes the accumulated gradients.
#include "thundercc/autodiff/autodiff.h"

#include <unordered_map>
#include <unordered_set>

#include "thundercc/errors.h"
#include "thundercc/ir/printer.h"
#include "thundercc/ir/pyliteral.h"
#include "thundercc/ir/rewrite.h"
#include "thundercc/langs/torch.h"

namespace thundercc {

namespace {

// get_grad and put_grad record markers, never executed: the transform consumes them.
Symbol marker_symbol(const char* name, const char* signature) {
  Symbol s;
  s.id = std::string("autodiff.") + name;
  s.name = name;
  s.signature = Signature::parse(signature);
  s.meta = [](const Args&) -> Value { return None{}; };
  s.is_prim = true;
  return s;
}
const Symbol& get_grad_symbol() {
  static const Symbol s = marker_symbol("get_grad", "a, /");
  return s;
}
const Symbol& put_grad_symbol() {
  static const Symbol s = marker_symbol("put_grad", "a, grad, /");
  return s;
}
bool is_marker(const BoundSymbol& b) { return b.sym == &get_grad_symbol() || b.sym == &put_grad_symbol(); }

struct Rules {
  std::unordered_map<std::string, GradTransform> joint;
  struct Augmented {
    AugmentedForward forward;
    Checker applies;  // empty: every call
  };
  std::unordered_map<std::string, Augmented> augmented_forward;
  std::unordered_map<std::string, BackwardRule> backward;
  std::unordered_set<std::string> complex;
};

Rules& rule_table() {
  static Rules rules;
  return rules;
}

const Rules& rules() { return rule_table(); }

const std::string& canonical_id(std::string_view id) { return SymbolTable::global().get(id).id; }

bool requires_grad(const Value& v) { return v.is_tensor() && v.as_tensor().requires_grad(); }

// The pair style as a joint rule: forward, then the backward on the cotangents of the results.
GradTransform joint_from_pair(const AugmentedForward& forward, const BackwardRule& backward) {
  return [forward, backward](const Args& x) -> Value {
    auto [primal, saved] = forward(x);
    Values cotangents;
    for (const auto& t : tensors_in(primal)) cotangents.push_back(get_grad(t));
    Values grads = backward(saved, cotangents);
    const auto& params = x.symbol().signature.params;
    check(grads.size() == params.size(), [&] {
      return str("the backward of ", x.symbol().id, " returned ", grads.size(), " gradients for ", params.size(), " parameters");
    });
    for (size_t i = 0; i < grads.size(); ++i)
      if (!grads[i].is_none()) put_grad(x.values()[i], grads[i]);
    return primal;
  };
}

// One statement's part of the backward: what its rule recorded from the first marker on.
using BackwardPart = std::vector<BoundSymbol>;

class GradTransformer {
 public:
  explicit GradTransformer(const std::vector<const Executor*>& executors) : executors_(executors) {}

  std::vector<BoundSymbol> forward;
  std::vector<BackwardPart> backward_parts;
  std::vector<std::string> backward_stems;  // per part: the statement it differentiates, whose name stems its values
  ValueMap aliases;  // outputs that a rule passed through

  // A statement of the program: what its rule makes, forward and backward, is named for it.
  void differentiate_statement(const BoundSymbol& b) {
    current_stem_ = tracing::statement_stem(b);
    tracing::NameStem naming(current_stem_);
    try {
      differentiate(b);
    } catch (const ThunderError& e) {
      // A rule's failure names the program's statement and line, not only the prim it reached.
      throw ThunderError(e.type(), str(e.what(), "\n  in the gradient of ", print_bound_symbol(b, {.depth = 0}),
                                       b.source.empty() ? "" : "\n  at " + b.source));
    }
  }

  void differentiate(const BoundSymbol& original) {
    BoundSymbol b = original;
    aliases.apply(b);
    // Only statements from inputs that require grad to results that do carry a gradient.
    bool from_grad = false, to_grad = false;
    for (const auto& in : b.input_proxies()) from_grad = from_grad || requires_grad(in);
    for (const auto& out : b.output_proxies()) to_grad = to_grad || requires_grad(out);
    if (!from_grad || !to_grad) return forward.push_back(std::move(b));
    if (carries_complex_grad(b)) {
      if (!b.sym->is_prim && !b.subsymbols.empty()) return differentiate_decomposition(b);  // its prims' rules decide
      check(!b.sym->is_prim || rules().complex.count(b.sym->id), [&] {
        return str("the gradient of ", b.sym->id, " for complex tensors is not supported: ", print_bound_symbol(b, {.depth = 0}));
      }, "NotImplementedError");
    }
    if (GradTransform rule = rule_for(b)) return apply(rule, b);
    if (!b.sym->is_prim && !b.is_opaque()) return differentiate_decomposition(b);
    throw ThunderError("NotImplementedError",
                       str("Failed to find a gradient transform for bound symbol ", print_bound_symbol(b, {.depth = 0})));
  }

 private:
  const std::vector<const Executor*>& executors_;
  std::string current_stem_;

  void add_backward_part(BackwardPart part) {
    backward_parts.push_back(std::move(part));
    backward_stems.push_back(current_stem_);
  }

  static bool carries_complex_grad(const BoundSymbol& b) {
    auto complex_grad = [](const Value& v) { return requires_grad(v) && v.as_tensor().dtype().is_complex(); };
    for (const auto& v : b.input_proxies())
      if (complex_grad(v)) return true;
    for (const auto& v : b.output_proxies())
      if (complex_grad(v)) return true;
    return false;
  }

  GradTransform rule_for(const BoundSymbol& b) const {
    Args args = b.sym->bind(b.args, b.kwargs);
    for (const Executor* ex : executors_)
      if (const Implementation* impl = ex->implementation_for(*b.sym, args)) {
        if (impl->grad_transform) return impl->grad_transform;
        break;  // the first executor that runs the symbol decides
      }
    const Rules& r = rules();
    if (auto it = r.joint.find(b.sym->id); it != r.joint.end()) return it->second;
    auto fwd = r.augmented_forward.find(b.sym->id);
    auto bwd = r.backward.find(b.sym->id);
    if (fwd != r.augmented_forward.end() && bwd != r.backward.end() && (!fwd->second.applies || fwd->second.applies(args)))
      return joint_from_pair(fwd->second.forward, bwd->second);
    return nullptr;
  }

  // A symbol without a rule is differentiated through its decomposition. When an executor runs
  // the symbol whole, the forward keeps it whole and the backward recomputes the intermediates of
  // the decomposition it reads (Thunder's rematerialization); random decompositions never are.
  void differentiate_decomposition(const BoundSymbol& b) {
    size_t first = forward.size();
    for (const auto& s : b.subsymbols) differentiate(s);
    if (!runs_whole(b) || is_random(b)) return;
    std::unordered_set<const void*> results;
    for_each_proxy(b.output, [&](const Value& v) { results.insert(proxy_key(v)); });
    // A statement making a result and other values (var_mean inside var) cannot be split
    // between the forward and the recomputation: then the forward stays decomposed.
    std::vector<bool> makes_result(forward.size() - first);
    for (size_t i = first; i < forward.size(); ++i) {
      size_t hits = 0, all = 0;
      for_each_proxy(forward[i].output, [&](const Value& v) { hits += results.count(proxy_key(v)); ++all; });
      if (hits && hits != all) return;
      makes_result[i - first] = hits != 0;
    }
    BackwardPart recompute;
    for (size_t i = first; i < forward.size(); ++i)
      if (!makes_result[i - first]) recompute.push_back(std::move(forward[i]));
    forward.resize(first);
    forward.push_back(b);
    for_each_proxy(b.output, [&](const Value& v) { aliases.erase(v); });
    // Parts run in reverse: this one runs before the parts of the decomposition's statements.
    add_backward_part(std::move(recompute));
  }

  bool runs_whole(const BoundSymbol& b) const {
    Args args = b.sym->bind(b.args, b.kwargs);
    for (const Executor* ex : executors_)
      if (ex->implementation_for(*b.sym, args)) return true;
    return false;
  }

  static bool is_random(const BoundSymbol& b) {
    if (b.sym->has_tag("RANDOM_OP")) return true;
    for (const auto& s : b.subsymbols)
      if (is_random(s)) return true;
    return false;
  }

  void apply(const GradTransform& rule, const BoundSymbol& b) {
    Args args = b.sym->bind(b.args, b.kwargs);
    Replacement r = replace_bound_symbol(b, [&] { return rule(args); });
    size_t split = 0;
    while (split < r.bound_symbols.size() && !is_marker(r.bound_symbols[split])) ++split;
    for (size_t i = 0; i < split; ++i) {
      BoundSymbol& f = r.bound_symbols[i];
      // A rule records its own symbol again (the forward of a cast): the tags stay with the call.
      if (f.sym == b.sym) f.tags = b.tags;
      forward.push_back(std::move(f));
    }
    add_backward_part(BackwardPart(std::make_move_iterator(r.bound_symbols.begin() + split),
                                   std::make_move_iterator(r.bound_symbols.end())));
    aliases.merge(r.aliases);
  }
};

// Runs the backward parts in reverse, from the gradients of the outputs; returns the statements
// and the gradient of every value that received one.
class BackwardAssembler {
 public:
  std::unordered_map<const void*, Value> grads;
  std::vector<BoundSymbol> statements;

  void seed(const Value& output, const Value& grad) { accumulate(output, grad); }

  // `stems[i]` names the values part i makes here (its accumulations and zeros).
  void run(const std::vector<BackwardPart>& parts, const std::vector<std::string>& stems) {
    tracing::SinkGuard guard(statements);  // accumulations and zeros are recorded here
    for (size_t i = parts.size(); i-- > 0;) {
      tracing::NameStem naming(stems[i]);
      run_part(parts[i]);
    }
  }

  Value grad_of(const Value& v) const {
    auto it = grads.find(proxy_key(v));
    return it == grads.end() ? Value() : it->second;
  }

 private:
  void accumulate(const Value& target, const Value& grad) {
    auto [it, inserted] = grads.emplace(proxy_key(target), grad);
    if (!inserted) it->second = ltorch::add(it->second, grad);
  }

  void run_part(const BackwardPart& part) {
    // A part runs when a gradient flows into one of its results; results no gradient reaches
    // read zeros.
    bool reached = false;
    for (const auto& b : part)
      if (b.sym == &get_grad_symbol()) reached = reached || grads.count(proxy_key(b.args[0]));
    bool has_reads = false;
    for (const auto& b : part) has_reads = has_reads || b.sym == &get_grad_symbol();
    if (has_reads && !reached) return;
    ValueMap read;
    for (const auto& original : part) {
      BoundSymbol b = original;
      read.apply(b);
      if (b.sym == &get_grad_symbol()) {
        Value g = grad_of(b.args[0]);
        // Zeros from the metadata alone: the forward value itself may not exist in the backward.
        const Tensor& result = b.args[0].as_tensor();
        read.set(b.output, g.is_none() ? Value(ltorch::full(result.shape(), 0.0, result.device(), result.dtype())) : g);
      } else if (b.sym == &put_grad_symbol()) {
        accumulate(b.args[0], b.args[1]);
      } else {
        tracing::active_sink().push_back(std::move(b));
      }
    }
  }
};

// The stable name style names a value's gradient for the value (t_grad_mlp_gelu_0): what the
// backward passes from one statement's rule to the next then keeps its name when a rule changes.
// A gradient computed in the backward takes the name of the first value it is the gradient of.
void name_gradients(const std::vector<TraceInput>& inputs, const std::vector<BoundSymbol>& forward, BackwardAssembler& backward,
                    NameSet& names) {
  std::unordered_set<const void*> computed;
  for (const auto& b : backward.statements)
    for (const auto& o : b.output_proxies()) computed.insert(proxy_key(o));
  ValueMap rename;
  auto name_gradient_of = [&](const Value& v) {
    if (!v.is_tensor()) return;
    Value g = backward.grad_of(v);
    if (!g.is_tensor() || !computed.count(proxy_key(g)) || rename.contains(g)) return;
    const std::string& of = v.as_tensor().name();
    std::string name = "t_grad_" + (of.starts_with("t_") ? of.substr(2) : of);
    if (names.contains(name)) return;
    rename.set(g, make_named_tensor(name, g.as_tensor().meta()));
  };
  for (const auto& in : inputs) for_each_proxy(in.value, name_gradient_of);
  for (const auto& b : forward)
    for (const auto& o : b.output_proxies()) name_gradient_of(o);
  if (rename.empty()) return;
  for (auto& b : backward.statements) rename.apply(b);
  for (auto& [key, g] : backward.grads) g = rename.apply(g);
}

std::vector<Tensor> grad_outputs(const Value& output) {
  std::vector<Tensor> out;
  for (const auto& t : tensors_in(output))
    if (t.requires_grad()) out.push_back(t);
  return out;
}

struct Differentiated {
  Trace trace;  // forward statements then backward statements (tagged BACKWARD)
  Value output;
  Values input_grads;  // per input tensor; None where no gradient flows
};

// Differentiates `trace`; `seed` gives each output's gradient (recorded in the backward).
Differentiated differentiate(const Trace& trace, const std::vector<const Executor*>& executors, const std::string& provenance,
                             const std::function<Value(const Tensor&)>& seed) {
  Differentiated d{trace.derive(provenance), {}, {}};
  TracingScope scope(d.trace);
  GradTransformer transformer(executors);
  for (const auto& b : trace.bound_symbols) transformer.differentiate_statement(b);
  d.output = transformer.aliases.apply(trace.output);

  BackwardAssembler backward;
  {
    tracing::SinkGuard guard(backward.statements);
    tracing::NameStem naming("cotangent");
    for (const auto& out : grad_outputs(d.output)) backward.seed(out, seed(out));
  }
  backward.run(transformer.backward_parts, transformer.backward_stems);
  for (auto& b : backward.statements) b.tags.push_back("BACKWARD");
  if (d.trace.names->style() == NameStyle::Stable) name_gradients(trace.inputs, transformer.forward, backward, *d.trace.names);
  for (const auto& in : trace.inputs)
    for (const auto& t : tensors_in(in.value)) d.input_grads.push_back(backward.grad_of(t));
  d.trace.bound_symbols = std::move(transformer.forward);
  for (auto& b : backward.statements) d.trace.bound_symbols.push_back(std::move(b));
  return d;
}

}  // namespace

Tensor get_grad(const Value& forward_result) {
  check(forward_result.is_tensor(), "get_grad: expected a tensor");
  const Tensor& t = forward_result.as_tensor();
  BoundSymbol b;
  b.sym = &get_grad_symbol();
  b.args = {forward_result};
  Tensor placeholder = Tensor::make(t.shape(), t.dtype(), t.device());
  b.output = placeholder;
  tracing::active_sink().push_back(std::move(b));
  return placeholder;
}

void put_grad(const Value& input, const Value& grad) {
  if (!requires_grad(input) || grad.is_none()) return;
  const Tensor& x = input.as_tensor();
  check(grad.is_tensor() && grad.as_tensor().shape() == x.shape() && grad.as_tensor().dtype() == x.dtype(), [&] {
    return str("put_grad: the gradient of ", x.name(), " (", x.meta().type_string(), ") must have its shape and dtype, but it is ",
               grad.is_tensor() ? grad.as_tensor().meta().type_string() : py_repr(grad));
  });
  BoundSymbol b;
  b.sym = &put_grad_symbol();
  b.args = {input, grad};
  tracing::active_sink().push_back(std::move(b));
}

void put_grads(const Values& inputs, const Values& grads) {
  check(inputs.size() == grads.size(), "put_grads: expected as many gradients as inputs");
  for (size_t i = 0; i < inputs.size(); ++i) put_grad(inputs[i], grads[i]);
}

void register_grad(std::string_view symbol_id, GradTransform rule) { rule_table().joint[canonical_id(symbol_id)] = std::move(rule); }
void register_augmented_forward(std::string_view symbol_id, AugmentedForward forward, Checker applies) {
  rule_table().augmented_forward[canonical_id(symbol_id)] = {std::move(forward), std::move(applies)};
}
void register_backward(std::string_view symbol_id, BackwardRule backward) {
  rule_table().backward[canonical_id(symbol_id)] = std::move(backward);
}

void declare_complex_rule(std::string_view symbol_id) { rule_table().complex.insert(canonical_id(symbol_id)); }

bool has_grad_rule(const Symbol& sym) {
  const Rules& r = rules();
  return r.joint.count(sym.id) || (r.augmented_forward.count(sym.id) && r.backward.count(sym.id));
}

Trace joint_forward_backward(const Trace& trace, const std::vector<const Executor*>& executors) {
  Values cotangents;
  Differentiated d = differentiate(trace, executors, "Grad transform", [&](const Tensor& out) {
    Tensor cotangent = Tensor::make(out.shape(), out.dtype(), out.device());
    cotangents.push_back(cotangent);
    return cotangent;
  });
  d.trace.inputs.push_back({"cotangents", Value::tuple(cotangents)});
  d.trace.output = Value::tuple({d.output, Value::tuple(d.input_grads)});
  return std::move(d.trace);
}

Trace grad_of_inputs(const Trace& trace, const std::vector<const Executor*>& executors) {
  Differentiated d = differentiate(trace, executors, "Grad transform",
                                   [](const Tensor& out) {
                                     return ltorch::op("torch.full", {Value::ints(out.shape()), 1.0},
                                                       {{"device", TorchDevice{out.device()}}, {"dtype", TorchDType{out.dtype()}}});
                                   });
  d.trace.output = Value::list(d.input_grads);
  return std::move(d.trace);
}

}  // namespace thundercc
