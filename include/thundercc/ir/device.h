// Devices as Thunder prints them: "cpu", "meta", "cuda:N" (CUDA always carries an index).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace thundercc {

struct Device {
  enum class Type : uint8_t { CPU, CUDA, Meta };
  Type type = Type::CPU;
  int index = 0;

  std::string str() const;  // "cpu", "cuda:0", "meta"
  bool is_cpu() const { return type == Type::CPU; }
  bool operator==(const Device&) const = default;

  // Accepts "cpu", "meta", "cuda" (index 0) and "cuda:N".
  static std::optional<Device> parse(std::string_view s);
  static Device cpu() { return {}; }
};

}  // namespace thundercc
