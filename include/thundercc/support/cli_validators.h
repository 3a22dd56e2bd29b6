// The checks every number and path of thundercc's command lines goes through, beyond CLI11's own:
// its number checks let NaN through (every comparison with it is false) and its integer
// conversion clamps what overflows (a seed of 2^64 - 1 became 2^63 - 1, silently).
#pragma once

#include <CLI/CLI.hpp>

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace thundercc::cli {

// A finite number (NaN and infinities refused).
inline CLI::Validator finite_number() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        char* end = nullptr;
        const double x = std::strtod(text.c_str(), &end);
        return end != text.c_str() && *end == '\0' && std::isfinite(x) ? "" : "must be a finite number, but got " + text;
      },
      "FINITE");
}

// A finite number >= `least`.
inline CLI::Validator finite_number_from(double least) {
  return CLI::Validator(
      [least](std::string& text) -> std::string {
        char* end = nullptr;
        const double x = std::strtod(text.c_str(), &end);
        if (end != text.c_str() && *end == '\0' && std::isfinite(x) && x >= least) return "";
        std::string bound = std::to_string(least);
        bound.erase(bound.find_last_not_of('0') + 1);
        if (bound.back() == '.') bound.pop_back();
        return "must be a finite number >= " + bound + ", but got " + text;
      },
      "NUMBER");
}

// A whole number from `least` to `most`, written as one (no fraction, no exponent, no overflow).
inline CLI::Validator whole_number(int64_t least, int64_t most) {
  return CLI::Validator(
      [least, most](std::string& text) -> std::string {
        char* end = nullptr;
        errno = 0;
        const long long x = std::strtoll(text.c_str(), &end, 10);
        if (end == text.c_str() || *end != '\0' || errno == ERANGE || x < least || x > most)
          return "must be a whole number from " + std::to_string(least) + " to " + std::to_string(most) + ", but got " + text;
        return "";
      },
      "INT in [" + std::to_string(least) + ", " + std::to_string(most) + "]");
}

// A path that names something (an unset shell variable gives "").
inline CLI::Validator non_empty_path() {
  return CLI::Validator([](std::string& text) -> std::string { return text.empty() ? "an empty path names no file" : ""; }, "PATH");
}

}  // namespace thundercc::cli
