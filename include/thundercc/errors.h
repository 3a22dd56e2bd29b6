// Errors raised while checking programs. Each carries the Python exception type Thunder raises
// in the same situation (RuntimeError, IndexError, ValueError, TypeError, NotImplementedError),
// so messages read as Thunder's do and tests can match both.
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

namespace thundercc {

class ThunderError : public std::runtime_error {
 public:
  ThunderError(std::string type, const std::string& message)
      : std::runtime_error(message), type_(std::move(type)) {}
  const std::string& type() const { return type_; }

 private:
  std::string type_;
};

// A bad input file: the message names the file, the place (a JSON pointer or a bound symbol) and
// what is wrong.
class LoadError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

template <class... Parts>
std::string str(const Parts&... parts) {
  std::ostringstream os;
  (os << ... << parts);
  return os.str();
}

// check(cond, "message") raises RuntimeError; check(cond, "IndexError", "message") picks the type.
// The message is built only when the check fails.
template <class MessageFn>
void check(bool condition, MessageFn&& message, const char* type = "RuntimeError") {
  if (!condition) {
    if constexpr (std::is_invocable_v<MessageFn>)
      throw ThunderError(type, message());
    else
      throw ThunderError(type, std::string(message));
  }
}

}  // namespace thundercc
