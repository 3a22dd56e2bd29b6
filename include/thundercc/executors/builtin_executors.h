// The executors thundercc ships, registered through the same extension API a plugin uses
// (extend.h): `torch` (and `torch_prims`), an ATen call per op (torch_executor.cpp), and `fuser`,
// generated kernels for fusion regions (fuser_executor.cpp).
#pragma once

#include "thundercc/extend.h"

namespace thundercc {

void register_torch_executor(ExecutorRegistry& registry);
void register_fuser_executor(ExecutorRegistry& registry);

}  // namespace thundercc
