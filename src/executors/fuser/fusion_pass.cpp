// Fusion: the fuser executor's pass, run right after claiming. It groups the statements the
// fuser claimed, in program order, into maximal regions, each one fusion bound symbol printed as
// Thunder prints an nvFuser region, `(t5,) = fuser_0(a, b)`, with the region's prims as its
// subsymbols. A region grows while the next statement fits its iteration space
// (region_analysis.h), so each region is one generated kernel; a statement that does not
// fit it but is independent of it goes to a second region, placed before it. Its inputs are what
// it reads from outside; its outputs are what statements outside it or the trace's return read.
// A region of broadcasts alone computes nothing worth a kernel: those prims go back to torch.
// Each region is simplified as Thunder simplifies an nvFuser region (simplify_region).
#include <algorithm>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "thundercc/errors.h"
#include "thundercc/executors/fuser/region_analysis.h"
#include "thundercc/ir/rewrite.h"
#include "thundercc/passes/passes.h"

namespace thundercc {
namespace {

// A float-to-float conversion a decomposition made for its arithmetic; a cast the program wrote
// is no such conversion, so it is never elided and reads its own input, rounding as eager does.
bool is_decomposition_float_cast(const BoundSymbol& b) {
  return b.sym->id == "prims.convert_element_type" && b.args.at(0).is_tensor() && b.args[0].as_tensor().dtype().is_float() &&
         b.args.at(1).as_dtype().is_float() && b.has_tag(kDecompositionCast);
}

// Whether simplify_region may change anything: a decomposition's float cast of a value another made, or
// two statements alike in symbol and proxy arguments (the hash ignores constants, so it errs
// toward yes). Most float32 regions have neither, and skip the simplification's copies and keys.
bool may_simplify(const std::vector<BoundSymbol>& statements) {
  std::unordered_set<const void*> converted;
  std::unordered_set<size_t> calls;
  for (const auto& b : statements) {
    if (is_decomposition_float_cast(b)) {
      if (converted.count(proxy_key(b.args[0]))) return true;
      converted.insert(proxy_key(b.output));
    }
    size_t h = std::hash<const void*>()(b.sym);
    for (const auto& a : b.args) h = h * 1000003 ^ std::hash<const void*>()(proxy_key(a));
    if (!calls.insert(h).second) return true;
  }
  return false;
}

// The positions of the statements that `outputs` need, in order.
std::vector<size_t> live_statements(const std::vector<BoundSymbol>& statements, const Values& outputs) {
  std::unordered_set<const void*> needed;
  for (const auto& o : outputs) needed.insert(proxy_key(o));
  std::vector<size_t> live;
  for (size_t k = statements.size(); k-- > 0;) {
    Values outs = statements[k].output_proxies();
    if (std::none_of(outs.begin(), outs.end(), [&](const Value& o) { return needed.count(proxy_key(o)) > 0; })) continue;
    for (const auto& v : statements[k].input_proxies()) needed.insert(proxy_key(v));
    live.push_back(k);
  }
  std::reverse(live.begin(), live.end());
  return live;
}

// A region's statements simplified as Thunder simplifies an nvFuser region. Float round trips of
// the decompositions' own casts are elided (remove_redundant_casts): such a cast reads the value
// its chain of decomposition casts started from, and one back to that value's dtype is gone, its
// readers reading that value. Upcasting each op of a bfloat16 program rounds after every op
// (tanh-GELU written out rounds nine times); without the round trips a region computes in float and
// rounds at its outputs, as ATen's own kernels (F.gelu) do: results change, toward the precision
// of the computation type. Unlike Thunder's nvFuser executor, a cast the program wrote
// (`x.to(torch.float16)`) is no link of a chain: its rounding stays, bit for bit. Then duplicates are
// merged (the decompositions of a region's ops each convert the same input) and what no output
// needs is dropped. A statement whose output the region returns stays (a convert to the same
// dtype where its round trip was elided).
std::vector<BoundSymbol> simplify_region(const std::vector<BoundSymbol>& statements, const Values& outputs) {
  std::unordered_set<const void*> returned;
  for (const auto& o : outputs) returned.insert(proxy_key(o));
  auto is_returned = [&](const BoundSymbol& b) {
    Values outs = b.output_proxies();
    return std::any_of(outs.begin(), outs.end(), [&](const Value& o) { return returned.count(proxy_key(o)) > 0; });
  };
  ValueMap read_instead;
  std::unordered_map<const void*, Value> chain_start;
  std::vector<BoundSymbol> kept;
  for (const auto& statement : statements) {
    BoundSymbol b = statement;
    read_instead.apply(b);
    if (is_decomposition_float_cast(b)) {
      auto it = chain_start.find(proxy_key(b.args[0]));
      Value start = it == chain_start.end() ? b.args[0] : it->second;
      chain_start.emplace(proxy_key(b.output), start);
      if (start.as_tensor().dtype() == b.args[1].as_dtype() && !returned.count(proxy_key(b.output))) {
        read_instead.set(b.output, start);
        continue;
      }
      b.args[0] = start;
    }
    kept.push_back(std::move(b));
  }
  kept = merge_common_subexpressions(std::move(kept), read_instead, is_returned);
  std::vector<BoundSymbol> live;
  for (size_t k : live_statements(kept, outputs)) live.push_back(std::move(kept[k]));
  return live;
}

// A region being grown, with the indices of its statements in the claimed trace.
struct Region {
  fuser::RegionAnalysis analysis;
  std::vector<size_t> indices;
  // Values an earlier region makes that this one computes again for itself (rematerialize), and
  // whether a later region computes again one this one makes (which it may then no longer need).
  std::unordered_set<const void*> recomputed;
  bool lent = false;
};

class RegionBuilder {
 public:
  RegionBuilder(const Trace& trace, const std::vector<bool>& dropped, SymbolTable& symbols, Trace& out) : symbols_(symbols), out_(out) {
    for (size_t i = 0; i < trace.bound_symbols.size(); ++i)
      if (!dropped[i])
        for (const auto& v : trace.bound_symbols[i].input_proxies()) users_[proxy_key(v)].push_back(i);
    for_each_proxy(trace.output, [&](const Value& v) { returned_.insert(proxy_key(v)); });
  }

  // Takes the prim of statement `index`, which the fuser claimed. One that does not fit the
  // region but reads nothing the region defines can run before it: it joins a second region,
  // emitted first, and the region grows on past it (a mask computed over another shape between a
  // scale and the softmax that reads both no longer splits them).
  void take(BoundSymbol claimed, size_t index) {
    BoundSymbol& prim = claimed.subsymbols.at(0);  // moved into the region that adds it
    if (add(region_, std::move(prim), index)) return;
    if (!region_.indices.empty() && !reads_from(prim, region_)) {
      if (add(aside_, std::move(prim), index)) return;
      flush(aside_);
      check(add(aside_, std::move(prim), index), [&] { return str("fuser: claimed a statement no region takes: ", prim.sym->id); });
      return;
    }
    flush();
    check(add(region_, std::move(prim), index), [&] { return str("fuser: claimed a statement no region takes: ", prim.sym->id); });
  }

  // A statement the fuser did not claim: it ends both regions.
  void pass(BoundSymbol b) {
    flush();
    pieces_.push_back({std::nullopt, std::move(b)});
  }

  // The trace's end: the regions rematerialized, then everything written out in order.
  void finish() {
    flush();
    rematerialize();
    for (auto& piece : pieces_) {
      if (!piece.region) out_.bound_symbols.push_back(std::move(piece.statement));
      else if (piece.region->analysis.computes()) out_.bound_symbols.push_back(fusion(*piece.region));
      else give_back(*piece.region);
    }
  }

 private:
  SymbolTable& symbols_;
  Trace& out_;
  std::unordered_map<const void*, std::vector<size_t>> users_;  // the statements reading each value
  std::unordered_set<const void*> returned_;
  Region region_, aside_;
  // The trace as made so far: regions, and the statements between them.
  struct Piece {
    std::optional<Region> region;
    BoundSymbol statement;
  };
  std::vector<Piece> pieces_;
  int next_number_ = 0;  // the regions' symbols are numbered on from here

  // Ends both regions; what comes next is outside them.
  void flush() {
    flush(aside_);
    flush(region_);
  }

  void flush(Region& r) {
    if (r.indices.empty()) return;
    pieces_.push_back({std::move(r), BoundSymbol()});
    r = Region();
  }

  // Where a region's output is read by one later region alone, that region computes it again
  // from the first's inputs instead, when what it then reads beside is fewer bytes: the first no
  // longer writes it, nor the second reads it back (a backward's GELU or SiLU region, which
  // recomputes the forward's intermediate values for the next region's gradient arithmetic,
  // wrote five tensors for it), as Thunder rematerializes between nvFuser regions. Only chains of
  // elementwise prims and broadcasts (no reduction), at most kMaxChain statements, that fit the
  // reading region's domain.
  void rematerialize() {
    constexpr size_t kMaxChain = 16;
    std::unordered_map<const void*, size_t> made_by;  // values a region defines: the piece
    for (size_t p = 0; p < pieces_.size(); ++p)
      if (pieces_[p].region)
        for (const auto& b : pieces_[p].region->analysis.statements())
          for (const auto& o : b.output_proxies()) made_by[proxy_key(o)] = p;
    for (size_t c = 0; c < pieces_.size(); ++c) {
      if (!pieces_[c].region || !pieces_[c].region->analysis.computes()) continue;
      Region& reader = *pieces_[c].region;
      Values read = inputs_of(reader.analysis);
      for (const Value& x : Values(read)) {
        auto made = made_by.find(proxy_key(x));
        if (made == made_by.end() || made->second == c || returned_.count(proxy_key(x))) continue;
        Region& maker = *pieces_[made->second].region;
        if (!maker.analysis.computes() || !read_only_by(x, maker, reader)) continue;
        std::vector<size_t> chain = chain_of(x, maker);
        if (chain.empty() || chain.size() > kMaxChain) continue;
        // What the chain reads that the reader does not read already, against what it saves.
        int64_t added = 0;
        std::unordered_set<const void*> counted;
        for (size_t k : chain)
          for (const auto& a : maker.analysis.statements()[k].input_proxies())
            if (a.is_tensor() && !maker.analysis.defines(a) && counted.insert(proxy_key(a)).second &&
                std::none_of(read.begin(), read.end(), [&](const Value& r) { return proxy_key(r) == proxy_key(a); }))
              added += a.as_tensor().meta().bytes();
        if (added >= x.as_tensor().meta().bytes()) continue;
        Region grown;
        grown.recomputed = reader.recomputed;
        for (size_t k : chain) {
          grown.analysis.add(maker.analysis.statements()[k]);
          grown.indices.push_back(maker.indices[k]);
          for (const auto& o : maker.analysis.statements()[k].output_proxies()) grown.recomputed.insert(proxy_key(o));
        }
        if (grown.analysis.statements().size() != chain.size() ||
            !std::all_of(reader.analysis.statements().begin(), reader.analysis.statements().end(),
                         [&](const BoundSymbol& b) { return grown.analysis.add(b); }))
          continue;
        // The reader's statements read its own copies of the chain's values now.
        for (size_t k : chain)
          for (const auto& o : maker.analysis.statements()[k].output_proxies()) {
            auto& users = users_[proxy_key(o)];
            std::erase_if(users, [&](size_t user) { return std::binary_search(reader.indices.begin(), reader.indices.end(), user); });
          }
        grown.indices.insert(grown.indices.end(), reader.indices.begin(), reader.indices.end());
        std::sort(grown.indices.begin(), grown.indices.end());
        reader = std::move(grown);
        maker.lent = true;
        read = inputs_of(reader.analysis);
      }
    }
  }

  // The values a region reads from outside, in the order its statements first read them.
  static Values inputs_of(const fuser::RegionAnalysis& region) {
    Values inputs;
    std::unordered_set<const void*> seen;
    for (const auto& b : region.statements())
      for (const auto& a : b.args)
        if (a.is_tensor() && !region.defines(a) && seen.insert(proxy_key(a)).second) inputs.push_back(a);
    return inputs;
  }

  // Whether every statement that reads `v` is in `maker` or in `reader`.
  bool read_only_by(const Value& v, const Region& maker, const Region& reader) const {
    auto it = users_.find(proxy_key(v));
    auto in = [](const Region& r, size_t user) { return std::binary_search(r.indices.begin(), r.indices.end(), user); };
    return it != users_.end() && std::all_of(it->second.begin(), it->second.end(), [&](size_t user) { return in(maker, user) || in(reader, user); });
  }

  // The statements of `r` (their positions, in order) that compute `v` from r's inputs; empty
  // where one of them reduces.
  static std::vector<size_t> chain_of(const Value& v, const Region& r) {
    const auto& statements = r.analysis.statements();
    std::unordered_set<const void*> needed{proxy_key(v)};
    std::vector<size_t> chain;
    for (size_t k = statements.size(); k-- > 0;) {
      Values outs = statements[k].output_proxies();
      if (std::none_of(outs.begin(), outs.end(), [&](const Value& o) { return needed.count(proxy_key(o)) > 0; })) continue;
      if (fuser::is_reduction_prim(statements[k].sym->id)) return {};
      for (const auto& a : statements[k].input_proxies()) needed.insert(proxy_key(a));
      chain.push_back(k);
    }
    std::reverse(chain.begin(), chain.end());
    return chain;
  }

  // Moves `prim` in only when the region adds it.
  static bool add(Region& r, BoundSymbol&& prim, size_t index) {
    if (!r.analysis.add(std::move(prim))) return false;
    r.indices.push_back(index);
    return true;
  }

  static bool reads_from(const BoundSymbol& prim, const Region& r) {
    return std::any_of(prim.args.begin(), prim.args.end(), [&](const Value& a) { return a.is_tensor() && r.analysis.defines(a); });
  }

  // Read after the region: by the trace's return or by a statement outside it (not for a value it
  // computes again for itself, which the region that made it first gives to the others).
  bool escapes(const Value& v, const Region& r) const {
    if (r.recomputed.count(proxy_key(v))) return false;
    if (returned_.count(proxy_key(v))) return true;
    auto it = users_.find(proxy_key(v));
    if (it == users_.end()) return false;
    return std::any_of(it->second.begin(), it->second.end(),
                       [&](size_t user) { return !std::binary_search(r.indices.begin(), r.indices.end(), user); });
  }

  BoundSymbol fusion(Region& r) {
    Values outputs;
    BoundSymbol f;
    for (const auto& b : r.analysis.statements()) {
      for (const auto& o : b.output_proxies())
        if (escapes(o, r)) outputs.push_back(o);
      for (const auto& tag : b.tags)
        if (std::find(f.tags.begin(), f.tags.end(), tag) == f.tags.end()) f.tags.push_back(tag);
    }
    // Simplified; or, where a later region took over its outputs' chains, without what no output needs.
    fuser::RegionAnalysis simplified;
    std::vector<BoundSymbol> statements;
    if (may_simplify(r.analysis.statements())) {
      statements = simplify_region(r.analysis.statements(), outputs);
    } else if (r.lent) {
      if (std::vector<size_t> live = live_statements(r.analysis.statements(), outputs); live.size() < r.analysis.statements().size())
        for (size_t k : live) statements.push_back(r.analysis.statements()[k]);
    }
    // A simplified region the analysis cannot take whole (hypot of [5, 1] and [5]: a value made
    // in the region broadcast along its last dimension) is dropped for the region as fused.
    bool taken = true;
    for (const auto& b : statements)
      if (!(taken = simplified.add(b))) break;
    fuser::RegionAnalysis& region = !taken || simplified.empty() ? r.analysis : simplified;
    const Values inputs = inputs_of(region);
    // Memory planning may give an output the buffer of any dying input of its shape and dtype:
    // allowed only where the kernel reads every such input in place (and is generated for it).
    bool any_pair = false, all_in_place = true;
    for (const auto& in : inputs)
      for (const auto& o : outputs)
        if (o.as_tensor().shape() == in.as_tensor().shape() && o.as_tensor().dtype() == in.as_tensor().dtype()) {
          any_pair = true;
          all_in_place = all_in_place && region.may_write_over(in, o);
        }
    f.subsymbols = std::move(region).release_statements();
    f.sym = &region_symbol(f.subsymbols.front(), inputs.size(), any_pair && all_in_place);
    f.args = inputs;
    f.output = Value::tuple(outputs);
    f.source = f.subsymbols.front().source;
    return f;
  }

  // fuser_0, fuser_1, ...: numbered across the compilation (its forward and backward); in the
  // stable name style, named for the region's first statement (fuser_mlp_gelu_0_1), which
  // the rest of the program does not move.
  const Symbol& region_symbol(const BoundSymbol& first, size_t arity, bool writes_in_place) {
    Symbol s;
    if (out_.names->style() == NameStyle::Stable) {
      std::string name = "fuser_" + tracing::statement_stem(first);
      s.id = name;
      for (int k = 1; symbols_.find(s.id); ++k) s.id = name + "_" + std::to_string(k);
    } else {
      while (symbols_.find("fuser_" + std::to_string(next_number_))) ++next_number_;
      s.id = "fuser_" + std::to_string(next_number_++);
    }
    s.name = s.id;
    s.is_prim = true;
    s.executor = "fuser";
    s.tags = {kOutBuffer};  // the generated kernel writes into the buffers it is given
    if (writes_in_place) s.tags.push_back(kOutMayAliasInput);
    std::string params;
    for (size_t k = 0; k < arity; ++k) params += str(k ? ", " : "", "a", k);
    s.signature = Signature::parse(arity ? params + ", /" : "");
    return symbols_.add(std::move(s));
  }

  void give_back(Region& r) {
    Trace piece = out_.derive("");
    piece.bound_symbols = std::move(r.analysis).release_statements();
    piece = transform_for_execution(std::move(piece), {&ExecutorRegistry::global().get("torch")});
    for (auto& b : piece.bound_symbols) out_.bound_symbols.push_back(std::move(b));
  }
};

}  // namespace

Trace fuse_regions(Trace trace, SymbolTable& symbols) {
  Trace out = trace.derive("Fusion");
  out.output = trace.output;
  // A backward recomputes a forward op (sigmoid) beside the prims of its decomposition, and
  // claiming flattens both into the same prims: a claimed prim whose values are already defined
  // is dropped (and reads nothing).
  std::vector<bool> dropped(trace.bound_symbols.size(), false);
  std::unordered_set<const void*> defined;
  for (size_t i = 0; i < trace.bound_symbols.size(); ++i) {
    const BoundSymbol& b = trace.bound_symbols[i];
    Values outputs = b.output_proxies();
    dropped[i] = b.sym->id.starts_with("fuser:prims.") && !outputs.empty() &&
                 std::all_of(outputs.begin(), outputs.end(), [&](const Value& o) { return defined.count(proxy_key(o)) > 0; });
    for (const auto& o : outputs) defined.insert(proxy_key(o));
  }
  RegionBuilder regions(trace, dropped, symbols, out);
  for (size_t i = 0; i < trace.bound_symbols.size(); ++i) {
    BoundSymbol& b = trace.bound_symbols[i];
    if (dropped[i]) continue;
    if (b.sym->id.starts_with("fuser:prims.")) regions.take(std::move(b), i);  // a prim the fuser claimed
    else regions.pass(std::move(b));
  }
  regions.finish();
  return out;
}

}  // namespace thundercc
