// The process group of a distributed run, joined on the first collective from torchrun's
// environment (RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT): a c10d TCPStore (torchrun's agent
// hosts it where TORCHELASTIC_USE_AGENT_STORE says so, else rank 0 does), keys under a prefix of
// thundercc's own, and the backend rank_placement.h chooses: Gloo over the loopback or the host's
// interface (CPU tensors; CUDA ones staged through the host), or NCCL (CUDA tensors, a GPU per
// rank), built where the LibTorch has it (CMake defines THUNDERCC_NCCL).
#ifndef USE_C10D_GLOO  // LibTorch's CMake package defines it where c10d has Gloo; ProcessGroupGloo.hpp needs it
#define USE_C10D_GLOO
#endif
#include "runtime/process_group.h"

#include <cerrno>
#include <cstdlib>
#include <mutex>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <unordered_map>

#include <ATen/detail/CUDAHooksInterface.h>
#include <torch/csrc/distributed/c10d/Backend.hpp>
#include <torch/csrc/distributed/c10d/PrefixStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>
#ifdef THUNDERCC_NCCL
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>
#endif

#include "runtime/rank_placement.h"
#include "thundercc/errors.h"
#include "thundercc/runtime/kernels.h"

namespace thundercc::runtime {
namespace {

// A whole number from `least` to `most`: a port past 65535 would wrap to another port, a world of
// no ranks would fail deep inside Gloo.
int env_int(const char* name, int fallback, int least, int most) {
  const char* v = std::getenv(name);
  if (!v || !*v) return fallback;
  char* end = nullptr;
  errno = 0;
  const long x = std::strtol(v, &end, 10);
  if (end == v || *end != '\0' || errno == ERANGE || x < least || x > most)
    throw std::runtime_error(str("the environment variable ", name, " is '", v, "': a whole number from ", least, " to ", most, " was expected"));
  return static_cast<int>(x);
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

// What the backends derive from: a ProcessGroup in LibTorch 1.13, a Backend in 2.x.
using Group = std::conditional_t<std::is_base_of_v<c10d::Backend, c10d::ProcessGroupGloo>, c10d::Backend, c10d::ProcessGroup>;

struct Joined {
  c10::intrusive_ptr<c10d::Store> store;
  c10::intrusive_ptr<Group> group;
};

Backend chosen = Backend::gloo;  // place_this_rank's

const Joined& joined() {
  static Joined ranks = [] {
    const int me = rank(), world = world_size();
    c10d::TCPStoreOptions options;
    options.port = static_cast<uint16_t>(env_int("MASTER_PORT", 29500, 1, 65535));
    options.isServer = me == 0 && env_string("TORCHELASTIC_USE_AGENT_STORE", "") != "True";
    options.numWorkers = world;
    options.timeout = std::chrono::seconds(env_int("THUNDERCC_DISTRIBUTED_TIMEOUT", 300, 1, 7 * 86400));
    const std::string host = env_string("MASTER_ADDR", "127.0.0.1");
    const auto where = str("rank ", me, " of ", world, " (", backend_name(), ", store ", host, ":", options.port, ", timeout ", options.timeout.count(),
                           " ms, THUNDERCC_DISTRIBUTED_TIMEOUT)");
    try {
      Joined ranks;
      ranks.store = c10::make_intrusive<c10d::PrefixStore>("thundercc", c10::make_intrusive<c10d::TCPStore>(host, options));
#ifdef THUNDERCC_NCCL
      if (chosen == Backend::nccl) {
        auto nccl = c10d::ProcessGroupNCCL::Options::create();
        nccl->timeout = options.timeout;
        ranks.group = c10::make_intrusive<c10d::ProcessGroupNCCL>(ranks.store, me, world, nccl);
        return ranks;
      }
#endif
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

Group& group() { return *joined().group; }

struct InFlight {
  c10::intrusive_ptr<c10d::Work> work;
  at::Tensor ready;        // what the wait hands on
  bool average = false;    // `ready` divided by the world size first
  bool compact = false;    // `ready` copied out of the larger buffer it is a slice of
};
std::mutex in_flight_mutex;
std::unordered_map<const void*, InFlight> in_flight;  // by the tensor's storage
CommunicationStats communicated;                      // under in_flight_mutex

void count(const at::Tensor& payload) {
  std::lock_guard<std::mutex> lock(in_flight_mutex);
  ++communicated.collectives;
  communicated.bytes += static_cast<int64_t>(payload.numel()) * static_cast<int64_t>(payload.element_size());
}

}  // namespace

// Read once: every collective asks.
int rank() {
  static const int me = env_int("RANK", 0, 0, world_size() - 1);
  return me;
}
int world_size() {
  static const int world = env_int("WORLD_SIZE", 1, 1, 1 << 16);
  return world;
}

void place_this_rank(const std::vector<int>& plan_cuda_devices) {
  if (world_size() == 1) return;
  RankSetting setting;
  // Without torchrun's LOCAL_* (another launcher), the ranks are taken to share one machine.
  setting.local_world_size = env_int("LOCAL_WORLD_SIZE", world_size(), 1, world_size());
  setting.local_rank = env_int("LOCAL_RANK", rank() % setting.local_world_size, 0, setting.local_world_size - 1);
  setting.requested = env_string("THUNDERCC_DISTRIBUTED_BACKEND", "");
  setting.plan_cuda_devices = plan_cuda_devices;
#ifdef THUNDERCC_NCCL
  setting.nccl_built = true;
#endif
  setting.visible_gpus = plan_cuda_devices.empty() ? 0 : at::detail::getCUDAHooks().getNumGPUs();
  try {
    const RankPlacement placed = place_rank(setting);
    chosen = placed.backend;
    if (placed.device_map) swap_cuda_devices(placed.device_map->first, placed.device_map->second);
  } catch (const ThunderError& e) {
    throw std::runtime_error(str("rank ", rank(), " of ", world_size(), ": ", e.what()));
  }
}

const char* backend_name() { return chosen == Backend::nccl ? "nccl" : "gloo"; }

void join_ranks(const std::string& plan_digest) {
  if (world_size() == 1) return;
  c10d::Store& store = *joined().store;
  store.set(str("plan/", rank()), std::vector<uint8_t>(plan_digest.begin(), plan_digest.end()));
  std::vector<uint8_t> first = store.get("plan/0");
  check(std::string(first.begin(), first.end()) == plan_digest,
        str("rank ", rank(), " was given another plan than rank 0 (their SHA-256 digests differ): every rank must run the same plan"));
}

void broadcast_from_first_rank(std::vector<at::Tensor> tensors) {
  if (world_size() == 1) return;
  for (auto& t : tensors) {
    std::vector<at::Tensor> one{t};
    count(t);
    group().broadcast(one, c10d::BroadcastOptions{})->wait();
  }
}

namespace {

// Under the key the wait finds it by: the storage of what it hands on.
void track(c10::intrusive_ptr<c10d::Work> work, const at::Tensor& ready, bool average, bool compact, const at::Tensor& payload) {
  count(payload);
  std::lock_guard<std::mutex> lock(in_flight_mutex);
  in_flight[ready.storage().data()] = {std::move(work), ready, average, compact};
}

}  // namespace

void start_all_reduce(const at::Tensor& t, bool average) {
  if (world_size() == 1) return;
  std::vector<at::Tensor> tensors{t};
  track(group().allreduce(tensors, c10d::AllreduceOptions{}), t, average, false, t);
}

at::Tensor start_all_gather(const at::Tensor& shard) {
  const int world = world_size();
  std::vector<int64_t> sizes = shard.sizes().vec();
  sizes[0] *= world;
  if (world == 1) return shard.clone(at::MemoryFormat::Contiguous);
  // Gloo copies each rank's shard in on its own thread, outside the run's inference mode, where an
  // inference tensor may not be written: the result is made a normal tensor.
  c10::InferenceMode normal_tensors(false);
  at::Tensor whole = at::empty(sizes, shard.options().memory_format(at::MemoryFormat::Contiguous));
  std::vector<std::vector<at::Tensor>> outputs{whole.chunk(world, 0)};  // rank r's shard into its rows
  std::vector<at::Tensor> inputs{shard.contiguous()};
  track(group().allgather(outputs, inputs, c10d::AllgatherOptions{}), whole, false, false, whole);
  return whole;
}

at::Tensor start_reduce_scatter(const at::Tensor& t, bool average) {
  const int world = world_size();
  const int64_t rows = t.size(0) / world;
  // Gloo in LibTorch 1.13 has no reduce-scatter: an all-reduce of the whole, of which this rank
  // keeps its rows (twice the bytes a reduce-scatter sends).
  at::Tensor reduced = t.clone(at::MemoryFormat::Contiguous);
  at::Tensor mine = reduced.narrow(0, rank() * rows, rows);
  if (world == 1) return mine;
  std::vector<at::Tensor> tensors{reduced};
  track(group().allreduce(tensors, c10d::AllreduceOptions{}), mine, average, true, reduced);
  return mine;
}

at::Tensor finish_collective(const at::Tensor& t) {
  InFlight pending;
  {
    std::lock_guard<std::mutex> lock(in_flight_mutex);
    auto it = in_flight.find(t.storage().data());
    if (it == in_flight.end()) return t;  // alone: nothing was started
    pending = std::move(it->second);
    in_flight.erase(it);
  }
  try {
    pending.work->wait();
  } catch (const c10::Error& e) {
    throw std::runtime_error(str("rank ", rank(), " of ", world_size(), ": a collective failed (has another rank died or hung?): ",
                                 message_of(e)));
  }
  if (pending.average) pending.ready.div_(world_size());
  return pending.compact ? pending.ready.clone() : pending.ready;
}

CommunicationStats communication_stats() {
  std::lock_guard<std::mutex> lock(in_flight_mutex);
  return communicated;
}

void reset_communication_stats() {
  std::lock_guard<std::mutex> lock(in_flight_mutex);
  communicated = {};
}

at::Tensor rank_shard(const at::Tensor& whole) {
  const int64_t world = world_size();
  at::Tensor rows = whole.dim() == 0 ? whole.reshape({1}) : whole;
  const int64_t n = rows.size(0), per = (n + world - 1) / world;
  if (per * world != n) {
    std::vector<int64_t> padding = rows.sizes().vec();
    padding[0] = per * world - n;
    rows = at::cat({rows, at::zeros(padding, rows.options())});
  }
  return rows.narrow(0, rank() * per, per).clone(at::MemoryFormat::Contiguous);
}

at::Tensor gather_whole(const at::Tensor& shard, at::IntArrayRef whole_shape) {
  at::Tensor gathered = finish_collective(start_all_gather(shard));
  return gathered.narrow(0, 0, whole_shape.empty() ? 1 : whole_shape[0]).reshape(whole_shape);
}

}  // namespace thundercc::runtime
