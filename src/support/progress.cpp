// See support/progress.h.
#include "thundercc/support/progress.h"

#include <unistd.h>

#include <cstdio>

namespace thundercc {

ProgressLine::ProgressLine(bool enabled) : on_(enabled && isatty(STDERR_FILENO) == 1) {}

ProgressLine::~ProgressLine() {
  if (shown_) std::fputs("\r\033[K", stderr);
}

void ProgressLine::show(const std::string& text) {
  if (!on_) return;
  std::fprintf(stderr, "\r\033[K%s", text.c_str());
  std::fflush(stderr);
  shown_ = true;
}

}  // namespace thundercc
