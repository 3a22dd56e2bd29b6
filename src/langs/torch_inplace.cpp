// In-place ops of the torch language: x.add_(y), x += y, torch.relu_(x), x.copy_(y), x[i] = v.
// Each is its out-of-place op, whose result must keep x's shape and be castable to x's dtype (as
// PyTorch requires), converted back to x's dtype. Tagged IN_PLACE: they modify their first
// argument. Functionalization (passes/functionalization.cpp) replaces them by their decomposition
// before anything else runs and writes a modified program input back; no executor runs them.
#include "langs/torch_registry.h"

namespace thundercc::ltorch {
namespace {

// PyTorch's canCast: no float to an integer, no complex to a real, nothing but bool to bool.
bool can_cast(DType from, DType to) {
  if (from.is_complex() && !to.is_complex()) return false;
  if (from.is_float() && to.is_exact()) return false;
  if (!from.is_bool() && to.is_bool()) return false;
  return true;
}

// The name PyTorch's messages give a dtype (c10::ScalarType's).
std::string scalar_type_name(DType d) {
  switch (d.type) {
    case ScalarType::Bool8: return "Bool";
    case ScalarType::UInt8: return "Byte";
    case ScalarType::Int8: return "Char";
    case ScalarType::Int16: return "Short";
    case ScalarType::Int32: return "Int";
    case ScalarType::Int64: return "Long";
    case ScalarType::Float16: return "Half";
    case ScalarType::BFloat16: return "BFloat16";
    case ScalarType::Float32: return "Float";
    case ScalarType::Float64: return "Double";
    case ScalarType::Complex64: return "ComplexFloat";
    case ScalarType::Complex128: return "ComplexDouble";
    default: return std::string(d.torch_name());
  }
}

Tensor written_into(const Tensor& target, const Tensor& result) {
  check(result.shape() == target.shape(), [&] {
    return str("output with shape ", langs::dims_repr(target.shape()), " doesn't match the broadcast shape ",
               langs::dims_repr(result.shape()));
  });
  DType dtype = target.dtype().strong();
  if (result.dtype().type == dtype.type) return result;
  check(can_cast(result.dtype(), dtype), [&] {
    return str("result type ", scalar_type_name(result.dtype()), " can't be cast to the desired output type ", scalar_type_name(dtype));
  });
  return to(result, dtype);
}

// `ids` run `functional` (with the same parameters) and write the result into their first argument.
void define_in_place(SymbolTable& t, std::vector<std::string> ids, const std::string& functional) {
  const Symbol& of = t.get(functional);
  Symbol s;
  s.id = ids.front();
  s.aliases.assign(ids.begin() + 1, ids.end());
  s.name = s.id.substr(s.id.rfind('.') + 1);
  s.module = "ltorch";
  s.signature = of.signature;
  s.tags = {"IN_PLACE"};
  s.meta = [functional](const Args& x) -> Value {
    auto [args, kwargs] = x.symbol().normalize(x);
    check(!args.empty() && args[0].is_tensor(), [&] { return str(x.symbol().id, " expects a tensor to modify"); }, "TypeError");
    const Tensor& target = args[0].as_tensor();
    Tensor result = written_into(target, op(functional, args, kwargs));
    // A tensor that requires grad still does after any in-place op, as in eager (x.zero_(),
    // x.fill_(1.0), x.copy_(constant)): a result made of constants is joined to x by a where that
    // always takes it, through which x's gradient is zero, as autograd's for an overwritten value.
    if (target.requires_grad() && !result.requires_grad()) return prims::where(true, result, target);
    // The new value of the first argument is a value of its own, never one of the arguments passed
    // through (x.copy_(y) of y's dtype and shape): a later in-place op on it modifies x, not y.
    for (const auto& a : args)
      if (a.is_tensor() && a.as_tensor().same(result)) return prims::convert_element_type(result, result.dtype());
    return result;
  };
  t.add(std::move(s));
}

// The in-place forms the op tables declare (unary_ops.def, binary_ops.def): torch.X_ and
// Tensor.X_, or Tensor.X_ alone.
enum class InPlace { None, Both, Method };
struct InPlaceForms {
  const char* name;
  InPlace forms;
};
const InPlaceForms kTableInPlace[] = {
#define THUNDERCC_UNARY_OP(name, accepts, produces, promotion, in_place, ...) {#name, InPlace::in_place},
#include "thundercc/langs/unary_ops.def"
#define THUNDERCC_BINARY_OP(name, accepts, produces, torch, promotion, in_place, ...) {#torch, InPlace::in_place},
#define THUNDERCC_TORCH_BINARY_OP(name, in_place) {#name, InPlace::in_place},
#include "thundercc/langs/binary_ops.def"
};

void define_table_in_place(SymbolTable& t, InPlace forms) {
  for (const auto& op : kTableInPlace) {
    if (op.forms != forms) continue;
    std::vector<std::string> ids{str("torch.Tensor.", op.name, "_")};
    if (forms == InPlace::Both) ids.push_back(str("torch.", op.name, "_"));
    define_in_place(t, ids, str("torch.", op.name));
  }
}

}  // namespace

void register_in_place(SymbolTable& t) {
  // torch.X_ exists for these as well as Tensor.X_.
  define_table_in_place(t, InPlace::Both);
  for (const char* name : {"sigmoid", "clamp", "square"})
    define_in_place(t, {str("torch.Tensor.", name, "_"), str("torch.", name, "_")}, str("torch.", name));
  define_table_in_place(t, InPlace::Method);
  for (const char* name : {"logical_not", "add", "sub", "div", "masked_fill", "scatter", "scatter_add", "index_add", "index_copy", "index_put",
                           "cumsum", "cumprod", "copysign", "logical_and", "logical_or", "logical_xor", "nextafter", "addcmul", "addcdiv",
                           "tril", "triu"})
    define_in_place(t, {str("torch.Tensor.", name, "_")}, str("torch.", name));
  define_in_place(t, {"torch.Tensor.relu_", "torch.relu_", "torch.nn.functional.relu_"}, "torch.nn.functional.relu");
  for (const char* name : {"hardtanh", "threshold", "rrelu"})
    define_in_place(t, {str("torch.nn.functional.", name, "_")}, str("torch.nn.functional.", name));
  define_in_place(t, {"torch.Tensor.lerp_"}, "torch.lerp");
  define_in_place(t, {"torch.Tensor.polygamma_"}, "torch.Tensor.polygamma");  // (a, n), where torch.polygamma takes (n, a)
  define_in_place(t, {"torch.Tensor.fill_"}, "torch.full_like");
  define_in_place(t, {"torch.Tensor.zero_", "torch.zero_"}, "torch.zeros_like");
  define_in_place(t, {"torch.Tensor.copy_"}, "torch.copy");
  define_in_place(t, {"torch.Tensor.__setitem__"}, "torch.setitem");
}

}  // namespace thundercc::ltorch
