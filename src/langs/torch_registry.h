// How torch-language symbols are declared: the ids PyTorch programs call them by (the first is
// the canonical id), Thunder's signature, and the decomposition.
#pragma once

#include <initializer_list>
#include <string>

#include "langs/core_language.h"

namespace thundercc::ltorch {

struct TorchOp {
  std::initializer_list<const char*> ids;  // "torch.softmax", "torch.Tensor.softmax", ...
  const char* signature;
  MetaFunction decomposition;
  const char* name = nullptr;  // defaults to the last component of the first id
};

// The symbol's tag for a cast the program asks for (Tensor.to, type_as, copy_ into another dtype):
// its conversions are the program's and are kept bit-exact. Every other decomposition's own
// conversions are tagged kDecompositionCast when it is traced (see define).
inline constexpr const char* kProgramCast = "PROGRAM_CAST";

void define(SymbolTable& table, const TorchOp& op, std::vector<std::string> tags = {});

// Registration of each group of ops, one per file.
void register_elementwise(SymbolTable& table);
void register_reductions(SymbolTable& table);
void register_shape_ops(SymbolTable& table);
void register_creation(SymbolTable& table);
void register_nn(SymbolTable& table);
void register_in_place(SymbolTable& table);
void register_losses(SymbolTable& table);
void register_random(SymbolTable& table);
void register_complex(SymbolTable& table);
void register_special(SymbolTable& table);
void register_linalg(SymbolTable& table);
void register_composites(SymbolTable& table);  // after the ops it aliases
void register_fft(SymbolTable& table);  // after the ops its aliases name

// A device argument, or `fallback` where it is None.
Device device_or(const Value& v, Device fallback);
// Reads an optional dtype argument (None when absent).
std::optional<DType> optional_dtype(const Value& v);
// Reads `dim` arguments that may be None, an int, or a sequence of ints.
std::optional<Dims> optional_dims(const Value& v);

}  // namespace thundercc::ltorch
