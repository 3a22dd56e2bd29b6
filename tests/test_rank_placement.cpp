// The backend a distributed run takes and the GPU each rank runs on (runtime/rank_placement.h),
// as the ranks of a torchrun launch find them.
#include <catch2/catch.hpp>

#include "runtime/rank_placement.h"

using namespace thundercc;
using namespace thundercc::runtime;

namespace {

RankSetting on_gpus(int local_rank, int local_world, int gpus, std::vector<int> plan_devices = {0}) {
  RankSetting s;
  s.local_rank = local_rank;
  s.local_world_size = local_world;
  s.plan_cuda_devices = std::move(plan_devices);
  s.nccl_built = true;
  s.visible_gpus = gpus;
  return s;
}

std::string refusal(const RankSetting& s) {
  try {
    place_rank(s);
  } catch (const ThunderError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("rank placement: NCCL for a plan on CUDA, each rank on cuda:LOCAL_RANK in place of the plan's device") {
  for (int r = 0; r < 4; ++r) {
    RankPlacement p = place_rank(on_gpus(r, 4, 8));
    CHECK(p.backend == Backend::nccl);
    REQUIRE(p.device_map);
    CHECK(*p.device_map == std::make_pair(0, r));
  }
  // A plan compiled for cuda:1 runs on each rank's GPU all the same.
  CHECK(*place_rank(on_gpus(1, 2, 2, {1})).device_map == std::make_pair(1, 1));
}

TEST_CASE("rank placement: Gloo for CPU plans, without NCCL, or when asked; its ranks keep the plan's device") {
  RankSetting cpu = on_gpus(1, 2, 2, {});
  CHECK(place_rank(cpu).backend == Backend::gloo);
  CHECK_FALSE(place_rank(cpu).device_map);
  RankSetting unbuilt = on_gpus(1, 2, 2);
  unbuilt.nccl_built = false;
  CHECK(place_rank(unbuilt).backend == Backend::gloo);
  // Two ranks on one GPU: allowed under Gloo (scripts/gpu_check.sh's distributed check).
  RankSetting shared = on_gpus(1, 2, 1);
  shared.requested = "gloo";
  RankPlacement p = place_rank(shared);
  CHECK(p.backend == Backend::gloo);
  CHECK_FALSE(p.device_map);
}

TEST_CASE("rank placement: what NCCL cannot run is refused, naming the fix") {
  // Ranks that would share a GPU.
  std::string shared = refusal(on_gpus(1, 2, 1));
  CHECK(shared.find("LOCAL_RANK 1 of LOCAL_WORLD_SIZE 2 sees 1 GPU(s)") != std::string::npos);
  CHECK(shared.find("THUNDERCC_DISTRIBUTED_BACKEND=gloo") != std::string::npos);
  // Every rank of the machine refuses, not only those past the last GPU.
  CHECK_FALSE(refusal(on_gpus(0, 4, 2)).empty());
  CHECK(refusal(on_gpus(0, 2, 2, {0, 1})).find("the plan's inputs are on cuda:0 and cuda:1") != std::string::npos);
  RankSetting cpu = on_gpus(0, 2, 2, {});
  cpu.requested = "nccl";
  CHECK(refusal(cpu).find("NCCL reduces CUDA tensors, and the plan's inputs are on the CPU") != std::string::npos);
  RankSetting unbuilt = on_gpus(0, 2, 2);
  unbuilt.requested = "nccl";
  unbuilt.nccl_built = false;
  CHECK(refusal(unbuilt).find("has no c10d NCCL backend") != std::string::npos);
  RankSetting typo = on_gpus(0, 2, 2);
  typo.requested = "mpi";
  CHECK(refusal(typo) == "THUNDERCC_DISTRIBUTED_BACKEND is 'mpi': 'gloo' or 'nccl' was expected");
}
