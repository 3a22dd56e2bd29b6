// Which c10d backend a distributed run takes and which GPU each rank runs on: the rules alone,
// without LibTorch, so that they are tested where there is no GPU (process_group.cpp applies them).
//
// NCCL reduces CUDA tensors on the GPUs themselves, one GPU per rank; Gloo reduces CPU tensors,
// and CUDA ones staged through the host, so ranks may share a GPU. Under NCCL, as torchrun's users
// write `torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))`, a rank runs the plan's CUDA
// device (plans name cuda:0) on cuda:LOCAL_RANK of the GPUs it sees.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "thundercc/errors.h"

namespace thundercc::runtime {

enum class Backend { gloo, nccl };

// What a rank finds when it starts.
struct RankSetting {
  int local_rank = 0, local_world_size = 1;  // LOCAL_RANK, LOCAL_WORLD_SIZE (torchrun's)
  std::string requested;                     // THUNDERCC_DISTRIBUTED_BACKEND: empty, "gloo" or "nccl"
  std::vector<int> plan_cuda_devices;        // the distinct CUDA devices of the plan's inputs
  bool nccl_built = false;                   // the LibTorch the runtime was built against has c10d's NCCL
  int visible_gpus = 0;
};

struct RankPlacement {
  Backend backend = Backend::gloo;
  // Under NCCL: the plan's CUDA device and this rank's GPU, which stands in for it.
  std::optional<std::pair<int, int>> device_map;
};

// NCCL for a plan on CUDA where it is built, else Gloo; THUNDERCC_DISTRIBUTED_BACKEND chooses
// either. Throws ThunderError where the choice cannot run: NCCL asked for CPU tensors or without
// the library, a plan on two GPUs, or fewer GPUs than ranks on this machine.
inline RankPlacement place_rank(const RankSetting& s) {
  const std::string env = "THUNDERCC_DISTRIBUTED_BACKEND";
  check(s.requested.empty() || s.requested == "gloo" || s.requested == "nccl",
        [&] { return str(env, " is '", s.requested, "': 'gloo' or 'nccl' was expected"); });
  const bool on_cuda = !s.plan_cuda_devices.empty();
  if (s.requested == "nccl") {
    check(on_cuda, [&] { return env + "=nccl: NCCL reduces CUDA tensors, and the plan's inputs are on the CPU (Gloo reduces those)"; });
    check(s.nccl_built, [&] { return env + "=nccl: the LibTorch thundercc was built against has no c10d NCCL backend (a PyTorch built with CUDA has)"; });
  }
  RankPlacement placed;
  placed.backend = s.requested == "gloo" || !on_cuda || !s.nccl_built ? Backend::gloo : Backend::nccl;
  if (placed.backend == Backend::gloo) return placed;
  const auto& devices = s.plan_cuda_devices;
  check(devices.size() == 1, [&] { return str("NCCL runs each rank on one GPU, and the plan's inputs are on cuda:", devices[0], " and cuda:", devices.back(),
                                 " (compile the trace for one device)"); });
  check(s.local_world_size <= s.visible_gpus && s.local_rank < s.visible_gpus, [&] {
    return str("rank with LOCAL_RANK ", s.local_rank, " of LOCAL_WORLD_SIZE ", s.local_world_size, " sees ", s.visible_gpus,
            " GPU(s): under NCCL each rank of a machine runs on a GPU of its own, cuda:LOCAL_RANK (start as many ranks as "
            "GPUs, torchrun --nproc_per_node; with CUDA_VISIBLE_DEVICES, leave every GPU visible to every rank), or set ",
            env, "=gloo to let ranks share a GPU");
  });
  placed.device_map = std::make_pair(devices[0], s.local_rank);
  return placed;
}

}  // namespace thundercc::runtime
