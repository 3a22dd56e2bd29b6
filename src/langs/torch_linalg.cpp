// Linear algebra beyond matmul. Compositions of matmul, reductions and shape ops (vdot, cross, cov, corrcoef; the shape helpers diff, meshgrid, cartesian_prod,
// block_diag, sum_to_size; matrix norms, matrix_power) run as their decompositions. The
// factorizations and solvers (inv, det, slogdet, solve, cholesky, qr, svd, eigh, pinv) have no
// decomposition into prims: a meta function here, LAPACK through ATen's kernel at run time
// (tagged kNoDecomposition), and grad rules in autodiff/ where autograd has them.
#include <cmath>
#include <limits>

#include "langs/torch_registry.h"
#include "thundercc/ir/pyliteral.h"
#include "thundercc/ir/trace.h"

namespace thundercc::ltorch {
namespace {

Tensor stack(const std::vector<Tensor>& tensors, int64_t dim) {
  return op("torch.stack", {Value::list(Values(tensors.begin(), tensors.end())), dim});
}

// The vectors' cross product along dim: a[i+1] b[i+2] - a[i+2] b[i+1].
Tensor cross(const Tensor& a, const Tensor& b, int64_t dim) {
  auto rolled = [&](const Tensor& t, int64_t shift) { return op("torch.roll", {t, shift, dim}); };
  Tensor a1 = rolled(a, -1), b2 = rolled(b, -2), a2 = rolled(a, -2), b1 = rolled(b, -1);
  Tensor forward = a1 * b2;
  return forward - a2 * b1;
}

Tensor covariance(const Tensor& input, int64_t correction) {
  check(input.ndim() <= 2, [&] { return str("cov(): expected input to have two or fewer dimensions but got an input with ", input.ndim(), " dimensions"); });
  Tensor observations = input.ndim() < 2 ? reshape(input, {1, input.numel()}) : input;
  if (!observations.dtype().is_inexact()) observations = to(observations, dtypes::float32);
  int64_t n = observations.shape()[1];
  Tensor centered = observations - mean(observations, Dims{1}, true);
  Tensor conjugated = observations.dtype().is_complex() ? op("torch.conj_physical", {centered}) : centered;
  Tensor products = matmul(centered, transpose(conjugated, 0, 1));
  Tensor c = products / static_cast<double>(std::max<int64_t>(n - correction, 0));
  // One variable's covariance is a number (PyTorch squeezes the 1 x 1 result).
  return c.numel() == 1 ? reshape(c, {}) : c;
}

// A float or complex tensor of batches of matrices (square ones when `square`).
void check_matrices(const char* name, const Tensor& a, bool square) {
  check(a.ndim() >= 2, [&] { return str(name, ": The input tensor A must have at least 2 dimensions."); });
  check(a.dtype().is_inexact(), [&] { return str(name, ": Expected a floating point or complex tensor as input. Got ", a.dtype().torch_name()); });
  int64_t m = a.shape()[a.ndim() - 2], n = a.shape()[a.ndim() - 1];
  check(!square || m == n, [&] { return str(name, ": A must be batches of square matrices, but they are ", m, " by ", n, " matrices"); });
}

Shape batch_of(const Tensor& a) { return Shape(a.shape().begin(), a.shape().end() - 2); }

Shape with(Shape shape, std::initializer_list<int64_t> tail) {
  shape.insert(shape.end(), tail);
  return shape;
}

Tensor like(const Tensor& a, const Shape& shape, DType dtype) { return Tensor::make(shape, dtype, a.device()); }

// An output autograd does not differentiate (a permutation, lstsq's residuals and rank): no gradient flows through it.
Tensor constant_like(const Tensor& a, const Shape& shape, DType dtype) {
  tracing::GradScope constant({});  // as if no input required grad
  return like(a, shape, dtype);
}

// The int32 status of each matrix of a batch (LAPACK's info) that the *_ex ops return.
Tensor info_of(const Tensor& a) { return like(a, batch_of(a), dtypes::int32); }

std::string matrix_repr(const Tensor& t) { return str(t.shape()[t.ndim() - 2], "x", t.shape().back()); }

// The result of a solver of A X = B (left) or X A = B for matrices B: the batches broadcast.
Shape solution_shape(const Tensor& a, const Tensor& b) {
  return with(langs::broadcast_shapes({batch_of(a), batch_of(b)}), {b.shape()[b.ndim() - 2], b.shape().back()});
}

// linalg.solve's checks and result shape (B a matrix or a vector, the batches broadcast).
Tensor solve_meta(const Args& x) {
  const Tensor& a = x.tensor("a");
  const Tensor& b = x.tensor("b");
  check_matrices("linalg.solve", a, true);
  check(a.dtype().strong() == b.dtype().strong(), [&] { return str("linalg.solve: Expected A and B to have the same dtype, but found A of type ", a.dtype().torch_name(), " and B of type ", b.dtype().torch_name(), " instead"); });
  int64_t n = a.shape().back();
  bool vector = b.ndim() == 1 || (b.ndim() == a.ndim() - 1 && Shape(b.shape().begin(), b.shape().end() - 1) == batch_of(a));
  check(x.flag("left") || !vector, "linalg.solve: Vector broadcasting of the left hand side is not supported for left=False.");
  check(b.shape()[b.ndim() - (vector ? 1 : (x.flag("left") ? 2 : 1))] == n, [&] {
    return str("linalg.solve: Incompatible shapes of A and B for the equation ", x.flag("left") ? "AX = B" : "XA = B", " (", shape_repr(a.shape()), " and ", shape_repr(b.shape()), ")");
  });
  Shape b_batch = vector ? Shape(b.shape().begin(), b.shape().end() - 1) : batch_of(b);
  Shape out = langs::broadcast_shapes({batch_of(a), b_batch});
  if (vector) out.push_back(n);
  else out.insert(out.end(), b.shape().end() - 2, b.shape().end());
  return like(a, out, a.dtype().strong());
}

// The checks of a triangular or factored solve of A X = B (left) or X A = B: B a batch of
// matrices, A square, one dtype.
void check_solve(const char* name, const Tensor& a, const Tensor& b, bool left, const char* a_name = "A") {
  check(b.ndim() >= 2, [&] { return str(name, ": The input tensor B must have at least 2 dimensions."); });
  check(a.ndim() >= 2, [&] { return str(name, ": The input tensor ", a_name, " must have at least 2 dimensions."); });
  check(a.shape().back() == a.shape()[a.ndim() - 2], [&] { return str(name, ": A must be batches of square matrices, but they are ", a.shape()[a.ndim() - 2], " by ", a.shape().back(), " matrices"); });
  check(a.dtype().strong() == b.dtype().strong(), [&] { return str(name, ": Expected ", a_name, " and B to have the same dtype, but found ", a_name, " of type ", a.dtype().torch_name(), " and B of type ", b.dtype().torch_name(), " instead"); });
  int64_t n = a.shape().back();
  check(b.shape()[b.ndim() - (left ? 2 : 1)] == n, [&] {
    return str(name, ": Incompatible shapes of A and B for the equation ", left ? "AX = B" : "XA = B", " (", matrix_repr(a), " and ", matrix_repr(b), ")");
  });
}

// The pivots of an LU or LDL factorization: int32, one per row of the matrix.
void check_pivots(const char* name, const Tensor& a, const Tensor& pivots) {
  check(pivots.dtype() == dtypes::int32, [&] { return str(name, ": pivots should be a Tensor of scalar type torch.int32"); });
  check(pivots.ndim() >= 1 && pivots.shape().back() == a.shape().back(), [&] { return str(name, ": Number of pivots per batch should be same as the dimension of the matrix"); });
}

Tensor adjoint(const Tensor& a) { return op("torch.adjoint", {a}); }

Tensor solve_triangular(const Tensor& a, const Tensor& b, bool upper) {
  return op("torch.linalg.solve_triangular", {a, b}, {{"upper", upper}});
}

// (L L^H)^-1 B, or (U^H U)^-1 B: two triangular solves (LAPACK's potrs).
Tensor cholesky_solve(const Tensor& factor, const Tensor& b, bool upper) {
  Tensor lower = upper ? adjoint(factor) : factor;
  Tensor y = solve_triangular(lower, b, false);
  Tensor lower_h = adjoint(lower);
  return solve_triangular(lower_h, y, true);
}

void check_cholesky_solve_inputs(const Tensor& b, const Tensor& factor) {
  check(b.ndim() >= 2, [&] { return str("b should have at least 2 dimensions, but has ", b.ndim(), " dimensions instead"); });
  check(factor.ndim() >= 2, [&] { return str("u should have at least 2 dimensions, but has ", factor.ndim(), " dimensions instead"); });
  check(b.dtype().strong() == factor.dtype().strong(), [&] { return str("Expected b and A to have the same dtype, but found b of type ", b.dtype().torch_name(), " and A of type ", factor.dtype().torch_name(), " instead."); });
  int64_t m = factor.shape()[factor.ndim() - 2], n = factor.shape().back();
  check(m == n, [&] { return str("A must be batches of square matrices, but they are ", m, " by ", n, " matrices"); });
  check(b.shape()[b.ndim() - 2] == n, [&] { return str("Incompatible matrix sizes for cholesky_solve: each A matrix is ", m, " by ", n, " but each b matrix is ", b.shape()[b.ndim() - 2], " by ", b.shape().back()); });
}

// The matrix norm of each matrix of a batch (the matrix dims last).
Tensor matrix_norm(const Tensor& a, const Value& ord) { return op("torch.linalg.matrix_norm", {a, ord}); }

}  // namespace

void register_linalg(SymbolTable& t) {
  const std::vector<std::string> lapack{kNoDecomposition};
  const std::vector<std::string> decomposed{kRunsDecomposed};
  define(t, {{"torch.linalg.inv", "torch.inverse", "torch.Tensor.inverse"}, "a, /", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    check_matrices("linalg.inv", a, true);
    return like(a, a.shape(), a.dtype().strong());
  }}, lapack);
  define(t, {{"torch.linalg.det", "torch.det", "torch.Tensor.det"}, "a, /", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    check_matrices("linalg.det", a, true);
    return like(a, batch_of(a), a.dtype().strong());
  }}, lapack);
  define(t, {{"torch.linalg.slogdet", "torch.slogdet", "torch.Tensor.slogdet"}, "a, /", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    check_matrices("linalg.slogdet", a, true);
    return Value::tuple({like(a, batch_of(a), a.dtype().strong()), like(a, batch_of(a), to_real_dtype(a.dtype().strong()))});
  }}, lapack);
  // A X = B (left) or X A = B, B a matrix or a vector, the batches broadcast.
  define(t, {{"torch.linalg.solve"}, "a, b, /, *, left=True", [](const Args& x) -> Value { return solve_meta(x); }}, lapack);
  define(t, {{"torch.linalg.solve_ex"}, "a, b, /, *, left=True, check_errors=False", [](const Args& x) -> Value {
    return Value::tuple({solve_meta(x), info_of(x.tensor("a"))});
  }}, lapack);
  define(t, {{"torch.linalg.cholesky"}, "a, /, *, upper=False", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    check_matrices("linalg.cholesky", a, true);
    return like(a, a.shape(), a.dtype().strong());
  }}, lapack);
  define(t, {{"torch.cholesky", "torch.Tensor.cholesky"}, "a, /, upper=False", [](const Args& x) -> Value {
    return op("torch.linalg.cholesky", {x["a"]}, {{"upper", x["upper"]}});
  }}, decomposed);
  define(t, {{"torch.linalg.qr"}, "a, /, mode='reduced'", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    check_matrices("linalg.qr", a, false);
    const std::string& mode = x["mode"].as_string();
    check(mode == "reduced" || mode == "complete" || mode == "r", [&] { return str("qr received unrecognized mode '", mode, "' but expected one of 'reduced' (default), 'r', or 'complete'"); });
    int64_t m = a.shape()[a.ndim() - 2], n = a.shape().back(), k = mode == "complete" ? m : std::min(m, n);
    Tensor q = mode == "r" ? like(a, {0}, a.dtype().strong()) : like(a, with(batch_of(a), {m, k}), a.dtype().strong());
    return Value::tuple({q, like(a, with(batch_of(a), {k, n}), a.dtype().strong())});
  }}, lapack);
  define(t, {{"torch.linalg.svd"}, "a, /, full_matrices=True, *, driver=None", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    check_matrices("linalg.svd", a, false);
    int64_t m = a.shape()[a.ndim() - 2], n = a.shape().back(), k = std::min(m, n);
    bool full = x.flag("full_matrices");
    DType d = a.dtype().strong();
    return Value::tuple({like(a, with(batch_of(a), {m, full ? m : k}), d), like(a, with(batch_of(a), {k}), to_real_dtype(d)),
                         like(a, with(batch_of(a), {full ? n : k, n}), d)});
  }}, lapack);
  define(t, {{"torch.linalg.svdvals"}, "a, /, *, driver=None", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    check_matrices("linalg.svdvals", a, false);
    int64_t k = std::min(a.shape()[a.ndim() - 2], a.shape().back());
    return like(a, with(batch_of(a), {k}), to_real_dtype(a.dtype().strong()));
  }}, lapack);
  define(t, {{"torch.linalg.eigh"}, "a, /, UPLO='L'", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    check_matrices("linalg.eigh", a, true);
    return Value::tuple({like(a, with(batch_of(a), {a.shape().back()}), to_real_dtype(a.dtype().strong())), like(a, a.shape(), a.dtype().strong())});
  }}, lapack);
  define(t, {{"torch.linalg.eigvalsh"}, "a, /, UPLO='L'", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    check_matrices("linalg.eigvalsh", a, true);
    return like(a, with(batch_of(a), {a.shape().back()}), to_real_dtype(a.dtype().strong()));
  }}, lapack);
  define(t, {{"torch.linalg.pinv"}, "a, /, *, atol=None, rtol=None, hermitian=False", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    check_matrices("linalg.pinv", a, false);
    check(!x["atol"].is_tensor() && !x["rtol"].is_tensor(), "linalg.pinv with tensor tolerances is not supported yet", "NotImplementedError");
    return like(a, with(batch_of(a), {a.shape().back(), a.shape()[a.ndim() - 2]}), a.dtype().strong());
  }}, lapack);
  define(t, {{"torch.linalg.inv_ex"}, "a, /, *, check_errors=False", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    check_matrices("linalg.inv_ex", a, true);
    return Value::tuple({like(a, a.shape(), a.dtype().strong()), info_of(a)});
  }}, lapack);
  define(t, {{"torch.linalg.cholesky_ex"}, "a, /, *, upper=False, check_errors=False", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    check_matrices("linalg.cholesky_ex", a, true);
    return Value::tuple({like(a, a.shape(), a.dtype().strong()), info_of(a)});
  }}, lapack);
  // P A = L U with partial pivoting: LU packed in one matrix and LAPACK's 1-based int32 pivots.
  auto lu_factor = [](const Args& x, const char* name) {
    const Tensor& a = x.tensor("a");
    check_matrices(name, a, false);
    check(x.flag("pivot") || !a.device().is_cpu(), [&] { return str(name, ": LU without pivoting is not implemented on the CPU"); });
    int64_t k = std::min(a.shape()[a.ndim() - 2], a.shape().back());
    return Values{like(a, a.shape(), a.dtype().strong()), like(a, with(batch_of(a), {k}), dtypes::int32)};
  };
  define(t, {{"torch.linalg.lu_factor"}, "a, /, *, pivot=True", [lu_factor](const Args& x) -> Value {
    return Value::tuple(lu_factor(x, "linalg.lu_factor"));
  }}, lapack);
  define(t, {{"torch.linalg.lu_factor_ex"}, "a, /, *, pivot=True, check_errors=False", [lu_factor](const Args& x) -> Value {
    Values out = lu_factor(x, "linalg.lu_factor_ex");
    out.push_back(info_of(x.tensor("a")));
    return Value::tuple(out);
  }}, lapack);
  // A = P L U: P m x m, L m x k (unit diagonal), U k x n.
  define(t, {{"torch.linalg.lu"}, "a, /, *, pivot=True", [lu_factor](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    lu_factor(x, "linalg.lu");
    int64_t m = a.shape()[a.ndim() - 2], n = a.shape().back(), k = std::min(m, n);
    DType d = a.dtype().strong();
    return Value::tuple({constant_like(a, with(batch_of(a), {m, m}), d), like(a, with(batch_of(a), {m, k}), d), like(a, with(batch_of(a), {k, n}), d)});
  }}, lapack);
  // lu_factor's result unpacked: the permutation as a matrix (P), L and U; the parts not asked for empty.
  define(t, {{"torch.lu_unpack"}, "LU_data, LU_pivots, unpack_data=True, unpack_pivots=True", [](const Args& x) -> Value {
    const Tensor& lu = x.tensor("LU_data");
    const Tensor& pivots = x.tensor("LU_pivots");
    check(pivots.dtype() == dtypes::int32, "torch.lu_unpack: LU_pivots is expected to be a contiguous tensor of torch.int32 dtype.\n"
                                           "Note: this function is intended to be used with the output produced by torch.linalg.lu_factor");
    check(lu.ndim() >= 2, "torch.lu_unpack: Expected tensor with 2 or more dimensions. Got size: " + shape_repr(lu.shape()) + " instead");
    int64_t m = lu.shape()[lu.ndim() - 2], n = lu.shape().back(), k = std::min(m, n);
    DType d = lu.dtype().strong();
    Tensor empty = like(lu, {0}, d);
    Shape p_batch(pivots.shape().begin(), pivots.shape().end() - 1);
    return Value::tuple({x.flag("unpack_pivots") ? constant_like(lu, with(p_batch, {m, m}), d) : constant_like(lu, {0}, d),
                         x.flag("unpack_data") ? like(lu, with(batch_of(lu), {m, k}), d) : empty,
                         x.flag("unpack_data") ? like(lu, with(batch_of(lu), {k, n}), d) : empty});
  }}, lapack);
  // A X = B (or X A = B) solved with a factorization of A and its pivots (LU, or LDL with left only).
  auto factored_solve = [](const char* name, const char* factors, bool sided) {
    return [name, factors, sided](const Args& x) -> Value {
      const Tensor& a = x.tensor(factors);
      const Tensor& b = x.tensor("B");
      check_solve(name, a, b, !sided || x.flag("left"), factors);
      check_pivots(name, a, x.tensor("pivots"));
      return like(a, solution_shape(a, b), a.dtype().strong());
    };
  };
  define(t, {{"torch.linalg.lu_solve"}, "LU, pivots, B, /, *, left=True, adjoint=False", factored_solve("linalg.lu_solve", "LU", true)}, lapack);
  define(t, {{"torch.linalg.solve_triangular"}, "a, b, /, *, upper, left=True, unitriangular=False", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    const Tensor& b = x.tensor("b");
    check_solve("linalg.solve_triangular", a, b, x.flag("left"));
    return like(a, solution_shape(a, b), a.dtype().strong());
  }}, lapack);
  // Eigenvalues and eigenvectors of a general matrix: complex, whatever A's dtype.
  define(t, {{"torch.linalg.eig"}, "a, /", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    check_matrices("linalg.eig", a, true);
    DType d = to_complex_dtype(a.dtype().strong());
    return Value::tuple({like(a, with(batch_of(a), {a.shape().back()}), d), like(a, a.shape(), d)});
  }}, lapack);
  define(t, {{"torch.linalg.eigvals"}, "a, /", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    check_matrices("linalg.eigvals", a, true);
    return like(a, with(batch_of(a), {a.shape().back()}), to_complex_dtype(a.dtype().strong()));
  }}, lapack);
  // The deprecated eigh: eigenvectors optional (empty when not asked for), the upper triangle by default.
  define(t, {{"torch.symeig", "torch.Tensor.symeig"}, "a, /, eigenvectors=False, upper=True", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    check_matrices("symeig", a, true);
    DType d = a.dtype().strong();
    return Value::tuple({like(a, with(batch_of(a), {a.shape().back()}), to_real_dtype(d)), x.flag("eigenvectors") ? like(a, a.shape(), d) : like(a, {0}, d)});
  }}, lapack);
  // QR as LAPACK keeps it: R above the diagonal, the Householder reflectors below it and their scales tau.
  define(t, {{"torch.geqrf", "torch.Tensor.geqrf"}, "a, /", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    check(a.ndim() >= 2, "torch.geqrf: input must have at least 2 dimensions.");
    check(a.dtype().is_inexact(), [&] { return str("torch.geqrf: Expected a floating point or complex tensor as input. Got ", a.dtype().torch_name()); });
    int64_t k = std::min(a.shape()[a.ndim() - 2], a.shape().back());
    return Value::tuple({like(a, a.shape(), a.dtype().strong()), like(a, with(batch_of(a), {k}), a.dtype().strong())});
  }}, lapack);
  // The product of the Householder reflectors (geqrf's Q, its first n columns).
  define(t, {{"torch.linalg.householder_product", "torch.orgqr", "torch.Tensor.orgqr"}, "a, tau, /", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    const Tensor& tau = x.tensor("tau");
    const char* name = "torch.linalg.householder_product";
    check(a.ndim() >= 2, [&] { return str(name, ": input must have at least 2 dimensions."); });
    check(a.shape()[a.ndim() - 2] >= a.shape().back(), [&] { return str(name, ": input.shape[-2] must be greater than or equal to input.shape[-1]"); });
    check(a.shape().back() >= tau.shape().back() || tau.ndim() == 0, [&] { return str(name, ": input.shape[-1] must be greater than or equal to tau.shape[-1]"); });
    check(a.ndim() - tau.ndim() == 1, [&] { return str(name, ": Expected tau to have one dimension less than input, but got tau.ndim equal to ", tau.ndim(), " and input.ndim is equal to ", a.ndim()); });
    check(Shape(tau.shape().begin(), tau.shape().end() - 1) == batch_of(a), [&] { return str(name, ": Expected batch dimensions of tau to be equal to input.shape[:-2], but got ", shape_repr(Shape(tau.shape().begin(), tau.shape().end() - 1))); });
    check(a.dtype() == tau.dtype(), [&] { return str(name, ": tau dtype ", tau.dtype().torch_name(), " does not match input dtype ", a.dtype().torch_name()); });
    return like(a, a.shape(), a.dtype().strong());
  }}, lapack);
  // other multiplied by geqrf's Q (or its adjoint), from the left or the right.
  define(t, {{"torch.ormqr", "torch.Tensor.ormqr"}, "a, tau, other, /, left=True, transpose=False", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    const Tensor& tau = x.tensor("tau");
    const Tensor& other = x.tensor("other");
    check(a.ndim() >= 2, "torch.ormqr: input must have at least 2 dimensions.");
    check(other.ndim() >= 2, "torch.ormqr: other must have at least 2 dimensions.");
    int64_t side = x.flag("left") ? -2 : -1;
    check(other.ndim() == a.ndim(), [&] { return str("torch.ormqr: Expected other to have the same number of dimensions as input, but got other.ndim equal to ", other.ndim(), " and input.ndim is equal to ", a.ndim()); });
    check(tau.ndim() == a.ndim() - 1, [&] { return str("torch.ormqr: Expected tau to have one dimension less than input, but got tau.ndim equal to ", tau.ndim(), " and input.ndim is equal to ", a.ndim()); });
    check(tau.shape().back() <= a.shape().back(), "torch.ormqr: tau.shape[-1] must be less than or equal to input.shape[-1]");
    check(other.shape()[other.ndim() + side] == a.shape()[a.ndim() - 2], [&] { return str("torch.ormqr: other.shape[", side, "] must be equal to input.shape[-2]"); });
    check(a.dtype() == other.dtype() && a.dtype() == tau.dtype(), "torch.ormqr: Expected input, tau and other to have the same dtype");
    return like(a, other.shape(), a.dtype().strong());
  }}, lapack);
  // A = L D L^T (or L D L^H) with Bunch-Kaufman pivoting, LD packed, pivots as LAPACK's sytrf gives them.
  auto ldl_factor = [](const Args& x) {
    const Tensor& a = x.tensor("a");
    check_matrices("torch.linalg.ldl_factor_ex", a, true);
    return Values{like(a, a.shape(), a.dtype().strong()), like(a, with(batch_of(a), {a.shape().back()}), dtypes::int32)};
  };
  define(t, {{"torch.linalg.ldl_factor"}, "a, /, *, hermitian=False", [ldl_factor](const Args& x) -> Value {
    return Value::tuple(ldl_factor(x));
  }}, lapack);
  define(t, {{"torch.linalg.ldl_factor_ex"}, "a, /, *, hermitian=False, check_errors=False", [ldl_factor](const Args& x) -> Value {
    Values out = ldl_factor(x);
    out.push_back(info_of(x.tensor("a")));
    return Value::tuple(out);
  }}, lapack);
  define(t, {{"torch.linalg.ldl_solve"}, "LD, pivots, B, /, *, hermitian=False", factored_solve("torch.linalg.ldl_solve", "LD", false)}, lapack);
  // Least squares: (solution, residuals, rank, singular_values), which of the last three the
  // driver computes (gelsy, the CPU default, gives the rank; gelsd and gelss the rank and the
  // singular values; all but gelsy the residuals of a tall A). B a matrix, or a vector with one
  // dimension less than A; the batches broadcast, rank and singular values have A's.
  define(t, {{"torch.linalg.lstsq"}, "a, b, /, rcond=None, *, driver=None", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    const Tensor& b = x.tensor("b");
    const char* name = "torch.linalg.lstsq";
    check(a.ndim() >= 2, [&] { return str(name, ": input must have at least 2 dimensions."); });
    check(b.ndim() >= 1, [&] { return str(name, ": other must have at least 1 dimension."); });
    check(a.dtype().is_inexact(), [&] { return str(name, ": Expected input and other to have the same dtype, but got input's dtype ", a.dtype().torch_name(), " and other's dtype ", b.dtype().torch_name()); });
    check(a.dtype().strong() == b.dtype().strong(), [&] { return str(name, ": Expected input and other to have the same dtype, but got input's dtype ", a.dtype().torch_name(), " and other's dtype ", b.dtype().torch_name()); });
    int64_t lead = a.ndim() - b.ndim();
    check(lead == 0 || lead == 1, [&] { return str(name, ": input.dim() must be greater or equal to other.dim() and (input.dim() - other.dim()) <= 1"); });
    bool vector = lead == 1;
    int64_t m = a.shape()[a.ndim() - 2], n = a.shape().back();
    check(b.shape()[b.ndim() - (vector ? 1 : 2)] == m, [&] { return str(name, ": input.size(-2) should match other.size(", vector ? "-1" : "-2", ")"); });
    std::string driver = x.is_none("driver") ? (a.device().is_cpu() ? "gelsy" : "gels") : x["driver"].as_string();
    check(driver == "gels" || driver == "gelsy" || driver == "gelsd" || driver == "gelss", [&] { return str(name, ": parameter `driver` should be one of (gels, gelsy, gelsd, gelss)"); });
    Shape b_batch(b.shape().begin(), b.shape().end() - (vector ? 1 : 2));
    Shape batch = langs::broadcast_shapes({batch_of(a), b_batch});
    int64_t columns = vector ? 1 : b.shape().back();
    DType d = a.dtype().strong(), real = to_real_dtype(d);
    Shape solution = vector ? with(batch, {n}) : with(batch, {n, columns});
    Tensor residuals = constant_like(a, m > n && driver != "gelsy" ? with(batch, {columns}) : Shape{0}, real);
    Tensor rank = constant_like(a, driver == "gels" ? Shape{0} : batch_of(a), dtypes::int64);
    bool singular = driver == "gelsd" || driver == "gelss";
    Tensor singular_values = constant_like(a, singular ? with(batch_of(a), {std::min(m, n)}) : Shape{0}, real);
    return Value::tuple({like(a, solution, d), residuals, rank, singular_values});
  }}, lapack);
  define(t, {{"torch.linalg.matrix_exp", "torch.matrix_exp", "torch.Tensor.matrix_exp"}, "a, /", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    check(a.ndim() >= 2, "linalg.matrix_exp: The input tensor A must have at least 2 dimensions.");
    check(a.dtype().is_inexact(), [&] { return str("matrix_exp: Expected a floating point or complex tensor as input. Got ", a.dtype().torch_name()); });
    check(a.shape().back() == a.shape()[a.ndim() - 2], [&] { return str("linalg.matrix_exp: A must be batches of square matrices, but they are ", a.shape()[a.ndim() - 2], " by ", a.shape().back(), " matrices"); });
    return like(a, a.shape(), a.dtype().strong());
  }}, lapack);
  // Decompositions over the factorizations above.
  // The old names of the factorizations above, as PyTorch 1.13 defines them through the new ones.
  define(t, {{"torch.lu", "torch.Tensor.lu"}, "a, /, pivot=True, get_infos=False, out=None", [](const Args& x) -> Value {
    check(x.is_none("out"), "lu: out= is not supported in a trace", "NotImplementedError");
    Value factors = call("torch.linalg.lu_factor_ex", {x["a"]}, {{"pivot", x["pivot"]}});
    if (x.flag("get_infos")) return factors;
    return Value::tuple({factors.items()[0], factors.items()[1]});
  }}, decomposed);
  define(t, {{"torch.lu_solve", "torch.Tensor.lu_solve"}, "b, LU_data, LU_pivots, /", [](const Args& x) -> Value {
    return op("torch.linalg.lu_solve", {x["LU_data"], x["LU_pivots"], x["b"]});
  }}, decomposed);
  define(t, {{"torch.qr", "torch.Tensor.qr"}, "a, /, some=True", [](const Args& x) -> Value {
    return call("torch.linalg.qr", {x["a"], std::string(x.flag("some") ? "reduced" : "complete")});
  }}, decomposed);
  // A = U diag(S) V^H, V returned (not V^H); without compute_uv, U and V are zeros (m x m, n x n).
  define(t, {{"torch.svd", "torch.Tensor.svd"}, "a, /, some=True, compute_uv=True", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    check(a.ndim() >= 2, [&] { return str("linalg.svd: input should have at least 2 dimensions, but has ", a.ndim(), " dimensions instead"); });
    if (x.flag("compute_uv")) {
      Value factors = call("torch.linalg.svd", {a, !x.flag("some")});
      Tensor v = adjoint(factors.items()[2].as_tensor());
      return Value::tuple({factors.items()[0], factors.items()[1], v});
    }
    Tensor s = op("torch.linalg.svdvals", {a});
    int64_t m = a.shape()[a.ndim() - 2], n = a.shape().back();
    Tensor u = full(with(batch_of(a), {m, m}), int64_t{0}, a.device(), a.dtype().strong());
    Tensor v = full(with(batch_of(a), {n, n}), int64_t{0}, a.device(), a.dtype().strong());
    return Value::tuple({u, s, v});
  }}, decomposed);
  // Solves A X = b (A^T X = b with transpose) for a triangular A; also returns A broadcast to the batch.
  define(t, {{"torch.triangular_solve", "torch.Tensor.triangular_solve"}, "b, A, /, upper=True, transpose=False, unitriangular=False", [](const Args& x) -> Value {
    const Tensor& b = x.tensor("b");
    const Tensor& a = x.tensor("A");
    for (const auto& operand : {std::pair{b, "b"}, std::pair{a, "A"}})
      check(operand.first.ndim() >= 2, [&] {
        return str("torch.triangular_solve: Expected ", operand.second, " to have at least 2 dimensions, but it has ", operand.first.ndim(), " dimensions instead");
      });
    int64_t m = a.shape()[a.ndim() - 2], n = a.shape().back();
    check(m == n, [&] { return str("A must be batches of square matrices, but they are ", m, " by ", n, " matrices"); });
    check(a.dtype().strong() == b.dtype().strong(), [&] { return str("Expected b and A to have the same dtype, but found b of type ", b.dtype().torch_name(), " and A of type ", a.dtype().torch_name(), " instead."); });
    check(b.shape()[b.ndim() - 2] == n, [&] { return str("Incompatible matrix sizes for triangular_solve: each A matrix is ", m, " by ", n, " but each b matrix is ", b.shape()[b.ndim() - 2], " by ", b.shape().back()); });
    bool transpose = x.flag("transpose");
    Tensor coefficients = transpose ? ltorch::transpose(a, -2, -1) : a;
    Tensor solution = op("torch.linalg.solve_triangular", {coefficients, b}, {{"upper", x.flag("upper") != transpose}, {"unitriangular", x["unitriangular"]}});
    Tensor broadcast = expand(a, with(langs::broadcast_shapes({batch_of(a), batch_of(b)}), {n, n}));
    Tensor cloned = op("torch.clone", {broadcast});
    return Value::tuple({solution, cloned});
  }}, decomposed);
  define(t, {{"torch.cholesky_solve", "torch.Tensor.cholesky_solve"}, "b, L, /, upper=False", [](const Args& x) -> Value {
    check_cholesky_solve_inputs(x.tensor("b"), x.tensor("L"));
    return cholesky_solve(x.tensor("L"), x.tensor("b"), x.flag("upper"));
  }}, decomposed);
  // (L L^H)^-1 from the Cholesky factor: the identities solved for.
  define(t, {{"torch.cholesky_inverse", "torch.Tensor.cholesky_inverse"}, "L, /, upper=False", [](const Args& x) -> Value {
    const Tensor& l = x.tensor("L");
    check_matrices("cholesky_inverse", l, true);
    Tensor eye = op("torch.eye", {l.shape().back()}, {{"dtype", Value(l.dtype().strong())}, {"device", Value(l.device())}});
    Tensor identities = l.ndim() == 2 ? eye : expand(eye, l.shape());
    return cholesky_solve(l, identities, x.flag("upper"));
  }}, decomposed);
  // The condition number: the ratio of extreme singular values (p None or +-2), the sum of them
  // times the sum of their reciprocals ('nuc'), else norm(A) norm(A^-1), infinite where A is singular.
  define(t, {{"torch.linalg.cond"}, "a, /, p=None", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    const Value& p = x["p"];
    check(a.ndim() >= 2, "linalg.cond: The input tensor must have at least 2 dimensions.");
    bool named = p.kind() == Value::Kind::String;
    double order = p.is_none() ? 2.0 : (named ? 0.0 : p.as_float());
    check(named ? (p.as_string() == "fro" || p.as_string() == "nuc") : (std::abs(order) == 1.0 || std::abs(order) == 2.0 || std::isinf(order)),
          [&] { return str("linalg.cond got an invalid norm type: ", named ? p.as_string() : py_repr(p)); });
    bool extremes = !named && std::abs(order) == 2.0;
    check(extremes || a.shape().back() == a.shape()[a.ndim() - 2], [&] {
      return str("linalg.cond(ord=", named ? p.as_string() : py_repr(p), "): A must be batches of square matrices, but they are ", a.shape()[a.ndim() - 2], " by ", a.shape().back(), " matrices");
    });
    if (a.numel() == 0) return full(batch_of(a), int64_t{0}, a.device(), to_real_dtype(a.dtype().strong()));
    if (extremes || (named && p.as_string() == "nuc")) {
      Tensor s = op("torch.linalg.svdvals", {a});
      if (!extremes) {
        Tensor total = sum(s, Dims{-1});
        Tensor reciprocals = reciprocal(s);
        return total * sum(reciprocals, Dims{-1});
      }
      Tensor largest = narrow(s, -1, 0, 1);
      Tensor smallest = narrow(s, -1, s.shape().back() - 1, 1);
      Tensor ratio = order > 0 ? largest / smallest : smallest / largest;
      return squeeze(ratio, {-1});
    }
    Value inverted = call("torch.linalg.inv_ex", {a});
    Tensor info = unsqueeze(unsqueeze(inverted.items()[1].as_tensor(), -1), -1);
    Tensor singular = gt(info, int64_t{0});
    Tensor inverse = where(singular, std::numeric_limits<double>::infinity(), inverted.items()[0]);
    Tensor norm_a = matrix_norm(a, p);
    Tensor product = norm_a * matrix_norm(inverse, p);
    double inf = std::numeric_limits<double>::infinity();
    return op("torch.nan_to_num", {product, inf, inf, -inf});
  }}, decomposed);
  // The number of singular values (absolute eigenvalues when hermitian) above max(atol, rtol * the
  // largest), the tolerances compared in float64 as ATen's; rtol defaults to eps * max(m, n) unless
  // atol > 0. The old form's tol is an atol.
  define(t, {{"torch.linalg.matrix_rank"}, "a, /, tol=None, hermitian=False, *, atol=None, rtol=None", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    check(a.ndim() >= 2, "torch.linalg.matrix_rank: The input tensor input must have at least 2 dimensions.");
    check(a.dtype().is_inexact(), "This function doesn't handle types other than float and double");
    Value atol = x.is_none("tol") ? x["atol"] : x["tol"];
    Value rtol = x.is_none("tol") ? x["rtol"] : Value(0.0);
    if (a.numel() == 0) return full(batch_of(a), int64_t{0}, a.device(), dtypes::int64);
    Tensor s, largest;
    if (x.flag("hermitian")) {
      Tensor w = op("torch.linalg.eigvalsh", {a});
      s = abs(w);
      largest = amax(s, {-1}, true);
    } else {
      s = op("torch.linalg.svdvals", {a});
      largest = narrow(s, -1, 0, 1);
    }
    DType real = to_real_dtype(a.dtype().strong());
    double eps = real == dtypes::float64 ? std::numeric_limits<double>::epsilon() : static_cast<double>(std::numeric_limits<float>::epsilon());
    double default_rtol = eps * static_cast<double>(std::max(a.shape().back(), a.shape()[a.ndim() - 2]));
    auto as_column = [](const Value& v) -> Value { return v.is_tensor() ? Value(unsqueeze(to(v.as_tensor(), dtypes::float64), -1)) : v; };
    if (rtol.is_none() && atol.is_tensor()) rtol = where(gt(atol, int64_t{0}), 0.0, default_rtol);
    else if (rtol.is_none()) rtol = !atol.is_none() && atol.as_float() > 0 ? 0.0 : default_rtol;
    if (atol.is_none()) atol = 0.0;
    Value relative_column = as_column(rtol);
    Tensor relative = mul(relative_column, to(largest, dtypes::float64));
    Tensor tolerance = atol.is_tensor() ? maximum(as_column(atol), relative) : op("torch.clamp", {relative, atol});
    return sum(gt(s, tolerance), Dims{-1});
  }}, decomposed);
  // The inverse of A as a map of its first ind dimensions onto the rest: a matrix inverse, reshaped.
  define(t, {{"torch.linalg.tensorinv"}, "a, /, ind=2", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    int64_t ind = x.integer("ind");
    check(ind > 0, [&] { return str("Expected a strictly positive integer for 'ind', but got ", ind); });
    auto split = a.shape().begin() + std::min(ind, a.ndim());
    Shape start(a.shape().begin(), split), end(split, a.shape().end());
    int64_t rows = thundercc::numel(start), columns = thundercc::numel(end);
    check(rows == columns, [&] { return str("Expected self to satisfy the requirement prod(self.shape[ind:]) == prod(self.shape[:ind]), but got ", columns, " != ", rows); });
    Tensor inverse = op("torch.linalg.inv", {reshape(a, {rows, rows})});
    end.insert(end.end(), start.begin(), start.end());
    return reshape(inverse, end);
  }}, decomposed);
  // Solves tensordot(A, X, X.ndim) = B: dims of A moved last, then one matrix solve.
  define(t, {{"torch.linalg.tensorsolve"}, "a, b, /, dims=None", [](const Args& x) -> Value {
    Tensor a = x.tensor("a");
    const Tensor& b = x.tensor("b");
    if (!x.is_none("dims")) {
      std::vector<int64_t> dims = x.ints("dims"), last;
      for (size_t i = 0; i < dims.size(); ++i) last.push_back(a.ndim() - static_cast<int64_t>(dims.size() - i));
      a = op("torch.movedim", {a, Value::ints(dims), Value::ints(last)});
    }
    Shape result(a.shape().begin() + std::min(b.ndim(), a.ndim()), a.shape().end());
    int64_t n = thundercc::numel(result), rhs = b.numel();
    check(n == rhs, [&] { return str("Expected self to satisfy the requirement prod(self.shape[other.ndim:]) == prod(self.shape[:other.ndim]), but got ", n, " != ", rhs); });
    Tensor solution = op("torch.linalg.solve", {reshape(a, {n, n}), flatten(b)});
    return reshape(solution, result);
  }}, decomposed);
  // Powers x^0 .. x^(N-1) along a new last dimension: ones, then the running product.
  define(t, {{"torch.linalg.vander"}, "x, /, *, N=None", [](const Args& x) -> Value {
    const Tensor& v = x.tensor("x");
    check(!v.dtype().is_bool(), "linalg.vander supports floating point, complex, and integer tensors, but got Bool");
    Tensor column = v.ndim() == 0 ? unsqueeze(v, -1) : v;
    Shape shape = column.shape();
    int64_t n = x.is_none("N") ? shape.back() : x.integer("N");
    check(n > 1, "N must be greater than 1.");
    shape.push_back(n - 1);
    Tensor repeated = expand(unsqueeze(column, -1), shape);
    Tensor powers = op("torch.cumprod", {repeated, -1});
    shape.back() = 1;
    Tensor ones = full(shape, int64_t{1}, v.device(), powers.dtype());
    return cat({ones, powers}, -1);
  }}, decomposed);
  define(t, {{"torch.linalg.matrix_power", "torch.matrix_power", "torch.Tensor.matrix_power"}, "a, n, /", [](const Args& x) -> Value {
    Tensor a = x.tensor("a");
    int64_t n = x.integer("n");
    check(a.ndim() >= 2 && a.shape().back() == a.shape()[a.ndim() - 2], "linalg.matrix_power: A must be batches of square matrices");
    if (n == 0) {  // identities written over a (PyTorch copies them into a clone of a: no gradient reaches it)
      Tensor eye = op("torch.eye", {a.shape().back()}, {{"dtype", Value(a.dtype().strong())}, {"device", Value(a.device())}});
      Tensor everywhere = full(a.shape(), true, a.device(), dtypes::bool8);
      return where(everywhere, a.ndim() == 2 ? eye : expand(eye, a.shape()), a);
    }
    if (n < 0) a = op("torch.linalg.inv", {a});
    Tensor result = a;
    for (int64_t i = 1; i < (n < 0 ? -n : n); ++i) result = matmul(result, a);
    return result;
  }}, decomposed);
  define(t, {{"torch.linalg.matrix_norm"}, "a, /, ord='fro', dim=(-2, -1), keepdim=False, *, dtype=None", [](const Args& x) -> Value {
    Tensor a = x.tensor("a");
    check(a.ndim() >= 2, "linalg.matrix_norm: The input tensor A must have at least 2 dimensions.");
    if (auto d = optional_dtype(x["dtype"])) a = to(a, *d);
    auto dims = langs::canonicalize_dims(a.ndim(), x.ints("dim"));
    bool keepdim = x.flag("keepdim");
    const Value& ord = x["ord"];
    if (ord.kind() == Value::Kind::String && ord.as_string() == "fro")
      return op("torch.linalg.vector_norm", {a, 2.0, Value::ints(dims), keepdim});
    // The others read singular values or sums along one dimension: the matrix dims moved last.
    Tensor moved = op("torch.movedim", {a, Value::ints(dims), Value::ints({-2, -1})});
    Tensor r;
    if (ord.kind() == Value::Kind::String) {
      check(ord.as_string() == "nuc", [&] { return str("linalg.matrix_norm: Order ", ord.as_string(), " not supported."); });
      r = sum(op("torch.linalg.svdvals", {moved}), Dims{-1});
    } else {
      double p = ord.as_float();
      Tensor magnitude = abs(moved);
      if (p == 2.0 || p == -2.0) {
        Tensor s = op("torch.linalg.svdvals", {moved});
        r = p > 0 ? amax(s, {-1}) : op("torch.amin", {s, Value::ints({-1})});
      } else {
        check(p == 1.0 || p == -1.0 || std::isinf(p), [&] { return str("linalg.matrix_norm: Order ", py_repr(ord), " not supported."); });
        Tensor sums = sum(magnitude, Dims{std::isinf(p) ? -1 : -2});  // row sums for inf, column sums for 1
        r = p > 0 ? amax(sums, {-1}) : op("torch.amin", {sums, Value::ints({-1})});
      }
    }
    if (!keepdim) return r;
    for (int64_t d : {std::min(dims[0], dims[1]), std::max(dims[0], dims[1])}) r = unsqueeze(r, d);
    return r;
  }}, decomposed);
  define(t, {{"torch.linalg.norm"}, "a, /, ord=None, dim=None, keepdim=False, *, dtype=None", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    bool matrix = x.is_none("dim") ? (!x.is_none("ord") && a.ndim() == 2) : x.ints("dim").size() == 2;
    if (x.is_none("dim") && x.is_none("ord"))
      return op("torch.linalg.vector_norm", {a, 2.0, Value(), x["keepdim"]}, {{"dtype", x["dtype"]}});
    if (matrix)
      return op("torch.linalg.matrix_norm", {a, x.is_none("ord") ? Value(std::string("fro")) : x["ord"], x.is_none("dim") ? Value::ints({-2, -1}) : x["dim"],
                                             x["keepdim"]}, {{"dtype", x["dtype"]}});
    check(x.is_none("dim") ? a.ndim() == 1 : x.ints("dim").size() == 1, "linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D");
    return op("torch.linalg.vector_norm", {a, x.is_none("ord") ? Value(2.0) : x["ord"], x["dim"], x["keepdim"]}, {{"dtype", x["dtype"]}});
  }}, decomposed);
  define(t, {{"torch.linalg.matmul"}, "a, b, /", [](const Args& x) -> Value { return matmul(x.tensor("a"), x.tensor("b")); }}, decomposed);
  define(t, {{"torch.linalg.diagonal"}, "a, /, *, offset=0, dim1=-2, dim2=-1", [](const Args& x) -> Value {
    return op("torch.diagonal", {x["a"], x["offset"], x["dim1"], x["dim2"]});
  }}, decomposed);
  define(t, {{"torch.vdot", "torch.Tensor.vdot"}, "a, b, /", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    check(a.ndim() == 1 && x.tensor("b").ndim() == 1, "1D tensors expected");
    return op("torch.dot", {a.dtype().is_complex() ? op("torch.conj_physical", {a}) : a, x["b"]});
  }}, decomposed);
  define(t, {{"torch.linalg.vecdot"}, "a, b, /, *, dim=-1", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    return sum(mul(a.dtype().is_complex() ? op("torch.conj_physical", {a}) : a, x["b"]), Dims{x.integer("dim")});
  }}, decomposed);
  define(t, {{"torch.linalg.cross"}, "a, b, /, *, dim=-1", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    const Tensor& b = x.tensor("b");
    check(a.ndim() == b.ndim(), "linalg.cross: inputs must have the same number of dimensions.");
    int64_t dim = langs::canonicalize_dim(a.ndim(), x.integer("dim"));
    check(a.shape()[dim] == 3 && b.shape()[dim] == 3, [&] { return str("linalg.cross: inputs dimension ", dim, " must have length 3. Got ", a.shape()[dim], " and ", b.shape()[dim]); });
    Values both = core::maybe_broadcast({a, b});
    return cross(both[0].as_tensor(), both[1].as_tensor(), dim);
  }}, decomposed);
  // torch.cross without dim takes the first dimension of length 3 (PyTorch 1.13's default).
  define(t, {{"torch.cross", "torch.Tensor.cross"}, "a, b, /, dim=None", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    int64_t dim = -1;
    if (x.is_none("dim")) {
      for (int64_t d = 0; d < a.ndim() && dim < 0; ++d)
        if (a.shape()[d] == 3) dim = d;
      check(dim >= 0, "no dimension of size 3 in input");
    } else {
      dim = x.integer("dim");
    }
    return op("torch.linalg.cross", {x["a"], x["b"]}, {{"dim", dim}});
  }}, decomposed);
  define(t, {{"torch.cov", "torch.Tensor.cov"}, "a, /, *, correction=1, fweights=None, aweights=None", [](const Args& x) -> Value {
    check(x.is_none("fweights") && x.is_none("aweights"), "cov with fweights or aweights is not supported yet", "NotImplementedError");
    return covariance(x.tensor("a"), x.integer("correction"));
  }}, decomposed);
  // cov / sqrt(diag diag^T), its real part clipped to [-1, 1].
  define(t, {{"torch.corrcoef", "torch.Tensor.corrcoef"}, "a, /", [](const Args& x) -> Value {
    Tensor c = covariance(x.tensor("a"), 1);
    if (c.ndim() == 0) return c / c;
    Tensor d = op("torch.diagonal", {c});
    Tensor column = unsqueeze(d, 1);
    Tensor scale = op("torch.sqrt", {mul(column, unsqueeze(d, 0))});
    Tensor r = c / scale;
    return c.dtype().is_complex() ? r : op("torch.clamp", {r, -1.0, 1.0});
  }}, decomposed);
  // The n-th forward difference along dim, prepend and append joined first.
  define(t, {{"torch.diff", "torch.Tensor.diff"}, "a, /, n=1, dim=-1, prepend=None, append=None", [](const Args& x) -> Value {
    Tensor a = x.tensor("a");
    check(a.ndim() >= 1, "diff expects input to be at least one-dimensional");
    int64_t dim = langs::canonicalize_dim(a.ndim(), x.integer("dim")), n = x.integer("n");
    check(n >= 0, [&] { return str("order must be non-negative but got ", n); });
    std::vector<Tensor> parts;
    for (const char* edge : {"prepend", "a", "append"})
      if (!x.is_none(edge)) parts.push_back(x.tensor(edge));
    if (parts.size() > 1) a = cat(parts, dim);
    for (int64_t i = 0; i < n && a.shape()[dim] > 0; ++i) {
      int64_t length = a.shape()[dim] - 1;
      Tensor later = narrow(a, dim, 1, length), earlier = narrow(a, dim, 0, length);
      a = a.dtype().is_bool() ? op("torch.logical_xor", {later, earlier}) : later - earlier;
    }
    return a;
  }}, decomposed);
  define(t, {{"torch.meshgrid"}, "*tensors, indexing=None", [](const Args& x) -> Value {
    std::vector<Tensor> inputs;
    for (const auto& v : x["tensors"].items()) for (const auto& t : tensors_in(v)) inputs.push_back(t);
    std::string indexing = x.is_none("indexing") ? "ij" : x["indexing"].as_string();
    check(indexing == "ij" || indexing == "xy", [&] { return str("torch.meshgrid: indexing must be one of \"xy\" or \"ij\", but received: ", indexing); });
    bool swap = indexing == "xy" && inputs.size() >= 2;
    Shape shape;
    for (const auto& t : inputs) {
      check(t.ndim() <= 1, "torch.meshgrid: Expected 0D or 1D tensor in the tensor list");
      shape.push_back(t.numel());
    }
    if (swap) std::swap(shape[0], shape[1]);
    Values grids;
    for (size_t i = 0; i < inputs.size(); ++i) {
      size_t position = swap && i < 2 ? 1 - i : i;
      Shape line(inputs.size(), 1);
      line[position] = inputs[i].numel();
      grids.push_back(expand(reshape(inputs[i], line), shape));
    }
    return Value::tuple(grids);
  }}, decomposed);
  define(t, {{"torch.cartesian_prod"}, "*tensors", [](const Args& x) -> Value {
    std::vector<Tensor> inputs = tensors_in(x["tensors"]);
    if (inputs.size() == 1) return inputs[0];
    Value grids = call("torch.meshgrid", x["tensors"].items(), {{"indexing", Value(std::string("ij"))}});
    std::vector<Tensor> columns;
    for (const auto& g : grids.items()) columns.push_back(flatten(g.as_tensor()));
    return stack(columns, 1);
  }}, decomposed);
  // The blocks along the diagonal of a zero matrix: each padded to the full width, then stacked.
  define(t, {{"torch.block_diag"}, "*tensors", [](const Args& x) -> Value {
    std::vector<Tensor> blocks = tensors_in(x["tensors"]);
    DType dtype = blocks.empty() ? dtypes::float32 : blocks[0].dtype().strong();
    int64_t width = 0;
    for (auto& b : blocks) {
      check(b.ndim() <= 2, [&] { return str("torch.block_diag: Input tensors must have 2 or fewer dimensions. Input has ", b.ndim(), " dimensions"); });
      b = b.ndim() == 2 ? b : reshape(b, {1, b.numel()});
      dtype = core::promote_dtypes(dtype, b.dtype().strong());
      width += b.shape()[1];
    }
    std::vector<Tensor> rows;
    int64_t left = 0;
    for (const auto& b : blocks) {
      Tensor padded = op("torch.nn.functional.pad", {core::convert(b, dtype), Value::ints({left, width - left - b.shape()[1]})});
      left += b.shape()[1];
      rows.push_back(padded);
    }
    if (rows.empty()) return full({1, 0}, int64_t{0}, Device::cpu(), dtypes::float32);
    return cat(rows, 0);
  }}, decomposed);
  // a summed to size: leading dimensions and those size keeps at 1 (Tensor.sum_to_size).
  define(t, {{"torch.Tensor.sum_to_size"}, "a, /, *size", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    std::vector<int64_t> size = x.ints("size");
    check(langs::broadcast_shapes({Shape(size), a.shape()}) == a.shape(), [&] { return str("size {", langs::dims_repr(size), "} is not expandable to size {", shape_repr(a.shape()), "}."); });
    int64_t lead = a.ndim() - static_cast<int64_t>(size.size());
    Dims dims;
    for (int64_t d = 0; d < a.ndim(); ++d)
      if (d < lead || (size[d - lead] == 1 && a.shape()[d] != 1)) dims.push_back(d);
    Tensor summed = dims.empty() ? a : sum(a, dims, true);
    return lead > 0 ? reshape(summed, Shape(size)) : summed;
  }}, decomposed);
}

}  // namespace thundercc::ltorch
