// Ctrl-C (SIGINT), SIGTERM and SIGHUP while thundercc works: nothing it made may outlive it. The
// temporary files being written are removed and the process groups it started are killed, in the
// signal handler itself (with async-signal-safe calls only); then the signal ends the process as
// it would have (exit status 128 + signal), or, where a caller asked to finish the work itself
// (`reduce`, which has a temporary folder to remove), `interrupted()` turns true and the caller
// throws Interrupted at its next check.
#pragma once

#include <sys/types.h>

#include <stdexcept>
#include <functional>
#include <memory>
#include <string>

namespace thundercc {

struct Interrupted : std::runtime_error {
  Interrupted() : std::runtime_error("interrupted") {}
};

// Installs the handlers (idempotent). `deferred`: the signal sets interrupted() instead of ending
// the process.
void install_interrupt_handlers(bool deferred = false);
bool interrupted();
// Throws Interrupted when a signal came (deferred mode).
void throw_if_interrupted();

// While alive, a temporary file removed if a signal comes.
class RemovedOnInterrupt {
 public:
  explicit RemovedOnInterrupt(const std::string& path);
  ~RemovedOnInterrupt();
  RemovedOnInterrupt(const RemovedOnInterrupt&) = delete;
  RemovedOnInterrupt& operator=(const RemovedOnInterrupt&) = delete;

 private:
  int slot_;
};

// While alive, a process group killed (SIGKILL) if a signal comes.
class KilledOnInterrupt {
 public:
  explicit KilledOnInterrupt(pid_t process_group);
  ~KilledOnInterrupt();
  KilledOnInterrupt(const KilledOnInterrupt&) = delete;
  KilledOnInterrupt& operator=(const KilledOnInterrupt&) = delete;

 private:
  int slot_;
};

// Spawns a process group by `spawn()` (which returns its id) and registers it to be killed on an
// interrupt, with no gap an interrupt could fall into: none starts once one has come (Interrupted
// is thrown), and the handler waits for a spawn in progress to be registered before it kills.
std::unique_ptr<KilledOnInterrupt> spawn_killed_on_interrupt(const std::function<pid_t()>& spawn, pid_t& spawned);

}  // namespace thundercc
