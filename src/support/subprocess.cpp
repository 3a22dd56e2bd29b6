// run_process: posix_spawn with a pipe for both output streams, read under poll() until the child
// closes it or the time limit passes.
#include "thundercc/support/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <algorithm>
#include <chrono>
#include <cstring>
#include <stdexcept>

#include "thundercc/support/interrupts.h"

extern char** environ;

namespace thundercc {
namespace {

constexpr size_t kKeptOutputBytes = size_t{1} << 20;

// Starts argv[0] (a path) in a process group of its own, its output and errors into a pipe whose
// reading end it sets `output` to.
pid_t spawn_in_own_group(const std::vector<std::string>& argv, int& output) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error(std::string("cannot make a pipe: ") + std::strerror(errno));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDERR_FILENO);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attributes, 0);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  int spawn_error = posix_spawn(&pid, args[0], &actions, &attributes, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  ::close(fds[1]);
  if (spawn_error != 0) {
    ::close(fds[0]);
    throw std::runtime_error(argv[0] + ": cannot be run: " + std::strerror(spawn_error));
  }
  output = fds[0];
  return pid;
}

}  // namespace

StartedCommand::StartedCommand(const std::string& command) {
  killed_on_interrupt_ = spawn_killed_on_interrupt([&] { return spawn_in_own_group({"/bin/sh", "-c", command}, output_); }, pid_);
}

std::pair<int, std::string> StartedCommand::finish() {
  std::string output;
  char buffer[4096];
  for (;;) {
    ssize_t n = ::read(output_, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    output.append(buffer, static_cast<size_t>(n));
  }
  ::close(output_);
  output_ = -1;
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  pid_ = -1;
  killed_on_interrupt_.reset();
  throw_if_interrupted();
  return {status, output};
}

StartedCommand::~StartedCommand() {
  if (pid_ < 0) return;
  ::kill(-pid_, SIGKILL);
  if (output_ >= 0) ::close(output_);
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
}

ProcessResult run_process(const std::vector<std::string>& argv, double timeout_seconds) {
  throw_if_interrupted();
  int output = -1;
  const pid_t pid = spawn_in_own_group(argv, output);

  KilledOnInterrupt killed_on_interrupt(pid);
  ProcessResult result;
  // At most a year: a larger limit would overflow the clock's nanoseconds.
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                             std::chrono::duration<double>(std::min(timeout_seconds, 365 * 86400.0)));
  char buffer[65536];
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
    if (left <= 0) {
      result.timed_out = true;
      ::kill(-pid, SIGKILL);
      break;
    }
    pollfd p{output, POLLIN, 0};
    int ready = ::poll(&p, 1, static_cast<int>(std::min<long long>(left, 1000)));
    if (ready < 0 && errno != EINTR) break;
    if (ready <= 0) continue;
    ssize_t n = ::read(output, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // every writer closed it: the process and its children are done with it
    if (result.output.size() < kKeptOutputBytes)
      result.output.append(buffer, std::min(static_cast<size_t>(n), kKeptOutputBytes - result.output.size()));
  }
  ::close(output);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  throw_if_interrupted();  // the handler killed it: not an outcome of the child's own
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status) && !result.timed_out) result.signal = WTERMSIG(status);
  return result;
}

}  // namespace thundercc
