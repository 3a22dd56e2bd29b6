#include "runtime/linear_epilogue.h"

#include <ATen/ATen.h>
#include <c10/core/DeviceGuard.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <mutex>

#include "runtime/cublaslt.h"
#include "runtime/cuda_driver.h"
#include "runtime/cuda_streams.h"
#include "thundercc/errors.h"
#include "thundercc/executors/fuser/kernel_library.h"
#include "thundercc/support/sha256.h"

namespace thundercc::runtime {
namespace {

constexpr size_t kWorkspaceBytes = size_t{32} << 20;  // cuBLASLt's recommendation for Hopper

enum class Choice { measure, fused, separate };

Choice forced_choice() {
  static const Choice choice = [] {
    const char* v = std::getenv("THUNDERCC_LINEAR_EPILOGUE");
    if (!v || !*v) return Choice::measure;
    if (std::strcmp(v, "fused") == 0) return Choice::fused;
    if (std::strcmp(v, "separate") == 0) return Choice::separate;
    throw ThunderError("RuntimeError", str("THUNDERCC_LINEAR_EPILOGUE is '", v, "': 'fused' or 'separate' was expected"));
  }();
  return choice;
}

// cuBLASLt's scratch memory on a device, allocated at its first product (a warm-up run, before a
// graph records) and kept.
void* workspace(const at::Device& device) {
  static std::mutex mutex;
  static std::map<int, at::Tensor> spaces;
  std::lock_guard<std::mutex> lock(mutex);
  at::Tensor& space = spaces[device.index()];
  if (!space.defined()) space = at::empty({static_cast<int64_t>(kWorkspaceBytes)}, at::TensorOptions().dtype(at::kByte).device(device));
  return space.data_ptr();
}

// The best of three timed runs (seconds, the stream waited for after each) of each, after one
// that warms up, interleaved so that the device's load falls on both alike.
std::pair<double, double> best_times(void* stream, const std::function<void()>& first, const std::function<void()>& second) {
  auto seconds = [&](const std::function<void()>& run) {
    auto start = std::chrono::steady_clock::now();
    run();
    synchronize_stream(stream);
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  seconds(first);
  seconds(second);
  double a = std::numeric_limits<double>::infinity(), b = a;
  for (int round = 0; round < 3; ++round) {
    a = std::min(a, seconds(first));
    b = std::min(b, seconds(second));
  }
  return {a, b};
}

}  // namespace

bool LinearEpilogue::run(KernelCall& linear, KernelCall& region) const {
  const Choice forced = forced_choice();
  if (forced == Choice::separate || !cublaslt_problem().empty()) return false;
  const at::Tensor& x = linear.arg(0).tensor();
  const at::Tensor& weight = linear.arg(1).tensor();
  const c10::optional<at::Tensor> bias = linear.size() > 2 ? linear.arg(2).optional_tensor() : c10::nullopt;
  const bool has_bias = bias && bias->defined();
  auto dense_f32_on = [&](const at::Tensor& t) {
    return t.is_cuda() && t.device() == x.device() && t.scalar_type() == at::kFloat && t.is_contiguous();
  };
  if (!dense_f32_on(x) || !dense_f32_on(weight) || weight.dim() != 2 || x.dim() < 1 || x.size(-1) != weight.size(1) || x.numel() == 0 ||
      (has_bias && (!dense_f32_on(*bias) || bias->dim() != 1 || bias->size(0) != weight.size(0))))
    return false;
  const int64_t k = weight.size(1), n = weight.size(0), m = x.numel() / k;
  auto sizes = x.sizes().vec();
  sizes.back() = n;
  // Written straight into the activation's planned buffer, which must not overlap what the
  // product reads: the plan may give it bytes of the linear's input where that dies here.
  const at::Tensor* buffer = region.buffer(0);
  auto bytes = [](const at::Tensor& t) { return static_cast<size_t>(t.numel()) * t.element_size(); };
  if (buffer && overlapped_operand(buffer->data_ptr(), bytes(*buffer),
                                   {{"input", x.data_ptr(), bytes(x)},
                                    {"weight", weight.data_ptr(), bytes(weight)},
                                    {"bias", has_bias ? bias->data_ptr() : nullptr, has_bias ? bytes(*bias) : 0}}))
    return false;
  at::Tensor out = buffer ? *buffer : at::empty(sizes, x.options());
  const c10::DeviceGuard guard(x.device());
  const int device = x.device().index();
  void* stream = current_cuda_stream(device);
  void* space = workspace(x.device());
  auto fused = [&] {
    cublaslt_linear({m, n, k, x.data_ptr<float>(), weight.data_ptr<float>(), has_bias ? bias->data_ptr<float>() : nullptr,
                     out.data_ptr<float>(), activation_},
                    device, stream, space, kWorkspaceBytes);
  };
  if (forced == Choice::measure) {
    static std::mutex mutex;
    static std::map<std::string, bool> chosen;  // by key: whether the single call won
    const std::string key = epilogue_choice_key(cuda_device_name(device), cublaslt_version(), m, n, k, has_bias, activation_);
    std::unique_lock<std::mutex> lock(mutex);
    auto it = chosen.find(key);
    if (it == chosen.end()) {
      const std::string name = sha256_hex(key).substr(0, 32);
      // A record's first word is the choice; the rest says what was measured, for whoever reads it.
      auto record = fuser::cached_record("linear_epilogue", name);
      if (record && (record->rfind("fused ", 0) == 0 || record->rfind("separate ", 0) == 0)) {
        it = chosen.emplace(key, record->rfind("fused ", 0) == 0).first;
      } else {
        if (stream_is_capturing(stream)) return false;
        auto [fused_seconds, separate_seconds] = best_times(stream, fused, [&] {
          linear_(linear);
          region_(region);
        });
        const bool wins = fused_seconds < separate_seconds;
        fuser::store_record("linear_epilogue", name, str(wins ? "fused" : "separate", " (best of 3: one cuBLASLt call ", fused_seconds * 1e3,
                                                         " ms, the linear and the region ", separate_seconds * 1e3, " ms)\n", key, "\n"));
        it = chosen.emplace(key, wins).first;
      }
    }
    if (!it->second) return false;
  }
  fused();
  region.set_output(0, out);
  return true;
}

}  // namespace thundercc::runtime
