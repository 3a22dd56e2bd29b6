// The prims and their meta functions. Meta functions only check and compute metadata; they never
// broadcast or promote. Error messages follow Thunder's.
#include "thundercc/langs/prims.h"

#include <algorithm>
#include <numeric>

#include "langs/utils.h"
#include "thundercc/ir/pyliteral.h"
#include "thundercc/ir/trace.h"

namespace thundercc {
namespace prims {
namespace {

using langs::canonicalize_dim;
using langs::canonicalize_dims;
using langs::dims_repr;

// Which input dtypes an elementwise prim accepts and what dtype it produces.
// AnyPrecision also accepts float16/bfloat16, for prims that only select or move values.
enum class Accepts { All, AnyPrecision, Exact, Inexact, Float, Real, Complex };
enum class Produces { Same, Bool, Real, Complex };

bool accepts(Accepts a, DType d) {
  if (a == Accepts::AnyPrecision) return true;
  if (d.is_low_precision()) return false;  // the torch language upcasts these first
  switch (a) {
    case Accepts::All:
    case Accepts::AnyPrecision: return true;
    case Accepts::Exact: return d.is_exact();
    case Accepts::Inexact: return d.is_inexact();
    case Accepts::Float: return d.is_float();
    case Accepts::Real: return !d.is_complex();
    case Accepts::Complex: return true;
  }
  return false;
}

DType produced(Produces p, DType in) {
  switch (p) {
    case Produces::Same: return in.strong();
    case Produces::Bool: return dtypes::bool8;
    case Produces::Real: return to_real_dtype(in).strong();
    case Produces::Complex: return to_complex_dtype(in).strong();
  }
  return in;
}

void check_dtype_accepted(Accepts a, DType d, const std::string& prim) {
  check(accepts(a, d), [&] { return str("Unsupported input dtype ", d.full_name(), " for prims.", prim); });
}

const Tensor& tensor_arg(const Args& x, std::string_view name) { return x.tensor(name); }

bool is_cpu_scalar(const Tensor& t) { return t.ndim() == 0 && t.device().is_cpu(); }

// Elementwise prims require their tensor inputs to agree in shape, device and dtype. CPU 0-d
// tensors are exempt from the shape and device checks (they act like numbers).
TensorMeta elementwise_meta(const std::vector<Value>& operands, Accepts acc, Produces prod, const std::string& prim) {
  std::vector<Tensor> tensors;
  for (const auto& v : operands) {
    if (v.is_tensor()) tensors.push_back(v.as_tensor());
    else
      check(v.is_number(), [&] { return str("prims.", prim, ": expected a tensor or a number, but got ", py_repr(v)); }, "TypeError");
  }
  check(!tensors.empty(), [&] { return str("prims.", prim, ": expected at least one tensor input"); }, "TypeError");
  const Tensor* ref = &tensors[0];
  for (const auto& t : tensors)
    if (!is_cpu_scalar(t)) {
      ref = &t;
      break;
    }
  for (const auto& t : tensors) {
    check(t.dtype() == ref->dtype(), [&] {
      return str("Expected all tensors to have the same dtype, but found ", ref->dtype().full_name(), " and ", t.dtype().full_name(), "!");
    });
    if (is_cpu_scalar(t)) continue;
    check(t.shape() == ref->shape(), [&] {
      return str("Shapes were expected to be the same, but got shapes ", shape_repr(ref->shape()), " and ", shape_repr(t.shape()), "!");
    });
    check(t.device() == ref->device(), [&] {
      return str("Expected all tensors to be on the same device, but found ", ref->device().str(), " and ", t.device().str(), "!");
    });
  }
  check_dtype_accepted(acc, ref->dtype(), prim);
  return TensorMeta{ref->shape(), produced(prod, ref->dtype()), ref->device()};
}

Tensor make(const TensorMeta& m) { return Tensor::make(m.shape, m.dtype, m.device); }

Symbol prim_symbol(std::string name, std::string_view signature, MetaFunction meta, std::vector<std::string> tags = {}) {
  Symbol s;
  s.id = "prims." + name;
  s.name = std::move(name);
  s.module = "prims";
  s.signature = Signature::parse(signature);
  s.meta = std::move(meta);
  s.is_prim = true;
  s.tags = std::move(tags);
  return s;
}

struct ElementwiseInfo {
  const char* name;
  Accepts accepts;
  Produces produces;
};

const ElementwiseInfo kUnary[] = {
#define THUNDERCC_UNARY_OP(name, accepts, produces, ...) {#name, Accepts::accepts, Produces::produces},
#include "thundercc/langs/unary_ops.def"
};

const ElementwiseInfo kBinary[] = {
#define THUNDERCC_BINARY_OP(name, accepts, produces, ...) {#name, Accepts::accepts, Produces::produces},
#include "thundercc/langs/binary_ops.def"
};

void check_shape_valid(const Shape& shape, const char* prim) {
  for (auto d : shape)
    check(d >= 0, [&] { return str("prims.", prim, ": expected a shape of non-negative lengths, but got ", shape_repr(shape)); });
}

Shape without_dims(const Shape& shape, const std::vector<int64_t>& dims) {
  Shape out;
  for (int64_t i = 0; i < static_cast<int64_t>(shape.size()); ++i)
    if (std::find(dims.begin(), dims.end(), i) == dims.end()) out.push_back(shape[i]);
  return out;
}

Value reduction_meta(const Args& x) {
  const auto& a = tensor_arg(x, "a");
  auto dims = canonicalize_dims(a.ndim(), x.ints("dims"));
  return Tensor::make(without_dims(a.shape(), dims), a.dtype().strong(), a.device());
}

Value var_meta(const Args& x, bool with_mean) {
  const auto& a = tensor_arg(x, "a");
  check(a.dtype().is_inexact(), [&] { return str("var: expected an inexact dtype, but got ", a.dtype().full_name()); });
  auto dims = canonicalize_dims(a.ndim(), x.ints("dims"));
  check(x["correction"].is_number(), "var: correction must be a number");
  auto shape = without_dims(a.shape(), dims);
  Tensor v = Tensor::make(shape, to_real_dtype(a.dtype()).strong(), a.device());
  if (!with_mean) return v;
  Tensor m = Tensor::make(shape, a.dtype().strong(), a.device());
  return Value::tuple({v, m});
}

Value arg_reduction_meta(const Args& x) {
  const auto& a = tensor_arg(x, "a");
  check(!a.dtype().is_complex(), "argmax/argmin: complex inputs are not supported");
  if (x.is_none("dim")) return Tensor::make({}, dtypes::int64, a.device());
  int64_t dim = canonicalize_dim(a.ndim(), x.integer("dim"));
  check(a.ndim() == 0 || a.shape()[dim] != 0,
        "Expected reduction dim to have a non-zero length, but got a tensor with a zero-length reduction dim");
  Shape shape = a.ndim() == 0 ? Shape{} : without_dims(a.shape(), {dim});
  return Tensor::make(shape, dtypes::int64, a.device());
}

void check_index(const Tensor& index, const char* prim) {
  check(index.dtype().is_integer(),
        [&] { return str("prims.", prim, ": expected index to have an integer dtype, but got ", index.dtype().full_name()); });
}

void check_same_device(const Tensor& a, const Tensor& b) {
  check(a.device() == b.device(), [&] {
    return str("Expected all tensors to be on the same device, but found ", a.device().str(), " and ", b.device().str(), "!");
  });
}

void check_same_dtype(const Tensor& a, const Tensor& b) {
  check(a.dtype() == b.dtype(), [&] {
    return str("Expected all tensors to have the same dtype, but found ", a.dtype().full_name(), " and ", b.dtype().full_name(), "!");
  });
}

void register_shape_prims(SymbolTable& t) {
  t.add(prim_symbol("broadcast_in_dim", "a, /, shape, broadcast_dimensions", [](const Args& x) -> Value {
    const auto& a = tensor_arg(x, "a");
    auto shape = x.ints("shape");
    auto bdims = x.ints("broadcast_dimensions");
    check_shape_valid(shape, "broadcast_in_dim");
    check(static_cast<int64_t>(bdims.size()) == a.ndim(), [&] {
      return str("Expected one broadcast dimension (received ", bdims.size(), ") for each dimension of a (", a.ndim(), ")");
    });
    int64_t prev = -1;
    for (size_t i = 0; i < bdims.size(); ++i) {
      int64_t bd = bdims[i];
      check(bd >= 0 && bd < static_cast<int64_t>(shape.size()), [&] {
        return str("Broadcast dimension ", bd, " is out of range for a shape of rank ", shape.size());
      });
      check(bd > prev, [&] { return str("Expected broadcast dimensions to be strictly increasing, but got ", dims_repr(bdims)); });
      prev = bd;
      check(a.shape()[i] == 1 || a.shape()[i] == shape[bd], [&] {
        return str("Can't broadcast a tensor with shape ", shape_repr(a.shape()), " to shape ", shape_repr(shape),
                   " with broadcast dimensions ", dims_repr(bdims), ": dimension ", i, " has length ", a.shape()[i],
                   " but the target length is ", shape[bd]);
      });
    }
    return Tensor::make(shape, a.dtype().strong(), a.device());
  }, {"SHAPE_OP"}));

  t.add(prim_symbol("reshape", "a, /, shape", [](const Args& x) -> Value {
    const auto& a = tensor_arg(x, "a");
    auto shape = x.ints("shape");
    check_shape_valid(shape, "reshape");
    check(numel(shape) == a.numel(), [&] {
      return str("Attempting to reshape a.shape=", shape_repr(a.shape()), " to shape=", shape_repr(shape), ", but a.numel=",
                 a.numel(), " is different from the number of elements in shape, ", numel(shape));
    });
    return Tensor::make(shape, a.dtype().strong(), a.device());
  }, {"SHAPE_OP"}));

  t.add(prim_symbol("slice_prim", "a, /, start_indices, end_indices, strides=None", [](const Args& x) -> Value {
    const auto& a = tensor_arg(x, "a");
    auto start = x.ints("start_indices");
    auto end = x.ints("end_indices");
    std::vector<int64_t> strides = x.is_none("strides") ? std::vector<int64_t>(a.ndim(), 1) : x.ints("strides");
    auto r = static_cast<size_t>(a.ndim());
    check(start.size() == r && end.size() == r && strides.size() == r, [&] {
      return str("Expected start_indices, end_indices and strides to have one entry per dimension (", r, "), but got lengths ",
                 start.size(), ", ", end.size(), " and ", strides.size());
    });
    Shape shape;
    for (size_t i = 0; i < r; ++i) {
      check(start[i] >= 0, [&] { return str("Expected the start index ", start[i], " for dimension ", i, " to be non-negative"); });
      check(start[i] <= end[i], [&] {
        return str("Expected the start index ", start[i], " for dimension ", i, " to be less than or equal to the end index ", end[i]);
      });
      check(end[i] <= a.shape()[i], [&] {
        return str("Expected the end index ", end[i], " for dimension ", i, " to be less than or equal to the length of the dimension ",
                   a.shape()[i]);
      });
      check(strides[i] >= 1, [&] { return str("Expected the stride ", strides[i], " for dimension ", i, " to be positive"); });
      shape.push_back((end[i] - start[i] + strides[i] - 1) / strides[i]);
    }
    return Tensor::make(shape, a.dtype().strong(), a.device());
  }, {"SHAPE_OP"}));

  t.add(prim_symbol("squeeze", "a, /, dims", [](const Args& x) -> Value {
    const auto& a = tensor_arg(x, "a");
    auto dims = canonicalize_dims(a.ndim(), x.ints("dims"));
    for (auto d : dims)
      check(a.ndim() == 0 || a.shape()[d] == 1,
            [&] { return str("squeeze: dimension ", d, " has length ", a.shape()[d], ", but only dimensions of length 1 can be squeezed"); });
    return Tensor::make(a.ndim() == 0 ? Shape{} : without_dims(a.shape(), dims), a.dtype().strong(), a.device());
  }, {"SHAPE_OP"}));

  t.add(prim_symbol("transpose", "a, /, permutation", [](const Args& x) -> Value {
    const auto& a = tensor_arg(x, "a");
    auto perm = x.ints("permutation");
    check(static_cast<int64_t>(perm.size()) == a.ndim(), [&] {
      return str("Expected permutation of length ", a.ndim(), ", but got ", dims_repr(perm));
    });
    auto sorted = canonicalize_dims(a.ndim(), perm);
    Shape shape;
    for (auto d : sorted) shape.push_back(a.shape()[d]);
    return Tensor::make(shape, a.dtype().strong(), a.device());
  }, {"SHAPE_OP"}));

  t.add(prim_symbol("cat", "tensors, /, dim", [](const Args& x) -> Value {
    const auto& list = x["tensors"];
    check(list.is_sequence() && !list.items().empty(), "cat expects a non-empty sequence of tensors");
    std::vector<Tensor> ts;
    for (const auto& v : list.items()) {
      check(v.is_tensor(), [&] { return str("cat expects tensors, but got ", py_repr(v)); }, "TypeError");
      ts.push_back(v.as_tensor());
    }
    const auto& first = ts[0];
    check(first.ndim() > 0, "cat: zero-dimensional tensors cannot be concatenated");
    int64_t dim = canonicalize_dim(first.ndim(), x.integer("dim"));
    Shape shape = first.shape();
    for (size_t i = 1; i < ts.size(); ++i) {
      const auto& t = ts[i];
      check_same_dtype(first, t);
      check_same_device(first, t);
      check(t.ndim() == first.ndim(), [&] {
        return str("cat: expected all tensors to have ", first.ndim(), " dimensions, but tensor ", i, " has ", t.ndim());
      });
      for (int64_t d = 0; d < first.ndim(); ++d)
        if (d != dim)
          check(t.shape()[d] == first.shape()[d], [&] {
            return str("cat: sizes of tensors must match except in dimension ", dim, ", but got ", shape_repr(first.shape()),
                       " and ", shape_repr(t.shape()));
          });
      shape[dim] += t.shape()[dim];
    }
    return Tensor::make(shape, first.dtype().strong(), first.device());
  }, {"SHAPE_OP"}));

  t.add(prim_symbol("pad", "a, /, padding_value, padding_config", [](const Args& x) -> Value {
    const auto& a = tensor_arg(x, "a");
    check(x["padding_value"].is_number(), "pad: padding_value must be a number");
    const auto& config = x["padding_config"];
    check(config.is_sequence() && static_cast<int64_t>(config.items().size()) == a.ndim(), [&] {
      return str("pad: expected one (low, high, interior) triple per dimension (", a.ndim(), ")");
    });
    Shape shape;
    for (int64_t d = 0; d < a.ndim(); ++d) {
      auto triple = config.items()[d].as_ints();
      check(triple.size() == 3, "pad: each padding config entry must be a (low, high, interior) triple");
      check(triple[2] >= 0, [&] { return str("pad: interior padding must be non-negative, but got ", triple[2]); });
      int64_t n = a.shape()[d];
      int64_t len = triple[0] + triple[1] + n + std::max<int64_t>(n - 1, 0) * triple[2];
      check(len >= 0, [&] { return str("pad: dimension ", d, " would have negative length ", len); });
      shape.push_back(len);
    }
    return Tensor::make(shape, a.dtype().strong(), a.device());
  }, {"SHAPE_OP"}));

  t.add(prim_symbol("flip", "a, /, dims", [](const Args& x) -> Value {
    const auto& a = tensor_arg(x, "a");
    canonicalize_dims(a.ndim(), x.ints("dims"));
    return Tensor::make(a.shape(), a.dtype().strong(), a.device());
  }, {"SHAPE_OP"}));

  t.add(prim_symbol("stride_order", "a, /, order", [](const Args& x) -> Value {
    const auto& a = tensor_arg(x, "a");
    auto order = x.ints("order");
    check(static_cast<int64_t>(order.size()) == a.ndim(), [&] {
      return str("stride_order: expected an order of ", a.ndim(), " dimensions, but got ", dims_repr(order));
    });
    canonicalize_dims(a.ndim(), order);
    return Tensor::make(a.shape(), a.dtype().strong(), a.device());
  }, {"SHAPE_OP"}));
  // Writes copy_from into copy_to, the caller's tensor (functionalization's write-back of a
  // program input modified in place): the one prim with an effect, so it returns nothing and is
  // never removed as dead code.
  t.add(prim_symbol("copy_", "copy_from, copy_to, /", [](const Args& x) -> Value {
    const auto& from = tensor_arg(x, "copy_from");
    const auto& to = tensor_arg(x, "copy_to");
    check(from.shape() == to.shape() && from.dtype().type == to.dtype().type, [&] {
      return str("copy_: expected a ", to.dtype().short_name(), shape_repr(to.shape()), " value to copy, but got ",
                 from.dtype().short_name(), shape_repr(from.shape()));
    });
    check_same_device(from, to);
    return None{};
  }, {"DONT_DCE"}));
  // Collectives over the ranks of a process group (thunder/distributed/prims.py): a tensor of the
  // same shape, reduced over the ranks, started asynchronously when do_async, its value ready
  // after prims.wait. op: 'sum', or 'avg' (the sum over the world size, which the run knows).
  t.add(prim_symbol("all_reduce", "a, /, op, do_async", [](const Args& x) -> Value {
    const auto& a = tensor_arg(x, "a");
    const Value& op = x["op"];
    check(op.kind() == Value::Kind::String && (op.as_string() == "sum" || op.as_string() == "avg"),
          "all_reduce: expected op 'sum' or 'avg'");
    return Tensor::make(a.shape(), a.dtype().strong(), a.device());
  }));
  // FSDP's (parameters sharded along their first dimension): all_gather concatenates the ranks'
  // tensors along it, in rank order; reduce_scatter reduces them and leaves each rank its slice.
  // The world size is the plan's (compile --world-size), since it fixes the shapes.
  auto world_size_arg = [](const Args& x, const char* what) {
    const Value& w = x["world_size"];
    check(w.kind() == Value::Kind::Int && w.as_int() >= 1, [&] { return str(what, ": expected a world size of at least 1"); });
    return w.as_int();
  };
  t.add(prim_symbol("all_gather", "a, /, world_size, do_async", [world_size_arg](const Args& x) -> Value {
    const auto& a = tensor_arg(x, "a");
    const int64_t world = world_size_arg(x, "all_gather");
    check(a.ndim() >= 1, "all_gather: expected a tensor of at least one dimension, gathered along the first");
    Shape shape = a.shape();
    shape[0] *= world;
    return Tensor::make(shape, a.dtype().strong(), a.device());
  }));
  t.add(prim_symbol("reduce_scatter", "a, /, op, world_size, do_async", [world_size_arg](const Args& x) -> Value {
    const auto& a = tensor_arg(x, "a");
    const Value& op = x["op"];
    check(op.kind() == Value::Kind::String && (op.as_string() == "sum" || op.as_string() == "avg"),
          "reduce_scatter: expected op 'sum' or 'avg'");
    const int64_t world = world_size_arg(x, "reduce_scatter");
    check(a.ndim() >= 1 && a.shape()[0] % world == 0, [&] {
      return str("reduce_scatter: expected a first dimension divisible by the world size ", world, ", but got ", shape_repr(a.shape()));
    });
    Shape shape = a.shape();
    shape[0] /= world;
    return Tensor::make(shape, a.dtype().strong(), a.device());
  }));
  t.add(prim_symbol("wait", "a, /", [](const Args& x) -> Value {
    const auto& a = tensor_arg(x, "a");
    return Tensor::make(a.shape(), a.dtype().strong(), a.device());
  }));
  // A guard: `a`'s one element held `value` when the program was captured, and the trace was
  // specialized to it (.item(), int(t), bool(t) in an `if`). Running checks it, naming `read` (the
  // call and the user's line); it returns nothing and is never removed as dead code.
  t.add(prim_symbol("check_tensor_value", "a, value, read, /", [](const Args& x) -> Value {
    const auto& a = tensor_arg(x, "a");
    const Value& value = x["value"];
    if (value.is_sequence()) {  // the values of a 1-d integer tensor (lengths that shape a packed sequence)
      check(a.ndim() == 1 && a.dtype().is_exact() && a.numel() == static_cast<int64_t>(value.items().size()), [&] {
        return str("check_tensor_value: expected a 1-d integer tensor of ", value.items().size(), " elements, but got ", shape_repr(a.shape()));
      });
      for (const auto& v : value.items()) check(v.kind() == Value::Kind::Int, "check_tensor_value: expected integers to check against");
    } else {
      check(a.numel() == 1, [&] { return str("check_tensor_value: expected a tensor of one element, but got ", shape_repr(a.shape())); });
      check(value.is_number() && !value.is_number_proxy(), "check_tensor_value: expected a number to check against");
    }
    check(x["read"].kind() == Value::Kind::String, "check_tensor_value: expected a description of the read");
    return None{};
  }, {"DONT_DCE"}));
  t.add(prim_symbol("unfold", "a, /, dim, size, step", [](const Args& x) -> Value {
    const auto& a = tensor_arg(x, "a");
    int64_t dim = canonicalize_dim(a.ndim(), x.integer("dim"));
    int64_t size = x.integer("size"), step = x.integer("step");
    int64_t max_size = a.ndim() == 0 ? 1 : a.shape()[dim];
    check(size <= max_size, [&] { return str("Maximum size for tensor at dimension ", dim, " is ", max_size, " but size is ", size); });
    check(size >= 0, [&] { return str("Size is ", size, " but must be >= 0"); });
    check(step > 0, [&] { return str("Step is ", step, " but must be > 0"); });
    Shape shape = a.shape();
    shape.push_back(size);
    if (a.ndim() > 0) shape[dim] = (shape[dim] - size) / step + 1;
    return Tensor::make(shape, a.dtype().strong(), a.device());
  }, {"SHAPE_OP"}));
}

DType dtype_param(const Args& x) { return x["dtype"].as_dtype().strong(); }
Device device_param(const Args& x) { return x["device"].as_any_device(); }

// The shape of nested lists of numbers; each level's lists must have one length (PyTorch's rule
// and message). `depth`: how deep `data` lies.
Shape sequence_shape(const Value& data, int64_t depth = 0) {
  if (!data.is_sequence()) {
    check(data.is_number() && !data.is_number_proxy(), [&] {
      return str("tensor_from_sequence: expected numbers or lists of numbers, but found ", py_repr(data));
    });
    return {};
  }
  const auto& items = data.items();
  Shape shape{static_cast<int64_t>(items.size())};
  if (items.empty()) return shape;
  Shape inner;
  for (size_t k = 0; k < items.size(); ++k) {
    Shape item_shape = sequence_shape(items[k], depth + 1);
    if (k == 0) inner = item_shape;
    check(item_shape == inner, [&] {
      return str("expected sequence of length ", inner.empty() ? 0 : inner[0], " at dim ", depth + 1, " (got ",
                 item_shape.empty() ? 0 : item_shape[0], ")");
    }, "ValueError");
  }
  shape.insert(shape.end(), inner.begin(), inner.end());
  return shape;
}

void register_creation_prims(SymbolTable& t) {
  t.add(prim_symbol("convert_element_type", "a, /, dtype", [](const Args& x) -> Value {
    const auto& a = tensor_arg(x, "a");
    return Tensor::make(a.shape(), dtype_param(x), a.device());
  }));
  t.add(prim_symbol("device_put", "a, /, device", [](const Args& x) -> Value {
    const auto& a = tensor_arg(x, "a");
    return Tensor::make(a.shape(), a.dtype().strong(), device_param(x));
  }));
  t.add(prim_symbol("full", "shape, fill_value, *, device, dtype", [](const Args& x) -> Value {
    auto shape = x.ints("shape");
    check_shape_valid(shape, "full");
    check(x["fill_value"].is_number(), "full: fill_value must be a number");
    return Tensor::make(shape, dtype_param(x), device_param(x));
  }));
  t.add(prim_symbol("tensor_from_sequence", "data, *, device, dtype", [](const Args& x) -> Value {
    return Tensor::make(sequence_shape(x["data"]), dtype_param(x), device_param(x));
  }));
  t.add(prim_symbol("iota", "length, *, start, step, device, dtype", [](const Args& x) -> Value {
    int64_t length = x.integer("length");
    check(length >= 0, [&] { return str("iota: length must be non-negative, but got ", length); });
    check(x.integer("step") != 0, "iota: step must be non-zero");
    DType d = dtype_param(x);
    check(d.is_integer(), [&] { return str("iota: expected an integer dtype, but got ", d.full_name()); });
    return Tensor::make({length}, d, device_param(x));
  }));
  t.add(prim_symbol("uniform", "shape, minval, maxval, *, device, dtype", [](const Args& x) -> Value {
    auto shape = x.ints("shape");
    check_shape_valid(shape, "uniform");
    DType d = dtype_param(x);
    check(d.is_float(), [&] { return str("uniform: expected a floating point dtype, but got ", d.full_name()); });
    return Tensor::make(shape, d, device_param(x));
  }, {"RANDOM_OP"}));
  t.add(prim_symbol("randn", "shape, *, device, dtype", [](const Args& x) -> Value {
    auto shape = x.ints("shape");
    check_shape_valid(shape, "randn");
    DType d = dtype_param(x);
    check(d.is_inexact(), [&] { return str("randn: expected an inexact dtype, but got ", d.full_name()); });
    return Tensor::make(shape, d, device_param(x));
  }, {"RANDOM_OP"}));
  // Indices drawn from each row of `a`'s (unnormalized) weights.
  t.add(prim_symbol("multinomial", "a, /, num_samples, replacement", [](const Args& x) -> Value {
    const auto& a = tensor_arg(x, "a");
    int64_t n = x.integer("num_samples");
    check(a.ndim() == 1 || a.ndim() == 2, [&] { return str("prob_dist must be 1 or 2 dim, but got ", a.ndim()); });
    check(a.dtype().is_float(), [&] { return str("multinomial only supports floating-point dtypes for input, got: ", a.dtype().full_name()); });
    check(n > 0, "cannot sample n_sample <= 0 samples");
    check(x.flag("replacement") || n <= a.shape().back(), "cannot sample n_sample > prob_dist.size(-1) samples without replacement");
    Shape shape = a.shape();
    shape.back() = n;
    return Tensor::make(shape, dtypes::int64, a.device());
  }, {"RANDOM_OP"}));
}

void register_reduction_prims(SymbolTable& t) {
  for (const char* name : {"sum", "prod", "amax", "amin"})
    t.add(prim_symbol(name, "a, /, dims", reduction_meta, {"REDUCTION_OP"}));
  t.add(prim_symbol("var", "a, /, dims, *, correction", [](const Args& x) { return var_meta(x, false); }, {"REDUCTION_OP"}));
  t.add(prim_symbol("var_mean", "a, /, dims, *, correction", [](const Args& x) { return var_meta(x, true); }, {"REDUCTION_OP"}));
  t.add(prim_symbol("argmax", "a, /, dim", arg_reduction_meta, {"REDUCTION_OP"}));
  t.add(prim_symbol("argmin", "a, /, dim", arg_reduction_meta, {"REDUCTION_OP"}));
  t.add(prim_symbol("topk", "a, /, k, dim, largest, sorted", [](const Args& x) -> Value {
    const auto& a = tensor_arg(x, "a");
    int64_t dim = canonicalize_dim(a.ndim(), x.integer("dim"));
    int64_t k = x.integer("k");
    int64_t len = a.ndim() == 0 ? 1 : a.shape()[dim];
    check(k >= 0 && k <= len, [&] { return str("selected index k out of range: k is ", k, " but the dimension has length ", len); });
    Shape shape = a.shape();
    if (a.ndim() > 0) shape[dim] = k;
    return Value::tuple({Tensor::make(shape, a.dtype().strong(), a.device()), Tensor::make(shape, dtypes::int64, a.device())});
  }, {"REDUCTION_OP"}));
}

void register_scan_prims(SymbolTable& t) {
  for (const char* name : {"cumsum", "cumprod"})
    t.add(prim_symbol(name, "a, /, dim", [name](const Args& x) -> Value {
      const auto& a = tensor_arg(x, "a");
      canonicalize_dim(std::max<int64_t>(a.ndim(), 1), x.integer("dim"));
      check(!a.dtype().is_bool(), [&] { return str(name, ": expected a numeric tensor, but got ", a.dtype().full_name()); });
      return Tensor::make(a.shape(), a.dtype().strong(), a.device());
    }));
}

void register_indexing_prims(SymbolTable& t) {
  t.add(prim_symbol("take", "a, /, index, dim", [](const Args& x) -> Value {
    const auto& a = tensor_arg(x, "a");
    const auto& index = tensor_arg(x, "index");
    check_index(index, "take");
    check_same_device(a, index);
    check(index.ndim() <= 1, [&] { return str("prims.take: expected a 0-d or 1-d index, but got ", index.ndim(), " dimensions"); });
    int64_t dim = canonicalize_dim(a.ndim(), x.integer("dim"));
    Shape shape = a.shape();
    if (a.ndim() > 0) shape[dim] = index.numel();
    return Tensor::make(shape, a.dtype().strong(), a.device());
  }));
  t.add(prim_symbol("take_along_axis", "a, /, index, dim", [](const Args& x) -> Value {
    const auto& a = tensor_arg(x, "a");
    const auto& index = tensor_arg(x, "index");
    check_index(index, "take_along_axis");
    check_same_device(a, index);
    check(index.ndim() == a.ndim(), [&] {
      return str("take_along_axis: expected index to have ", a.ndim(), " dimensions, but it has ", index.ndim());
    });
    int64_t dim = canonicalize_dim(a.ndim(), x.integer("dim"));
    for (int64_t d = 0; d < a.ndim(); ++d)
      if (d != dim)
        check(index.shape()[d] == a.shape()[d], [&] {
          return str("take_along_axis: index shape ", shape_repr(index.shape()), " and tensor shape ", shape_repr(a.shape()),
                     " must agree in every dimension but ", dim);
        });
    return Tensor::make(index.shape(), a.dtype().strong(), a.device());
  }));
  auto scatter_like = [](const char* name) {
    return [name](const Args& x) -> Value {
      const auto& a = tensor_arg(x, "a");
      const auto& index = tensor_arg(x, "index");
      const auto& value = tensor_arg(x, "value");
      check_index(index, name);
      check_same_dtype(a, value);
      check_same_device(a, index);
      check_same_device(a, value);
      int64_t dim = canonicalize_dim(a.ndim(), x.integer("dim"));
      bool along_index = std::string_view(name) == "index_add" || std::string_view(name) == "index_copy";
      if (along_index) {
        check(index.ndim() <= 1, [&] { return str(name, ": expected a 0-d or 1-d index"); });
        Shape expected = a.shape();
        if (a.ndim() > 0) expected[dim] = index.numel();
        check(value.shape() == expected, [&] {
          return str(name, ": expected value of shape ", shape_repr(expected), ", but got ", shape_repr(value.shape()));
        });
      } else {
        check(index.ndim() == a.ndim() && value.ndim() == a.ndim(),
              [&] { return str(name, ": expected index and value to have as many dimensions as a"); });
      }
      return Tensor::make(a.shape(), a.dtype().strong(), a.device());
    };
  };
  t.add(prim_symbol("scatter_add", "a, /, index, value, dim", scatter_like("scatter_add")));
  t.add(prim_symbol("index_add", "a, /, index, value, dim", scatter_like("index_add")));
  t.add(prim_symbol("scatter", "a, /, index, value, dim", scatter_like("scatter")));
  t.add(prim_symbol("index_copy", "a, /, index, value, dim", scatter_like("index_copy")));
}

std::vector<int64_t> expand_param(const Args& x, std::string_view name, size_t n) {
  auto v = x.ints(name);
  if (v.size() == 1 && n > 1) v.assign(n, v[0]);
  check(v.size() == n, [&] { return str("convolution: expected ", name, " to have ", n, " entries, but got ", dims_repr(v)); });
  return v;
}

void register_linear_algebra_prims(SymbolTable& t) {
  t.add(prim_symbol("matmul", "a, b, /", [](const Args& x) -> Value {
    const auto& a = tensor_arg(x, "a");
    const auto& b = tensor_arg(x, "b");
    check_same_dtype(a, b);
    check_same_device(a, b);
    check(a.ndim() >= 1 && b.ndim() >= 1, "matmul: both arguments must be at least 1D");
    if (a.ndim() == 1 && b.ndim() == 1) {
      check(a.shape()[0] == b.shape()[0], [&] {
        return str("Expected a.shape[0]=", a.shape()[0], " to be equal to b.shape[0]=", b.shape()[0]);
      });
      return Tensor::make({}, a.dtype().strong(), a.device());
    }
    int64_t k_a = a.shape().back();
    int64_t k_b = b.ndim() == 1 ? b.shape()[0] : b.shape()[b.ndim() - 2];
    check(k_a == k_b, [&] {
      return str("Expected a.shape[-1]=", k_a, " to be equal to b.shape[", b.ndim() == 1 ? "0" : "-2", "]=", k_b);
    });
    Shape shape;
    if (a.ndim() > 2 || b.ndim() > 2) {
      Shape batch_a(a.shape().begin(), a.shape().end() - std::min<int64_t>(a.ndim(), 2));
      Shape batch_b(b.shape().begin(), b.shape().end() - std::min<int64_t>(b.ndim(), 2));
      if (a.ndim() > 2 && b.ndim() > 2)
        check(batch_a == batch_b, [&] {
          return str("Expected the batch dimensions of a ", shape_repr(a.shape()), " and b ", shape_repr(b.shape()), " to be equal");
        });
      shape = batch_a.size() >= batch_b.size() ? batch_a : batch_b;
    }
    if (a.ndim() >= 2) shape.push_back(a.shape()[a.ndim() - 2]);
    if (b.ndim() >= 2) shape.push_back(b.shape().back());
    return Tensor::make(shape, a.dtype().strong(), a.device());
  }));

  t.add(prim_symbol("linear", "a, w, bias, /", [](const Args& x) -> Value {
    const auto& a = tensor_arg(x, "a");
    const auto& w = tensor_arg(x, "w");
    check_same_dtype(a, w);
    check_same_device(a, w);
    check(a.ndim() >= 1, "linear: the input must be at least 1D");
    check(w.ndim() == 2, [&] { return str("Expected w.ndim=", w.ndim(), " to be 2"); });
    check(w.shape()[1] == a.shape().back(), [&] {
      return str("Expected w.shape[1]=", w.shape()[1], " to be equal to a.shape[-1]=", a.shape().back());
    });
    if (!x.is_none("bias")) {
      const auto& bias = tensor_arg(x, "bias");
      check_same_dtype(a, bias);
      check_same_device(a, bias);
      check(bias.ndim() == 1 && bias.shape()[0] == w.shape()[0], [&] {
        return str("Expected bias.shape=", shape_repr(bias.shape()), " to be (", w.shape()[0], ",)");
      });
    }
    Shape shape(a.shape().begin(), a.shape().end() - 1);
    shape.push_back(w.shape()[0]);
    return Tensor::make(shape, a.dtype().strong(), a.device());
  }));

  t.add(prim_symbol("embedding", "a, weight, /, *, padding_idx=-1, max_norm=None, norm_type=2.0, scale_grad_by_freq=False, sparse=False",
                    [](const Args& x) -> Value {
    const auto& a = tensor_arg(x, "a");
    const auto& weight = tensor_arg(x, "weight");
    check(a.dtype() == dtypes::int64 || a.dtype() == dtypes::int32, [&] {
      return str("Expected a.dtype=", a.dtype().full_name(), " to be int64 or int32");
    });
    check(weight.ndim() == 2, [&] { return str("Expected weight (weight.shape=", shape_repr(weight.shape()), ") to be a matrix"); });
    check_same_device(a, weight);
    Shape shape = a.shape();
    shape.push_back(weight.shape()[1]);
    return Tensor::make(shape, weight.dtype().strong(), weight.device());
  }));

  t.add(prim_symbol("convolution", "a, weight, bias, /, stride, padding, dilation, transposed, output_padding, groups",
                    [](const Args& x) -> Value {
    const auto& a = tensor_arg(x, "a");
    const auto& weight = tensor_arg(x, "weight");
    check_same_dtype(a, weight);
    check_same_device(a, weight);
    check(a.ndim() >= 3, [&] { return str("convolution: expected a batched input with at least 3 dimensions, but got ", shape_repr(a.shape())); });
    check(weight.ndim() == a.ndim(), [&] {
      return str("convolution: expected weight to have ", a.ndim(), " dimensions, but got ", shape_repr(weight.shape()));
    });
    size_t spatial = static_cast<size_t>(a.ndim() - 2);
    auto stride = expand_param(x, "stride", spatial);
    auto padding = expand_param(x, "padding", spatial);
    auto dilation = expand_param(x, "dilation", spatial);
    auto output_padding = expand_param(x, "output_padding", spatial);
    int64_t groups = x.integer("groups");
    bool transposed = x.flag("transposed");
    check(groups > 0, [&] { return str("convolution: groups must be positive, but got ", groups); });
    for (size_t i = 0; i < spatial; ++i)
      check(stride[i] > 0 && dilation[i] > 0 && padding[i] >= 0, "convolution: stride and dilation must be positive, padding non-negative");
    int64_t in_channels = a.shape()[1];
    int64_t out_channels = transposed ? weight.shape()[1] * groups : weight.shape()[0];
    int64_t weight_in = transposed ? weight.shape()[0] : weight.shape()[1] * groups;
    check(in_channels == weight_in, [&] {
      return str("convolution: input has ", in_channels, " channels, but weight of shape ", shape_repr(weight.shape()), " with groups=",
                 groups, " expects ", weight_in);
    });
    if (!x.is_none("bias")) {
      const auto& bias = tensor_arg(x, "bias");
      check(bias.ndim() == 1 && bias.shape()[0] == out_channels, [&] {
        return str("convolution: expected bias of shape (", out_channels, ",), but got ", shape_repr(bias.shape()));
      });
    }
    Shape shape{a.shape()[0], out_channels};
    for (size_t i = 0; i < spatial; ++i) {
      int64_t in = a.shape()[2 + i], k = weight.shape()[2 + i];
      int64_t out = transposed ? (in - 1) * stride[i] - 2 * padding[i] + dilation[i] * (k - 1) + output_padding[i] + 1
                               : (in + 2 * padding[i] - dilation[i] * (k - 1) - 1) / stride[i] + 1;
      check(out > 0, [&] {
        return str("convolution: the output would have a non-positive length ", out, " in spatial dimension ", i);
      });
      shape.push_back(out);
    }
    return Tensor::make(shape, a.dtype().strong(), a.device());
  }));
}

void register_convolution_backward(SymbolTable& t) {
  // The gradients of convolution (ATen's convolution_backward): what its grad rule calls.
  t.add(prim_symbol("convolution_backward",
                    "grad, a, weight, /, bias_sizes, stride, padding, dilation, transposed, output_padding, groups, output_mask",
                    [](const Args& x) -> Value {
    const auto& grad = tensor_arg(x, "grad");
    const auto& a = tensor_arg(x, "a");
    const auto& weight = tensor_arg(x, "weight");
    check_same_dtype(a, weight);
    check_same_dtype(a, grad);
    auto mask = x["output_mask"].items();
    check(mask.size() == 3, "convolution_backward: output_mask must have three entries");
    Values out;
    out.push_back(mask[0].as_bool() ? Value(Tensor::make(a.shape(), a.dtype().strong(), a.device())) : Value());
    out.push_back(mask[1].as_bool() ? Value(Tensor::make(weight.shape(), a.dtype().strong(), a.device())) : Value());
    out.push_back(mask[2].as_bool() && !x.is_none("bias_sizes") ? Value(Tensor::make(x.ints("bias_sizes"), a.dtype().strong(), a.device()))
                                                                : Value());
    return Value::tuple(std::move(out));
  }));
}

const Symbol& prim(std::string_view name) {
  static const std::string prefix = "prims.";
  return SymbolTable::global().get(prefix + std::string(name));
}

Tensor call_tensor(std::string_view name, const Values& args, const Kwargs& kwargs = {}) {
  return call(prim(name), args, kwargs).as_tensor();
}

}  // namespace

#define THUNDERCC_UNARY_OP(name, ...) \
  Tensor name(const Value& a) { return call_tensor(#name, {a}); }
#include "thundercc/langs/unary_ops.def"
#define THUNDERCC_BINARY_OP(name, ...) \
  Tensor name(const Value& a, const Value& b) { return call_tensor(#name, {a, b}); }
#include "thundercc/langs/binary_ops.def"

Tensor where(const Value& pred, const Value& a, const Value& b) { return call_tensor("where", {pred, a, b}); }
Tensor lerp(const Value& start, const Value& end, const Value& weight) { return call_tensor("lerp", {start, end, weight}); }

Tensor convert_element_type(const Tensor& a, DType dtype) { return call_tensor("convert_element_type", {a, dtype.strong()}); }
Tensor device_put(const Tensor& a, Device device) { return call_tensor("device_put", {a, device}); }
Tensor full(const Shape& shape, const Value& fill_value, Device device, DType dtype) {
  return call_tensor("full", {Value::ints(shape), fill_value}, {{"device", device}, {"dtype", dtype.strong()}});
}
Tensor iota(int64_t length, int64_t start, int64_t step, Device device, DType dtype) {
  return call_tensor("iota", {length}, {{"start", start}, {"step", step}, {"device", device}, {"dtype", dtype.strong()}});
}
Tensor uniform(const Shape& shape, const Value& minval, const Value& maxval, Device device, DType dtype) {
  return call_tensor("uniform", {Value::ints(shape), minval, maxval}, {{"device", device}, {"dtype", dtype.strong()}});
}
Tensor randn(const Shape& shape, Device device, DType dtype) {
  return call_tensor("randn", {Value::ints(shape)}, {{"device", device}, {"dtype", dtype.strong()}});
}
Tensor multinomial(const Tensor& a, int64_t num_samples, bool replacement) {
  return call_tensor("multinomial", {a, num_samples, replacement});
}

Tensor broadcast_in_dim(const Tensor& a, const Shape& shape, const std::vector<int64_t>& broadcast_dimensions) {
  return call_tensor("broadcast_in_dim", {a, Value::ints(shape, true), Value::ints(broadcast_dimensions)});
}
Tensor reshape(const Tensor& a, const Shape& shape) { return call_tensor("reshape", {a, Value::ints(shape)}); }
Tensor slice_prim(const Tensor& a, const std::vector<int64_t>& start, const std::vector<int64_t>& end,
                  const std::vector<int64_t>& strides) {
  return call_tensor("slice_prim", {a, Value::ints(start, true), Value::ints(end, true), Value::ints(strides, true)});
}
Tensor squeeze(const Tensor& a, const std::vector<int64_t>& dims) { return call_tensor("squeeze", {a, Value::ints(dims)}); }
Tensor transpose(const Tensor& a, const std::vector<int64_t>& permutation) {
  return call_tensor("transpose", {a, Value::ints(permutation)});
}
Tensor cat(const std::vector<Tensor>& tensors, int64_t dim) {
  return call_tensor("cat", {Value::list(Values(tensors.begin(), tensors.end())), dim});
}
Tensor pad(const Tensor& a, const Value& padding_value, const std::vector<std::array<int64_t, 3>>& padding_config) {
  Values config;
  for (const auto& c : padding_config) config.push_back(Value::ints({c[0], c[1], c[2]}));
  return call_tensor("pad", {a, padding_value, Value::list(std::move(config))});
}
Tensor flip(const Tensor& a, const std::vector<int64_t>& dims) { return call_tensor("flip", {a, Value::ints(dims)}); }
Tensor unfold(const Tensor& a, int64_t dim, int64_t size, int64_t step) { return call_tensor("unfold", {a, dim, size, step}); }
Tensor all_reduce(const Tensor& a, const std::string& op, bool do_async) { return call_tensor("all_reduce", {a, op, do_async}); }
Tensor all_gather(const Tensor& a, int64_t world_size, bool do_async) { return call_tensor("all_gather", {a, world_size, do_async}); }
Tensor reduce_scatter(const Tensor& a, const std::string& op, int64_t world_size, bool do_async) {
  return call_tensor("reduce_scatter", {a, op, world_size, do_async});
}
Tensor wait(const Tensor& a) { return call_tensor("wait", {a}); }
Tensor stride_order(const Tensor& a, const std::vector<int64_t>& order) {
  return call_tensor("stride_order", {a, Value::ints(order)});
}

Tensor sum(const Tensor& a, const std::vector<int64_t>& dims) { return call_tensor("sum", {a, Value::ints(dims)}); }
Tensor prod(const Tensor& a, const std::vector<int64_t>& dims) { return call_tensor("prod", {a, Value::ints(dims)}); }
Tensor amax(const Tensor& a, const std::vector<int64_t>& dims) { return call_tensor("amax", {a, Value::ints(dims)}); }
Tensor amin(const Tensor& a, const std::vector<int64_t>& dims) { return call_tensor("amin", {a, Value::ints(dims)}); }
Tensor var(const Tensor& a, const std::vector<int64_t>& dims, const Value& correction) {
  return call_tensor("var", {a, Value::ints(dims)}, {{"correction", correction}});
}
std::pair<Tensor, Tensor> var_mean(const Tensor& a, const std::vector<int64_t>& dims, const Value& correction) {
  auto out = call(prim("var_mean"), {a, Value::ints(dims)}, {{"correction", correction}});
  return {out.items()[0].as_tensor(), out.items()[1].as_tensor()};
}
Tensor argmax(const Tensor& a, const Value& dim) { return call_tensor("argmax", {a, dim}); }
Tensor argmin(const Tensor& a, const Value& dim) { return call_tensor("argmin", {a, dim}); }
std::pair<Tensor, Tensor> topk(const Tensor& a, int64_t k, int64_t dim, bool largest, bool sorted) {
  auto out = call(prim("topk"), {a, k, dim, largest, sorted});
  return {out.items()[0].as_tensor(), out.items()[1].as_tensor()};
}

Tensor take(const Tensor& a, const Tensor& index, int64_t dim) { return call_tensor("take", {a, index, dim}); }
Tensor scatter(const Tensor& a, const Tensor& index, const Tensor& value, int64_t dim) {
  return call_tensor("scatter", {a, index, value, dim});
}
Tensor index_copy(const Tensor& a, const Tensor& index, const Tensor& value, int64_t dim) {
  return call_tensor("index_copy", {a, index, value, dim});
}
Tensor cumsum(const Tensor& a, int64_t dim) { return call_tensor("cumsum", {a, dim}); }
Tensor cumprod(const Tensor& a, int64_t dim) { return call_tensor("cumprod", {a, dim}); }
Tensor tensor_from_sequence(const Value& data, Device device, DType dtype) {
  return call_tensor("tensor_from_sequence", {data}, {{"device", device}, {"dtype", dtype.strong()}});
}
Tensor take_along_axis(const Tensor& a, const Tensor& index, int64_t dim) {
  return call_tensor("take_along_axis", {a, index, dim});
}
Tensor scatter_add(const Tensor& a, const Tensor& index, const Tensor& value, int64_t dim) {
  return call_tensor("scatter_add", {a, index, value, dim});
}
Tensor index_add(const Tensor& a, const Tensor& index, const Tensor& value, int64_t dim) {
  return call_tensor("index_add", {a, index, value, dim});
}

Tensor matmul(const Tensor& a, const Tensor& b) { return call_tensor("matmul", {a, b}); }
Tensor linear(const Tensor& a, const Tensor& w, const Value& bias) { return call_tensor("linear", {a, w, bias}); }
Tensor embedding(const Tensor& indices, const Tensor& weight, int64_t padding_idx, bool scale_grad_by_freq) {
  return call_tensor("embedding", {indices, weight}, {{"padding_idx", padding_idx}, {"scale_grad_by_freq", scale_grad_by_freq}});
}
Tensor convolution(const Tensor& a, const Tensor& weight, const Value& bias, const std::vector<int64_t>& stride,
                   const std::vector<int64_t>& padding, const std::vector<int64_t>& dilation, bool transposed,
                   const std::vector<int64_t>& output_padding, int64_t groups) {
  return call_tensor("convolution", {a, weight, bias, Value::ints(stride, true), Value::ints(padding, true),
                                     Value::ints(dilation, true), transposed, Value::ints(output_padding, true), groups});
}

const Symbol& python_del() {
  static const Symbol& sym = SymbolTable::global().get("prims.python_del");
  return sym;
}

}  // namespace prims

void register_prims(SymbolTable& t) {
  using namespace prims;
  for (const auto& u : kUnary) {
    std::string name = u.name;
    t.add(prim_symbol(name, "a, /", [u, name](const Args& x) -> Value {
      return make(elementwise_meta({x["a"]}, u.accepts, u.produces, name));
    }, {"ELEMENTWISE_OP"}));
  }
  for (const auto& b : kBinary) {
    std::string name = b.name;
    t.add(prim_symbol(name, "a, b, /", [b, name](const Args& x) -> Value {
      return make(elementwise_meta({x["a"], x["b"]}, b.accepts, b.produces, name));
    }, {"ELEMENTWISE_OP"}));
  }
  t.add(prim_symbol("where", "pred, a, b, /", [](const Args& x) -> Value {
    const auto& pred = x["pred"];
    check((pred.is_tensor() && pred.as_tensor().dtype().is_bool()) || pred.kind() == Value::Kind::Bool,
          "where: expected pred to be a boolean tensor or a bool");
    TensorMeta values = elementwise_meta({x["a"], x["b"]}, Accepts::AnyPrecision, Produces::Same, "where");
    if (pred.is_tensor() && !is_cpu_scalar(pred.as_tensor())) {
      const auto& p = pred.as_tensor();
      check(values.shape.empty() || p.shape() == values.shape, [&] {
        return str("Shapes were expected to be the same, but got shapes ", shape_repr(p.shape()), " and ",
                   shape_repr(values.shape), "!");
      });
      if (values.shape.empty()) values.shape = p.shape();
    }
    return make(values);
  }, {"ELEMENTWISE_OP"}));
  t.add(prim_symbol("lerp", "start, end, weight, /", [](const Args& x) -> Value {
    return make(elementwise_meta({x["start"], x["end"], x["weight"]}, Accepts::Inexact, Produces::Same, "lerp"));
  }, {"ELEMENTWISE_OP"}));
  register_creation_prims(t);
  register_shape_prims(t);
  register_reduction_prims(t);
  register_scan_prims(t);
  register_indexing_prims(t);
  register_linear_algebra_prims(t);
  register_convolution_backward(t);
  // Not an operation: the `del a, t1` statements Delete Last Used writes, which free memory.
  Symbol del = prim_symbol("python_del", "*args", [](const Args&) -> Value { return None{}; }, {"DONT_DCE"});
  del.printer = [](const BoundSymbol& b) {
    std::string out = "del ";
    for (size_t i = 0; i < b.args.size(); ++i) out += (i ? ", " : "") + py_repr(b.args[i]);
    return out;
  };
  t.add(std::move(del));
}

}  // namespace thundercc
