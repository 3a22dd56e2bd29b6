#include "thundercc/support/cpu_features.h"

#include <algorithm>
#include <initializer_list>

namespace thundercc {

std::vector<std::string> cpu_features() {
  std::vector<std::string> out;
#if defined(__x86_64__) && defined(__GNUC__)
  __builtin_cpu_init();
  // __builtin_cpu_supports takes a string literal, hence one line per feature.
#define THUNDERCC_FEATURE(name) \
  if (__builtin_cpu_supports(name)) out.push_back(name);
  THUNDERCC_FEATURE("cmov") THUNDERCC_FEATURE("popcnt") THUNDERCC_FEATURE("sse3") THUNDERCC_FEATURE("ssse3")
  THUNDERCC_FEATURE("sse4.1") THUNDERCC_FEATURE("sse4.2") THUNDERCC_FEATURE("avx") THUNDERCC_FEATURE("avx2")
  THUNDERCC_FEATURE("bmi") THUNDERCC_FEATURE("bmi2") THUNDERCC_FEATURE("fma") THUNDERCC_FEATURE("fma4")
  THUNDERCC_FEATURE("aes") THUNDERCC_FEATURE("pclmul") THUNDERCC_FEATURE("avx512f") THUNDERCC_FEATURE("avx512vl")
  THUNDERCC_FEATURE("avx512bw") THUNDERCC_FEATURE("avx512dq") THUNDERCC_FEATURE("avx512cd") THUNDERCC_FEATURE("avx512vbmi")
  THUNDERCC_FEATURE("avx512ifma") THUNDERCC_FEATURE("avx512vpopcntdq") THUNDERCC_FEATURE("avx512vbmi2")
  THUNDERCC_FEATURE("avx512vnni") THUNDERCC_FEATURE("avx512bitalg") THUNDERCC_FEATURE("avx512bf16")
  THUNDERCC_FEATURE("gfni") THUNDERCC_FEATURE("vpclmulqdq")
#undef THUNDERCC_FEATURE
#endif
  return out;
}

std::string isa_level(const std::vector<std::string>& features) {
  auto has = [&](std::initializer_list<const char*> names) {
    return std::all_of(names.begin(), names.end(), [&](const char* n) { return std::find(features.begin(), features.end(), n) != features.end(); });
  };
  if (!has({"cmov"})) return "unknown";
  if (!has({"popcnt", "sse3", "ssse3", "sse4.1", "sse4.2"})) return "x86-64";
  if (!has({"avx", "avx2", "bmi", "bmi2", "fma"})) return "x86-64-v2";
  if (!has({"avx512f", "avx512vl", "avx512bw", "avx512dq", "avx512cd"})) return "x86-64-v3";
  return "x86-64-v4";
}

}  // namespace thundercc
