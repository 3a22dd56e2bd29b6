// What a fusion region computes, in the terms one generated kernel needs. A region iterates over
// a domain shape D as rows (every dimension but the last) times columns (the last dimension).
// Each value in it lives at one of two levels: an element value has shape D and one value per
// (row, column); a row value has shape D[:-1] or D[:-1] + [1] and one value per row. Reductions
// over the last dimension turn element values into row values; broadcast_in_dim turns row values
// (and inputs of any broadcastable shape) into element values. That is enough for elementwise
// chains, softmax, log_softmax, layer_norm, rms_norm, GELU, SiLU and the losses' row reductions.
//
// The same analysis decides membership (fusion_pass.cpp grows a region while `add`
// accepts the next statement) and drives the code generator (kernel_source.cpp).
#pragma once

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "thundercc/ir/symbol.h"
#include "thundercc/ir/trace.h"

namespace thundercc::fuser {

enum class Level : uint8_t { Element, Row };

class RegionAnalysis {
 public:
  // Whether the fuser can run a call of the prim `id` (its positional arguments first, as bound
  // or as a bound symbol normalizes them) at all: its kind, dtypes, reduction axes and device (the
  // CPU, or a CUDA device when NVRTC is found to compile its kernel).
  static bool fusible(const std::string& id, const Values& args);

  // Adds `b` (a prim the fuser claimed) when it fits the region; the first statement sets the
  // domain. The rvalue form moves `b` in only when it adds it.
  bool add(const BoundSymbol& b) {
    if (!admits(b)) return false;
    statements_.push_back(b);
    return true;
  }
  bool add(BoundSymbol&& b) {
    if (!admits(b)) return false;
    statements_.push_back(std::move(b));
    return true;
  }
  bool empty() const { return statements_.empty(); }
  const std::vector<BoundSymbol>& statements() const { return statements_; }
  // The statements, moved out: the analysis is done with.
  std::vector<BoundSymbol> release_statements() && { return std::move(statements_); }
  const Shape& domain() const { return domain_; }
  int64_t rows() const;
  int64_t columns() const;

  // The level of a value defined in the region, or of an input read directly (not through a
  // broadcast); nullopt for a value the region cannot read at either level.
  std::optional<Level> level_of(const Value& v) const;
  bool defines(const Value& v) const;
  // Whether the region does any arithmetic (a region of broadcasts alone is not worth a kernel).
  bool computes() const;
  // Whether `output`, an output of the region, may be written over `input`, an input of it: both
  // have the domain's shape and one dtype, no row value has that shape, and the region reads the
  // input only element by element, never through a broadcast. Then the element outputs' loop
  // reads each element before it writes its place, in the same iteration, and no other read follows.
  bool may_write_over(const Value& input, const Value& output) const;

 private:
  // Whether `b` fits the region; if it does, its values' levels are recorded (and the first sets the domain).
  bool admits(const BoundSymbol& b);
  bool add_elementwise(const BoundSymbol& b, const Tensor& out);
  bool add_broadcast(const BoundSymbol& b);
  bool add_reduction(const BoundSymbol& b);
  bool is_row_shape(const Shape& s) const;

  Shape domain_;
  Device device_;  // the first statement's; the others' must equal it
  std::vector<BoundSymbol> statements_;
  std::unordered_map<const void*, Level> levels_;  // values the region defines
};

// Whether `b` is a fusion region the fuser's pass made (`fuser_N(...)`), which becomes one kernel.
bool is_fusion_region(const BoundSymbol& b);
// The prims the fuser claims (when `fusible` accepts the call).
bool is_fusible_prim(const std::string& id);
// The reduction prims a region takes (over the last dimension only).
bool is_reduction_prim(const std::string& id);
// A broadcast_in_dim of a region input to the domain: the strides it reads the input with.
std::vector<int64_t> broadcast_strides(const Shape& input, const Shape& domain, const std::vector<int64_t>& dims);

}  // namespace thundercc::fuser

namespace thundercc {
// The fuser's pass (fusion_pass.cpp), run right after claiming: consecutive fuser-claimed prims
// grouped into fusion regions, each a `fuser_N` symbol of the compilation's table.
Trace fuse_regions(Trace trace, SymbolTable& compilation_symbols);
}  // namespace thundercc
