// Writes JSON text as it is made, byte for byte what nlohmann's dump(0) writes for the same
// document (each member and element on a line of its own, unindented), at a fraction of the cost
// of building the document and dumping it: a plan (96 layers: 1.4 MB) is written without a
// document. Object members must come in ascending key order, the order of nlohmann's std::map:
// a member out of order is a logic_error naming both keys. ASCII strings are escaped here; a
// string with other bytes, and every float, is left to nlohmann's serializer.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace thundercc {

class JsonWriter {
 public:
  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();
  // The next member's key; its value follows.
  JsonWriter& key(std::string_view key);

  JsonWriter& value(std::string_view s);
  JsonWriter& value(const char* s) { return value(std::string_view(s)); }
  JsonWriter& value(const std::string& s) { return value(std::string_view(s)); }
  JsonWriter& value(bool b);
  JsonWriter& value(std::nullptr_t);
  template <class Integer, std::enable_if_t<std::is_integral_v<Integer> && !std::is_same_v<Integer, bool>, int> = 0>
  JsonWriter& value(Integer n) {
    return std::is_signed_v<Integer> ? signed_value(static_cast<int64_t>(n)) : unsigned_value(static_cast<uint64_t>(n));
  }
  template <class Integer, std::enable_if_t<std::is_integral_v<Integer> && !std::is_same_v<Integer, bool>, int> = 0>
  JsonWriter& value(const std::vector<Integer>& items) {
    begin_array();
    for (Integer n : items) value(n);
    return end_array();
  }
  JsonWriter& value(const std::vector<std::string>& items);
  JsonWriter& value(const nlohmann::json& doc);

  template <class T>
  JsonWriter& member(std::string_view k, T&& v) {
    key(k);
    return value(std::forward<T>(v));
  }

  // The text; every object and array must be closed.
  std::string take();

 private:
  JsonWriter& signed_value(int64_t n);
  JsonWriter& unsigned_value(uint64_t n);
  // Before an array's element: the separator.
  void element();

  struct Open {
    bool object;
    size_t count = 0;
    std::string last_key;
  };
  std::vector<Open> open_;
  std::string out_;
};

}  // namespace thundercc
