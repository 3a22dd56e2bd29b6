// Float32 matrix products on oneDNN, which LibTorch carries built in. Debian's LibTorch sends
// at::linear and at::matmul to the reference BLAS: on this machine, one thread, a [1024, 768] x
// [768, 3072] linear takes 2.03 s there and 0.080 s on oneDNN with both conversions, a batch of
// 48 [256, 64] x [64, 256] products 0.133 s and 0.018 s. THUNDERCC_MATMUL=blas keeps at::'s
// choice, for comparison (scripts/bench.sh times the training steps both ways).
#include "runtime/matrix_products.h"

#include <ATen/ATen.h>
#include <cstdlib>
#include <cstring>

namespace thundercc::runtime {
namespace {

bool onednn_enabled() {
  static const bool enabled = [] {
    const char* choice = std::getenv("THUNDERCC_MATMUL");
    return at::hasMKLDNN() && !(choice && std::strcmp(choice, "blas") == 0);
  }();
  return enabled;
}

bool on_onednn(const at::Tensor& a, const at::Tensor& b) {
  return onednn_enabled() && a.device().is_cpu() && b.device().is_cpu() && a.scalar_type() == at::kFloat &&
         b.scalar_type() == at::kFloat && a.numel() > 0 && b.numel() > 0;
}

// a [M, K] times weight [N, K] transposed, plus bias [N]: oneDNN's inner product.
at::Tensor inner_product(const at::Tensor& a, const at::Tensor& weight, const c10::optional<at::Tensor>& bias) {
  c10::optional<at::Tensor> b;
  if (bias && bias->defined()) b = bias->contiguous().to_mkldnn();
  return at::mkldnn_linear(a.contiguous().to_mkldnn(), weight.contiguous().to_mkldnn(), b).to_dense();
}

}  // namespace

at::Tensor fast_linear(const at::Tensor& a, const at::Tensor& weight, const c10::optional<at::Tensor>& bias) {
  if (a.dim() < 1 || weight.dim() != 2 || !on_onednn(a, weight) || (bias && bias->defined() && bias->scalar_type() != at::kFloat))
    return at::linear(a, weight, bias);
  if (a.dim() == 1) return inner_product(a.unsqueeze(0), weight, bias).squeeze(0);
  auto sizes = a.sizes().vec();
  sizes.back() = weight.size(0);
  return inner_product(a.reshape({-1, a.size(-1)}), weight, bias).reshape(sizes);
}

at::Tensor fast_matmul(const at::Tensor& a, const at::Tensor& b) {
  if (a.dim() < 2 || b.dim() < 2 || !on_onednn(a, b)) return at::matmul(a, b);
  // (..., M, K) x (K, N): one inner product with the transpose of b.
  if (b.dim() == 2) return fast_linear(a, b.t(), c10::nullopt);
  // Batched: the batch dimensions broadcast, then one inner product per matrix.
  auto batch_a = a.sizes().slice(0, a.dim() - 2).vec(), batch_b = b.sizes().slice(0, b.dim() - 2).vec();
  auto batch = at::infer_size(batch_a, batch_b);
  auto with_batch = [&](const at::Tensor& t) {
    auto sizes = batch;
    sizes.insert(sizes.end(), t.sizes().end() - 2, t.sizes().end());
    return t.expand(sizes).reshape({-1, t.size(-2), t.size(-1)});
  };
  at::Tensor a3 = with_batch(a), b3 = with_batch(b).transpose(1, 2);
  std::vector<at::Tensor> products;
  products.reserve(a3.size(0));
  for (int64_t i = 0; i < a3.size(0); ++i) products.push_back(inner_product(a3[i], b3[i], c10::nullopt));
  auto sizes = batch;
  sizes.insert(sizes.end(), {a.size(-2), b.size(-1)});
  return at::stack(products).reshape(sizes);
}

}  // namespace thundercc::runtime
