// Helpers for the unit tests: an active trace to record into, tensor inputs, and errors as text.
#pragma once

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <string>

#include "thundercc/errors.h"
#include "thundercc/ir/trace.h"

namespace thundercc::testing {

// A trace that is active for the fixture's lifetime; inputs are named like a program's.
struct Tracing {
  Trace trace;
  TracingScope scope{trace};

  Tensor input(const std::string& name, Shape shape, DType dtype = dtypes::float32, Device device = Device::cpu(),
               bool requires_grad = false) {
    Tensor t = make_named_tensor(name, TensorMeta{std::move(shape), dtype, device, requires_grad});
    trace.inputs.push_back({name, t});
    return t;
  }
};

// "Type: message" of the ThunderError `f` raises, or "no error".
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const ThunderError& e) {
    return e.type() + ": " + e.what();
  }
  return "no error";
}

inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in.good());
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

inline Device cuda(int index = 0) { return Device{Device::Type::CUDA, index}; }

}  // namespace thundercc::testing
