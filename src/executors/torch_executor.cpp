// The built-in torch executor, registered through the public extension API: it runs every prim,
// and takes whole the torch-language ops that ATen runs directly, so an execution trace reads
// like Thunder's (`t3 = torch.nn.functional.linear(x, w, b)`). Its kernels live in the runtime
// (src/runtime/torch_kernels.cpp), under the ids of the operators registered here.
#include <algorithm>
#include <map>
#include <set>
#include <string_view>

#include "thundercc/extend.h"
#include "thundercc/langs/prims.h"
#include "thundercc/langs/torch.h"

namespace thundercc {
namespace {

// How ATen runs each unary prim (unary_ops.def): with an out= variant, without, or by a kernel of
// thundercc's own.
enum class Aten { Out, Plain, Custom };
const std::map<std::string, Aten> kUnaryAten{
#define THUNDERCC_UNARY_OP(name, accepts, produces, promotion, in_place, aten, ...) {#name, Aten::aten},
#include "thundercc/langs/unary_ops.def"
};

// The binary prims torch prints under their own names (binary_ops.def's printed column), with
// where and lerp; of the unary ones, those ATen runs. The rest print as torchex.<prim>.
const std::set<std::string> kTorchNamedPrims{
#define THUNDERCC_Printed_Torch(name) #name,
#define THUNDERCC_Printed_Torchex(name)
#define THUNDERCC_BINARY_OP(name, accepts, produces, torch, promotion, in_place, printed, ...) THUNDERCC_Printed_##printed(name)
#include "thundercc/langs/binary_ops.def"
#undef THUNDERCC_Printed_Torch
#undef THUNDERCC_Printed_Torchex
    "where", "lerp"};
bool torch_named_prim(const std::string& name) {
  auto unary = kUnaryAten.find(name);
  return unary != kUnaryAten.end() ? unary->second != Aten::Custom : kTorchNamedPrims.count(name) > 0;
}

// Elementwise ops whose kernels call ATen's out= variants (src/runtime/torch_kernels.cpp), as
// prims and, for the unary ones, as torch-language ops too.
bool unary_with_out(const std::string& name) {
  auto unary = kUnaryAten.find(name);
  return unary != kUnaryAten.end() && unary->second == Aten::Out;
}
const std::set<std::string> kPrimsWithOut{
#define THUNDERCC_BINARY_OP(name, ...) #name,
#include "thundercc/langs/binary_ops.def"
    "where", "lerp", "convert_element_type"};

// The torch-language ops of binary_ops.def (torch column, "None" where there is none) and the
// hand-written ones with out= kernels.
const std::set<std::string> kTorchElementwiseWithOut = [] {
  std::set<std::string> ids{"torch.add", "torch.sub", "torch.div", "torch.nn.functional.gelu"};
  for (std::string_view torch : {
#define THUNDERCC_BINARY_OP(name, accepts, produces, torch, ...) #torch,
#define THUNDERCC_TORCH_BINARY_OP(name, in_place) #name,
#include "thundercc/langs/binary_ops.def"
       })
    if (torch != "None") ids.insert("torch." + std::string(torch));
  return ids;
}();
// Out= kernels that read an input more than once or out of place: never in place. The matrix
// products and 2-d convolutions write through oneDNN (src/runtime/matrix_products.cpp),
// embeddings through index_select.
const std::set<std::string> kTorchWithOut{"torch.softmax", "torch.log_softmax", "prims.matmul", "prims.linear",
                                          "torch.nn.functional.linear", "torch.matmul", "torch.bmm", "torch.nn.functional.conv2d",
                                          "prims.cat", "torch.cat", "torch.stack", "prims.embedding",
                                          "torch.nn.functional.embedding"};

// Kernels whose results are always newly allocated, never a view or an input itself.
const std::set<std::string> kFresh{
    "prims.sum", "prims.amax", "prims.amin", "prims.var", "prims.var_mean", "prims.argmax", "prims.argmin",
    "torch.sum", "torch.mean", "torch.amax", "torch.amin", "torch.var", "torch.std", "torch.var_mean", "torch.argmax",
    "torch.argmin", "torch.logsumexp", "torch.nn.functional.layer_norm", "torch.sigmoid", "torch.nn.functional.silu",
    "torch.nn.functional.relu", "torch.nn.functional.softplus", "torch.tril", "torch.triu", "torch.masked_fill",
    "torch.where", "torch.clamp"};

// Tags for memory planning (extend.h): elementwise out= kernels may also write in place.
std::vector<std::string> out_tags(const Symbol& sym) {
  bool unary = unary_with_out(sym.name) && (sym.is_prim || sym.id == "torch." + sym.name);
  if (unary || (sym.is_prim && kPrimsWithOut.count(sym.name)) || kTorchElementwiseWithOut.count(sym.id))
    return {kOutBuffer, kOutMayAliasInput};
  if (kTorchWithOut.count(sym.id)) return {kOutBuffer};
  if (kFresh.count(sym.id)) return {kFreshOutputs};
  return {};
}

// Calls ATen takes whole only in some forms; the rest run decomposed. A plan argument is one
// tensor, a sequence of tensors or a constant, so indexing with tensors among other keys
// (x[i, :, j]) runs as the decomposition's take.
bool no_tensor_among_keys(const Args& x) {
  const Value& key = x["key"];
  if (!key.is_sequence()) return true;
  return std::none_of(key.items().begin(), key.items().end(), [](const Value& k) { return k.is_tensor(); });
}

// ATen would draw the dropout between layers from its own generator, not the plan's seed; a packed
// sequence's batch sizes are a list here, where ATen takes a tensor: those run decomposed.
bool whole_in_aten(const Args& x) {
  return x.is_none("batch_sizes") && !(x.flag("train") && x.real("dropout") > 0 && x.integer("num_layers") > 1);
}

const std::map<std::string, Checker> kCheckers{
    {"torch.Tensor.__getitem__", no_tensor_among_keys},
    {"torch.setitem", no_tensor_among_keys},
    {"torch.lstm", whole_in_aten},
    {"torch.gru", whole_in_aten},
    {"torch.rnn_tanh", whole_in_aten},
    {"torch.rnn_relu", whole_in_aten}};

// Torch-language ops PyTorch has no function for (the functional forms of in-place ops).
const std::set<std::string> kThunderOnly{"torch.setitem", "torch.copy"};

// (module, name) a claimed symbol prints as.
std::pair<std::string, std::string> printed_name(const Symbol& sym) {
  if (sym.is_prim) return {torch_named_prim(sym.name) ? "torch" : "torchex", sym.name};
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
    // `del` is not an operation: the runner frees the slots it names.
    if (!sym->executor.empty() || sym->has_tag(ltorch::kRunsDecomposed) || sym->has_tag("IN_PLACE") || sym == &prims::python_del()) continue;
    if (!sym->is_prim && sym->module != "ltorch") continue;
    // A random torch-language op runs decomposed: its draws come from the random prims, whose
    // kernels draw from the plan's seed, so that every executor draws the same values.
    if (!sym->is_prim && sym->has_tag("RANDOM_OP")) continue;
    auto [module, name] = printed_name(*sym);
    // Operator ids name what they implement ("torch:prims.add", "torch:torch.add"): a prim and a
    // torch-language op may print alike but run different kernels.
    const Symbol& op = torch.register_operator(name, sym->signature.str(), sym->meta,
                                               {.module = module, .is_like = !sym->is_prim, .omit_default_kwargs = true,
                                                .id = "torch:" + sym->id, .tags = out_tags(*sym)});
    auto checker = kCheckers.find(sym->id);
    torch.register_implementation(sym->id, Implementation{.op = &op, .checker = checker == kCheckers.end() ? Checker() : checker->second});
    if (sym->is_prim || sym->has_tag(ltorch::kNoDecomposition)) prims_only.register_implementation(sym->id, Implementation{.op = &op});
  }
}

}  // namespace thundercc
