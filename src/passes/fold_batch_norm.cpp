// Batch-norm folding, for inference programs (as TorchScript's freezing does): a convolution whose
// result only an eval-mode batch norm reads becomes one convolution with the normalization folded
// into its weight and bias,
//
//   scale = weight / sqrt(running_var + eps)
//   conv(x, w, b) -> conv(x, w * scale[:, None, ...], (b - running_mean) * scale + bias)
//
// so that the activations are no longer read and written a second time. The module's tensors stay
// the plan's inputs (run --weights swaps them): the fold is a program of its own, the prologue,
// whose results the program takes as inputs, and which the runtime runs again only when the
// tensors it reads change (a fold per call would cost a pass over the weights, as much as it saves
// at small batches). So every tensor the fold reads must be a program input; and nothing may
// require grad: a training step normalizes with the batch's statistics.
#include <map>
#include <unordered_map>
#include <unordered_set>

#include "thundercc/langs/torch.h"
#include "thundercc/passes/passes.h"

namespace thundercc {
namespace {

using namespace ltorch;

bool is_convolution(const BoundSymbol& b) {
  const std::string& id = b.sym->id;
  return id == "torch.nn.functional.conv1d" || id == "torch.nn.functional.conv2d" || id == "torch.nn.functional.conv3d";
}

bool requires_grad(const Value& v) { return v.is_tensor() && v.as_tensor().requires_grad(); }

// Whether `b` is an eval-mode batch norm of `conv`'s result that the prologue can fold: its tensors
// and the convolution's are program inputs that need no grad.
bool folds_into(const BoundSymbol& b, const BoundSymbol& conv, const std::unordered_set<const void*>& inputs) {
  if (b.sym->id != "torch.nn.functional.batch_norm") return false;
  const Args bn = b.sym->bind(b.args, b.kwargs);
  const Args c = conv.sym->bind(conv.args, conv.kwargs);
  if (!bn["a"].is_tensor() || !bn.tensor("a").same(conv.output.as_tensor()) || bn.flag("training")) return false;
  if (!bn["running_mean"].is_tensor() || !bn["running_var"].is_tensor() || !bn["eps"].is_number()) return false;
  if (!c.tensor("a").dtype().is_inexact()) return false;
  auto foldable = [&](const Value& v) { return v.is_none() || (v.is_tensor() && !requires_grad(v) && inputs.count(proxy_key(v))); };
  for (const char* p : {"running_mean", "running_var", "weight", "bias"})
    if (!foldable(bn[p])) return false;
  return foldable(c["weight"]) && foldable(c["bias"]) && !requires_grad(conv.output);
}

// The folded weight and bias, recorded into the active trace (the prologue).
std::pair<Tensor, Tensor> fold(const BoundSymbol& conv, const BoundSymbol& norm) {
  const Args bn = norm.sym->bind(norm.args, norm.kwargs);
  const Args c = conv.sym->bind(conv.args, conv.kwargs);
  const Tensor& weight = c.tensor("weight");
  Tensor variance = bn.tensor("running_var") + bn.real("eps");
  Tensor scale = rsqrt(variance);
  if (bn["weight"].is_tensor()) scale = scale * bn.tensor("weight");
  Shape per_channel(weight.ndim(), 1);
  per_channel[0] = weight.shape()[0];
  Tensor scale_weight = reshape(scale, per_channel);
  Tensor new_weight = weight * scale_weight;
  Tensor shifted = c["bias"].is_tensor() ? c.tensor("bias") - bn.tensor("running_mean") : -bn.tensor("running_mean");
  Tensor new_bias = shifted * scale;
  if (bn["bias"].is_tensor()) new_bias = new_bias + bn.tensor("bias");
  return {new_weight, new_bias};
}

// The convolution on the folded weight and bias, recorded into the active trace (the program).
Value convolution_with(const BoundSymbol& conv, const Tensor& weight, const Tensor& bias) {
  Values values = conv.sym->bind(conv.args, conv.kwargs).values();
  values[static_cast<size_t>(conv.sym->signature.index_of("weight"))] = weight;
  values[static_cast<size_t>(conv.sym->signature.index_of("bias"))] = bias;
  auto [args, kwargs] = conv.sym->normalize(Args(*conv.sym, std::move(values)));
  return op(conv.sym->id, args, kwargs);
}

}  // namespace

WithPrologue fold_batch_norm(Trace program) {
  std::unordered_set<const void*> inputs;
  for (const auto& in : program.inputs) for_each_proxy(in.value, [&](const Value& v) { inputs.insert(proxy_key(v)); });
  // Each value's readers; a program output counts as one.
  std::unordered_map<const void*, int> readers;
  for (const auto& b : program.bound_symbols)
    for (const Value& v : b.input_proxies()) ++readers[proxy_key(v)];
  for_each_proxy(program.output, [&](const Value& v) { ++readers[proxy_key(v)]; });
  // The pairs that fold: the batch norm's statement for each convolution's.
  std::unordered_map<const void*, size_t> convolution_of;  // by its result
  std::map<size_t, size_t> fold_at;                        // batch norm -> convolution
  std::vector<bool> folded_away(program.bound_symbols.size(), false);
  for (size_t i = 0; i < program.bound_symbols.size(); ++i) {
    const BoundSymbol& b = program.bound_symbols[i];
    if (is_convolution(b) && b.output.is_tensor() && readers[proxy_key(b.output)] == 1) convolution_of[proxy_key(b.output)] = i;
    for (const Value& v : b.input_proxies())
      if (auto it = convolution_of.find(proxy_key(v));
          it != convolution_of.end() && folds_into(b, program.bound_symbols[it->second], inputs)) {
        fold_at[i] = it->second;
        folded_away[it->second] = true;
      }
  }
  if (fold_at.empty()) return {std::move(program), std::nullopt};

  // The prologue: the module's tensors in, the folded weights and biases out.
  Trace prologue = program.derive("Batch-norm folding: the prologue (run when the module's tensors change)");
  prologue.name = "prologue";
  prologue.inputs.clear();
  std::unordered_set<const void*> read;
  std::map<size_t, std::pair<Tensor, Tensor>> folds;  // by batch norm
  {
    TracingScope scope(prologue);
    for (const auto& [norm, conv] : fold_at) folds[norm] = fold(program.bound_symbols[conv], program.bound_symbols[norm]);
  }
  for (const auto& b : prologue.bound_symbols)
    for (const Value& v : b.input_proxies()) read.insert(proxy_key(v));
  for (const auto& in : program.inputs)
    if (in.value.is_tensor() && read.count(proxy_key(in.value))) prologue.inputs.push_back(in);
  Values results;
  Trace out = program.derive("Batch-norm folding (each eval-mode batch norm into the convolution before it)");
  for (const auto& [norm, weight_and_bias] : folds)
    for (const Tensor& t : {weight_and_bias.first, weight_and_bias.second}) {
      results.push_back(t);
      out.inputs.push_back({t.name(), t});
    }
  prologue.output = Value::tuple(std::move(results));

  TracingScope scope(out);
  ValueMap replaced;
  for (size_t i = 0; i < program.bound_symbols.size(); ++i) {
    if (folded_away[i]) continue;
    BoundSymbol& b = program.bound_symbols[i];
    replaced.apply(b);
    if (auto it = fold_at.find(i); it != fold_at.end()) {
      BoundSymbol& conv = program.bound_symbols[it->second];
      replaced.apply(conv);
      replaced.set(b.output, convolution_with(conv, folds[i].first, folds[i].second));
      continue;
    }
    out.bound_symbols.push_back(std::move(b));
  }
  out.output = replaced.apply(program.output);
  return {std::move(out), std::move(prologue)};
}

}  // namespace thundercc
