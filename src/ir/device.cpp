#include "thundercc/ir/device.h"

#include <charconv>

namespace thundercc {

std::string Device::str() const {
  switch (type) {
    case Type::CPU: return "cpu";
    case Type::Meta: return "meta";
    case Type::CUDA: return "cuda:" + std::to_string(index);
  }
  return "cpu";
}

std::optional<Device> Device::parse(std::string_view s) {
  if (s == "cpu") return Device{Type::CPU, 0};
  if (s == "meta") return Device{Type::Meta, 0};
  if (s == "cuda") return Device{Type::CUDA, 0};
  if (s.starts_with("cuda:")) {
    int idx = -1;
    auto digits = s.substr(5);
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), idx);
    if (ec == std::errc() && end == digits.data() + digits.size() && idx >= 0) return Device{Type::CUDA, idx};
  }
  return std::nullopt;
}

}  // namespace thundercc
