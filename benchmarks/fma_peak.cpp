// The FMA peak of this machine's cores, float32, measured as the roofline asks: each
// thread runs independent chains of fused multiply-adds on registers (enough chains to cover the
// FMA latency on every port), nothing read from memory, and the best of several rounds counts.
// AVX-512 where the CPU has it, else AVX2 with FMA.
//
//   fma_peak [THREADS] [avx2]    prints "fma_peak_gflops <GFLOP/s over all threads>" (avx2: AVX2
//                                on a CPU with AVX-512 too, whose peak may differ: Zen 4 runs
//                                AVX-512 at the same FLOPs per cycle; also where ATen is held to
//                                AVX2, ATEN_CPU_CAPABILITY=avx2, as scripts/bench_avx2.sh holds
//                                every library, so that the peak is that of the code measured)
#include <immintrin.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

namespace {

// Independent chains: enough to cover the FMA latency (4-5 cycles) on both FMA ports, and few
// enough that they and the two constants stay in registers. AVX2 has 16 ymm registers: 16 chains
// and 2 constants spilled 3 to the stack and measured 58 of a Zen 3's 103.7 GFLOP/s; 12 leave room.
// AVX-512 has 32 zmm registers. (objdump -d fma_peak: no load or store of the stack in the loops.)
constexpr int kChainsAvx2 = 12, kChainsAvx512 = 16;
constexpr long kIterations = 20'000'000;

// Each returns the flops it did (2 per lane per FMA), the result kept alive through `sink`.
volatile float sink;

__attribute__((target("avx512f"))) double run_avx512() {
  __m512 acc[kChainsAvx512];
  const __m512 factor = _mm512_set1_ps(0.999999f), addend = _mm512_set1_ps(1e-7f);
  for (auto& a : acc) a = _mm512_set1_ps(1.0f);
  for (long i = 0; i < kIterations; ++i)
#pragma GCC unroll 16
    for (auto& a : acc) a = _mm512_fmadd_ps(a, factor, addend);
  float total = 0;
  for (auto& a : acc) total += _mm512_reduce_add_ps(a);
  sink = total;
  return 2.0 * 16 * kChainsAvx512 * kIterations;
}

__attribute__((target("avx2,fma"))) double run_avx2() {
  __m256 acc[kChainsAvx2];
  const __m256 factor = _mm256_set1_ps(0.999999f), addend = _mm256_set1_ps(1e-7f);
  for (auto& a : acc) a = _mm256_set1_ps(1.0f);
  for (long i = 0; i < kIterations; ++i)
#pragma GCC unroll 16
    for (auto& a : acc) a = _mm256_fmadd_ps(a, factor, addend);
  alignas(32) float lanes[8];
  float total = 0;
  for (auto& a : acc) {
    _mm256_store_ps(lanes, a);
    for (float x : lanes) total += x;
  }
  sink = total;
  return 2.0 * 8 * kChainsAvx2 * kIterations;
}

}  // namespace

int main(int argc, char** argv) {
  const int threads = argc > 1 ? std::atoi(argv[1]) : 1;
  if (threads < 1) {
    std::fprintf(stderr, "usage: fma_peak [THREADS]\n");
    return 2;
  }
  const char* aten_isa = std::getenv("ATEN_CPU_CAPABILITY");
  const bool avx2_asked = (argc > 2 && std::string(argv[2]) == "avx2") || (aten_isa && std::string(aten_isa) == "avx2");
  const bool avx512 = __builtin_cpu_supports("avx512f") && !avx2_asked;
  double best = 0;
  for (int round = 0; round < 5; ++round) {
    std::vector<double> flops(threads);
    auto start = std::chrono::steady_clock::now();
    std::vector<std::thread> workers;
    for (int t = 0; t < threads; ++t) workers.emplace_back([&, t] { flops[t] = avx512 ? run_avx512() : run_avx2(); });
    for (auto& w : workers) w.join();
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    double total = 0;
    for (double f : flops) total += f;
    best = std::max(best, total / seconds / 1e9);
  }
  std::printf("fma_peak_gflops %.1f\nisa %s\n", best, avx512 ? "avx512" : "avx2");
}
