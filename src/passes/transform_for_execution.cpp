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
// Claiming happens in two steps so that nothing is recorded and then undone: first decide (only
// checkers run), then rewrite. A claim by an operator becomes one call of it, bound to the
// operator's own signature, with the original bound symbol kept as its subsymbol (printed as a
// comment); a claim by an execution transform becomes what the transform records (through the
// trace rewriter), itself claimed in turn where it calls symbols no executor owns.
#include <algorithm>

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

  // Appends the claimed form of `b` to `out`; `outermost` names the statement in errors (null: `b`
  // is the statement). `b` is moved along, not copied: claiming a whole trace copies nothing.
  void claim(BoundSymbol b, std::vector<BoundSymbol>& out, const BoundSymbol* outermost = nullptr) {
    aliases_.apply(b);
    if (!b.sym->executor.empty()) {  // already an executor's operator
      out.push_back(std::move(b));
      return;
    }
    for (const Executor* ex : executors_)
      if (can_run(*ex, b)) return rewrite(*ex, std::move(b), out);
    const BoundSymbol& statement = outermost ? *outermost : b;
    if (b.sym->is_prim || b.subsymbols.empty()) {
      std::string names;
      for (const Executor* ex : executors_) names += (names.empty() ? "" : ", ") + ex->name();
      throw ThunderError("RuntimeError", str("Failed to find an executor for bound symbol ", print_bound_symbol(statement),
                                             "\n(no executor of [", names, "] runs ", b.sym->qualified_name(), ")",
                                             statement.source.empty() ? "" : "\n  at " + statement.source));
    }
    // Copied, not moved: `statement` may be `b`, printed whole if a later subsymbol fails.
    for (const auto& s : b.subsymbols) claim(s, out, &statement);
  }

 private:
  const std::vector<const Executor*>& executors_;
  ValueMap aliases_;

  // Binding the call is most of claiming's cost: only for a symbol the executor implements.
  static const Implementation* implementation(const Executor& ex, const BoundSymbol& b) {
    if (!ex.implementations().count(b.sym->id)) return nullptr;
    return ex.implementation_for(*b.sym, b.sym->bind(b.args, b.kwargs));
  }

  // Whether `ex` alone runs `b`, directly or through its whole decomposition. Only checkers run.
  static bool can_run(const Executor& ex, const BoundSymbol& b) {
    if (implementation(ex, b)) return true;
    if (b.sym->is_prim) return false;
    // An empty decomposition that returns its input (contiguous, dropout in eval) has nothing to
    // run; one that makes a value (a LAPACK factorization) needs its executor's own kernel.
    if (b.is_opaque()) return false;
    for (const auto& s : b.subsymbols)
      if (!can_run(ex, s)) return false;
    return true;
  }

  // Emits `b` as `ex` runs it (can_run(ex, b) holds).
  void rewrite(const Executor& ex, BoundSymbol b, std::vector<BoundSymbol>& out) {
    aliases_.apply(b);
    const Implementation* impl = implementation(ex, b);
    if (!impl) {
      for (auto& s : b.subsymbols) rewrite(ex, std::move(s), out);
      return;
    }
    if (impl->op) return out.push_back(operator_call(ex, *impl->op, std::move(b)));
    Args args = b.sym->bind(b.args, b.kwargs);
    Replacement r = replace_bound_symbol(b, [&] { return impl->execution_transform(args); });
    for (auto& e : r.bound_symbols) claim(std::move(e), out, &b);
    // Aliases found now apply to what follows (the statements after b, and the trace's output).
    aliases_.merge(r.aliases);
  }

  // `b` run as `op`: the call bound to the operator's own signature.
  static BoundSymbol operator_call(const Executor& ex, const Symbol& op, BoundSymbol b) {
    Args bound = [&] {
      try {
        return op.bind(b.args, b.kwargs);
      } catch (const ThunderError& e) {
        throw ThunderError("TypeError", str("executor ", ex.name(), ": its operator ", op.qualified_name(), "(",
                                            op.signature.str(), ") cannot take the call it claims, ",
                                            print_bound_symbol(b, {.depth = 0}), ": ", e.what()));
      }
    }();
    BoundSymbol call;
    call.sym = &op;
    std::tie(call.args, call.kwargs) = op.normalize(bound);
    call.output = b.output;
    call.source = b.source;
    call.tags = b.tags;
    // A statement kept for its effect (copy_, a guard) stays so under the operator that runs it.
    if (b.sym->has_tag("DONT_DCE") && !b.has_tag("DONT_DCE")) call.tags.push_back("DONT_DCE");
    call.subsymbols.push_back(std::move(b));
    return call;
  }
};

}  // namespace

Trace transform_for_execution(Trace trace, const std::vector<const Executor*>& executors) {
  Trace out = trace.derive("Transform for execution");
  TracingScope scope(out);  // execution transforms name their new proxies in this trace's series
  Claimer claimer(executors);
  std::vector<BoundSymbol> claimed;
  for (auto& b : trace.bound_symbols) {
    size_t first = claimed.size();
    const std::vector<std::string> tags = b.tags;
    claimer.claim(std::move(b), claimed);
    // Claimed statements keep the tags of the statement they came from (BACKWARD, DONT_DCE).
    for (size_t i = first; i < claimed.size(); ++i)
      for (const auto& tag : tags)
        if (std::find(claimed[i].tags.begin(), claimed[i].tags.end(), tag) == claimed[i].tags.end()) claimed[i].tags.push_back(tag);
  }
  out.bound_symbols = std::move(claimed);
  out.output = claimer.aliases().apply(trace.output);
  return out;
}

}  // namespace thundercc
