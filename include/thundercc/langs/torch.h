// The torch language (thunder/torch/__init__.py): PyTorch's operations as symbols whose
// decompositions broadcast, promote types and call prims. These functions record a call to the
// torch-language symbol in the active trace, so a decomposition written with them reads like
// Thunder's Python, and the operators on tensor proxies below go through them:
//
//   Tensor softmax(const Tensor& a, int64_t dim) {
//     Tensor a_exp = exp(a - amax(a, {dim}, true));
//     return a_exp / sum(a_exp, {dim}, true);
//   }
#pragma once

#include <optional>
#include <type_traits>
#include <vector>

#include "thundercc/ir/symbol.h"

namespace thundercc::ltorch {

// The tag of a torch-language op that every executor runs as its decomposition: ATen has no
// single kernel for it here (or its decomposition is all there is: literal data, a reshape).
inline constexpr const char* kRunsDecomposed = "RUNS_DECOMPOSED";
// The tag of a torch-language op with no decomposition into prims (a LAPACK factorization): a
// meta function, and ATen's kernel under every executor that runs torch ops.
inline constexpr const char* kNoDecomposition = "NO_DECOMPOSITION";

using Dims = std::vector<int64_t>;

// Calls the torch-language symbol registered under `id` and returns its tensor result.
Tensor op(std::string_view id, const Values& args, const Kwargs& kwargs = {});

// Elementwise.
Tensor abs(const Tensor& a);
Tensor exp(const Tensor& a);
Tensor log(const Tensor& a);
Tensor log1p(const Tensor& a);
Tensor sqrt(const Tensor& a);
Tensor rsqrt(const Tensor& a);
Tensor reciprocal(const Tensor& a);
Tensor erf(const Tensor& a);
Tensor tanh(const Tensor& a);
Tensor neg(const Tensor& a);
Tensor sigmoid(const Tensor& a);
Tensor logical_not(const Tensor& a);
Tensor add(const Value& a, const Value& b, const Value& alpha = int64_t{1});
Tensor sub(const Value& a, const Value& b, const Value& alpha = int64_t{1});
Tensor mul(const Value& a, const Value& b);
Tensor true_divide(const Value& a, const Value& b);
Tensor pow(const Value& a, const Value& b);
Tensor maximum(const Value& a, const Value& b);
Tensor eq(const Value& a, const Value& b);
Tensor ne(const Value& a, const Value& b);
Tensor lt(const Value& a, const Value& b);
Tensor le(const Value& a, const Value& b);
Tensor gt(const Value& a, const Value& b);
Tensor ge(const Value& a, const Value& b);
Tensor where(const Value& pred, const Value& a, const Value& b);
Tensor masked_fill(const Tensor& a, const Tensor& mask, const Value& value);

// Reductions. An empty optional dim reduces every dimension.
Tensor sum(const Tensor& a, std::optional<Dims> dims = std::nullopt, bool keepdim = false);
Tensor mean(const Tensor& a, std::optional<Dims> dims = std::nullopt, bool keepdim = false);
Tensor amax(const Tensor& a, const Dims& dims, bool keepdim = false);
Tensor logsumexp(const Tensor& a, const Dims& dims, bool keepdim = false);
std::pair<Tensor, Tensor> var_mean(const Tensor& a, const Dims& dims, int64_t correction, bool keepdim);
Tensor softmax(const Tensor& a, int64_t dim);
Tensor log_softmax(const Tensor& a, int64_t dim);

// Shapes.
Tensor reshape(const Tensor& a, const Shape& shape);
Tensor expand(const Tensor& a, const Shape& shape);
Tensor unsqueeze(const Tensor& a, int64_t dim);
Tensor squeeze(const Tensor& a, const Dims& dims);
Tensor transpose(const Tensor& a, int64_t dim0, int64_t dim1);
Tensor permute(const Tensor& a, const Dims& dims);
Tensor flatten(const Tensor& a, int64_t start_dim = 0, int64_t end_dim = -1);
Tensor narrow(const Tensor& a, int64_t dim, int64_t start, int64_t length);
Tensor cat(const std::vector<Tensor>& tensors, int64_t dim);
Tensor to(const Tensor& a, DType dtype);
Tensor contiguous(const Tensor& a);

// Creation.
Tensor full(const Shape& shape, const Value& fill_value, Device device, DType dtype);
Tensor zeros_like(const Tensor& a);
Tensor full_like(const Tensor& a, const Value& fill_value);

// Neural networks.
Tensor matmul(const Tensor& a, const Tensor& b);
Tensor dropout(const Tensor& a, double p, bool training);

}  // namespace thundercc::ltorch

namespace thundercc {
// Adds the torch language's symbols to `table` (after the prims, which its decompositions call).
void register_torch_language(SymbolTable& table);
}  // namespace thundercc

namespace thundercc {

template <class N>
concept PythonNumber = std::is_arithmetic_v<N>;

template <PythonNumber N>
Value number(N x) {
  if constexpr (std::is_same_v<N, bool>) return Value(x);
  else if constexpr (std::is_integral_v<N>) return Value(static_cast<int64_t>(x));
  else return Value(static_cast<double>(x));
}

// Operators on tensor proxies call the torch language, as TensorProxy's dunder methods do.
// (== and != keep their identity meaning on handles; use ltorch::eq / ltorch::ne.)
#define THUNDERCC_TENSOR_OPERATOR(sym, fn)                                                         \
  inline Tensor operator sym(const Tensor& a, const Tensor& b) { return ltorch::fn(a, b); }       \
  template <PythonNumber N>                                                                        \
  Tensor operator sym(const Tensor& a, N b) { return ltorch::fn(a, number(b)); }                  \
  template <PythonNumber N>                                                                        \
  Tensor operator sym(N a, const Tensor& b) { return ltorch::fn(number(a), b); }
THUNDERCC_TENSOR_OPERATOR(+, add)
THUNDERCC_TENSOR_OPERATOR(-, sub)
THUNDERCC_TENSOR_OPERATOR(*, mul)
THUNDERCC_TENSOR_OPERATOR(/, true_divide)
THUNDERCC_TENSOR_OPERATOR(<, lt)
THUNDERCC_TENSOR_OPERATOR(<=, le)
THUNDERCC_TENSOR_OPERATOR(>, gt)
THUNDERCC_TENSOR_OPERATOR(>=, ge)
#undef THUNDERCC_TENSOR_OPERATOR

inline Tensor operator-(const Tensor& a) { return ltorch::neg(a); }

}  // namespace thundercc
