#include "thundercc/executors/fuser/cuda_emulation.h"

#include "thundercc/errors.h"

namespace thundercc::fuser {
namespace {

// What the emulator and the kernels share: the built-in variables and the barrier.
constexpr const char* kBuiltins =
    "struct tcc_dim3 { unsigned x, y, z; };\n"
    "extern \"C\" tcc_dim3 tcc_emu_threadIdx, tcc_emu_blockIdx, tcc_emu_blockDim, tcc_emu_gridDim;\n"
    "extern \"C\" void tcc_emu_syncthreads();\n"
    "extern \"C\" void tcc_emu_misaligned();\n"
    "extern \"C\" void tcc_emu_shuffle(unsigned mask, const void* value, unsigned source_lane, void* result, unsigned bytes);\n"
    "extern \"C\" int tcc_emu_launch(void (*)(void**), void**, unsigned, unsigned);\n";

// The fiber scheduler. The fibers' stacks (64 KiB each: a kernel's locals are scalars) are kept
// for the next launch. threadIdx is set before a fiber resumes; the kernel reads it again after
// each __syncthreads or shuffle, external calls. Warps take turns between block barriers, each
// running as far as it can before the next, so a warp that writes shared memory for its next row
// before the others have read this row's is caught. A shuffle is a barrier of the thread's warp:
// each lane leaves its value in its slot and waits; once all 32 lanes of the warp wait, the
// scheduler gives each the value of the lane it named (all read before any lane runs on and
// writes its slot again), so warps may run different numbers of rows, as on a GPU.
constexpr const char* kEmulator = R"(#include <ucontext.h>

#include <cstdlib>
#include <cstring>
#include <vector>

// The kernels' __shared__ arrays, all in one section (none: null).
extern "C" char __start_tcc_shared[] __attribute__((weak));
extern "C" char __stop_tcc_shared[] __attribute__((weak));

namespace {

enum class State { Ready, AtBarrier, AtShuffle, Done };
constexpr size_t kStackBytes = 64 << 10;
constexpr unsigned kWarpSize = 32;

// A lane's part in a shuffle: the value it offers and the lane it reads (values of up to 8 bytes).
struct Shuffle {
  unsigned mask, source;
  unsigned char value[8], result[8];
};

struct Block {
  ucontext_t scheduler;
  std::vector<ucontext_t> fibers;
  std::vector<State> state;
  std::vector<Shuffle> shuffles;
  std::vector<char> stacks;
  void (*entry)(void**) = nullptr;
  void** params = nullptr;
  unsigned current = 0;
  bool misaligned = false;  // a vector loaded or stored where a GPU faults
};
Block block;

void run_thread() {
  block.entry(block.params);
  block.state[block.current] = State::Done;
}  // returns to uc_link, the scheduler

// Runs warp `w` until none of its lanes can go on: each ready lane (in `descending` order or
// not) until it waits or ends, the warp's shuffle completed whenever all its lanes wait at one.
// False when a lane's shuffle names less than the full mask (the kernels shuffle whole warps only).
bool run_warp(unsigned w, bool descending) {
  const unsigned first = w * kWarpSize, end = first + kWarpSize;
  for (;;) {
    for (unsigned i = 0; i < kWarpSize; ++i) {
      unsigned t = descending ? end - 1 - i : first + i;
      if (block.state[t] != State::Ready) continue;
      block.current = t;
      tcc_emu_threadIdx = {t, 0, 0};
      swapcontext(&block.scheduler, &block.fibers[t]);
    }
    for (unsigned t = first; t < end; ++t)
      if (block.state[t] != State::AtShuffle) return true;
    for (unsigned t = first; t < end; ++t) {
      Shuffle& s = block.shuffles[t];
      if (s.mask != 0xffffffffu) return false;
      std::memcpy(s.result, block.shuffles[first + s.source].value, sizeof s.result);
    }
    for (unsigned t = first; t < end; ++t) block.state[t] = State::Ready;
  }
}

}  // namespace

extern "C" {

tcc_dim3 tcc_emu_threadIdx, tcc_emu_blockIdx, tcc_emu_blockDim, tcc_emu_gridDim;

void tcc_emu_syncthreads() {
  block.state[block.current] = State::AtBarrier;
  swapcontext(&block.fibers[block.current], &block.scheduler);
}

void tcc_emu_misaligned() { block.misaligned = true; }

void tcc_emu_shuffle(unsigned mask, const void* value, unsigned source_lane, void* result, unsigned bytes) {
  const unsigned self = block.current;
  Shuffle& s = block.shuffles[self];
  s.mask = mask;
  s.source = source_lane;
  std::memcpy(s.value, value, bytes);
  block.state[self] = State::AtShuffle;
  swapcontext(&block.fibers[self], &block.scheduler);
  std::memcpy(result, block.shuffles[self].result, bytes);
}

int tcc_emu_launch(void (*entry)(void**), void** params, unsigned grid, unsigned threads) {
  if (threads % kWarpSize != 0) return 1;  // a block is whole warps (the kernels' are 256 threads)
  const unsigned warps = threads / kWarpSize;
  block.entry = entry;
  block.params = params;
  block.fibers.resize(threads);
  block.state.resize(threads);
  block.shuffles.resize(threads);
  block.misaligned = false;
  if (block.stacks.size() < threads * kStackBytes) block.stacks.resize(threads * kStackBytes);
  const char* mode = std::getenv("THUNDERCC_CUDA_EMULATOR");
  unsigned alternate = mode && std::strcmp(mode, "alternate") == 0;
  if (alternate && grid > 3) grid = 3;  // blocks take several rows, threads several elements
  tcc_emu_gridDim = {grid, 1, 1};
  tcc_emu_blockDim = {threads, 1, 1};
  for (unsigned b = 0; b < grid; ++b) {
    tcc_emu_blockIdx = {b, 0, 0};
    // Shared memory starts as garbage on a GPU: here all bits set (NaN, -1), never what the previous block left.
    if (__start_tcc_shared) std::memset(__start_tcc_shared, 0xff, __stop_tcc_shared - __start_tcc_shared);
    for (unsigned t = 0; t < threads; ++t) {
      ucontext_t& fiber = block.fibers[t];
      getcontext(&fiber);
      fiber.uc_stack.ss_sp = &block.stacks[t * kStackBytes];
      fiber.uc_stack.ss_size = kStackBytes;
      fiber.uc_link = &block.scheduler;
      makecontext(&fiber, run_thread, 0);
      block.state[t] = State::Ready;
    }
    for (unsigned phase = 0;; ++phase) {
      const bool descending = (phase + alternate) % 2;
      for (unsigned i = 0; i < warps; ++i)
        if (!run_warp(descending ? warps - 1 - i : i, descending)) return 1;
      unsigned done = 0, waiting = 0;
      for (State s : block.state) {
        done += s == State::Done;
        waiting += s == State::AtBarrier;
      }
      if (done == threads) break;
      if (waiting != threads) return 1;  // some wait where others never arrive: ended, or at a shuffle
      for (State& s : block.state) s = State::Ready;
    }
  }
  return block.misaligned ? 2 : 0;
}

}  // extern "C"
)";

// CUDA's keywords and the bit casts the kernels use, for the host compiler. The calls through
// `params` unpack cuLaunchKernel's kernelParams: params[k] points to argument k.
constexpr const char* kKernelHeader =
    "#define __global__\n#define __device__\n#define __shared__ static __attribute__((section(\"tcc_shared\")))\n"
    "#define __restrict__ __restrict\n#define __align__(n) __attribute__((aligned(n)))\n"
    "#define TCC_CHECK_ALIGNED(p, bytes) if ((unsigned long long)(p) % (bytes)) tcc_emu_misaligned()\n"
    "#define threadIdx tcc_emu_threadIdx\n#define blockIdx tcc_emu_blockIdx\n#define blockDim tcc_emu_blockDim\n"
    "#define gridDim tcc_emu_gridDim\n#define __syncthreads tcc_emu_syncthreads\n"
    "template <class T> static inline T tcc_shuffle(unsigned mask, T v, unsigned source_lane) {\n"
    "  T r;\n"
    "  tcc_emu_shuffle(mask, &v, source_lane, &r, sizeof(T));\n"
    "  return r;\n"
    "}\n"
    "template <class T> static inline T __shfl_sync(unsigned mask, T v, int lane) { return tcc_shuffle(mask, v, lane & 31); }\n"
    "template <class T> static inline T __shfl_down_sync(unsigned mask, T v, unsigned delta) {\n"
    "  const unsigned lane = threadIdx.x % 32;\n"
    "  return tcc_shuffle(mask, v, lane + delta < 32 ? lane + delta : lane);\n"
    "}\n"
    "static inline unsigned __float_as_uint(float f) { unsigned b; __builtin_memcpy(&b, &f, sizeof b); return b; }\n"
    "static inline float __uint_as_float(unsigned b) { float f; __builtin_memcpy(&f, &b, sizeof f); return f; }\n"
    "static inline float __int_as_float(int b) { float f; __builtin_memcpy(&f, &b, sizeof f); return f; }\n"
    "static inline double __longlong_as_double(long long b) { double f; __builtin_memcpy(&f, &b, sizeof f); return f; }\n"
    "template <unsigned... I> struct tcc_indices {};\n"
    "template <unsigned N, unsigned... I> struct tcc_make_indices : tcc_make_indices<N - 1, N - 1, I...> {};\n"
    "template <unsigned... I> struct tcc_make_indices<0, I...> { using type = tcc_indices<I...>; };\n"
    "template <class... A, unsigned... I> static void tcc_call(void (*f)(A...), void** p, tcc_indices<I...>) {\n"
    "  f(*static_cast<A*>(p[I])...);\n"
    "}\n"
    "template <class... A> static void tcc_invoke(void (*f)(A...), void** p) {\n"
    "  tcc_call(f, p, typename tcc_make_indices<sizeof...(A)>::type{});\n"
    "}\n";

}  // namespace

GeneratedKernel cuda_emulator() { return {"tcc_cuda_emulator", std::string(kBuiltins) + kEmulator}; }

GeneratedKernel emulated_cuda_kernel(const GeneratedKernel& kernel) {
  const std::string& f = kernel.function;
  std::string source = std::string(kBuiltins) + kKernelHeader + host_math_declarations() + kernel.source;
  source += str("static void ", f, "_entry(void** p) { tcc_invoke(", f, ", p); }\n");
  source += str("extern \"C\" int ", emulated_launch_name(f), "(void** p, unsigned grid, unsigned block) {\n",
                "  return tcc_emu_launch(", f, "_entry, p, grid, block);\n}\n");
  // Named apart from the CUDA kernel: the kernel cache keys objects by source, names by function.
  return {f + "_emulated", source};
}

}  // namespace thundercc::fuser
