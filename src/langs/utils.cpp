#include "langs/utils.h"

#include <algorithm>

namespace thundercc::langs {

int64_t canonicalize_dim(int64_t rank, int64_t dim) {
  int64_t r = std::max<int64_t>(rank, 1);
  check(dim >= -r && dim < r,
        [&] { return str("Dimension out of range (expected to be in range of [", -r, ", ", r - 1, "], but got ", dim, ")"); },
        "IndexError");
  return dim < 0 ? dim + r : dim;
}

std::vector<int64_t> canonicalize_dims(int64_t rank, const std::vector<int64_t>& dims) {
  std::vector<int64_t> out;
  for (auto d : dims) {
    auto c = canonicalize_dim(rank, d);
    check(std::find(out.begin(), out.end(), c) == out.end(),
          [&] { return str("Duplicate value in list of dimensions ", dims_repr(dims), "!"); });
    out.push_back(c);
  }
  return out;
}

Shape broadcast_shapes(const std::vector<Shape>& shapes) {
  size_t rank = 0;
  for (const auto& s : shapes) rank = std::max(rank, s.size());
  Shape out(rank, 1);
  for (const auto& s : shapes) {
    size_t offset = rank - s.size();
    for (size_t i = 0; i < s.size(); ++i) {
      int64_t& o = out[offset + i];
      if (s[i] == o || s[i] == 1) continue;
      check(o == 1, [&] {
        std::string all;
        for (size_t k = 0; k < shapes.size(); ++k) all += (k ? " and " : "") + shape_repr(shapes[k]);
        return str("Attempting to broadcast a dimension of length ", s[i], " at ", static_cast<int64_t>(i) - static_cast<int64_t>(s.size()),
                   "! Mismatching argument at index ", offset + i, " had shapes ", all, ".");
      });
      o = s[i];
    }
  }
  return out;
}

std::string dims_repr(const std::vector<int64_t>& dims) {
  std::string out = "[";
  for (size_t i = 0; i < dims.size(); ++i) out += (i ? ", " : "") + std::to_string(dims[i]);
  return out + "]";
}

bool is_one(const Value& v) {
  return !v.is_tensor() && v.is_number() && v.number_kind() != NumberKind::Complex && v.as_float() == 1.0;
}

Value swapped_fft_norm(const Value& norm) {
  std::string n = norm.is_none() ? "backward" : norm.as_string();
  return n == "backward" ? std::string("forward") : n == "forward" ? std::string("backward") : n;
}

}  // namespace thundercc::langs
