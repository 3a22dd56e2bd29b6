#include "thundercc/executors/fuser/nvrtc.h"

#include <dlfcn.h>

#include <cstdlib>
#include <vector>

#include "thundercc/errors.h"

namespace thundercc::fuser {
namespace {

// The part of NVRTC's C API used here (nvrtc.h): results are ints, 0 is success.
using Program = void*;
struct Api {
  int (*create)(Program*, const char*, const char*, int, const char* const*, const char* const*) = nullptr;
  int (*compile)(Program, int, const char* const*) = nullptr;
  int (*ptx_size)(Program, size_t*) = nullptr;
  int (*ptx)(Program, char*) = nullptr;
  int (*log_size)(Program, size_t*) = nullptr;
  int (*log)(Program, char*) = nullptr;
  int (*destroy)(Program*) = nullptr;
  int (*version)(int*, int*) = nullptr;
  std::string tried;
};

const Api& api() {
  static const Api loaded = [] {
    Api a;
    std::vector<std::string> candidates;
    if (const char* path = std::getenv("THUNDERCC_NVRTC"); path && *path) candidates.push_back(path);
    candidates.insert(candidates.end(), {"/usr/local/cuda/lib64/libnvrtc.so", "libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12"});
    void* handle = nullptr;
    for (const auto& c : candidates) {
      a.tried += (a.tried.empty() ? "" : ", ") + c;
      if ((handle = dlopen(c.c_str(), RTLD_NOW | RTLD_LOCAL))) break;
    }
    if (!handle) return a;
    auto get = [&](auto& fn, const char* name) { fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(handle, name)); };
    get(a.create, "nvrtcCreateProgram");
    get(a.compile, "nvrtcCompileProgram");
    get(a.ptx_size, "nvrtcGetPTXSize");
    get(a.ptx, "nvrtcGetPTX");
    get(a.log_size, "nvrtcGetProgramLogSize");
    get(a.log, "nvrtcGetProgramLog");
    get(a.destroy, "nvrtcDestroyProgram");
    get(a.version, "nvrtcVersion");
    return a;
  }();
  return loaded;
}

bool complete(const Api& a) {
  return a.create && a.compile && a.ptx_size && a.ptx && a.log_size && a.log && a.destroy && a.version;
}

}  // namespace

bool nvrtc_available(std::string* why) {
  bool ok = complete(api());
  if (!ok && why) *why = "NVRTC not found (tried " + api().tried + ")";
  return ok;
}

std::string nvrtc_version() {
  int major = 0, minor = 0;
  if (nvrtc_available()) api().version(&major, &minor);
  return "NVRTC " + std::to_string(major) + "." + std::to_string(minor);
}

PtxResult compile_to_ptx(const std::string& source, const std::string& name, const std::string& arch) {
  std::string why;
  if (!nvrtc_available(&why)) throw ThunderError("RuntimeError", why);
  const Api& a = api();
  Program program = nullptr;
  if (a.create(&program, source.c_str(), name.c_str(), 0, nullptr, nullptr) != 0)
    throw ThunderError("RuntimeError", "NVRTC could not create a program for " + name);
  std::string gpu = "--gpu-architecture=" + arch;
  const char* options[] = {gpu.c_str(), kNvrtcOptions};
  PtxResult result;
  result.ok = a.compile(program, 2, options) == 0;
  size_t size = 0;
  a.log_size(program, &size);
  result.log.assign(size, '\0');
  if (size) a.log(program, result.log.data());
  if (result.ok) {
    a.ptx_size(program, &size);
    result.ptx.assign(size, '\0');
    a.ptx(program, result.ptx.data());
    if (!result.ptx.empty() && result.ptx.back() == '\0') result.ptx.pop_back();
  }
  a.destroy(&program);
  return result;
}

}  // namespace thundercc::fuser
