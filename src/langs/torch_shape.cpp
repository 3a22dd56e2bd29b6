// Shape, indexing, conversion and creation ops of the torch language.
#include <algorithm>
#include <cmath>
#include <map>

#include "langs/torch_registry.h"
#include "thundercc/ir/pyliteral.h"
#include "thundercc/ir/trace.h"

namespace thundercc::ltorch {
namespace {

using langs::canonicalize_dim;

// Resolves one -1 in a requested shape, as view and reshape do.
Shape infer_shape(const Tensor& a, Shape shape) {
  int64_t known = 1;
  int inferred = -1;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == -1) {
      check(inferred < 0, "only one dimension can be inferred");
      inferred = static_cast<int>(i);
    } else {
      check(shape[i] >= 0, [&] { return str("invalid shape dimension ", shape[i]); });
      known *= shape[i];
    }
  }
  if (inferred >= 0) {
    check(known != 0 && a.numel() % known == 0,
          [&] { return str("shape '", langs::dims_repr(shape), "' is invalid for input of size ", a.numel()); });
    shape[inferred] = a.numel() / known;
  }
  return shape;
}

Tensor slice_dim(const Tensor& a, int64_t dim, int64_t start, int64_t end, int64_t step = 1) {
  std::vector<int64_t> starts(a.ndim(), 0), ends(a.shape().begin(), a.shape().end()), strides(a.ndim(), 1);
  starts[dim] = start;
  ends[dim] = end;
  strides[dim] = step;
  return prims::slice_prim(a, starts, ends, strides);
}

Value split_impl(const Tensor& a, const Value& sizes_or_size, int64_t dim_arg) {
  int64_t dim = canonicalize_dim(a.ndim(), dim_arg);
  int64_t length = a.shape()[dim];
  std::vector<int64_t> sizes;
  if (sizes_or_size.is_int_like()) {
    int64_t size = sizes_or_size.as_int();
    check(size > 0 || (size == 0 && length == 0), [&] { return str("split expects split_size be non-negative, but got split_size=", size); });
    int64_t pieces = size == 0 ? 1 : length / size + (length % size != 0);
    check(pieces <= thundercc::NameSet::kMaxNames, [&] { return str("split into ", pieces, " pieces is past the limit of one compilation"); });
    for (int64_t i = 0; i < pieces; ++i) sizes.push_back(size == 0 ? 0 : std::min(size, length - i * size));
  } else {
    sizes = sizes_or_size.as_ints();
    int64_t total = 0;
    bool valid = true;
    for (auto s : sizes) valid = valid && s >= 0 && !__builtin_add_overflow(total, s, &total);
    check(valid && total == length, [&] {
      return str("split_with_sizes expects split_sizes to sum exactly to ", length, " (input tensor's size at dimension ", dim,
                 "), but got split_sizes=", langs::dims_repr(sizes));
    });
  }
  Values parts;
  int64_t start = 0;
  for (auto s : sizes) {
    parts.push_back(slice_dim(a, dim, start, start + s));
    start += s;
  }
  return Value::tuple(std::move(parts));
}

// Python's slice.indices for a dimension of the given length (positive steps only).
std::array<int64_t, 3> slice_indices(const Slice& s, int64_t length) {
  int64_t step = s.step.value_or(1);
  check(step > 0, "step must be greater than zero", "ValueError");
  auto clamp = [&](std::optional<int64_t> v, int64_t fallback) {
    if (!v) return fallback;
    int64_t x = *v < 0 ? *v + length : *v;
    return std::clamp<int64_t>(x, 0, length);
  };
  int64_t start = clamp(s.start, 0);
  int64_t stop = std::max(start, clamp(s.stop, length));
  return {start, stop, step};
}

// A key of ints, slices, None and Ellipsis (basic indexing): the region of `a` it selects, as
// per-dimension start, end and stride, and how the result's dimensions differ from it.
struct BasicIndex {
  std::vector<int64_t> starts, ends, strides;
  std::vector<int64_t> squeezed;  // dims indexed by an int
  std::vector<int64_t> new_dims;  // positions of None in the result

  bool selects_everything(const Shape& shape) const {
    return std::all_of(strides.begin(), strides.end(), [](int64_t s) { return s == 1; }) &&
           std::all_of(starts.begin(), starts.end(), [](int64_t s) { return s == 0; }) &&
           std::equal(ends.begin(), ends.end(), shape.begin());
  }
  // The region's shape, before ints squeeze their dimension and None adds one.
  Shape region() const {
    Shape out;
    for (size_t d = 0; d < starts.size(); ++d) out.push_back(ends[d] <= starts[d] ? 0 : (ends[d] - starts[d] + strides[d] - 1) / strides[d]);
    return out;
  }
};

BasicIndex basic_index(const Tensor& a, const Value& key_arg) {
  Values key = key_arg.kind() == Value::Kind::Tuple ? key_arg.items() : Values{key_arg};
  int64_t consumed = 0;
  bool has_ellipsis = false;
  for (const auto& k : key) {
    if (k.kind() == Value::Kind::Ellipsis) {
      check(!has_ellipsis, "an index can only have a single ellipsis ('...')", "IndexError");
      has_ellipsis = true;
    } else if (!k.is_none()) {
      check(k.is_int_like() || k.kind() == Value::Kind::Slice, [&] {
        return str("indexing with ", py_repr(k), " is not supported; use ints, slices, None and Ellipsis");
      }, "NotImplementedError");
      ++consumed;
    }
  }
  check(consumed <= a.ndim(), [&] { return str("too many indices for tensor of dimension ", a.ndim()); }, "IndexError");

  BasicIndex index{std::vector<int64_t>(a.ndim(), 0), std::vector<int64_t>(a.shape().begin(), a.shape().end()),
                   std::vector<int64_t>(a.ndim(), 1), {}, {}};
  int64_t dim = 0, out_dim = 0;
  for (const auto& k : key) {
    if (k.kind() == Value::Kind::Ellipsis) {
      int64_t skip = a.ndim() - consumed;
      dim += skip;
      out_dim += skip;
    } else if (k.is_none()) {
      index.new_dims.push_back(out_dim++);
    } else if (k.is_int_like()) {
      int64_t length = a.shape()[dim];
      int64_t i = k.as_int();
      check(i >= -length && i < length, [&] {
        return str("index ", i, " is out of bounds for dimension ", dim, " with size ", length);
      }, "IndexError");
      index.starts[dim] = i < 0 ? i + length : i;
      index.ends[dim] = index.starts[dim] + 1;
      index.squeezed.push_back(dim++);
    } else {
      auto [start, stop, step] = slice_indices(k.as_slice(), a.shape()[dim]);
      index.starts[dim] = start;
      index.ends[dim] = stop;
      index.strides[dim] = step;
      ++dim;
      ++out_dim;
    }
  }
  return index;
}

bool is_index_tensor(const Value& k) { return k.is_tensor() && k.as_tensor().dtype().is_integer(); }

// The linear index of index tensors into the block of the dims they index (the leading dims of
// `shape`), broadcast together, each index wrapped as Python wraps it; and the block's size.
std::pair<Tensor, int64_t> linear_index(const Values& indices, const Shape& shape) {
  int64_t block = 1;
  Tensor linear;
  for (size_t i = indices.size(); i-- > 0;) {
    int64_t length = shape[i];
    Tensor index = indices[i].as_tensor();
    if (index.dtype() != dtypes::int64) index = to(index, dtypes::int64);
    // One recording call per statement: the order of a call's arguments is the compiler's.
    Tensor negative = lt(index, int64_t{0});
    Tensor shifted = add(index, length);
    Tensor wrapped = where(negative, shifted, index);
    Tensor scaled = block == 1 ? wrapped : mul(wrapped, block);
    linear = i + 1 == indices.size() ? scaled : add(scaled, linear);
    block *= length;
  }
  return {linear, block};
}

// a with a[indices] = value (or += with `accumulate`, index_put's), for integer index tensors on
// a's leading dims: the indexed block flattened, the value broadcast to what the indices select,
// and one index_copy (index_add) at the linear index.
Tensor index_put_impl(const Tensor& a, const Values& indices, const Value& value, bool accumulate) {
  check(!indices.empty() && static_cast<int64_t>(indices.size()) <= a.ndim(), [&] {
    return str("too many indices for tensor of dimension ", a.ndim(), " (got ", indices.size(), ")");
  }, "IndexError");
  for (const auto& k : indices)
    check(is_index_tensor(k), "index_put: the indices must be integer tensors", "NotImplementedError");
  auto [linear, block] = linear_index(indices, a.shape());
  Shape rest(a.shape().begin() + static_cast<int64_t>(indices.size()), a.shape().end());
  Shape flat{block};
  flat.insert(flat.end(), rest.begin(), rest.end());
  Shape selected = linear.shape();
  selected.insert(selected.end(), rest.begin(), rest.end());
  Tensor v = value.is_tensor() ? value.as_tensor() : full(selected, value, a.device(), a.dtype().strong());
  if (v.dtype().type != a.dtype().type) v = to(v, a.dtype().strong());
  check(langs::broadcast_shapes({v.shape(), selected}) == selected, [&] {
    return str("shape mismatch: value tensor of shape ", shape_repr(v.shape()), " cannot be broadcast to indexing result of shape ",
               shape_repr(selected));
  });
  if (v.shape() != selected) v = expand(v, selected);
  Shape rows{linear.numel()};
  rows.insert(rows.end(), rest.begin(), rest.end());
  Tensor flat_a = reshape(a, flat);
  Tensor flat_index = reshape(linear, {linear.numel()});
  Tensor flat_value = reshape(v, rows);
  Tensor written = accumulate ? prims::index_add(flat_a, flat_index, flat_value, 0) : prims::index_copy(flat_a, flat_index, flat_value, 0);
  return reshape(written, a.shape());
}

// Advanced indexing by integer tensors, with slices and Ellipsis for the other dims (NumPy's
// rules): the slices first, then the indexed dims (moved together, in front when they are not
// adjacent) flattened into one, read with one take at the broadcast linear index.
Tensor advanced_getitem(const Tensor& a, const Values& key) {
  Values slices;   // the key with each index tensor replaced by a full slice
  Values indices;  // the index tensors, in order
  Dims indexed;    // the dims they index
  int64_t dim = 0, explicit_dims = 0;
  for (const auto& k : key) explicit_dims += k.kind() == Value::Kind::Ellipsis ? 0 : 1;
  for (const auto& k : key) {
    if (k.kind() == Value::Kind::Ellipsis) {
      slices.push_back(k);
      dim += a.ndim() - explicit_dims;
      continue;
    }
    check(is_index_tensor(k) || k.kind() == Value::Kind::Slice, [&] {
      return str("indexing with ", k.is_tensor() ? k.as_tensor().dtype().full_name() + " tensors" : py_repr(k),
                 " among index tensors is not supported; use integer tensors, slices and Ellipsis");
    }, "NotImplementedError");
    if (k.is_tensor()) {
      indices.push_back(k);
      indexed.push_back(dim);
      slices.push_back(Slice{});
    } else {
      slices.push_back(k);
    }
    ++dim;
  }
  check(explicit_dims <= a.ndim(), [&] { return str("too many indices for tensor of dimension ", a.ndim()); }, "IndexError");
  BasicIndex basic = basic_index(a, Value::tuple(slices));
  Tensor sliced = basic.selects_everything(a.shape()) ? a : prims::slice_prim(a, basic.starts, basic.ends, basic.strides);
  bool adjacent = indexed.back() - indexed.front() + 1 == static_cast<int64_t>(indexed.size());
  int64_t position = adjacent ? indexed.front() : 0;
  if (!adjacent) {
    Dims order = indexed;
    for (int64_t d = 0; d < sliced.ndim(); ++d)
      if (std::find(indexed.begin(), indexed.end(), d) == indexed.end()) order.push_back(d);
    sliced = permute(sliced, order);
  }
  auto [linear, block] = linear_index(indices, Shape(sliced.shape().begin() + position, sliced.shape().end()));
  Shape before(sliced.shape().begin(), sliced.shape().begin() + position);
  Shape after(sliced.shape().begin() + position + indices.size(), sliced.shape().end());
  Shape flat = before;
  flat.push_back(block);
  flat.insert(flat.end(), after.begin(), after.end());
  Tensor flat_block = reshape(sliced, flat);
  Tensor flat_index = reshape(linear, {linear.numel()});
  Tensor taken = prims::take(flat_block, flat_index, position);
  Shape result = before;
  result.insert(result.end(), linear.shape().begin(), linear.shape().end());
  result.insert(result.end(), after.begin(), after.end());
  return reshape(taken, result);
}

// A list of ints in a key indexes as an int64 tensor of them (NumPy's rule: x[:, [-1]], x[[0, 2]]);
// its negative entries count from the end of the dimension it indexes, known here.
Value lists_as_index_tensors(const Tensor& a, const Value& list_key) {
  const Value key_arg = indexing_key(list_key);
  bool tuple = key_arg.kind() == Value::Kind::Tuple;
  Values key = tuple ? key_arg.items() : Values{key_arg};
  if (std::none_of(key.begin(), key.end(), [](const Value& k) { return k.kind() == Value::Kind::List; })) return key_arg;
  int64_t explicit_dims = 0;
  for (const auto& k : key) explicit_dims += k.kind() == Value::Kind::Ellipsis || k.is_none() ? 0 : 1;
  int64_t dim = 0;
  for (auto& k : key) {
    if (k.kind() == Value::Kind::Ellipsis) dim += a.ndim() - explicit_dims;
    if (k.kind() == Value::Kind::Ellipsis || k.is_none()) continue;
    if (k.kind() == Value::Kind::List) {
      check(dim < a.ndim(), [&] { return str("too many indices for tensor of dimension ", a.ndim()); }, "IndexError");
      int64_t length = a.shape()[dim];
      std::function<Value(const Value&)> wrapped = [&](const Value& v) -> Value {
        if (v.is_sequence()) {
          Values items;
          for (const auto& item : v.items()) items.push_back(wrapped(item));
          return Value::list(items);
        }
        check(v.is_int_like() && v.kind() != Value::Kind::Bool, [&] {
          return str("indexing with a list holding ", py_repr(v), " is not supported; lists of ints are");
        }, "NotImplementedError");
        int64_t i = v.as_int();
        check(i >= -length && i < length, [&] { return str("index ", i, " is out of bounds for dimension ", dim, " with size ", length); },
              "IndexError");
        return i < 0 ? i + length : i;
      };
      k = prims::tensor_from_sequence(wrapped(k), a.device(), dtypes::int64);
    }
    ++dim;
  }
  return tuple ? Value::tuple(key) : key[0];
}

Value getitem_impl(const Tensor& a, const Value& list_key) {
  const Value key_arg = lists_as_index_tensors(a, list_key);
  Values key = key_arg.kind() == Value::Kind::Tuple ? key_arg.items() : Values{key_arg};
  bool any_index_tensor = std::any_of(key.begin(), key.end(), is_index_tensor);
  bool simple = key_arg.is_tensor() && key_arg.as_tensor().ndim() <= 1;  // one 0-d or 1-d index: one take
  if (any_index_tensor && !simple && a.ndim() > 0) return advanced_getitem(a, key);
  if (key_arg.is_tensor()) {
    const auto& index = key_arg.as_tensor();
    check(index.dtype().is_integer() && index.ndim() <= 1, [&] {
      return str("advanced indexing with a ", index.dtype().full_name(), " tensor of ", index.ndim(),
                 " dimensions is not supported yet; only 0-d and 1-d integer index tensors are");
    }, "NotImplementedError");
    check(a.ndim() > 0, "advanced indexing of a 0-d tensor is not supported", "IndexError");
    Tensor taken = prims::take(a, index, 0);
    return index.ndim() == 0 ? prims::squeeze(taken, {0}) : taken;
  }
  BasicIndex index = basic_index(a, key_arg);
  Tensor out = index.selects_everything(a.shape()) ? a : prims::slice_prim(a, index.starts, index.ends, index.strides);
  if (!index.squeezed.empty()) out = prims::squeeze(out, index.squeezed);
  if (!index.new_dims.empty()) out = core::unsqueeze_dims(out, index.new_dims);
  return out;
}

// a with a[key] = value, out of place (Thunder's setitem). A boolean mask of a's shape selects
// with where; basic indexing places the value, broadcast to the region, with prims.pad (interior
// padding spaces a stepped slice) and selects the region with a mask padded the same way.
Value setitem_impl(const Tensor& a, const Value& list_key, const Value& value) {
  const Value key = lists_as_index_tensors(a, list_key);
  Value v = value.is_tensor() ? Value(value.as_tensor()) : core::maybe_convert_to_dtype(value, a.dtype());
  if (key.is_tensor() && key.as_tensor().dtype().is_bool()) {
    // A mask over a's leading dims (x[mask] = 0 with a [2, 79] mask for [2, 79, 64]) selects whole
    // trailing blocks: it gains their dims. The value is a number or broadcasts to one block.
    Tensor mask = key.as_tensor();
    const Shape& shape = a.shape();
    check(mask.ndim() <= a.ndim() && std::equal(mask.shape().begin(), mask.shape().end(), shape.begin()), [&] {
      return str("setitem with a boolean mask: the mask's shape ", shape_repr(mask.shape()), " must lead the tensor's ", shape_repr(shape));
    }, "IndexError");
    Shape block(shape.begin() + mask.ndim(), shape.end());
    check(!v.is_tensor() || langs::broadcast_shapes({v.as_tensor().shape(), block}) == block, [&] {
      return str("setitem with a boolean mask: a value of shape ", shape_repr(v.as_tensor().shape()), " for blocks of shape ",
                 shape_repr(block), " depends on how many the mask selects; give a number or one block");
    }, "NotImplementedError");
    if (mask.ndim() < a.ndim()) {
      Shape with_block = mask.shape();
      with_block.resize(a.ndim(), 1);
      mask = reshape(mask, with_block);
    }
    Tensor r = where(mask, v, a);
    return r.dtype().type == a.dtype().type ? r : to(r, a.dtype().strong());
  }
  // Index tensors on the leading dims, then whole dims (x[idx] = v, x[i, j] = v, x[idx, :] = v).
  Values items = key.kind() == Value::Kind::Tuple ? key.items() : Values{key};
  if (std::any_of(items.begin(), items.end(), is_index_tensor)) {
    size_t leading = 0;
    while (leading < items.size() && is_index_tensor(items[leading])) ++leading;
    check(std::all_of(items.begin() + static_cast<std::ptrdiff_t>(leading), items.end(), [](const Value& k) {
      return k.kind() == Value::Kind::Ellipsis || (k.kind() == Value::Kind::Slice && k.as_slice() == Slice{});
    }), "setitem with index tensors is supported on the leading dims, followed by whole dims (x[idx] = v, x[i, j] = v, "
        "x[idx, :] = v); other keys are not yet", "NotImplementedError");
    return index_put_impl(a, Values(items.begin(), items.begin() + static_cast<std::ptrdiff_t>(leading)), v, false);
  }
  BasicIndex index = basic_index(a, key);
  Shape region = index.region();
  Shape selected = region;  // the shape of a[key], which value broadcasts to
  for (auto it = index.squeezed.rbegin(); it != index.squeezed.rend(); ++it) selected.erase(selected.begin() + *it);
  for (auto d : index.new_dims) selected.insert(selected.begin() + d, 1);
  Tensor placed_value = v.is_tensor() ? v.as_tensor() : full(selected, v, a.device(), a.dtype().strong());
  if (placed_value.dtype().type != a.dtype().type) placed_value = to(placed_value, a.dtype().strong());
  check(langs::broadcast_shapes({placed_value.shape(), selected}) == selected, [&] {
    return str("shape mismatch: value tensor of shape ", shape_repr(placed_value.shape()),
               " cannot be broadcast to indexing result of shape ", shape_repr(selected));
  });
  if (placed_value.shape() != selected) placed_value = expand(placed_value, selected);
  if (std::find(region.begin(), region.end(), 0) != region.end()) return a;
  Tensor in_region = reshape(placed_value, region);
  if (index.selects_everything(a.shape())) return in_region;
  std::vector<std::array<int64_t, 3>> config;
  for (size_t d = 0; d < region.size(); ++d) {
    int64_t last = index.starts[d] + (region[d] - 1) * index.strides[d];
    config.push_back({index.starts[d], a.shape()[d] - last - 1, index.strides[d] - 1});
  }
  Tensor placed = prims::pad(in_region, int64_t{0}, config);
  Tensor mask = prims::pad(full(region, true, a.device(), dtypes::bool8), false, config);
  return where(mask, placed, a);
}

// to(a, dtype), to(a, device), to(a, other_tensor), or keywords.
Value to_impl(const Args& x) {
  const auto& a = x.tensor("a");
  std::optional<DType> dtype = optional_dtype(x["dtype"]);
  std::optional<Device> device;
  if (!x.is_none("device")) device = x["device"].as_any_device();
  for (const char* positional : {"tensor_dtype_or_device", "optional_positional_dtype"}) {
    const auto& v = x[positional];
    switch (v.kind()) {
      case Value::Kind::None: break;
      case Value::Kind::DType: case Value::Kind::TorchDType: dtype = v.as_dtype().strong(); break;
      case Value::Kind::Tensor:
        dtype = v.as_tensor().dtype().strong();
        device = v.as_tensor().device();
        break;
      default: device = v.as_any_device(); break;
    }
  }
  Tensor out = a;
  if (device && *device != a.device()) out = prims::device_put(out, *device);
  if (dtype && *dtype != a.dtype()) out = prims::convert_element_type(out, *dtype);
  return out;
}

Tensor triangle(const Args& x, bool lower) {
  const auto& a = x.tensor("a");
  check(a.ndim() >= 2, [&] { return str(lower ? "tril" : "triu", ": input tensor must have at least 2 dimensions"); });
  int64_t rows = a.shape()[a.ndim() - 2], cols = a.shape()[a.ndim() - 1];
  Tensor row = unsqueeze(prims::iota(rows, 0, 1, a.device(), dtypes::int64), -1);
  Tensor col = unsqueeze(prims::iota(cols, 0, 1, a.device(), dtypes::int64), -2);
  Tensor offset = col - row;
  Tensor mask = lower ? le(offset, x["diagonal"]) : ge(offset, x["diagonal"]);
  // The fill takes a's dtype, so a bool tensor stays bool (PyTorch's result dtype).
  Value fill = core::maybe_convert_to_dtype(x.is_none("fill_value") ? Value(int64_t{0}) : x["fill_value"], a.dtype());
  return where(mask, a, fill);
}

DType fill_dtype(const Value& fill_value) { return core::default_dtype_for(fill_value.number_kind()); }

Value full_impl(const Shape& shape, const Value& fill, const Value& device, std::optional<DType> dtype, Device fallback) {
  DType d = dtype.value_or(fill_dtype(fill));
  return prims::full(shape, core::maybe_convert_to_dtype(fill, d), device_or(device, fallback), d);
}

// F.pad: `pad` lists (before, after) pairs from the last dimension backwards. Constant padding is
// prims.pad (negative amounts crop); reflect, replicate and circular concatenate slices of a.
Tensor pad_impl(const Tensor& a, const std::vector<int64_t>& pad, const std::string& mode, const Value& value) {
  check(pad.size() % 2 == 0, "Padding length must be divisible by 2");
  int64_t padded = static_cast<int64_t>(pad.size()) / 2;
  check(padded <= a.ndim(), "Padding length should be less than or equal to two times the input dimension");
  if (mode == "constant") {
    std::vector<std::array<int64_t, 3>> config(a.ndim(), {0, 0, 0});
    for (int64_t i = 0; i < padded; ++i) config[a.ndim() - 1 - i] = {pad[2 * i], pad[2 * i + 1], 0};
    return prims::pad(a, value.is_none() ? Value(int64_t{0}) : core::maybe_convert_to_dtype(value, a.dtype()), config);
  }
  check(mode == "reflect" || mode == "replicate" || mode == "circular", [&] {
    return str("Unrecognised padding mode ", mode);
  }, "NotImplementedError");
  check(value.is_none() || value.as_float() == 0.0, [&] { return str("Padding mode \"", mode, "\" doesn't take in value argument"); });
  check(padded <= a.ndim() - 1 && padded <= 3, [&] {
    return str("Only 2D, 3D, 4D, 5D padding with non-constant padding are supported for now");
  }, "NotImplementedError");
  Tensor out = a;
  for (int64_t i = 0; i < padded; ++i) {
    int64_t dim = a.ndim() - 1 - i, before = pad[2 * i], after = pad[2 * i + 1], n = out.shape()[dim];
    check(before >= 0 && after >= 0, [&] { return str(mode, " padding does not support negative amounts, but got ", langs::dims_repr(pad)); }, "NotImplementedError");
    if (before == 0 && after == 0) continue;
    std::vector<Tensor> parts;
    if (mode == "reflect") {
      check(before < n && after < n, [&] {
        return str("Argument #4: Padding size should be less than the corresponding input dimension, but got: padding (",
                   before, ", ", after, ") at dimension ", dim, " of input ", shape_repr(a.shape()));
      });
      if (before) parts.push_back(prims::flip(narrow(out, dim, 1, before), {dim}));
      parts.push_back(out);
      if (after) parts.push_back(prims::flip(narrow(out, dim, n - 1 - after, after), {dim}));
    } else if (mode == "replicate") {
      check(n > 0, "replicate padding of an empty dimension");
      auto repeated = [&](int64_t at, int64_t count) {
        Shape shape = out.shape();
        shape[dim] = count;
        return expand(narrow(out, dim, at, 1), shape);
      };
      if (before) parts.push_back(repeated(0, before));
      parts.push_back(out);
      if (after) parts.push_back(repeated(n - 1, after));
    } else {
      check(before <= n && after <= n, "Padding value causes wrapping around more than once.");
      if (before) parts.push_back(narrow(out, dim, n - before, before));
      parts.push_back(out);
      if (after) parts.push_back(narrow(out, dim, 0, after));
    }
    out = cat(parts, dim);
  }
  return out;
}

// torch.roll: each rolled dimension is its two parts swapped; without dims, a flattened roll.
// The dtype of a legacy tensor type name ("torch.FloatTensor"), for Tensor.type.
DType legacy_type_dtype(const std::string& name) {
  static const std::map<std::string, DType> types{
      {"torch.FloatTensor", dtypes::float32}, {"torch.DoubleTensor", dtypes::float64}, {"torch.HalfTensor", dtypes::float16},
      {"torch.BFloat16Tensor", dtypes::bfloat16}, {"torch.LongTensor", dtypes::int64}, {"torch.IntTensor", dtypes::int32},
      {"torch.ShortTensor", dtypes::int16}, {"torch.CharTensor", dtypes::int8}, {"torch.ByteTensor", dtypes::uint8},
      {"torch.BoolTensor", dtypes::bool8}};
  auto it = types.find(name);
  check(it != types.end(), [&] { return str("invalid type: '", name, "'"); }, "ValueError");
  return it->second;
}

// The diagonal of dims dim1 and dim2, offset above (positive) or below the main one, as a new last
// dimension: the two dims moved last and flattened, then every (columns + 1)-th element.
Tensor diagonal_impl(const Tensor& a, int64_t offset, int64_t dim1_arg, int64_t dim2_arg) {
  int64_t dim1 = canonicalize_dim(a.ndim(), dim1_arg), dim2 = canonicalize_dim(a.ndim(), dim2_arg);
  check(dim1 != dim2, [&] { return str("diagonal dimensions cannot be identical ", dim1_arg, ", ", dim2_arg); });
  int64_t rows = a.shape()[dim1], cols = a.shape()[dim2];
  int64_t length = std::max<int64_t>(offset >= 0 ? std::min(rows, cols - offset) : std::min(rows + offset, cols), 0);
  Dims order;
  Shape flat_shape;
  for (int64_t d = 0; d < a.ndim(); ++d)
    if (d != dim1 && d != dim2) {
      order.push_back(d);
      flat_shape.push_back(a.shape()[d]);
    }
  order.push_back(dim1);
  order.push_back(dim2);
  flat_shape.push_back(rows * cols);
  bool in_order = std::is_sorted(order.begin(), order.end());
  Tensor flat = reshape(in_order ? a : permute(a, order), flat_shape);
  int64_t last = static_cast<int64_t>(flat_shape.size()) - 1;
  if (length == 0) return slice_dim(flat, last, 0, 0);
  int64_t start = offset >= 0 ? offset : -offset * cols;
  return slice_dim(flat, last, start, start + (length - 1) * (cols + 1) + 1, cols + 1);
}

// torch.diag of a vector: the square matrix with v on diagonal `k`.
Tensor diag_matrix(const Tensor& v, int64_t k) {
  int64_t n = v.shape()[0], size = n + std::abs(k);
  Tensor padded = k == 0 ? v : op("torch.nn.functional.pad", {v, Value::ints({0, std::abs(k)})});
  Tensor rows = unsqueeze(prims::iota(size, 0, 1, v.device(), dtypes::int64), 1);
  Tensor cols = prims::iota(size, 0, 1, v.device(), dtypes::int64);
  Tensor on_diagonal = eq(sub(cols, rows), k);
  // Row i holds v[i] when k >= 0 (at column i + k); column j holds v[j] when k < 0.
  Tensor values = k >= 0 ? unsqueeze(padded, 1) : unsqueeze(padded, 0);
  return where(on_diagonal, values, core::maybe_convert_to_dtype(int64_t{0}, v.dtype()));
}

// atleast_1d/2d/3d: a itself, or a view with ones added where PyTorch adds them.
Value at_least(const Value& arg, int64_t ndim) {
  auto one = [ndim](const Tensor& a) -> Tensor {
    if (a.ndim() >= ndim) return a;
    if (a.ndim() == 0) return reshape(a, Shape(ndim, 1));
    if (a.ndim() == 1) return reshape(a, ndim == 2 ? Shape{1, a.shape()[0]} : Shape{1, a.shape()[0], 1});
    return unsqueeze(a, -1);  // 2-d to 3-d
  };
  const Values& items = arg.items();
  if (items.size() == 1 && items[0].is_tensor()) return one(items[0].as_tensor());
  Values tensors = items.size() == 1 && items[0].is_sequence() ? items[0].items() : items;
  Values out;
  for (const auto& t : tensors) out.push_back(one(t.as_tensor()));
  return Value::tuple(std::move(out));
}

// Value (src) cut to index's shape where it is larger: the elements past it are never read, and
// the gradient of what is read has index's shape.
Tensor read_part(const Tensor& value, const Tensor& index) {
  Tensor out = value;
  for (int64_t d = 0; d < value.ndim() && d < index.ndim(); ++d)
    if (index.shape()[d] < value.shape()[d]) out = slice_dim(out, d, 0, index.shape()[d]);
  return out;
}

Tensor roll_impl(const Tensor& a, std::vector<int64_t> shifts, std::vector<int64_t> dims) {
  if (dims.empty()) {
    check(shifts.size() == 1, "roll: shifts and dims must align (dims may be empty only with a single shift)");
    return reshape(roll_impl(flatten(a), shifts, {0}), a.shape());
  }
  check(shifts.size() == dims.size(), [&] {
    return str("shifts and dimensions must align. shifts: ", shifts.size(), ", dims:", dims.size());
  });
  Tensor out = a;
  for (size_t i = 0; i < dims.size(); ++i) {
    int64_t dim = canonicalize_dim(a.ndim(), dims[i]), n = a.shape()[dim];
    if (n == 0) continue;
    int64_t shift = ((shifts[i] % n) + n) % n;
    if (shift == 0) continue;
    out = cat({narrow(out, dim, n - shift, shift), narrow(out, dim, 0, n - shift)}, dim);
  }
  return out;
}

}  // namespace

Tensor reshape(const Tensor& a, const Shape& shape) { return op("torch.reshape", {a, Value::ints(shape)}); }
Tensor expand(const Tensor& a, const Shape& shape) { return op("torch.Tensor.expand", {a, Value::ints(shape)}); }
Tensor unsqueeze(const Tensor& a, int64_t dim) { return op("torch.unsqueeze", {a, dim}); }
Tensor squeeze(const Tensor& a, const Dims& dims) { return op("torch.squeeze", {a, Value::ints(dims)}); }
Tensor transpose(const Tensor& a, int64_t dim0, int64_t dim1) { return op("torch.transpose", {a, dim0, dim1}); }
Tensor permute(const Tensor& a, const Dims& dims) { return op("torch.permute", {a, Value::ints(dims)}); }
Tensor flatten(const Tensor& a, int64_t start_dim, int64_t end_dim) { return op("torch.flatten", {a, start_dim, end_dim}); }
Tensor narrow(const Tensor& a, int64_t dim, int64_t start, int64_t length) {
  return op("torch.narrow", {a, dim, start, length});
}
Tensor cat(const std::vector<Tensor>& tensors, int64_t dim) {
  return op("torch.cat", {Value::list(Values(tensors.begin(), tensors.end())), dim});
}
Tensor to(const Tensor& a, DType dtype) { return op("torch.Tensor.to", {a, dtype}); }
Tensor contiguous(const Tensor& a) { return op("torch.Tensor.contiguous", {a}); }
Tensor full(const Shape& shape, const Value& fill_value, Device device, DType dtype) {
  return op("torch.full", {Value::ints(shape), fill_value}, {{"device", device}, {"dtype", dtype}});
}
Tensor zeros_like(const Tensor& a) { return op("torch.zeros_like", {a}); }
Tensor full_like(const Tensor& a, const Value& fill_value) { return op("torch.full_like", {a, fill_value}); }

void register_shape_ops(SymbolTable& t) {
  const std::vector<std::string> shape_op{"SHAPE_OP"};
  const std::vector<std::string> decomposed_shape_op{"SHAPE_OP", kRunsDecomposed};
  auto reshape_like = [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    return prims::reshape(a, infer_shape(a, x.ints("shape")));
  };
  define(t, {{"torch.reshape", "torch.Tensor.reshape"}, "a, /, *shape", reshape_like}, shape_op);
  define(t, {{"torch.Tensor.view"}, "a, /, *shape", reshape_like}, shape_op);
  define(t, {{"torch.flatten", "torch.Tensor.flatten"}, "a, /, start_dim=0, end_dim=-1", [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    if (a.ndim() == 0) return prims::reshape(a, {1});
    int64_t s = canonicalize_dim(a.ndim(), x.integer("start_dim")), e = canonicalize_dim(a.ndim(), x.integer("end_dim"));
    check(s <= e, "flatten() has invalid args: start_dim cannot come after end_dim");
    if (s == e) return a;
    Shape shape(a.shape().begin(), a.shape().begin() + s);
    int64_t n = 1;
    for (int64_t i = s; i <= e; ++i) n *= a.shape()[i];
    shape.push_back(n);
    shape.insert(shape.end(), a.shape().begin() + e + 1, a.shape().end());
    return prims::reshape(a, shape);
  }}, shape_op);
  define(t, {{"torch.permute", "torch.Tensor.permute"}, "a, /, *dims", [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    return prims::transpose(a, langs::canonicalize_dims(a.ndim(), x.ints("dims")));
  }}, shape_op);
  define(t, {{"torch.transpose", "torch.Tensor.transpose", "torch.swapaxes", "torch.Tensor.swapaxes", "torch.swapdims", "torch.Tensor.swapdims"}, "a, /, dim0, dim1", [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    if (a.ndim() == 0) return a;
    int64_t d0 = canonicalize_dim(a.ndim(), x.integer("dim0")), d1 = canonicalize_dim(a.ndim(), x.integer("dim1"));
    std::vector<int64_t> perm(a.ndim());
    for (int64_t i = 0; i < a.ndim(); ++i) perm[i] = i;
    std::swap(perm[d0], perm[d1]);
    return prims::transpose(a, perm);
  }}, shape_op);
  define(t, {{"torch.t", "torch.Tensor.t"}, "a, /", [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    check(a.ndim() <= 2, [&] { return str("t() expects a tensor with <= 2 dimensions, but self is ", a.ndim(), "D"); });
    return a.ndim() == 2 ? prims::transpose(a, {1, 0}) : a;
  }}, shape_op);
  // The transposing properties: T reverses every dimension, mT swaps the last two; H and mH
  // also conjugate.
  auto reversed = [](const Tensor& a) {
    Dims order;
    for (int64_t d = a.ndim() - 1; d >= 0; --d) order.push_back(d);
    return a.ndim() < 2 ? a : prims::transpose(a, order);
  };
  auto matrix_transposed = [](const Tensor& a, const char* name) {
    check(a.ndim() >= 2, [&] { return str("tensor.", name, " is only supported on matrices or batches of matrices. Got ", a.ndim(), "-D tensor."); });
    return transpose(a, -2, -1);
  };
  auto adjoint_only_of_matrices = [](const Tensor& a) {
    check(a.ndim() == 2 || a.ndim() == 0, [&] { return str("tensor.H is only supported on matrices (2-D tensors). Got ", a.ndim(), "-D tensor."); });
  };
  define(t, {{"torch.Tensor.T"}, "a, /", [=](const Args& x) -> Value { return reversed(x.tensor("a")); }}, shape_op);
  define(t, {{"torch.Tensor.mT"}, "a, /", [=](const Args& x) -> Value { return matrix_transposed(x.tensor("a"), "mT"); }}, shape_op);
  define(t, {{"torch.Tensor.H"}, "a, /", [=](const Args& x) -> Value {
    adjoint_only_of_matrices(x.tensor("a"));
    return op("torch.conj_physical", {reversed(x.tensor("a"))});
  }});
  define(t, {{"torch.Tensor.mH", "torch.adjoint", "torch.Tensor.adjoint"}, "a, /", [=](const Args& x) -> Value {
    return op("torch.conj_physical", {matrix_transposed(x.tensor("a"), "mH")});
  }});
  define(t, {{"torch.Tensor.contiguous"}, "a, /", [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    std::vector<int64_t> row_major;
    for (int64_t d = a.ndim() - 1; d >= 0; --d) row_major.push_back(d);
    return prims::stride_order(a, row_major);
  }}, shape_op);
  // Functionally a clone is its input: the trace never mutates a value (functionalization).
  define(t, {{"torch.clone", "torch.Tensor.clone"}, "a, /, *, memory_format=None", [](const Args& x) -> Value {
    return x.tensor("a");
  }}, shape_op);
  define(t, {{"torch.Tensor.expand"}, "a, /, *shape", [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    Shape shape = x.ints("shape");
    int64_t offset = static_cast<int64_t>(shape.size()) - a.ndim();
    check(offset >= 0, [&] {
      return str("expand: the number of sizes provided (", shape.size(), ") must be greater or equal to the number of dimensions in the tensor (", a.ndim(), ")");
    });
    for (int64_t i = 0; i < static_cast<int64_t>(shape.size()); ++i) {
      if (i >= offset && shape[i] == -1) shape[i] = a.shape()[i - offset];
      check(shape[i] >= 0, [&] { return str("expand: the expanded size ", shape[i], " is not allowed in a leading, non-existing dimension ", i); });
    }
    return core::expand_to(a, shape);
  }}, shape_op);
  define(t, {{"torch.unsqueeze", "torch.Tensor.unsqueeze"}, "a, /, dim", [](const Args& x) -> Value {
    return core::unsqueeze_dims(x.tensor("a"), {x.integer("dim")});
  }}, shape_op);
  define(t, {{"torch.squeeze", "torch.Tensor.squeeze"}, "a, /, dim=None", [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    std::vector<int64_t> dims;
    if (x.is_none("dim")) {
      for (int64_t i = 0; i < a.ndim(); ++i)
        if (a.shape()[i] == 1) dims.push_back(i);
    } else {
      for (auto d : langs::canonicalize_dims(a.ndim(), x.ints("dim")))
        if (a.ndim() > 0 && a.shape()[d] == 1) dims.push_back(d);
    }
    return dims.empty() ? a : prims::squeeze(a, dims);
  }}, shape_op);
  define(t, {{"torch.cat", "torch.concat"}, "tensors, /, dim=0", [](const Args& x) -> Value {
    const auto& list = x["tensors"];
    check(list.is_sequence() && !list.items().empty(), "torch.cat(): expected a non-empty list of Tensors");
    auto promoted = core::elementwise_type_promotion(list.items(), core::Promotion::Default).result;
    // PyTorch skips 1-d empty tensors (a legacy placeholder) beside tensors of other shapes.
    auto placeholder = [](const Value& v) { return v.as_tensor().shape() == Shape{0}; };
    bool skip = !std::all_of(list.items().begin(), list.items().end(), placeholder);
    std::vector<Tensor> ts;
    for (const auto& v : list.items())
      if (!(skip && placeholder(v))) ts.push_back(core::convert(v.as_tensor(), promoted));
    return prims::cat(ts, x.integer("dim"));
  }}, shape_op);
  define(t, {{"torch.stack"}, "tensors, /, dim=0", [](const Args& x) -> Value {
    const auto& list = x["tensors"];
    check(list.is_sequence() && !list.items().empty(), "stack expects a non-empty TensorList");
    const auto& first = list.items()[0].as_tensor();
    int64_t dim = canonicalize_dim(first.ndim() + 1, x.integer("dim"));
    std::vector<Tensor> ts;
    for (const auto& v : list.items()) {
      check(v.as_tensor().shape() == first.shape(), "stack expects each tensor to be equal size");
      ts.push_back(core::unsqueeze_dims(v.as_tensor(), {dim}));
    }
    return cat(ts, dim);
  }}, shape_op);
  define(t, {{"torch.unbind", "torch.Tensor.unbind"}, "a, /, dim=0", [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    check(a.ndim() > 0, "Dimension specified as 0 but tensor has no dimensions", "IndexError");
    int64_t dim = canonicalize_dim(a.ndim(), x.integer("dim"));
    Values parts;
    for (int64_t i = 0; i < a.shape()[dim]; ++i) parts.push_back(squeeze(slice_dim(a, dim, i, i + 1), {dim}));
    return Value::tuple(std::move(parts));
  }}, shape_op);
  define(t, {{"torch.select", "torch.Tensor.select"}, "a, /, dim, index", [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    check(a.ndim() > 0, "select() cannot be applied to a 0-dim tensor.", "IndexError");
    int64_t dim = canonicalize_dim(a.ndim(), x.integer("dim")), n = a.shape()[dim], i = x.integer("index");
    check(i >= -n && i < n, [&] { return str("select(): index ", i, " out of range for tensor of size ", shape_repr(a.shape()), " at dimension ", dim); }, "IndexError");
    if (i < 0) i += n;
    return squeeze(slice_dim(a, dim, i, i + 1), {dim});
  }}, shape_op);
  define(t, {{"torch.tensor_split", "torch.Tensor.tensor_split"}, "a, /, indices_or_sections, dim=0", [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    int64_t dim = canonicalize_dim(a.ndim(), x.integer("dim")), n = a.shape()[dim];
    std::vector<int64_t> bounds{0};
    if (x["indices_or_sections"].is_int_like()) {
      int64_t sections = x.integer("indices_or_sections");
      check(sections > 0, [&] { return str("number of sections must be larger than 0, got ", sections); });
      // The first n % sections parts are one longer (numpy.array_split).
      for (int64_t k = 0, at = 0; k < sections; ++k) bounds.push_back(at += n / sections + (k < n % sections ? 1 : 0));
    } else {
      for (auto i : x.ints("indices_or_sections")) bounds.push_back(std::clamp<int64_t>(i < 0 ? i + n : i, 0, n));
      bounds.push_back(n);
    }
    Values parts;
    for (size_t k = 0; k + 1 < bounds.size(); ++k) parts.push_back(slice_dim(a, dim, bounds[k], std::max(bounds[k], bounds[k + 1])));
    return Value::tuple(std::move(parts));
  }}, shape_op);
  define(t, {{"torch.movedim", "torch.Tensor.movedim", "torch.moveaxis", "torch.Tensor.moveaxis"}, "a, /, source, destination",
             [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    auto source = x.ints("source"), destination = x.ints("destination");
    check(source.size() == destination.size(), [&] {
      return str("movedim: Invalid source or destination dims: source (", langs::dims_repr(source), " dims) should contain the same number of dims as destination (", langs::dims_repr(destination), " dims)");
    });
    for (auto& d : source) d = canonicalize_dim(a.ndim(), d);
    for (auto& d : destination) d = canonicalize_dim(a.ndim(), d);
    std::vector<int64_t> order(a.ndim(), -1);
    std::vector<bool> used(a.ndim(), false);
    for (size_t i = 0; i < source.size(); ++i) {
      order[destination[i]] = source[i];
      used[source[i]] = true;
    }
    for (int64_t d = 0, next = 0; d < a.ndim(); ++d) {
      if (order[d] >= 0) continue;
      while (used[next]) ++next;
      order[d] = next++;
    }
    return permute(a, order);
  }}, shape_op);
  define(t, {{"torch.unflatten", "torch.Tensor.unflatten"}, "a, /, dim, sizes", [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    int64_t dim = canonicalize_dim(a.ndim(), x.integer("dim"));
    auto sizes = x.ints("sizes");
    int64_t known = 1, inferred = -1;
    for (size_t i = 0; i < sizes.size(); ++i) {
      if (sizes[i] == -1) inferred = static_cast<int64_t>(i);
      else known *= sizes[i];
    }
    if (inferred >= 0 && known > 0) sizes[inferred] = a.shape()[dim] / known;
    Shape shape(a.shape().begin(), a.shape().begin() + dim);
    shape.insert(shape.end(), sizes.begin(), sizes.end());
    shape.insert(shape.end(), a.shape().begin() + dim + 1, a.shape().end());
    return reshape(a, shape);
  }}, shape_op);
  define(t, {{"torch.broadcast_to", "torch.Tensor.broadcast_to"}, "a, /, size", [](const Args& x) -> Value {
    return expand(x.tensor("a"), x.ints("size"));
  }}, shape_op);
  define(t, {{"torch.broadcast_tensors"}, "*tensors", [](const Args& x) -> Value {
    std::vector<Shape> shapes;
    for (const auto& v : x["tensors"].items()) shapes.push_back(v.as_tensor().shape());
    Shape common = langs::broadcast_shapes(shapes);
    Values out;
    for (const auto& v : x["tensors"].items()) out.push_back(v.as_tensor().shape() == common ? v : Value(expand(v.as_tensor(), common)));
    return Value::tuple(out);
  }}, decomposed_shape_op);
  define(t, {{"torch.Tensor.expand_as"}, "a, other, /", [](const Args& x) -> Value {
    return expand(x.tensor("a"), x.tensor("other").shape());
  }}, shape_op);
  define(t, {{"torch.Tensor.view_as"}, "a, other, /", [](const Args& x) -> Value {
    return reshape(x.tensor("a"), x.tensor("other").shape());
  }}, shape_op);
  define(t, {{"torch.Tensor.reshape_as"}, "a, other, /", [](const Args& x) -> Value {
    return reshape(x.tensor("a"), x.tensor("other").shape());
  }}, shape_op);
  define(t, {{"torch.Tensor.repeat"}, "a, /, *repeats", [](const Args& x) -> Value {
    Tensor a = x.tensor("a");
    Values given = x["repeats"].items();
    std::vector<int64_t> repeats = given.size() == 1 && given[0].is_sequence() ? given[0].as_ints() : x.ints("repeats");
    check(static_cast<int64_t>(repeats.size()) >= a.ndim(), "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor");
    Shape padded(repeats.size() - a.ndim(), 1);
    padded.insert(padded.end(), a.shape().begin(), a.shape().end());
    a = reshape(a, padded);
    // (n0, n1, ...) -> (1, n0, 1, n1, ...) expanded to (r0, n0, r1, n1, ...), then merged.
    Shape interleaved, expanded, result;
    for (size_t d = 0; d < repeats.size(); ++d) {
      interleaved.insert(interleaved.end(), {1, padded[d]});
      expanded.insert(expanded.end(), {repeats[d], padded[d]});
      result.push_back(repeats[d] * padded[d]);
    }
    return reshape(expand(reshape(a, interleaved), expanded), result);
  }}, shape_op);
  define(t, {{"torch.repeat_interleave", "torch.Tensor.repeat_interleave"}, "a, /, repeats, dim=None, *, output_size=None",
             [](const Args& x) -> Value {
    check(x["repeats"].is_int_like(), "repeat_interleave with a tensor of repeats is data-dependent and not supported", "NotImplementedError");
    Tensor a = x.tensor("a");
    if (x.is_none("dim")) a = flatten(a);
    int64_t dim = x.is_none("dim") ? 0 : canonicalize_dim(a.ndim(), x.integer("dim"));
    int64_t r = x.integer("repeats");
    Shape with_copies = a.shape();
    with_copies.insert(with_copies.begin() + dim + 1, r);
    Shape result = a.shape();
    result[dim] *= r;
    return reshape(expand(unsqueeze(a, dim + 1), with_copies), result);
  }}, shape_op);
  // Indexing by tensors.
  define(t, {{"torch.index_select", "torch.Tensor.index_select"}, "a, /, dim, index", [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    const auto& index = x.tensor("index");
    check(index.ndim() <= 1, "index_select(): Index is supposed to be a vector", "IndexError");
    Tensor taken = prims::take(a, index.ndim() == 0 ? unsqueeze(index, 0) : index, canonicalize_dim(std::max<int64_t>(a.ndim(), 1), x.integer("dim")));
    return taken;
  }});
  define(t, {{"torch.gather", "torch.Tensor.gather"}, "a, /, dim, index, *, sparse_grad=False", [](const Args& x) -> Value {
    Tensor a = x.tensor("a");
    const auto& index = x.tensor("index");
    int64_t dim = canonicalize_dim(a.ndim(), x.integer("dim"));
    check(index.ndim() == a.ndim(), "Index tensor must have the same number of dimensions as input tensor");
    // The index may be smaller than a in the other dimensions: take that corner of a.
    for (int64_t d = 0; d < a.ndim(); ++d) {
      if (d == dim || index.shape()[d] == a.shape()[d]) continue;
      check(index.shape()[d] <= a.shape()[d], [&] {
        return str("Size does not match at dimension ", d, " expected index ", shape_repr(index.shape()),
                   " to be smaller than self ", shape_repr(a.shape()), " apart from dimension ", dim);
      });
      a = slice_dim(a, d, 0, index.shape()[d]);
    }
    return prims::take_along_axis(a, index, dim);
  }});
  define(t, {{"torch.take_along_dim", "torch.Tensor.take_along_dim"}, "a, /, indices, dim=None", [](const Args& x) -> Value {
    const auto& indices = x.tensor("indices");
    if (x.is_none("dim")) {
      Tensor flat = flatten(x.tensor("a"));
      return prims::take_along_axis(flat, flatten(indices), 0);
    }
    const auto& a = x.tensor("a");
    int64_t dim = canonicalize_dim(a.ndim(), x.integer("dim"));
    // Both broadcast, except along dim.
    Shape sa = a.shape(), si = indices.shape();
    sa[dim] = 1;
    si[dim] = 1;
    Shape common = langs::broadcast_shapes({sa, si});
    Shape a_shape = common, i_shape = common;
    a_shape[dim] = a.shape()[dim];
    i_shape[dim] = indices.shape()[dim];
    Tensor a_expanded = a.shape() == a_shape ? a : expand(a, a_shape);
    Tensor i_expanded = indices.shape() == i_shape ? indices : expand(indices, i_shape);
    return prims::take_along_axis(a_expanded, i_expanded, dim);
  }});
  define(t, {{"torch.scatter_add", "torch.Tensor.scatter_add"}, "a, /, dim, index, src", [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    const auto& index = x.tensor("index");
    return prims::scatter_add(a, index, read_part(x.tensor("src"), index), canonicalize_dim(a.ndim(), x.integer("dim")));
  }});
  // scatter(a, dim, index, src) or scatter(a, dim, index, value=number); reduce='add' adds what it
  // writes, 'multiply' multiplies by it (scatter_reduce's prod, a kept).
  define(t, {{"torch.scatter", "torch.Tensor.scatter"}, "a, /, dim, index, src=None, *, value=None, reduce=None",
             [](const Args& x) -> Value {
               check(x.is_none("src") != x.is_none("value"), "scatter: give exactly one of src and value");
               const auto& a = x.tensor("a");
               const auto& index = x.tensor("index");
               int64_t dim = canonicalize_dim(a.ndim(), x.integer("dim"));
               Tensor values;
               if (!x.is_none("src") && x["src"].is_tensor()) {
                 values = read_part(x.tensor("src"), index);
               } else {
                 const Value& number = x.is_none("src") ? x["value"] : x["src"];
                 values = prims::full(index.shape(), core::maybe_convert_to_dtype(number, a.dtype()), a.device(), a.dtype().strong());
               }
               if (x.is_none("reduce")) return prims::scatter(a, index, values, dim);
               const std::string& reduce = x["reduce"].as_string();
               check(reduce == "add" || reduce == "multiply", "reduce argument must be either add or multiply.");
               if (reduce == "add") return prims::scatter_add(a, index, values, dim);
               return op("torch.scatter_reduce", {a, dim, index, values, std::string("prod")});
             }});
  // Reductions of what index sends to each place (and of a's own value there, with include_self):
  // ATen's kernels (no prim reduces by max or product), gradients in autodiff/grad_rules.cpp.
  define(t, {{"torch.scatter_reduce", "torch.Tensor.scatter_reduce"}, "a, /, dim, index, src, reduce, *, include_self=True",
             [](const Args& x) -> Value {
               const auto& a = x.tensor("a");
               const auto& index = x.tensor("index");
               const auto& src = x.tensor("src");
               const std::string& reduce = x["reduce"].as_string();
               check(reduce == "sum" || reduce == "prod" || reduce == "mean" || reduce == "amax" || reduce == "amin", [&] {
                 return str("reduce argument must be either sum, prod, mean, amax or amin, got ", reduce);
               });
               check(index.dtype().type == ScalarType::Int64, "scatter_reduce(): Expected dtype int64 for index");
               check(a.dtype().type == src.dtype().type, "scatter(): Expected self.dtype to be equal to src.dtype");
               check(index.ndim() == a.ndim() && src.ndim() == a.ndim(), "Index tensor must have the same number of dimensions as self tensor");
               int64_t dim = canonicalize_dim(a.ndim(), x.integer("dim"));
               for (int64_t d = 0; d < a.ndim(); ++d)
                 check(index.shape()[d] <= src.shape()[d] && (d == dim || index.shape()[d] <= a.shape()[d]), [&] {
                   return str("Size does not match at dimension ", d, " expected index ", shape_repr(index.shape()),
                              " to be smaller than self ", shape_repr(a.shape()), " apart from dimension ", dim,
                              " and to be smaller size than src ", shape_repr(src.shape()));
                 });
               return Tensor::make(a.shape(), a.dtype().strong(), a.device());
             }}, {kNoDecomposition});
  define(t, {{"torch.index_reduce", "torch.Tensor.index_reduce"}, "a, /, dim, index, source, reduce, *, include_self=True",
             [](const Args& x) -> Value {
               const auto& a = x.tensor("a");
               const auto& index = x.tensor("index");
               const auto& source = x.tensor("source");
               const std::string& reduce = x["reduce"].as_string();
               check(reduce == "prod" || reduce == "mean" || reduce == "amax" || reduce == "amin", [&] {
                 return str("index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got ", reduce, ".");
               });
               check(index.ndim() <= 1, "index_reduce_(): Index is supposed to be a vector");
               check(index.dtype().type == ScalarType::Int64 || index.dtype().type == ScalarType::Int32,
                     "index_reduce_(): Expected dtype int32/int64 for index");
               check(a.dtype().type == source.dtype().type, "index_reduce_(): self and source must have the same scalar type");
               int64_t dim = canonicalize_dim(a.ndim(), x.integer("dim"));
               check(a.ndim() == 0 || (source.ndim() == a.ndim() && source.shape()[dim] == index.numel()),
                     "index_reduce_(): Number of indices should be equal to source.size(dim)");
               return Tensor::make(a.shape(), a.dtype().strong(), a.device());
             }}, {kNoDecomposition});
  // put: source written (or added) at flat indices of a, negative ones counted from the end.
  define(t, {{"torch.put", "torch.Tensor.put"}, "a, /, index, source, accumulate=False", [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    const auto& index = x.tensor("index");
    const auto& source = x.tensor("source");
    check(index.dtype().type == ScalarType::Int64, "put_(): Expected a long tensor for index, but got " + std::string(index.dtype().torch_name()));
    check(a.dtype().type == source.dtype().type, "put_(): self and source expected to have the same dtype");
    check(index.numel() == source.numel(), [&] {
      return str("put_(): Expected source and index to have the same number of elements, but got source.numel() = ", source.numel(),
                 ", index.numel() = ", index.numel());
    });
    int64_t n = a.numel(), k = index.numel();
    Tensor flat = reshape(a, {n});
    Tensor flat_index = reshape(index, {k});
    Tensor negative = lt(flat_index, 0);
    Tensor from_end = flat_index + n;
    Tensor wrapped = where(negative, from_end, flat_index);
    Tensor values = reshape(source, {k});
    Tensor written = x.flag("accumulate") ? prims::index_add(flat, wrapped, values, 0) : prims::index_copy(flat, wrapped, values, 0);
    return reshape(written, a.shape());
  }}, {kRunsDecomposed});
  // masked_scatter: source's elements in order, at the places mask (broadcast with a) selects; each
  // selected place's number among them is a running count of the mask.
  define(t, {{"torch.masked_scatter", "torch.Tensor.masked_scatter"}, "a, /, mask, source", [](const Args& x) -> Value {
    const auto& mask = x.tensor("mask");
    const auto& source = x.tensor("source");
    check(mask.dtype().is_bool(), "masked_scatter_ only supports boolean masks, but got mask with dtype " + std::string(mask.dtype().torch_name()));
    check(x.tensor("a").dtype().type == source.dtype().type, "masked_scatter: expected self and source to have same dtypes");
    Shape shape = langs::broadcast_shapes({x.tensor("a").shape(), mask.shape()});
    Tensor a = x.tensor("a").shape() == shape ? x.tensor("a") : expand(x.tensor("a"), shape);
    Tensor selected = mask.shape() == shape ? mask : expand(mask, shape);
    int64_t n = numel(shape), available = source.numel();
    if (n == 0 || available == 0) return where(selected, a, a);  // nothing to read (PyTorch checks the count at run time)
    Tensor counts = prims::cumsum(to(reshape(selected, {n}), dtypes::int64), 0);
    Tensor positions = op("torch.clamp", {counts - 1, 0, available - 1});
    Tensor read = prims::take(reshape(source, {available}), positions, 0);
    return where(selected, reshape(read, shape), a);
  }}, {kRunsDecomposed});
  define(t, {{"torch.index_add", "torch.Tensor.index_add"}, "a, /, dim, index, source, *, alpha=1", [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    const auto& index = x.tensor("index");
    check(index.ndim() <= 1, "index_add_(): Index is supposed to be a vector", "IndexError");
    Tensor source = x.tensor("source");
    // alpha scales source in source's dtype (PyTorch casts it first).
    if (!langs::is_one(x["alpha"])) source = mul(source, core::maybe_convert_to_dtype(x["alpha"], source.dtype()));
    int64_t dim = canonicalize_dim(std::max<int64_t>(a.ndim(), 1), x.integer("dim"));
    return prims::index_add(a, index.ndim() == 0 ? unsqueeze(index, 0) : index, source, dim);
  }});
  define(t, {{"torch.index_put", "torch.Tensor.index_put"}, "a, /, indices, values, accumulate=False", [](const Args& x) -> Value {
    Values indices = x["indices"].items();
    for (auto& k : indices)
      check(!k.is_none(), "index_put with None among the indices is not supported yet", "NotImplementedError");
    return index_put_impl(x.tensor("a"), indices, x["values"], x.flag("accumulate"));
  }});
  define(t, {{"torch.index_copy", "torch.Tensor.index_copy"}, "a, /, dim, index, source", [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    const auto& index = x.tensor("index");
    check(index.ndim() <= 1, "index_copy_(): Index should have dimension 1 or 0", "IndexError");
    int64_t dim = canonicalize_dim(std::max<int64_t>(a.ndim(), 1), x.integer("dim"));
    return prims::index_copy(a, index.ndim() == 0 ? unsqueeze(index, 0) : index, x.tensor("source"), dim);
  }});
  define(t, {{"torch.diagonal", "torch.Tensor.diagonal"}, "a, /, offset=0, dim1=0, dim2=1", [](const Args& x) -> Value {
    return diagonal_impl(x.tensor("a"), x.integer("offset"), x.integer("dim1"), x.integer("dim2"));
  }}, shape_op);
  define(t, {{"torch.diag", "torch.Tensor.diag"}, "a, /, diagonal=0", [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    check(a.ndim() == 1 || a.ndim() == 2, "diag(): Supports 1D or 2D tensors. Got " + std::to_string(a.ndim()) + "D");
    if (a.ndim() == 2) return diagonal_impl(a, x.integer("diagonal"), 0, 1);
    return diag_matrix(a, x.integer("diagonal"));
  }});
  define(t, {{"torch.atleast_1d"}, "*tensors", [](const Args& x) -> Value { return at_least(x["tensors"], 1); }}, decomposed_shape_op);
  define(t, {{"torch.atleast_2d"}, "*tensors", [](const Args& x) -> Value { return at_least(x["tensors"], 2); }}, decomposed_shape_op);
  define(t, {{"torch.atleast_3d"}, "*tensors", [](const Args& x) -> Value { return at_least(x["tensors"], 3); }}, decomposed_shape_op);
  // kron: a's and b's dims interleaved (a's scaled by b's), multiplied, merged pairwise.
  define(t, {{"torch.kron", "torch.Tensor.kron"}, "a, b, /", [](const Args& x) -> Value {
    Tensor a = x.tensor("a"), b = x.tensor("b");
    int64_t ndim = std::max(a.ndim(), b.ndim());
    Shape sa(ndim - a.ndim(), 1), sb(ndim - b.ndim(), 1);
    sa.insert(sa.end(), a.shape().begin(), a.shape().end());
    sb.insert(sb.end(), b.shape().begin(), b.shape().end());
    Shape a_spread, b_spread, result;
    for (int64_t d = 0; d < ndim; ++d) {
      a_spread.insert(a_spread.end(), {sa[d], 1});
      b_spread.insert(b_spread.end(), {1, sb[d]});
      result.push_back(sa[d] * sb[d]);
    }
    Tensor a_spread_out = reshape(a, a_spread);
    Tensor b_spread_out = reshape(b, b_spread);
    Tensor product = mul(a_spread_out, b_spread_out);
    return reshape(product, result);
  }});
  define(t, {{"torch.nn.functional.one_hot"}, "a, /, num_classes=-1", [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    check(a.dtype().type == ScalarType::Int64, "one_hot is only applicable to index tensor.");
    check(x.integer("num_classes") >= 0, "one_hot with num_classes=-1 depends on the data (its maximum); give num_classes", "NotImplementedError");
    Tensor classes = prims::iota(x.integer("num_classes"), 0, 1, a.device(), dtypes::int64);
    return to(eq(unsqueeze(a, -1), classes), dtypes::int64);
  }});
  define(t, {{"torch.split", "torch.Tensor.split"}, "a, /, split_size_or_sections, dim=0", [](const Args& x) -> Value {
    return split_impl(x.tensor("a"), x["split_size_or_sections"], x.integer("dim"));
  }}, shape_op);
  define(t, {{"torch.chunk", "torch.Tensor.chunk"}, "a, /, chunks, dim=0", [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    int64_t chunks = x.integer("chunks");
    check(chunks > 0, "chunk expects `chunks` to be greater than 0");
    int64_t dim = canonicalize_dim(a.ndim(), x.integer("dim"));
    int64_t size = (a.shape()[dim] + chunks - 1) / chunks;
    return split_impl(a, std::max<int64_t>(size, 1), dim);
  }}, shape_op);
  // Seed 003's op: windows of `size` every `step` along dim, as a new last dimension.
  define(t, {{"torch.Tensor.unfold"}, "a, /, dimension, size, step", [](const Args& x) -> Value {
    return prims::unfold(x.tensor("a"), x.integer("dimension"), x.integer("size"), x.integer("step"));
  }}, shape_op);
  define(t, {{"torch.narrow", "torch.Tensor.narrow"}, "a, /, dim, start, length", [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    int64_t dim = canonicalize_dim(a.ndim(), x.integer("dim"));
    int64_t start = x.integer("start");
    if (start < 0) start += a.shape()[dim];
    return slice_dim(a, dim, start, start + x.integer("length"));
  }}, shape_op);
  define(t, {{"torch.Tensor.__getitem__"}, "a, /, key", [](const Args& x) -> Value {
    return getitem_impl(x.tensor("a"), x["key"]);
  }, "getitem"}, shape_op);
  define(t, {{"torch.setitem"}, "a, key, value, /", [](const Args& x) -> Value {
    return setitem_impl(x.tensor("a"), x["key"], x["value"]);
  }});
  // Tensor.copy_'s value: src broadcast to a's shape, in a's dtype.
  define(t, {{"torch.copy"}, "a, src, /, non_blocking=False", [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    Tensor src = x.tensor("src");
    check(langs::broadcast_shapes({src.shape(), a.shape()}) == a.shape(), [&] {
      return str("The size of tensor a (", shape_repr(a.shape()), ") must match the size of tensor b (", shape_repr(src.shape()), ")");
    });
    if (src.dtype().type != a.dtype().type) src = to(src, a.dtype().strong());
    return src.shape() == a.shape() ? src : expand(src, a.shape());
  }}, {kProgramCast});
  define(t, {{"torch.Tensor.to"},
             "a, tensor_dtype_or_device=None, optional_positional_dtype=None, /, *, device=None, dtype=None, copy=False, memory_format=None",
             to_impl}, {kProgramCast});
  // Tensor.float(), .half(), ...: casts the program writes, as Tensor.to(dtype) is.
  struct DTypeMethod {
    const char* id;
    DType dtype;
  };
  const DTypeMethod methods[] = {
#define THUNDERCC_DTYPE_METHOD(method, dtype) {"torch.Tensor." #method, dtypes::dtype},
#include "thundercc/langs/dtype_methods.def"
  };
  for (const DTypeMethod& m : methods)
    define(t, {{m.id}, "a, /, memory_format=None", [dtype = m.dtype](const Args& x) -> Value {
             const auto& a = x.tensor("a");
             return a.dtype() == dtype ? a : to(a, dtype);
           }}, {kProgramCast});
  define(t, {{"torch.Tensor.cpu"}, "a, /, memory_format=None", [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    return a.device().is_cpu() ? a : prims::device_put(a, Device::cpu());
  }});
  // Tensor.cuda(device=None): an int, a device or None (CUDA device 0 here: a trace has no current device).
  define(t, {{"torch.Tensor.cuda"}, "a, /, device=None, non_blocking=False, memory_format=None", [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    Device cuda{Device::Type::CUDA, 0};
    if (x["device"].is_int_like()) cuda.index = static_cast<int>(x.integer("device"));
    else if (!x.is_none("device")) cuda = x["device"].as_any_device();
    check(cuda.type == Device::Type::CUDA, [&] { return str("Invalid device, must be cuda device, but got ", cuda.str()); });
    return a.device() == cuda ? a : prims::device_put(a, cuda);
  }});
  define(t, {{"torch.Tensor.type"}, "a, /, dtype=None, non_blocking=False", [](const Args& x) -> Value {
    check(!x.is_none("dtype"), "Tensor.type() without a dtype returns a string: not a tensor a trace can hold", "NotImplementedError");
    const auto& a = x.tensor("a");
    DType d = x["dtype"].kind() == Value::Kind::String ? legacy_type_dtype(x["dtype"].as_string()) : x["dtype"].as_dtype();
    return a.dtype() == d ? a : to(a, d);
  }}, {kProgramCast, kRunsDecomposed});
  // The value, cut from autograd: made under NoGradScope, it does not require grad.
  define(t, {{"torch.Tensor.detach"}, "a, /", [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    tracing::NoGradScope no_grad;
    return prims::convert_element_type(a, a.dtype());
  }}, {kRunsDecomposed});
  define(t, {{"torch.Tensor.type_as"}, "a, b, /", [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    return a.dtype() == x.tensor("b").dtype() ? a : to(a, x.tensor("b").dtype());
  }}, {kProgramCast});
  define(t, {{"torch.tril", "torch.Tensor.tril"}, "a, /, diagonal=0, *, fill_value=None",
             [](const Args& x) -> Value { return triangle(x, true); }});
  define(t, {{"torch.triu", "torch.Tensor.triu"}, "a, /, diagonal=0, *, fill_value=None",
             [](const Args& x) -> Value { return triangle(x, false); }});

  // Creation.
  define(t, {{"torch.full"}, "shape, fill_value, *, device=None, dtype=None", [](const Args& x) -> Value {
    return full_impl(x.ints("shape"), x["fill_value"], x["device"], optional_dtype(x["dtype"]), Device::cpu());
  }});
  auto constant = [](int64_t value) {
    return [value](const Args& x) -> Value {
      DType d = optional_dtype(x["dtype"]).value_or(dtypes::float32);
      return full_impl(x.ints("size"), value, x["device"], d, Device::cpu());
    };
  };
  define(t, {{"torch.zeros"}, "*size, device=None, dtype=None", constant(0)});
  define(t, {{"torch.ones"}, "*size, device=None, dtype=None", constant(1)});
  auto constant_like = [](std::optional<int64_t> value) {
    return [value](const Args& x) -> Value {
      const auto& a = x.tensor("a");
      Value fill = value ? Value(*value) : x["fill_value"];
      return full_impl(a.shape(), fill, x["device"], optional_dtype(x["dtype"]).value_or(a.dtype().strong()), a.device());
    };
  };
  // Tensor.new_*: a tensor of a's device and dtype unless given.
  auto constant_new = [](std::optional<int64_t> value) {
    return [value](const Args& x) -> Value {
      const auto& a = x.tensor("a");
      Value fill = value ? Value(*value) : x["fill_value"];
      return full_impl(x.ints("size"), fill, x["device"], optional_dtype(x["dtype"]).value_or(a.dtype().strong()), a.device());
    };
  };
  define(t, {{"torch.Tensor.new_zeros"}, "a, /, *size, dtype=None, device=None, requires_grad=False", constant_new(0)});
  define(t, {{"torch.Tensor.new_ones"}, "a, /, *size, dtype=None, device=None, requires_grad=False", constant_new(1)});
  // new_empty's contents are unspecified: zeros are as good as any (and reproducible).
  define(t, {{"torch.Tensor.new_empty"}, "a, /, *size, dtype=None, device=None, requires_grad=False", constant_new(0)});
  // The strides are a layout, which the runtime chooses; the contents are unspecified as new_empty's.
  define(t, {{"torch.Tensor.new_empty_strided"}, "a, /, size, stride, *, dtype=None, device=None, requires_grad=False", constant_new(0)},
         {kRunsDecomposed});
  define(t, {{"torch.Tensor.new_full"}, "a, /, size, fill_value, *, dtype=None, device=None, requires_grad=False",
             constant_new(std::nullopt)});
  define(t, {{"torch.nn.functional.pad"}, "a, /, pad, mode='constant', value=None", [](const Args& x) -> Value {
    return pad_impl(x.tensor("a"), x.ints("pad"), x["mode"].as_string(), x["value"]);
  }});
  define(t, {{"torch.constant_pad_nd"}, "a, pad, value=0", [](const Args& x) -> Value {
    return op("torch.nn.functional.pad", {x["a"], x["pad"], std::string("constant"), x["value"]});
  }}, {kRunsDecomposed});
  define(t, {{"torch.roll", "torch.Tensor.roll"}, "a, /, shifts, dims=()", [](const Args& x) -> Value {
    return roll_impl(x.tensor("a"), x.ints("shifts"), x.is_none("dims") ? std::vector<int64_t>{} : x.ints("dims"));
  }}, shape_op);
  define(t, {{"torch.flip", "torch.Tensor.flip"}, "a, /, dims", [](const Args& x) -> Value {
    return prims::flip(x.tensor("a"), x.ints("dims"));
  }}, shape_op);
  define(t, {{"torch.zeros_like"}, "a, /, *, device=None, dtype=None", constant_like(0)});
  define(t, {{"torch.ones_like"}, "a, /, *, device=None, dtype=None", constant_like(1)});
  define(t, {{"torch.full_like"}, "a, fill_value, /, *, device=None, dtype=None", constant_like(std::nullopt)});
  define(t, {{"torch.arange"}, "start, end=None, step=1, *, device=None, dtype=None", [](const Args& x) -> Value {
    Value start = x["start"], end = x["end"], step = x["step"];
    if (end.is_none()) {
      end = start;
      start = int64_t{0};
    }
    bool all_ints = start.is_int_like() && end.is_int_like() && step.is_int_like();
    DType d = optional_dtype(x["dtype"]).value_or(all_ints ? dtypes::int64 : dtypes::float32);
    Device device = device_or(x["device"], Device::cpu());
    check(step.as_float() != 0, "arange: step must be nonzero");
    double span = (end.as_float() - start.as_float()) / step.as_float();
    check(span >= 0, "arange: upper bound and larger bound inconsistent with step sign");
    auto length = static_cast<int64_t>(std::ceil(span));
    if (all_ints && d.is_integer()) return prims::iota(length, start.as_int(), step.as_int(), device, d);
    // start + i * step in the computation dtype (float for float16 and bfloat16, as ATen's
    // accumulate type), rounded to d once.
    DType computation = core::computation_dtype(d);
    Tensor steps = prims::convert_element_type(prims::iota(length, 0, 1, device, dtypes::int64), computation);
    Value step_ = core::maybe_convert_to_dtype(step, computation), start_ = core::maybe_convert_to_dtype(start, computation);
    return core::convert(prims::add(prims::mul(steps, step_), start_), d);
  }});
}

}  // namespace thundercc::ltorch
