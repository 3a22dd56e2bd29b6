// What the reducer stands on: ddmin (1-minimal results, the tests it spends), run_process (exit
// codes, output, signals, time limits) and what an interrupt undoes.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <set>
#include <thread>

#include "test_util.h"
#include "thundercc/support/delta_debugging.h"
#include "thundercc/support/interrupts.h"
#include "thundercc/support/subprocess.h"

using namespace thundercc;

namespace {

std::vector<int> range(int n) {
  std::vector<int> v(n);
  for (int i = 0; i < n; ++i) v[i] = i;
  return v;
}

bool contains_all(const std::vector<int>& items, std::initializer_list<int> needed) {
  return std::all_of(needed.begin(), needed.end(), [&](int x) { return std::count(items.begin(), items.end(), x) != 0; });
}

}  // namespace

TEST_CASE("ddmin isolates a lone cause in about 2 log2(n) tests") {
  int asked = 0;
  auto result = ddmin<int>(range(64), [&](const std::vector<int>& items) {
    ++asked;
    return contains_all(items, {37});
  });
  CHECK(result == std::vector<int>{37});
  CHECK(asked <= 2 * 6 + 2);
}

TEST_CASE("ddmin keeps every element of a cause that needs several, in order") {
  auto result = ddmin<int>(range(40), [](const std::vector<int>& items) { return contains_all(items, {3, 17, 38}); });
  CHECK(result == std::vector<int>{3, 17, 38});
}

TEST_CASE("ddmin's result is 1-minimal where the failure is not monotone") {
  // Fails when the count of even elements kept is odd and 5 is kept: no single removal keeps it failing.
  auto fails = [](const std::vector<int>& items) {
    long evens = std::count_if(items.begin(), items.end(), [](int x) { return x % 2 == 0; });
    return evens % 2 == 1 && contains_all(items, {5});
  };
  std::vector<int> start = range(12);
  start.push_back(12);  // 7 evens: fails
  REQUIRE(fails(start));
  auto result = ddmin<int>(start, fails);
  REQUIRE(fails(result));
  for (size_t i = 0; i < result.size(); ++i) {
    auto without = result;
    without.erase(without.begin() + i);
    CHECK_FALSE(fails(without));
  }
}

TEST_CASE("ddmin never asks twice about the same sublist") {
  std::set<std::vector<int>> seen;
  bool repeated = false;
  ddmin<int>(range(30), [&](const std::vector<int>& items) {
    repeated = repeated || !seen.insert(items).second;
    return contains_all(items, {4, 5});
  });
  CHECK_FALSE(repeated);
}

TEST_CASE("run_process reports exit codes, output, signals and time limits") {
  ProcessResult ok = run_process({"/bin/sh", "-c", "echo out; echo err >&2; exit 3"}, 10);
  CHECK(ok.exit_code == 3);
  CHECK(ok.output.find("out") != std::string::npos);
  CHECK(ok.output.find("err") != std::string::npos);
  CHECK_FALSE(ok.succeeded());

  ProcessResult killed = run_process({"/bin/sh", "-c", "kill -SEGV $$"}, 10);
  CHECK(killed.signal == SIGSEGV);

  ProcessResult slow = run_process({"/bin/sh", "-c", "sleep 30 & sleep 30"}, 0.3);
  CHECK(slow.timed_out);

  CHECK_THROWS_WITH(run_process({"/nonexistent/program"}, 1), Catch::Contains("cannot be run"));
}

// In a child process of its own, since the handlers stay installed and the signal stays noted.
TEST_CASE("an interrupt kills the running child's group and removes the temporaries being written") {
  char file[] = "/tmp/thundercc-interrupt-XXXXXX";
  ::close(::mkstemp(file));
  const auto started = std::chrono::steady_clock::now();
  pid_t pid = ::fork();
  if (pid == 0) {
    install_interrupt_handlers(/*deferred=*/true);
    RemovedOnInterrupt temporary(file);
    std::thread([] {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      ::kill(::getpid(), SIGTERM);
    }).detach();
    try {
      run_process({"/bin/sh", "-c", "sleep 30 & sleep 30"}, 60);
    } catch (const Interrupted&) {
      ::_exit(::access(file, F_OK) == 0 ? 2 : 0);
    }
    ::_exit(1);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(10));
  ::unlink(file);
}
