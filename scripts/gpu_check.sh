#!/usr/bin/env bash
# The GPU check: the first thing to run wherever an NVIDIA GPU and a PyTorch built with CUDA are.
#
#   scripts/gpu_check.sh --fetch-deps [DIR]   on a Debian bookworm machine with network access:
#                                             downloads the Debian packages the build needs (.deb)
#   scripts/gpu_check.sh [DIR]                on the GPU machine: builds thundercc against that
#                                             PyTorch's LibTorch and runs the checks below
#   scripts/gpu_check.sh --build-only [DIR]   the build alone (scripts/gpu_bench.sh's)
#
# DIR (default gpu-deps/) holds the packages; they are unpacked into build-gpu/deps, one prefix
# each, never into /. The build is build-gpu/; what the checks wrote is build-gpu/check/, and the
# summary is its last lines. For each example model (examples/models), a training step:
#   gpu-captured   captured on the GPU by the front end with that PyTorch (--device cuda), compiled,
#                  run on cuda:0: outputs against eager and gradients against autograd on the GPU;
#   cpu-captured   the committed CPU trace moved to cuda:0: outputs against the committed CPU eager
#                  outputs, gradients against the same plan compiled for and run on the CPU;
#   distributed    mlp's step under --distributed ddp and fsdp (ZeRO-3) on 2 ranks sharing cuda:0
#                  (THUNDERCC_DISTRIBUTED_BACKEND=gloo), gradients against the CPU plan's;
#   steps          5 steps in the plan (compile --optimizer, run --steps 5): AdamW for mlp, SGD with
#                  momentum for cnn; the parameters and optimizer state after them against the same
#                  plan's on the CPU;
#   timing         the GPU plan's step against eager PyTorch's forward and backward on the GPU.
# Exit 0 when every check passed.
set -uo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(nlohmann-json3-dev libcli11-dev libspdlog-dev libspdlog1.10 libfmt-dev libfmt9 catch2
          libvalijson-dev libdnnl-dev libdnnl2 ocl-icd-libopencl1 libgloo-dev)
if [ "${1:-}" = "--fetch-deps" ]; then
  deps=${2:-gpu-deps}
  mkdir -p "$deps" && cd "$deps" && exec apt-get download "${PACKAGES[@]}"
fi
build_only=
if [ "${1:-}" = "--build-only" ]; then build_only=1; shift; fi
deps=$(realpath "${1:-gpu-deps}")
export PATH=/usr/local/cuda/bin:$PATH
python=${PYTHON:-python3}
check=build-gpu/check
mkdir -p "$check" build-gpu/deps

say() { echo "gpu_check: $*" | tee -a "$check/summary.txt"; }
: >"$check/summary.txt"

# The machine: the GPU, the driver, that PyTorch and its CUDA, the compilers.
{
  nvidia-smi -L
  "$python" -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda, torch.cuda.get_device_name(0))'
  g++ --version | head -1
  cmake --version | head -1
  /usr/local/cuda/bin/nvcc --version | tail -1
} >"$check/machine.txt" 2>&1
cat "$check/machine.txt"
torch_prefix=$("$python" -c 'import torch; print(torch.utils.cmake_prefix_path)') || { say "FAIL no PyTorch in $python"; exit 1; }
torch_include=$(dirname "$(dirname "$torch_prefix")")/include

# Debian's packages, one prefix each (a folder holding only that package's headers, so that no
# header of one shadows LibTorch's own copy, as fmt's would). Gloo's headers only where that
# PyTorch does not ship its own.
prefixes="$torch_prefix"
library_path=""
prefix_of() {  # a library goes into its development package's prefix, where its CMake files point
  case $1 in libfmt9) echo libfmt-dev ;; libspdlog1.10) echo libspdlog-dev ;; libdnnl2) echo libdnnl-dev ;; *) echo "$1" ;; esac
}
for deb in "$deps"/*.deb; do
  name=$(prefix_of "$(basename "$deb" | cut -d_ -f1)")
  if [ "$name" = libgloo-dev ] && [ -d "$torch_include/gloo" ]; then continue; fi
  dpkg -x "$deb" "build-gpu/deps/$name" || { say "FAIL unpacking $deb"; exit 1; }
  case ";$prefixes;" in *";$PWD/build-gpu/deps/$name/usr;"*) ;; *)
    prefixes="$prefixes;$PWD/build-gpu/deps/$name/usr"
    library_path="$library_path:$PWD/build-gpu/deps/$name/usr/lib/x86_64-linux-gnu" ;;
  esac
done
export LD_LIBRARY_PATH="${library_path#:}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

started=$(date +%s)
# NCCL's header, for c10d's NCCL backend: the nvidia-nccl wheel's that this PyTorch loads.
nccl_include=$("$python" -c 'import nvidia.nccl, os; print(os.path.join(list(nvidia.nccl.__path__)[0], "include"))' 2>/dev/null)
if ! { cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DTHUNDERCC_JEMALLOC=OFF \
         -DCMAKE_PREFIX_PATH="$prefixes" -DCUDAToolkit_ROOT=/usr/local/cuda ${nccl_include:+-DNCCL_INCLUDE_DIR="$nccl_include"} \
         >"$check/configure.log" 2>&1 &&
       cmake --build build-gpu --target thundercc thundercc_runtime -- -k 0 >"$check/build.log" 2>&1; }; then
  tail -40 "$check/configure.log"; grep -B2 -A12 "error" "$check/build.log" | head -150
  say "FAIL build (build-gpu/check/configure.log, build.log)"
  exit 1
fi
say "built in $(( $(date +%s) - started )) s"
[ -n "$build_only" ] && exit 0

thundercc=build-gpu/thundercc
export THUNDERCC=$PWD/$thundercc  # the front end asks it which ops it knows
status=0
passed() { say "PASS $1"; }
failed() { say "FAIL $1 (build-gpu/check/$2.log)"; status=1; }
attempt() {  # NAME COMMAND...: runs the command, its output in build-gpu/check/NAME.log
  local name=$1; shift
  if "$@" >"$check/$name.log" 2>&1; then passed "$name"; else failed "$name" "$name"; fi
}

for model in mlp gpt2_block llama_block cnn; do
  work=$check/$model
  mkdir -p "$work/gpu" "$work/cpu" "$work/moved"
  # Captured on the GPU with this PyTorch.
  attempt "$model.gpu-captured" bash -c "
    PYTHONPATH=. '$python' -m thundercc_frontend examples/models/$model.py:make --device cuda --save-io --grad \
      -o $work/gpu/$model.json &&
    $thundercc compile $work/gpu/$model.json -o $work/gpu &&
    grep -c cuda_function $work/gpu/$model.plan.json &&
    $thundercc run $work/gpu/$model.plan.json --inputs $work/gpu/$model.inputs.pt --expect $work/gpu/$model.expected.pt \
      --expect-grads $work/gpu/$model.grads.pt"
  # The committed CPU trace, moved to cuda:0.
  sed 's/"device": "cpu"/"device": "cuda:0"/g' "traces/$model.json" >"$work/moved/$model.json"
  attempt "$model.cpu-captured" bash -c "
    $thundercc compile traces/$model.json -o $work/cpu &&
    $thundercc run $work/cpu/$model.plan.json --inputs traces/$model.inputs.pt --expect traces/$model.expected.pt \
      --grads-out $work/cpu/$model.grads.pt &&
    $thundercc compile $work/moved/$model.json -o $work/moved &&
    $thundercc run $work/moved/$model.plan.json --inputs traces/$model.inputs.pt --expect traces/$model.expected.pt \
      --expect-grads $work/cpu/$model.grads.pt"
  # Training in the plan: the optimizer's update runs on the GPU too; the parameters after 5 steps
  # (the checkpoints) equal the CPU's. Not the transformer blocks: they return activations, and
  # descending their sum (cotangents of ones) diverges to 1e12 and NaN within 5 steps.
  case $model in
    mlp) optimizer="--optimizer adamw --lr 0.001" ;;
    cnn) optimizer="--optimizer sgd --lr 0.01 --momentum 0.9" ;;
    *) optimizer="" ;;
  esac
  [ -n "$optimizer" ] && attempt "$model.steps" bash -c "
    $thundercc compile traces/$model.json -o $work/cpu/steps $optimizer &&
    $thundercc compile $work/moved/$model.json -o $work/moved/steps $optimizer &&
    $thundercc run $work/cpu/steps/$model.plan.json --inputs traces/$model.inputs.pt --steps 5 --checkpoint $work/cpu/steps/end.pt &&
    $thundercc run $work/moved/steps/$model.plan.json --inputs traces/$model.inputs.pt --steps 5 --checkpoint $work/moved/steps/end.pt &&
    '$python' -c 'import sys, torch
cpu, gpu = (torch.load(f, map_location=\"cpu\") for f in sys.argv[1:])
assert cpu[\"step\"] == gpu[\"step\"] == 5 and cpu[\"model\"].keys() == gpu[\"model\"].keys()
pairs = [(cpu[s][k], gpu[s][k]) for s in (\"model\", \"inputs\") for k in cpu[s]]
pairs += [(v, gpu[\"optimizer\"][\"state\"][i][n]) for i, st in cpu[\"optimizer\"][\"state\"].items() for n, v in st.items()]
for a, b in pairs: torch.testing.assert_close(b, a, rtol=1e-4, atol=1e-5)
print(len(pairs), \"checkpoint tensors equal\")' $work/cpu/steps/end.pt $work/moved/steps/end.pt"
  # Data parallel on the GPU's tensors: 2 ranks on cuda:0 (Gloo stages them through the host;
  # NCCL needs a GPU per rank: scripts/gpu_bench.sh), each given the whole batch, so that the
  # averaged gradients are the single process's: DDP, and FSDP with ZeRO-3.
  [ "$model" = mlp ] && THUNDERCC_DISTRIBUTED_BACKEND=gloo attempt "$model.distributed" bash -c "
    $thundercc compile $work/moved/$model.json -o $work/moved/ddp --distributed ddp &&
    $thundercc compile $work/moved/$model.json -o $work/moved/fsdp --distributed fsdp --world-size 2 --zero 3 &&
    for kind in ddp fsdp; do
      '$python' -m torch.distributed.run --nproc_per_node 2 --no_python --master_port 29531 $thundercc run \$PWD/$work/moved/\$kind/$model.plan.json \
        --inputs traces/$model.inputs.pt --expect-grads $work/cpu/$model.grads.pt --rtol 1e-4 --atol 1e-5 || exit 1
    done"
  # The step's time on the GPU against eager's.
  attempt "$model.timing" bash -c "
    $thundercc run $work/moved/$model.plan.json --inputs traces/$model.inputs.pt --warmup 5 --repeat 50 &&
    PYTHONPATH=. '$python' benchmarks/gpu_eager_step.py examples/models/$model.py:make"
done
cat "$check"/*.timing.log | grep -E "median" | tee -a "$check/summary.txt"
say "$([ $status = 0 ] && echo 'every check passed' || echo 'some checks failed')"
exit $status
