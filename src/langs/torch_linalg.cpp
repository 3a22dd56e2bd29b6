// Products and statistics that are compositions of matmul, reductions and shape ops: addmv, addr,
// addbmm, vdot, cross, cov, corrcoef; and the shape helpers diff, meshgrid, cartesian_prod,
// block_diag, sum_to_size. Each runs as its decomposition (no ATen kernel is bound for them).
#include <limits>

#include "langs/torch_registry.h"

namespace thundercc::ltorch {
namespace {

Tensor stack(const std::vector<Tensor>& tensors, int64_t dim) {
  return op("torch.stack", {Value::list(Values(tensors.begin(), tensors.end())), dim});
}

// beta * input + alpha * product, as addmm's (beta 0 ignores input, NaN included).
Tensor scaled_sum(const Args& x, const Tensor& product) {
  DType dtype = product.dtype();
  Tensor scaled = langs::is_one(x["alpha"]) ? product : mul(product, core::maybe_convert_to_dtype(x["alpha"], dtype));
  if (!x["beta"].is_tensor() && x["beta"].as_float() == 0.0) return scaled;
  const auto& input = x.tensor("input");
  return add(langs::is_one(x["beta"]) ? input : mul(input, core::maybe_convert_to_dtype(x["beta"], dtype)), scaled);
}

// The vectors' cross product along dim: a[i+1] b[i+2] - a[i+2] b[i+1].
Tensor cross(const Tensor& a, const Tensor& b, int64_t dim) {
  auto rolled = [&](const Tensor& t, int64_t shift) { return op("torch.roll", {t, shift, dim}); };
  return rolled(a, -1) * rolled(b, -2) - rolled(a, -2) * rolled(b, -1);
}

Tensor covariance(const Tensor& input, int64_t correction) {
  check(input.ndim() <= 2, [&] { return str("cov(): expected input to have two or fewer dimensions but got an input with ", input.ndim(), " dimensions"); });
  Tensor observations = input.ndim() < 2 ? reshape(input, {1, input.numel()}) : input;
  if (!observations.dtype().is_inexact()) observations = to(observations, dtypes::float32);
  int64_t n = observations.shape()[1];
  Tensor centered = observations - mean(observations, Dims{1}, true);
  Tensor conjugated = observations.dtype().is_complex() ? op("torch.conj_physical", {centered}) : centered;
  Tensor products = matmul(centered, transpose(conjugated, 0, 1));
  Tensor c = products / static_cast<double>(std::max<int64_t>(n - correction, 0));
  return input.ndim() < 2 ? reshape(c, {}) : c;
}

}  // namespace

void register_linalg(SymbolTable& t) {
  const std::vector<std::string> decomposed{kRunsDecomposed};
  define(t, {{"torch.addmv", "torch.Tensor.addmv"}, "input, a, b, /, *, beta=1, alpha=1", [](const Args& x) -> Value {
    check(x.tensor("a").ndim() == 2 && x.tensor("b").ndim() == 1, "vector + matrix @ vector expected");
    return scaled_sum(x, matmul(x.tensor("a"), x.tensor("b")));
  }}, decomposed);
  define(t, {{"torch.addr", "torch.Tensor.addr"}, "input, a, b, /, *, beta=1, alpha=1", [](const Args& x) -> Value {
    check(x.tensor("a").ndim() == 1 && x.tensor("b").ndim() == 1, "addr: expected 1-D vectors");
    return scaled_sum(x, op("torch.outer", {x["a"], x["b"]}));
  }}, decomposed);
  define(t, {{"torch.addbmm", "torch.Tensor.addbmm"}, "input, a, b, /, *, beta=1, alpha=1", [](const Args& x) -> Value {
    check(x.tensor("a").ndim() == 3 && x.tensor("b").ndim() == 3, "addbmm: expected 3-D tensors");
    return scaled_sum(x, sum(matmul(x.tensor("a"), x.tensor("b")), Dims{0}));
  }}, decomposed);
  define(t, {{"torch.vdot", "torch.Tensor.vdot"}, "a, b, /", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    check(a.ndim() == 1 && x.tensor("b").ndim() == 1, "1D tensors expected");
    return op("torch.dot", {a.dtype().is_complex() ? op("torch.conj_physical", {a}) : a, x["b"]});
  }}, decomposed);
  define(t, {{"torch.linalg.vecdot"}, "a, b, /, *, dim=-1", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    return sum(mul(a.dtype().is_complex() ? op("torch.conj_physical", {a}) : a, x["b"]), Dims{x.integer("dim")});
  }}, decomposed);
  define(t, {{"torch.linalg.cross"}, "a, b, /, *, dim=-1", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    const Tensor& b = x.tensor("b");
    check(a.ndim() == b.ndim(), "linalg.cross: inputs must have the same number of dimensions.");
    Shape common = langs::broadcast_shapes({a.shape(), b.shape()});
    int64_t dim = langs::canonicalize_dim(static_cast<int64_t>(common.size()), x.integer("dim"));
    check(a.shape()[dim] == 3 && b.shape()[dim] == 3, [&] { return str("linalg.cross: inputs dimension ", dim, " must have length 3. Got ", a.shape()[dim], " and ", b.shape()[dim]); });
    return cross(a.shape() == common ? a : expand(a, common), b.shape() == common ? b : expand(b, common), dim);
  }}, decomposed);
  // torch.cross without dim takes the first dimension of length 3 (PyTorch 1.13's default).
  define(t, {{"torch.cross", "torch.Tensor.cross"}, "a, b, /, dim=None", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    int64_t dim = -1;
    if (x.is_none("dim")) {
      for (int64_t d = 0; d < a.ndim() && dim < 0; ++d)
        if (a.shape()[d] == 3) dim = d;
      check(dim >= 0, "no dimension of size 3 in input");
    } else {
      dim = x.integer("dim");
    }
    return op("torch.linalg.cross", {x["a"], x["b"]}, {{"dim", dim}});
  }}, decomposed);
  define(t, {{"torch.cov", "torch.Tensor.cov"}, "a, /, *, correction=1, fweights=None, aweights=None", [](const Args& x) -> Value {
    check(x.is_none("fweights") && x.is_none("aweights"), "cov with fweights or aweights is not supported yet", "NotImplementedError");
    return covariance(x.tensor("a"), x.integer("correction"));
  }}, decomposed);
  // cov / sqrt(diag diag^T), its real part clipped to [-1, 1].
  define(t, {{"torch.corrcoef", "torch.Tensor.corrcoef"}, "a, /", [](const Args& x) -> Value {
    Tensor c = covariance(x.tensor("a"), 1);
    if (c.ndim() == 0) return c / c;
    Tensor d = op("torch.diagonal", {c});
    Tensor scale = op("torch.sqrt", {mul(unsqueeze(d, 1), unsqueeze(d, 0))});
    Tensor r = c / scale;
    return c.dtype().is_complex() ? r : op("torch.clamp", {r, -1.0, 1.0});
  }}, decomposed);
  // The n-th forward difference along dim, prepend and append joined first.
  define(t, {{"torch.diff", "torch.Tensor.diff"}, "a, /, n=1, dim=-1, prepend=None, append=None", [](const Args& x) -> Value {
    Tensor a = x.tensor("a");
    check(a.ndim() >= 1, "diff expects input to be at least one-dimensional");
    int64_t dim = langs::canonicalize_dim(a.ndim(), x.integer("dim")), n = x.integer("n");
    check(n >= 0, [&] { return str("order must be non-negative but got ", n); });
    std::vector<Tensor> parts;
    for (const char* edge : {"prepend", "a", "append"})
      if (!x.is_none(edge)) parts.push_back(x.tensor(edge));
    if (parts.size() > 1) a = cat(parts, dim);
    for (int64_t i = 0; i < n && a.shape()[dim] > 0; ++i) {
      int64_t length = a.shape()[dim] - 1;
      Tensor later = narrow(a, dim, 1, length), earlier = narrow(a, dim, 0, length);
      a = a.dtype().is_bool() ? op("torch.logical_xor", {later, earlier}) : later - earlier;
    }
    return a;
  }}, decomposed);
  define(t, {{"torch.meshgrid"}, "*tensors, indexing=None", [](const Args& x) -> Value {
    std::vector<Tensor> inputs;
    for (const auto& v : x["tensors"].items()) for (const auto& t : tensors_in(v)) inputs.push_back(t);
    std::string indexing = x.is_none("indexing") ? "ij" : x["indexing"].as_string();
    check(indexing == "ij" || indexing == "xy", [&] { return str("torch.meshgrid: indexing must be one of \"xy\" or \"ij\", but received: ", indexing); });
    bool swap = indexing == "xy" && inputs.size() >= 2;
    Shape shape;
    for (const auto& t : inputs) {
      check(t.ndim() <= 1, "torch.meshgrid: Expected 0D or 1D tensor in the tensor list");
      shape.push_back(t.numel());
    }
    if (swap) std::swap(shape[0], shape[1]);
    Values grids;
    for (size_t i = 0; i < inputs.size(); ++i) {
      size_t position = swap && i < 2 ? 1 - i : i;
      Shape line(inputs.size(), 1);
      line[position] = inputs[i].numel();
      grids.push_back(expand(reshape(inputs[i], line), shape));
    }
    return Value::tuple(grids);
  }}, decomposed);
  define(t, {{"torch.cartesian_prod"}, "*tensors", [](const Args& x) -> Value {
    std::vector<Tensor> inputs = tensors_in(x["tensors"]);
    if (inputs.size() == 1) return inputs[0];
    Value grids = call("torch.meshgrid", x["tensors"].items(), {{"indexing", Value(std::string("ij"))}});
    std::vector<Tensor> columns;
    for (const auto& g : grids.items()) columns.push_back(flatten(g.as_tensor()));
    return stack(columns, 1);
  }}, decomposed);
  // The blocks along the diagonal of a zero matrix: each padded to the full width, then stacked.
  define(t, {{"torch.block_diag"}, "*tensors", [](const Args& x) -> Value {
    std::vector<Tensor> blocks = tensors_in(x["tensors"]);
    DType dtype = blocks.empty() ? dtypes::float32 : blocks[0].dtype().strong();
    int64_t width = 0;
    for (auto& b : blocks) {
      check(b.ndim() <= 2, [&] { return str("torch.block_diag: Input tensors must have 2 or fewer dimensions. Input has ", b.ndim(), " dimensions"); });
      b = b.ndim() == 2 ? b : reshape(b, {1, b.numel()});
      dtype = core::promote_dtypes(dtype, b.dtype().strong());
      width += b.shape()[1];
    }
    std::vector<Tensor> rows;
    int64_t left = 0;
    for (const auto& b : blocks) {
      Tensor padded = op("torch.nn.functional.pad", {core::convert(b, dtype), Value::ints({left, width - left - b.shape()[1]})});
      left += b.shape()[1];
      rows.push_back(padded);
    }
    if (rows.empty()) return full({1, 0}, int64_t{0}, Device::cpu(), dtypes::float32);
    return cat(rows, 0);
  }}, decomposed);
  // a summed to size: leading dimensions and those size keeps at 1 (Tensor.sum_to_size).
  define(t, {{"torch.Tensor.sum_to_size"}, "a, /, *size", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    std::vector<int64_t> size = x.ints("size");
    check(langs::broadcast_shapes({Shape(size), a.shape()}) == a.shape(), [&] { return str("size {", langs::dims_repr(size), "} is not expandable to size {", shape_repr(a.shape()), "}."); });
    int64_t lead = a.ndim() - static_cast<int64_t>(size.size());
    Dims dims;
    for (int64_t d = 0; d < a.ndim(); ++d)
      if (d < lead || (size[d - lead] == 1 && a.shape()[d] != 1)) dims.push_back(d);
    Tensor summed = dims.empty() ? a : sum(a, dims, true);
    return lead > 0 ? reshape(summed, Shape(size)) : summed;
  }}, decomposed);
}

}  // namespace thundercc::ltorch
