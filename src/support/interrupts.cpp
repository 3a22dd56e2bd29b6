#include "thundercc/support/interrupts.h"

#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>

#include <atomic>
#include <cstring>
#include <mutex>

namespace thundercc {
namespace {

// Fixed tables the handler reads without allocating: a slot is published by its flag after its
// contents are written: the files one compile writes at once and the compilers it runs side by side.
constexpr int kFiles = 256, kGroups = 256;
char file_paths[kFiles][PATH_MAX];
std::atomic<bool> file_used[kFiles];
std::atomic<pid_t> groups[kGroups];
std::atomic<bool> deferred_mode{false}, signalled{false};
std::atomic<int> spawning{0};  // spawns begun and not yet registered
std::mutex claiming;  // slots are claimed by the program, one at a time; the handler only reads

// Polls `done` every millisecond until it holds, 200 ms at most (the handler's waits are bounded).
template <class Done>
void await(Done&& done) {
  const timespec millisecond{0, 1000000};
  for (int tries = 0; tries < 200 && !done(); ++tries) ::nanosleep(&millisecond, nullptr);
}

// Until every process of group g is gone (our own child reaped): a killed compiler on the other
// core finishes the system call it is in, which may create its output, after kill() returns. Only
// when the process ends with the signal: otherwise its own waits reap them. (Grandchildren left as
// zombies, where nothing reaps them, keep a group alive: hence the bound.)
void await_group(pid_t g) {
  await([g] {
    while (::waitpid(-g, nullptr, WNOHANG) > 0) {
    }
    return ::kill(-g, 0) != 0;
  });
}

void on_signal(int sig) {
  const int saved_errno = errno;
  signalled = true;  // no new compiler starts (StartedCommand)
  // Twice: a compiler another thread was starting (registered while the first pass waited for
  // it) is killed by the second.
  for (int pass = 0; pass < 2; ++pass) {
    if (pass == 1) await([] { return spawning.load() == 0; });  // a spawn in progress registered
    for (int i = 0; i < kGroups; ++i)
      if (pid_t g = groups[i].load(); g > 0) ::kill(-g, SIGKILL);
    if (!deferred_mode)
      for (int i = 0; i < kGroups; ++i)
        if (pid_t g = groups[i].load(); g > 0) await_group(g);
  }
  for (int i = 0; i < kFiles; ++i)
    if (file_used[i].load()) ::unlink(file_paths[i]);
  errno = saved_errno;
  if (deferred_mode) return;
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

}  // namespace

void install_interrupt_handlers(bool deferred) {
  deferred_mode = deferred;
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) ::sigaction(sig, &action, nullptr);
}

bool interrupted() { return signalled; }

void throw_if_interrupted() {
  if (signalled) throw Interrupted();
}

RemovedOnInterrupt::RemovedOnInterrupt(const std::string& path) : slot_(-1) {
  if (path.size() >= PATH_MAX) return;
  std::lock_guard<std::mutex> lock(claiming);
  for (int i = 0; i < kFiles; ++i)
    if (!file_used[i].load()) {
      std::memcpy(file_paths[i], path.c_str(), path.size() + 1);
      file_used[i] = true;  // published after its path is written
      slot_ = i;
      return;
    }
}

RemovedOnInterrupt::~RemovedOnInterrupt() {
  if (slot_ >= 0) file_used[slot_] = false;
}

KilledOnInterrupt::KilledOnInterrupt(pid_t process_group) : slot_(-1) {
  for (int i = 0; i < kGroups; ++i) {
    pid_t expected = 0;
    if (groups[i].compare_exchange_strong(expected, process_group)) {
      slot_ = i;
      return;
    }
  }
}

KilledOnInterrupt::~KilledOnInterrupt() {
  if (slot_ >= 0) groups[slot_] = 0;
}

std::unique_ptr<KilledOnInterrupt> spawn_killed_on_interrupt(const std::function<pid_t()>& spawn, pid_t& spawned) {
  // No handler on this thread meanwhile (it would wait for this very spawn): a signal that comes
  // is handled by another thread, or here once the group is registered.
  struct Blocked {
    sigset_t before;
    Blocked() {
      sigset_t interrupts;
      sigemptyset(&interrupts);
      for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&interrupts, sig);
      pthread_sigmask(SIG_BLOCK, &interrupts, &before);
    }
    ~Blocked() { pthread_sigmask(SIG_SETMASK, &before, nullptr); }
  } blocked;
  struct Spawning {
    Spawning() { ++spawning; }
    ~Spawning() { --spawning; }
  } in_progress;  // before the check: a handler that set `signalled` after it waits for this spawn
  throw_if_interrupted();
  spawned = spawn();
  return std::make_unique<KilledOnInterrupt>(spawned);
}

}  // namespace thundercc
