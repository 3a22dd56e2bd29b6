// bytes -> the tensor-file readers of `thundercc run` (--inputs/--expect/--cotangents as
// read_tensor_file, --expect-grads as read_optional_tensor_file) on a file holding them. LibTorch's
// unpickler is not instrumented; thundercc's promise is that every tensor it returns lies inside
// its storage, so the harness (instrumented) reads every element's bytes (or, for big tensors,
// the first and the last reached): ASan reports a tensor reaching past its allocation.
#include <ATen/ATen.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "fuzz_support.h"
#include "thundercc/runtime/plan_runner.h"

namespace {

volatile uint8_t sink;

void read_element(const at::Tensor& t, int64_t index) {
  const auto* base = static_cast<const uint8_t*>(t.storage().data());
  size_t element = t.element_size();
  const uint8_t* p = base + static_cast<size_t>(t.storage_offset() + index) * element;
  uint8_t acc = 0;
  for (size_t i = 0; i < element; ++i) acc ^= p[i];
  sink = acc;
}

void touch(const at::Tensor& t) {
  if (!t.defined() || t.numel() == 0) return;
  if (t.numel() <= 4096) {
    // Every element: a multi-index counter over sizes, offset by strides.
    std::vector<int64_t> idx(t.dim(), 0);
    for (int64_t n = 0; n < t.numel(); ++n) {
      int64_t off = 0;
      for (int64_t d = 0; d < t.dim(); ++d) off += idx[d] * t.stride(d);
      read_element(t, off);
      for (int64_t d = t.dim() - 1; d >= 0; --d) {
        if (++idx[d] < t.size(d)) break;
        idx[d] = 0;
      }
    }
    return;
  }
  int64_t last = 0;
  for (int64_t d = 0; d < t.dim(); ++d) last += (t.size(d) - 1) * t.stride(d);
  read_element(t, 0);
  read_element(t, last);
}

// Names a dict file may use (the bundled models' inputs and the usual ones).
std::vector<thundercc::runtime::InputSpec> specs() {
  std::vector<thundercc::runtime::InputSpec> out;
  int slot = 0;
  for (const char* name : {"a", "b", "x", "input", "target", "weight", "bias"}) out.push_back({name, slot++, {}});
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  thundercc::runtime::register_builtin_kernels();
  static thundercc_fuzz::ScratchFile file;
  static const auto dict_specs = specs();
  const std::string& path = file.write(data, size);
  thundercc_fuzz::rejecting([&] {  // specs matter only for a dict
    for (const auto& t : thundercc::runtime::read_tensor_file(path, dict_specs)) touch(t);
  });
  thundercc_fuzz::rejecting([&] {
    for (const auto& t : thundercc::runtime::read_optional_tensor_file(path)) touch(t);
  });
  return 0;
}
