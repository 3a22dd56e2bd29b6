// Fusion: the fuser executor's pass, run right after claiming. It groups maximal runs of
// consecutive statements the fuser claimed into regions, each one fusion bound symbol printed as
// Thunder prints an nvFuser region, `(t5,) = fuser_0(a, b)`, with the region's prims as its
// subsymbols. A region grows while the next statement fits its iteration space
// (codegen/fusion_region.h), so each region is one generated kernel. Its inputs are what it reads
// from outside; its outputs are what later statements or the trace's return read. A run of
// broadcasts alone computes nothing worth a kernel: those prims go back to the torch executor.
#include <algorithm>
#include <limits>
#include <unordered_map>

#include "thundercc/codegen/fusion_region.h"
#include "thundercc/errors.h"
#include "thundercc/ir/rewrite.h"
#include "thundercc/passes/passes.h"

namespace thundercc {
namespace {

class RegionBuilder {
 public:
  RegionBuilder(const Trace& trace, SymbolTable& symbols, Trace& out) : symbols_(symbols), out_(out) {
    for (size_t i = 0; i < trace.bound_symbols.size(); ++i)
      for (const auto& v : trace.bound_symbols[i].input_proxies()) last_use_[proxy_key(v)] = i;
    for_each_proxy(trace.output, [&](const Value& v) { last_use_[proxy_key(v)] = std::numeric_limits<size_t>::max(); });
  }

  // Takes the prim of statement `index`, which the fuser claimed.
  void take(const BoundSymbol& claimed, size_t index) {
    const BoundSymbol& prim = claimed.subsymbols.at(0);
    if (region_.add(prim)) return;
    flush(index);
    check(region_.add(prim), [&] { return str("fuser: claimed a statement no region takes: ", prim.sym->id); });
  }

  // Ends the current region; statements from `end` on are outside it.
  void flush(size_t end) {
    if (region_.empty()) return;
    if (region_.computes()) out_.bound_symbols.push_back(fusion(end));
    else give_back();
    region_ = codegen::RegionAnalysis();
  }

 private:
  SymbolTable& symbols_;
  Trace& out_;
  std::unordered_map<const void*, size_t> last_use_;
  codegen::RegionAnalysis region_;

  BoundSymbol fusion(size_t end) {
    Values inputs, outputs;
    BoundSymbol f;
    auto is_input = [&](const Value& a) {
      return std::any_of(inputs.begin(), inputs.end(), [&](const Value& x) { return proxy_key(x) == proxy_key(a); });
    };
    for (const auto& b : region_.statements()) {
      for (const auto& a : b.args)
        if (a.is_tensor() && !region_.defines(a) && !is_input(a)) inputs.push_back(a);
      for (const auto& o : b.output_proxies()) {
        auto it = last_use_.find(proxy_key(o));
        if (it != last_use_.end() && it->second >= end) outputs.push_back(o);
      }
      for (const auto& tag : b.tags)
        if (std::find(f.tags.begin(), f.tags.end(), tag) == f.tags.end()) f.tags.push_back(tag);
    }
    f.sym = &region_symbol(inputs.size());
    f.args = inputs;
    f.output = Value::tuple(outputs);
    f.subsymbols = region_.statements();
    f.source = f.subsymbols.front().source;
    return f;
  }

  // fuser_0, fuser_1, ...: numbered across the compilation (its forward and backward).
  const Symbol& region_symbol(size_t arity) {
    int n = 0;
    while (symbols_.find("fuser_" + std::to_string(n))) ++n;
    Symbol s;
    s.id = s.name = "fuser_" + std::to_string(n);
    s.is_prim = true;
    s.executor = "fuser";
    s.tags = {kOutBuffer};  // the generated kernel writes into the buffers it is given
    std::string params;
    for (size_t k = 0; k < arity; ++k) params += str(k ? ", " : "", "a", k);
    s.signature = Signature::parse(arity ? params + ", /" : "");
    return symbols_.add(std::move(s));
  }

  void give_back() {
    Trace piece = out_.derive("");
    piece.bound_symbols = region_.statements();
    piece = transform_for_execution(piece, {&ExecutorRegistry::global().get("torch")});
    for (auto& b : piece.bound_symbols) out_.bound_symbols.push_back(std::move(b));
  }
};

}  // namespace

Trace fuse_regions(const Trace& trace, SymbolTable& symbols) {
  Trace out = trace.derive("Fusion");
  out.output = trace.output;
  RegionBuilder regions(trace, symbols, out);
  for (size_t i = 0; i < trace.bound_symbols.size(); ++i) {
    const BoundSymbol& b = trace.bound_symbols[i];
    if (b.sym->id.starts_with("fuser:prims.")) {  // a prim the fuser claimed
      regions.take(b, i);
      continue;
    }
    regions.flush(i);
    out.bound_symbols.push_back(b);
  }
  regions.flush(trace.bound_symbols.size());
  return out;
}

}  // namespace thundercc
