// NVRTC, found at run time (never linked): CUDA kernel sources to PTX. The compiler needs no
// CUDA toolkit to build; where one is installed (/usr/local/cuda, or $THUNDERCC_NVRTC naming
// libnvrtc.so), the fuser takes regions on CUDA devices, and `thundercc compile` compiles their
// kernels (every region's, with --emit-cuda) into the plan's PTX module.
#pragma once

#include <optional>
#include <string>

namespace thundercc::fuser {

struct PtxResult {
  bool ok = false;
  std::string ptx;  // when ok
  std::string log;  // NVRTC's messages
};

// Whether NVRTC can be loaded; `why` says what was tried when it cannot.
bool nvrtc_available(std::string* why = nullptr);
std::string nvrtc_version();  // "NVRTC 13.0"
// The virtual architecture PTX is compiled for; the driver compiles it for the GPU it runs on.
inline constexpr const char* kPtxArch = "compute_80";
inline constexpr const char* kNvrtcOptions = "--std=c++17";  // besides the architecture
// Compiles one translation unit for `arch` (e.g. "compute_80"). Throws ThunderError without NVRTC.
PtxResult compile_to_ptx(const std::string& source, const std::string& name, const std::string& arch = kPtxArch);

}  // namespace thundercc::fuser
