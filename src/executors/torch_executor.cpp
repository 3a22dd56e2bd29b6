// The built-in torch executor, registered through the public extension API: it runs every prim,
// and takes whole the torch-language ops that ATen runs directly, so an execution trace reads
// like Thunder's (`t3 = torch.nn.functional.linear(x, w, b)`). Its kernels live in the runtime
// (src/runtime/torch_kernels.cpp), under the ids of the operators registered here.
#include <set>

#include "thundercc/extend.h"

namespace thundercc {
namespace {

// Torch-language ops ATen has no single kernel for in LibTorch 1.13: they run decomposed.
const std::set<std::string> kDecomposed{"torch.nn.functional.scaled_dot_product_attention",
                                        "torch.nn.functional.multi_head_attention_forward",
                                        "torch.nn.functional.interpolate"};

// Prims with a torch function of the same name and arguments; the rest print as torchex.<prim>.
const std::set<std::string> kTorchNamedPrims{
    "abs", "acos", "acosh", "asin", "asinh", "atan", "atanh", "bitwise_not", "ceil", "cos", "cosh", "digamma", "erf",
    "erfc", "erfinv", "exp", "exp2", "expm1", "floor", "isfinite", "lgamma", "log", "log10", "log1p", "log2", "neg",
    "reciprocal", "round", "rsqrt", "sign", "signbit", "sin", "sinh", "sqrt", "tan", "tanh", "trunc", "real", "imag",
    "add", "atan2", "bitwise_and", "bitwise_or", "bitwise_xor", "eq", "fmod", "ge", "gt", "le", "lt", "maximum",
    "minimum", "mul", "ne", "nextafter", "pow", "remainder", "sub", "where", "lerp"};

// Torch-language ops PyTorch has no function for (the functional forms of in-place ops).
const std::set<std::string> kThunderOnly{"torch.setitem", "torch.copy"};

// (module, name) a claimed symbol prints as.
std::pair<std::string, std::string> printed_name(const Symbol& sym) {
  if (sym.is_prim) return {kTorchNamedPrims.count(sym.name) ? "torch" : "torchex", sym.name};
  if (kThunderOnly.count(sym.id)) return {"torchex", sym.name};
  const std::string& id = sym.id;
  if (id.starts_with("torch.Tensor.")) return {"Tensor", id.substr(13)};
  auto dot = id.rfind('.');
  return {id.substr(0, dot), id.substr(dot + 1)};
}

}  // namespace

void register_torch_executor(ExecutorRegistry& registry) {
  Executor& torch = registry.add("torch", "1.13");
  // The same kernels for prims only: `--executors torch_prims` runs every decomposition down to
  // its prims, which checks decompositions against PyTorch end to end.
  Executor& prims_only = registry.add("torch_prims", "1.13");
  const auto symbols = SymbolTable::global().all();  // a copy: registering operators adds symbols
  for (const Symbol* sym : symbols) {
    // In-place symbols never reach claiming: functionalization replaces them.
    if (!sym->executor.empty() || kDecomposed.count(sym->id) || sym->has_tag("IN_PLACE")) continue;
    if (!sym->is_prim && sym->module != "ltorch") continue;
    auto [module, name] = printed_name(*sym);
    // Operator ids name what they implement ("torch:prims.add", "torch:torch.add"): a prim and a
    // torch-language op may print alike but run different kernels.
    const Symbol& op = torch.register_operator(name, sym->signature.str(), sym->meta,
                                               {.module = module, .is_like = !sym->is_prim, .omit_default_kwargs = true,
                                                .id = "torch:" + sym->id});
    torch.register_implementation(sym->id, Implementation{.op = &op});
    if (sym->is_prim) prims_only.register_implementation(sym->id, Implementation{.op = &op});
  }
}

}  // namespace thundercc
