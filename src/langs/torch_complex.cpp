// Complex tensors in the torch language: made by prims.complex from their two real parts (complex,
// polar, view_as_complex), read back by prims.real and prims.imag (real, imag, view_as_real, conj,
// angle), and the short-time Fourier transform and its inverse. The transforms compute in real
// arithmetic, a DFT being two real matrix products against a cosine and a sine basis, so the
// matmul kernels, the fuser and the real ops' grad rules serve them, and only the prims at the
// boundary need rules that hold for complex values.
#include <cmath>
#include <numbers>

#include "langs/torch_registry.h"

namespace thundercc::ltorch {
namespace {

Tensor real_part(const Tensor& z) { return z.dtype().is_complex() ? prims::real(z) : z; }
Tensor imag_part(const Tensor& z) { return prims::imag(z); }
// (Each call that records is a statement of its own: C++ leaves the order of arguments open.)
Tensor conjugate(const Tensor& z) {
  if (!z.dtype().is_complex()) return z;
  Tensor real = prims::real(z);
  return prims::complex(real, neg(prims::imag(z)));
}

// torch.complex's and polar's operands: two float32 or float64 tensors of one dtype, broadcast.
std::pair<Tensor, Tensor> real_pair(const Tensor& a, const Tensor& b, const char* name) {
  check(a.dtype() == b.dtype(), [&] {
    return str(name, ": expected the two tensors to have the same dtype, but got ", a.dtype().full_name(), " and ", b.dtype().full_name());
  });
  check(a.dtype().is_float() && !a.dtype().is_low_precision(), [&] {
    return str(name, ": expected float or double tensors, but got ", a.dtype().full_name());
  });
  auto both = core::maybe_broadcast({a, b});
  return {both[0].as_tensor(), both[1].as_tensor()};
}

Tensor make_complex(const Tensor& real, const Tensor& imag) { return op("torch.complex", {real, imag}); }

// The cosine and sine of 2 pi k n / n_fft for n < rows and k < columns, computed in float64 from
// the exact integer k n mod n_fft and then converted to `dtype`: the real DFT's bases.
std::pair<Tensor, Tensor> dft_bases(int64_t n_fft, int64_t rows, int64_t columns, Device device, DType dtype) {
  Tensor n = unsqueeze(prims::iota(rows, 0, 1, device, dtypes::int64), 1);
  Tensor k = prims::iota(columns, 0, 1, device, dtypes::int64);
  Tensor turns = op("torch.remainder", {mul(n, k), n_fft});
  Tensor angle = mul(to(turns, dtypes::float64), 2.0 * std::numbers::pi / static_cast<double>(n_fft));
  return {to(op("torch.cos", {angle}), dtype), to(op("torch.sin", {angle}), dtype)};
}

// The frames of a batch of signals (B, L): (B, frames, n_fft), frame t starting at t * hop. When
// hop divides n_fft a frame is n_fft / hop consecutive chunks of hop samples, so the frames are a
// concatenation of that many shifted views of the chunks (whose gradient is as cheap); otherwise
// prims.unfold.
Tensor frames_of(const Tensor& signal, int64_t n_fft, int64_t hop) {
  int64_t batch = signal.shape()[0], frames = 1 + (signal.shape()[1] - n_fft) / hop;
  if (n_fft % hop != 0) return prims::unfold(signal, 1, n_fft, hop);
  int64_t chunks_per_frame = n_fft / hop, chunks = frames + chunks_per_frame - 1;
  Tensor chunked = reshape(narrow(signal, 1, 0, chunks * hop), {batch, chunks, hop});
  std::vector<Tensor> parts;
  for (int64_t r = 0; r < chunks_per_frame; ++r) parts.push_back(narrow(chunked, 1, r, frames));
  return chunks_per_frame == 1 ? parts[0] : cat(parts, 2);
}

// The transpose of frames_of: frames (B, T, n) summed into one signal (B, n + hop (T - 1)), frame
// t added at t * hop. Each frame is cut into ceil(n / hop) chunks of hop samples; the chunks of
// one index within their frames, shifted by that index, are summed.
Tensor overlap_add(const Tensor& frames, int64_t hop) {
  int64_t batch = frames.shape()[0], count = frames.shape()[1], n = frames.shape()[2];
  int64_t chunks_per_frame = (n + hop - 1) / hop, chunks = count + chunks_per_frame - 1;
  Tensor padded = chunks_per_frame * hop == n ? frames : op("torch.nn.functional.pad", {frames, Value::ints({0, chunks_per_frame * hop - n})});
  Tensor chunked = reshape(padded, {batch, count, chunks_per_frame, hop});
  Tensor total;
  for (int64_t r = 0; r < chunks_per_frame; ++r) {
    Tensor chunk = squeeze(narrow(chunked, 2, r, 1), {2});
    Tensor shifted = op("torch.nn.functional.pad", {chunk, Value::ints({0, 0, r, chunks_per_frame - 1 - r})});
    total = total ? add(total, shifted) : shifted;
  }
  return narrow(reshape(total, {batch, chunks * hop}), 1, 0, n + hop * (count - 1));
}

// The window zero-padded on both sides to n_fft samples (PyTorch centers a shorter window).
Tensor centered_window(const Tensor& window, int64_t n_fft) {
  if (window.shape()[0] == n_fft) return window;
  int64_t left = (n_fft - window.shape()[0]) / 2;
  return op("torch.nn.functional.pad", {window, Value::ints({left, n_fft - window.shape()[0] - left})});
}

struct FrameParameters {
  int64_t n_fft, hop, win_length;
  std::optional<Tensor> window;  // centered to n_fft samples
};

FrameParameters frame_parameters(const Args& x, const char* name) {
  FrameParameters p{x.integer("n_fft"), 0, 0, std::nullopt};
  p.hop = x.is_none("hop_length") ? p.n_fft / 4 : x.integer("hop_length");
  p.win_length = x.is_none("win_length") ? p.n_fft : x.integer("win_length");
  check(p.hop > 0, [&] { return str(name, ": expected hop_length > 0, but got hop_length=", p.hop); });
  check(p.win_length > 0 && p.win_length <= p.n_fft, [&] {
    return str(name, ": expected 0 < win_length <= n_fft, but got win_length=", p.win_length);
  });
  if (!x.is_none("window")) {
    const Tensor& w = x.tensor("window");
    check(w.ndim() == 1 && w.shape()[0] == p.win_length, [&] {
      return str(name, ": expected a 1D window tensor of size equal to win_length=", p.win_length, ", but got window with size ", shape_repr(w.shape()));
    });
    check(!w.dtype().is_complex(), [&] { return str(name, ": complex windows are not supported"); }, "NotImplementedError");
    p.window = centered_window(w, p.n_fft);
  } else if (p.win_length < p.n_fft) {
    p.window = centered_window(prims::full({p.win_length}, 1.0, x["input"].as_tensor().device(), to_real_dtype(x["input"].as_tensor().dtype())), p.n_fft);
  }
  return p;
}

void check_fft_dtype(DType d, const char* name) {
  check(d == dtypes::float32 || d == dtypes::float64 || d == dtypes::complex64 || d == dtypes::complex128, [&] {
    return str(name, ": expected a float, double, complex float or complex double tensor, but got ", d.full_name());
  });
}

// torch.stft (PyTorch 1.13): the DFT of each windowed frame, (B?, frequencies, frames).
Value stft(const Args& x) {
  Tensor a = x.tensor("input");
  check_fft_dtype(a.dtype(), "stft");
  check(a.ndim() == 1 || a.ndim() == 2, [&] { return str("stft: expected a 1D or 2D tensor, but got ", a.ndim(), "D tensor"); });
  bool batched = a.ndim() == 2;
  Tensor signal = batched ? a : unsqueeze(a, 0);
  FrameParameters p = frame_parameters(x, "stft");
  if (x.flag("center")) {
    int64_t half = p.n_fft / 2;
    signal = op("torch.nn.functional.pad", {signal, Value::ints({half, half}), x["pad_mode"]});
  }
  int64_t length = signal.shape()[1];
  check(p.n_fft > 0 && p.n_fft <= length, [&] { return str("stft: expected 0 < n_fft < ", length, ", but got n_fft=", p.n_fft); });
  Tensor frames = frames_of(signal, p.n_fft, p.hop);
  if (p.window) frames = mul(frames, *p.window);
  bool onesided = x.is_none("onesided") ? !a.dtype().is_complex() : x.flag("onesided");
  check(!(onesided && a.dtype().is_complex()), "Cannot have onesided output if window or input is complex");
  DType real = to_real_dtype(a.dtype());
  auto [cosine, sine] = dft_bases(p.n_fft, p.n_fft, onesided ? p.n_fft / 2 + 1 : p.n_fft, a.device(), real);
  // (x_re + i x_im)(cos - i sin): real part x_re cos + x_im sin, imaginary part x_im cos - x_re sin.
  Tensor frames_re = real_part(frames);
  Tensor re = matmul(frames_re, cosine);
  Tensor im = neg(matmul(frames_re, sine));
  if (a.dtype().is_complex()) {
    Tensor frames_im = imag_part(frames);
    re = add(re, matmul(frames_im, sine));
    im = add(im, matmul(frames_im, cosine));
  }
  if (x.flag("normalized")) {
    const double ortho = 1.0 / std::sqrt(static_cast<double>(p.n_fft));
    re = mul(re, ortho);
    im = mul(im, ortho);
  }
  Tensor re_by_frequency = transpose(re, 1, 2);
  Tensor spectrum = make_complex(re_by_frequency, transpose(im, 1, 2));
  if (!batched) spectrum = squeeze(spectrum, {0});
  // PyTorch 1.13 still returns a real input's spectrum as view_as_real's pairs where return_complex is not given.
  bool return_complex = x.is_none("return_complex") ? a.dtype().is_complex() : x.flag("return_complex");
  return return_complex ? spectrum : op("torch.view_as_real", {spectrum});
}

// torch.istft (PyTorch 1.13): each frame's inverse real DFT, windowed, overlap-added and divided
// by the overlap-added squared window. (PyTorch also fails where that envelope is nearly zero, a
// check of values that no static trace can make: there the result is inf or nan.)
Value istft(const Args& x) {
  Tensor z = x.tensor("input");
  check(z.dtype().is_complex(), "istft requires a complex-valued input tensor");
  check(z.ndim() == 2 || z.ndim() == 3, [&] { return str("istft: expected a tensor with 2 or 3 dimensions of complex values, but got ", z.ndim(), "D"); });
  check(!x.flag("return_complex"), "istft: return_complex=True is not supported", "NotImplementedError");
  bool batched = z.ndim() == 3;
  Tensor spectrum = batched ? z : unsqueeze(z, 0);
  FrameParameters p = frame_parameters(x, "istft");
  int64_t bins = spectrum.shape()[1], count = spectrum.shape()[2], half = p.n_fft / 2 + 1;
  bool onesided = x.is_none("onesided") ? bins != p.n_fft : x.flag("onesided");
  check(bins == (onesided ? half : p.n_fft), [&] {
    return onesided ? str("istft: expected the frequency dimension (3rd to the last) of the input tensor to match n_fft / 2 + 1 when onesided=True, but got ", bins)
                    : str("istft: expected the frequency dimension (3rd to the last) of the input tensor to match n_fft when onesided=False, but got ", bins);
  });
  check(count > 0, "istft: expected at least one frame");
  // A real signal's spectrum is Hermitian: the bins past n_fft / 2 mirror the first half, whose
  // bins other than 0 and n_fft / 2 count twice; those two bins' imaginary parts are ignored.
  Tensor bins_used = transpose(narrow(spectrum, 1, 0, half), 1, 2);
  DType real = to_real_dtype(z.dtype());
  Device device = z.device();
  double scale = x.flag("normalized") ? 1.0 / std::sqrt(static_cast<double>(p.n_fft)) : 1.0 / static_cast<double>(p.n_fft);
  Tensor k = unsqueeze(prims::iota(half, 0, 1, device, dtypes::int64), 1);
  Tensor edge = op("torch.logical_or", {eq(k, 0), eq(k, p.n_fft % 2 == 0 ? p.n_fft / 2 : -1)});
  Tensor edge_bin = to(edge, real);
  Tensor real_weight = mul(sub(2.0, edge_bin), scale);
  Tensor imag_weight = mul(sub(1.0, edge_bin), -2.0 * scale);
  auto [cosine, sine] = dft_bases(p.n_fft, half, p.n_fft, device, real);
  Tensor real_bins = real_part(bins_used), real_basis = mul(cosine, real_weight);
  Tensor imag_bins = imag_part(bins_used), imag_basis = mul(sine, imag_weight);
  Tensor from_real = matmul(real_bins, real_basis);
  Tensor frames = add(from_real, matmul(imag_bins, imag_basis));
  Tensor window = p.window ? *p.window : prims::full({p.n_fft}, 1.0, device, real);
  if (p.window) frames = mul(frames, window);
  Tensor signal = overlap_add(frames, p.hop);
  Tensor envelope = overlap_add(expand(unsqueeze(unsqueeze(mul(window, window), 0), 0), {1, count, p.n_fft}), p.hop);
  int64_t produced = p.n_fft + p.hop * (count - 1);
  int64_t start = x.flag("center") ? p.n_fft / 2 : 0;
  int64_t end = !x.is_none("length") ? start + x.integer("length") : (x.flag("center") ? produced - p.n_fft / 2 : produced);
  int64_t kept = std::max<int64_t>(std::min(end, produced) - start, 0);
  Tensor kept_signal = narrow(signal, 1, start, kept);
  Tensor out = true_divide(kept_signal, narrow(envelope, 1, start, kept));
  if (end > produced) out = op("torch.nn.functional.pad", {out, Value::ints({0, end - produced})});
  return batched ? out : squeeze(out, {0});
}

}  // namespace

void register_complex(SymbolTable& t) {
  define(t, {{"torch.complex"}, "real, imag", [](const Args& x) -> Value {
    auto [real, imag] = real_pair(x.tensor("real"), x.tensor("imag"), "complex");
    return prims::complex(real, imag);
  }});
  define(t, {{"torch.polar"}, "abs, angle", [](const Args& x) -> Value {
    auto [magnitude, angle] = real_pair(x.tensor("abs"), x.tensor("angle"), "polar");
    Tensor real = mul(magnitude, op("torch.cos", {angle}));
    return make_complex(real, mul(magnitude, op("torch.sin", {angle})));
  }});
  define(t, {{"torch.real", "torch.Tensor.real"}, "a, /", [](const Args& x) -> Value { return real_part(x.tensor("a")); }});
  define(t, {{"torch.imag", "torch.Tensor.imag"}, "a, /", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    check(a.dtype().is_complex(), "imag is not implemented for tensors with non-complex dtypes.");
    return imag_part(a);
  }});
  define(t, {{"torch.view_as_real"}, "a, /", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    check(a.dtype().is_complex(), "view_as_real is only supported for complex tensors");
    return op("torch.stack", {Value::list({real_part(a), imag_part(a)}), -1});
  }});
  define(t, {{"torch.view_as_complex"}, "a, /", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    check(a.dtype() == dtypes::float32 || a.dtype() == dtypes::float64, [&] {
      return str("view_as_complex is only supported for float and double tensors, but got a tensor of scalar type: ", a.dtype().full_name());
    });
    check(a.ndim() > 0 && a.shape().back() == 2, "Tensor must have a last dimension of size 2");
    Tensor real = op("torch.select", {a, -1, 0});
    return make_complex(real, op("torch.select", {a, -1, 1}));
  }});
  // Functionally a conjugate is a value of its own (PyTorch's conj is a lazily conjugated view).
  define(t, {{"torch.conj_physical", "torch.Tensor.conj_physical", "torch.conj", "torch.Tensor.conj"}, "a, /",
             [](const Args& x) -> Value { return conjugate(x.tensor("a")); }});
  define(t, {{"torch.resolve_conj", "torch.Tensor.resolve_conj", "torch.resolve_neg", "torch.Tensor.resolve_neg"}, "a, /",
             [](const Args& x) -> Value { return x.tensor("a"); }}, {kRunsDecomposed});
  // A complex number's argument; a real number's is pi below zero, 0 otherwise (nan stays nan).
  define(t, {{"torch.angle", "torch.Tensor.angle"}, "a, /", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    if (a.dtype().is_complex()) return op("torch.atan2", {imag_part(a), real_part(a)});
    DType d = a.dtype().is_float() ? a.dtype() : dtypes::float32;
    Tensor value = to(a, d);
    Tensor angle = mul(to(lt(value, int64_t{0}), d), std::numbers::pi);
    return where(op("torch.isnan", {value}), value, angle);
  }});
  define(t, {{"torch.stft", "torch.Tensor.stft"},
             "input, n_fft, hop_length=None, win_length=None, window=None, center=True, pad_mode='reflect', normalized=False, "
             "onesided=None, return_complex=None",
             stft});
  define(t, {{"torch.istft", "torch.Tensor.istft"},
             "input, n_fft, hop_length=None, win_length=None, window=None, center=True, normalized=False, onesided=None, "
             "length=None, return_complex=False",
             istft});
}

}  // namespace thundercc::ltorch
