// Which linears of a plan could compute the activation after them as a cuBLASLt epilogue
// (runtime/linear_epilogue.h): read from the plan alone, so that the runtime, which decides by
// measuring on the GPU, only ever considers pairs where the fused call computes what the two
// instructions do.
#pragma once

#include <string>
#include <vector>

#include "thundercc/plan/plan.h"

namespace thundercc::plan {

// cuBLASLt's epilogues after a matrix product and its bias: CUBLASLT_EPILOGUE_RELU_BIAS and
// GELU_BIAS (GELU's tanh approximation: cuBLASLt has no erf GELU).
enum class Activation { relu, gelu_tanh };
const char* activation_name(Activation a);  // "relu", "gelu_tanh"

struct EpiloguePair {
  size_t linear;  // the activation is the instruction after it
  Activation activation;
};

// Why instruction `linear` of `program` and the one after it are not a linear and an activation
// the epilogue computes alike, or empty when they are (`*activation` then says which). They are
// when: the instruction is a float32 linear on a CUDA device, the next one a fusion region that
// reads only its result and computes exactly ReLU or tanh GELU of it (the torch language's
// decomposition, prim for prim), and the result dies there (not saved for a backward, not an
// output). Adjacent only: an instruction between could reuse the arena's bytes that the
// activation's buffer gets once the linear's result dies.
std::string epilogue_mismatch(const Program& program, size_t linear, Activation* activation);
std::vector<EpiloguePair> linear_epilogues(const Program& program);

}  // namespace thundercc::plan
