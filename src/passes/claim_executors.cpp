// Transform for execution: executors claim the bound symbols.
//
// For each bound symbol the executors are asked in list order; the first that can run it claims
// it: directly, when it has an implementation whose checker accepts this call, or through its
// decomposition, when it can run every subsymbol that way itself. So an executor listed first
// takes what it can even below a symbol a later executor would take whole (the seeds' add
// executor runs the prims.add inside ltorch.add ahead of the torch executor's torch.add). When no
// single executor can, the subsymbols are claimed one by one with the whole list; a prim that no
// executor runs is an error naming the outermost bound symbol.
//
// A claim by an operator becomes one call of it, with the original bound symbol kept as its
// subsymbol (printed as a comment); a claim by an execution transform becomes what the transform
// records, itself claimed in turn where it calls symbols no executor owns.
#include <unordered_set>

#include "thundercc/errors.h"
#include "thundercc/ir/printer.h"
#include "thundercc/ir/rewrite.h"
#include "thundercc/passes/passes.h"

namespace thundercc {
namespace {

class Claimer {
 public:
  explicit Claimer(const std::vector<const Executor*>& executors) : executors_(executors) {}

  // Outputs that execution transforms replaced by values they passed through.
  const ValueMap& aliases() const { return aliases_; }

  // Appends the claimed form of `b` to `out`; `outermost` names the statement in errors.
  void claim(const BoundSymbol& b, std::vector<BoundSymbol>& out, const BoundSymbol& outermost) {
    if (!b.sym->executor.empty()) {  // already an executor's operator
      out.push_back(b);
      return;
    }
    for (const Executor* ex : executors_)
      if (claim_with(*ex, b, out)) return;
    if (b.sym->is_prim || b.subsymbols.empty()) {
      std::string names;
      for (const Executor* ex : executors_) names += (names.empty() ? "" : ", ") + ex->name();
      throw ThunderError("RuntimeError", str("Failed to find an executor for bound symbol ", print_bound_symbol(outermost),
                                             "\n(no executor of [", names, "] runs ", b.sym->qualified_name(), ")"));
    }
    for (const auto& s : b.subsymbols) claim(s, out, outermost);
  }

 private:
  const std::vector<const Executor*>& executors_;
  ValueMap aliases_;

  // Whether `ex` alone runs `b`, directly or through its whole decomposition.
  bool claim_with(const Executor& ex, const BoundSymbol& b, std::vector<BoundSymbol>& out) {
    Args args = b.sym->bind(b.args, b.kwargs);
    if (const Implementation* impl = ex.implementation_for(*b.sym, args)) {
      apply(*impl, b, args, out);
      return true;
    }
    if (b.sym->is_prim) return false;
    // An empty decomposition (contiguous, dropout in eval) returns its input: nothing to run.
    std::vector<BoundSymbol> flattened;
    for (const auto& s : b.subsymbols)
      if (!claim_with(ex, s, flattened)) return false;
    for (auto& s : flattened) out.push_back(std::move(s));
    return true;
  }

  void apply(const Implementation& impl, const BoundSymbol& b, const Args& args, std::vector<BoundSymbol>& out) {
    if (impl.op) {
      BoundSymbol call;
      call.sym = impl.op;
      call.args = b.args;
      call.kwargs = b.kwargs;
      call.output = b.output;
      call.subsymbols = {b};
      call.source = b.source;
      out.push_back(std::move(call));
      return;
    }
    // Record what the transform emits, then give its results the original outputs' names.
    std::vector<BoundSymbol> emitted;
    Value result;
    {
      tracing::SinkGuard guard(emitted);
      result = impl.execution_transform(args);
    }
    ValueMap rename;
    std::vector<Value> produced, original;
    for_each_proxy(result, [&](const Value& v) { produced.push_back(v); });
    for_each_proxy(b.output, [&](const Value& v) { original.push_back(v); });
    check(produced.size() == original.size(), [&] {
      return str("the execution transform for ", b.sym->id, " returned ", produced.size(), " proxies for ", original.size(), " outputs");
    });
    std::unordered_set<const void*> emitted_outputs;
    for (const auto& e : emitted) for_each_proxy(e.output, [&](const Value& v) { emitted_outputs.insert(proxy_key(v)); });
    for (size_t i = 0; i < produced.size(); ++i) {
      // A result the transform computed takes the original name; one it passed through (an
      // input returned as is) stands for the original output in the statements that follow.
      if (emitted_outputs.count(proxy_key(produced[i]))) rename.set(produced[i], original[i]);
      else aliases_.set(original[i], produced[i]);
    }
    for (auto& e : emitted) {
      rename.apply(e);
      claim(e, out, b);
    }
  }
};

}  // namespace

Trace transform_for_execution(const Trace& trace, const std::vector<const Executor*>& executors) {
  Trace out = trace.derive("Transform for execution");
  TracingScope scope(out);  // execution transforms name their new proxies in this trace's series
  Claimer claimer(executors);
  std::vector<BoundSymbol> claimed;
  for (const auto& original : trace.bound_symbols) {
    BoundSymbol b = original;
    claimer.aliases().apply(b);
    claimer.claim(b, claimed, b);
  }
  out.bound_symbols = std::move(claimed);
  out.output = claimer.aliases().apply(trace.output);
  return out;
}

}  // namespace thundercc
