// Work run beside the caller's: on a thread of its own, or, where no thread can be started (a
// process limit), on the caller's thread when its result is asked for. Either way the future
// gives the result, or rethrows what the work threw.
#pragma once

#include <future>
#include <system_error>

namespace thundercc {

template <class Task>
auto run_beside(const Task& task) {
  try {
    return std::async(std::launch::async, task);
  } catch (const std::system_error&) {
    return std::async(std::launch::deferred, task);
  }
}

}  // namespace thundercc
