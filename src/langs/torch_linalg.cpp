// Linear algebra beyond matmul. Compositions of matmul, reductions and shape ops (vdot, cross, cov, corrcoef; the shape helpers diff, meshgrid, cartesian_prod,
// block_diag, sum_to_size; matrix norms, matrix_power) run as their decompositions. The
// factorizations and solvers (inv, det, slogdet, solve, cholesky, qr, svd, eigh, pinv) have no
// decomposition into prims: a meta function here, LAPACK through ATen's kernel at run time
// (tagged kNoDecomposition), and grad rules in autodiff/ where autograd has them.
#include <cmath>
#include <limits>

#include "langs/torch_registry.h"
#include "thundercc/ir/pyliteral.h"

namespace thundercc::ltorch {
namespace {

Tensor stack(const std::vector<Tensor>& tensors, int64_t dim) {
  return op("torch.stack", {Value::list(Values(tensors.begin(), tensors.end())), dim});
}

// The vectors' cross product along dim: a[i+1] b[i+2] - a[i+2] b[i+1].
Tensor cross(const Tensor& a, const Tensor& b, int64_t dim) {
  auto rolled = [&](const Tensor& t, int64_t shift) { return op("torch.roll", {t, shift, dim}); };
  Tensor a1 = rolled(a, -1), b2 = rolled(b, -2), a2 = rolled(a, -2), b1 = rolled(b, -1);
  Tensor forward = a1 * b2;
  return forward - a2 * b1;
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
  // One variable's covariance is a number (PyTorch squeezes the 1 x 1 result).
  return c.numel() == 1 ? reshape(c, {}) : c;
}

// A float or complex tensor of batches of matrices (square ones when `square`).
void check_matrices(const char* name, const Tensor& a, bool square) {
  check(a.ndim() >= 2, [&] { return str(name, ": The input tensor A must have at least 2 dimensions."); });
  check(a.dtype().is_inexact(), [&] { return str(name, ": Expected a floating point or complex tensor as input. Got ", a.dtype().torch_name()); });
  int64_t m = a.shape()[a.ndim() - 2], n = a.shape()[a.ndim() - 1];
  check(!square || m == n, [&] { return str(name, ": A must be batches of square matrices, but they are ", m, " by ", n, " matrices"); });
}

Shape batch_of(const Tensor& a) { return Shape(a.shape().begin(), a.shape().end() - 2); }

Shape with(Shape shape, std::initializer_list<int64_t> tail) {
  shape.insert(shape.end(), tail);
  return shape;
}

Tensor like(const Tensor& a, const Shape& shape, DType dtype) { return Tensor::make(shape, dtype, a.device()); }

}  // namespace

void register_linalg(SymbolTable& t) {
  const std::vector<std::string> lapack{kNoDecomposition};
  const std::vector<std::string> decomposed{kRunsDecomposed};
  define(t, {{"torch.linalg.inv", "torch.inverse", "torch.Tensor.inverse"}, "a, /", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    check_matrices("linalg.inv", a, true);
    return like(a, a.shape(), a.dtype().strong());
  }}, lapack);
  define(t, {{"torch.linalg.det", "torch.det", "torch.Tensor.det"}, "a, /", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    check_matrices("linalg.det", a, true);
    return like(a, batch_of(a), a.dtype().strong());
  }}, lapack);
  define(t, {{"torch.linalg.slogdet", "torch.slogdet", "torch.Tensor.slogdet"}, "a, /", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    check_matrices("linalg.slogdet", a, true);
    return Value::tuple({like(a, batch_of(a), a.dtype().strong()), like(a, batch_of(a), to_real_dtype(a.dtype().strong()))});
  }}, lapack);
  // A X = B (left) or X A = B, B a matrix or a vector, the batches broadcast.
  define(t, {{"torch.linalg.solve"}, "a, b, /, *, left=True", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    const Tensor& b = x.tensor("b");
    check_matrices("linalg.solve", a, true);
    check(a.dtype().strong() == b.dtype().strong(), [&] { return str("linalg.solve: Expected A and B to have the same dtype, but found A of type ", a.dtype().torch_name(), " and B of type ", b.dtype().torch_name(), " instead"); });
    int64_t n = a.shape().back();
    bool vector = b.ndim() == 1 || (b.ndim() == a.ndim() - 1 && Shape(b.shape().begin(), b.shape().end() - 1) == batch_of(a));
    check(x.flag("left") || !vector, "linalg.solve: Vector broadcasting of the left hand side is not supported for left=False.");
    check(b.shape()[b.ndim() - (vector ? 1 : (x.flag("left") ? 2 : 1))] == n, [&] {
      return str("linalg.solve: Incompatible shapes of A and B for the equation ", x.flag("left") ? "AX = B" : "XA = B", " (", shape_repr(a.shape()), " and ", shape_repr(b.shape()), ")");
    });
    Shape b_batch = vector ? Shape(b.shape().begin(), b.shape().end() - 1) : batch_of(b);
    Shape batch = langs::broadcast_shapes({batch_of(a), b_batch});
    Shape out = batch;
    if (vector) out.push_back(n);
    else out.insert(out.end(), b.shape().end() - 2, b.shape().end());
    return like(a, out, a.dtype().strong());
  }}, lapack);
  define(t, {{"torch.linalg.cholesky"}, "a, /, *, upper=False", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    check_matrices("linalg.cholesky", a, true);
    return like(a, a.shape(), a.dtype().strong());
  }}, lapack);
  define(t, {{"torch.cholesky", "torch.Tensor.cholesky"}, "a, /, upper=False", [](const Args& x) -> Value {
    return op("torch.linalg.cholesky", {x["a"]}, {{"upper", x["upper"]}});
  }}, decomposed);
  define(t, {{"torch.linalg.qr"}, "a, /, mode='reduced'", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    check_matrices("linalg.qr", a, false);
    const std::string& mode = x["mode"].as_string();
    check(mode == "reduced" || mode == "complete" || mode == "r", [&] { return str("qr received unrecognized mode '", mode, "' but expected one of 'reduced' (default), 'r', or 'complete'"); });
    int64_t m = a.shape()[a.ndim() - 2], n = a.shape().back(), k = mode == "complete" ? m : std::min(m, n);
    Tensor q = mode == "r" ? like(a, {0}, a.dtype().strong()) : like(a, with(batch_of(a), {m, k}), a.dtype().strong());
    return Value::tuple({q, like(a, with(batch_of(a), {k, n}), a.dtype().strong())});
  }}, lapack);
  define(t, {{"torch.linalg.svd"}, "a, /, full_matrices=True, *, driver=None", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    check_matrices("linalg.svd", a, false);
    int64_t m = a.shape()[a.ndim() - 2], n = a.shape().back(), k = std::min(m, n);
    bool full = x.flag("full_matrices");
    DType d = a.dtype().strong();
    return Value::tuple({like(a, with(batch_of(a), {m, full ? m : k}), d), like(a, with(batch_of(a), {k}), to_real_dtype(d)),
                         like(a, with(batch_of(a), {full ? n : k, n}), d)});
  }}, lapack);
  define(t, {{"torch.linalg.svdvals"}, "a, /, *, driver=None", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    check_matrices("linalg.svdvals", a, false);
    int64_t k = std::min(a.shape()[a.ndim() - 2], a.shape().back());
    return like(a, with(batch_of(a), {k}), to_real_dtype(a.dtype().strong()));
  }}, lapack);
  define(t, {{"torch.linalg.eigh"}, "a, /, UPLO='L'", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    check_matrices("linalg.eigh", a, true);
    return Value::tuple({like(a, with(batch_of(a), {a.shape().back()}), to_real_dtype(a.dtype().strong())), like(a, a.shape(), a.dtype().strong())});
  }}, lapack);
  define(t, {{"torch.linalg.eigvalsh"}, "a, /, UPLO='L'", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    check_matrices("linalg.eigvalsh", a, true);
    return like(a, with(batch_of(a), {a.shape().back()}), to_real_dtype(a.dtype().strong()));
  }}, lapack);
  define(t, {{"torch.linalg.pinv"}, "a, /, *, atol=None, rtol=None, hermitian=False", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    check_matrices("linalg.pinv", a, false);
    check(!x["atol"].is_tensor() && !x["rtol"].is_tensor(), "linalg.pinv with tensor tolerances is not supported yet", "NotImplementedError");
    return like(a, with(batch_of(a), {a.shape().back(), a.shape()[a.ndim() - 2]}), a.dtype().strong());
  }}, lapack);
  // Decompositions over the factorizations above.
  define(t, {{"torch.linalg.matrix_power", "torch.matrix_power", "torch.Tensor.matrix_power"}, "a, n, /", [](const Args& x) -> Value {
    Tensor a = x.tensor("a");
    int64_t n = x.integer("n");
    check(a.ndim() >= 2 && a.shape().back() == a.shape()[a.ndim() - 2], "linalg.matrix_power: A must be batches of square matrices");
    if (n == 0) {  // identities written over a (PyTorch copies them into a clone of a: no gradient reaches it)
      Tensor eye = op("torch.eye", {a.shape().back()}, {{"dtype", Value(a.dtype().strong())}, {"device", Value(a.device())}});
      Tensor everywhere = full(a.shape(), true, a.device(), dtypes::bool8);
      return where(everywhere, a.ndim() == 2 ? eye : expand(eye, a.shape()), a);
    }
    if (n < 0) a = op("torch.linalg.inv", {a});
    Tensor result = a;
    for (int64_t i = 1; i < (n < 0 ? -n : n); ++i) result = matmul(result, a);
    return result;
  }}, decomposed);
  define(t, {{"torch.linalg.matrix_norm"}, "a, /, ord='fro', dim=(-2, -1), keepdim=False, *, dtype=None", [](const Args& x) -> Value {
    Tensor a = x.tensor("a");
    check(a.ndim() >= 2, "linalg.matrix_norm: The input tensor A must have at least 2 dimensions.");
    if (auto d = optional_dtype(x["dtype"])) a = to(a, *d);
    auto dims = langs::canonicalize_dims(a.ndim(), x.ints("dim"));
    bool keepdim = x.flag("keepdim");
    const Value& ord = x["ord"];
    if (ord.kind() == Value::Kind::String && ord.as_string() == "fro")
      return op("torch.linalg.vector_norm", {a, 2.0, Value::ints(dims), keepdim});
    // The others read singular values or sums along one dimension: the matrix dims moved last.
    Tensor moved = op("torch.movedim", {a, Value::ints(dims), Value::ints({-2, -1})});
    Tensor r;
    if (ord.kind() == Value::Kind::String) {
      check(ord.as_string() == "nuc", [&] { return str("linalg.matrix_norm: Order ", ord.as_string(), " not supported."); });
      r = sum(op("torch.linalg.svdvals", {moved}), Dims{-1});
    } else {
      double p = ord.as_float();
      Tensor magnitude = abs(moved);
      if (p == 2.0 || p == -2.0) {
        Tensor s = op("torch.linalg.svdvals", {moved});
        r = p > 0 ? amax(s, {-1}) : op("torch.amin", {s, Value::ints({-1})});
      } else {
        check(p == 1.0 || p == -1.0 || std::isinf(p), [&] { return str("linalg.matrix_norm: Order ", py_repr(ord), " not supported."); });
        Tensor sums = sum(magnitude, Dims{std::isinf(p) ? -1 : -2});  // row sums for inf, column sums for 1
        r = p > 0 ? amax(sums, {-1}) : op("torch.amin", {sums, Value::ints({-1})});
      }
    }
    if (!keepdim) return r;
    for (int64_t d : {std::min(dims[0], dims[1]), std::max(dims[0], dims[1])}) r = unsqueeze(r, d);
    return r;
  }}, decomposed);
  define(t, {{"torch.linalg.norm"}, "a, /, ord=None, dim=None, keepdim=False, *, dtype=None", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    bool matrix = x.is_none("dim") ? (!x.is_none("ord") && a.ndim() == 2) : x.ints("dim").size() == 2;
    if (x.is_none("dim") && x.is_none("ord"))
      return op("torch.linalg.vector_norm", {a, 2.0, Value(), x["keepdim"]}, {{"dtype", x["dtype"]}});
    if (matrix)
      return op("torch.linalg.matrix_norm", {a, x.is_none("ord") ? Value(std::string("fro")) : x["ord"], x.is_none("dim") ? Value::ints({-2, -1}) : x["dim"],
                                             x["keepdim"]}, {{"dtype", x["dtype"]}});
    check(x.is_none("dim") ? a.ndim() == 1 : x.ints("dim").size() == 1, "linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D");
    return op("torch.linalg.vector_norm", {a, x.is_none("ord") ? Value(2.0) : x["ord"], x["dim"], x["keepdim"]}, {{"dtype", x["dtype"]}});
  }}, decomposed);
  define(t, {{"torch.linalg.matmul"}, "a, b, /", [](const Args& x) -> Value { return matmul(x.tensor("a"), x.tensor("b")); }}, decomposed);
  define(t, {{"torch.linalg.diagonal"}, "a, /, *, offset=0, dim1=-2, dim2=-1", [](const Args& x) -> Value {
    return op("torch.diagonal", {x["a"], x["offset"], x["dim1"], x["dim2"]});
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
    int64_t dim = langs::canonicalize_dim(a.ndim(), x.integer("dim"));
    check(a.shape()[dim] == 3 && b.shape()[dim] == 3, [&] { return str("linalg.cross: inputs dimension ", dim, " must have length 3. Got ", a.shape()[dim], " and ", b.shape()[dim]); });
    Values both = core::maybe_broadcast({a, b});
    return cross(both[0].as_tensor(), both[1].as_tensor(), dim);
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
    Tensor column = unsqueeze(d, 1);
    Tensor scale = op("torch.sqrt", {mul(column, unsqueeze(d, 0))});
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
