#include "runtime/cublaslt.h"

#include <dlfcn.h>

#include <cstddef>
#include <mutex>
#include <type_traits>
#include <unordered_map>

#ifdef THUNDERCC_CUBLASLT_H
#include <cublasLt.h>  // only to check the declarations below against it
#endif

#include "runtime/library_symbols.h"
#include "runtime/same_abi.h"
#include "thundercc/errors.h"

namespace thundercc::runtime {
namespace {

// cuBLASLt's algorithm and heuristic result structures, as cublasLt.h lays them out.
struct Algo {
  uint64_t data[8];
};
struct Heuristic {
  Algo algo;
  size_t workspace_size;
  int state;
  float waves;
  int reserved[4];
};

// The part of cuBLASLt used here: results are ints (cublasStatus_t), 0 is success; handles and
// descriptors are pointers; enums (compute type, data type, attributes) are ints.
struct LtApi {
  int (*create)(void**) = nullptr;
  size_t (*get_version)() = nullptr;
  const char* (*status_string)(int) = nullptr;
  int (*desc_create)(void**, int, int) = nullptr;
  int (*desc_destroy)(void*) = nullptr;
  int (*desc_set)(void*, int, const void*, size_t) = nullptr;
  int (*layout_create)(void**, int, uint64_t, uint64_t, int64_t) = nullptr;
  int (*layout_destroy)(void*) = nullptr;
  int (*preference_create)(void**) = nullptr;
  int (*preference_destroy)(void*) = nullptr;
  int (*preference_set)(void*, int, const void*, size_t) = nullptr;
  int (*heuristic)(void*, void*, void*, void*, void*, void*, void*, int, Heuristic*, int*) = nullptr;
  int (*matmul)(void*, void*, const void*, const void*, void*, const void*, void*, const void*, const void*, void*, void*, void*,
                const Algo*, void*, size_t, void*) = nullptr;
  std::string problem;
};

// CUBLAS_COMPUTE_32F (float32 throughout, as ATen's float32 products without TF32), CUDA_R_32F,
// CUBLAS_OP_N and _T, the descriptor's and preference's attributes, and the epilogues.
constexpr int kCompute32F = 68, kR32F = 0, kOpN = 0, kOpT = 1;
constexpr int kTransA = 3, kTransB = 4, kEpilogue = 7, kBiasPointer = 8;
constexpr int kMaxWorkspace = 1, kAlignA = 5, kAlignB = 6, kAlignC = 7, kAlignD = 8;
constexpr uint32_t kRelu = 2, kReluBias = 6, kGelu = 32, kGeluBias = 36;

#ifdef THUNDERCC_CUBLASLT_H
// Where the CUDA toolkit is installed, the declarations above are checked against cublasLt.h
// (same_abi.h), and the structures' layout and the constants too.
#define THUNDERCC_SAME_AS_CUBLASLT_H(field, function) \
  static_assert(SameAbi<decltype(LtApi::field), decltype(&::function)>::value, #function " is declared otherwise in cublasLt.h")
THUNDERCC_SAME_AS_CUBLASLT_H(create, cublasLtCreate);
THUNDERCC_SAME_AS_CUBLASLT_H(get_version, cublasLtGetVersion);
THUNDERCC_SAME_AS_CUBLASLT_H(status_string, cublasLtGetStatusString);
THUNDERCC_SAME_AS_CUBLASLT_H(desc_create, cublasLtMatmulDescCreate);
THUNDERCC_SAME_AS_CUBLASLT_H(desc_destroy, cublasLtMatmulDescDestroy);
THUNDERCC_SAME_AS_CUBLASLT_H(desc_set, cublasLtMatmulDescSetAttribute);
THUNDERCC_SAME_AS_CUBLASLT_H(layout_create, cublasLtMatrixLayoutCreate);
THUNDERCC_SAME_AS_CUBLASLT_H(layout_destroy, cublasLtMatrixLayoutDestroy);
THUNDERCC_SAME_AS_CUBLASLT_H(preference_create, cublasLtMatmulPreferenceCreate);
THUNDERCC_SAME_AS_CUBLASLT_H(preference_destroy, cublasLtMatmulPreferenceDestroy);
THUNDERCC_SAME_AS_CUBLASLT_H(preference_set, cublasLtMatmulPreferenceSetAttribute);
THUNDERCC_SAME_AS_CUBLASLT_H(heuristic, cublasLtMatmulAlgoGetHeuristic);
THUNDERCC_SAME_AS_CUBLASLT_H(matmul, cublasLtMatmul);
#undef THUNDERCC_SAME_AS_CUBLASLT_H
static_assert(sizeof(Algo) == sizeof(cublasLtMatmulAlgo_t) && sizeof(Heuristic) == sizeof(cublasLtMatmulHeuristicResult_t) &&
              offsetof(Heuristic, workspace_size) == offsetof(cublasLtMatmulHeuristicResult_t, workspaceSize) &&
              offsetof(Heuristic, state) == offsetof(cublasLtMatmulHeuristicResult_t, state));
static_assert(kCompute32F == CUBLAS_COMPUTE_32F && kR32F == CUDA_R_32F && kOpN == CUBLAS_OP_N && kOpT == CUBLAS_OP_T);
static_assert(kTransA == CUBLASLT_MATMUL_DESC_TRANSA && kTransB == CUBLASLT_MATMUL_DESC_TRANSB && kEpilogue == CUBLASLT_MATMUL_DESC_EPILOGUE &&
              kBiasPointer == CUBLASLT_MATMUL_DESC_BIAS_POINTER);
static_assert(kMaxWorkspace == CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES && kAlignA == CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES &&
              kAlignB == CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES && kAlignC == CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES &&
              kAlignD == CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES);
static_assert(kRelu == CUBLASLT_EPILOGUE_RELU && kReluBias == CUBLASLT_EPILOGUE_RELU_BIAS && kGelu == CUBLASLT_EPILOGUE_GELU &&
              kGeluBias == CUBLASLT_EPILOGUE_GELU_BIAS);
#endif

const LtApi& lt() {
  static const LtApi loaded = [] {
    LtApi a;
    // The one LibTorch's CUDA build loaded, where it did; else the newest found.
    void* handle = nullptr;
    for (int flags : {RTLD_NOW | RTLD_NOLOAD, RTLD_NOW | RTLD_LOCAL})
      for (const char* name : {"libcublasLt.so.13", "libcublasLt.so.12", "libcublasLt.so"})
        if (!handle) handle = dlopen(name, flags);
    if (!handle) {
      a.problem = std::string("cuBLASLt (libcublasLt.so.13 or .12) is not found: ") + dlerror();
      return a;
    }
    auto get = [&](auto& fn, const char* name) { find_function(handle, fn, name, "cuBLASLt", a.problem); };
    get(a.create, "cublasLtCreate");
    get(a.get_version, "cublasLtGetVersion");
    get(a.status_string, "cublasLtGetStatusString");
    get(a.desc_create, "cublasLtMatmulDescCreate");
    get(a.desc_destroy, "cublasLtMatmulDescDestroy");
    get(a.desc_set, "cublasLtMatmulDescSetAttribute");
    get(a.layout_create, "cublasLtMatrixLayoutCreate");
    get(a.layout_destroy, "cublasLtMatrixLayoutDestroy");
    get(a.preference_create, "cublasLtMatmulPreferenceCreate");
    get(a.preference_destroy, "cublasLtMatmulPreferenceDestroy");
    get(a.preference_set, "cublasLtMatmulPreferenceSetAttribute");
    get(a.heuristic, "cublasLtMatmulAlgoGetHeuristic");
    get(a.matmul, "cublasLtMatmul");
    return a;
  }();
  return loaded;
}

const LtApi& usable() {
  const LtApi& a = lt();
  if (!a.problem.empty()) throw ThunderError("RuntimeError", a.problem);
  return a;
}

void check(int status, const char* what) {
  if (status == 0) return;
  const char* message = lt().status_string ? lt().status_string(status) : nullptr;
  throw ThunderError("RuntimeError", str(what, " failed: ", message ? message : "cuBLAS status " + std::to_string(status)));
}

// The largest power of two up to 256 dividing the address (what the algorithm may assume).
uint32_t alignment(const void* p) {
  uint32_t a = 256;
  while (a > 1 && reinterpret_cast<uintptr_t>(p) % a != 0) a /= 2;
  return a;
}

// Descriptors destroyed however the call ends.
template <class Destroy>
struct Owned {
  void* p = nullptr;
  Destroy destroy;
  ~Owned() {
    if (p) destroy(p);
  }
};

}  // namespace

const std::string& cublaslt_problem() { return lt().problem; }

size_t cublaslt_version() { return lt().problem.empty() ? lt().get_version() : 0; }

void cublaslt_linear(const LtLinear& p, int device, void* stream, void* workspace, size_t workspace_bytes) {
  const LtApi& a = usable();
  // One handle per device, made with it current (the caller's device guard), kept while the process runs.
  static std::mutex mutex;
  static std::unordered_map<int, void*> handles;
  void* handle = nullptr;
  {
    std::lock_guard<std::mutex> lock(mutex);
    void*& h = handles[device];
    if (!h) check(a.create(&h), "cublasLtCreate");
    handle = h;
  }
  // Column-major, as cuBLASLt reads: out^T [n, m] = weight [k, n]^T x^T [k, m], the bias along out^T's rows.
  Owned<int (*)(void*)> desc{nullptr, a.desc_destroy}, wl{nullptr, a.layout_destroy}, xl{nullptr, a.layout_destroy},
      ol{nullptr, a.layout_destroy}, pref{nullptr, a.preference_destroy};
  check(a.desc_create(&desc.p, kCompute32F, kR32F), "cublasLtMatmulDescCreate");
  const int32_t transposed = kOpT, plain = kOpN;
  check(a.desc_set(desc.p, kTransA, &transposed, sizeof transposed), "cublasLtMatmulDescSetAttribute(TRANSA)");
  check(a.desc_set(desc.p, kTransB, &plain, sizeof plain), "cublasLtMatmulDescSetAttribute(TRANSB)");
  const bool relu = p.activation == plan::Activation::relu;
  const uint32_t epilogue = p.bias ? (relu ? kReluBias : kGeluBias) : (relu ? kRelu : kGelu);
  check(a.desc_set(desc.p, kEpilogue, &epilogue, sizeof epilogue), "cublasLtMatmulDescSetAttribute(EPILOGUE)");
  if (p.bias) check(a.desc_set(desc.p, kBiasPointer, &p.bias, sizeof p.bias), "cublasLtMatmulDescSetAttribute(BIAS_POINTER)");
  check(a.layout_create(&wl.p, kR32F, p.k, p.n, p.k), "cublasLtMatrixLayoutCreate");
  check(a.layout_create(&xl.p, kR32F, p.k, p.m, p.k), "cublasLtMatrixLayoutCreate");
  check(a.layout_create(&ol.p, kR32F, p.n, p.m, p.n), "cublasLtMatrixLayoutCreate");
  check(a.preference_create(&pref.p), "cublasLtMatmulPreferenceCreate");
  const uint64_t bytes = workspace_bytes;
  check(a.preference_set(pref.p, kMaxWorkspace, &bytes, sizeof bytes), "cublasLtMatmulPreferenceSetAttribute");
  const std::pair<int, const void*> aligned[] = {{kAlignA, p.weight}, {kAlignB, p.x}, {kAlignC, p.out}, {kAlignD, p.out}};
  for (const auto& [attribute, pointer] : aligned) {
    const uint32_t bytes_aligned = alignment(pointer);
    check(a.preference_set(pref.p, attribute, &bytes_aligned, sizeof bytes_aligned), "cublasLtMatmulPreferenceSetAttribute");
  }
  Heuristic best{};
  int found = 0;
  check(a.heuristic(handle, desc.p, wl.p, xl.p, ol.p, ol.p, pref.p, 1, &best, &found), "cublasLtMatmulAlgoGetHeuristic");
  if (found == 0) throw ThunderError("RuntimeError", str("cuBLASLt has no algorithm for this epilogue's product (", p.m, " x ", p.k, " by ", p.n, ")"));
  const float one = 1, zero = 0;
  check(a.matmul(handle, desc.p, &one, p.weight, wl.p, p.x, xl.p, &zero, p.out, ol.p, p.out, ol.p, &best.algo, workspace, workspace_bytes, stream),
        "cublasLtMatmul");
}

bool bytes_overlap(const void* a, size_t a_bytes, const void* b, size_t b_bytes) {
  const auto x = reinterpret_cast<uintptr_t>(a), y = reinterpret_cast<uintptr_t>(b);
  return a_bytes && b_bytes && x < y + b_bytes && y < x + a_bytes;
}

const char* overlapped_operand(const void* out, size_t out_bytes, const std::vector<LtOperand>& operands) {
  for (const LtOperand& o : operands)
    if (o.data && bytes_overlap(out, out_bytes, o.data, o.bytes)) return o.name;
  return nullptr;
}

std::string epilogue_choice_key(const std::string& gpu, size_t version, int64_t m, int64_t n, int64_t k, bool bias,
                                plan::Activation activation) {
  return str(gpu, "\ncuBLASLt ", version, "\nlinear ", m, " x ", k, " by ", n, bias ? " with bias" : " without bias", ", then ",
             plan::activation_name(activation));
}

}  // namespace thundercc::runtime
