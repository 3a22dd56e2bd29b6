// SHA-256 (FIPS 180-4): names generated kernels by their source and checks a plan's kernel
// library before the runner loads it.
#pragma once

#include <string>
#include <string_view>

namespace thundercc {

// The digest of `data` as 64 lowercase hex digits.
std::string sha256_hex(std::string_view data);

}  // namespace thundercc
