// read_file: a file read whole into room sized by fstat, a pipe read into room that grows, and
// the limit refused on both.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <thread>

#include "test_util.h"
#include "thundercc/errors.h"
#include "thundercc/support/files.h"

using namespace thundercc;

namespace {

std::string pattern(size_t n) {
  std::string s(n, '\0');
  for (size_t i = 0; i < n; ++i) s[i] = static_cast<char>('a' + i * 7 % 26);
  return s;
}

struct Folder {
  std::filesystem::path path = std::filesystem::temp_directory_path() / ("thundercc_files_" + std::to_string(::getpid()));
  Folder() { std::filesystem::create_directories(path); }
  ~Folder() { std::filesystem::remove_all(path); }
};

// Writes `text` into a FIFO from a second thread while the caller reads it (a reader that stops
// early leaves the writer a failed write, not SIGPIPE).
std::string read_through_fifo(const std::filesystem::path& fifo, const std::string& text, size_t limit) {
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  struct IgnorePipe {
    void (*before)(int) = std::signal(SIGPIPE, SIG_IGN);
    ~IgnorePipe() { std::signal(SIGPIPE, before); }
  } ignore_pipe;
  std::thread writer([&] {
    std::ofstream out(fifo, std::ios::binary);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
  });
  struct Join {
    std::thread& t;
    ~Join() { t.join(); }
  } join{writer};
  return read_file(fifo.string(), limit);
}

}  // namespace

TEST_CASE("read_file reads a file whole, at any size, and refuses one over the limit") {
  Folder dir;
  for (size_t size : {size_t{0}, size_t{1}, size_t{65536}, size_t{1} << 20, (size_t{1} << 20) + 3}) {
    const std::string text = pattern(size);
    const auto file = dir.path / "f";
    std::ofstream(file, std::ios::binary).write(text.data(), static_cast<std::streamsize>(text.size()));
    CHECK(read_file(file.string(), size) == text);  // exactly at the limit
    if (size > 0) {
      try {
        read_file(file.string(), size - 1);
        FAIL("a file over the limit was read");
      } catch (const LoadError& e) {
        CHECK(std::string(e.what()) == file.string() + ": " + std::to_string(size) + " bytes is larger than the limit of " +
                                           std::to_string(size - 1) + " bytes");
      }
    }
  }
}

TEST_CASE("read_file reads a pipe of unknown size whole, and stops one over the limit") {
  Folder dir;
  const std::string text = pattern((size_t{1} << 18) + 5);  // more than the first 64 KB of room
  CHECK(read_through_fifo(dir.path / "p1", text, text.size()) == text);
  try {
    read_through_fifo(dir.path / "p2", text, 100000);
    FAIL("a pipe over the limit was read");
  } catch (const LoadError& e) {
    CHECK(std::string(e.what()) == (dir.path / "p2").string() + ": larger than the limit of 100000 bytes");
  }
}
