#include "thundercc/executors/fuser/region_analysis.h"

#include <algorithm>
#include <optional>
#include <string_view>
#include <unordered_map>

#include "thundercc/executors/fuser/nvrtc.h"
#include "thundercc/ir/rewrite.h"

namespace thundercc::fuser {
namespace {

// The prims the code generator has code for: elementwise ones by the dtype kinds they take,
// reductions and broadcast_in_dim. One hash lookup per question: fusion asks for every prim.
enum class PrimKind { FloatOnly, AnyReal, ExactOnly, Reduction, Broadcast };

const std::unordered_map<std::string_view, PrimKind>& prim_kinds() {
  static const auto* kinds = [] {
    auto* m = new std::unordered_map<std::string_view, PrimKind>();
    // The unary and binary ones by their tables' `fuser` column.
    constexpr std::optional<PrimKind> Float = PrimKind::FloatOnly, Real = PrimKind::AnyReal, Exact = PrimKind::ExactOnly;
    constexpr std::optional<PrimKind> None;
#define THUNDERCC_UNARY_OP(name, accepts, produces, promotion, in_place, aten, fuser, c) \
    if (fuser) (*m)["prims." #name] = *fuser;
#include "thundercc/langs/unary_ops.def"
#define THUNDERCC_BINARY_OP(name, accepts, produces, torch, promotion, in_place, printed, kernel, fuser, c) \
    if (fuser) (*m)["prims." #name] = *fuser;
#include "thundercc/langs/binary_ops.def"
    for (std::string_view id : {"prims.where", "prims.convert_element_type"}) (*m)[id] = PrimKind::AnyReal;
    for (std::string_view id : {"prims.sum", "prims.prod", "prims.amax", "prims.amin", "prims.var", "prims.var_mean"})
      (*m)[id] = PrimKind::Reduction;
    (*m)["prims.broadcast_in_dim"] = PrimKind::Broadcast;
    return m;
  }();
  return *kinds;
}

std::optional<PrimKind> kind_of(std::string_view id) {
  auto it = prim_kinds().find(id);
  if (it == prim_kinds().end()) return std::nullopt;
  return it->second;
}

bool supported_dtype(DType d) {
  switch (d.type) {
    case ScalarType::Bool8:
    case ScalarType::Int32:
    case ScalarType::Int64:
    case ScalarType::BFloat16:
    case ScalarType::Float16:
    case ScalarType::Float32:
    case ScalarType::Float64:
      return true;
    default:
      return false;
  }
}

// The last dimension, when `dims` names exactly it.
bool reduces_last_dim(const Tensor& a, const std::vector<int64_t>& dims) {
  if (a.ndim() == 0 || dims.size() != 1) return false;
  int64_t d = dims[0] < 0 ? dims[0] + a.ndim() : dims[0];
  return d == a.ndim() - 1;
}

// Whether broadcast dimensions `dims` put `a`'s dimensions at the front of the result, in order.
bool maps_to_leading_dims(const Tensor& a, const std::vector<int64_t>& dims) {
  for (int64_t k = 0; k < a.ndim(); ++k)
    if (dims.at(k) != k) return false;
  return static_cast<int64_t>(dims.size()) == a.ndim();
}

Shape without_last(const Shape& s) { return Shape(s.begin(), s.end() - (s.empty() ? 0 : 1)); }

const Tensor* first_tensor(const BoundSymbol& b) {
  for (const auto& a : b.args)
    if (a.is_tensor()) return &a.as_tensor();
  return nullptr;
}

// CPU regions become C++ kernels; CUDA regions CUDA kernels, which NVRTC must compile.
bool runs_on(const Device& d) { return d.is_cpu() || (d.type == Device::Type::CUDA && nvrtc_available()); }

}  // namespace

bool is_reduction_prim(const std::string& id) { return kind_of(id) == PrimKind::Reduction; }

std::vector<int64_t> broadcast_strides(const Shape& input, const Shape& domain, const std::vector<int64_t>& dims) {
  std::vector<int64_t> strides(domain.size(), 0);
  int64_t stride = 1;
  for (size_t k = input.size(); k-- > 0;) {
    if (input[k] != 1) strides[dims[k]] = stride;
    stride *= input[k];
  }
  return strides;
}

bool is_fusion_region(const BoundSymbol& b) { return b.sym->executor == "fuser" && b.sym->id.starts_with("fuser_"); }

bool is_fusible_prim(const std::string& id) { return kind_of(id).has_value(); }

bool RegionAnalysis::fusible(const std::string& id, const Values& args) {
  auto kind = kind_of(id);
  if (!kind) return false;
  const Tensor* first = nullptr;
  for (const auto& a : args) {
    if (a.is_tensor()) {
      const Tensor& t = a.as_tensor();
      // One kernel reads one device's memory: no CPU 0-d tensor beside CUDA ones, as ATen allows.
      if (!supported_dtype(t.dtype()) || !runs_on(t.device()) || (first && t.device() != first->device())) return false;
      if (!first) first = &t;
      if (kind == PrimKind::FloatOnly && !t.dtype().is_float()) return false;
      if (kind == PrimKind::ExactOnly && !t.dtype().is_exact()) return false;
    } else if (a.is_number_proxy()) {
      if (!a.as_number_proxy()->value) return false;  // a kernel bakes numbers in
      if (a.number_kind() == NumberKind::Complex) return false;
    } else if (a.is_number() && a.number_kind() == NumberKind::Complex) {
      return false;
    }
  }
  if (!first) return false;
  if (id == "prims.convert_element_type" && !supported_dtype(args.at(1).as_dtype())) return false;
  if (kind == PrimKind::Reduction) {
    const Tensor& a = args.at(0).as_tensor();
    if (!reduces_last_dim(a, args.at(1).as_ints()) || a.dtype().is_bool()) return false;
    if ((id == "prims.var" || id == "prims.var_mean") && !a.dtype().is_float()) return false;
  }
  return true;
}

int64_t RegionAnalysis::columns() const { return domain_.empty() ? 1 : domain_.back(); }

int64_t RegionAnalysis::rows() const { return numel(without_last(domain_)); }

bool RegionAnalysis::is_row_shape(const Shape& s) const {
  if (domain_.empty()) return false;
  Shape rows = without_last(domain_);
  if (s == rows) return true;
  rows.push_back(1);
  return s == rows;
}

bool RegionAnalysis::defines(const Value& v) const { return levels_.count(proxy_key(v)) != 0; }

std::optional<Level> RegionAnalysis::level_of(const Value& v) const {
  if (!v.is_tensor()) return std::nullopt;
  auto it = levels_.find(proxy_key(v));
  if (it != levels_.end()) return it->second;
  if (v.as_tensor().shape() == domain_) return Level::Element;
  if (is_row_shape(v.as_tensor().shape())) return Level::Row;
  return std::nullopt;
}

bool RegionAnalysis::computes() const {
  return std::any_of(statements_.begin(), statements_.end(),
                     [](const BoundSymbol& b) { return b.sym->id != "prims.broadcast_in_dim"; });
}

bool RegionAnalysis::may_write_over(const Value& input, const Value& output) const {
  const Tensor &in = input.as_tensor(), &out = output.as_tensor();
  if (in.shape() != domain_ || out.shape() != domain_ || out.dtype() != in.dtype() || is_row_shape(domain_)) return false;
  return std::none_of(statements_.begin(), statements_.end(), [&](const BoundSymbol& b) {
    return b.sym->id == "prims.broadcast_in_dim" && proxy_key(b.args[0]) == proxy_key(input);
  });
}

bool RegionAnalysis::admits(const BoundSymbol& b) {
  const std::string& id = b.sym->id;
  if (!fusible(id, b.args)) return false;
  const Tensor* first = first_tensor(b);
  if (empty()) {
    domain_ = is_reduction_prim(id) ? first->shape() : b.output_proxies().at(0).as_tensor().shape();
    device_ = first->device();
  } else if (first->device() != device_) {
    return false;  // one kernel runs on one device
  }
  return is_reduction_prim(id) ? add_reduction(b)
         : id == "prims.broadcast_in_dim" ? add_broadcast(b)
                                          : add_elementwise(b, b.output.as_tensor());
}

bool RegionAnalysis::add_elementwise(const BoundSymbol& b, const Tensor& out) {
  // With a last dimension of 1, a row value and an element value are the same numbers.
  Level level;
  if (out.shape() == domain_) level = Level::Element;
  else if (is_row_shape(out.shape())) level = Level::Row;
  else return false;
  for (const auto& a : b.args) {
    // A 0-d input is a number to every element (prims take 0-d tensors beside any shape).
    if (!a.is_tensor() || (a.as_tensor().ndim() == 0 && !defines(a))) continue;
    auto l = level_of(a);
    if (!l || (*l != level && columns() != 1)) return false;
  }
  levels_[proxy_key(b.output)] = level;
  return true;
}

bool RegionAnalysis::add_broadcast(const BoundSymbol& b) {
  const Tensor& a = b.args.at(0).as_tensor();
  Shape shape = b.args.at(1).as_ints();
  std::vector<int64_t> dims = b.args.at(2).as_ints();
  const Value& out = b.output;
  if (shape == domain_) {
    if (!defines(b.args[0])) {  // an input, read with broadcast strides
      levels_[proxy_key(out)] = Level::Element;
      return true;
    }
    Level level = levels_.at(proxy_key(b.args[0]));
    // A row value spread along the last dimension: its dimensions are the domain's leading ones.
    if (!maps_to_leading_dims(a, dims)) return false;
    if (level == Level::Element && a.shape() != domain_) return false;
    levels_[proxy_key(out)] = Level::Element;
    return true;
  }
  if (is_row_shape(shape)) {
    auto level = level_of(b.args[0]);
    if (level != Level::Row || !maps_to_leading_dims(a, dims)) return false;
    levels_[proxy_key(out)] = Level::Row;
    return true;
  }
  return false;
}

bool RegionAnalysis::add_reduction(const BoundSymbol& b) {
  const Value& a = b.args.at(0);
  if (a.as_tensor().shape() != domain_ || level_of(a) != Level::Element) return false;
  for (const auto& o : b.output_proxies()) levels_[proxy_key(o)] = Level::Row;
  return true;
}

}  // namespace thundercc::fuser
