// The channels-last twin of a fusion region (see channels_last.h): a copy of the region whose
// 4-d tensors have their dimensions in NHWC order, built by mapping every proxy and rewriting
// each broadcast_in_dim's shape and dimensions.
#include "thundercc/executors/fuser/channels_last.h"

#include <algorithm>

#include "thundercc/executors/fuser/region_analysis.h"
#include "thundercc/ir/rewrite.h"
#include "thundercc/ir/trace.h"

namespace thundercc::fuser {
namespace {

// Dimension d of NCHW is dimension kPosition[d] of NHWC.
constexpr int64_t kPosition[4] = {0, 3, 1, 2};

Shape to_nhwc(const Shape& s) { return {s[0], s[2], s[3], s[1]}; }

}  // namespace

std::optional<BoundSymbol> channels_last_twin(const BoundSymbol& region) {
  const auto& statements = region.subsymbols;
  if (!region.output.is_sequence() || region.output.items().empty() || !region.output.items()[0].is_tensor()) return std::nullopt;
  const Shape domain = region.output.items()[0].as_tensor().shape();
  if (domain.size() != 4) return std::nullopt;
  if (std::any_of(statements.begin(), statements.end(), [](const BoundSymbol& b) { return is_reduction_prim(b.sym->id); }))
    return std::nullopt;
  for (const auto& out : region.output.items())
    if (!out.is_tensor() || out.as_tensor().shape() != domain) return std::nullopt;

  // Every 4-d tensor of the region (inputs, values, outputs) gets an NHWC twin; others keep theirs.
  // They are named by a trace of their own: a kernel's source numbers its values, not their names.
  Trace names;
  TracingScope naming(names);
  ValueMap permuted;
  bool broadcasts = false;
  auto permute = [&](const Value& v) {
    if (!v.is_tensor() || v.as_tensor().ndim() != 4 || permuted.contains(v)) return;
    const Tensor& t = v.as_tensor();
    permuted.set(v, Tensor::make(to_nhwc(t.shape()), t.dtype(), t.device(), t.requires_grad()));
  };
  for (const auto& in : region.args) permute(in);
  BoundSymbol twin = region;
  for (auto& b : twin.subsymbols) {
    for (const auto& a : b.args) permute(a);
    permute(b.output);
    if (b.sym->id != "prims.broadcast_in_dim") continue;
    const Tensor& a = b.args.at(0).as_tensor();
    std::vector<int64_t> dims = b.args.at(2).as_ints();
    broadcasts |= a.shape() != domain;
    if (a.ndim() != 4) {
      // A lower-rank input keeps its memory: its dimensions, in the order they land in NHWC, are
      // its twin's shape, which must keep the order of those longer than one ([C, 1, 1] read
      // into dimensions 1, 2, 3 becomes [1, 1, C] into 1, 2, 3).
      std::vector<std::pair<int64_t, size_t>> landing;  // (NHWC dimension, the input's dimension)
      for (size_t k = 0; k < dims.size(); ++k) landing.emplace_back(kPosition[dims[k]], k);
      std::sort(landing.begin(), landing.end());
      Shape shape;
      size_t last_long = 0;
      bool first_long = true;
      for (size_t k = 0; k < landing.size(); ++k) {
        auto [position, from] = landing[k];
        dims[k] = position;
        shape.push_back(a.shape()[from]);
        if (a.shape()[from] == 1) continue;
        if (!first_long && from < last_long) return std::nullopt;
        first_long = false;
        last_long = from;
      }
      // Only a region input takes another shape (its memory is the same); a value the region computes would not.
      const bool input = std::find(region.args.begin(), region.args.end(), b.args[0]) != region.args.end();
      if ((!input && shape != a.shape()) || (permuted.contains(b.args[0]) && permuted.apply(b.args[0]).as_tensor().shape() != shape))
        return std::nullopt;
      if (shape != a.shape()) permuted.set(b.args[0], Tensor::make(shape, a.dtype(), a.device(), a.requires_grad()));
    }
    b.args[1] = Value::ints(to_nhwc(b.args[1].as_ints()), b.args[1].kind() == Value::Kind::List);
    b.args[2] = Value::ints(dims, b.args[2].kind() == Value::Kind::List);
  }
  if (!broadcasts) return std::nullopt;
  for (auto& b : twin.subsymbols) permuted.apply(b);
  twin.args = region.args;
  for (auto& a : twin.args) a = permuted.apply(a);
  twin.output = permuted.apply(region.output);
  return twin;
}

}  // namespace thundercc::fuser
