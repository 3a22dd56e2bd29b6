// Helpers shared by the prims' meta functions and the torch language: dimension
// canonicalization, shape broadcasting and the common checks, with Thunder's messages.
#pragma once

#include <vector>

#include "thundercc/errors.h"
#include "thundercc/ir/value.h"

namespace thundercc::langs {

// Wraps a possibly negative dim into [0, rank). A 0-d tensor accepts -1 and 0, as in PyTorch.
int64_t canonicalize_dim(int64_t rank, int64_t dim);
// Canonicalizes each dim and rejects duplicates.
std::vector<int64_t> canonicalize_dims(int64_t rank, const std::vector<int64_t>& dims);
// NumPy broadcasting of shapes.
Shape broadcast_shapes(const std::vector<Shape>& shapes);
std::string dims_repr(const std::vector<int64_t>& dims);  // "[0, 1]"
// Whether a scalar argument (alpha, beta, value) is the number 1, so the multiplication can go.
bool is_one(const Value& v);
// A torch.fft normalization (None: "backward") traded for its adjoint's: no scaling and 1/n trade
// places, "ortho" stays (the Hermitian transforms and the transforms' gradients use it).
Value swapped_fft_norm(const Value& norm);

}  // namespace thundercc::langs
