// Shared by the libFuzzer harnesses. A harness feeds its bytes to one of thundercc's readers; a
// thrown std::exception (LoadError, ThunderError, nlohmann's, c10::Error, ...) is a normal
// rejection of a bad input, so only crashes, sanitizer reports, timeouts and OOMs are findings.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

namespace thundercc_fuzz {

// Runs `body`; a std::exception is a rejection. Anything else thrown propagates (std::terminate:
// a finding, as thundercc only throws std::exception).
template <class Body>
void rejecting(Body&& body) {
  try {
    body();
  } catch (const std::exception&) {
  }
}

// For the readers that take a path: one file per process, rewritten for every input. It is
// unlinked as soon as it is made and named through /proc/self/fd, so no file is left in /tmp
// however the process ends (a crash, a sanitizer's abort, libFuzzer's timeout).
class ScratchFile {
 public:
  ScratchFile() {
    char tmpl[] = "/tmp/thundercc-fuzz-XXXXXX";
    fd_ = mkstemp(tmpl);
    if (fd_ < 0) {
      std::perror("thundercc fuzz: mkstemp");
      std::abort();
    }
    unlink(tmpl);
    path_ = "/proc/self/fd/" + std::to_string(fd_);
  }
  ~ScratchFile() { close(fd_); }
  const std::string& write(const uint8_t* data, size_t size) {
    if (ftruncate(fd_, 0) != 0 || lseek(fd_, 0, SEEK_SET) != 0) std::abort();
    while (size > 0) {
      ssize_t n = ::write(fd_, data, size);
      if (n <= 0) std::abort();
      data += n;
      size -= static_cast<size_t>(n);
    }
    return path_;
  }

 private:
  int fd_ = -1;
  std::string path_;
};

}  // namespace thundercc_fuzz
