// Tensors made from nothing but numbers: torch.tensor and as_tensor (the data is part of the
// trace, as Thunder's tensor_from_sequence makes it), the index tables triu_indices and
// tril_indices (computed while tracing: they depend on sizes only), eye, linspace, empty and the
// signal windows. All are computed in the program, so a plan carries no data but the literal lists.
#include <cmath>
#include <functional>

#include "langs/torch_registry.h"
#include "thundercc/ir/pyliteral.h"

namespace thundercc::ltorch {

Device device_or(const Value& v, Device fallback) { return v.is_none() ? fallback : v.as_any_device(); }

namespace {

Device device_arg(const Args& x) { return device_or(x["device"], Device::cpu()); }

// torch.tensor's dtype for its data: its one-element tensors' dtypes promoted with the numbers'
// defaults (float32 for a float, int64 for an int), float32 for no elements at all.
DType inferred_dtype(const Value& data) {
  std::optional<DType> d;
  std::function<void(const Value&)> walk = [&](const Value& v) {
    if (v.is_sequence()) {
      for (const auto& item : v.items()) walk(item);
      return;
    }
    check(v.is_tensor() || (v.is_number() && !v.is_number_proxy() && v.kind() != Value::Kind::Complex), [&] {
      return str("torch.tensor: only lists of real numbers and one-element tensors are supported, but the data holds ", py_repr(v));
    }, "NotImplementedError");
    DType item = v.is_tensor() ? v.as_tensor().dtype().strong() : core::default_dtype_for(v.number_kind());
    d = d ? core::promote_dtypes(*d, item) : item;
  };
  walk(data);
  return d.value_or(dtypes::float32);
}

bool holds_tensors(const Value& v) {
  return v.is_tensor() || (v.is_sequence() && std::any_of(v.items().begin(), v.items().end(), holds_tensors));
}

// torch.tensor([a.sum(), a.max(), 1.0]): the elements' values (without their gradient) stacked in
// the nesting's shape.
Tensor tensor_of_tensors(const Value& data, Device device, DType d) {
  std::vector<Tensor> elements;
  Shape shape;
  std::function<void(const Value&, size_t)> walk = [&](const Value& v, size_t depth) {
    if (!v.is_sequence()) {
      check(depth == shape.size(), "torch.tensor: expected a sequence of equal lengths at every depth", "ValueError");
      if (!v.is_tensor()) return elements.push_back(prims::full({}, core::maybe_convert_to_dtype(v, d), device, d));
      const Tensor& t = v.as_tensor();
      check(t.numel() == 1, "only one element tensors can be converted to Python scalars", "ValueError");
      Tensor value = reshape(op("torch.Tensor.detach", {t}), {});
      return elements.push_back(core::convert(t.device() == device ? value : prims::device_put(value, device), d));
    }
    int64_t n = static_cast<int64_t>(v.items().size());
    if (depth == shape.size()) shape.push_back(n);
    check(depth < shape.size() && shape[depth] == n, "torch.tensor: expected a sequence of equal lengths at every depth", "ValueError");
    for (const auto& item : v.items()) walk(item, depth + 1);
  };
  walk(data, 0);
  if (elements.empty()) return prims::full(shape, int64_t{0}, device, d);
  return reshape(op("torch.stack", {Value::list(Values(elements.begin(), elements.end()))}), shape);
}

// torch.tensor(data) and Tensor.new_tensor(data): a copy of data's values, without its gradient.
Tensor tensor_impl(const Value& data, Device device, std::optional<DType> dtype, bool requires_grad) {
  check(!requires_grad, "torch.tensor(..., requires_grad=True) inside a program is not supported; pass the tensor in",
        "NotImplementedError");
  DType d = dtype.value_or(inferred_dtype(data));
  if (data.is_tensor()) {
    Tensor copy = core::convert(op("torch.Tensor.detach", {data}), d);
    return copy.device() == device ? copy : prims::device_put(copy, device);
  }
  if (holds_tensors(data)) return tensor_of_tensors(data, device, d);
  return prims::tensor_from_sequence(data, device, d);
}

// The (row, column) pairs of a triangle of a rows x cols matrix, row by row: triu_indices and
// tril_indices, as a 2 x N int64 table.
Tensor triangle_indices(const Args& x, bool upper) {
  int64_t rows = x.integer("row"), cols = x.integer("col"), offset = x.integer("offset");
  check(rows >= 0 && cols >= 0, [&] { return str(upper ? "triu" : "tril", "_indices: row and col must be non-negative"); });
  Values row_ids, col_ids;
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      if (upper ? j - i >= offset : j - i <= offset) {
        row_ids.push_back(i);
        col_ids.push_back(j);
      }
  DType d = optional_dtype(x["dtype"]).value_or(dtypes::int64);
  if (row_ids.empty()) return prims::full({2, 0}, int64_t{0}, device_arg(x), d);
  return prims::tensor_from_sequence(Value::list({Value::list(row_ids), Value::list(col_ids)}), device_arg(x), d);
}

// 0, 1, ..., n - 1 in dtype d.
Tensor positions(int64_t n, Device device, DType d) {
  Tensor iota = prims::iota(n, 0, 1, device, dtypes::int64);
  return d == dtypes::int64 ? iota : prims::convert_element_type(iota, d);
}

// PyTorch's hamming window: alpha - beta cos(2 pi n / (N - 1)), N one longer when periodic (the
// last point then dropped); hann_window is alpha = beta = 0.5.
Tensor cosine_window(const Args& x, double alpha, double beta) {
  int64_t length = x.integer("window_length");
  check(length >= 0, [&] { return str("window_length must be non-negative, but got ", length); });
  DType d = optional_dtype(x["dtype"]).value_or(dtypes::float32);
  check(d.is_float(), [&] { return str("window functions expect a floating point dtype, but got ", d.full_name()); });
  Device device = device_arg(x);
  if (length <= 1) return prims::full({length}, 1.0, device, d);
  bool periodic = x.flag("periodic");
  int64_t n = periodic ? length + 1 : length;
  Tensor angle = mul(positions(n, device, d), 2.0 * M_PI / static_cast<double>(n - 1));
  Tensor cosine = op("torch.cos", {angle});
  Tensor window = add(mul(cosine, -beta), alpha);
  return periodic ? narrow(window, 0, 0, length) : window;
}

}  // namespace

void register_creation(SymbolTable& t) {
  define(t, {{"torch.tensor"}, "data, *, dtype=None, device=None, requires_grad=False, pin_memory=False",
             [](const Args& x) -> Value { return tensor_impl(x["data"], device_arg(x), optional_dtype(x["dtype"]), x.flag("requires_grad")); }}, {kRunsDecomposed});
  define(t, {{"torch.Tensor.new_tensor"}, "a, /, data, *, dtype=None, device=None, requires_grad=False", [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    return tensor_impl(x["data"], device_or(x["device"], a.device()), optional_dtype(x["dtype"]).value_or(a.dtype().strong()),
                       x.flag("requires_grad"));
  }}, {kRunsDecomposed});
  define(t, {{"torch.as_tensor"}, "data, dtype=None, device=None", [](const Args& x) -> Value {
    if (!x["data"].is_tensor()) return tensor_impl(x["data"], device_arg(x), optional_dtype(x["dtype"]), false);
    Tensor a = x.tensor("data");
    if (auto d = optional_dtype(x["dtype"]); d && *d != a.dtype()) a = to(a, *d);
    if (!x.is_none("device") && x["device"].as_any_device() != a.device()) a = prims::device_put(a, x["device"].as_any_device());
    return a;
  }}, {kRunsDecomposed});
  define(t, {{"torch.triu_indices"}, "row, col, offset=0, *, dtype=None, device=None",
             [](const Args& x) -> Value { return triangle_indices(x, true); }}, {kRunsDecomposed});
  define(t, {{"torch.tril_indices"}, "row, col, offset=0, *, dtype=None, device=None",
             [](const Args& x) -> Value { return triangle_indices(x, false); }}, {kRunsDecomposed});
  define(t, {{"torch.eye"}, "n, m=None, *, dtype=None, device=None, requires_grad=False", [](const Args& x) -> Value {
    int64_t n = x.integer("n"), m = x.is_none("m") ? n : x.integer("m");
    check(n >= 0 && m >= 0, [&] { return str("eye: n and m must be non-negative, but got ", n, " and ", m); });
    Device device = device_arg(x);
    Tensor rows = unsqueeze(positions(n, device, dtypes::int64), 1);
    Tensor on_diagonal = eq(rows, positions(m, device, dtypes::int64));
    return to(on_diagonal, optional_dtype(x["dtype"]).value_or(dtypes::float32));
  }});
  // empty's contents are unspecified: zeros are as good as any (and reproducible).
  define(t, {{"torch.empty"}, "*size, dtype=None, device=None, requires_grad=False, pin_memory=False, memory_format=None",
             [](const Args& x) -> Value {
               return prims::full(x.ints("size"), 0.0, device_arg(x), optional_dtype(x["dtype"]).value_or(dtypes::float32));
             }});
  define(t, {{"torch.empty_like"}, "a, /, *, dtype=None, device=None, requires_grad=False, memory_format=None",
             [](const Args& x) -> Value {
               const auto& a = x.tensor("a");
               DType d = optional_dtype(x["dtype"]).value_or(a.dtype().strong());
               return prims::full(a.shape(), core::maybe_convert_to_dtype(int64_t{0}, d), device_or(x["device"], a.device()), d);
             }});
  // PyTorch's linspace: from start for the first half of the points, back from end for the rest,
  // so both ends are exact.
  define(t, {{"torch.linspace"}, "start, end, steps, *, dtype=None, device=None, requires_grad=False", [](const Args& x) -> Value {
    int64_t steps = x.integer("steps");
    check(steps >= 0, "linspace: number of steps must be non-negative");
    DType d = optional_dtype(x["dtype"]).value_or(dtypes::float32);
    Device device = device_arg(x);
    double start = x["start"].as_float(), end = x["end"].as_float();
    if (steps <= 1) return prims::full({steps}, core::maybe_convert_to_dtype(start, d), device, d);
    DType computation = d.is_float() ? d : dtypes::float64;
    double step = (end - start) / static_cast<double>(steps - 1);
    Tensor i = positions(steps, device, computation);
    Tensor from_start = add(mul(i, step), start);
    Tensor remaining = sub(static_cast<double>(steps - 1), i);
    Tensor from_end = sub(end, mul(remaining, step));
    Tensor values = where(lt(i, static_cast<double>(steps / 2)), from_start, from_end);
    return computation == d ? values : to(values, d);
  }});
  // base ** linspace(start, end, steps): the exponents in a float dtype, truncated to an integer dtype
  // after the power as ATen's kernel does.
  define(t, {{"torch.logspace"}, "start, end, steps, base=10.0, *, dtype=None, device=None, requires_grad=False", [](const Args& x) -> Value {
    DType d = optional_dtype(x["dtype"]).value_or(dtypes::float32);
    DType computation = d.is_inexact() ? d : dtypes::float64;
    Tensor exponents = op("torch.linspace", {x["start"], x["end"], x["steps"]}, {{"dtype", Value(computation)}, {"device", x["device"]}});
    Tensor powers = pow(x["base"], exponents);
    return computation == d ? powers : to(powers, d);
  }}, {kRunsDecomposed});
  define(t, {{"torch.hann_window"}, "window_length, periodic=True, *, dtype=None, device=None, requires_grad=False",
             [](const Args& x) -> Value { return cosine_window(x, 0.5, 0.5); }});
  define(t, {{"torch.hamming_window"},
             "window_length, periodic=True, alpha=0.54, beta=0.46, *, dtype=None, device=None, requires_grad=False",
             [](const Args& x) -> Value { return cosine_window(x, x["alpha"].as_float(), x["beta"].as_float()); }});
}

}  // namespace thundercc::ltorch
