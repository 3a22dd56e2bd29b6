// Float32 matrix products on oneDNN's matmul primitive (libdnnl, the library LibTorch itself
// loads), reading the operands where they lie (plain or transposed strides) and writing the
// result where the caller says: a planned buffer, or a new tensor. Debian's LibTorch sends
// at::linear and at::matmul to the reference BLAS, and its own oneDNN path (at::mkldnn_linear)
// converts both operands to oneDNN's layout and the result back: on this machine, one thread, a
// [1024, 768] x [768, 3072] linear with bias takes 2.03 s on the BLAS, 100-180 ms through
// mkldnn_linear and 27 ms here. A primitive (about 0.4 ms to create) is made once per shape and
// layout.
//
// Where LibTorch loads an optimized BLAS (OpenBLAS, MKL, BLIS), neither library wins everywhere:
// on an AVX2 core OpenBLAS ran a GPT-2 backward's weight-gradient products (A transposed, M 256 or
// 1024, K 512) at about 85% of the FMA peak where oneDNN reached 45%, and oneDNN won the forward's
// linears (issue 42). So each product's shape, layout and thread count is timed once on both, and
// the faster kept, in the kernel cache for this CPU and BLAS library (as cuBLAS's heuristics and
// Inductor's autotuning choose per shape). Only at one thread: at two, OpenBLAS's threads and
// ATen's OpenMP pool took each other's cores, and a GPT-2 block's training step whose products
// were each timed faster on OpenBLAS alone ran 1.3x slower than on oneDNN throughout (AVX-512 EPYC,
// 2 cores). A reference BLAS, Debian's default, is 10-50x slower and is never timed
// (THUNDERCC_MATMUL=measure times it all the same). THUNDERCC_MATMUL=onednn or =blas takes one
// library for every product.
//
// Convolutions (conv2d, float32, any groups) run oneDNN's convolution primitive on channels-last
// activations, the weights reordered into the primitive's layout once per weight tensor and
// version (at::conv2d reorders them at every call), the result left channels-last (in the plan's
// buffer, restrided) for the next convolution: the elementwise regions between follow the layout
// (fused_kernels.cpp, executors/fuser/channels_last.h) and ATen's ops take it, so activations
// are converted only where an op needs NCHW. One thread, [4, 64, 56, 56] 3x3: 9.6 ms in
// at::conv2d, 8.3 ms here; mobilenet_v3_large's depthwise [4, 16, 112, 112]: 6.1 ms and 0.33 ms.
// (Converting from and to NCHW around each convolution, as an earlier version did, lost the gain.)
// A training step's forward asks for NCHW results (KernelCall::keeps_channels_last): ATen's
// convolution_backward and the batch-norm decompositions ran slower on channels-last tensors
// (resnet18's step 5% slower); there the primitive's input and result are reordered in scratch
// memory, and a 1x1 convolution is a matrix product per image on the NCHW tensors, its bias the
// product's post-op (reordering a few channels costs more than the product).
// THUNDERCC_CONV=aten keeps at::conv2d and at::max_pool2d, for comparison.
//
// max_pool2d (float32) runs oneDNN's pooling primitive on the tensor as it lies (NCHW or
// channels-last, the result in the same layout): ATen's
// NCHW kernel takes 22 to 33 ms on [4, 64, 112, 112] (resnet18's stem) where oneDNN takes about
// 1.5 ms, and the sum that finds a NaN or an infinity (which oneDNN would get wrong) 0.3 ms.
#include "runtime/matrix_products.h"

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <c10/util/intrusive_ptr.h>
#include <dnnl.hpp>
#include <dlfcn.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <optional>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

#include "thundercc/errors.h"
#include "thundercc/executors/fuser/kernel_library.h"
#include "thundercc/runtime/kernels.h"
#include "thundercc/support/cpu_features.h"
#include "thundercc/support/sha256.h"

#if DNNL_VERSION_MAJOR != 2
#error "matrix_products.cpp uses oneDNN 2.x's API (dnnl::matmul::desc), the version Debian's LibTorch loads"
#endif

namespace thundercc::runtime {
namespace {

enum class Library { onednn, blas };

const char* matmul_choice() { return std::getenv("THUNDERCC_MATMUL"); }

// THUNDERCC_MATMUL's library for every product, or none: measured per shape.
std::optional<Library> forced_library() {
  static const std::optional<Library> forced = []() -> std::optional<Library> {
    const char* choice = matmul_choice();
    if (choice && std::strcmp(choice, "blas") == 0) return Library::blas;
    if (choice && std::strcmp(choice, "onednn") == 0) return Library::onednn;
    return std::nullopt;
  }();
  return forced;
}

bool onednn_enabled() { return forced_library() != Library::blas; }

bool on_onednn(const at::Tensor& a, const at::Tensor& b) {
  return onednn_enabled() && a.device().is_cpu() && b.device().is_cpu() && a.scalar_type() == at::kFloat &&
         b.scalar_type() == at::kFloat && a.numel() > 0 && b.numel() > 0;
}

// A stack of matrices as oneDNN reads it: [batch..., rows, columns] (at least one batch
// dimension) with their strides. A batch dimension of one is broadcast by oneDNN against the other
// operand's.
struct Matrices {
  at::Tensor tensor;  // keeps the memory alive (a copy when the layout needed one)
  dnnl::memory::dims dims, strides;
};

// `t` ([..., rows, columns]) against a product's batch dimensions `batch`, read where it lies
// when oneDNN can (rows or columns contiguous, each stride covering the dimensions inside it),
// each batch dimension kept apart: the heads of an attention, a linear's output split and
// transposed ([B, T, H, D] read as [B, H, T, D]), need no copy, which merging B and H would.
// A contiguous copy otherwise, and where `t` is broadcast along some batch dimensions only.
Matrices matrices(const at::Tensor& t, at::IntArrayRef batch) {
  const int64_t rows = t.size(-2), columns = t.size(-1);
  const size_t rank = std::max<size_t>(batch.size(), 1) + 2;
  auto layout = [&](const at::Tensor& v) {
    Matrices m{v, dnnl::memory::dims(rank, 1), dnnl::memory::dims(rank, 0)};
    const size_t lead = rank - static_cast<size_t>(v.dim());
    for (size_t d = lead; d < rank; ++d) {
      m.dims[d] = v.size(static_cast<int64_t>(d - lead));
      m.strides[d] = v.stride(static_cast<int64_t>(d - lead));
    }
    // A dimension of one lies outside those within it (oneDNN checks every stride).
    for (size_t d = rank; d-- > 0;)
      if (m.dims[d] == 1) {
        int64_t span = 1;
        for (size_t inner = d + 1; inner < rank; ++inner) span = std::max(span, m.strides[inner] * m.dims[inner]);
        m.strides[d] = span;
      }
    return m;
  };
  auto readable = [&](const Matrices& m) {
    const int64_t r = m.strides[rank - 2], c = m.strides[rank - 1];
    if (!((c == 1 && r >= columns) || (r == 1 && c >= rows) || rows == 1 || columns == 1)) return false;
    // (a batch of [3, 1] rows 4 apart must lie 12 apart, though 9 would do)
    std::vector<std::pair<int64_t, int64_t>> by_stride;  // (stride, size) of dims longer than 1
    for (size_t d = 0; d < rank; ++d)
      if (m.dims[d] > 1) {
        if (m.strides[d] == 0) return false;  // an expanded dimension: oneDNN broadcasts only dims of one
        by_stride.emplace_back(m.strides[d], m.dims[d]);
      }
    std::sort(by_stride.begin(), by_stride.end());
    for (size_t k = 1; k < by_stride.size(); ++k)
      if (by_stride[k].first < by_stride[k - 1].first * by_stride[k - 1].second) return false;
    return true;
  };
  // Its own batch dimensions are the product's, or all of them one: read as they are.
  const bool single = t.numel() == rows * columns;
  at::Tensor v = t;
  if (!single && !t.sizes().slice(0, t.dim() - 2).equals(batch)) {
    std::vector<int64_t> sizes(batch.begin(), batch.end());
    sizes.insert(sizes.end(), {rows, columns});
    v = t.expand(sizes).contiguous();
  }
  Matrices m = layout(v);
  return readable(m) ? m : layout(v.contiguous());
}

bool convolutions_enabled() {
  static const bool enabled = [] {
    const char* choice = std::getenv("THUNDERCC_CONV");
    return !(choice && std::strcmp(choice, "aten") == 0);
  }();
  return enabled;
}

dnnl::engine& engine() {
  static dnnl::engine e(dnnl::engine::kind::cpu, 0);
  return e;
}

// A primitive with the scratch memory it runs with. Every cached primitive is made with a
// user-managed scratchpad: Debian's oneDNN is built without DNNL_ENABLE_CONCURRENT_EXEC, so the
// library's own scratchpad is one per primitive, and threads running a primitive at once (a Plan
// each, Embedding a plan) overwrote each other's partial results.
template <class Primitive>
struct Runnable {
  Primitive primitive;
  dnnl::memory::desc scratchpad;
  dnnl::memory::desc weights;  // a convolution's: the layout its weights are reordered into
};

template <class Primitive, class PrimitiveDesc>
Runnable<Primitive> runnable(const PrimitiveDesc& pd) {
  return {Primitive(pd), pd.scratchpad_desc(), {}};
}

dnnl::primitive_attr with_user_scratchpad(dnnl::primitive_attr attributes = {}) {
  attributes.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  return attributes;
}

// This thread's scratch memory for a primitive's scratchpad.
dnnl::memory scratchpad(const dnnl::memory::desc& desc) {
  thread_local at::Tensor buffer;
  const int64_t bytes = std::max<int64_t>(static_cast<int64_t>(desc.get_size()), 1);
  if (!buffer.defined() || buffer.numel() < bytes) buffer = at::empty({bytes}, at::kByte);
  return dnnl::memory(desc, engine(), buffer.data_ptr());
}

// Primitives by key (shape, layout, options) and thread count: a primitive keeps the threads it
// was made for. Keys that change every call would grow it without end: past a bound it starts
// over. A function's cache is made after engine(), so destroyed before it.
template <class Primitive>
class PrimitiveCache {
 public:
  template <class Make>
  Primitive get(std::vector<int64_t> key, Make&& make) {
    key.push_back(at::get_num_threads());
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = primitives_.find(key);
    if (it == primitives_.end()) {
      if (primitives_.size() >= kMaxPrimitives) primitives_.clear();
      it = primitives_.emplace(std::move(key), make()).first;
    }
    return it->second;  // a handle: executing it needs no lock
  }

 private:
  static constexpr size_t kMaxPrimitives = 1024;
  std::mutex mutex_;
  std::map<std::vector<int64_t>, Primitive> primitives_;
};

// out = src x weights (+ bias [..., 1, N]) (+ row_bias [..., M, 1], a post-op), out contiguous
// [batch..., M, N], the batch each dimension's larger of the operands'.
void onednn_matmul(const Matrices& src, const Matrices& weights, const at::Tensor* bias, at::Tensor& out,
                   const at::Tensor* row_bias = nullptr) {
  using dnnl::memory;
  const memory::dims& s = src.dims;
  const memory::dims& w = weights.dims;
  const size_t rank = s.size();
  memory::dims dst_dims(rank), dst_strides(rank), bias_dims(rank, 1), row_bias_dims(rank, 1);
  for (size_t d = 0; d + 2 < rank; ++d) dst_dims[d] = std::max(s[d], w[d]);
  dst_dims[rank - 2] = s[rank - 2];
  dst_dims[rank - 1] = w[rank - 1];
  for (size_t d = rank, stride = 1; d-- > 0;) {
    dst_strides[d] = static_cast<int64_t>(stride);
    stride *= static_cast<size_t>(dst_dims[d]);
  }
  bias_dims[rank - 1] = w[rank - 1];
  row_bias_dims[rank - 2] = s[rank - 2];
  auto f32 = memory::data_type::f32;
  memory::desc src_md(s, f32, src.strides), weights_md(w, f32, weights.strides), dst_md(dst_dims, f32, dst_strides);
  // A bias is one row (or column) of `length`, broadcast along every other dimension.
  auto vector_strides = [&](size_t along, int64_t length) {
    memory::dims strides(rank, length);
    strides[along] = 1;
    return strides;
  };
  memory::desc bias_md(bias_dims, f32, vector_strides(rank - 1, w[rank - 1]));
  memory::desc row_bias_md(row_bias_dims, f32, vector_strides(rank - 2, s[rank - 2]));

  dnnl::engine& cpu = engine();
  static PrimitiveCache<Runnable<dnnl::matmul>> primitives;
  std::vector<int64_t> key{static_cast<int64_t>(rank)};
  for (const auto* part : {&s, &src.strides, &w, &weights.strides}) key.insert(key.end(), part->begin(), part->end());
  key.push_back(bias != nullptr);
  key.push_back(row_bias != nullptr);
  Runnable<dnnl::matmul> product = primitives.get(std::move(key), [&] {
    auto desc = bias ? dnnl::matmul::desc(src_md, weights_md, bias_md, dst_md) : dnnl::matmul::desc(src_md, weights_md, dst_md);
    dnnl::primitive_attr attributes = with_user_scratchpad();
    if (row_bias) {
      dnnl::post_ops ops;
      ops.append_binary(dnnl::algorithm::binary_add, row_bias_md);
      attributes.set_post_ops(ops);
    }
    return runnable<dnnl::matmul>(dnnl::matmul::primitive_desc(desc, attributes, cpu));
  });
  dnnl::stream stream(cpu);
  std::unordered_map<int, memory> args{{DNNL_ARG_SRC, memory(src_md, cpu, src.tensor.data_ptr())},
                                       {DNNL_ARG_WEIGHTS, memory(weights_md, cpu, weights.tensor.data_ptr())},
                                       {DNNL_ARG_DST, memory(dst_md, cpu, out.data_ptr())}};
  if (bias) args.emplace(DNNL_ARG_BIAS, memory(bias_md, cpu, bias->data_ptr()));
  if (row_bias) args.emplace(DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1, memory(row_bias_md, cpu, row_bias->data_ptr()));
  args.emplace(DNNL_ARG_SCRATCHPAD, scratchpad(product.scratchpad));
  product.primitive.execute(stream, args);
  stream.wait();
}

// The result tensor: `out` when it is a contiguous float32 tensor of `sizes`, else a new one.
at::Tensor destination(const at::Tensor* out, at::IntArrayRef sizes, const at::Tensor& like) {
  if (out && out->sizes() == sizes && out->is_contiguous() && out->scalar_type() == at::kFloat) return *out;
  return at::empty(sizes, like.options().memory_format(at::MemoryFormat::Contiguous));
}

// `result` written into `out` when there is one (a layout oneDNN could not take).
at::Tensor into(const at::Tensor* out, at::Tensor result) {
  if (!out || result.is_same(*out)) return result;
  at::Tensor buffer = *out;
  return copy_into(buffer, result);
}

using Convolution = Runnable<dnnl::convolution_forward>;

// A weight tensor in a primitive's layout. The weak reference keeps the tensor's TensorImpl from
// being freed while the entry lives, so that no other tensor can take its address: an entry is
// current while its tensor is alive, at the same data and version (an in-place update bumps it).
struct PackedWeights {
  c10::weak_intrusive_ptr<c10::TensorImpl> tensor;
  const void* data;
  int64_t version;
  dnnl::memory packed;
};

// `weight` reordered into the primitive's layout.
dnnl::memory reordered(const at::Tensor& weight, const Convolution& conv, const dnnl::memory::desc& plain, dnnl::stream& stream) {
  at::Tensor contiguous = weight.contiguous();
  dnnl::memory source(plain, engine(), contiguous.data_ptr()), packed(conv.weights, engine());
  dnnl::reorder(source, packed).execute(stream, source, packed);
  stream.wait();
  return packed;
}

dnnl::memory packed_weights(const at::Tensor& weight, const Convolution& conv, const std::vector<int64_t>& key,
                            const dnnl::memory::desc& plain, dnnl::stream& stream) {
  static std::mutex mutex;
  static std::map<std::pair<const void*, std::vector<int64_t>>, PackedWeights> cache;
  // An inference tensor keeps no version: whoever made it under c10::InferenceMode may write it in
  // place unseen, so it is packed anew each time (the prologue's results keep versions).
  if (weight.is_inference()) return reordered(weight, conv, plain, stream);
  auto* impl = weight.unsafeGetTensorImpl();
  const int64_t version = static_cast<int64_t>(weight._version());
  std::lock_guard<std::mutex> lock(mutex);
  auto it = cache.find({impl, key});
  if (it != cache.end() && !it->second.tensor.expired() && it->second.data == weight.data_ptr() && it->second.version == version)
    return it->second.packed;
  if (it != cache.end()) cache.erase(it);
  // Entries of tensors that are gone (weights swapped, a prologue's earlier results) go first.
  for (auto e = cache.begin(); e != cache.end();) e = e->second.tensor.expired() ? cache.erase(e) : std::next(e);
  dnnl::memory packed = reordered(weight, conv, plain, stream);
  cache.emplace(std::make_pair(impl, key),
                PackedWeights{c10::weak_intrusive_ptr<c10::TensorImpl>(weight.getIntrusivePtr()), weight.data_ptr(), version, packed});
  return packed;
}

}  // namespace

at::Tensor fast_conv2d(const at::Tensor& a, const at::Tensor& weight, const c10::optional<at::Tensor>& bias, at::IntArrayRef stride,
                       at::IntArrayRef padding, at::IntArrayRef dilation, int64_t groups, const at::Tensor* out,
                       at::MemoryFormat layout, bool packed_once) {
  using dnnl::memory;
  using tag = memory::format_tag;
  const bool has_bias = bias && bias->defined();
  auto aten = [&] { return into(out, at::conv2d(a, weight, bias, stride, padding, dilation, groups)); };
  if (!convolutions_enabled() || a.dim() != 4 || weight.dim() != 4 || !on_onednn(a, weight) ||
      (has_bias && (bias->scalar_type() != at::kFloat || bias->numel() != weight.size(0))) || stride.size() != 2 ||
      padding.size() != 2 || dilation.size() != 2 || groups < 1 || a.size(1) != weight.size(1) * groups || weight.size(0) % groups != 0)
    return aten();  // and ATen's errors
  if (std::min({stride[0], stride[1], dilation[0], dilation[1]}) < 1 || std::min(padding[0], padding[1]) < 0) return aten();
  const int64_t n = a.size(0), c = a.size(1), h = a.size(2), w = a.size(3), k = weight.size(0);
  const int64_t oh = (h + 2 * padding[0] - dilation[0] * (weight.size(2) - 1) - 1) / stride[0] + 1;
  const int64_t ow = (w + 2 * padding[1] - dilation[1] * (weight.size(3) - 1) - 1) / stride[1] + 1;
  if (oh <= 0 || ow <= 0) return aten();
  // On one pixel with a 1x1 kernel (a squeeze-and-excitation block's), the images are the rows of one linear.
  if (h * w == 1 && weight.size(2) == 1 && weight.size(3) == 1 && groups == 1 && oh == 1 && ow == 1)
    return into(out, fast_linear(a.reshape({n, c}), weight.reshape({k, c}), bias).view({n, k, 1, 1}));
  // Where the caller wants NCHW, a 1x1 convolution of an NCHW input is a matrix product per image,
  // [K, C] x [C, H*W], read and written as NCHW, the bias added to each row as the product's
  // post-op: converting a few channels to and from channels-last costs more than the product.
  const bool pointwise = weight.size(2) == 1 && weight.size(3) == 1 && groups == 1 && stride[0] == 1 && stride[1] == 1 &&
                         padding[0] == 0 && padding[1] == 0;
  if (layout == at::MemoryFormat::Contiguous && pointwise && !a.is_contiguous(at::MemoryFormat::ChannelsLast)) {
    at::Tensor result = destination(out, {n, k, h, w}, a);
    at::Tensor rows = result.view({n, k, h * w}), b = has_bias ? bias->contiguous() : at::Tensor();
    onednn_matmul(matrices(weight.reshape({k, c}), {n}), matrices(a.reshape({n, c, h * w}), {n}), nullptr, rows, has_bias ? &b : nullptr);
    return into(out, result);
  }

  const auto f32 = memory::data_type::f32;
  memory::dims src_dims{n, c, h, w}, dst_dims{n, k, oh, ow};
  memory::dims weight_dims = groups == 1 ? memory::dims{k, c, weight.size(2), weight.size(3)}
                                         : memory::dims{groups, k / groups, c / groups, weight.size(2), weight.size(3)};
  memory::desc src_md(src_dims, f32, tag::nhwc), dst_md(dst_dims, f32, tag::nhwc), bias_md({k}, f32, tag::x);
  std::vector<int64_t> key(src_dims.begin(), src_dims.end());
  key.insert(key.end(), weight_dims.begin(), weight_dims.end());
  for (auto part : {stride, padding, dilation}) key.insert(key.end(), part.begin(), part.end());
  key.push_back(has_bias);

  dnnl::engine& cpu = engine();
  static PrimitiveCache<Convolution> primitives;
  Convolution conv = primitives.get(key, [&] {
    memory::desc any_weights(weight_dims, f32, tag::any);
    memory::dims strides{stride[0], stride[1]}, dilates{dilation[0] - 1, dilation[1] - 1}, pads{padding[0], padding[1]};
    const auto inference = dnnl::prop_kind::forward_inference;
    const auto direct = dnnl::algorithm::convolution_direct;
    auto desc = has_bias ? dnnl::convolution_forward::desc(inference, direct, src_md, any_weights, bias_md, dst_md, strides, dilates, pads, pads)
                         : dnnl::convolution_forward::desc(inference, direct, src_md, any_weights, dst_md, strides, dilates, pads, pads);
    dnnl::convolution_forward::primitive_desc pd(desc, with_user_scratchpad(), cpu);
    Convolution made = runnable<dnnl::convolution_forward>(pd);
    made.weights = pd.weights_desc();
    return made;
  });
  dnnl::stream stream(cpu);
  key.push_back(at::get_num_threads());
  const memory::desc plain_weights(weight_dims, f32, groups == 1 ? tag::oihw : tag::goihw);
  memory weights = packed_once ? packed_weights(weight, conv, key, plain_weights, stream) : reordered(weight, conv, plain_weights, stream);
  // The primitive reads and writes channels-last. An NCHW input is reordered into this thread's
  // scratch memory (reused: new memory at every call would fault its pages in each time).
  thread_local at::Tensor src_scratch, dst_scratch;
  auto scratch = [&](at::Tensor& t, int64_t elements) {
    if (!t.defined() || t.numel() < elements) t = at::empty({elements}, a.options());
    return t.data_ptr();
  };
  void* src = a.data_ptr();
  at::Tensor plain_input;
  if (!a.is_contiguous(at::MemoryFormat::ChannelsLast)) {
    plain_input = a.contiguous();
    src = scratch(src_scratch, a.numel());
    memory from({src_dims, f32, tag::nchw}, cpu, plain_input.data_ptr()), to(src_md, cpu, src);
    dnnl::reorder(from, to).execute(stream, from, to);
  }
  // The result channels-last in the plan's buffer, for the next convolution, the elementwise
  // regions between (fused_kernels.cpp) and ATen's ops, which all follow it; or, where the caller
  // wants NCHW, written in scratch memory and reordered into it.
  const bool into_out = out && out->sizes() == at::IntArrayRef(dst_dims) && out->is_contiguous() && out->scalar_type() == at::kFloat;
  at::Tensor result = !into_out ? at::empty(dst_dims, a.options().memory_format(layout)) : layout == at::MemoryFormat::ChannelsLast
                                                                                             ? out->as_strided(dst_dims, {oh * ow * k, 1, ow * k, k})
                                                                                             : *out;
  void* dst = layout == at::MemoryFormat::ChannelsLast ? result.data_ptr() : scratch(dst_scratch, result.numel());
  at::Tensor b = has_bias ? bias->contiguous() : at::Tensor();
  std::unordered_map<int, memory> args{{DNNL_ARG_SRC, memory(src_md, cpu, src)}, {DNNL_ARG_WEIGHTS, weights}, {DNNL_ARG_DST, memory(dst_md, cpu, dst)}};
  if (has_bias) args.emplace(DNNL_ARG_BIAS, memory(bias_md, cpu, b.data_ptr()));
  args.emplace(DNNL_ARG_SCRATCHPAD, scratchpad(conv.scratchpad));
  conv.primitive.execute(stream, args);
  if (layout != at::MemoryFormat::ChannelsLast) {
    memory from(dst_md, cpu, dst), to({dst_dims, f32, tag::nchw}, cpu, result.data_ptr());
    dnnl::reorder(from, to).execute(stream, from, to);
  }
  stream.wait();
  return out && !into_out ? into(out, result) : result;
}

at::Tensor fast_max_pool2d(const at::Tensor& a, at::IntArrayRef kernel, at::IntArrayRef stride, at::IntArrayRef padding,
                           at::IntArrayRef dilation, bool ceil_mode) {
  using dnnl::memory;
  auto aten = [&] { return at::max_pool2d(a, kernel, stride, padding, dilation, ceil_mode); };
  auto pair = [](at::IntArrayRef v, int64_t fallback) {
    return v.empty() ? std::array<int64_t, 2>{fallback, fallback} : v.size() == 1 ? std::array<int64_t, 2>{v[0], v[0]} : std::array<int64_t, 2>{v[0], v[1]};
  };
  if (!convolutions_enabled() || a.dim() != 4 || !a.device().is_cpu() || a.scalar_type() != at::kFloat || a.numel() == 0 ||
      kernel.empty() || kernel.size() > 2 || stride.size() > 2 || padding.size() > 2 || dilation.size() > 2)
    return aten();
  auto k = pair(kernel, 1);
  auto s = pair(stride, 0);
  if (stride.empty()) s = k;  // max_pool2d's default stride is the kernel size
  auto p = pair(padding, 0), d = pair(dilation, 1);
  memory::dims src_dims{a.size(0), a.size(1), a.size(2), a.size(3)}, dst_dims{a.size(0), a.size(1), 0, 0}, padding_r{0, 0};
  for (int i = 0; i < 2; ++i) {
    int64_t in = a.size(2 + i);
    if (k[i] < 1 || s[i] < 1 || d[i] < 1 || p[i] < 0 || 2 * p[i] > k[i]) return aten();  // ATen's errors
    // ATen's output size (pooling_output_shape), then the right padding that gives it.
    int64_t numerator = in + 2 * p[i] - d[i] * (k[i] - 1) - 1 + (ceil_mode ? s[i] - 1 : 0);
    if (numerator < 0) return aten();
    int64_t size = numerator / s[i] + 1;
    if (ceil_mode && (size - 1) * s[i] >= in + p[i]) --size;
    dst_dims[2 + i] = size;
    padding_r[i] = (size - 1) * s[i] + d[i] * (k[i] - 1) + 1 - in - p[i];
    if (padding_r[i] < 0) return aten();
  }
  const auto f32 = memory::data_type::f32;
  // In the layout it is given (channels-last after a convolution), the result in the same.
  const bool channels_last = is_channels_last(a);
  const auto layout = channels_last ? memory::format_tag::nhwc : memory::format_tag::nchw;
  memory::desc src_md(src_dims, f32, layout), dst_md(dst_dims, f32, layout);
  dnnl::engine& cpu = engine();
  std::vector<int64_t> key(src_dims.begin(), src_dims.end());
  for (const auto& part : {k, s, p, d}) key.insert(key.end(), part.begin(), part.end());
  key.push_back(ceil_mode);
  key.push_back(channels_last);
  static PrimitiveCache<Runnable<dnnl::pooling_v2_forward>> primitives;
  Runnable<dnnl::pooling_v2_forward> pooling = primitives.get(std::move(key), [&] {
    dnnl::pooling_v2_forward::desc desc(dnnl::prop_kind::forward_inference, dnnl::algorithm::pooling_max, src_md, dst_md,
                                        {s[0], s[1]}, {k[0], k[1]}, {d[0] - 1, d[1] - 1}, {p[0], p[1]}, padding_r);
    return runnable<dnnl::pooling_v2_forward>(dnnl::pooling_v2_forward::primitive_desc(desc, with_user_scratchpad(), cpu));
  });
  at::Tensor src = channels_last ? a : a.contiguous();
  // oneDNN's maximum drops NaN where eager's keeps it, and gives the lowest float, not -inf, for a
  // window of -inf: an input with a NaN or an infinity (its sum is not finite; so is one whose
  // sum overflows, which only costs the fallback) goes to ATen.
  if (!std::isfinite(src.sum().item<float>())) return aten();
  at::Tensor result = at::empty(dst_dims, a.options().memory_format(channels_last ? at::MemoryFormat::ChannelsLast : at::MemoryFormat::Contiguous));
  dnnl::stream stream(cpu);
  pooling.primitive.execute(stream, {{DNNL_ARG_SRC, memory(src_md, cpu, src.data_ptr())},
                                     {DNNL_ARG_DST, memory(dst_md, cpu, result.data_ptr())},
                                     {DNNL_ARG_SCRATCHPAD, scratchpad(pooling.scratchpad)}});
  stream.wait();
  return result;
}

namespace {

// The file of the BLAS LibTorch loaded (where sgemm_ is), links resolved: what the choices are for.
const std::string& blas_library() {
  static const std::string path = [] {
    Dl_info info{};
    void* sgemm = dlsym(RTLD_DEFAULT, "sgemm_");
    if (!sgemm || !dladdr(sgemm, &info) || !info.dli_fname) return std::string();
    std::error_code ignored;
    auto resolved = std::filesystem::weakly_canonical(info.dli_fname, ignored);
    return resolved.empty() ? std::string(info.dli_fname) : resolved.string();
  }();
  return path;
}

// Whether the BLAS is worth timing against oneDNN.
bool blas_is_a_contender() {
  static const bool contender = [] {
    if (const char* choice = matmul_choice(); choice && std::strcmp(choice, "measure") == 0) return true;
    std::string name = blas_library();
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
    return name.find("openblas") != std::string::npos || name.find("mkl") != std::string::npos ||
           name.find("blis") != std::string::npos;
  }();
  return contender;
}

// The CPU a choice was measured on: its model name and its features (a VM's model name can be
// the same, "AMD EPYC", on an AVX2 and an AVX-512 host).
const std::string& cpu_model() {
  static const std::string model = [] {
    std::string name = "unknown cpu";
    std::ifstream cpuinfo("/proc/cpuinfo");
    for (std::string line; std::getline(cpuinfo, line);)
      if (line.rfind("model name", 0) == 0) {
        name = line;
        break;
      }
    name += " with";
    for (const auto& feature : cpu_features()) name += " " + feature;
    return name;
  }();
  return model;
}

// The best of three timed runs (seconds), after one that warms up, of each: interleaved, so that
// the machine's load falls on both alike.
std::pair<double, double> best_times(const std::function<void()>& first, const std::function<void()>& second) {
  auto seconds = [](const std::function<void()>& run) {
    auto start = std::chrono::steady_clock::now();
    run();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  first();
  second();
  double a = std::numeric_limits<double>::infinity(), b = a;
  for (int round = 0; round < 3; ++round) {
    a = std::min(a, seconds(first));
    b = std::min(b, seconds(second));
  }
  return {a, b};
}

// The library for a product of this key (its operands' shapes and strides, its bias): forced, kept
// from an earlier measure (this process's, or the kernel cache's), or measured now by running
// `onednn` and `blas`. The BLAS must beat oneDNN by 10% to be taken: a near tie stays on oneDNN.
Library library_for(const std::vector<int64_t>& key, const std::function<void()>& onednn, const std::function<void()>& blas) {
  if (auto forced = forced_library()) return *forced;
  if (!blas_is_a_contender() || at::get_num_threads() != 1) return Library::onednn;
  // By key and thread count (1), as primitives are; made under the cache's lock, so that two
  // products are never timed at once (each would slow the other).
  static PrimitiveCache<Library> chosen;
  return chosen.get(key, [&] {
    // What the choice is for: this CPU, this BLAS, and the product (its operands' dims and
    // strides, its bias, the threads).
    std::string described = cpu_model() + "\n" + blas_library() + "\nproduct";
    for (int64_t k : key) described += " " + std::to_string(k);
    described += " 1";
    const std::string name = sha256_hex(described).substr(0, 32);
    // A record's first word is the library; the rest says what was measured, for whoever reads it.
    if (auto record = fuser::cached_record("matmul", name); record && (record->rfind("onednn ", 0) == 0 || record->rfind("blas ", 0) == 0))
      return record->rfind("blas ", 0) == 0 ? Library::blas : Library::onednn;
    auto [onednn_seconds, blas_seconds] = best_times(onednn, blas);
    Library library = blas_seconds < 0.9 * onednn_seconds ? Library::blas : Library::onednn;
    fuser::store_record("matmul", name, str(library == Library::blas ? "blas" : "onednn", " (best of 3: oneDNN ", onednn_seconds * 1e3,
                                            " ms, BLAS ", blas_seconds * 1e3, " ms)\n", described, "\n"));
    return library;
  });
}

std::vector<int64_t> product_key(const Matrices& src, const Matrices& weights, bool bias) {
  std::vector<int64_t> key;
  // A three-dimensional product's key is as it was before products kept their batch dimensions
  // apart: the choices in kernel caches stay found.
  if (src.dims.size() != 3) key.push_back(static_cast<int64_t>(src.dims.size()));
  for (const auto* part : {&src.dims, &src.strides, &weights.dims, &weights.strides}) key.insert(key.end(), part->begin(), part->end());
  key.push_back(bias);
  return key;
}

}  // namespace

at::Tensor fast_linear(const at::Tensor& a, const at::Tensor& weight, const c10::optional<at::Tensor>& bias, const at::Tensor* out) {
  bool has_bias = bias && bias->defined();
  auto on_blas = [&] {
    return into_buffer_or_make(out, [&](at::Tensor& o) { at::linear_out(o, a, weight, bias); }, [&] { return at::linear(a, weight, bias); });
  };
  if (a.dim() < 1 || weight.dim() != 2 || !on_onednn(a, weight) || (has_bias && bias->scalar_type() != at::kFloat)) return on_blas();
  int64_t k = a.size(-1), n = weight.size(0);
  auto sizes = a.sizes().vec();
  sizes.back() = n;
  at::Tensor result = destination(out, sizes, a);
  // a as one [M, K] matrix, the weight read transposed in place.
  Matrices src = matrices(a.reshape({-1, k}), {}), weights = matrices(weight.t(), {});
  at::Tensor b;
  if (has_bias) b = bias->dim() == 1 && bias->size(0) == n ? bias->contiguous() : bias->expand({n}).contiguous();
  auto on_onednn_library = [&] { onednn_matmul(src, weights, has_bias ? &b : nullptr, result); };
  if (library_for(product_key(src, weights, has_bias), on_onednn_library, [&] { at::linear(a, weight, bias); }) == Library::blas)
    return on_blas();
  on_onednn_library();
  return into(out, result);
}

at::Tensor fast_matmul(const at::Tensor& a, const at::Tensor& b, const at::Tensor* out) {
  auto on_blas = [&] { return into_buffer_or_make(out, [&](at::Tensor& o) { at::matmul_out(o, a, b); }, [&] { return at::matmul(a, b); }); };
  if (a.dim() < 2 || b.dim() < 2 || !on_onednn(a, b)) return on_blas();
  auto batch_a = a.sizes().slice(0, a.dim() - 2), batch_b = b.sizes().slice(0, b.dim() - 2);
  auto batch = at::infer_size(batch_a, batch_b);
  // oneDNN describes at most DNNL_MAX_NDIMS dimensions: a product of more batch dimensions goes to ATen.
  if (batch.size() + 2 > DNNL_MAX_NDIMS) return on_blas();
  auto sizes = batch;
  sizes.insert(sizes.end(), {a.size(-2), b.size(-1)});
  at::Tensor result = destination(out, sizes, a);
  Matrices left = matrices(a, batch), right = matrices(b, batch);
  auto on_onednn_library = [&] { onednn_matmul(left, right, nullptr, result); };
  if (library_for(product_key(left, right, false), on_onednn_library, [&] { at::matmul(a, b); }) == Library::blas) return on_blas();
  on_onednn_library();
  return into(out, result);
}

}  // namespace thundercc::runtime
