// The running CPU's instruction-set features, by the names GCC's __builtin_cpu_supports knows:
// what a library built with -march=native may use, so what a machine that loads it must have.
#pragma once

#include <string>
#include <vector>

namespace thundercc {

// The features of this CPU, in a fixed order (empty off x86-64).
std::vector<std::string> cpu_features();
// The x86-64 microarchitecture level those features reach ("x86-64-v4", "x86-64-v3", ...).
std::string isa_level(const std::vector<std::string>& features);

}  // namespace thundercc
