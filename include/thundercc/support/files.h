// Reading and writing files as a hostile input requires: reads are bounded (a trace, a plan or a
// tensor file past its limit is refused before it is read whole; /dev/zero is not read forever),
// and writes are atomic and checked (each file goes to a unique temporary file created
// exclusively in the destination folder, is written and closed with every error checked,
// then renamed over the destination; a symlink planted at any name is never
// written through).
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace thundercc {

// The documented input limits (docs/limits.md).
namespace limits {
inline constexpr size_t kTraceBytes = size_t{256} << 20;   // trace.json and plan.json
inline constexpr size_t kTensorFileBytes = size_t{16} << 30;  // a .pt file
inline constexpr size_t kKernelLibraryBytes = size_t{256} << 20;  // NAME.kernels.so
}  // namespace limits

// The whole file, or LoadError "PATH: cannot be read (...)" / "PATH: larger than the limit".
// FollowLinks::No refuses anything but a regular file at the path: a symlink, a FIFO (without
// blocking on it), a device (what a cache of code reads).
enum class FollowLinks { Yes, No };
std::string read_file(const std::string& path, size_t limit, FollowLinks links = FollowLinks::Yes);

// Files published together: none is visible until all are written; on any failure nothing is
// left behind (temporary files removed) and std::runtime_error names the file and the cause.
class AtomicFiles {
 public:
  void add(std::string path, std::string contents) { files_.emplace_back(std::move(path), std::move(contents)); }
  void commit();
  bool wrote(const std::string& path) const;  // after commit: whether `path` was one of its files

 private:
  std::vector<std::pair<std::string, std::string>> files_;
  std::vector<std::string> written_;
};

// Throws std::runtime_error naming PATH when a file cannot be written there: its folder does not
// exist or cannot be written into, or PATH is something other than a regular file or a link (a
// FIFO, a device, a folder). Checked before work whose result would go there is done.
void check_output_path(const std::string& path);

// Makes the folder `-o` names (and those above it) unless it exists; throws std::runtime_error
// "DIR: cannot make the output folder (...)" where a file stands in the way.
void make_output_folder(const std::string& dir);

// One file, atomically.
void write_file_atomically(const std::string& path, const std::string& contents);

}  // namespace thundercc
