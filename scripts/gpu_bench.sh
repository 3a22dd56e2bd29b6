#!/usr/bin/env bash
# The GPU benchmark (issue 44), one command: on the GPU machine, with scripts/gpu_check.sh's build
# (made first when build-gpu/thundercc is missing), runs benchmarks/gpu_bench.py: correctness of
# resnet50, vit_b_16, a GPT-2 stack and a LLaMA block (inference and training, float32 and
# bfloat16) against eager on the GPU, speed against eager and torch.compile, the fused regions'
# bandwidth against a copy's, the mlp step with and without `run --cuda-graphs` against one
# kernel launch per kernel (issue 44), its cuBLASLt epilogue's measured choice and outputs, and its
# DDP step over NCCL where nvidia-smi lists 2+ GPUs. The summary is build-gpu/bench/summary.txt.
# Not yet run on a GPU.
#
#   scripts/gpu_bench.sh [DIR]                    DIR: gpu_check.sh's packages (default gpu-deps/)
#   scripts/gpu_bench.sh --dry-run [OUT]          here, on the CPU, at small sizes: the benchmark's own check
set -uo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = "--dry-run" ]; then
  exec /usr/bin/python3 benchmarks/gpu_bench.py --device cpu --small --rounds 1 --repeat 2 --out "${2:-out/gpu_bench_dry_run}"
fi
python=${PYTHON:-python3}
[ -x build-gpu/thundercc ] || scripts/gpu_check.sh --build-only "${1:-gpu-deps}" || exit 1
# The libraries of Debian's packages that gpu_check.sh unpacked (oneDNN, spdlog, fmt), for the runtime.
for lib in build-gpu/deps/*/usr/lib/x86_64-linux-gnu; do LD_LIBRARY_PATH="$PWD/$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"; done
export LD_LIBRARY_PATH
exec timeout 480 "$python" benchmarks/gpu_bench.py --thundercc build-gpu/thundercc --out build-gpu/bench
