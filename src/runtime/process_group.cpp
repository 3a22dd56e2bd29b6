// The process group of a distributed run, joined on the first collective from torchrun's
// environment (RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT): a c10d TCPStore (torchrun's agent
// hosts it where TORCHELASTIC_USE_AGENT_STORE says so, else rank 0 does), keys under a prefix of
// thundercc's own, and Gloo over the loopback or the host's interface for CPU tensors.
#ifndef USE_C10D_GLOO  // LibTorch's CMake package defines it where c10d has Gloo; ProcessGroupGloo.hpp needs it
#define USE_C10D_GLOO
#endif
#include "runtime/process_group.h"

#include <cstdlib>
#include <mutex>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include <torch/csrc/distributed/c10d/PrefixStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>

#include "thundercc/errors.h"

namespace thundercc::runtime {
namespace {

int env_int(const char* name, int fallback) {
  const char* v = std::getenv(name);
  if (!v || !*v) return fallback;
  try {
    return std::stoi(v);
  } catch (const std::exception&) {
    throw std::runtime_error(str("the environment variable ", name, " is '", v, "', not a number"));
  }
}

std::string env_string(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return v && *v ? v : fallback;
}

// An exception's message, without the C++ backtrace that c10's errors carry.
std::string message_of(const std::exception& e) {
  if (const auto* error = dynamic_cast<const c10::Error*>(&e)) return error->what_without_backtrace();
  return e.what();
}

struct Joined {
  c10::intrusive_ptr<c10d::Store> store;
  c10::intrusive_ptr<c10d::ProcessGroupGloo> group;  // a ProcessGroup in LibTorch 1.13, a Backend in 2.x
};

const Joined& joined() {
  static Joined ranks = [] {
    const int me = rank(), world = world_size();
    c10d::TCPStoreOptions options;
    options.port = static_cast<uint16_t>(env_int("MASTER_PORT", 29500));
    options.isServer = me == 0 && env_string("TORCHELASTIC_USE_AGENT_STORE", "") != "True";
    options.numWorkers = world;
    options.timeout = std::chrono::seconds(env_int("THUNDERCC_DISTRIBUTED_TIMEOUT", 300));
    const std::string host = env_string("MASTER_ADDR", "127.0.0.1");
    const auto where = str("rank ", me, " of ", world, " (store ", host, ":", options.port, ", timeout ", options.timeout.count(),
                           " ms, THUNDERCC_DISTRIBUTED_TIMEOUT)");
    try {
      Joined ranks;
      ranks.store = c10::make_intrusive<c10d::PrefixStore>("thundercc", c10::make_intrusive<c10d::TCPStore>(host, options));
      auto gloo = c10d::ProcessGroupGloo::Options::create();
      gloo->timeout = options.timeout;
      gloo->devices.push_back(host == "127.0.0.1" || host == "localhost" ? c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1")
                                                                         : c10d::ProcessGroupGloo::createDefaultDevice());
      ranks.group = c10::make_intrusive<c10d::ProcessGroupGloo>(ranks.store, me, world, gloo);
      return ranks;
    } catch (const std::exception& e) {
      throw std::runtime_error(str(where, ": the ranks did not all join: ", message_of(e)));
    }
  }();
  return ranks;
}

c10d::ProcessGroupGloo& group() { return *joined().group; }

struct InFlight {
  c10::intrusive_ptr<c10d::Work> work;
  bool average;
};
std::mutex in_flight_mutex;
std::unordered_map<const void*, InFlight> in_flight;  // by the tensor's storage

}  // namespace

// Read once: every collective asks.
int rank() {
  static const int me = env_int("RANK", 0);
  return me;
}
int world_size() {
  static const int world = env_int("WORLD_SIZE", 1);
  return world;
}

void join_ranks(const std::string& plan_digest, std::vector<at::Tensor> parameters) {
  if (world_size() == 1) return;
  c10d::Store& store = *joined().store;
  store.set(str("plan/", rank()), std::vector<uint8_t>(plan_digest.begin(), plan_digest.end()));
  std::vector<uint8_t> first = store.get("plan/0");
  check(std::string(first.begin(), first.end()) == plan_digest,
        str("rank ", rank(), " was given another plan than rank 0 (their SHA-256 digests differ): every rank must run the same plan"));
  broadcast_from_first_rank(std::move(parameters));
}

void broadcast_from_first_rank(std::vector<at::Tensor> tensors) {
  if (world_size() == 1) return;
  for (auto& t : tensors) {
    std::vector<at::Tensor> one{t};
    group().broadcast(one, c10d::BroadcastOptions{})->wait();
  }
}

void start_all_reduce(const at::Tensor& t, bool average) {
  if (world_size() == 1) return;
  check(t.device().is_cpu(), "all_reduce: only CPU tensors (Gloo) are supported yet", "NotImplementedError");
  std::vector<at::Tensor> tensors{t};
  auto work = group().allreduce(tensors, c10d::AllreduceOptions{});
  std::lock_guard<std::mutex> lock(in_flight_mutex);
  in_flight[t.storage().data()] = {work, average};
}

void finish_collective(const at::Tensor& t) {
  InFlight pending;
  {
    std::lock_guard<std::mutex> lock(in_flight_mutex);
    auto it = in_flight.find(t.storage().data());
    if (it == in_flight.end()) return;  // alone: nothing was started
    pending = it->second;
    in_flight.erase(it);
  }
  try {
    pending.work->wait();
  } catch (const c10::Error& e) {
    throw std::runtime_error(str("rank ", rank(), " of ", world_size(), ": an all-reduce failed (has another rank died or hung?): ",
                                 message_of(e)));
  }
  if (pending.average) t.div_(world_size());
}

}  // namespace thundercc::runtime
