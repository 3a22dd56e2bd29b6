// Torch ops that are a few other torch ops: NumPy-style stacking, splitting and flipping, trace,
// inner and tensordot, NaN-ignoring sums, and other names of existing ops. Each runs as its
// decomposition.
#include <cmath>
#include <numbers>

#include "langs/torch_registry.h"

namespace thundercc::ltorch {
namespace {

const std::pair<const char*, const char*> kAliases[] = {
    {"torch.divide", "torch.div"}, {"torch.Tensor.divide", "torch.div"}, {"torch.narrow_copy", "torch.narrow"},
    {"torch.split_with_sizes", "torch.split"}, {"torch.pinverse", "torch.linalg.pinv"},
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

Tensor sum_ignoring_nan(const Args& x) {
  const Tensor& a = x.tensor("a");
  Tensor nan = op("torch.isnan", {a});
  Tensor zeroed = where(nan, 0.0, a);
  return op("torch.sum", {zeroed, x["dim"], x["keepdim"]}, {{"dtype", x["dtype"]}});
}

}  // namespace

void register_composites(SymbolTable& t) {
  for (const auto& [alias, id] : kAliases) t.add_alias(id, alias);
  const std::vector<std::string> decomposed{kRunsDecomposed};
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
  define(t, {{"torch.diagflat", "torch.Tensor.diagflat"}, "a, /, offset=0", [](const Args& x) -> Value {
    return op("torch.diag", {flatten(x.tensor("a")), x["offset"]});
  }}, decomposed);
}

}  // namespace thundercc::ltorch
