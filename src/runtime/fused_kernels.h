// The generated kernels of a plan's fusion regions at run time: the library next to the plan,
// checked against the SHA-256 the plan records and loaded from those verified bytes (an
// in-memory file, so what runs is what was checked), and one Kernel per fusion instruction.
//
// A kernel library is native code, as a plugin is: run plans only from folders you trust.
#pragma once

#include <nlohmann/json.hpp>

#include <memory>
#include <string>

#include "thundercc/runtime/kernels.h"

namespace thundercc::runtime {

class FusedKernelLibrary {
 public:
  // Loads `kernels` (the plan's "kernels" entry) for the plan at `plan_path`; throws LoadError.
  FusedKernelLibrary(const nlohmann::json& kernels, const std::string& plan_path);
  ~FusedKernelLibrary();
  FusedKernelLibrary(const FusedKernelLibrary&) = delete;
  FusedKernelLibrary& operator=(const FusedKernelLibrary&) = delete;

  // The kernel of one instruction's "fusion" entry; `at` names it in errors.
  Kernel kernel(const nlohmann::json& fusion, const std::string& at, const std::string& where) const;

 private:
  void* handle_ = nullptr;
  std::string name_;
};

}  // namespace thundercc::runtime
