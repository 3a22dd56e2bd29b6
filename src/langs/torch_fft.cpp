// torch.fft: the discrete Fourier transforms as torch ops with a meta function and no
// decomposition (kNoDecomposition): ATen's pocketfft runs them; their gradients are autograd's
// (autodiff/grad_rules.cpp). The Hermitian transforms are the real ones of the conjugate under the
// other normalization; fftshift and ifftshift are rolls.
#include "langs/torch_registry.h"

namespace thundercc::ltorch {
namespace {

enum class Kind { ComplexToComplex, RealToComplex, ComplexToReal };

// The transformed dims and their lengths (s), as torch.fft reads dim and s: n-d transforms over
// every dim, or the last len(s); 1-d ones over `dim` with length n.
struct Plan {
  Dims dims;
  std::vector<std::optional<int64_t>> lengths;
};

Plan plan_of(const Args& x, const Tensor& a, bool one_d) {
  Plan p;
  if (one_d) {
    p.dims = {langs::canonicalize_dim(a.ndim(), x.integer("dim"))};
    p.lengths = {x.is_none("n") ? std::nullopt : std::optional<int64_t>(x.integer("n"))};
    return p;
  }
  std::optional<std::vector<int64_t>> s = x.is_none("s") ? std::nullopt : std::optional(x.ints("s"));
  if (!x.is_none("dim")) {
    p.dims = langs::canonicalize_dims(a.ndim(), x.ints("dim"));
  } else {
    int64_t count = s ? static_cast<int64_t>(s->size()) : a.ndim();
    check(count <= a.ndim(), "Got shape with more dimensions than the input");
    for (int64_t d = a.ndim() - count; d < a.ndim(); ++d) p.dims.push_back(d);
  }
  check(!s || s->size() == p.dims.size(), "When given, dim and shape arguments must have the same length");
  for (size_t i = 0; i < p.dims.size(); ++i) p.lengths.push_back(s ? std::optional<int64_t>((*s)[i]) : std::nullopt);
  return p;
}

Value transform(const Args& x, const char* name, Kind kind, bool one_d) {
  const Tensor& a = x.tensor("a");
  check(a.dtype().type != dtypes::float16.type && a.dtype().type != dtypes::bfloat16.type && a.dtype().type != dtypes::complex32.type,
        [&] { return str(name, ": Unsupported dtype ", a.dtype().torch_name()); });
  check(kind != Kind::RealToComplex || !a.dtype().is_complex(), [&] {
    return str(name, " expects a real input tensor, but got ", a.dtype().torch_name());
  });
  check(x.is_none("norm") || x["norm"].as_string() == "forward" || x["norm"].as_string() == "backward" || x["norm"].as_string() == "ortho",
        [&] { return str("Invalid normalization mode: \"", x["norm"].as_string(), "\""); });
  check(a.ndim() > 0 || !one_d, [&] { return str(name, ": Expected a tensor with at least one dimension"); });
  Plan p = plan_of(x, a, one_d);
  DType real = a.dtype().is_inexact() ? to_real_dtype(a.dtype().strong()) : dtypes::float32;
  Shape shape = a.shape();
  for (size_t i = 0; i < p.dims.size(); ++i) {
    int64_t d = p.dims[i];
    bool last = i + 1 == p.dims.size();
    if (p.lengths[i]) check(*p.lengths[i] >= 1, [&] { return str("Invalid number of data points (", *p.lengths[i], ") specified"); });
    if (kind == Kind::ComplexToReal && last) shape[d] = p.lengths[i].value_or(2 * (a.shape()[d] - 1));
    else if (kind == Kind::RealToComplex && last) shape[d] = p.lengths[i].value_or(a.shape()[d]) / 2 + 1;
    else shape[d] = p.lengths[i].value_or(a.shape()[d]);
    check(shape[d] >= 1, [&] { return str("Invalid number of data points (", shape[d], ") specified"); });
  }
  return Tensor::make(shape, kind == Kind::ComplexToReal ? real : to_complex_dtype(real), a.device());
}

// The zero frequency moved to the middle (fftshift) or back (ifftshift): a roll by half of each dim.
Tensor shift(const Args& x, bool inverse) {
  const Tensor& a = x.tensor("a");
  Dims dims;
  if (x.is_none("dim"))
    for (int64_t d = 0; d < a.ndim(); ++d) dims.push_back(d);
  else
    dims = langs::canonicalize_dims(a.ndim(), x["dim"].is_int_like() ? Dims{x.integer("dim")} : x.ints("dim"));
  Dims shifts;
  for (int64_t d : dims) shifts.push_back(inverse ? -(a.shape()[d] / 2) : a.shape()[d] / 2);
  return op("torch.roll", {a, Value::ints(shifts), Value::ints(dims)});
}

}  // namespace

void register_fft(SymbolTable& t) {
  const std::vector<std::string> aten{kNoDecomposition};
  struct Transform {
    const char* id;
    Kind kind;
    bool one_d;
    const char* signature;
  };
  const char* one = "a, /, n=None, dim=-1, norm=None";
  const char* two = "a, /, s=None, dim=(-2, -1), norm=None";
  const char* many = "a, /, s=None, dim=None, norm=None";
  for (Transform f : {Transform{"torch.fft.fft", Kind::ComplexToComplex, true, one}, Transform{"torch.fft.ifft", Kind::ComplexToComplex, true, one},
                      Transform{"torch.fft.rfft", Kind::RealToComplex, true, one}, Transform{"torch.fft.irfft", Kind::ComplexToReal, true, one},
                      Transform{"torch.fft.fft2", Kind::ComplexToComplex, false, two}, Transform{"torch.fft.ifft2", Kind::ComplexToComplex, false, two},
                      Transform{"torch.fft.rfft2", Kind::RealToComplex, false, two}, Transform{"torch.fft.irfft2", Kind::ComplexToReal, false, two},
                      Transform{"torch.fft.fftn", Kind::ComplexToComplex, false, many}, Transform{"torch.fft.ifftn", Kind::ComplexToComplex, false, many},
                      Transform{"torch.fft.rfftn", Kind::RealToComplex, false, many}, Transform{"torch.fft.irfftn", Kind::ComplexToReal, false, many}})
    define(t, {{f.id}, f.signature, [f](const Args& x) -> Value { return transform(x, f.id + 10, f.kind, f.one_d); }}, aten);
  const std::vector<std::string> decomposed{kRunsDecomposed};
  // hfft(x) = irfft(conj(x)) and ihfft(x) = conj(rfft(x)), each under the swapped normalization
  // (no scaling becomes 1/n and the other way round).
  struct Hermitian {
    const char* id;
    const char* real_id;
    const char* signature;
    const char* size;  // n or s
  };
  for (Hermitian h : {Hermitian{"torch.fft.hfft", "torch.fft.irfft", one, "n"}, Hermitian{"torch.fft.hfft2", "torch.fft.irfft2", two, "s"},
                      Hermitian{"torch.fft.hfftn", "torch.fft.irfftn", many, "s"}})
    define(t, {{h.id}, h.signature, [h](const Args& x) -> Value {
      Tensor conjugated = op("torch.conj_physical", {x["a"]});
      return op(h.real_id, {conjugated, x[h.size], x["dim"], langs::swapped_fft_norm(x["norm"])});
    }}, decomposed);
  for (Hermitian h : {Hermitian{"torch.fft.ihfft", "torch.fft.rfft", one, "n"}, Hermitian{"torch.fft.ihfft2", "torch.fft.rfft2", two, "s"},
                      Hermitian{"torch.fft.ihfftn", "torch.fft.rfftn", many, "s"}})
    define(t, {{h.id}, h.signature, [h](const Args& x) -> Value {
      Tensor spectrum = op(h.real_id, {x["a"], x[h.size], x["dim"], langs::swapped_fft_norm(x["norm"])});
      return op("torch.conj_physical", {spectrum});
    }}, decomposed);
  define(t, {{"torch.fft.fftshift"}, "a, /, dim=None", [](const Args& x) -> Value { return shift(x, false); }}, decomposed);
  define(t, {{"torch.fft.ifftshift"}, "a, /, dim=None", [](const Args& x) -> Value { return shift(x, true); }}, decomposed);
}

}  // namespace thundercc::ltorch
