#include "thundercc/support/files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <stdexcept>

#include "thundercc/errors.h"
#include "thundercc/support/interrupts.h"

namespace thundercc {
namespace {

std::string why() { return std::strerror(errno); }

// Closes the descriptor on every path out.
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

std::string directory_of(const std::string& path) {
  auto parent = std::filesystem::path(path).parent_path();
  return parent.empty() ? "." : parent.string();
}

}  // namespace

namespace {

// A file is written by replacing what is at its path, which must be a regular file, a link (the
// link is replaced, never written through) or nothing: replacing a FIFO, a device or a socket
// would take it from whoever uses it (as root, --outputs /dev/null would replace the system's).
void check_replaceable(const std::string& path) {
  std::string dir = directory_of(path);
  struct stat st;
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    throw std::runtime_error(path + ": cannot write: the folder " + dir + " does not exist");
  if (::lstat(path.c_str(), &st) != 0 || S_ISREG(st.st_mode) || S_ISLNK(st.st_mode)) return;
  const char* what = S_ISDIR(st.st_mode)    ? "a folder"
                     : S_ISFIFO(st.st_mode) ? "a FIFO"
                     : S_ISSOCK(st.st_mode) ? "a socket"
                                            : "a device";
  throw std::runtime_error(path + ": cannot write: it is " + what + ", and thundercc writes only regular files (replacing them whole)");
}

}  // namespace

void check_output_path(const std::string& path) {
  check_replaceable(path);
  std::string probe = (std::filesystem::path(directory_of(path)) / ".thundercc-probe.XXXXXX").string();
  int fd = ::mkstemp(probe.data());
  if (fd < 0) throw std::runtime_error(path + ": cannot write into the folder " + directory_of(path) + ": " + why());
  ::close(fd);
  ::unlink(probe.c_str());
}

namespace {

// Writes `contents` to a new, exclusively created file next to `path`; returns its name.
std::string write_temporary(const std::string& path, const std::string& contents,
                            std::vector<std::unique_ptr<RemovedOnInterrupt>>& removed_on_interrupt) {
  check_replaceable(path);
  std::string dir = directory_of(path);
  std::string name = (std::filesystem::path(dir) / ("." + std::filesystem::path(path).filename().string() + ".XXXXXX")).string();
  Fd f;
  f.fd = ::mkstemp(name.data());  // O_CREAT | O_EXCL, mode 0600: never an existing file or link
  if (f.fd < 0) throw std::runtime_error(path + ": cannot write: " + why());
  removed_on_interrupt.push_back(std::make_unique<RemovedOnInterrupt>(name));
  auto fail = [&](const char* step) {
    std::string message = path + ": cannot write (" + step + "): " + why();
    ::unlink(name.c_str());
    throw std::runtime_error(message);
  };
  if (::fchmod(f.fd, 0644) != 0) fail("chmod");
  for (size_t done = 0; done < contents.size();) {
    ssize_t n = ::write(f.fd, contents.data() + done, contents.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail("write");
    done += static_cast<size_t>(n);
  }
  // No fsync, as compilers and linkers do not: the rename keeps a crash of this process (or an
  // error) from leaving a half-written file; surviving a power cut is the file system's and the
  // build system's concern. fsync was 4.5 ms of a 100 ms compile.
  int fd = f.fd;
  f.fd = -1;
  if (::close(fd) != 0) fail("close");
  return name;
}

}  // namespace

std::string read_file(const std::string& path, size_t limit, FollowLinks links) {
  Fd f;
  // FollowLinks::No reads regular files only: opened without blocking, so that a FIFO planted
  // there is refused instead of waited on.
  f.fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | (links == FollowLinks::No ? O_NOFOLLOW | O_NONBLOCK : 0));
  if (f.fd < 0) throw LoadError(path + ": cannot be read (" + why() + ")");
  struct stat st;
  if (::fstat(f.fd, &st) != 0) throw LoadError(path + ": cannot be read (" + why() + ")");
  if (links == FollowLinks::No && !S_ISREG(st.st_mode)) throw LoadError(path + ": cannot be read (not a regular file)");
  if (S_ISDIR(st.st_mode)) throw LoadError(path + ": cannot be read (it is a folder)");
  // Devices never end (/dev/zero, /dev/urandom); files and pipes do.
  if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) throw LoadError(path + ": cannot be read (a device, not a file)");
  if (S_ISREG(st.st_mode) && static_cast<uint64_t>(st.st_size) > limit)
    throw LoadError(path + ": " + std::to_string(st.st_size) + " bytes is larger than the limit of " + std::to_string(limit) + " bytes");
  // Read in place, into room for the size fstat gave plus one byte to see the end (a file that
  // grew meanwhile, or a pipe, grows the string): no copies, and no memory touched twice, which
  // costs more than the read where page faults are slow (a virtual machine's).
  std::string out;
  size_t size = 0;
  out.resize(S_ISREG(st.st_mode) ? static_cast<size_t>(st.st_size) + 1 : std::min(size_t{1} << 16, limit + 1));
  for (;;) {
    ssize_t n = ::read(f.fd, out.data() + size, out.size() - size);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw LoadError(path + ": cannot be read (" + why() + ")");
    if (n == 0) break;
    size += static_cast<size_t>(n);
    if (size > limit) throw LoadError(path + ": larger than the limit of " + std::to_string(limit) + " bytes");
    if (size == out.size()) out.resize(std::min(2 * out.size(), limit + 1));
  }
  out.resize(size);
  return out;
}

void AtomicFiles::commit() {
  std::vector<std::string> temporaries;
  std::vector<std::unique_ptr<RemovedOnInterrupt>> removed_on_interrupt;
  try {
    for (const auto& [path, contents] : files_) temporaries.push_back(write_temporary(path, contents, removed_on_interrupt));
  } catch (...) {
    for (const auto& t : temporaries) ::unlink(t.c_str());
    throw;
  }
  for (size_t i = 0; i < files_.size(); ++i)
    if (std::rename(temporaries[i].c_str(), files_[i].first.c_str()) != 0) {
      std::string message = files_[i].first + ": cannot write (rename): " + why();
      for (size_t j = i; j < temporaries.size(); ++j) ::unlink(temporaries[j].c_str());
      throw std::runtime_error(message);
    }
  for (auto& [path, contents] : files_) written_.push_back(std::move(path));
  files_.clear();
}

bool AtomicFiles::wrote(const std::string& path) const { return std::find(written_.begin(), written_.end(), path) != written_.end(); }

void make_output_folder(const std::string& dir) {
  std::error_code error;
  std::filesystem::create_directories(dir.empty() ? "." : dir, error);
  if (error) throw std::runtime_error(dir + ": cannot make the output folder (" + error.message() + ")");
}

void write_file_atomically(const std::string& path, const std::string& contents) {
  AtomicFiles files;
  files.add(path, contents);
  files.commit();
}

}  // namespace thundercc
