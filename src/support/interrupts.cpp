#include "thundercc/support/interrupts.h"

#include <limits.h>
#include <signal.h>
#include <unistd.h>

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
std::mutex claiming;  // slots are claimed by the program, one at a time; the handler only reads

void on_signal(int sig) {
  for (int i = 0; i < kGroups; ++i)
    if (pid_t g = groups[i].load(); g > 0) ::kill(-g, SIGKILL);
  for (int i = 0; i < kFiles; ++i)
    if (file_used[i].load()) ::unlink(file_paths[i]);
  signalled = true;
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

}  // namespace thundercc
