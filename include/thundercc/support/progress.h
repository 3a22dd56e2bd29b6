// One line of progress on a terminal: long work (reduce's tests, the fuser's kernel builds) says where it is, in place, when
// stderr is a terminal and -v's log is off; elsewhere (a pipe, a CI log) it prints nothing.
#pragma once
#include <string>

namespace thundercc {

class ProgressLine {
 public:
  // `enabled`: whether the caller wants progress at all (not when it logs each step itself).
  explicit ProgressLine(bool enabled);
  ~ProgressLine();  // clears the line
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;
  void show(const std::string& text);

 private:
  bool on_;
  bool shown_ = false;
};

}  // namespace thundercc
