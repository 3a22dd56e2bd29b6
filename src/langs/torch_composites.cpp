// Torch ops that are a few other torch ops: NumPy-style stacking, splitting and flipping, trace,
// inner and tensordot, NaN-ignoring sums, and other names of existing ops. Each runs as its
// decomposition.
#include <algorithm>
#include <cmath>
#include <numbers>

#include "langs/torch_registry.h"

namespace thundercc::ltorch {
namespace {

const std::pair<const char*, const char*> kAliases[] = {
    {"torch.divide", "torch.div"}, {"torch.Tensor.divide", "torch.div"}, {"torch.narrow_copy", "torch.narrow"},
    {"torch.split_with_sizes", "torch.split"}, {"torch.pinverse", "torch.linalg.pinv"},
    {"torch.subtract", "torch.sub"}, {"torch.Tensor.subtract", "torch.sub"},
};

Values each(const Args& x, const char* id) {
  Values out;
  for (const auto& v : x["tensors"].items())
    for (const auto& t : tensors_in(v)) out.push_back(op(id, {t}));
  return out;
}

std::vector<Tensor> as_tensors(const Values& values) {
  std::vector<Tensor> out;
  for (const auto& v : values) out.push_back(v.as_tensor());
  return out;
}

// The pieces of tensor_split along dim, split evenly when given a number of sections.
Value split_along(const Args& x, const char* name, int64_t dim, int64_t min_ndim) {
  const Tensor& a = x.tensor("a");
  check(a.ndim() >= min_ndim, [&] { return str("torch.", name, " requires a tensor with at least ", min_ndim, " dimension, but got a tensor with ", a.ndim(), " dimensions!"); });
  const Value& sections = x["indices_or_sections"];
  if (sections.is_int_like())
    check(sections.as_int() != 0 && a.shape()[dim] % sections.as_int() == 0, [&] {
      return str("torch.", name, " attempted to split along dimension ", dim, ", but the size of the dimension ", a.shape()[dim],
                 " is not divisible by the split_size ", sections.as_int(), "!");
    });
  return call("torch.tensor_split", {a, sections, dim});
}

// A zero of a's dtype (False for bools, so that a where keeps the dtype).
Value zero_of(const Tensor& a) { return a.dtype().is_bool() ? Value(false) : Value(int64_t{0}); }

// The sum with NaNs counted as zeros, of a's own dtype's promotion (an integer or bool tensor's
// is int64, as sum's).
Tensor sum_ignoring_nan(const Args& x) {
  const Tensor& a = x.tensor("a");
  Tensor nan = op("torch.isnan", {a});
  Tensor zeroed = where(nan, zero_of(a), a);
  return op("torch.sum", {zeroed, x["dim"], x["keepdim"]}, {{"dtype", x["dtype"]}});
}

// A constant tensor of a's device, from values known when tracing.
Tensor constant(const Values& values, const Shape& shape, const Tensor& like, DType dtype) {
  return reshape(prims::tensor_from_sequence(Value::list(values), like.device(), dtype), shape);
}

// t's last two dims moved to dims (dim1, dim2) of a tensor of ndim dims (t has ndim dims, or just
// the two: then it is broadcast over the others).
Tensor plane_to(const Tensor& t, int64_t ndim, int64_t dim1, int64_t dim2) {
  Tensor full_rank = t;
  if (t.ndim() < ndim) {
    Shape ones(ndim - t.ndim(), 1);
    ones.insert(ones.end(), t.shape().begin(), t.shape().end());
    full_rank = reshape(t, ones);
  }
  return op("torch.movedim", {full_rank, Value::ints({ndim - 2, ndim - 1}), Value::ints({dim1, dim2})});
}

// src's last dim laid along the offset diagonal of a rows x columns plane: (values, mask), values
// (..., rows, columns) holding src[k] wherever the mask (rows, columns) is set.
std::pair<Tensor, Tensor> diagonal_plane(const Tensor& src, int64_t rows, int64_t columns, int64_t offset) {
  int64_t length = src.shape().back();
  Values index, mask;
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < columns; ++j) {
      int64_t k = offset >= 0 ? i : j;
      index.push_back(std::clamp<int64_t>(k, 0, std::max<int64_t>(length - 1, 0)));
      mask.push_back(j - i == offset && k < length);
    }
  Shape plane = src.shape();
  plane.back() = rows;
  plane.push_back(columns);
  Tensor picked = length == 0 ? full(plane, zero_of(src), src.device(), src.dtype())
                              : reshape(op("torch.index_select", {src, -1, constant(index, {rows * columns}, src, dtypes::int64)}), plane);
  return {picked, constant(mask, {rows, columns}, src, dtypes::bool8)};
}

// The trapezoid rule's terms along dim: (y[i + 1] + y[i]) / 2 times the spacing (a number, or a
// tensor x's differences).
Tensor trapezoid_terms(const Args& x, int64_t dim) {
  const Tensor& y = x.tensor("y");
  int64_t length = y.shape()[dim];
  Tensor later = narrow(y, dim, std::min<int64_t>(1, length), std::max<int64_t>(length - 1, 0));
  Tensor earlier = narrow(y, dim, 0, std::max<int64_t>(length - 1, 0));
  Tensor pairs = later + earlier;
  if (!x.is_none("x") && x["x"].is_tensor()) {
    Tensor spacing = x.tensor("x");
    if (spacing.ndim() == 1) {
      check(spacing.shape()[0] == length, [&] { return str("trapezoid: There must be one `x` value for each sample point"); });
      Shape along(y.ndim(), 1);
      along[dim] = length;
      spacing = reshape(spacing, along);
      dim = langs::canonicalize_dim(y.ndim(), dim);
    }
    int64_t n = spacing.shape()[langs::canonicalize_dim(spacing.ndim(), dim)];
    int64_t d = langs::canonicalize_dim(spacing.ndim(), dim);
    Tensor later_x = narrow(spacing, d, std::min<int64_t>(1, n), std::max<int64_t>(n - 1, 0));
    Tensor earlier_x = narrow(spacing, d, 0, std::max<int64_t>(n - 1, 0));
    Tensor differences = later_x - earlier_x;
    return differences * pairs;
  }
  const Value& dx = x.is_none("dx") ? (x.is_none("x") ? Value(1.0) : x["x"]) : x["dx"];
  return mul(pairs, dx);
}
}  // namespace

void register_composites(SymbolTable& t) {
  for (const auto& [alias, id] : kAliases) t.add_alias(id, alias);
  const std::vector<std::string> decomposed{kRunsDecomposed};
  // itertools.combinations of a vector's elements: the index tuples are known from its length, so
  // the result is one take per position of the tuple.
  define(t, {{"torch.combinations"}, "a, /, r=2, with_replacement=False", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    check(a.ndim() == 1, [&] { return str("Expect a 1D vector, but got shape ", shape_repr(a.shape())); });
    int64_t r = x.integer("r"), n = a.shape()[0];
    check(r >= 0, [&] { return str("Expect a non-negative number, but got ", r); });
    bool repeats = x.flag("with_replacement");
    std::vector<std::vector<int64_t>> columns(static_cast<size_t>(r));
    std::vector<int64_t> tuple(static_cast<size_t>(r), 0);
    // Tuples in lexicographic order, each index after the previous one (or equal to it, with replacement).
    auto next = [&](auto&& self, size_t position, int64_t from) -> void {
      if (position == tuple.size()) {
        for (size_t i = 0; i < tuple.size(); ++i) columns[i].push_back(tuple[i]);
        return;
      }
      for (int64_t i = from; i < n; ++i) {
        tuple[position] = i;
        self(self, position + 1, repeats ? i : i + 1);
      }
    };
    if (r > 0) next(next, 0, 0);
    int64_t count = r == 0 ? 0 : static_cast<int64_t>(columns[0].size());
    check(count <= (int64_t{1} << 20), [&] { return str("combinations: ", count, " tuples are more than this decomposition writes out"); }, "NotImplementedError");
    if (count == 0) return full({0, r}, 0, a.device(), a.dtype().strong());
    std::vector<Tensor> picked;
    for (const auto& column : columns) {
      Tensor index = prims::tensor_from_sequence(Value::ints(column), a.device(), dtypes::int64);
      picked.push_back(prims::take(a, index, 0));
    }
    return op("torch.stack", {Value::list(Values(picked.begin(), picked.end())), 1});
  }}, decomposed);
  define(t, {{"torch.ravel", "torch.Tensor.ravel"}, "a, /", [](const Args& x) -> Value { return flatten(x.tensor("a")); }}, decomposed);
  define(t, {{"torch.fliplr", "torch.Tensor.fliplr"}, "a, /", [](const Args& x) -> Value {
    check(x.tensor("a").ndim() >= 2, "Input must be >= 2-d.");
    return op("torch.flip", {x["a"], Value::ints({1})});
  }}, decomposed);
  define(t, {{"torch.flipud", "torch.Tensor.flipud"}, "a, /", [](const Args& x) -> Value {
    check(x.tensor("a").ndim() >= 1, "Input must be >= 1-d.");
    return op("torch.flip", {x["a"], Value::ints({0})});
  }}, decomposed);
  define(t, {{"torch.hstack"}, "tensors, /", [](const Args& x) -> Value {
    std::vector<Tensor> parts = as_tensors(each(x, "torch.atleast_1d"));
    check(!parts.empty(), "hstack expects a non-empty TensorList");
    return cat(parts, parts[0].ndim() == 1 ? 0 : 1);
  }}, decomposed);
  define(t, {{"torch.vstack", "torch.row_stack"}, "tensors, /", [](const Args& x) -> Value {
    return cat(as_tensors(each(x, "torch.atleast_2d")), 0);
  }}, decomposed);
  define(t, {{"torch.dstack"}, "tensors, /", [](const Args& x) -> Value {
    return cat(as_tensors(each(x, "torch.atleast_3d")), 2);
  }}, decomposed);
  define(t, {{"torch.column_stack"}, "tensors, /", [](const Args& x) -> Value {
    std::vector<Tensor> columns;
    for (const auto& t : tensors_in(x["tensors"]))
      columns.push_back(t.ndim() <= 1 ? reshape(t, {t.numel(), 1}) : t);
    return cat(columns, 1);
  }}, decomposed);
  define(t, {{"torch.hsplit", "torch.Tensor.hsplit"}, "a, indices_or_sections, /", [](const Args& x) -> Value {
    return split_along(x, "hsplit", x.tensor("a").ndim() == 1 ? 0 : 1, 1);
  }}, decomposed);
  define(t, {{"torch.vsplit", "torch.Tensor.vsplit"}, "a, indices_or_sections, /",
             [](const Args& x) -> Value { return split_along(x, "vsplit", 0, 2); }}, decomposed);
  define(t, {{"torch.dsplit", "torch.Tensor.dsplit"}, "a, indices_or_sections, /",
             [](const Args& x) -> Value { return split_along(x, "dsplit", 2, 3); }}, decomposed);
  define(t, {{"torch.trace", "torch.Tensor.trace"}, "a, /", [](const Args& x) -> Value {
    check(x.tensor("a").ndim() == 2, "trace: expected a matrix");
    Tensor diagonal = op("torch.diagonal", {x["a"]});
    return sum(diagonal);
  }}, decomposed);
  // The contraction of a's last dims dims_a with b's dims_b: both flattened to matrices, one product.
  define(t, {{"torch.tensordot"}, "a, b, /, dims=2, out=None", [](const Args& x) -> Value {
    check(x.is_none("out"), "tensordot with out= is not supported", "NotImplementedError");
    const Tensor& a = x.tensor("a");
    const Tensor& b = x.tensor("b");
    Dims dims_a, dims_b;
    const Value& dims = x["dims"];
    if (dims.is_int_like()) {
      int64_t n = dims.as_int();
      check(n >= 0 && n <= a.ndim() && n <= b.ndim(), [&] { return str("tensordot expects dims >= 0, but got dims=", n); });
      for (int64_t i = 0; i < n; ++i) {
        dims_a.push_back(a.ndim() - n + i);
        dims_b.push_back(i);
      }
    } else {
      auto part = [](const Value& v) { return v.is_int_like() ? Dims{v.as_int()} : v.as_ints(); };
      dims_a = langs::canonicalize_dims(a.ndim(), part(dims.items().at(0)));
      dims_b = langs::canonicalize_dims(b.ndim(), part(dims.items().at(1)));
      check(dims_a.size() == dims_b.size(), "both dimension lists should have same length");
    }
    int64_t contracted = 1;
    Shape kept_a, kept_b;
    Dims order_a, order_b = dims_b;
    for (int64_t d = 0; d < a.ndim(); ++d)
      if (std::find(dims_a.begin(), dims_a.end(), d) == dims_a.end()) {
        order_a.push_back(d);
        kept_a.push_back(a.shape()[d]);
      }
    for (size_t i = 0; i < dims_a.size(); ++i) {
      check(a.shape()[dims_a[i]] == b.shape()[dims_b[i]], [&] { return str("contracted dimensions need to match, but first has size ", a.shape()[dims_a[i]], " in dim ", dims_a[i], " and second has size ", b.shape()[dims_b[i]], " in dim ", dims_b[i]); });
      order_a.push_back(dims_a[i]);
      contracted *= a.shape()[dims_a[i]];
    }
    for (int64_t d = 0; d < b.ndim(); ++d)
      if (std::find(dims_b.begin(), dims_b.end(), d) == dims_b.end()) {
        order_b.push_back(d);
        kept_b.push_back(b.shape()[d]);
      }
    int64_t rows = 1, columns = 1;
    for (auto s : kept_a) rows *= s;
    for (auto s : kept_b) columns *= s;
    Tensor left = reshape(permute(a, order_a), {rows, contracted});
    Tensor right = reshape(permute(b, order_b), {contracted, columns});
    Shape result = kept_a;
    result.insert(result.end(), kept_b.begin(), kept_b.end());
    return reshape(matmul(left, right), result);
  }}, decomposed);
  define(t, {{"torch.inner", "torch.Tensor.inner"}, "a, b, /", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    const Tensor& b = x.tensor("b");
    if (a.ndim() == 0 || b.ndim() == 0) return mul(a, b);
    return op("torch.tensordot", {a, b, Value::tuple({Value::ints({-1}), Value::ints({-1})})});
  }}, decomposed);
  // k quarter turns from the first of dims toward the second.
  define(t, {{"torch.rot90", "torch.Tensor.rot90"}, "a, /, k=1, dims=(0, 1)", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    auto dims = x.ints("dims");
    check(dims.size() == 2, [&] { return str("expected total rotation dims == 2, but got dims = ", dims.size()); });
    check(a.ndim() >= 2, [&] { return str("expected total dims >= 2, but got total dims = ", a.ndim()); });
    int64_t d0 = langs::canonicalize_dim(a.ndim(), dims[0]), d1 = langs::canonicalize_dim(a.ndim(), dims[1]);
    check(d0 != d1, [&] { return str("expected rotation dims to be different, but got dim0 = ", d0, " and dim1 = ", d1); });
    int64_t k = ((x.integer("k") % 4) + 4) % 4;
    if (k == 0) return a;
    if (k == 2) return op("torch.flip", {a, Value::ints({d0, d1})});
    Tensor flipped = op("torch.flip", {a, Value::ints({k == 1 ? d1 : d0})});
    return transpose(flipped, d0, d1);
  }}, decomposed);
  // log det: log|det| + log(sign), NaN for a negative determinant, -inf for a singular matrix.
  define(t, {{"torch.logdet", "torch.Tensor.logdet"}, "a, /", [](const Args& x) -> Value {
    Value factors = call("torch.linalg.slogdet", {x["a"]});
    Tensor sign = factors.items()[0].as_tensor();
    Tensor log_sign = op("torch.log", {sign});
    return add(factors.items()[1], log_sign);
  }}, decomposed);
  define(t, {{"torch.sgn", "torch.Tensor.sgn"}, "a, /", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    if (!a.dtype().is_complex()) return op("torch.sign", {a});
    Tensor magnitude = abs(a);
    Tensor zero = eq(magnitude, 0.0);
    Tensor unit = true_divide(a, magnitude);
    return where(zero, 0, unit);
  }}, decomposed);
  define(t, {{"torch.nansum", "torch.Tensor.nansum"}, "a, /, dim=None, keepdim=False, *, dtype=None",
             [](const Args& x) -> Value { return sum_ignoring_nan(x); }}, decomposed);
  define(t, {{"torch.nanmean", "torch.Tensor.nanmean"}, "a, /, dim=None, keepdim=False, *, dtype=None", [](const Args& x) -> Value {
    Tensor total = sum_ignoring_nan(x);
    Tensor counted = logical_not(op("torch.isnan", {x["a"]}));
    Tensor count = op("torch.sum", {counted, x["dim"], x["keepdim"]});
    return true_divide(total, count);
  }}, decomposed);
  define(t, {{"torch.isreal", "torch.Tensor.isreal"}, "a, /", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    if (!a.dtype().is_complex()) return full(a.shape(), true, a.device(), dtypes::bool8);
    return eq(op("torch.imag", {a}), 0);
  }}, decomposed);
  // a's elements at index, a read as a 1-D tensor; negative indices count from the end.
  define(t, {{"torch.take", "torch.Tensor.take"}, "a, index, /", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    const Tensor& index = x.tensor("index");
    check(index.dtype() == dtypes::int64, [&] { return str("take(): Expected a long tensor for index, but got ", index.dtype().torch_name()); });
    Tensor flat = reshape(index, {index.numel()});
    Tensor negative = lt(flat, int64_t{0});
    Tensor wrapped = where(negative, add(flat, a.numel()), flat);
    return reshape(prims::take(reshape(a, {a.numel()}), wrapped, 0), index.shape());
  }}, decomposed);
  define(t, {{"torch.heaviside", "torch.Tensor.heaviside"}, "a, values, /", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    check(a.dtype() == x.tensor("values").dtype(), "heaviside is not yet implemented for tensors with different dtypes");
    Tensor zero = eq(a, 0);
    Tensor step = to(gt(a, 0), a.dtype());
    return where(zero, x["values"], step);
  }}, decomposed);
  // log2(2^a + 2^b) = max + log2(1 + 2^-|a - b|), equal operands no gap apart (infinities included).
  define(t, {{"torch.logaddexp2", "torch.Tensor.logaddexp2"}, "a, b, /", [](const Args& x) -> Value {
    Tensor high = maximum(x["a"], x["b"]);
    Tensor same = eq(x["a"], x["b"]);
    Tensor distance = abs(sub(x["a"], x["b"]));
    Tensor gap = where(same, 0.0, distance);
    Tensor term = op("torch.exp2", {neg(gap)});
    return add(high, mul(log1p(term), 1.0 / std::numbers::ln2));
  }}, decomposed);
  define(t, {{"torch.msort", "torch.Tensor.msort"}, "a, /", [](const Args& x) -> Value {
    return call("torch.sort", {x["a"], int64_t{0}}).items()[0];
  }}, decomposed);
  define(t, {{"torch.aminmax", "torch.Tensor.aminmax"}, "a, /, *, dim=None, keepdim=False", [](const Args& x) -> Value {
    Value dims = x.is_none("dim") ? Value::ints({}) : x["dim"];
    Tensor low = op("torch.amin", {x["a"], dims, x["keepdim"]});
    Tensor high = op("torch.amax", {x["a"], dims, x["keepdim"]});
    // A 0-d tensor reduced along dim 0 and kept has that dimension (PyTorch's aminmax).
    if (x.tensor("a").ndim() == 0 && !x.is_none("dim") && x.flag("keepdim")) return Value::tuple({reshape(low, {1}), reshape(high, {1})});
    return Value::tuple({low, high});
  }}, decomposed);
  define(t, {{"torch.dist", "torch.Tensor.dist"}, "a, b, /, p=2", [](const Args& x) -> Value {
    Tensor difference = sub(x["a"], x["b"]);
    return op("torch.linalg.vector_norm", {difference, x["p"]});
  }}, decomposed);
  // tile: repeat with the repetitions padded on the left with ones to a's rank.
  define(t, {{"torch.tile", "torch.Tensor.tile"}, "a, /, *dims", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    std::vector<int64_t> dims = x.ints("dims");
    if (static_cast<int64_t>(dims.size()) < a.ndim()) dims.insert(dims.begin(), a.ndim() - dims.size(), 1);
    return op("torch.Tensor.repeat", {a, Value::ints(dims)});
  }}, decomposed);
  // A's last dim on the offset diagonal of new dims dim1 and dim2, zeros elsewhere.
  define(t, {{"torch.diag_embed", "torch.Tensor.diag_embed"}, "a, /, offset=0, dim1=-2, dim2=-1", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    check(a.ndim() >= 1, "diag_embed: expected a tensor of at least one dimension");
    int64_t offset = x.integer("offset"), ndim = a.ndim() + 1;
    int64_t dim1 = langs::canonicalize_dim(ndim, x.integer("dim1")), dim2 = langs::canonicalize_dim(ndim, x.integer("dim2"));
    check(dim1 != dim2, [&] { return str("diagonal dimensions cannot be identical ", x.integer("dim1"), ", ", x.integer("dim2")); });
    int64_t n = a.shape().back() + std::abs(offset);
    auto [values, mask] = diagonal_plane(a, n, n, offset);
    Tensor placed = plane_to(values, ndim, dim1, dim2);
    return where(plane_to(mask, ndim, dim1, dim2), placed, zero_of(a));
  }}, decomposed);
  // a with its diagonal (offset, dim1, dim2) replaced by src.
  define(t, {{"torch.diagonal_scatter", "torch.Tensor.diagonal_scatter"}, "a, src, /, offset=0, dim1=0, dim2=1", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    int64_t offset = x.integer("offset");
    int64_t dim1 = langs::canonicalize_dim(a.ndim(), x.integer("dim1")), dim2 = langs::canonicalize_dim(a.ndim(), x.integer("dim2"));
    Tensor diagonal = op("torch.diagonal", {a, offset, dim1, dim2});
    check(x.tensor("src").shape() == diagonal.shape(), [&] {
      return str("expected src to have a size equal to the slice of self. src size = ", shape_repr(x.tensor("src").shape()), ", slice size = ", shape_repr(diagonal.shape()));
    });
    Tensor src = core::convert(x.tensor("src"), a.dtype());
    auto [values, mask] = diagonal_plane(src, a.shape()[dim1], a.shape()[dim2], offset);
    Tensor placed = plane_to(values, a.ndim(), dim1, dim2);
    return where(plane_to(mask, a.ndim(), dim1, dim2), placed, a);
  }}, decomposed);
  // a with a.select(dim, index) replaced by src.
  define(t, {{"torch.select_scatter", "torch.Tensor.select_scatter"}, "a, src, /, dim, index", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    int64_t dim = langs::canonicalize_dim(a.ndim(), x.integer("dim"));
    int64_t size = a.shape()[dim], index = x.integer("index");
    check(index >= -size && index < size, [&] { return str("select_scatter(): index ", index, " out of range for tensor of size ", shape_repr(a.shape()), " at dimension ", dim); });
    if (index < 0) index += size;
    Tensor selected = op("torch.select", {a, dim, index});
    check(x.tensor("src").shape() == selected.shape(), [&] {
      return str("expected src to have a size equal to the slice of self. src size = ", shape_repr(x.tensor("src").shape()), ", slice size = ", shape_repr(selected.shape()));
    });
    Values positions;
    for (int64_t i = 0; i < size; ++i) positions.push_back(i == index);
    Shape along(a.ndim(), 1);
    along[dim] = size;
    Tensor mask = constant(positions, along, a, dtypes::bool8);
    Tensor src = unsqueeze(core::convert(x.tensor("src"), a.dtype()), dim);
    return where(mask, src, a);
  }}, decomposed);
  // a with a[start:end:step] along dim replaced by src.
  define(t, {{"torch.slice_scatter", "torch.Tensor.slice_scatter"}, "a, src, /, dim=0, start=None, end=None, step=1", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    int64_t dim = langs::canonicalize_dim(a.ndim(), x.integer("dim"));
    int64_t size = a.shape()[dim], step = x.integer("step");
    check(step > 0, "slice step must be positive");
    auto bound = [&](const char* name, int64_t fallback) {
      if (x.is_none(name)) return fallback;
      int64_t v = x.integer(name);
      if (v < 0) v += size;
      return std::clamp<int64_t>(v, 0, size);
    };
    int64_t start = bound("start", 0), end = std::max(bound("end", size), start);
    int64_t count = (end - start + step - 1) / step;
    Shape sliced = a.shape();
    sliced[dim] = count;
    check(x.tensor("src").shape() == sliced, [&] {
      return str("expected src to have a size equal to the slice of self. src size = ", shape_repr(x.tensor("src").shape()), ", slice size = ", shape_repr(sliced));
    });
    if (count == 0) return a;
    Tensor src = core::convert(x.tensor("src"), a.dtype());
    Values index, positions;
    for (int64_t i = 0; i < size; ++i) {
      bool in = i >= start && i < end && (i - start) % step == 0;
      positions.push_back(in);
      index.push_back(std::clamp<int64_t>((i - start) / step, 0, count - 1));
    }
    Tensor spread = op("torch.index_select", {src, dim, constant(index, {size}, a, dtypes::int64)});
    Shape along(a.ndim(), 1);
    along[dim] = size;
    return where(constant(positions, along, a, dtypes::bool8), spread, a);
  }}, decomposed);
  // a with the positions index lists along dim set to value.
  define(t, {{"torch.index_fill", "torch.Tensor.index_fill"}, "a, dim, index, value, /", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    const Tensor& index = x.tensor("index");
    check(index.ndim() <= 1, "index_fill_(): Index is supposed to be a vector");
    check(index.dtype() == dtypes::int64, "index_fill_(): Expected dtype int64 for index.");
    int64_t rank = std::max<int64_t>(a.ndim(), 1);
    int64_t dim = langs::canonicalize_dim(rank, x.integer("dim"));
    int64_t size = a.ndim() == 0 ? 1 : a.shape()[dim];
    Tensor flat = reshape(index, {index.numel()});
    Tensor negative = lt(flat, int64_t{0});
    Tensor wrapped = where(negative, add(flat, size), flat);
    Tensor positions = op("torch.arange", {size}, {{"device", Value(a.device())}});
    Tensor hits = eq(unsqueeze(positions, 1), wrapped);
    Tensor listed = op("torch.any", {hits, 1});
    Shape along(a.ndim(), 1);
    if (a.ndim() > 0) along[dim] = size;
    Tensor mask = reshape(listed, along);
    const Value& value = x["value"];
    check(!value.is_tensor() || value.as_tensor().ndim() == 0, "index_fill_ only supports a 0-dimensional value tensor");
    Tensor fill = value.is_tensor() ? core::convert(value.as_tensor(), a.dtype()) : full({}, core::maybe_convert_to_dtype(value, a.dtype()), a.device(), a.dtype());
    return where(mask, fill, a);
  }}, decomposed);
  // (..., C, H r, W r) -> (..., C r r, H, W): pixel_shuffle's inverse.
  define(t, {{"torch.nn.functional.pixel_unshuffle", "torch.pixel_unshuffle"}, "input, downscale_factor", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("input");
    int64_t r = x.integer("downscale_factor");
    check(a.ndim() >= 3, [&] { return str("pixel_unshuffle expects input to have at least 3 dimensions, but got input with ", a.ndim(), " dimension(s)"); });
    check(r > 0, [&] { return str("pixel_unshuffle expects a positive downscale_factor, but got ", r); });
    int64_t n = a.ndim(), C = a.shape()[n - 3], H = a.shape()[n - 2], W = a.shape()[n - 1];
    check(H % r == 0 && W % r == 0, "pixel_unshuffle expects height and width to be divisible by downscale_factor");
    Shape batch(a.shape().begin(), a.shape().end() - 3);
    int64_t b = static_cast<int64_t>(batch.size());
    Shape split = batch;
    split.insert(split.end(), {C, H / r, r, W / r, r});
    Dims order;
    for (int64_t d = 0; d < b; ++d) order.push_back(d);
    order.insert(order.end(), {b, b + 2, b + 4, b + 1, b + 3});  // (C, r, r, H, W)
    Shape result = batch;
    result.insert(result.end(), {C * r * r, H / r, W / r});
    return reshape(permute(reshape(a, split), order), result);
  }}, decomposed);
  // Each slice along dim whose p-norm exceeds maxnorm scaled down to maxnorm (PyTorch's 1e-7 guard).
  define(t, {{"torch.renorm", "torch.Tensor.renorm"}, "a, p, dim, maxnorm, /", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    check(x.real("p") > 0, "renorm: non-positive-norm not supported");
    check(x.real("maxnorm") >= 0, [&] { return str("renorm: expected maxnorm to be >= 0 but got ", x.real("maxnorm")); });
    check(a.ndim() > 1, [&] { return str("renorm: input needs at least 2 dimensions, got ", a.ndim(), " dimensions"); });
    int64_t dim = langs::canonicalize_dim(a.ndim(), x.integer("dim"));
    Dims others;
    for (int64_t d = 0; d < a.ndim(); ++d)
      if (d != dim) others.push_back(d);
    Tensor norm = op("torch.linalg.vector_norm", {a, x["p"], Value::ints(others), true});
    Tensor above = gt(norm, x["maxnorm"]);
    Tensor scale = true_divide(x["maxnorm"], norm + 1e-7);
    Tensor factor = where(above, scale, 1.0);
    return a * (factor.dtype() == a.dtype() ? factor : to(factor, a.dtype()));
  }}, decomposed);
  // The trapezoid rule along dim, spacing dx or the sample points x.
  auto trapezoid = [](const Args& x, bool cumulative) -> Value {
    const Tensor& y = x.tensor("y");
    check(y.ndim() > 0, "trapezoid: expected y to have at least one dimension");
    int64_t dim = langs::canonicalize_dim(y.ndim(), x.integer("dim"));
    Tensor terms = trapezoid_terms(x, dim) * 0.5;
    if (cumulative) return op("torch.cumsum", {terms, dim});
    return sum(terms, Dims{dim});
  };
  define(t, {{"torch.trapezoid"}, "y, /, x=None, *, dx=None, dim=-1", [trapezoid](const Args& x) -> Value { return trapezoid(x, false); }}, decomposed);
  define(t, {{"torch.trapz"}, "y, /, x=None, *, dx=None, dim=-1", [trapezoid](const Args& x) -> Value { return trapezoid(x, false); }}, decomposed);
  define(t, {{"torch.cumulative_trapezoid"}, "y, /, x=None, *, dx=None, dim=-1", [trapezoid](const Args& x) -> Value { return trapezoid(x, true); }}, decomposed);
  // |a - b| <= atol + rtol |b|, equal values (infinities) always, NaNs when equal_nan.
  define(t, {{"torch.isclose", "torch.Tensor.isclose"}, "a, b, /, rtol=1e-05, atol=1e-08, equal_nan=False", [](const Args& x) -> Value {
    Tensor a = x.tensor("a");
    Tensor b = x.tensor("b");
    check(a.dtype() == b.dtype(), [&] { return str(a.dtype().torch_name(), " did not match ", b.dtype().torch_name()); });
    check(x.real("rtol") >= 0, "rtol must be greater than or equal to zero");
    check(x.real("atol") >= 0, "atol must be greater than or equal to zero");
    Tensor close = eq(a, b);
    if (x.flag("equal_nan") && a.dtype().is_inexact()) {
      Tensor both_nan = op("torch.logical_and", {op("torch.isnan", {a}), op("torch.isnan", {b})});
      close = op("torch.logical_or", {close, both_nan});
    }
    if (!a.dtype().is_inexact()) {
      if (x.real("rtol") == 0 && x.real("atol") == 0) return close;
      a = to(a, dtypes::float32);
      b = to(b, dtypes::float32);
    }
    Tensor allowed = add(abs(b) * x.real("rtol"), x["atol"]);
    Tensor error = abs(a - b);
    Tensor within = op("torch.logical_and", {op("torch.isfinite", {error}), le(error, allowed)});
    return op("torch.logical_or", {close, within});
  }}, decomposed);
  // The p-distances between a's rows i < j, in row-major order of the pairs.
  define(t, {{"torch.nn.functional.pdist", "torch.pdist"}, "a, /, p=2", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    check(a.ndim() == 2, [&] { return str("pdist only supports 2D tensors, got: ", a.ndim(), "D"); });
    check(x.real("p") >= 0, "pdist only supports non-negative p values");
    int64_t n = a.shape()[0];
    Values first, second;
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = i + 1; j < n; ++j) {
        first.push_back(i);
        second.push_back(j);
      }
    int64_t pairs = static_cast<int64_t>(first.size());
    Tensor rows_i = op("torch.index_select", {a, 0, constant(first, {pairs}, a, dtypes::int64)});
    Tensor rows_j = op("torch.index_select", {a, 0, constant(second, {pairs}, a, dtypes::int64)});
    return op("torch.linalg.vector_norm", {rows_i - rows_j, x["p"], Value::ints({1})});
  }}, decomposed);
  define(t, {{"torch.diagflat", "torch.Tensor.diagflat"}, "a, /, offset=0", [](const Args& x) -> Value {
    return op("torch.diag", {flatten(x.tensor("a")), x["offset"]});
  }}, decomposed);
}

}  // namespace thundercc::ltorch
