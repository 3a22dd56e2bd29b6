// Reductions, softmax and friends: canonicalize dims, compute in a wide enough dtype, reduce with
// a prim, restore kept dims with broadcast_in_dim, convert back.
#include <optional>

#include "langs/torch_registry.h"
#include "thundercc/ir/trace.h"

namespace thundercc::ltorch {
namespace {

using ReducePrim = Tensor (*)(const Tensor&, const std::vector<int64_t>&);

Tensor reduce(const Tensor& a, const std::optional<Dims>& dim, bool keepdim, ReducePrim prim, DType computation, DType result) {
  auto dims = core::reduction_dims(a, dim);
  Tensor r = prim(core::convert(a, computation), dims);
  if (keepdim) r = core::restore_reduced_dims(r, a.shape(), dims);
  return core::convert(r, result);
}

// sum and prod accumulate integers and bools in int64, low precision floats in float32.
Value sum_like(const Args& x, ReducePrim prim) {
  const auto& a = x.tensor("a");
  DType result = optional_dtype(x["dtype"]).value_or(a.dtype().is_exact() ? dtypes::int64 : a.dtype().strong());
  return reduce(a, optional_dims(x["dim"]), x.flag("keepdim"), prim, core::computation_dtype(result), result);
}

// cumsum and cumprod: integers and bools accumulate in int64 unless a dtype is given.
Value scan(const Args& x, Tensor (*prim)(const Tensor&, int64_t)) {
  const auto& a = x.tensor("a");
  DType d = optional_dtype(x["dtype"]).value_or(a.dtype().is_exact() ? dtypes::int64 : a.dtype().strong());
  return prim(core::convert(a, d), langs::canonicalize_dim(std::max<int64_t>(a.ndim(), 1), x.integer("dim")));
}

// The p-norm over dims (all when none), computed in at least float32: max |a| for p = inf, min |a|
// for -inf, the count of nonzeros for 0, (sum |a|^p)^(1/p) otherwise.
Tensor vector_norm_impl(const Tensor& input, double p, const std::optional<Dims>& dims, bool keepdim, std::optional<DType> dtype) {
  check(input.dtype().is_inexact(), [&] {
    return str("linalg.vector_norm: Expected a floating point or complex tensor as input. Got ", input.dtype().full_name());
  });
  // A complex tensor's norm is real: the norm of its magnitudes.
  DType result = to_real_dtype(dtype.value_or(input.dtype().strong()));
  Tensor magnitude = input.dtype().is_complex() ? abs(input) : input;
  magnitude = core::convert(magnitude, core::computation_dtype(result));
  auto reduced = core::reduction_dims(magnitude, dims);
  Tensor norm;
  if (std::isinf(p)) {
    Tensor absolute = abs(magnitude);
    norm = p > 0 ? amax(absolute, reduced, keepdim) : op("torch.amin", {absolute, Value::ints(reduced), keepdim});
  } else if (p == 0) {
    // The count of nonzeros, as a function of the values whose derivative is 0 (autograd's).
    Tensor nonzero = ne(magnitude, int64_t{0});
    Tensor flat = magnitude * 0.0;
    Tensor counted = where(nonzero, 1.0, flat);
    norm = sum(counted, reduced, keepdim);
  } else if (p == 1) {
    norm = sum(abs(magnitude), reduced, keepdim);
  } else {
    // The root's derivative is infinite at a zero vector, where PyTorch's subgradient is 0: the
    // root is taken of a sum kept away from zero, and zero selected after it.
    Tensor powers = p == 2 ? magnitude * magnitude : pow(abs(magnitude), p);
    Tensor total = sum(powers, reduced, keepdim);
    Tensor zero = eq(total, int64_t{0});
    Tensor nonzero_total = where(zero, 1.0, total);
    Tensor root = p == 2 ? sqrt(nonzero_total) : pow(nonzero_total, 1.0 / p);
    norm = where(zero, 0.0, root);
  }
  return core::convert(norm, result);
}

int64_t reduced_numel(const Tensor& a, const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (auto d : dims) n *= a.shape()[d];
  return n;
}

int64_t correction_of(const Args& x) {
  const auto& unbiased = x["unbiased"];
  const auto& correction = x["correction"];
  check(unbiased.is_none() || correction.is_none(), "var: cannot specify both unbiased and correction", "ValueError");
  if (!unbiased.is_none()) return unbiased.as_bool() ? 1 : 0;
  return correction.is_none() ? 1 : correction.as_int();
}

std::pair<Tensor, Tensor> var_mean_impl(const Tensor& a, const std::optional<Dims>& dim, int64_t correction, bool keepdim) {
  check(a.dtype().is_inexact(), [&] {
    return str("std and var only support floating point and complex dtypes, but got ", a.dtype().full_name());
  });
  auto dims = core::reduction_dims(a, dim);
  auto [v, m] = prims::var_mean(core::convert(a, core::computation_dtype(a.dtype())), dims, correction);
  if (keepdim) {
    v = core::restore_reduced_dims(v, a.shape(), dims);
    m = core::restore_reduced_dims(m, a.shape(), dims);
  }
  return {core::convert(v, to_real_dtype(a.dtype())), core::convert(m, a.dtype())};
}

// var, std, var_mean and std_mean of their arguments. PyTorch's overload var(a, unbiased) takes a
// bool where the dims would be: the variance of every element, unbiased or not.
std::pair<Tensor, Tensor> var_mean_of(const Args& x) {
  const Value& dim = x["dim"];
  if (dim.kind() == Value::Kind::Bool) {
    check(x.is_none("unbiased") && x.is_none("correction"), "var: cannot specify both unbiased and correction", "ValueError");
    return var_mean_impl(x.tensor("a"), std::nullopt, dim.as_bool() ? 1 : 0, x.flag("keepdim"));
  }
  return var_mean_impl(x.tensor("a"), optional_dims(dim), correction_of(x), x.flag("keepdim"));
}

Value arg_reduction(const Args& x, bool is_max) {
  const auto& a = x.tensor("a");
  const auto& dim = x["dim"];
  Tensor r = is_max ? prims::argmax(a, dim) : prims::argmin(a, dim);
  if (!x.flag("keepdim")) return r;
  std::vector<int64_t> dims = dim.is_none() ? core::reduction_dims(a, std::nullopt)
                                            : std::vector<int64_t>{langs::canonicalize_dim(a.ndim(), dim.as_int())};
  if (a.ndim() == 0) return r;
  return core::restore_reduced_dims(r, a.shape(), dims);
}

Tensor softmax_impl(const Tensor& a, int64_t dim, std::optional<DType> dtype, bool log) {
  DType result = dtype.value_or(a.dtype());
  DType computation = core::computation_dtype(result);
  Tensor a_ = a.dtype() == computation ? a : to(a, computation);
  Tensor out;
  if (log) {
    out = a_ - logsumexp(a_, {dim}, true);
  } else {
    Tensor a_exp = a_.numel() == 0 ? exp(a_) : exp(a_ - amax(a_, {dim}, true));
    out = a_exp / sum(a_exp, Dims{dim}, true);
  }
  return out.dtype() == result ? out : to(out, result);
}

// a's shape reduced along dim (kept as 1 with keepdim); a 0-d tensor stays 0-d.
Shape reduced_shape(const Tensor& a, int64_t dim, bool keepdim) {
  Shape shape = a.shape();
  if (a.ndim() == 0) return shape;
  if (keepdim) shape[dim] = 1;
  else shape.erase(shape.begin() + dim);
  return shape;
}

// (values, indices) of a selection along dim (median, kthvalue, mode): ATen's kernels.
Value selection(const Tensor& a, int64_t dim, bool keepdim) {
  Shape shape = reduced_shape(a, dim, keepdim);
  return Value::tuple({Tensor::make(shape, a.dtype(), a.device()), Tensor::make(shape, dtypes::int64, a.device())});
}

int64_t selection_dim(const Tensor& a, int64_t dim) { return langs::canonicalize_dim(std::max<int64_t>(a.ndim(), 1), dim); }

// A tensor argument or a number's shape: a number is 0-d.
Shape shape_of(const Value& v) { return v.is_tensor() ? v.as_tensor().shape() : Shape{}; }

}  // namespace

Tensor sum(const Tensor& a, std::optional<Dims> dims, bool keepdim) {
  return op("torch.sum", {a, dims ? Value::ints(*dims) : Value(), keepdim});
}
Tensor mean(const Tensor& a, std::optional<Dims> dims, bool keepdim) {
  return op("torch.mean", {a, dims ? Value::ints(*dims) : Value(), keepdim});
}
Tensor amax(const Tensor& a, const Dims& dims, bool keepdim) { return op("torch.amax", {a, Value::ints(dims), keepdim}); }
Tensor logsumexp(const Tensor& a, const Dims& dims, bool keepdim) {
  return op("torch.logsumexp", {a, Value::ints(dims), keepdim});
}
std::pair<Tensor, Tensor> var_mean(const Tensor& a, const Dims& dims, int64_t correction, bool keepdim) {
  Value out = call("torch.var_mean", {a, Value::ints(dims)}, {{"keepdim", keepdim}, {"correction", correction}});
  return {out.items()[0].as_tensor(), out.items()[1].as_tensor()};
}
Tensor softmax(const Tensor& a, int64_t dim) { return op("torch.softmax", {a, dim}); }
Tensor log_softmax(const Tensor& a, int64_t dim) { return op("torch.log_softmax", {a, dim}); }

void register_reductions(SymbolTable& t) {
  const std::vector<std::string> tags{"REDUCTION_OP"};
  define(t, {{"torch.sum", "torch.Tensor.sum"}, "a, /, dim=None, keepdim=False, *, dtype=None",
             [](const Args& x) { return sum_like(x, prims::sum); }}, tags);
  define(t, {{"torch.prod", "torch.Tensor.prod"}, "a, /, dim=None, keepdim=False, *, dtype=None",
             [](const Args& x) { return sum_like(x, prims::prod); }}, tags);
  define(t, {{"torch.mean", "torch.Tensor.mean"}, "a, /, dim=None, keepdim=False, *, dtype=None", [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    DType result = optional_dtype(x["dtype"]).value_or(a.dtype().strong());
    check(result.is_inexact(), [&] {
      return str("mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: ",
                 result.full_name());
    });
    auto dims = core::reduction_dims(a, optional_dims(x["dim"]));
    DType computation = core::computation_dtype(result);
    Tensor s = prims::sum(core::convert(a, computation), dims);
    Tensor m = prims::div(s, static_cast<double>(reduced_numel(a, dims)));
    if (x.flag("keepdim")) m = core::restore_reduced_dims(m, a.shape(), dims);
    return core::convert(m, result);
  }}, tags);
  define(t, {{"torch.amax", "torch.Tensor.amax"}, "a, /, dim=(), keepdim=False", [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    return reduce(a, x["dim"].as_ints(), x.flag("keepdim"), prims::amax, a.dtype(), a.dtype());
  }}, tags);
  // Seed 003's op: the k largest (or smallest) values along dim and their indices.
  define(t, {{"torch.topk", "torch.Tensor.topk"}, "a, /, k, dim=-1, largest=True, sorted=True", [](const Args& x) -> Value {
    auto [values, indices] = prims::topk(x.tensor("a"), x.integer("k"), x.integer("dim"), x.flag("largest"), x.flag("sorted"));
    return Value::tuple({values, indices});
  }}, tags);
  define(t, {{"torch.amin", "torch.Tensor.amin"}, "a, /, dim=(), keepdim=False", [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    return reduce(a, x["dim"].as_ints(), x.flag("keepdim"), prims::amin, a.dtype(), a.dtype());
  }}, tags);
  define(t, {{"torch.var", "torch.Tensor.var"}, "a, /, dim=None, unbiased=None, keepdim=False, *, correction=None",
             [](const Args& x) -> Value {
    return var_mean_of(x).first;
  }}, tags);
  define(t, {{"torch.std", "torch.Tensor.std"}, "a, /, dim=None, unbiased=None, keepdim=False, *, correction=None",
             [](const Args& x) -> Value {
    return sqrt(var_mean_of(x).first);
  }}, tags);
  define(t, {{"torch.var_mean"}, "a, /, dim=None, unbiased=None, keepdim=False, *, correction=None", [](const Args& x) -> Value {
    auto [v, m] = var_mean_of(x);
    return Value::tuple({v, m});
  }}, tags);
  define(t, {{"torch.argmax", "torch.Tensor.argmax"}, "a, /, dim=None, keepdim=False",
             [](const Args& x) { return arg_reduction(x, true); }}, tags);
  define(t, {{"torch.argmin", "torch.Tensor.argmin"}, "a, /, dim=None, keepdim=False",
             [](const Args& x) { return arg_reduction(x, false); }}, tags);
  // torch.max/min: of everything, of two tensors (maximum), or along a dim as (values, indices).
  auto extreme = [](bool largest) {
    return [largest](const Args& x) -> Value {
      const auto& a = x.tensor("a");
      if (x["dim"].is_tensor()) return op(largest ? "torch.maximum" : "torch.minimum", {a, x["dim"]});
      if (x.is_none("dim")) return op(largest ? "torch.amax" : "torch.amin", {a, Value::ints({})});
      bool keepdim = x.flag("keepdim");
      if (a.ndim() == 0) return Value::tuple({op(largest ? "torch.amax" : "torch.amin", {a, Value::ints({x.integer("dim")}), keepdim}),
                                              op(largest ? "torch.argmax" : "torch.argmin", {a, x["dim"], keepdim})});
      // The values are read at the indices, not reduced again (amax): their gradient goes to the
      // selected element alone, as PyTorch's does, where amax's spreads over ties.
      Tensor indices = op(largest ? "torch.argmax" : "torch.argmin", {a, x["dim"], true});
      Tensor values = op("torch.gather", {a, x["dim"], indices});
      if (keepdim) return Value::tuple({values, indices});
      return Value::tuple({squeeze(values, {x.integer("dim")}), squeeze(indices, {x.integer("dim")})});
    };
  };
  define(t, {{"torch.max", "torch.Tensor.max"}, "a, /, dim=None, keepdim=False", extreme(true)}, tags);
  define(t, {{"torch.min", "torch.Tensor.min"}, "a, /, dim=None, keepdim=False", extreme(false)}, tags);
  // all/any: whether no element (any element) is zero; uint8 inputs give uint8, as in PyTorch.
  auto truth = [](bool every) {
    return [every](const Args& x) -> Value {
      const auto& a = x.tensor("a");
      Tensor zeros = op("torch.eq", {a, int64_t{0}});
      Tensor nonzero_count = sum(every ? zeros : logical_not(zeros), optional_dims(x["dim"]), x.flag("keepdim"));
      Tensor out = every ? eq(nonzero_count, int64_t{0}) : ne(nonzero_count, int64_t{0});
      return a.dtype().type == ScalarType::UInt8 ? to(out, dtypes::uint8) : out;
    };
  };
  define(t, {{"torch.all", "torch.Tensor.all"}, "a, /, dim=None, keepdim=False", truth(true)}, tags);
  define(t, {{"torch.any", "torch.Tensor.any"}, "a, /, dim=None, keepdim=False", truth(false)}, tags);
  define(t, {{"torch.count_nonzero", "torch.Tensor.count_nonzero"}, "a, /, dim=None", [](const Args& x) -> Value {
    return sum(to(op("torch.ne", {x.tensor("a"), int64_t{0}}), dtypes::int64), optional_dims(x["dim"]));
  }}, tags);
  // sort as a full topk (values, then indices); ties may be ordered differently than PyTorch's sort.
  define(t, {{"torch.sort", "torch.Tensor.sort"}, "a, /, dim=-1, descending=False, stable=False", [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    int64_t dim = langs::canonicalize_dim(a.ndim(), x.integer("dim"));
    int64_t n = a.ndim() == 0 ? 1 : a.shape()[dim];
    auto [values, indices] = prims::topk(a, n, dim, x.flag("descending"), true);
    return Value::tuple({values, indices});
  }}, tags);
  define(t, {{"torch.argsort", "torch.Tensor.argsort"}, "a, /, dim=-1, descending=False, stable=False", [](const Args& x) -> Value {
    return call("torch.sort", {x.tensor("a"), x["dim"], x["descending"]}).items()[1];
  }}, tags);
  define(t, {{"torch.std_mean"}, "a, /, dim=None, unbiased=None, keepdim=False, *, correction=None", [](const Args& x) -> Value {
    auto [v, m] = var_mean_of(x);
    return Value::tuple({sqrt(v), m});
  }}, tags);
  define(t, {{"torch.linalg.vector_norm"}, "a, /, ord=2, dim=None, keepdim=False, *, dtype=None", [](const Args& x) -> Value {
    return vector_norm_impl(x.tensor("a"), x["ord"].as_float(), optional_dims(x["dim"]), x.flag("keepdim"), optional_dtype(x["dtype"]));
  }}, tags);
  // torch.norm with a numeric p (or 'fro', the 2-norm over the dims given).
  define(t, {{"torch.norm", "torch.Tensor.norm"}, "a, /, p='fro', dim=None, keepdim=False, out=None, dtype=None", [](const Args& x) -> Value {
    check(x.is_none("out"), "norm: out= is not supported in a trace", "NotImplementedError");
    const Value& p = x["p"];
    check(p.is_none() || p.is_number() || p.as_string() == "fro" || p.as_string() == "nuc",
          [&] { return str("only valid string values are 'fro' and 'nuc', found ", p.as_string()); });
    // The nuclear norm: the sum of the singular values over two dims (both of a matrix by default).
    if (!p.is_none() && !p.is_number() && p.as_string() == "nuc") {
      const Tensor& a = x.tensor("a");
      check(x.is_none("dtype"), "dtype argument is not supported in nuclear norm", "ValueError");
      check(!x.is_none("dim") || a.ndim() == 2, [&] { return str("Expected a tensor with 2 dimensions, but got a tensor with ", a.ndim(), " dimensions instead."); });
      Value dims = x.is_none("dim") ? Value::ints({0, 1}) : x["dim"];
      return op("torch.linalg.matrix_norm", {a, std::string("nuc"), dims, x["keepdim"]});
    }
    double order = p.is_number() ? p.as_float() : 2.0;
    return vector_norm_impl(x.tensor("a"), order, optional_dims(x["dim"]), x.flag("keepdim"), optional_dtype(x["dtype"]));
  }}, tags);
  // The p-norm distance of every row of x1 to every row of x2 (batched).
  define(t, {{"torch.cdist"}, "x1, x2, p=2.0, compute_mode=None", [](const Args& x) -> Value {
    const auto& x1 = x.tensor("x1");
    const auto& x2 = x.tensor("x2");
    check(x1.ndim() >= 2 && x2.ndim() >= 2, "cdist only supports at least 2D tensors, X1 got: " + std::to_string(x1.ndim()) + "D");
    check(x1.shape().back() == x2.shape().back(), "X1 and X2 must have the same number of columns.");
    check(x.real("p") >= 0, "cdist only supports non-negative p values");
    Tensor rows1 = unsqueeze(x1, -2);
    Tensor rows2 = unsqueeze(x2, -3);
    Tensor difference = rows1 - rows2;
    return vector_norm_impl(difference, x.real("p"), Dims{-1}, false, std::nullopt);
  }});
  define(t, {{"torch.cumsum", "torch.Tensor.cumsum"}, "a, /, dim, *, dtype=None",
             [](const Args& x) -> Value { return scan(x, prims::cumsum); }});
  define(t, {{"torch.cumprod", "torch.Tensor.cumprod"}, "a, /, dim, *, dtype=None",
             [](const Args& x) -> Value { return scan(x, prims::cumprod); }});
  // log(cumsum(exp(a))), shifted by the maximum along dim so that exp cannot overflow.
  define(t, {{"torch.logcumsumexp", "torch.Tensor.logcumsumexp"}, "a, /, dim", [](const Args& x) -> Value {
    // Low-precision floats are scanned in float32 and rounded once.
    DType result = core::elementwise_type_promotion({x["a"]}, core::Promotion::IntToFloat).result;
    Tensor a = core::convert(x.tensor("a"), core::computation_dtype(result));
    if (a.ndim() == 0) return core::convert(a, result);
    int64_t dim = langs::canonicalize_dim(a.ndim(), x.integer("dim"));
    // The shift cancels out, so no gradient flows through it (through it, a leading -inf's 0/0
    // would reach every element).
    Tensor a_max = op("torch.Tensor.detach", {amax(a, {dim}, true)});
    Tensor shift = where(op("torch.isfinite", {a_max}), a_max, int64_t{0});
    Tensor summed = prims::cumsum(exp(a - shift), dim);
    return core::convert(log(summed) + shift, result);
  }});
  define(t, {{"torch.logsumexp", "torch.Tensor.logsumexp"}, "a, /, dim, keepdim=False", [](const Args& x) -> Value {
    // Integers and bools are summed as floats (their exp would overflow an integer).
    Tensor a = core::convert(x.tensor("a"), core::elementwise_type_promotion({x["a"]}, core::Promotion::IntToFloat).result);
    auto dims = x["dim"].as_ints();
    bool keepdim = x.flag("keepdim");
    Tensor a_max = amax(a, dims, true);
    // An infinite maximum would turn a - a_max into NaN; shift by zero there instead.
    Tensor shift = where(op("torch.isfinite", {a_max}), a_max, int64_t{0});
    Tensor summed = log(sum(exp(a - shift), dims, keepdim));
    return summed + (keepdim ? shift : squeeze(shift, dims));
  }}, tags);
  // Order statistics, scans of extremes, sorted search, membership and histograms on ATen's
  // kernels (no decomposition here); grad rules in autodiff/ for the differentiable ones.
  const std::vector<std::string> aten{kNoDecomposition};
  auto median = [](const char* name) {
    return [name](const Args& x) -> Value {
      const Tensor& a = x.tensor("a");
      if (x.is_none("dim")) {
        check(a.numel() > 0, [&] { return str(name, "() input tensor cannot be empty"); }, "IndexError");
        return Tensor::make({}, a.dtype(), a.device());
      }
      int64_t dim = selection_dim(a, x.integer("dim"));
      check(a.ndim() == 0 || a.shape()[dim] > 0, [&] { return str(name, "(): Expected reduction dim ", dim, " to have non-zero size."); }, "IndexError");
      return selection(a, dim, x.flag("keepdim"));
    };
  };
  define(t, {{"torch.median", "torch.Tensor.median"}, "a, /, dim=None, keepdim=False", median("median")}, aten);
  define(t, {{"torch.nanmedian", "torch.Tensor.nanmedian"}, "a, /, dim=None, keepdim=False", median("nanmedian")}, aten);
  define(t, {{"torch.kthvalue", "torch.Tensor.kthvalue"}, "a, k, /, dim=-1, keepdim=False", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    int64_t dim = selection_dim(a, x.integer("dim")), k = x.integer("k");
    int64_t n = a.ndim() == 0 ? 1 : a.shape()[dim];
    check(k >= 1 && k <= n, [&] { return str("kthvalue(): selected number k out of range for dimension ", dim); }, "IndexError");
    return selection(a, dim, x.flag("keepdim"));
  }}, aten);
  define(t, {{"torch.mode", "torch.Tensor.mode"}, "a, /, dim=-1, keepdim=False", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    int64_t dim = selection_dim(a, x.integer("dim"));
    check(a.ndim() == 0 || a.shape()[dim] > 0, "mode(): Expected reduction dim to have non-zero size.", "IndexError");
    return selection(a, dim, x.flag("keepdim"));
  }}, aten);
  for (const char* id : {"torch.cummax", "torch.cummin"})
    define(t, {{id, id == std::string("torch.cummax") ? "torch.Tensor.cummax" : "torch.Tensor.cummin"}, "a, /, dim", [](const Args& x) -> Value {
      const Tensor& a = x.tensor("a");
      selection_dim(a, x.integer("dim"));
      return Value::tuple({Tensor::make(a.shape(), a.dtype(), a.device()), Tensor::make(a.shape(), dtypes::int64, a.device())});
    }}, aten);
  // The positions where the values would be inserted into the sorted sequence (its last dim).
  define(t, {{"torch.searchsorted"}, "sorted_sequence, values, /, *, out_int32=False, right=False, side=None, sorter=None", [](const Args& x) -> Value {
    const Tensor& sorted = x.tensor("sorted_sequence");
    const Value& values = x["values"];
    check(sorted.ndim() >= 1, "torch.searchsorted(): boundaries tensor should have positive dimension");
    if (values.is_tensor() && sorted.ndim() > 1)
      check(Shape(sorted.shape().begin(), sorted.shape().end() - 1) == Shape(values.as_tensor().shape().begin(), values.as_tensor().shape().end() - 1),
            "torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 dimensions of boundaries tensor and input value tensor must match");
    return Tensor::make(shape_of(values), x.flag("out_int32") ? dtypes::int32 : dtypes::int64, sorted.device());
  }}, aten);
  define(t, {{"torch.bucketize"}, "a, boundaries, /, *, out_int32=False, right=False", [](const Args& x) -> Value {
    const Tensor& boundaries = x.tensor("boundaries");
    check(boundaries.ndim() == 1, [&] { return str("bucketize only supports 1-D boundaries tensor, but got ", boundaries.ndim(), "D tensor"); });
    return Tensor::make(shape_of(x["a"]), x.flag("out_int32") ? dtypes::int32 : dtypes::int64, boundaries.device());
  }}, aten);
  define(t, {{"torch.isin"}, "elements, test_elements, /, *, assume_unique=False, invert=False", [](const Args& x) -> Value {
    const Value& elements = x["elements"];
    Device device = elements.is_tensor() ? elements.as_tensor().device() : x.tensor("test_elements").device();
    return Tensor::make(shape_of(elements), dtypes::bool8, device);
  }}, aten);
  // bins equal-width bins over [min, max] (a's extremes when both are 0); not differentiable.
  define(t, {{"torch.histc", "torch.Tensor.histc"}, "a, /, bins=100, min=0, max=0", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    check(x.integer("bins") > 0, [&] { return str("torch.histc(): bins must be > 0, but got ", x.integer("bins"), " for dimension 0"); });
    check(a.dtype().is_float(), [&] { return str("\"histogram_cpu\" not implemented for '", a.dtype().torch_name(), "'"); });
    tracing::GradScope constant(Values{});
    return Tensor::make({x.integer("bins")}, a.dtype(), a.device());
  }}, aten);
  define(t, {{"torch.softmax", "torch.Tensor.softmax", "torch.nn.functional.softmax"}, "a, /, dim, *, dtype=None",
             [](const Args& x) -> Value { return softmax_impl(x.tensor("a"), x.integer("dim"), optional_dtype(x["dtype"]), false); },
             "softmax"});
  define(t, {{"torch.log_softmax", "torch.Tensor.log_softmax", "torch.nn.functional.log_softmax"}, "a, /, dim, *, dtype=None",
             [](const Args& x) -> Value { return softmax_impl(x.tensor("a"), x.integer("dim"), optional_dtype(x["dtype"]), true); },
             "log_softmax"});
}

}  // namespace thundercc::ltorch
