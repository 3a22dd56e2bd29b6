// The torch executor's kernels: ATen calls for every operator src/executors/torch_executor.cpp
// registers, under the same ids. Prims' operators ("torch:prims.add") get the prim's semantics
// (operands already broadcast and converted); torch-language operators ("torch:torch.add") get
// PyTorch's, numbers included, which is what ATen does when called as PyTorch calls it.
#include <ATen/ATen.h>
#include <functional>
#include <map>
#include <ATen/TensorIndexing.h>

#include "runtime/matrix_products.h"
#include "runtime/process_group.h"
#include "thundercc/errors.h"
#include "thundercc/ir/pyliteral.h"
#include "thundercc/runtime/kernels.h"
#include "thundercc/runtime/tensor_files.h"

namespace thundercc::runtime {
namespace {

using at::Tensor;

// A number operand of a prim, as a 0-d tensor of the other operand's dtype and device.
Tensor operand(const ArgView& a, const Tensor& like) {
  if (a.is_tensor()) return a.tensor();
  return at::scalar_tensor(a.scalar(), like.options());
}

const Tensor& first_tensor(KernelCall& c) {
  for (size_t i = 0; i < c.size(); ++i)
    if (c.arg(i).is_tensor()) return c.arg(i).tensor();
  throw ThunderError("TypeError", "expected a tensor operand");
}

// Shapes passed as varargs (view(a, 2, 3)) or as one sequence (view(a, (2, 3))).
std::vector<int64_t> trailing_ints(KernelCall& c, size_t from) {
  if (c.size() == from + 1 && c.arg(from).value().is_sequence()) return c.arg(from).ints();
  std::vector<int64_t> out;
  for (size_t i = from; i < c.size(); ++i) out.push_back(c.arg(i).integer());
  return out;
}

std::optional<std::vector<int64_t>> optional_dims(const ArgView& a) {
  if (a.is_none()) return std::nullopt;
  return a.ints();
}

at::TensorOptions creation_options(KernelCall& c, at::ScalarType fallback_dtype, at::Device fallback_device) {
  auto dtype = c.kwarg("dtype").optional_dtype().value_or(fallback_dtype);
  auto device = c.kwarg("device").is_none() ? fallback_device : c.kwarg("device").device();
  return at::TensorOptions().dtype(dtype).device(device);
}

// A random op's values: drawn on the CPU from the call's generator (`draw` fills a CPU tensor of
// `options`' dtype), then moved to `options`' device, so that every device draws the same values.
template <class Draw>
at::Tensor drawn(KernelCall& c, at::IntArrayRef shape, at::TensorOptions options, Draw&& draw) {
  at::Generator generator = c.generator();
  at::Tensor values = at::empty(shape, options.device(at::kCPU));
  draw(values, generator);
  return options.device().is_cpu() ? values : values.to(options.device());
}

at::ScalarType dtype_of_number(const Value& v) {
  switch (v.number_kind()) {
    case NumberKind::Bool: return at::kBool;
    case NumberKind::Int: return at::kLong;
    case NumberKind::Float: return at::kFloat;
    case NumberKind::Complex: return at::kComplexFloat;
  }
  return at::kFloat;
}

int64_t reduction_enum(const std::string& reduction) {
  if (reduction == "none") return at::Reduction::None;
  if (reduction == "sum") return at::Reduction::Sum;
  return at::Reduction::Mean;
}

// The dims and correction of var, std, var_mean and std_mean: (a, dim, unbiased, keepdim, *,
// correction), or PyTorch's overload var(a, unbiased), its bool where the dims would be.
struct Spread {
  std::optional<std::vector<int64_t>> dims;
  c10::optional<int64_t> correction;  // optional: an int64_t would take ATen's overload of a bool `unbiased`
  at::OptionalIntArrayRef dims_ref() const { return dims ? at::OptionalIntArrayRef(*dims) : c10::nullopt; }
};

Spread spread_of(KernelCall& c) {
  if (c.arg(1).value().kind() == Value::Kind::Bool) return {std::nullopt, c.arg(1).flag() ? 1 : 0};
  Spread s{optional_dims(c.arg(1)), 1};
  if (!c.arg(2).is_none()) s.correction = c.arg(2).flag() ? 1 : 0;  // unbiased
  else if (!c.kwarg("correction").is_none()) s.correction = c.kwarg("correction").integer();
  return s;
}

// A (nested) list of ints in an index key: the int64 tensor of them, as PyTorch reads it.
Tensor list_index(const Value& list) {
  std::vector<int64_t> values, shape;
  std::function<void(const Value&, size_t)> walk = [&](const Value& v, size_t depth) {
    if (!v.is_sequence()) return values.push_back(v.as_int());
    if (depth == shape.size()) shape.push_back(static_cast<int64_t>(v.items().size()));
    for (const auto& item : v.items()) walk(item, depth + 1);
  };
  walk(list, 0);
  return at::tensor(values, at::kLong).reshape(shape);
}

// LibTorch's TensorIndex leaves its bool member uninitialized unless it is a bool index, and its
// copy and move read it (UBSan: an invalid bool load): indices are built in place, never moved.
std::vector<at::indexing::TensorIndex> tensor_indices(const Value& written_key) {
  namespace idx = at::indexing;
  std::vector<idx::TensorIndex> out;
  const Value key = indexing_key(written_key);
  Values items = key.kind() == Value::Kind::Tuple ? key.items() : Values{key};
  out.reserve(items.size());
  for (const auto& k : items) {
    switch (k.kind()) {
      case Value::Kind::None: out.emplace_back(idx::None); break;
      case Value::Kind::Ellipsis: out.emplace_back(idx::Ellipsis); break;
      case Value::Kind::Slice: {
        const auto& s = k.as_slice();
        auto part = [](const std::optional<int64_t>& x) { return x ? c10::optional<int64_t>(*x) : c10::nullopt; };
        out.emplace_back(idx::Slice(part(s.start), part(s.stop), part(s.step)));
        break;
      }
      case Value::Kind::List: out.emplace_back(list_index(k)); break;
      default: out.emplace_back(k.as_int()); break;
    }
  }
  return out;
}

void add_unary(KernelRegistry& r, const std::string& id, Tensor (*fn)(const Tensor&)) {
  r.add(id, [fn](KernelCall& c) { c.set_output(0, fn(c.arg(0).tensor())); });
}

// An embedding's forward into a planned buffer: the rows of `weight` the indices pick, as
// at::embedding computes it (padding_idx and the frequency scaling only matter to its gradient).
void embedding_into(Tensor& out, const Tensor& weight, const Tensor& indices) {
  if (out.numel() == 0) return;  // nothing to pick (and view(-1, 0) would be ambiguous)
  Tensor rows = out.view({-1, weight.size(1)});
  at::index_select_out(rows, weight, 0, indices.reshape(-1));
}

// Output 0 written by `into` (an out= call) into the buffer the plan gives it, else made by `make`:
// the kernel of an operator tagged kOutBuffer (src/executors/torch_executor.cpp).
template <class Into, class Make>
void write_output(KernelCall& c, Into&& into, Make&& make) {
  c.set_output(0, into_buffer_or_make(c.buffer(0), into, make));
}

// An elementwise binary op and its out= variant: written into the planned buffer when there is one.
using BinaryFn = Tensor (*)(const Tensor&, const Tensor&);
using BinaryOutFn = void (*)(Tensor& out, const Tensor&, const Tensor&);
void write_binary(KernelCall& c, const Tensor& a, const Tensor& b, BinaryFn fn, BinaryOutFn into) {
  write_output(c, [&](Tensor& out) { into(out, a, b); }, [&] { return fn(a, b); });
}
// The BinaryFn, BinaryOutFn pair of an ATen op.
#define THUNDERCC_ATEN_BINARY_FNS(aten)                            \
  [](const Tensor& a, const Tensor& b) { return at::aten(a, b); }, \
      [](Tensor& out, const Tensor& a, const Tensor& b) { at::aten##_out(out, a, b); }

// A unary prim's kernel, also the torch-language op's where the torch language has it.
void add_unary_op(KernelRegistry& r, const char* name, bool torch_op, const Kernel& kernel) {
  r.add(str("torch:prims.", name), kernel);
  if (torch_op) r.add(str("torch:torch.", name), kernel);
}

void register_unary_kernels(KernelRegistry& r) {
  // The unary prims ATen runs under their own names (unary_ops.def), into the planned buffer
  // through the out= variant where ATen has one.
#define THUNDERCC_ATEN_Out(name, torch_op)                                                        \
  add_unary_op(r, #name, torch_op, [](KernelCall& c) {                                            \
    const Tensor& a = c.arg(0).tensor();                                                          \
    write_output(c, [&](Tensor& out) { at::name##_out(out, a); }, [&] { return at::name(a); });  \
  });
#define THUNDERCC_ATEN_Plain(name, torch_op) \
  add_unary_op(r, #name, torch_op, [](KernelCall& c) { c.set_output(0, at::name(c.arg(0).tensor())); });
#define THUNDERCC_ATEN_Custom(name, torch_op)
#define THUNDERCC_UNARY_OP(name, accepts, produces, promotion, in_place, aten, ...) \
  THUNDERCC_ATEN_##aten(name, std::string_view(#promotion) != "None")
#include "thundercc/langs/unary_ops.def"
#undef THUNDERCC_ATEN_Out
#undef THUNDERCC_ATEN_Plain
#undef THUNDERCC_ATEN_Custom
  // Custom: ATen's under another name.
  add_unary(r, "torch:prims.ndtri", [](const Tensor& a) { return at::special_ndtri(a); });
  add_unary(r, "torch:prims.erfcinv", [](const Tensor& a) { return at::erfinv(1 - a); });
  add_unary(r, "torch:torch.logical_not", [](const Tensor& a) { return at::logical_not(a); });
  add_unary(r, "torch:torch.sigmoid", [](const Tensor& a) { return at::sigmoid(a); });
  add_unary(r, "torch:torch.t", [](const Tensor& a) { return at::t(a); });
  add_unary(r, "torch:torch.nn.functional.silu", [](const Tensor& a) { return at::silu(a); });
  add_unary(r, "torch:torch.nn.functional.relu", [](const Tensor& a) { return at::relu(a); });
  add_unary(r, "torch:torch.Tensor.contiguous", [](const Tensor& a) { return a.contiguous(); });
  add_unary(r, "torch:torch.clone", [](const Tensor& a) { return a.clone(); });
}

// Kernels whose prim and torch-language op take the same arguments in the same places.
// argmax, argmin and topk have no bool kernel: as uint8 the order is the same.
Tensor orderable(const Tensor& a) { return a.scalar_type() == at::kBool ? a.to(at::kByte) : a; }

void topk_kernel(KernelCall& c) {
  // LibTorch 1.13's CPU topk has no float16 kernel either: float32 holds every float16 exactly.
  const Tensor& a = c.arg(0).tensor();
  Tensor ordered = a.scalar_type() == at::kHalf ? a.to(at::kFloat) : orderable(a);
  auto [v, i] = at::topk(ordered, c.arg(1).integer(), c.arg(2).integer(), c.arg(3).flag(), c.arg(4).flag());
  c.set_output(0, v.scalar_type() == a.scalar_type() ? v : v.to(a.scalar_type()));
  c.set_output(1, i);
}
void unfold_kernel(KernelCall& c) {
  c.set_output(0, c.arg(0).tensor().unfold(c.arg(1).integer(), c.arg(2).integer(), c.arg(3).integer()));
}

void register_prim_kernels(KernelRegistry& r) {

  // Binary prims: number operands as 0-d tensors of the other operand's type.
  auto binary = [&](const char* name, BinaryFn fn, BinaryOutFn into) {
    r.add(std::string("torch:prims.") + name, [fn, into](KernelCall& c) {
      const Tensor& like = first_tensor(c);
      write_binary(c, operand(c.arg(0), like), operand(c.arg(1), like), fn, into);
    });
  };
  // binary_ops.def's kernel column: at::fn and at::fn_out, or (Custom) a kernel below.
  struct AtenBinary {
    const char* prim;
    BinaryFn fn;
    BinaryOutFn into;
  };
  const AtenBinary aten_binaries[] = {
#define THUNDERCC_KERNEL_Aten(fn) THUNDERCC_ATEN_BINARY_FNS(fn)
#define THUNDERCC_KERNEL_Custom nullptr, nullptr
#define THUNDERCC_BINARY_OP(name, accepts, produces, torch, promotion, in_place, printed, kernel, ...) \
    {#name, THUNDERCC_KERNEL_##kernel},
#include "thundercc/langs/binary_ops.def"
#undef THUNDERCC_KERNEL_Aten
#undef THUNDERCC_KERNEL_Custom
  };
  for (const auto& op : aten_binaries)
    if (op.fn) binary(op.prim, op.fn, op.into);
  // prims.div truncates integers (C semantics) and divides inexact values exactly.
  static constexpr auto rounding = [](const Tensor& a) -> c10::optional<c10::string_view> {
    if (a.is_floating_point() || a.is_complex()) return c10::nullopt;
    return "trunc";
  };
  binary("div", [](const Tensor& a, const Tensor& b) { return at::div(a, b, rounding(a)); },
         [](Tensor& out, const Tensor& a, const Tensor& b) { at::div_out(out, a, b, rounding(a)); });

  r.add("torch:prims.where", [](KernelCall& c) {
    // A number operand takes the other operand's dtype, never the predicate's (bool).
    const Tensor& like = c.arg(1).is_tensor() ? c.arg(1).tensor() : c.arg(2).is_tensor() ? c.arg(2).tensor() : first_tensor(c);
    Tensor pred = c.arg(0).is_tensor() ? c.arg(0).tensor() : at::scalar_tensor(c.arg(0).scalar(), like.options().dtype(at::kBool));
    Tensor a = operand(c.arg(1), like), b = operand(c.arg(2), like);
    write_output(c, [&](Tensor& out) { at::where_out(out, pred, a, b); }, [&] { return at::where(pred, a, b); });
  });
  r.add("torch:prims.lerp", [](KernelCall& c) {
    const Tensor& like = first_tensor(c);
    Tensor a = operand(c.arg(0), like), b = operand(c.arg(1), like), w = operand(c.arg(2), like);
    write_output(c, [&](Tensor& out) { at::lerp_out(out, a, b, w); }, [&] { return at::lerp(a, b, w); });
  });
  r.add("torch:prims.convert_element_type", [](KernelCall& c) {
    const Tensor& a = c.arg(0).tensor();
    write_output(c, [&](Tensor& out) { copy_into(out, a); }, [&] { return a.to(c.arg(1).dtype()); });
  });
  r.add("torch:prims.device_put", [](KernelCall& c) { c.set_output(0, c.arg(0).tensor().to(c.arg(1).device())); });
  r.add("torch:prims.full", [](KernelCall& c) {
    c.set_output(0, at::full(c.arg(0).ints(), c.arg(1).scalar(), creation_options(c, at::kFloat, at::kCPU)));
  });
  r.add("torch:prims.tensor_from_sequence", [](KernelCall& c) {
    // The numbers in row-major order, as int64 or double (every value a trace holds is one), then
    // converted as torch.tensor converts them.
    std::vector<int64_t> shape;
    std::vector<Value> numbers;
    std::function<void(const Value&, size_t)> walk = [&](const Value& v, size_t depth) {
      if (!v.is_sequence()) return numbers.push_back(v);
      if (shape.size() == depth) shape.push_back(static_cast<int64_t>(v.items().size()));
      for (const auto& item : v.items()) walk(item, depth + 1);
    };
    walk(c.arg(0).value(), 0);
    bool all_exact = std::all_of(numbers.begin(), numbers.end(), [](const Value& v) { return v.is_int_like() || v.kind() == Value::Kind::Bool; });
    at::TensorOptions options = creation_options(c, at::kFloat, at::kCPU);
    Tensor flat;
    if (all_exact) {
      std::vector<int64_t> values;
      for (const auto& v : numbers) values.push_back(v.kind() == Value::Kind::Bool ? v.as_bool() : v.as_int());
      flat = at::tensor(values, at::kLong);
    } else {
      std::vector<double> values;
      for (const auto& v : numbers) values.push_back(v.as_float());
      flat = at::tensor(values, at::kDouble);
    }
    c.set_output(0, flat.to(options).reshape(shape));
  });
  r.add("torch:prims.iota", [](KernelCall& c) {
    int64_t length = c.arg(0).integer(), start = c.kwarg("start").integer(), step = c.kwarg("step").integer();
    c.set_output(0, at::arange(start, start + length * step, step, creation_options(c, at::kLong, at::kCPU)));
  });
  r.add("torch:prims.uniform", [](KernelCall& c) {
    double low = c.arg(1).real(), high = c.arg(2).real();
    c.set_output(0, drawn(c, c.arg(0).ints(), creation_options(c, at::kFloat, at::kCPU),
                          [&](at::Tensor& t, at::Generator& g) { t.uniform_(low, high, g); }));
  });
  r.add("torch:prims.randn", [](KernelCall& c) {
    c.set_output(0, drawn(c, c.arg(0).ints(), creation_options(c, at::kFloat, at::kCPU),
                          [](at::Tensor& t, at::Generator& g) { t.normal_(0.0, 1.0, g); }));
  });
  r.add("torch:prims.multinomial", [](KernelCall& c) {
    const Tensor& a = c.arg(0).tensor();
    at::Generator generator = c.generator();
    Tensor samples = at::multinomial(a.cpu(), c.arg(1).integer(), c.arg(2).flag(), generator);
    c.set_output(0, a.is_cpu() ? samples : samples.to(a.device()));
  });

  r.add("torch:prims.broadcast_in_dim", [](KernelCall& c) {
    const Tensor& a = c.arg(0).tensor();
    auto shape = c.arg(1).ints();
    auto dims = c.arg(2).ints();
    std::vector<int64_t> with_ones(shape.size(), 1);
    for (size_t i = 0; i < dims.size(); ++i) with_ones.at(dims.at(i)) = a.size(static_cast<int64_t>(i));
    c.set_output(0, a.reshape(with_ones).expand(shape));
  });
  // The caller's tensor receives the value (functionalization's write-back).
  r.add("torch:prims.copy_", [](KernelCall& c) { c.arg(1).tensor().copy_(c.arg(0).tensor()); });
  r.add("torch:prims.check_tensor_value", [](KernelCall& c) {
    const Value& captured = c.arg(1).value();
    bool same = false;
    std::string seen;
    if (captured.is_sequence()) {
      at::Tensor now = c.arg(0).tensor().to(at::kCPU, at::kLong).contiguous();
      Values values;
      for (int64_t i = 0; i < now.numel(); ++i) values.push_back(now.data_ptr<int64_t>()[i]);
      same = now.numel() == static_cast<int64_t>(captured.items().size());
      for (size_t i = 0; same && i < values.size(); ++i) same = values[i].as_int() == captured.items()[i].as_int();
      seen = py_repr(Value::list(std::move(values)));
    } else if (at::Scalar now = c.arg(0).tensor().item(); captured.kind() == Value::Kind::Float) {
      // Floats within float32's tolerance: another executor may round the value differently.
      double v = now.toDouble(), want = captured.as_float();
      auto [rtol, atol] = default_tolerances(at::kFloat);
      same = v == want || std::abs(v - want) <= rtol * std::abs(want) + atol;
      seen = float_repr(v);
    } else if (captured.kind() == Value::Kind::Bool) {
      same = now.toBool() == captured.as_bool();
      seen = now.toBool() ? "True" : "False";
    } else {
      same = !now.isFloatingPoint() && now.toLong() == captured.as_int();
      seen = now.isFloatingPoint() ? float_repr(now.toDouble()) : std::to_string(now.toLong());
    }
    if (!same)
      throw std::runtime_error(thundercc::str("guard failed: ", c.arg(2).string(), " gave ", py_repr(captured),
                                              " when the program was captured, and the plan is specialized to that value, "
                                              "but it is ", seen, " now; capture the program again with these inputs"));
  });
  // Collectives (process_group.cpp), started here; a wait hands on the result once it is ready.
  r.add("torch:prims.all_reduce", [](KernelCall& c) {
    at::Tensor reduced = c.arg(0).tensor().clone(at::MemoryFormat::Contiguous);
    start_all_reduce(reduced, c.arg(1).string() == "avg");
    c.set_output(0, c.arg(2).flag() ? reduced : finish_collective(reduced));
  });
  r.add("torch:prims.all_gather", [](KernelCall& c) {
    at::Tensor whole = start_all_gather(c.arg(0).tensor());
    c.set_output(0, c.arg(2).flag() ? whole : finish_collective(whole));
  });
  r.add("torch:prims.reduce_scatter", [](KernelCall& c) {
    at::Tensor mine = start_reduce_scatter(c.arg(0).tensor(), c.arg(1).string() == "avg");
    c.set_output(0, c.arg(3).flag() ? mine : finish_collective(mine));
  });
  r.add("torch:prims.wait", [](KernelCall& c) { c.set_output(0, finish_collective(c.arg(0).tensor())); });
  r.add("torch:prims.reshape", [](KernelCall& c) { c.set_output(0, c.arg(0).tensor().reshape(c.arg(1).ints())); });
  r.add("torch:prims.slice_prim", [](KernelCall& c) {
    Tensor out = c.arg(0).tensor();
    auto start = c.arg(1).ints(), end = c.arg(2).ints();
    auto strides = c.arg(3).is_none() ? std::vector<int64_t>(start.size(), 1) : c.arg(3).ints();
    for (size_t d = 0; d < start.size(); ++d) out = out.slice(static_cast<int64_t>(d), start.at(d), end.at(d), strides.at(d));
    c.set_output(0, out);
  });
  r.add("torch:prims.squeeze", [](KernelCall& c) {
    const Tensor& a = c.arg(0).tensor();
    auto dims = c.arg(1).ints();
    std::vector<int64_t> shape;
    for (int64_t d = 0; d < a.dim(); ++d)
      if (std::find(dims.begin(), dims.end(), d) == dims.end() && std::find(dims.begin(), dims.end(), d - a.dim()) == dims.end())
        shape.push_back(a.size(d));
    c.set_output(0, a.reshape(shape));
  });
  r.add("torch:prims.transpose", [](KernelCall& c) { c.set_output(0, c.arg(0).tensor().permute(c.arg(1).ints())); });
  r.add("torch:prims.cat", [](KernelCall& c) {
    auto parts = c.arg(0).tensors();
    int64_t dim = c.arg(1).integer();
    write_output(c, [&](Tensor& out) { at::cat_out(out, parts, dim); }, [&] { return at::cat(parts, dim); });
  });
  r.add("torch:prims.pad", [](KernelCall& c) {
    const Tensor& a = c.arg(0).tensor();
    const Value& config = c.arg(2).value();
    bool interior = false;
    std::vector<int64_t> pads;  // constant_pad_nd wants the last dimension first
    for (auto it = config.items().rbegin(); it != config.items().rend(); ++it) {
      auto lhi = it->as_ints();
      pads.push_back(lhi.at(0));
      pads.push_back(lhi.at(1));
      interior = interior || lhi.at(2) != 0;
    }
    std::vector<int64_t> shape;
    for (int64_t d = 0; d < a.dim(); ++d) {
      auto lhi = config.items().at(d).as_ints();
      check(!interior || (lhi.at(0) >= 0 && lhi.at(1) >= 0), "pad: negative low or high padding with interior padding is not supported");
      shape.push_back(lhi.at(0) + lhi.at(1) + a.size(d) + std::max<int64_t>(a.size(d) - 1, 0) * lhi.at(2));
    }
    // ATen 1.13's constant_pad_nd refuses an empty dimension, even one left empty.
    if (!interior && a.numel() > 0) {
      c.set_output(0, at::constant_pad_nd(a, pads, c.arg(1).scalar()));
      return;
    }
    // Interior padding (or an empty a): write a into a strided view of a filled result.
    Tensor out = at::full(shape, c.arg(1).scalar(), a.options());
    if (a.numel() > 0) {
      Tensor view = out;
      for (int64_t d = 0; d < a.dim(); ++d) {
        auto lhi = config.items().at(d).as_ints();
        view = view.slice(d, lhi.at(0), lhi.at(0) + (a.size(d) - 1) * (lhi.at(2) + 1) + 1, lhi.at(2) + 1);
      }
      view.copy_(a);
    }
    c.set_output(0, out);
  });
  r.add("torch:prims.flip", [](KernelCall& c) { c.set_output(0, at::flip(c.arg(0).tensor(), c.arg(1).ints())); });
  r.add("torch:prims.unfold", unfold_kernel);
  r.add("torch:prims.stride_order", [](KernelCall& c) {
    // Lay the dimensions out in memory in the given order, outermost first.
    auto order = c.arg(1).ints();
    std::vector<int64_t> inverse(order.size());
    for (size_t i = 0; i < order.size(); ++i) inverse.at(order.at(i)) = static_cast<int64_t>(i);
    c.set_output(0, c.arg(0).tensor().permute(order).contiguous().permute(inverse));
  });
  r.add("torch:prims.sum", [](KernelCall& c) { c.set_output(0, at::sum(c.arg(0).tensor(), c.arg(1).ints())); });
  r.add("torch:prims.prod", [](KernelCall& c) {
    Tensor out = c.arg(0).tensor();
    auto dims = c.arg(1).ints();
    std::sort(dims.rbegin(), dims.rend());
    for (auto d : dims) out = at::prod(out, d, false, out.scalar_type());
    c.set_output(0, out);
  });
  r.add("torch:prims.amax", [](KernelCall& c) { c.set_output(0, at::amax(c.arg(0).tensor(), c.arg(1).ints())); });
  r.add("torch:prims.amin", [](KernelCall& c) { c.set_output(0, at::amin(c.arg(0).tensor(), c.arg(1).ints())); });
  r.add("torch:prims.var", [](KernelCall& c) {
    // (The correction as an optional: a plain integer would bind to the overload taking `unbiased`.)
    c.set_output(0, at::var(c.arg(0).tensor(), at::OptionalIntArrayRef(c.arg(1).ints()), c10::optional<int64_t>(c.kwarg("correction").integer()), false));
  });
  r.add("torch:prims.var_mean", [](KernelCall& c) {
    auto [v, m] = at::var_mean(c.arg(0).tensor(), at::OptionalIntArrayRef(c.arg(1).ints()), c10::optional<int64_t>(c.kwarg("correction").integer()), false);
    c.set_output(0, v);
    c.set_output(1, m);
  });
  r.add("torch:prims.argmax", [](KernelCall& c) {
    c.set_output(0, at::argmax(orderable(c.arg(0).tensor()), c.arg(1).optional_integer()));
  });
  r.add("torch:prims.argmin", [](KernelCall& c) {
    c.set_output(0, at::argmin(orderable(c.arg(0).tensor()), c.arg(1).optional_integer()));
  });
  r.add("torch:prims.topk", topk_kernel);
  r.add("torch:prims.take", [](KernelCall& c) {
    c.set_output(0, at::index_select(c.arg(0).tensor(), c.arg(2).integer(), c.arg(1).tensor().reshape({-1})));
  });
  r.add("torch:prims.take_along_axis", [](KernelCall& c) {
    c.set_output(0, at::gather(c.arg(0).tensor(), c.arg(2).integer(), c.arg(1).tensor()));
  });
  r.add("torch:prims.scatter_add", [](KernelCall& c) {
    c.set_output(0, at::scatter_add(c.arg(0).tensor(), c.arg(3).integer(), c.arg(1).tensor(), c.arg(2).tensor()));
  });
  r.add("torch:prims.scatter", [](KernelCall& c) {
    c.set_output(0, at::scatter(c.arg(0).tensor(), c.arg(3).integer(), c.arg(1).tensor(), c.arg(2).tensor()));
  });
  r.add("torch:prims.index_copy", [](KernelCall& c) {
    c.set_output(0, at::index_copy(c.arg(0).tensor(), c.arg(3).integer(), c.arg(1).tensor().reshape({-1}), c.arg(2).tensor()));
  });
  // Scans accumulate in the input's own dtype, as the prim's meta function says.
  r.add("torch:prims.cumsum", [](KernelCall& c) {
    const Tensor& a = c.arg(0).tensor();
    c.set_output(0, at::cumsum(a, c.arg(1).integer(), a.scalar_type()));
  });
  r.add("torch:prims.cumprod", [](KernelCall& c) {
    const Tensor& a = c.arg(0).tensor();
    c.set_output(0, at::cumprod(a, c.arg(1).integer(), a.scalar_type()));
  });
  r.add("torch:prims.index_add", [](KernelCall& c) {
    c.set_output(0, at::index_add(c.arg(0).tensor(), c.arg(3).integer(), c.arg(1).tensor().reshape({-1}), c.arg(2).tensor()));
  });
  // LibTorch 1.13's CPU bmm has no float16 or bool kernel: float16 runs in float32 (PyTorch's own
  // CPU float16 matmul accumulates in float32 too), bool as "any product is true".
  r.add("torch:prims.matmul", [](KernelCall& c) {
    const Tensor &a = c.arg(0).tensor(), &b = c.arg(1).tensor();
    auto product = [&]() -> Tensor {
      if (a.scalar_type() == at::kHalf) return fast_matmul(a.to(at::kFloat), b.to(at::kFloat)).to(at::kHalf);
      return at::matmul(a.to(at::kLong), b.to(at::kLong)).ne(0);
    };
    if (a.scalar_type() == at::kHalf || a.scalar_type() == at::kBool)
      return write_output(c, [&](Tensor& out) { copy_into(out, product()); }, product);
    c.set_output(0, fast_matmul(a, b, c.buffer(0)));
  });
  r.add("torch:prims.linear", [](KernelCall& c) {
    c.set_output(0, fast_linear(c.arg(0).tensor(), c.arg(1).tensor(), c.arg(2).optional_tensor(), c.buffer(0)));
  });
  r.add("torch:prims.embedding", [](KernelCall& c) {
    const Tensor &indices = c.arg(0).tensor(), &weight = c.arg(1).tensor();
    write_output(c, [&](Tensor& out) { embedding_into(out, weight, indices); },
                 [&] { return at::embedding(weight, indices, c.kwarg("padding_idx").integer()); });
  });
  r.add("torch:prims.convolution", [](KernelCall& c) {
    auto conv = [&](const Tensor& a, const Tensor& w, const c10::optional<Tensor>& bias) {
      return at::convolution(a, w, bias, c.arg(3).ints(), c.arg(4).ints(), c.arg(5).ints(), c.arg(6).flag(), c.arg(7).ints(), c.arg(8).integer());
    };
    const Tensor &a = c.arg(0).tensor(), &w = c.arg(1).tensor();
    auto bias = c.arg(2).optional_tensor();
    if (!a.is_complex()) return c.set_output(0, conv(a, w, bias));
    // LibTorch's CPU convolution has no complex kernel: (ar + i ai) * (wr + i wi), in real convolutions.
    Tensor ar = at::real(a), ai = at::imag(a), wr = at::real(w), wi = at::imag(w);
    Tensor real = conv(ar, wr, c10::nullopt) - conv(ai, wi, c10::nullopt);
    Tensor imag = conv(ar, wi, c10::nullopt) + conv(ai, wr, c10::nullopt);
    Tensor out = at::complex(real, imag);
    if (bias) {
      std::vector<int64_t> shape(out.dim(), 1);
      shape[1] = -1;
      out = out + bias->reshape(shape);
    }
    c.set_output(0, out);
  });
  r.add("torch:prims.convolution_backward", [](KernelCall& c) {
    auto mask = c.arg(10).value().items();
    auto bias_sizes = c.arg(3).is_none() ? c10::nullopt : c10::optional<std::vector<int64_t>>(c.arg(3).ints());
    auto [ga, gw, gb] = at::convolution_backward(
        c.arg(0).tensor(), c.arg(1).tensor(), c.arg(2).tensor(),
        bias_sizes ? c10::optional<at::IntArrayRef>(*bias_sizes) : c10::nullopt, c.arg(4).ints(), c.arg(5).ints(),
        c.arg(6).ints(), c.arg(7).flag(), c.arg(8).ints(), c.arg(9).integer(),
        {mask[0].as_bool(), mask[1].as_bool(), mask[2].as_bool()});
    // The outputs are the tensors the mask asked for, in order (None results have no slot).
    size_t k = 0;
    if (mask[0].as_bool()) c.set_output(k++, ga);
    if (mask[1].as_bool()) c.set_output(k++, gw);
    if (mask[2].as_bool() && bias_sizes) c.set_output(k++, gb);
  });
}

void register_torch_language_kernels(KernelRegistry& r) {
  // Python numbers become wrapped-number tensors, so ATen promotes them as PyTorch does.
  auto binary_out = [&](const char* id, BinaryFn fn, BinaryOutFn into) {
    r.add(std::string("torch:") + id, [fn, into](KernelCall& c) {
      write_binary(c, c.arg(0).tensor_or_wrapped_number(), c.arg(1).tensor_or_wrapped_number(), fn, into);
    });
  };
  // The torch-language ops of binary_ops.def, run whole.
#define THUNDERCC_TORCH_None(torch)
#define THUNDERCC_TORCH(torch) binary_out("torch." #torch, THUNDERCC_ATEN_BINARY_FNS(torch));
#define THUNDERCC_TORCH_Default THUNDERCC_TORCH
#define THUNDERCC_TORCH_IntToFloat THUNDERCC_TORCH
#define THUNDERCC_TORCH_AlwaysBool THUNDERCC_TORCH
#define THUNDERCC_TORCH_BoolToLong THUNDERCC_TORCH
#define THUNDERCC_BINARY_OP(name, accepts, produces, torch, promotion, ...) THUNDERCC_TORCH_##promotion(torch)
#define THUNDERCC_TORCH_BINARY_OP(name, in_place) THUNDERCC_TORCH(name)
#include "thundercc/langs/binary_ops.def"
#undef THUNDERCC_TORCH_None
#undef THUNDERCC_TORCH
#undef THUNDERCC_TORCH_Default
#undef THUNDERCC_TORCH_IntToFloat
#undef THUNDERCC_TORCH_AlwaysBool
#undef THUNDERCC_TORCH_BoolToLong
  for (const char* id : {"torch:torch.matmul", "torch:torch.bmm"})
    r.add(id, [](KernelCall& c) { c.set_output(0, fast_matmul(c.arg(0).tensor(), c.arg(1).tensor(), c.buffer(0))); });
  for (const char* name : {"square", "frac", "positive", "isnan", "isinf", "isposinf", "isneginf", "deg2rad", "rad2deg"}) {
    static const std::map<std::string, Tensor (*)(const Tensor&)> fns{
        {"square", [](const Tensor& a) { return at::square(a); }},     {"frac", [](const Tensor& a) { return at::frac(a); }},
        {"positive", [](const Tensor& a) { return at::positive(a); }}, {"isnan", [](const Tensor& a) { return at::isnan(a); }},
        {"isinf", [](const Tensor& a) { return at::isinf(a); }},       {"isposinf", [](const Tensor& a) { return at::isposinf(a); }},
        {"isneginf", [](const Tensor& a) { return at::isneginf(a); }}, {"deg2rad", [](const Tensor& a) { return at::deg2rad(a); }},
        {"rad2deg", [](const Tensor& a) { return at::rad2deg(a); }}};
    add_unary(r, std::string("torch:torch.") + name, fns.at(name));
  }
  r.add("torch:torch.logit", [](KernelCall& c) {
    c10::optional<double> eps;
    if (!c.arg(1).is_none()) eps = c.arg(1).real();
    c.set_output(0, at::logit(c.arg(0).tensor(), eps));
  });
  r.add("torch:torch.nan_to_num", [](KernelCall& c) {
    c10::optional<double> posinf, neginf;
    if (!c.arg(2).is_none()) posinf = c.arg(2).real();
    if (!c.arg(3).is_none()) neginf = c.arg(3).real();
    c.set_output(0, at::nan_to_num(c.arg(0).tensor(), c.arg(1).real(), posinf, neginf));
  });
  r.add("torch:torch.lerp", [](KernelCall& c) {
    const Tensor& a = c.arg(0).tensor();
    c.set_output(0, c.arg(2).is_tensor() ? at::lerp(a, c.arg(1).tensor(), c.arg(2).tensor()) : at::lerp(a, c.arg(1).tensor(), c.arg(2).scalar()));
  });
  r.add("torch:torch.addcmul", [](KernelCall& c) {
    c.set_output(0, at::addcmul(c.arg(0).tensor(), c.arg(1).tensor(), c.arg(2).tensor(), c.kwarg("value").present() ? c.kwarg("value").scalar() : 1));
  });
  r.add("torch:torch.addcdiv", [](KernelCall& c) {
    c.set_output(0, at::addcdiv(c.arg(0).tensor(), c.arg(1).tensor(), c.arg(2).tensor(), c.kwarg("value").present() ? c.kwarg("value").scalar() : 1));
  });
  r.add("torch:torch.rsub", [](KernelCall& c) {
    ArgView alpha = c.kwarg("alpha");
    c.set_output(0, at::rsub(c.arg(0).tensor_or_wrapped_number(), c.arg(1).tensor_or_wrapped_number(), alpha.present() ? alpha.scalar() : 1));
  });
  r.add("torch:torch.add", [](KernelCall& c) {
    ArgView alpha_arg = c.kwarg("alpha");
    auto alpha = alpha_arg.present() ? alpha_arg.scalar() : at::Scalar(1);
    Tensor a = c.arg(0).tensor_or_wrapped_number(), b = c.arg(1).tensor_or_wrapped_number();
    write_output(c, [&](Tensor& out) { at::add_out(out, a, b, alpha); }, [&] { return at::add(a, b, alpha); });
  });
  r.add("torch:torch.sub", [](KernelCall& c) {
    ArgView alpha_arg = c.kwarg("alpha");
    auto alpha = alpha_arg.present() ? alpha_arg.scalar() : at::Scalar(1);
    Tensor a = c.arg(0).tensor_or_wrapped_number(), b = c.arg(1).tensor_or_wrapped_number();
    write_output(c, [&](Tensor& out) { at::sub_out(out, a, b, alpha); }, [&] { return at::sub(a, b, alpha); });
  });
  r.add("torch:torch.div", [](KernelCall& c) {
    auto mode_arg = c.kwarg("rounding_mode");
    c10::optional<std::string> mode_name = mode_arg.is_none() ? c10::nullopt : c10::optional<std::string>(mode_arg.string());
    c10::optional<c10::string_view> mode = mode_name ? c10::optional<c10::string_view>(*mode_name) : c10::nullopt;
    Tensor a = c.arg(0).tensor_or_wrapped_number(), b = c.arg(1).tensor_or_wrapped_number();
    write_output(c, [&](Tensor& out) { at::div_out(out, a, b, mode); }, [&] { return at::div(a, b, mode); });
  });
  r.add("torch:torch.where", [](KernelCall& c) {
    c.set_output(0, at::where(c.arg(0).tensor(), c.arg(1).tensor_or_wrapped_number(), c.arg(2).tensor_or_wrapped_number()));
  });
  r.add("torch:torch.masked_fill", [](KernelCall& c) {
    const Tensor& a = c.arg(0).tensor();
    c.set_output(0, c.arg(2).is_tensor() ? a.masked_fill(c.arg(1).tensor(), c.arg(2).tensor())
                                         : a.masked_fill(c.arg(1).tensor(), c.arg(2).scalar()));
  });
  r.add("torch:torch.clamp", [](KernelCall& c) {
    const Tensor& a = c.arg(0).tensor();
    if (c.arg(1).is_tensor() || c.arg(2).is_tensor())
      c.set_output(0, at::clamp(a, c.arg(1).optional_tensor(), c.arg(2).optional_tensor()));
    else
      c.set_output(0, at::clamp(a, c.arg(1).optional_scalar(), c.arg(2).optional_scalar()));
  });
  r.add("torch:torch.nn.functional.gelu", [](KernelCall& c) {
    const Tensor& a = c.arg(0).tensor();
    std::string approximate = c.kwarg("approximate").is_none() ? "none" : c.kwarg("approximate").string();
    write_output(c, [&](Tensor& out) { at::gelu_out(out, a, approximate); }, [&] { return at::gelu(a, approximate); });
  });
  r.add("torch:torch.nn.functional.softplus", [](KernelCall& c) {
    c.set_output(0, at::softplus(c.arg(0).tensor(), c.arg(1).scalar(), c.arg(2).scalar()));
  });

  // Reductions: (a, dim, keepdim, *, dtype) and friends.
  r.add("torch:torch.sum", [](KernelCall& c) {
    const Tensor& a = c.arg(0).tensor();
    auto dims = optional_dims(c.arg(1));
    c.set_output(0, at::sum(a, dims ? at::OptionalIntArrayRef(*dims) : c10::nullopt, c.arg(2).flag(), c.kwarg("dtype").optional_dtype()));
  });
  r.add("torch:torch.mean", [](KernelCall& c) {
    const Tensor& a = c.arg(0).tensor();
    auto dims = optional_dims(c.arg(1));
    c.set_output(0, at::mean(a, dims ? at::OptionalIntArrayRef(*dims) : c10::nullopt, c.arg(2).flag(), c.kwarg("dtype").optional_dtype()));
  });
  r.add("torch:torch.prod", [](KernelCall& c) {
    const Tensor& a = c.arg(0).tensor();
    auto dtype = c.kwarg("dtype").optional_dtype();
    if (c.arg(1).is_none()) {
      Tensor out = at::prod(a, dtype);
      c.set_output(0, c.arg(2).flag() ? out.reshape(std::vector<int64_t>(a.dim(), 1)) : out);
    } else {
      c.set_output(0, at::prod(a, c.arg(1).ints().at(0), c.arg(2).flag(), dtype));
    }
  });
  r.add("torch:torch.topk", topk_kernel);
  r.add("torch:torch.Tensor.unfold", unfold_kernel);
  r.add("torch:torch.amax", [](KernelCall& c) { c.set_output(0, at::amax(c.arg(0).tensor(), c.arg(1).ints(), c.arg(2).flag())); });
  r.add("torch:torch.amin", [](KernelCall& c) { c.set_output(0, at::amin(c.arg(0).tensor(), c.arg(1).ints(), c.arg(2).flag())); });
  r.add("torch:torch.var", [](KernelCall& c) {
    Spread s = spread_of(c);
    c.set_output(0, at::var(c.arg(0).tensor(), s.dims_ref(), s.correction, c.arg(3).flag()));
  });
  r.add("torch:torch.std", [](KernelCall& c) {
    Spread s = spread_of(c);
    c.set_output(0, at::std(c.arg(0).tensor(), s.dims_ref(), s.correction, c.arg(3).flag()));
  });
  r.add("torch:torch.std_mean", [](KernelCall& c) {
    Spread s = spread_of(c);
    auto [sd, m] = at::std_mean(c.arg(0).tensor(), s.dims_ref(), s.correction, c.arg(3).flag());
    c.set_output(0, sd);
    c.set_output(1, m);
  });
  r.add("torch:torch.linalg.vector_norm", [](KernelCall& c) {
    auto dims = optional_dims(c.arg(2));
    c.set_output(0, at::linalg_vector_norm(c.arg(0).tensor(), c.arg(1).scalar(), dims ? at::OptionalIntArrayRef(*dims) : c10::nullopt,
                                           c.arg(3).flag(), c.kwarg("dtype").optional_dtype()));
  });
  r.add("torch:torch.norm", [](KernelCall& c) {
    auto dims = optional_dims(c.arg(2));
    if (c.arg(1).value().kind() == Value::Kind::String && c.arg(1).string() == "nuc")  // the sum of the singular values
      return c.set_output(0, dims ? at::nuclear_norm(c.arg(0).tensor(), *dims, c.arg(3).flag()) : at::nuclear_norm(c.arg(0).tensor(), c.arg(3).flag()));
    at::Scalar p = c.arg(1).is_none() || c.arg(1).value().kind() == Value::Kind::String ? at::Scalar(2.0) : c.arg(1).scalar();
    c.set_output(0, at::linalg_vector_norm(c.arg(0).tensor(), p, dims ? at::OptionalIntArrayRef(*dims) : c10::nullopt,
                                           c.arg(3).flag(), c.arg(5).optional_dtype()));
  });
  r.add("torch:torch.cdist", [](KernelCall& c) { c.set_output(0, at::cdist(c.arg(0).tensor(), c.arg(1).tensor(), c.arg(2).real())); });
  r.add("torch:torch.cumsum", [](KernelCall& c) {
    c.set_output(0, at::cumsum(c.arg(0).tensor(), c.arg(1).integer(), c.kwarg("dtype").optional_dtype()));
  });
  r.add("torch:torch.cumprod", [](KernelCall& c) {
    c.set_output(0, at::cumprod(c.arg(0).tensor(), c.arg(1).integer(), c.kwarg("dtype").optional_dtype()));
  });
  r.add("torch:torch.logcumsumexp", [](KernelCall& c) { c.set_output(0, at::logcumsumexp(c.arg(0).tensor(), c.arg(1).integer())); });
  r.add("torch:torch.var_mean", [](KernelCall& c) {
    Spread s = spread_of(c);
    auto [v, m] = at::var_mean(c.arg(0).tensor(), s.dims_ref(), s.correction, c.arg(3).flag());
    c.set_output(0, v);
    c.set_output(1, m);
  });
  auto arg_reduction = [](bool is_max) {
    return [is_max](KernelCall& c) {
      auto dim = c.arg(1).optional_integer();
      c.set_output(0, is_max ? at::argmax(c.arg(0).tensor(), dim, c.arg(2).flag()) : at::argmin(c.arg(0).tensor(), dim, c.arg(2).flag()));
    };
  };
  r.add("torch:torch.argmax", arg_reduction(true));
  r.add("torch:torch.argmin", arg_reduction(false));
  r.add("torch:torch.logsumexp", [](KernelCall& c) {
    c.set_output(0, at::logsumexp(c.arg(0).tensor(), c.arg(1).ints(), c.arg(2).flag()));
  });
  r.add("torch:torch.softmax", [](KernelCall& c) {
    const Tensor& a = c.arg(0).tensor();
    int64_t dim = c.arg(1).integer();
    auto dtype = c.kwarg("dtype").optional_dtype();
    write_output(c, [&](Tensor& out) { at::softmax_out(out, a, dim, dtype); }, [&] { return at::softmax(a, dim, dtype); });
  });
  r.add("torch:torch.log_softmax", [](KernelCall& c) {
    const Tensor& a = c.arg(0).tensor();
    int64_t dim = c.arg(1).integer();
    auto dtype = c.kwarg("dtype").optional_dtype();
    write_output(c, [&](Tensor& out) { at::log_softmax_out(out, a, dim, dtype); }, [&] { return at::log_softmax(a, dim, dtype); });
  });

  // Complex values: ATen's own kernels (stft and istft by FFT), views resolved into values.
  r.add("torch:torch.complex", [](KernelCall& c) { c.set_output(0, at::complex(c.arg(0).tensor(), c.arg(1).tensor())); });
  r.add("torch:torch.polar", [](KernelCall& c) { c.set_output(0, at::polar(c.arg(0).tensor(), c.arg(1).tensor())); });
  r.add("torch:torch.real", [](KernelCall& c) { c.set_output(0, at::real(c.arg(0).tensor())); });
  r.add("torch:torch.imag", [](KernelCall& c) { c.set_output(0, at::imag(c.arg(0).tensor())); });
  r.add("torch:torch.view_as_real", [](KernelCall& c) { c.set_output(0, at::view_as_real(c.arg(0).tensor())); });
  r.add("torch:torch.view_as_complex", [](KernelCall& c) {
    // A complex view needs the pairs adjacent and every other stride even: a copy where they are not.
    const Tensor& a = c.arg(0).tensor();
    bool viewable = a.stride(-1) == 1 && a.storage_offset() % 2 == 0;
    for (int64_t d = 0; d + 1 < a.dim(); ++d) viewable = viewable && a.stride(d) % 2 == 0;
    c.set_output(0, at::view_as_complex(viewable ? a : a.contiguous()));
  });
  r.add("torch:torch.conj_physical", [](KernelCall& c) { c.set_output(0, at::conj_physical(c.arg(0).tensor())); });
  r.add("torch:torch.angle", [](KernelCall& c) { c.set_output(0, at::angle(c.arg(0).tensor())); });
  r.add("torch:torch.stft", [](KernelCall& c) {
    c.set_output(0, at::stft(c.arg(0).tensor(), c.arg(1).integer(), c.arg(2).optional_integer(), c.arg(3).optional_integer(),
                             c.arg(4).optional_tensor(), c.arg(5).flag(), c.arg(6).string(), c.arg(7).flag(), c.arg(8).optional_flag(),
                             c.arg(9).optional_flag()));
  });
  r.add("torch:torch.istft", [](KernelCall& c) {
    c.set_output(0, at::istft(c.arg(0).tensor(), c.arg(1).integer(), c.arg(2).optional_integer(), c.arg(3).optional_integer(),
                              c.arg(4).optional_tensor(), c.arg(5).flag(), c.arg(6).flag(), c.arg(7).optional_flag(),
                              c.arg(8).optional_integer(), c.arg(9).flag()));
  });
  r.add("torch:torch.nn.functional.ctc_loss", [](KernelCall& c) {
    c.set_output(0, at::ctc_loss(c.arg(0).tensor(), c.arg(1).tensor(), c.arg(2).ints(), c.arg(3).ints(), c.arg(4).integer(),
                                 reduction_enum(c.arg(5).string()), c.arg(6).flag()));
  });
  r.add("torch:torch.convolution", [](KernelCall& c) {
    c.set_output(0, at::convolution(c.arg(0).tensor(), c.arg(1).tensor(), c.arg(2).optional_tensor(), c.arg(3).ints(), c.arg(4).ints(),
                                     c.arg(5).ints(), c.arg(6).flag(), c.arg(7).ints(), c.arg(8).integer()));
  });
  r.add("torch:torch.Tensor.T", [](KernelCall& c) {
    const Tensor& a = c.arg(0).tensor();
    std::vector<int64_t> reversed;
    for (int64_t d = a.dim() - 1; d >= 0; --d) reversed.push_back(d);
    c.set_output(0, a.permute(reversed));
  });
  r.add("torch:torch.Tensor.mT", [](KernelCall& c) { c.set_output(0, c.arg(0).tensor().transpose(-2, -1)); });
  r.add("torch:torch.Tensor.H", [](KernelCall& c) {
    const Tensor& a = c.arg(0).tensor();
    c.set_output(0, at::conj_physical(a.dim() == 2 ? a.t() : a));
  });
  r.add("torch:torch.Tensor.mH", [](KernelCall& c) { c.set_output(0, at::conj_physical(c.arg(0).tensor().transpose(-2, -1))); });

  // Shapes.
  r.add("torch:torch.reshape", [](KernelCall& c) { c.set_output(0, c.arg(0).tensor().reshape(trailing_ints(c, 1))); });
  // A view where the strides allow one, as eager's NCHW tensors do; a copy where the runtime keeps
  // a tensor in another layout (channels-last after a convolution). The trace is functional.
  r.add("torch:torch.Tensor.view", [](KernelCall& c) {
    const Tensor& a = c.arg(0).tensor();
    auto shape = trailing_ints(c, 1);
    c.set_output(0, a.is_contiguous() ? a.view(shape) : a.reshape(shape));
  });
  r.add("torch:torch.flatten", [](KernelCall& c) {
    c.set_output(0, at::flatten(c.arg(0).tensor(), c.arg(1).integer(), c.arg(2).integer()));
  });
  r.add("torch:torch.permute", [](KernelCall& c) { c.set_output(0, c.arg(0).tensor().permute(trailing_ints(c, 1))); });
  r.add("torch:torch.transpose", [](KernelCall& c) {
    c.set_output(0, c.arg(0).tensor().transpose(c.arg(1).integer(), c.arg(2).integer()));
  });
  r.add("torch:torch.Tensor.expand", [](KernelCall& c) { c.set_output(0, c.arg(0).tensor().expand(trailing_ints(c, 1))); });
  r.add("torch:torch.unsqueeze", [](KernelCall& c) { c.set_output(0, c.arg(0).tensor().unsqueeze(c.arg(1).integer())); });
  r.add("torch:torch.squeeze", [](KernelCall& c) {
    Tensor a = c.arg(0).tensor();
    if (c.arg(1).is_none()) {
      c.set_output(0, a.squeeze());
      return;
    }
    auto dims = c.arg(1).ints();
    for (auto& d : dims) d = d < 0 ? d + a.dim() : d;
    std::sort(dims.rbegin(), dims.rend());
    for (auto d : dims) a = a.squeeze(d);
    c.set_output(0, a);
  });
  r.add("torch:torch.cat", [](KernelCall& c) {
    auto parts = c.arg(0).tensors();
    int64_t dim = c.arg(1).integer();
    write_output(c, [&](Tensor& out) { at::cat_out(out, parts, dim); }, [&] { return at::cat(parts, dim); });
  });
  r.add("torch:torch.stack", [](KernelCall& c) {
    auto parts = c.arg(0).tensors();
    int64_t dim = c.arg(1).integer();
    write_output(c, [&](Tensor& out) { at::stack_out(out, parts, dim); }, [&] { return at::stack(parts, dim); });
  });
  auto set_outputs = [](KernelCall& c, const std::vector<Tensor>& parts) {
    for (size_t k = 0; k < parts.size(); ++k) c.set_output(k, parts[k]);
  };
  r.add("torch:torch.split", [set_outputs](KernelCall& c) {
    const Tensor& a = c.arg(0).tensor();
    const Value& sizes = c.arg(1).value();
    set_outputs(c, sizes.is_sequence() ? at::split_with_sizes(a, sizes.as_ints(), c.arg(2).integer())
                                       : at::split(a, sizes.as_int(), c.arg(2).integer()));
  });
  r.add("torch:torch.chunk", [set_outputs](KernelCall& c) {
    set_outputs(c, at::chunk(c.arg(0).tensor(), c.arg(1).integer(), c.arg(2).integer()));
  });
  r.add("torch:torch.narrow", [](KernelCall& c) {
    c.set_output(0, c.arg(0).tensor().narrow(c.arg(1).integer(), c.arg(2).integer(), c.arg(3).integer()));
  });
  r.add("torch:torch.Tensor.__getitem__", [](KernelCall& c) {
    const Tensor& a = c.arg(0).tensor();
    c.set_output(0, c.arg(1).is_tensor() ? a.index({c.arg(1).tensor()}) : a.index(tensor_indices(c.arg(1).value())));
  });
  r.add("torch:torch.setitem", [](KernelCall& c) {
    Tensor out = c.arg(0).tensor().clone();
    std::vector<at::indexing::TensorIndex> indices;  // built in place (tensor_indices)
    if (c.arg(1).is_tensor()) {
      indices.reserve(1);
      indices.emplace_back(c.arg(1).tensor());
    } else {
      indices = tensor_indices(c.arg(1).value());
    }
    if (c.arg(2).is_tensor()) out.index_put_(indices, c.arg(2).tensor());
    else out.index_put_(indices, c.arg(2).scalar());
    c.set_output(0, out);
  });
  r.add("torch:torch.copy", [](KernelCall& c) {
    const Tensor& a = c.arg(0).tensor();
    c.set_output(0, c.arg(1).tensor().to(a.scalar_type()).expand(a.sizes()));
  });
  r.add("torch:torch.Tensor.to", [](KernelCall& c) {
    Tensor a = c.arg(0).tensor();
    c10::optional<at::ScalarType> dtype = c.kwarg("dtype").optional_dtype();
    c10::optional<at::Device> device;
    if (!c.kwarg("device").is_none()) device = c.kwarg("device").device();
    for (size_t i = 1; i < c.size(); ++i) {
      ArgView x = c.arg(i);
      if (x.is_none()) continue;
      if (x.is_tensor()) {
        dtype = x.tensor().scalar_type();
        device = x.tensor().device();
      } else if (x.value().kind() == Value::Kind::DType || x.value().kind() == Value::Kind::TorchDType) {
        dtype = x.dtype();
      } else {
        device = x.device();
      }
    }
    if (device) a = a.to(*device);
    if (dtype) a = a.to(*dtype);
    c.set_output(0, a);
  });
#define THUNDERCC_DTYPE_METHOD(method, dtype)                                  \
  r.add("torch:torch.Tensor." #method, [](KernelCall& c) {                     \
    c.set_output(0, c.arg(0).tensor().to(to_aten(thundercc::dtypes::dtype))); \
  });
#include "thundercc/langs/dtype_methods.def"
  r.add("torch:torch.Tensor.cpu", [](KernelCall& c) { c.set_output(0, c.arg(0).tensor().cpu()); });
  r.add("torch:torch.Tensor.cuda", [](KernelCall& c) {
    at::Device device(at::kCUDA, 0);
    if (!c.arg(1).is_none()) device = c.arg(1).value().is_int_like() ? at::Device(at::kCUDA, c.arg(1).integer()) : c.arg(1).device();
    c.set_output(0, c.arg(0).tensor().to(device));
  });
  r.add("torch:torch.Tensor.type_as", [](KernelCall& c) { c.set_output(0, c.arg(0).tensor().type_as(c.arg(1).tensor())); });
  auto triangle = [](bool lower) {
    return [lower](KernelCall& c) {
      const Tensor& a = c.arg(0).tensor();
      int64_t diagonal = c.arg(1).integer();
      auto fill = c.kwarg("fill_value");
      if (fill.is_none()) {
        c.set_output(0, lower ? at::tril(a, diagonal) : at::triu(a, diagonal));
        return;
      }
      Tensor mask = at::ones_like(a, a.options().dtype(at::kBool));
      mask = lower ? at::tril(mask, diagonal) : at::triu(mask, diagonal);
      c.set_output(0, at::where(mask, a, at::scalar_tensor(fill.scalar(), a.options())));
    };
  };
  r.add("torch:torch.tril", triangle(true));
  r.add("torch:torch.triu", triangle(false));

  // Creation.
  r.add("torch:torch.full", [](KernelCall& c) {
    at::Scalar fill = c.arg(1).scalar();
    c.set_output(0, at::full(c.arg(0).ints(), fill, creation_options(c, dtype_of_number(c.arg(1).value()), at::kCPU)));
  });
  auto constant = [](int64_t value) {
    return [value](KernelCall& c) { c.set_output(0, at::full(trailing_ints(c, 0), value, creation_options(c, at::kFloat, at::kCPU))); };
  };
  auto constant_new = [](std::optional<int64_t> value) {
    return [value](KernelCall& c) {
      const Tensor& a = c.arg(0).tensor();
      bool full = !value.has_value();  // new_full(size, fill_value): size is one argument
      auto size = full ? c.arg(1).ints() : trailing_ints(c, 1);
      at::Scalar fill = full ? c.arg(2).scalar() : at::Scalar(*value);
      c.set_output(0, at::full(size, fill, creation_options(c, a.scalar_type(), a.device())));
    };
  };
  r.add("torch:torch.Tensor.new_zeros", constant_new(0));
  r.add("torch:torch.Tensor.new_ones", constant_new(1));
  r.add("torch:torch.Tensor.new_empty", constant_new(0));
  r.add("torch:torch.Tensor.new_full", constant_new(std::nullopt));
  r.add("torch:torch.zeros", constant(0));
  r.add("torch:torch.ones", constant(1));
  auto constant_like = [](std::optional<int64_t> value) {
    return [value](KernelCall& c) {
      const Tensor& a = c.arg(0).tensor();
      at::Scalar fill = value ? at::Scalar(*value) : c.arg(1).scalar();
      c.set_output(0, at::full(a.sizes(), fill, creation_options(c, a.scalar_type(), a.device())));
    };
  };
  r.add("torch:torch.zeros_like", constant_like(0));
  r.add("torch:torch.ones_like", constant_like(1));
  r.add("torch:torch.full_like", constant_like(std::nullopt));
  r.add("torch:torch.eye", [](KernelCall& c) {
    int64_t n = c.arg(0).integer(), m = c.arg(1).is_none() ? n : c.arg(1).integer();
    c.set_output(0, at::eye(n, m, creation_options(c, at::kFloat, at::kCPU)));
  });
  // empty's contents are unspecified; zeros, as the decomposition makes them.
  r.add("torch:torch.empty", [](KernelCall& c) { c.set_output(0, at::zeros(trailing_ints(c, 0), creation_options(c, at::kFloat, at::kCPU))); });
  r.add("torch:torch.empty_like", [](KernelCall& c) {
    const Tensor& a = c.arg(0).tensor();
    c.set_output(0, at::zeros(a.sizes(), creation_options(c, a.scalar_type(), a.device())));
  });
  r.add("torch:torch.linspace", [](KernelCall& c) {
    c.set_output(0, at::linspace(c.arg(0).scalar(), c.arg(1).scalar(), c.arg(2).integer(), creation_options(c, at::kFloat, at::kCPU)));
  });
  r.add("torch:torch.hann_window", [](KernelCall& c) {
    c.set_output(0, at::hann_window(c.arg(0).integer(), c.arg(1).flag(), creation_options(c, at::kFloat, at::kCPU)));
  });
  r.add("torch:torch.hamming_window", [](KernelCall& c) {
    c.set_output(0, at::hamming_window(c.arg(0).integer(), c.arg(1).flag(), c.arg(2).real(), c.arg(3).real(),
                                       creation_options(c, at::kFloat, at::kCPU)));
  });
  r.add("torch:torch.arange", [](KernelCall& c) {
    at::Scalar start = c.arg(0).scalar(), end = 0, step = c.arg(2).scalar();
    if (c.arg(1).is_none()) {
      end = start;
      start = 0;
    } else {
      end = c.arg(1).scalar();
    }
    bool ints = !start.isFloatingPoint() && !end.isFloatingPoint() && !step.isFloatingPoint();
    c.set_output(0, at::arange(start, end, step, creation_options(c, ints ? at::kLong : at::kFloat, at::kCPU)));
  });

  // Neural networks.
  r.add("torch:torch.nn.functional.linear", [](KernelCall& c) {
    c.set_output(0, fast_linear(c.arg(0).tensor(), c.arg(1).tensor(), c.arg(2).optional_tensor(), c.buffer(0)));
  });
  r.add("torch:torch.nn.functional.embedding", [](KernelCall& c) {
    int64_t padding_idx = c.arg(2).is_none() ? -1 : c.arg(2).integer();
    const Tensor &indices = c.arg(0).tensor(), &weight = c.arg(1).tensor();
    write_output(c, [&](Tensor& out) { embedding_into(out, weight, indices); },
                 [&] { return at::embedding(weight, indices, padding_idx, c.arg(5).flag(), c.arg(6).flag()); });
  });
  r.add("torch:torch.nn.functional.layer_norm", [](KernelCall& c) {
    c.set_output(0, at::layer_norm(c.arg(0).tensor(), c.arg(1).ints(), c.arg(2).optional_tensor(), c.arg(3).optional_tensor(),
                                   c.arg(4).real()));
  });
  r.add("torch:torch.nn.functional.batch_norm", [](KernelCall& c) {
    bool training = c.arg(5).flag();
    // In training the running statistics are not updated: plans are functional.
    auto running_mean = training ? c10::optional<Tensor>() : c.arg(1).optional_tensor();
    auto running_var = training ? c10::optional<Tensor>() : c.arg(2).optional_tensor();
    c.set_output(0, at::batch_norm(c.arg(0).tensor(), c.arg(3).optional_tensor(), c.arg(4).optional_tensor(), running_mean,
                                   running_var, training, c.arg(6).real(), c.arg(7).real(), true));
  });
  r.add("torch:torch.nn.functional.nll_loss", [](KernelCall& c) {
    c.set_output(0, at::nll_loss_nd(c.arg(0).tensor(), c.arg(1).tensor(), c.arg(2).optional_tensor(),
                                    reduction_enum(c.arg(6).string()), c.arg(4).integer()));
  });
  r.add("torch:torch.nn.functional.cross_entropy", [](KernelCall& c) {
    c.set_output(0, at::cross_entropy_loss(c.arg(0).tensor(), c.arg(1).tensor(), c.arg(2).optional_tensor(),
                                           reduction_enum(c.arg(6).string()), c.arg(4).integer(), c.arg(7).real()));
  });
  // Losses: input and target broadcast first, as torch.nn.functional does.
  auto loss = [&](const char* id, std::function<Tensor(const Tensor&, const Tensor&, KernelCall&)> fn) {
    r.add(std::string("torch:torch.nn.functional.") + id, [fn](KernelCall& c) {
      auto both = at::broadcast_tensors({c.arg(0).tensor(), c.arg(1).tensor()});
      c.set_output(0, fn(both[0], both[1], c));
    });
  };
  loss("mse_loss", [](const Tensor& a, const Tensor& t, KernelCall& c) { return at::mse_loss(a, t, reduction_enum(c.arg(4).string())); });
  loss("l1_loss", [](const Tensor& a, const Tensor& t, KernelCall& c) { return at::l1_loss(a, t, reduction_enum(c.arg(4).string())); });
  loss("smooth_l1_loss", [](const Tensor& a, const Tensor& t, KernelCall& c) {
    return at::smooth_l1_loss(a, t, reduction_enum(c.arg(4).string()), c.arg(5).real());
  });
  loss("huber_loss", [](const Tensor& a, const Tensor& t, KernelCall& c) {
    return at::huber_loss(a, t, reduction_enum(c.arg(2).string()), c.arg(3).real());
  });
  loss("binary_cross_entropy", [](const Tensor& a, const Tensor& t, KernelCall& c) {
    return at::binary_cross_entropy(a, t, c.arg(2).optional_tensor(), reduction_enum(c.arg(5).string()));
  });
  loss("binary_cross_entropy_with_logits", [](const Tensor& a, const Tensor& t, KernelCall& c) {
    return at::binary_cross_entropy_with_logits(a, t, c.arg(2).optional_tensor(), c.arg(6).optional_tensor(), reduction_enum(c.arg(5).string()));
  });
  r.add("torch:torch.nn.functional.kl_div", [](KernelCall& c) {
    const Tensor& a = c.arg(0).tensor();
    bool batchmean = c.arg(4).string() == "batchmean";
    Tensor out = at::kl_div(a, c.arg(1).tensor(), batchmean ? static_cast<int64_t>(at::Reduction::Sum) : reduction_enum(c.arg(4).string()), c.arg(5).flag());
    c.set_output(0, batchmean && a.dim() > 0 ? out / a.size(0) : out);
  });
  for (int n : {1, 2, 3}) {
    r.add(thundercc::str("torch:torch.nn.functional.conv", n, "d"), [n](KernelCall& c) {
      const Tensor& a = c.arg(0).tensor();
      const Tensor& w = c.arg(1).tensor();
      auto bias = c.arg(2).optional_tensor();
      auto stride = c.arg(3).ints(), dilation = c.arg(5).ints();
      int64_t groups = c.arg(6).integer();
      if (c.arg(4).value().kind() == Value::Kind::String) {
        std::string padding = c.arg(4).string();
        Tensor out = n == 1   ? at::conv1d(a, w, bias, stride, padding, dilation, groups)
                     : n == 2 ? at::conv2d(a, w, bias, stride, padding, dilation, groups)
                              : at::conv3d(a, w, bias, stride, padding, dilation, groups);
        if (c.buffer(0)) {  // conv2d is tagged OUT_BUFFER
          Tensor buffer = *c.buffer(0);
          out = copy_into(buffer, out);
        }
        c.set_output(0, out);
      } else {
        auto padding = c.arg(4).ints();
        c.set_output(0, n == 1 ? at::conv1d(a, w, bias, stride, padding, dilation, groups)
                        : n == 2 ? fast_conv2d(a, w, bias, stride, padding, dilation, groups, c.buffer(0),
                                               c.keeps_channels_last() ? at::MemoryFormat::ChannelsLast : at::MemoryFormat::Contiguous,
                                               c.is_program_input(1))
                                 : at::conv3d(a, w, bias, stride, padding, dilation, groups));
      }
    });
    r.add(thundercc::str("torch:torch.nn.functional.conv_transpose", n, "d"), [n](KernelCall& c) {
      const Tensor& a = c.arg(0).tensor();
      const Tensor& w = c.arg(1).tensor();
      auto bias = c.arg(2).optional_tensor();
      auto stride = c.arg(3).ints(), padding = c.arg(4).ints(), output_padding = c.arg(5).ints(), dilation = c.arg(7).ints();
      int64_t groups = c.arg(6).integer();
      c.set_output(0, n == 1 ? at::conv_transpose1d(a, w, bias, stride, padding, output_padding, groups, dilation)
                      : n == 2 ? at::conv_transpose2d(a, w, bias, stride, padding, output_padding, groups, dilation)
                               : at::conv_transpose3d(a, w, bias, stride, padding, output_padding, groups, dilation));
    });
  }
  for (int spatial : {2, 3})
    r.add(str("torch:torch.nn.functional.max_pool", spatial, "d"), [spatial](KernelCall& c) {
      auto kernel = c.arg(1).ints();
      auto stride = c.arg(2).is_none() ? std::vector<int64_t>{} : c.arg(2).ints();
      if (c.num_outputs() == 2) {  // return_indices
        auto pool = spatial == 2 ? at::max_pool2d_with_indices : at::max_pool3d_with_indices;
        auto [values, indices] = pool(c.arg(0).tensor(), kernel, stride, c.arg(3).ints(), c.arg(4).ints(), c.arg(5).flag());
        c.set_output(0, values);
        return c.set_output(1, indices);
      }
      auto pool = spatial == 2 ? fast_max_pool2d : at::max_pool3d;
      c.set_output(0, pool(c.arg(0).tensor(), kernel, stride, c.arg(3).ints(), c.arg(4).ints(), c.arg(5).flag()));
    });
  r.add("torch:torch.nn.functional.normalize", [](KernelCall& c) {
    const Tensor& a = c.arg(0).tensor();
    c.set_output(0, a / a.norm(c.arg(1).real(), c.arg(2).integer(), true).clamp_min(c.arg(3).real()).expand_as(a));
  });
  r.add("torch:torch.frexp", [](KernelCall& c) {
    auto [mantissa, exponent] = at::frexp(c.arg(0).tensor());
    c.set_output(0, mantissa);
    c.set_output(1, exponent);
  });
  r.add("torch:torch.polygamma", [](KernelCall& c) { c.set_output(0, at::polygamma(c.arg(0).integer(), c.arg(1).tensor())); });
  r.add("torch:torch.Tensor.polygamma", [](KernelCall& c) { c.set_output(0, at::polygamma(c.arg(1).integer(), c.arg(0).tensor())); });
  r.add("torch:torch._weight_norm", [](KernelCall& c) {
    c.set_output(0, at::_weight_norm(c.arg(0).tensor(), c.arg(1).tensor(), c.arg(2).integer()));
  });
  r.add("torch:torch.nn.functional.cosine_similarity", [](KernelCall& c) {
    c.set_output(0, at::cosine_similarity(c.arg(0).tensor(), c.arg(1).tensor(), c.arg(2).integer(), c.arg(3).real()));
  });
  r.add("torch:torch.lstm", [](KernelCall& c) {
    auto [out, h, cell] = at::lstm(c.arg(0).tensor(), c.arg(1).tensors(), c.arg(2).tensors(), c.arg(3).flag(), c.arg(4).integer(),
                                   c.arg(5).real(), c.arg(6).flag(), c.arg(7).flag(), c.arg(8).flag());
    c.set_output(0, out);
    c.set_output(1, h);
    c.set_output(2, cell);
  });
  r.add("torch:torch.lstm_cell", [](KernelCall& c) {
    auto [h, cell] = at::lstm_cell(c.arg(0).tensor(), c.arg(1).tensors(), c.arg(2).tensor(), c.arg(3).tensor(),
                                   c.arg(4).optional_tensor(), c.arg(5).optional_tensor());
    c.set_output(0, h);
    c.set_output(1, cell);
  });
  using RecurrentCell = Tensor (*)(const Tensor&, const Tensor&, const Tensor&, const Tensor&, const c10::optional<Tensor>&,
                                   const c10::optional<Tensor>&);
  for (auto [id, step] : {std::pair<const char*, RecurrentCell>{"torch:torch.gru_cell", &at::gru_cell},
                          {"torch:torch.rnn_tanh_cell", &at::rnn_tanh_cell}, {"torch:torch.rnn_relu_cell", &at::rnn_relu_cell}})
    r.add(id, [step = step](KernelCall& c) {
      c.set_output(0, step(c.arg(0).tensor(), c.arg(1).tensor(), c.arg(2).tensor(), c.arg(3).tensor(), c.arg(4).optional_tensor(),
                           c.arg(5).optional_tensor()));
    });
  using Recurrent = std::tuple<Tensor, Tensor> (*)(const Tensor&, const Tensor&, at::TensorList, bool, int64_t, double, bool, bool, bool);
  for (auto [id, recurrent] : {std::pair<const char*, Recurrent>{"torch:torch.gru", &at::gru},
                               {"torch:torch.rnn_tanh", &at::rnn_tanh}, {"torch:torch.rnn_relu", &at::rnn_relu}})
    r.add(id, [recurrent = recurrent](KernelCall& c) {
      auto [out, h] = recurrent(c.arg(0).tensor(), c.arg(1).tensor(), c.arg(2).tensors(), c.arg(3).flag(), c.arg(4).integer(),
                                c.arg(5).real(), c.arg(6).flag(), c.arg(7).flag(), c.arg(8).flag());
      c.set_output(0, out);
      c.set_output(1, h);
    });
  for (bool largest : {true, false})
    r.add(largest ? "torch:torch.max" : "torch:torch.min", [largest](KernelCall& c) {
      const Tensor& a = c.arg(0).tensor();
      if (c.arg(1).is_tensor()) return c.set_output(0, largest ? at::maximum(a, c.arg(1).tensor()) : at::minimum(a, c.arg(1).tensor()));
      if (c.arg(1).is_none()) return c.set_output(0, largest ? at::max(a) : at::min(a));
      auto [values, indices] = largest ? at::max(a, c.arg(1).integer(), c.arg(2).flag()) : at::min(a, c.arg(1).integer(), c.arg(2).flag());
      c.set_output(0, values);
      c.set_output(1, indices);
    });
  for (bool every : {true, false})
    r.add(every ? "torch:torch.all" : "torch:torch.any", [every](KernelCall& c) {
      const Tensor& a = c.arg(0).tensor();
      if (c.arg(1).is_none()) return c.set_output(0, every ? at::all(a) : at::any(a));
      // LibTorch 1.13 reduces one dim at a time.
      Tensor out = a;
      auto dims = c.arg(1).ints();
      for (auto& d : dims) d = d < 0 ? d + a.dim() : d;
      std::sort(dims.rbegin(), dims.rend());
      for (auto d : dims) out = every ? at::all(out, d, c.arg(2).flag()) : at::any(out, d, c.arg(2).flag());
      c.set_output(0, out);
    });
  r.add("torch:torch.count_nonzero", [](KernelCall& c) {
    c.set_output(0, c.arg(1).is_none() ? at::count_nonzero(c.arg(0).tensor()) : at::count_nonzero(c.arg(0).tensor(), c.arg(1).ints()));
  });
  // LAPACK through ATen: the torch language's ops with no decomposition (langs/torch_linalg.cpp).
  r.add("torch:torch.linalg.inv", [](KernelCall& c) { c.set_output(0, at::linalg_inv(c.arg(0).tensor())); });
  r.add("torch:torch.linalg.det", [](KernelCall& c) { c.set_output(0, at::linalg_det(c.arg(0).tensor())); });
  r.add("torch:torch.linalg.slogdet", [](KernelCall& c) {
    auto [sign, logabsdet] = at::linalg_slogdet(c.arg(0).tensor());
    c.set_output(0, sign);
    c.set_output(1, logabsdet);
  });
  r.add("torch:torch.linalg.solve", [](KernelCall& c) { c.set_output(0, at::linalg_solve(c.arg(0).tensor(), c.arg(1).tensor(), c.kwarg("left").flag())); });
  r.add("torch:torch.linalg.cholesky", [](KernelCall& c) { c.set_output(0, at::linalg_cholesky(c.arg(0).tensor(), c.kwarg("upper").flag())); });
  r.add("torch:torch.linalg.qr", [](KernelCall& c) {
    auto [q, r] = at::linalg_qr(c.arg(0).tensor(), c.arg(1).string());
    c.set_output(0, q);
    c.set_output(1, r);
  });
  r.add("torch:torch.linalg.svd", [](KernelCall& c) {
    auto [u, s, vh] = at::linalg_svd(c.arg(0).tensor(), c.arg(1).flag());
    c.set_output(0, u);
    c.set_output(1, s);
    c.set_output(2, vh);
  });
  r.add("torch:torch.linalg.svdvals", [](KernelCall& c) { c.set_output(0, at::linalg_svdvals(c.arg(0).tensor())); });
  r.add("torch:torch.linalg.eigh", [](KernelCall& c) {
    auto [values, vectors] = at::linalg_eigh(c.arg(0).tensor(), c.arg(1).string());
    c.set_output(0, values);
    c.set_output(1, vectors);
  });
  r.add("torch:torch.linalg.eigvalsh", [](KernelCall& c) { c.set_output(0, at::linalg_eigvalsh(c.arg(0).tensor(), c.arg(1).string())); });
  r.add("torch:torch.linalg.pinv", [](KernelCall& c) {
    auto tolerance = [&](const char* name) { return c.kwarg(name).is_none() ? c10::optional<double>() : c10::optional<double>(c.kwarg(name).real()); };
    c.set_output(0, at::linalg_pinv(c.arg(0).tensor(), tolerance("atol"), tolerance("rtol"), c.kwarg("hermitian").flag()));
  });
  r.add("torch:torch.linalg.inv_ex", [set_outputs](KernelCall& c) {
    auto [inverse, info] = at::linalg_inv_ex(c.arg(0).tensor(), c.kwarg("check_errors").flag());
    set_outputs(c, {inverse, info});
  });
  r.add("torch:torch.linalg.cholesky_ex", [set_outputs](KernelCall& c) {
    auto [l, info] = at::linalg_cholesky_ex(c.arg(0).tensor(), c.kwarg("upper").flag(), c.kwarg("check_errors").flag());
    set_outputs(c, {l, info});
  });
  r.add("torch:torch.linalg.solve_ex", [set_outputs](KernelCall& c) {
    auto [x, info] = at::linalg_solve_ex(c.arg(0).tensor(), c.arg(1).tensor(), c.kwarg("left").flag(), c.kwarg("check_errors").flag());
    set_outputs(c, {x, info});
  });
  r.add("torch:torch.linalg.lu_factor", [set_outputs](KernelCall& c) {
    auto [lu, pivots] = at::linalg_lu_factor(c.arg(0).tensor(), c.kwarg("pivot").flag());
    set_outputs(c, {lu, pivots});
  });
  r.add("torch:torch.linalg.lu_factor_ex", [set_outputs](KernelCall& c) {
    auto [lu, pivots, info] = at::linalg_lu_factor_ex(c.arg(0).tensor(), c.kwarg("pivot").flag(), c.kwarg("check_errors").flag());
    set_outputs(c, {lu, pivots, info});
  });
  r.add("torch:torch.linalg.lu", [set_outputs](KernelCall& c) {
    auto [p, l, u] = at::linalg_lu(c.arg(0).tensor(), c.kwarg("pivot").flag());
    set_outputs(c, {p, l, u});
  });
  r.add("torch:torch.lu_unpack", [set_outputs](KernelCall& c) {
    auto [p, l, u] = at::lu_unpack(c.arg(0).tensor(), c.arg(1).tensor(), c.arg(2).flag(), c.arg(3).flag());
    set_outputs(c, {p, l, u});
  });
  r.add("torch:torch.linalg.lu_solve", [](KernelCall& c) {
    c.set_output(0, at::linalg_lu_solve(c.arg(0).tensor(), c.arg(1).tensor(), c.arg(2).tensor(), c.kwarg("left").flag(), c.kwarg("adjoint").flag()));
  });
  r.add("torch:torch.linalg.solve_triangular", [](KernelCall& c) {
    c.set_output(0, at::linalg_solve_triangular(c.arg(0).tensor(), c.arg(1).tensor(), c.kwarg("upper").flag(), c.kwarg("left").flag(),
                                                c.kwarg("unitriangular").flag()));
  });
  r.add("torch:torch.linalg.eig", [set_outputs](KernelCall& c) {
    auto [values, vectors] = at::linalg_eig(c.arg(0).tensor());
    set_outputs(c, {values, vectors});
  });
  r.add("torch:torch.linalg.eigvals", [](KernelCall& c) { c.set_output(0, at::linalg_eigvals(c.arg(0).tensor())); });
  r.add("torch:torch.symeig", [set_outputs](KernelCall& c) {
    auto [values, vectors] = at::symeig(c.arg(0).tensor(), c.arg(1).flag(), c.arg(2).flag());
    set_outputs(c, {values, vectors});
  });
  r.add("torch:torch.geqrf", [set_outputs](KernelCall& c) {
    auto [a, tau] = at::geqrf(c.arg(0).tensor());
    set_outputs(c, {a, tau});
  });
  r.add("torch:torch.linalg.householder_product", [](KernelCall& c) { c.set_output(0, at::linalg_householder_product(c.arg(0).tensor(), c.arg(1).tensor())); });
  r.add("torch:torch.ormqr", [](KernelCall& c) {
    c.set_output(0, at::ormqr(c.arg(0).tensor(), c.arg(1).tensor(), c.arg(2).tensor(), c.arg(3).flag(), c.arg(4).flag()));
  });
  r.add("torch:torch.linalg.ldl_factor", [set_outputs](KernelCall& c) {
    auto [ld, pivots] = at::linalg_ldl_factor(c.arg(0).tensor(), c.kwarg("hermitian").flag());
    set_outputs(c, {ld, pivots});
  });
  r.add("torch:torch.linalg.ldl_factor_ex", [set_outputs](KernelCall& c) {
    auto [ld, pivots, info] = at::linalg_ldl_factor_ex(c.arg(0).tensor(), c.kwarg("hermitian").flag(), c.kwarg("check_errors").flag());
    set_outputs(c, {ld, pivots, info});
  });
  r.add("torch:torch.linalg.ldl_solve", [](KernelCall& c) {
    c.set_output(0, at::linalg_ldl_solve(c.arg(0).tensor(), c.arg(1).tensor(), c.arg(2).tensor(), c.kwarg("hermitian").flag()));
  });
  // gelsd and gelss give the residuals only where every A has full rank: a plan records their
  // shape ahead (full rank), so a rank-deficient A is an error here, not a differently shaped result.
  r.add("torch:torch.linalg.lstsq", [set_outputs](KernelCall& c) {
    const Tensor& a = c.arg(0).tensor();
    auto rcond = c.arg(2).is_none() ? c10::optional<double>() : c10::optional<double>(c.arg(2).real());
    std::string driver = c.kwarg("driver").is_none() ? std::string() : c.kwarg("driver").string();
    auto [solution, residuals, rank, singular_values] =
        at::linalg_lstsq(a, c.arg(1).tensor(), rcond, driver.empty() ? c10::optional<c10::string_view>() : c10::optional<c10::string_view>(driver));
    bool tall = a.size(-2) > a.size(-1);
    if (tall && (driver == "gelsd" || driver == "gelss") && residuals.numel() == 0 && solution.numel() > 0)
      throw std::runtime_error("torch.linalg.lstsq: some A is rank-deficient, so the driver " + driver +
                               " computes no residuals; the plan recorded them (their shape depends on the data)");
    set_outputs(c, {solution, residuals, rank, singular_values});
  });
  r.add("torch:torch.linalg.matrix_exp", [](KernelCall& c) { c.set_output(0, at::linalg_matrix_exp(c.arg(0).tensor())); });
  // Order statistics, scans of extremes, sorted search, membership, histograms (langs/torch_reductions.cpp).
  auto set_pair = [](KernelCall& c, const std::tuple<Tensor, Tensor>& pair) {
    c.set_output(0, std::get<0>(pair));
    c.set_output(1, std::get<1>(pair));
  };
  for (bool nan : {false, true})
    r.add(nan ? "torch:torch.nanmedian" : "torch:torch.median", [nan, set_pair](KernelCall& c) {
      const Tensor& a = c.arg(0).tensor();
      if (c.arg(1).is_none()) return c.set_output(0, nan ? at::nanmedian(a) : at::median(a));
      set_pair(c, nan ? at::nanmedian(a, c.arg(1).integer(), c.arg(2).flag()) : at::median(a, c.arg(1).integer(), c.arg(2).flag()));
    });
  r.add("torch:torch.kthvalue", [set_pair](KernelCall& c) {
    set_pair(c, at::kthvalue(c.arg(0).tensor(), c.arg(1).integer(), c.arg(2).integer(), c.arg(3).flag()));
  });
  r.add("torch:torch.mode", [set_pair](KernelCall& c) { set_pair(c, at::mode(c.arg(0).tensor(), c.arg(1).integer(), c.arg(2).flag())); });
  r.add("torch:torch.cummax", [set_pair](KernelCall& c) { set_pair(c, at::cummax(c.arg(0).tensor(), c.arg(1).integer())); });
  r.add("torch:torch.cummin", [set_pair](KernelCall& c) { set_pair(c, at::cummin(c.arg(0).tensor(), c.arg(1).integer())); });
  r.add("torch:torch.searchsorted", [](KernelCall& c) {
    const std::string side = c.kwarg("side").is_none() ? "" : c.kwarg("side").string();
    c10::optional<c10::string_view> side_view = side.empty() ? c10::optional<c10::string_view>() : c10::optional<c10::string_view>(side);
    const Tensor& sorted = c.arg(0).tensor();
    bool out_int32 = c.kwarg("out_int32").flag(), right = c.kwarg("right").flag();
    c10::optional<Tensor> sorter = c.kwarg("sorter").optional_tensor();
    if (c.arg(1).is_tensor()) return c.set_output(0, at::searchsorted(sorted, c.arg(1).tensor(), out_int32, right, side_view, sorter));
    c.set_output(0, at::searchsorted(sorted, c.arg(1).scalar(), out_int32, right, side_view, sorter));
  });
  r.add("torch:torch.bucketize", [](KernelCall& c) {
    bool out_int32 = c.kwarg("out_int32").flag(), right = c.kwarg("right").flag();
    if (c.arg(0).is_tensor()) return c.set_output(0, at::bucketize(c.arg(0).tensor(), c.arg(1).tensor(), out_int32, right));
    c.set_output(0, at::bucketize(c.arg(0).scalar(), c.arg(1).tensor(), out_int32, right));
  });
  r.add("torch:torch.isin", [](KernelCall& c) {
    bool unique = c.kwarg("assume_unique").flag(), invert = c.kwarg("invert").flag();
    if (!c.arg(0).is_tensor()) return c.set_output(0, at::isin(c.arg(0).scalar(), c.arg(1).tensor(), unique, invert));
    if (!c.arg(1).is_tensor()) return c.set_output(0, at::isin(c.arg(0).tensor(), c.arg(1).scalar(), unique, invert));
    c.set_output(0, at::isin(c.arg(0).tensor(), c.arg(1).tensor(), unique, invert));
  });
  r.add("torch:torch.histc", [](KernelCall& c) {
    c.set_output(0, at::histc(c.arg(0).tensor(), c.arg(1).integer(), c.arg(2).scalar(), c.arg(3).scalar()));
  });
  // torch.special's Bessel functions and orthogonal polynomials (langs/torch_special.cpp).
  using Unary = Tensor (*)(const Tensor&);
  for (auto [id, fn] : std::initializer_list<std::pair<const char*, Unary>>{
           {"torch.i0", &at::i0}, {"torch.special.i0e", &at::special_i0e}, {"torch.special.i1", &at::special_i1},
           {"torch.special.i1e", &at::special_i1e}, {"torch.special.erfcx", &at::special_erfcx},
           {"torch.special.airy_ai", &at::special_airy_ai}, {"torch.special.bessel_j0", &at::special_bessel_j0},
           {"torch.special.bessel_j1", &at::special_bessel_j1}, {"torch.special.bessel_y0", &at::special_bessel_y0},
           {"torch.special.bessel_y1", &at::special_bessel_y1}, {"torch.special.modified_bessel_i0", &at::special_modified_bessel_i0},
           {"torch.special.modified_bessel_i1", &at::special_modified_bessel_i1},
           {"torch.special.modified_bessel_k0", &at::special_modified_bessel_k0},
           {"torch.special.modified_bessel_k1", &at::special_modified_bessel_k1},
           {"torch.special.scaled_modified_bessel_k0", &at::special_scaled_modified_bessel_k0},
           {"torch.special.scaled_modified_bessel_k1", &at::special_scaled_modified_bessel_k1},
           {"torch.special.spherical_bessel_j0", &at::special_spherical_bessel_j0}})
    add_unary(r, std::string("torch:") + id, fn);
  using Polynomial = Tensor (*)(const Tensor&, const Tensor&);
  for (auto [id, fn] : std::initializer_list<std::pair<const char*, Polynomial>>{
           {"chebyshev_polynomial_t", &at::special_chebyshev_polynomial_t}, {"chebyshev_polynomial_u", &at::special_chebyshev_polynomial_u},
           {"chebyshev_polynomial_v", &at::special_chebyshev_polynomial_v}, {"chebyshev_polynomial_w", &at::special_chebyshev_polynomial_w},
           {"shifted_chebyshev_polynomial_t", &at::special_shifted_chebyshev_polynomial_t},
           {"shifted_chebyshev_polynomial_u", &at::special_shifted_chebyshev_polynomial_u},
           {"shifted_chebyshev_polynomial_v", &at::special_shifted_chebyshev_polynomial_v},
           {"shifted_chebyshev_polynomial_w", &at::special_shifted_chebyshev_polynomial_w},
           {"hermite_polynomial_h", &at::special_hermite_polynomial_h}, {"hermite_polynomial_he", &at::special_hermite_polynomial_he},
           {"laguerre_polynomial_l", &at::special_laguerre_polynomial_l}, {"legendre_polynomial_p", &at::special_legendre_polynomial_p}})
    r.add(std::string("torch:torch.special.") + id, [fn](KernelCall& c) {
      c.set_output(0, fn(c.arg(0).tensor_or_wrapped_number(), c.arg(1).tensor_or_wrapped_number()));
    });
  // torch.fft through pocketfft (langs/torch_fft.cpp): 1-d transforms take (n, dim, norm), the
  // others (s, dim, norm). (The norm's text lives in the kernel while ATen reads its view.)
  auto norm_view = [](const std::string& norm) { return norm.empty() ? c10::optional<c10::string_view>() : c10::optional<c10::string_view>(norm); };
  using OneD = at::Tensor (*)(const at::Tensor&, c10::optional<int64_t>, int64_t, c10::optional<c10::string_view>);
  for (auto [id, fn] : std::initializer_list<std::pair<const char*, OneD>>{
           {"fft", &at::fft_fft}, {"ifft", &at::fft_ifft}, {"rfft", &at::fft_rfft}, {"irfft", &at::fft_irfft}})
    r.add(std::string("torch:torch.fft.") + id, [fn, norm_view](KernelCall& c) {
      const std::string norm = c.arg(3).is_none() ? "" : c.arg(3).string();
      c.set_output(0, fn(c.arg(0).tensor(), c.arg(1).optional_integer(), c.arg(2).integer(), norm_view(norm)));
    });
  using NDim = at::Tensor (*)(const at::Tensor&, at::OptionalIntArrayRef, at::OptionalIntArrayRef, c10::optional<c10::string_view>);
  for (auto [id, fn] : std::initializer_list<std::pair<const char*, NDim>>{
           {"fftn", &at::fft_fftn}, {"ifftn", &at::fft_ifftn}, {"rfftn", &at::fft_rfftn}, {"irfftn", &at::fft_irfftn},
           {"fft2", &at::fft_fftn}, {"ifft2", &at::fft_ifftn}, {"rfft2", &at::fft_rfftn}, {"irfft2", &at::fft_irfftn}})
    r.add(std::string("torch:torch.fft.") + id, [fn, norm_view](KernelCall& c) {
      const std::string norm = c.arg(3).is_none() ? "" : c.arg(3).string();
      const auto s = c.arg(1).is_none() ? std::vector<int64_t>{} : c.arg(1).ints();
      const auto dims = c.arg(2).is_none() ? std::vector<int64_t>{} : c.arg(2).ints();
      c.set_output(0, fn(c.arg(0).tensor(), c.arg(1).is_none() ? at::OptionalIntArrayRef() : at::OptionalIntArrayRef(s),
                         c.arg(2).is_none() ? at::OptionalIntArrayRef() : at::OptionalIntArrayRef(dims), norm_view(norm)));
    });
  r.add("torch:torch.sort", [](KernelCall& c) {
    auto [values, indices] = at::sort(c.arg(0).tensor(), c.arg(1).integer(), c.arg(2).flag());
    c.set_output(0, values);
    c.set_output(1, indices);
  });
  r.add("torch:torch.argsort", [](KernelCall& c) { c.set_output(0, at::argsort(c.arg(0).tensor(), c.arg(1).integer(), c.arg(2).flag())); });
  r.add("torch:torch.unbind", [set_outputs](KernelCall& c) { set_outputs(c, at::unbind(c.arg(0).tensor(), c.arg(1).integer())); });
  r.add("torch:torch.select", [](KernelCall& c) { c.set_output(0, c.arg(0).tensor().select(c.arg(1).integer(), c.arg(2).integer())); });
  r.add("torch:torch.tensor_split", [set_outputs](KernelCall& c) {
    const Tensor& a = c.arg(0).tensor();
    set_outputs(c, c.arg(1).value().is_int_like() ? at::tensor_split(a, c.arg(1).integer(), c.arg(2).integer())
                                                  : at::tensor_split(a, c.arg(1).ints(), c.arg(2).integer()));
  });
  r.add("torch:torch.movedim", [](KernelCall& c) { c.set_output(0, at::movedim(c.arg(0).tensor(), c.arg(1).ints(), c.arg(2).ints())); });
  r.add("torch:torch.unflatten", [](KernelCall& c) { c.set_output(0, c.arg(0).tensor().unflatten(c.arg(1).integer(), c.arg(2).ints())); });
  r.add("torch:torch.broadcast_to", [](KernelCall& c) { c.set_output(0, c.arg(0).tensor().expand(c.arg(1).ints())); });
  r.add("torch:torch.Tensor.expand_as", [](KernelCall& c) { c.set_output(0, c.arg(0).tensor().expand_as(c.arg(1).tensor())); });
  r.add("torch:torch.Tensor.view_as", [](KernelCall& c) { c.set_output(0, c.arg(0).tensor().reshape(c.arg(1).tensor().sizes())); });
  r.add("torch:torch.Tensor.reshape_as", [](KernelCall& c) { c.set_output(0, c.arg(0).tensor().reshape(c.arg(1).tensor().sizes())); });
  r.add("torch:torch.Tensor.repeat", [](KernelCall& c) { c.set_output(0, c.arg(0).tensor().repeat(trailing_ints(c, 1))); });
  r.add("torch:torch.repeat_interleave", [](KernelCall& c) {
    c10::optional<int64_t> dim;
    if (!c.arg(2).is_none()) dim = c.arg(2).integer();
    c.set_output(0, at::repeat_interleave(c.arg(0).tensor(), c.arg(1).integer(), dim));
  });
  r.add("torch:torch.index_select", [](KernelCall& c) {
    c.set_output(0, at::index_select(c.arg(0).tensor(), c.arg(1).integer(), c.arg(2).tensor().reshape({-1})));
  });
  r.add("torch:torch.scatter", [](KernelCall& c) {
    const Tensor& a = c.arg(0).tensor();
    int64_t dim = c.arg(1).integer();
    const Tensor& index = c.arg(2).tensor();
    bool reduces = !c.kwarg("reduce").is_none();
    if (c.arg(3).is_tensor()) {
      const Tensor& src = c.arg(3).tensor();
      return c.set_output(0, reduces ? at::scatter(a, dim, index, src, c.kwarg("reduce").string()) : at::scatter(a, dim, index, src));
    }
    at::Scalar value = c.arg(3).is_none() ? c.kwarg("value").scalar() : c.arg(3).scalar();
    c.set_output(0, reduces ? at::scatter(a, dim, index, value, c.kwarg("reduce").string()) : at::scatter(a, dim, index, value));
  });
  r.add("torch:torch.scatter_reduce", [](KernelCall& c) {
    c.set_output(0, at::scatter_reduce(c.arg(0).tensor(), c.arg(1).integer(), c.arg(2).tensor(), c.arg(3).tensor(), c.arg(4).string(),
                                       c.kwarg("include_self").flag()));
  });
  r.add("torch:torch.index_reduce", [](KernelCall& c) {
    c.set_output(0, at::index_reduce(c.arg(0).tensor(), c.arg(1).integer(), c.arg(2).tensor().reshape({-1}), c.arg(3).tensor(),
                                     c.arg(4).string(), c.kwarg("include_self").flag()));
  });
  r.add("torch:torch.igamma", [](KernelCall& c) { c.set_output(0, at::igamma(c.arg(0).tensor(), c.arg(1).tensor())); });
  r.add("torch:torch.igammac", [](KernelCall& c) { c.set_output(0, at::igammac(c.arg(0).tensor(), c.arg(1).tensor())); });
  r.add("torch:torch.nn.functional.bilinear", [](KernelCall& c) {
    c10::optional<Tensor> bias;
    if (!c.arg(3).is_none()) bias = c.arg(3).tensor();
    c.set_output(0, at::bilinear(c.arg(0).tensor(), c.arg(1).tensor(), c.arg(2).tensor(), bias));
  });
  r.add("torch:torch.round", [](KernelCall& c) {
    int64_t decimals = c.kwarg("decimals").integer();
    const Tensor& a = c.arg(0).tensor();
    c.set_output(0, decimals == 0 ? at::round(a) : at::round(a, decimals));
  });
  r.add("torch:torch.index_add", [](KernelCall& c) {
    c.set_output(0, at::index_add(c.arg(0).tensor(), c.arg(1).integer(), c.arg(2).tensor().reshape({-1}), c.arg(3).tensor(),
                                  c.kwarg("alpha").scalar()));
  });
  r.add("torch:torch.index_copy", [](KernelCall& c) {
    c.set_output(0, at::index_copy(c.arg(0).tensor(), c.arg(1).integer(), c.arg(2).tensor().reshape({-1}), c.arg(3).tensor()));
  });
  r.add("torch:torch.index_put", [](KernelCall& c) {
    c10::List<c10::optional<Tensor>> indices;
    for (const Tensor& index : c.arg(1).tensors()) indices.push_back(index);
    c.set_output(0, at::index_put(c.arg(0).tensor(), indices, c.arg(2).tensor_or_wrapped_number(), c.arg(3).flag()));
  });
  r.add("torch:torch.diagonal", [](KernelCall& c) {
    c.set_output(0, at::diagonal(c.arg(0).tensor(), c.arg(1).integer(), c.arg(2).integer(), c.arg(3).integer()));
  });
  r.add("torch:torch.diag", [](KernelCall& c) { c.set_output(0, at::diag(c.arg(0).tensor(), c.arg(1).integer())); });
  r.add("torch:torch.kron", [](KernelCall& c) { c.set_output(0, at::kron(c.arg(0).tensor(), c.arg(1).tensor())); });
  r.add("torch:torch.gather", [](KernelCall& c) { c.set_output(0, at::gather(c.arg(0).tensor(), c.arg(1).integer(), c.arg(2).tensor())); });
  r.add("torch:torch.take_along_dim", [](KernelCall& c) {
    c10::optional<int64_t> dim;
    if (!c.arg(2).is_none()) dim = c.arg(2).integer();
    c.set_output(0, at::take_along_dim(c.arg(0).tensor(), c.arg(1).tensor(), dim));
  });
  r.add("torch:torch.scatter_add", [](KernelCall& c) {
    c.set_output(0, at::scatter_add(c.arg(0).tensor(), c.arg(1).integer(), c.arg(2).tensor(), c.arg(3).tensor()));
  });
  r.add("torch:torch.nn.functional.one_hot", [](KernelCall& c) { c.set_output(0, at::one_hot(c.arg(0).tensor(), c.arg(1).integer())); });
  r.add("torch:torch.outer", [](KernelCall& c) { c.set_output(0, at::outer(c.arg(0).tensor(), c.arg(1).tensor())); });
  r.add("torch:torch.dot", [](KernelCall& c) { c.set_output(0, at::dot(c.arg(0).tensor(), c.arg(1).tensor())); });
  r.add("torch:torch.mm", [](KernelCall& c) { c.set_output(0, at::mm(c.arg(0).tensor(), c.arg(1).tensor())); });
  r.add("torch:torch.linalg.multi_dot", [](KernelCall& c) { c.set_output(0, at::linalg_multi_dot(c.arg(0).tensors())); });
  r.add("torch:torch.special.zeta", [](KernelCall& c) {
    c.set_output(0, at::special_zeta(c.arg(0).tensor_or_wrapped_number(), c.arg(1).tensor_or_wrapped_number()));
  });
  r.add("torch:torch.mv", [](KernelCall& c) { c.set_output(0, at::mv(c.arg(0).tensor(), c.arg(1).tensor())); });
  for (bool batched : {false, true})
    r.add(batched ? "torch:torch.baddbmm" : "torch:torch.addmm", [batched](KernelCall& c) {
      at::Scalar beta = c.kwarg("beta").present() ? c.kwarg("beta").scalar() : 1, alpha = c.kwarg("alpha").present() ? c.kwarg("alpha").scalar() : 1;
      const Tensor &input = c.arg(0).tensor(), &a = c.arg(1).tensor(), &b = c.arg(2).tensor();
      c.set_output(0, batched ? at::baddbmm(input, a, b, beta, alpha) : at::addmm(input, a, b, beta, alpha));
    });
  r.add("torch:torch.einsum", [](KernelCall& c) {

    std::vector<Tensor> operands;
    for (size_t i = 1; i < c.size(); ++i) {
      if (c.arg(i).is_tensor()) operands.push_back(c.arg(i).tensor());
      else for (const auto& t : c.arg(i).tensors()) operands.push_back(t);
    }
    c.set_output(0, at::einsum(c.arg(0).string(), operands));
  });
  for (int spatial : {2, 3})
    r.add(str("torch:torch.nn.functional.avg_pool", spatial, "d"), [spatial](KernelCall& c) {
      auto kernel = c.arg(1).ints();
      auto stride = c.arg(2).is_none() ? std::vector<int64_t>{} : c.arg(2).ints();
      c10::optional<int64_t> divisor;
      if (!c.arg(6).is_none()) divisor = c.arg(6).integer();
      auto pool = spatial == 2 ? at::avg_pool2d : at::avg_pool3d;
      c.set_output(0, pool(c.arg(0).tensor(), kernel, stride, c.arg(3).ints(), c.arg(4).flag(), c.arg(5).flag(), divisor));
    });
  r.add("torch:torch.nn.functional.pad", [](KernelCall& c) {
    c10::optional<double> value;
    if (!c.arg(3).is_none()) value = c.arg(3).real();
    c.set_output(0, at::pad(c.arg(0).tensor(), c.arg(1).ints(), c.arg(2).string(), value));
  });
  r.add("torch:torch.roll", [](KernelCall& c) {
    c.set_output(0, at::roll(c.arg(0).tensor(), c.arg(1).ints(), c.arg(2).is_none() ? std::vector<int64_t>{} : c.arg(2).ints()));
  });
  r.add("torch:torch.flip", [](KernelCall& c) {
    c.set_output(0, at::flip(c.arg(0).tensor(), c.arg(1).ints()));
  });
  // An adaptive pool's output_size: an int, or a pair where None keeps the input's size.
  // The adaptive poolings' output size: one int for every spatial dim, or one each (None: the input's).
  for (int64_t n : {1, 2, 3}) {
    auto output_size = [n](const Tensor& a, const Value& size) {
      std::vector<int64_t> out;
      for (int64_t i = 0; i < n; ++i) {
        const Value& s = size.is_int_like() ? size : size.items().at(static_cast<size_t>(i));
        out.push_back(s.is_none() ? a.size(a.dim() - n + i) : s.as_int());
      }
      return out;
    };
    r.add(str("torch:torch.nn.functional.adaptive_max_pool", n, "d"), [n, output_size](KernelCall& c) {
      const Tensor& a = c.arg(0).tensor();
      std::vector<int64_t> size = output_size(a, c.arg(1).value());
      auto [values, indices] = n == 1 ? at::adaptive_max_pool1d(a, size) : n == 2 ? at::adaptive_max_pool2d(a, size) : at::adaptive_max_pool3d(a, size);
      c.set_output(0, values);
      if (c.num_outputs() == 2) c.set_output(1, indices);
    });
    r.add(str("torch:torch.nn.functional.adaptive_avg_pool", n, "d"), [n, output_size](KernelCall& c) {
      const Tensor& a = c.arg(0).tensor();
      std::vector<int64_t> size = output_size(a, c.arg(1).value());
      c.set_output(0, n == 1 ? at::adaptive_avg_pool1d(a, size) : n == 2 ? at::adaptive_avg_pool2d(a, size) : at::adaptive_avg_pool3d(a, size));
    });
  }
  // An empty or absent stride is the kernel size, in ATen as in PyTorch.
  auto pool_stride = [](ArgView v) { return v.is_none() ? std::vector<int64_t>{} : v.ints(); };
  r.add("torch:torch.nn.functional.max_pool1d", [pool_stride](KernelCall& c) {
    const Tensor& a = c.arg(0).tensor();
    if (c.num_outputs() == 2) {  // return_indices
      auto [values, indices] = at::max_pool1d_with_indices(a, c.arg(1).ints(), pool_stride(c.arg(2)), c.arg(3).ints(), c.arg(4).ints(), c.arg(5).flag());
      c.set_output(0, values);
      return c.set_output(1, indices);
    }
    c.set_output(0, at::max_pool1d(a, c.arg(1).ints(), pool_stride(c.arg(2)), c.arg(3).ints(), c.arg(4).ints(), c.arg(5).flag()));
  });
  r.add("torch:torch.nn.functional.avg_pool1d", [pool_stride](KernelCall& c) {
    c.set_output(0, at::avg_pool1d(c.arg(0).tensor(), c.arg(1).ints(), pool_stride(c.arg(2)), c.arg(3).ints(), c.arg(4).flag(), c.arg(5).flag()));
  });
  r.add("torch:torch.nn.functional.group_norm", [](KernelCall& c) {
    c.set_output(0, at::group_norm(c.arg(0).tensor(), c.arg(1).integer(), c.arg(2).optional_tensor(), c.arg(3).optional_tensor(), c.arg(4).real()));
  });
  r.add("torch:torch.nn.functional.instance_norm", [](KernelCall& c) {
    bool use_input_stats = c.arg(5).flag();
    // As batch_norm's: the running statistics are read (without use_input_stats), never updated.
    auto running_mean = use_input_stats ? c10::optional<Tensor>() : c.arg(1).optional_tensor();
    auto running_var = use_input_stats ? c10::optional<Tensor>() : c.arg(2).optional_tensor();
    c.set_output(0, at::instance_norm(c.arg(0).tensor(), c.arg(3).optional_tensor(), c.arg(4).optional_tensor(), running_mean, running_var,
                                      use_input_stats, c.arg(6).real(), c.arg(7).real(), false));
  });
  r.add("torch:torch.nn.functional.pairwise_distance", [](KernelCall& c) {
    c.set_output(0, at::pairwise_distance(c.arg(0).tensor(), c.arg(1).tensor(), c.arg(2).real(), c.arg(3).real(), c.arg(4).flag()));
  });
  r.add("torch:torch.nn.functional.pixel_shuffle", [](KernelCall& c) { c.set_output(0, at::pixel_shuffle(c.arg(0).tensor(), c.arg(1).integer())); });
  r.add("torch:torch.nn.functional.glu", [](KernelCall& c) { c.set_output(0, at::glu(c.arg(0).tensor(), c.arg(1).integer())); });
  r.add("torch:torch.nn.functional.softmin", [](KernelCall& c) {
    auto dtype = c.arg(3).is_none() ? c10::optional<at::ScalarType>() : c10::optional<at::ScalarType>(c.arg(3).dtype());
    c.set_output(0, at::softmax(-c.arg(0).tensor(), c.arg(1).integer(), dtype));
  });
  r.add("torch:torch.nn.functional.celu", [](KernelCall& c) { c.set_output(0, at::celu(c.arg(0).tensor(), c.arg(1).scalar())); });
  add_unary(r, "torch:torch.nn.functional.selu", [](const Tensor& a) { return at::selu(a); });
  r.add("torch:torch.nn.functional.threshold", [](KernelCall& c) {
    c.set_output(0, at::threshold(c.arg(0).tensor(), c.arg(1).scalar(), c.arg(2).scalar()));
  });
  r.add("torch:torch.nn.functional.hardshrink", [](KernelCall& c) { c.set_output(0, at::hardshrink(c.arg(0).tensor(), c.arg(1).scalar())); });
  r.add("torch:torch.nn.functional.softshrink", [](KernelCall& c) { c.set_output(0, at::softshrink(c.arg(0).tensor(), c.arg(1).scalar())); });
  add_unary(r, "torch:torch.nn.functional.tanhshrink", [](const Tensor& a) { return a - a.tanh(); });
  r.add("torch:torch.nn.functional.prelu", [](KernelCall& c) { c.set_output(0, at::prelu(c.arg(0).tensor(), c.arg(1).tensor())); });
  // Activations ATen has whole.
  r.add("torch:torch.nn.functional.hardtanh", [](KernelCall& c) {
    c.set_output(0, at::hardtanh(c.arg(0).tensor(), c.arg(1).scalar(), c.arg(2).scalar()));
  });
  add_unary(r, "torch:torch.nn.functional.relu6", [](const Tensor& a) { return at::hardtanh(a, 0, 6); });
  add_unary(r, "torch:torch.nn.functional.hardsigmoid", [](const Tensor& a) { return at::hardsigmoid(a); });
  add_unary(r, "torch:torch.nn.functional.hardswish", [](const Tensor& a) { return at::hardswish(a); });
  add_unary(r, "torch:torch.nn.functional.mish", [](const Tensor& a) { return at::mish(a); });
  add_unary(r, "torch:torch.nn.functional.logsigmoid", [](const Tensor& a) { return at::log_sigmoid(a); });
  add_unary(r, "torch:torch.nn.functional.softsign", [](const Tensor& a) { return a / (a.abs() + 1); });
  r.add("torch:torch.nn.functional.leaky_relu", [](KernelCall& c) { c.set_output(0, at::leaky_relu(c.arg(0).tensor(), c.arg(1).scalar())); });
  r.add("torch:torch.nn.functional.elu", [](KernelCall& c) { c.set_output(0, at::elu(c.arg(0).tensor(), c.arg(1).scalar())); });
}

}  // namespace

void register_torch_kernels(KernelRegistry& registry) {
  register_unary_kernels(registry);
  register_prim_kernels(registry);
  register_torch_language_kernels(registry);
}

}  // namespace thundercc::runtime
