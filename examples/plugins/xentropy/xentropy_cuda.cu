// CUDA kernels of the xentropy executor: the same per-row forward (loss and log-sum-exp) and
// backward as xentropy.cpp, one thread block per row with block-wide reductions. Built to PTX
// where nvcc is (CMake target xentropy_cuda_ptx); LibTorch here is CPU-only, so the plugin's
// kernels run the CPU versions.
#include <cstdint>
#include <math_constants.h>

namespace {

constexpr int kThreads = 256;

template <class Op>
__device__ float block_reduce(float value, Op op, float identity) {
  __shared__ float shared[kThreads / 32];
  for (int offset = 16; offset > 0; offset /= 2) value = op(value, __shfl_down_sync(0xffffffff, value, offset));
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0) shared[warp] = value;
  __syncthreads();
  value = threadIdx.x < blockDim.x / 32 ? shared[lane] : identity;
  if (warp == 0)
    for (int offset = 16; offset > 0; offset /= 2) value = op(value, __shfl_down_sync(0xffffffff, value, offset));
  __shared__ float result;
  if (threadIdx.x == 0) result = value;
  __syncthreads();
  return result;
}

struct Max {
  __device__ float operator()(float a, float b) const { return fmaxf(a, b); }
};
struct Sum {
  __device__ float operator()(float a, float b) const { return a + b; }
};

}  // namespace

extern "C" __global__ void xentropy_forward(const float* logits, const int64_t* labels, float* losses, float* lse,
                                            int64_t classes, int64_t ignore_index, float smoothing) {
  const int64_t row = blockIdx.x;
  const float* x = logits + row * classes;
  float max = -CUDART_INF_F, sum = 0.f, total = 0.f;
  for (int64_t j = threadIdx.x; j < classes; j += blockDim.x) max = fmaxf(max, x[j]);
  max = block_reduce(max, Max{}, -CUDART_INF_F);
  for (int64_t j = threadIdx.x; j < classes; j += blockDim.x) {
    sum += __expf(x[j] - max);
    total += x[j];
  }
  sum = block_reduce(sum, Sum{}, 0.f);
  total = block_reduce(total, Sum{}, 0.f);
  if (threadIdx.x == 0) {
    float log_sum_exp = max + logf(sum);
    lse[row] = log_sum_exp;
    int64_t t = labels[row];
    losses[row] = t == ignore_index
                      ? 0.f
                      : (1.f - smoothing) * (log_sum_exp - x[t]) + smoothing * (log_sum_exp - total / static_cast<float>(classes));
  }
}

extern "C" __global__ void xentropy_backward(const float* grad, const float* logits, const int64_t* labels, const float* lse,
                                             float* grad_logits, int64_t classes, int64_t ignore_index, float smoothing) {
  const int64_t row = blockIdx.x;
  const float* x = logits + row * classes;
  float* dx = grad_logits + row * classes;
  const int64_t t = labels[row];
  const float uniform = smoothing / static_cast<float>(classes);
  for (int64_t j = threadIdx.x; j < classes; j += blockDim.x) {
    if (t == ignore_index) {
      dx[j] = 0.f;
      continue;
    }
    float p = __expf(x[j] - lse[row]);
    float target = (j == t ? 1.f - smoothing : 0.f) + uniform;
    dx[j] = grad[row] * (p - target);
  }
}
