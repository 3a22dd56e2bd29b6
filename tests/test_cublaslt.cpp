// What the runtime decides around a cuBLASLt epilogue without a GPU (runtime/cublaslt.h): the
// overlap check that sends a pair back to its two instructions, the key a measured choice is
// recorded under, and the library's loading (its declarations are checked against cublasLt.h
// when the runtime compiles).
#include <catch2/catch.hpp>

#include <set>
#include <string>
#include <vector>

#include "runtime/cublaslt.h"

using namespace thundercc;
using namespace thundercc::runtime;

TEST_CASE("cuBLASLt epilogue: an activation buffer overlapping the product's operands is found") {
  alignas(16) char arena[64];
  CHECK_FALSE(bytes_overlap(arena, 16, arena + 16, 16));  // adjacent
  CHECK_FALSE(bytes_overlap(arena + 16, 16, arena, 16));
  CHECK(bytes_overlap(arena, 17, arena + 16, 16));  // one byte shared
  CHECK(bytes_overlap(arena + 31, 1, arena + 16, 16));
  CHECK(bytes_overlap(arena, 64, arena + 8, 4));  // one inside the other
  CHECK(bytes_overlap(arena + 8, 4, arena, 64));
  CHECK_FALSE(bytes_overlap(arena, 0, arena, 64));  // nothing written
}

TEST_CASE("cuBLASLt epilogue: an activation buffer over an operand sends the pair back to its two instructions") {
  alignas(16) float arena[64];
  // The plan gave the activation the bytes of the linear's input (dying there): input rows 0-15,
  // weight elsewhere, no bias.
  const std::vector<LtOperand> over_input{{"input", arena, 16 * sizeof(float)}, {"weight", arena + 32, 16 * sizeof(float)}, {"bias", nullptr, 0}};
  CHECK(std::string(overlapped_operand(arena + 8, 8 * sizeof(float), over_input)) == "input");
  CHECK(std::string(overlapped_operand(arena + 40, 4 * sizeof(float), over_input)) == "weight");
  CHECK(overlapped_operand(arena + 16, 16 * sizeof(float), over_input) == nullptr);  // between them: written in one call
  const std::vector<LtOperand> with_bias{{"input", arena, 16 * sizeof(float)}, {"weight", arena + 32, 16 * sizeof(float)},
                                         {"bias", arena + 60, 4 * sizeof(float)}};
  CHECK(std::string(overlapped_operand(arena + 48, 16 * sizeof(float), with_bias)) == "bias");
}

TEST_CASE("cuBLASLt epilogue: a choice is recorded per GPU, cuBLASLt version, shape, bias and activation") {
  const auto relu = plan::Activation::relu, gelu = plan::Activation::gelu_tanh;
  const std::string key = epilogue_choice_key("NVIDIA H200", 130100, 16, 64, 32, true, relu);
  CHECK(key == "NVIDIA H200\ncuBLASLt 130100\nlinear 16 x 32 by 64 with bias, then relu");
  const std::set<std::string> keys{key,
                                   epilogue_choice_key("NVIDIA A100", 130100, 16, 64, 32, true, relu),
                                   epilogue_choice_key("NVIDIA H200", 120800, 16, 64, 32, true, relu),
                                   epilogue_choice_key("NVIDIA H200", 130100, 32, 64, 32, true, relu),
                                   epilogue_choice_key("NVIDIA H200", 130100, 16, 32, 64, true, relu),
                                   epilogue_choice_key("NVIDIA H200", 130100, 16, 64, 32, false, relu),
                                   epilogue_choice_key("NVIDIA H200", 130100, 16, 64, 32, true, gelu)};
  CHECK(keys.size() == 7);
}

TEST_CASE("cuBLASLt epilogue: the library loads with every function the runtime calls, or says why not") {
  if (cublaslt_problem().empty()) {
    // cuBLAS's version is major * 10000 + minor * 100 + patch: 12.x or 13.x.
    CHECK(cublaslt_version() >= 120000);
    CHECK(cublaslt_version() < 140000);
  } else {
    CHECK(cublaslt_problem().rfind("cuBLASLt", 0) == 0);
    CHECK(cublaslt_version() == 0);
  }
}
