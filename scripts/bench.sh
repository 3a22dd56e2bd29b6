#!/usr/bin/env bash
# The benchmarks, each against a baseline measured in the same run (PyTorch eager from
# /usr/bin/python3 on the same LibTorch, direct ATen calls from C++, ATen's own fused kernels), one
# intra-op thread: runner overhead, fused regions, compile time, training steps, inference,
# working memory. `scripts/bench.sh --write` also puts what it prints, dated, into docs/performance.md's
# Performance section, between its two markers (only a whole run replaces it).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh >/dev/null
BUILD_DIR=${BUILD_DIR:-build}
write=${1:-}
if [ "$write" = "--write" ]; then
  exec 3>&1 > >(tee bench.out.tmp)
  tee_pid=$!
  # The model name alone can be the same on an AVX2 and an AVX-512 host ("AMD EPYC" in a VM).
  isa=$(grep -qw avx512f /proc/cpuinfo && echo AVX-512 || (grep -qw avx2 /proc/cpuinfo && echo AVX2 || echo "no AVX2"))
  echo "Measured by \`scripts/bench.sh --write\` on $(date -u +%Y-%m-%d), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //') with $isa:"
  echo
  echo '```'
fi
work=$(mktemp -d)
finish() {
  local status=$?
  rm -rf "$work"
  if [ "$write" = "--write" ]; then  # only a whole run replaces docs/performance.md's figures
    if [ $status -eq 0 ]; then
      echo '```'
      exec 1>&3; wait "$tee_pid"  # tee has written everything
      /usr/bin/python3 scripts/splice_readme.py bench.out.tmp
    fi
    rm -f bench.out.tmp
  fi
}
trap finish EXIT
/usr/bin/python3 scripts/capture.py benchmarks/tiny_ops.py:make -o "$work/tiny_ops.json" >/dev/null
"$BUILD_DIR/thundercc" compile "$work/tiny_ops.json" -o "$work" --executors torch  # unfused: an ATen call per op
cpp=$("$BUILD_DIR/runner_overhead" "$work/tiny_ops.plan.json")
eager=$(OMP_NUM_THREADS=1 /usr/bin/python3 benchmarks/tiny_ops.py)
aten=$(awk '/aten_direct_ns_per_op/ {print $2}' <<<"$cpp")
run=$(awk '/thundercc_run_ns_per_op/ {print $2}' <<<"$cpp")
echo "per-op cost, 100 tiny elementwise ops (float32[16]), one thread, inference mode, medians of 21 rounds:"
printf "  ATen direct (C++)         %8.1f ns/op\n" "$aten"
ratio=$(awk '/ratio_run_over_aten/ {print $2}' <<<"$cpp")
printf "  thundercc run             %8.1f ns/op   %.2fx ATen direct (median of per-round ratios)\n" "$run" "$ratio"
printf "  PyTorch eager (Python)    %8.1f ns/op   thundercc run is %.2fx eager's cost\n" "$eager" "$(awk -v a="$run" -v b="$eager" 'BEGIN {print a/b}')"

# The same 100 ops fused into one generated kernel (--executors fuser,torch).
"$BUILD_DIR/thundercc" compile "$work/tiny_ops.json" -o "$work/fused" --executors fuser,torch
fused=$("$BUILD_DIR/runner_overhead" "$work/fused/tiny_ops.plan.json")
fused_run=$(awk '/thundercc_run_ns_per_op/ {print $2}' <<<"$fused")
printf "  thundercc run, fused      %8.1f ns/op   %.2fx ATen direct (one generated kernel for the 100 ops)\n" "$fused_run" \
  "$(awk '/ratio_run_over_aten/ {print $2}' <<<"$fused")"

# Fusion: regions that become one generated kernel, against eager's chain of ops and against
# ATen's own fused kernel (into a preallocated buffer where PyTorch has out=).
echo "fused regions, one thread, median of 5 runs after 2 warm-ups (eager: median of 5):"
for program in gelu_8m gelu_32m gelu_bf16_8m new_gelu_8m softmax layer_norm; do
  /usr/bin/python3 scripts/capture.py "benchmarks/fusion_programs.py:make_$program" -o "$work/$program.json" >/dev/null
  "$BUILD_DIR/thundercc" compile "$work/$program.json" -o "$work/fused" --executors fuser,torch
  ours=$(OMP_NUM_THREADS=1 "$BUILD_DIR/thundercc" run "$work/fused/$program.plan.json" --repeat 5 --warmup 2 | sed -n 's/.*median \([0-9.]*\) ms.*/\1/p')
  eager=$(/usr/bin/python3 benchmarks/fusion_programs.py "$program" 5)
  aten=$(/usr/bin/python3 benchmarks/fusion_programs.py "$program" 5 aten)
  printf "  %-12s thundercc run %8.2f ms   eager %8.2f ms   %6.1fx faster than eager   %.2fx ATen's fused kernel (%.2f ms)\n" \
    "$program" "$ours" "$eager" "$(awk -v a="$ours" -v b="$eager" 'BEGIN {print b/a}')" \
    "$(awk -v a="$ours" -v b="$aten" 'BEGIN {print a/b}')" "$aten"
done
# Bandwidth: the 32M GELU kernel reads and writes 128 MB each; a copy of the same size is the bar.
copy=$(/usr/bin/python3 -c "
import time, torch
torch.set_num_threads(1)
a = torch.randn(32 << 20); b = torch.empty_like(a); b.copy_(a)
t = []
for _ in range(5):
    s = time.perf_counter(); b.copy_(a); t.append(time.perf_counter() - s)
print(sorted(t)[2] * 1e3)")
gelu=$(OMP_NUM_THREADS=1 "$BUILD_DIR/thundercc" run "$work/fused/gelu_32m.plan.json" --repeat 5 --warmup 2 | sed -n 's/.*median \([0-9.]*\) ms.*/\1/p')
printf "  bandwidth: fused gelu_32m %.1f GB/s, a 128 MB copy %.1f GB/s (%.0f%% of copy bandwidth)\n" \
  "$(awk -v t="$gelu" 'BEGIN {print 0.268435456 / (t / 1e3)}')" "$(awk -v t="$copy" 'BEGIN {print 0.268435456 / (t / 1e3)}')" \
  "$(awk -v a="$gelu" -v b="$copy" 'BEGIN {print 100 * b / a}')"

# Compile time against trace size: GPT-2 block stacks of 1, 6 and 24 layers; their parameters
# require grad, so each compile is a training step (grad transform, split, both claimed).
echo "thundercc compile, GPT-2 block stacks (median of 9 runs, whole process, kernel cache warm); 1-24 layers: training step, 96: inference (the issue's measure):"
for layers in 1 6 24 96_inference; do
  /usr/bin/python3 scripts/capture.py "benchmarks/gpt_stack.py:make_$layers" -o "$work/gpt$layers.json" >/dev/null
  symbols=$(/usr/bin/python3 -c "import json, sys; print(len(json.load(open(sys.argv[1]))['bound_symbols']))" "$work/gpt$layers.json")
  times=()
  "$BUILD_DIR/thundercc" compile "$work/gpt$layers.json" -o "$work/compiled"  # fills the kernel cache
  for _ in 1 2 3 4 5 6 7 8 9; do  # this VM's timings come in bursts: nine runs, the middle one
    start=$(date +%s%N)
    "$BUILD_DIR/thundercc" compile "$work/gpt$layers.json" -o "$work/compiled"
    times+=($(( ($(date +%s%N) - start) / 1000 )))
  done
  median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n 5p)
  printf "  %-12s layers  %5d bound symbols  %8.1f ms  %6.1f us per bound symbol\n" "$layers" "$symbols" \
    "$(awk -v t="$median" 'BEGIN {print t/1000}')" "$(awk -v t="$median" -v n="$symbols" 'BEGIN {print t/n}')"
done

# The issue "Performance"'s compile-time baseline, commit 8e323f1, timed interleaved with this
# checkout (its thundercc is built once, in build-8e323f1).
benchmarks/compile_against.sh 8e323f1 31 | sed 's/^/  /'

# Training step: forward and backward of a GPT-2 and a LLaMA block (d256, batch 4 x 128), thundercc
# run against PyTorch eager with autograd, one intra-op thread each, medians of 5 rounds.
echo "training step (forward + backward), one thread, median of 5 rounds after one warm-up:"
for model in gpt2 llama; do
  /usr/bin/python3 scripts/capture.py "benchmarks/train_step.py:make_$model" -o "$work/$model.json" >/dev/null
  saved=$("$BUILD_DIR/thundercc" -v compile "$work/$model.json" -o "$work" 2>&1 | sed -n 's/.*saved for backward: \([0-9]*\) bytes.*/\1/p')
  ours=$(OMP_NUM_THREADS=1 "$BUILD_DIR/thundercc" run "$work/$model.plan.json" --repeat 5 --warmup 1 | sed -n 's/.*median \([0-9.]*\) ms.*/\1/p')
  # The same plan with matrix products left to LibTorch's BLAS (what eager uses).
  blas=$(THUNDERCC_MATMUL=blas OMP_NUM_THREADS=1 "$BUILD_DIR/thundercc" run "$work/$model.plan.json" --repeat 5 --warmup 1 | sed -n 's/.*median \([0-9.]*\) ms.*/\1/p')
  eager=$(OMP_NUM_THREADS=1 /usr/bin/python3 benchmarks/train_step.py "$model" 5)
  printf "  %-6s thundercc run %8.1f ms (BLAS matmul %8.1f ms)   eager %8.1f ms   ratio %.2fx (%.2fx)   saved for backward %.1f MB\n" \
    "$model" "$ours" "$blas" "$eager" "$(awk -v a="$ours" -v b="$eager" 'BEGIN {print a/b}')" \
    "$(awk -v a="$blas" -v b="$eager" 'BEGIN {print a/b}')" "$(awk -v s="$saved" 'BEGIN {print s/1e6}')"
done

# Inference: a GPT-2 block (d768) and a LLaMA block (d1024) on 4 x 256 tokens, the issue
# "Performance"'s programs, with the default executors (fuser, torch) and with the torch executor
# alone; matrix products on oneDNN and, for comparison, on LibTorch's BLAS.
echo "inference (forward), one thread, median of 3 rounds after one warm-up:"
for model in gpt2 llama; do
  /usr/bin/python3 scripts/capture.py "benchmarks/inference_blocks.py:make_$model" -o "$work/inf_$model.json" >/dev/null
  "$BUILD_DIR/thundercc" compile "$work/inf_$model.json" -o "$work" >/dev/null
  "$BUILD_DIR/thundercc" compile "$work/inf_$model.json" -o "$work/torch_only" --executors torch >/dev/null
  ours=$(OMP_NUM_THREADS=1 "$BUILD_DIR/thundercc" run "$work/inf_$model.plan.json" --repeat 3 --warmup 1 | sed -n 's/.*median \([0-9.]*\) ms.*/\1/p')
  unfused=$(OMP_NUM_THREADS=1 "$BUILD_DIR/thundercc" run "$work/torch_only/inf_$model.plan.json" --repeat 3 --warmup 1 | sed -n 's/.*median \([0-9.]*\) ms.*/\1/p')
  blas=$(THUNDERCC_MATMUL=blas OMP_NUM_THREADS=1 "$BUILD_DIR/thundercc" run "$work/inf_$model.plan.json" --repeat 3 --warmup 1 | sed -n 's/.*median \([0-9.]*\) ms.*/\1/p')
  eager=$(OMP_NUM_THREADS=1 /usr/bin/python3 benchmarks/inference_blocks.py "$model" 3)
  printf "  %-6s thundercc run %8.1f ms (--executors torch %8.1f ms, BLAS matmul %8.1f ms)   eager %8.1f ms   ratio %.3fx (%.3fx, %.2fx)\n" \
    "$model" "$ours" "$unfused" "$blas" "$eager" "$(awk -v a="$ours" -v b="$eager" 'BEGIN {print a/b}')" \
    "$(awk -v a="$unfused" -v b="$eager" 'BEGIN {print a/b}')" "$(awk -v a="$blas" -v b="$eager" 'BEGIN {print a/b}')"
done

# Working memory: live CPU tensor bytes during one run beyond its inputs and the previous run's
# outputs (thundercc's arena included), counted by the same allocator in both processes.
echo "working peak memory, one run (thundercc: run --profile; eager: benchmarks/peak_memory.py):"
for program in inference_blocks.py:make_gpt2 inference_blocks.py:make_llama fusion_programs.py:make_gelu_32m fusion_programs.py:make_softmax; do
  name=${program#*:make_}
  /usr/bin/python3 scripts/capture.py "benchmarks/$program" -o "$work/peak_$name.json" >/dev/null
  eager=$(/usr/bin/python3 benchmarks/peak_memory.py "$BUILD_DIR/libthundercc_runtime.so" "benchmarks/$program")
  line="  $(printf '%-9s' "$name") eager $(awk -v e="$eager" 'BEGIN {printf "%7.1f MB", e / 1e6}')"
  for executors in torch fuser,torch; do
    "$BUILD_DIR/thundercc" compile "$work/peak_$name.json" -o "$work/peak_${executors%%,*}" --executors "$executors"
    memory=$(OMP_NUM_THREADS=1 "$BUILD_DIR/thundercc" run "$work/peak_${executors%%,*}/peak_$name.plan.json" --repeat 2 --warmup 1 --profile | grep '^memory:')
    peak=$(sed -n 's/.*working peak \([0-9.]*\) MB (arena \([0-9.]*\) MB.*/\1 MB (arena \2)/p' <<<"$memory")
    line+="   --executors $executors: $peak"
  done
  echo "$line"
done

# The peers a careful user picks: eager and TorchScript's frozen graph, all given OpenBLAS, at one
# thread and at every core; each program's share of the FMA peak measured in the same run (fma_peak).
THUNDERCC="$BUILD_DIR/thundercc" /usr/bin/python3 benchmarks/peers.py 5 2>/dev/null
# Each matrix product of those training steps against the FMA peak (the issue's 80% bar).
THUNDERCC="$BUILD_DIR/thundercc" /usr/bin/python3 benchmarks/product_rates.py 2>/dev/null

# Data parallelism: 2 ranks of one thread under torchrun, against PyTorch's DistributedDataParallel.
THUNDERCC="$BUILD_DIR/thundercc" /usr/bin/python3 benchmarks/ddp_step.py 10 2>/dev/null
