#include "runtime/fused_kernels.h"

#include <dlfcn.h>
#include <sys/mman.h>
#include <unistd.h>

#include <ATen/ATen.h>

#include <filesystem>

#include "thundercc/errors.h"
#include "thundercc/serialize/trace_file.h"
#include "thundercc/support/files.h"
#include "thundercc/support/sha256.h"

namespace thundercc::runtime {
namespace {

using json = nlohmann::json;
using FusedFunction = void (*)(const void* const*, void* const*);

}  // namespace

FusedKernelLibrary::FusedKernelLibrary(const json& kernels, const std::string& plan_path) {
  name_ = kernels.at("library").get<std::string>();
  std::string where = plan_path + ": /kernels";
  if (name_.find('/') != std::string::npos || name_.starts_with("."))
    throw LoadError(where + "/library: '" + name_ + "' is not a file name in the plan's folder");
  std::filesystem::path path = std::filesystem::path(plan_path).parent_path() / name_;
  if (!std::filesystem::is_regular_file(path))
    throw LoadError(where + "/library: the kernel library " + path.string() + " is missing (compile the trace again)");
  std::string bytes = read_file(path.string(), limits::kKernelLibraryBytes);
  std::string expected = kernels.at("sha256").get<std::string>();
  if (sha256_hex(bytes) != expected)
    throw LoadError(where + "/sha256: " + path.string() + " is not the library this plan was compiled with (its SHA-256 differs); compile the trace again");
  // Load the bytes just checked, not the file again: an in-memory file.
  int fd = memfd_create("thundercc-kernels", MFD_CLOEXEC);
  if (fd < 0) throw LoadError(where + ": cannot make an in-memory file for " + path.string());
  size_t written = 0;
  while (written < bytes.size()) {
    ssize_t n = write(fd, bytes.data() + written, bytes.size() - written);
    if (n <= 0) {
      close(fd);
      throw LoadError(where + ": cannot copy " + path.string() + " into memory");
    }
    written += static_cast<size_t>(n);
  }
  std::string fd_path = "/proc/self/fd/" + std::to_string(fd);
  handle_ = dlopen(fd_path.c_str(), RTLD_NOW | RTLD_LOCAL);
  close(fd);
  if (!handle_) throw LoadError(where + ": cannot load " + path.string() + ": " + dlerror());
}

FusedKernelLibrary::~FusedKernelLibrary() {
  if (handle_) dlclose(handle_);
}

Kernel FusedKernelLibrary::kernel(const json& fusion, const std::string& at, const std::string& where) const {
  std::string function = fusion.at("function").get<std::string>();
  auto f = reinterpret_cast<FusedFunction>(dlsym(handle_, function.c_str()));
  if (!f) throw LoadError(where + ": " + at + "/function: " + name_ + " has no kernel '" + function + "'");
  std::vector<TensorMeta> reads, writes;
  for (size_t k = 0; k < fusion.at("inputs").size(); ++k)
    reads.push_back(decode_tensor_meta(fusion["inputs"][k], at + "/inputs/" + std::to_string(k), where));
  for (size_t k = 0; k < fusion.at("outputs").size(); ++k)
    writes.push_back(decode_tensor_meta(fusion["outputs"][k], at + "/outputs/" + std::to_string(k), where));
  return [f, reads, writes](KernelCall& call) {
    if (call.size() != reads.size() || call.num_outputs() != writes.size())
      throw ThunderError("RuntimeError", str("the kernel takes ", reads.size(), " inputs and writes ", writes.size(), " outputs"));
    // The kernel indexes by the shapes it was generated for: each input must have exactly those.
    std::vector<at::Tensor> inputs;
    std::vector<const void*> in;
    for (size_t k = 0; k < reads.size(); ++k) {
      const at::Tensor& t = call.arg(k).tensor();
      const TensorMeta& m = reads[k];
      bool ok = t.dim() == static_cast<int64_t>(m.shape.size()) && std::equal(m.shape.begin(), m.shape.end(), t.sizes().begin()) &&
                t.scalar_type() == to_aten(m.dtype) && t.device().is_cpu();
      if (!ok) throw ThunderError("RuntimeError", str("input ", k, ": expected ", m.type_string(), ", got another tensor"));
      inputs.push_back(t.contiguous());
      in.push_back(inputs.back().data_ptr());
    }
    std::vector<at::Tensor> outputs;
    std::vector<void*> out;
    for (size_t k = 0; k < writes.size(); ++k) {
      const at::Tensor* planned = call.buffer(k);
      outputs.push_back(planned ? *planned : at::empty(writes[k].shape, at::TensorOptions().dtype(to_aten(writes[k].dtype))));
      out.push_back(outputs.back().data_ptr());
    }
    f(in.data(), out.data());
    for (size_t k = 0; k < outputs.size(); ++k) call.set_output(k, std::move(outputs[k]));
  };
}

}  // namespace thundercc::runtime
