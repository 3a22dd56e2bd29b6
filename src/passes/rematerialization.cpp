// Rematerialization: of the forward values the backward reads, which the forward saves and which
// the backward recomputes from saved ones. As Thunder does between a forward and a backward
// fusion, this is a minimum cut of the forward's dataflow graph, so that a chain of cheap ops
// (elementwise and shape prims, never reductions, matrix products or random ops) is recomputed
// from one saved value instead of saving each of its results. Saving a value costs its bytes; a
// forward input costs nothing, since the caller keeps it alive anyway, unless the forward writes
// over it (an input modified in place). Of the cheapest cuts, the one that recomputes least is
// taken; a recomputed chain is at most 16 statements long. With `regather` (FSDP's ZeRO-3), a
// parameter's gather from its shard is recomputable too: the backward gathers it again rather
// than the forward keeping the whole parameter alive for it.
#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "thundercc/ir/rewrite.h"
#include "thundercc/passes/passes.h"
#include "thundercc/support/min_cut.h"

namespace thundercc {
namespace {

bool is_cheap(const BoundSymbol& b, bool regather) {
  // A random op would draw again; a statement kept for its effect (copy_) would act twice.
  if (b.sym->has_tag("RANDOM_OP") || b.sym->has_tag("DONT_DCE")) return false;
  if (regather && (b.sym->id == "prims.all_gather" || b.sym->id == "prims.wait")) return true;
  if (b.sym->is_prim) return b.sym->has_tag("ELEMENTWISE_OP") || b.sym->has_tag("SHAPE_OP");
  if (b.subsymbols.empty()) return false;
  for (const auto& s : b.subsymbols)
    if (!is_cheap(s, regather)) return false;
  return true;
}

int64_t bytes_of(const Value& v) { return v.is_tensor() ? v.as_tensor().meta().bytes() : 0; }

}  // namespace

SavedForBackward rematerialize(const Trace& forward, const std::unordered_set<const void*>& read_by_backward, bool regather) {
  // Each value is an edge in -> out whose capacity is the cost of saving it; each cheap statement
  // a node joining its inputs' out nodes to its outputs' in nodes. The source reaches what the
  // forward has to compute anyway, the sink is reached from what the backward reads.
  MinCut graph(2);
  const int source = 0, sink = 1;
  struct Ends {
    int in, out;
  };
  std::unordered_map<const void*, Ends> ends;
  std::vector<Value> values;  // in definition order
  auto add_value = [&](const Value& v, int64_t cost) {
    if (ends.count(proxy_key(v))) return false;
    Ends e{graph.add_node(), graph.add_node()};
    ends[proxy_key(v)] = e;
    values.push_back(v);
    graph.add_edge(e.in, e.out, cost);
    if (read_by_backward.count(proxy_key(v))) graph.add_edge(e.out, sink, MinCut::kInfinite);
    return true;
  };
  for (const auto& in : forward.inputs)
    for_each_proxy(in.value, [&](const Value& v) {
      if (add_value(v, 0)) graph.add_edge(source, ends[proxy_key(v)].in, MinCut::kInfinite);
    });
  // The values a statement kept for its effect touches (copy_ writing an input modified in place)
  // may hold another value once the forward ends: nothing is recomputed from them.
  std::unordered_set<const void*> overwritten;
  for (const BoundSymbol& b : forward.bound_symbols)
    if (b.sym->has_tag("DONT_DCE"))
      for (const Value& v : b.input_proxies()) overwritten.insert(proxy_key(v));
  // The cut weighs memory only, so it would recompute any chain from an input rather than save a
  // byte; recomputed chains are kept to kLongestChain statements: a longer one is cut by saving.
  constexpr int kLongestChain = 16;
  std::unordered_map<const void*, int> chain;  // recomputable statements ending at a value
  auto recomputable = [&](const BoundSymbol& b) {
    if (!is_cheap(b, regather)) return false;
    int longest = 0;
    for (const Value& v : b.input_proxies()) {
      if (overwritten.count(proxy_key(v))) return false;
      if (auto it = chain.find(proxy_key(v)); it != chain.end()) longest = std::max(longest, it->second);
    }
    if (longest >= kLongestChain) return false;
    for (const Value& v : b.output_proxies()) chain[proxy_key(v)] = longest + 1;
    return true;
  };
  std::vector<int> statement_node(forward.bound_symbols.size(), -1);
  std::unordered_map<const void*, size_t> producer;
  for (size_t i = 0; i < forward.bound_symbols.size(); ++i) {
    const BoundSymbol& b = forward.bound_symbols[i];
    std::vector<Value> outputs;
    for (const Value& v : b.output_proxies())
      if (add_value(v, bytes_of(v))) {
        outputs.push_back(v);
        producer[proxy_key(v)] = i;
      }
    if (!recomputable(b)) {
      for (const Value& v : outputs) graph.add_edge(source, ends[proxy_key(v)].in, MinCut::kInfinite);
      continue;
    }
    statement_node[i] = graph.add_node();
    for (const Value& v : b.input_proxies())
      if (auto it = ends.find(proxy_key(v)); it != ends.end()) graph.add_edge(it->second.out, statement_node[i], MinCut::kInfinite);
    for (const Value& v : outputs) graph.add_edge(statement_node[i], ends[proxy_key(v)].in, MinCut::kInfinite);
  }
  graph.solve(source, sink);

  SavedForBackward result;
  for (size_t i = 0; i < forward.bound_symbols.size(); ++i)
    if (statement_node[i] >= 0 && graph.on_sink_side(statement_node[i])) result.recomputed.push_back(&forward.bound_symbols[i]);
  for (const Value& v : values) {
    const Ends& e = ends[proxy_key(v)];
    auto p = producer.find(proxy_key(v));
    bool recomputed = p != producer.end() && statement_node[p->second] >= 0 && graph.on_sink_side(statement_node[p->second]);
    if (!recomputed && !graph.on_sink_side(e.in) && graph.on_sink_side(e.out)) {
      result.saved.push_back(v);
      result.bytes += bytes_of(v);
    }
  }
  return result;
}

}  // namespace thundercc
