// Helpers for the unit tests: an active trace to record into, tensor inputs, and errors as text.
#pragma once

#include <catch2/catch.hpp>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>

#include "thundercc/errors.h"
#include "thundercc/ir/printer.h"
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

// An input named x0, x1, ... in the order the sample creates them.
inline Tensor in(Tracing& t, Shape shape, DType d = dtypes::float32, Device dev = Device::cpu()) {
  return t.input("x" + std::to_string(t.trace.inputs.size()), std::move(shape), d, dev);
}

// The printed trace below its signature line.
inline std::string body_of(const Trace& trace, const PrintOptions& options = {}) {
  std::string text = print_trace(trace, options);
  return text.substr(text.find("):\n") + 3);
}

// An OpInfo-style sample: a call made in a fresh trace, and what it must give.
struct Sample {
  const char* what;
  std::function<Value(Tracing&)> call;
  const char* expected;  // the output's type string(s), or "Type: message" for an error input
};

inline void run(const std::vector<Sample>& samples) {
  for (const auto& s : samples) {
    INFO(s.what);
    Tracing t;
    std::string result;
    std::string error = error_of([&] {
      Value out = s.call(t);
      if (out.is_sequence())
        for (const auto& x : out.items()) result += (result.empty() ? "" : ", ") + type_string(x);
      else
        result = type_string(out);
    });
    CHECK((error == "no error" ? result : error) == s.expected);
  }
}

}  // namespace thundercc::testing
