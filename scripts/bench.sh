#!/usr/bin/env bash
# Runner benchmark: per-op cost of `thundercc run` on 100 tiny elementwise ops, against direct
# ATen calls from C++ and PyTorch eager from /usr/bin/python3 (the same LibTorch), single-threaded.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh >/dev/null
BUILD_DIR=${BUILD_DIR:-build}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
/usr/bin/python3 scripts/capture.py benchmarks/tiny_ops.py:make -o "$work/tiny_ops.json" >/dev/null
"$BUILD_DIR/thundercc" compile "$work/tiny_ops.json" -o "$work"
cpp=$("$BUILD_DIR/runner_overhead" "$work/tiny_ops.plan.json")
eager=$(OMP_NUM_THREADS=1 /usr/bin/python3 benchmarks/tiny_ops.py)
aten=$(awk '/aten_direct_ns_per_op/ {print $2}' <<<"$cpp")
run=$(awk '/thundercc_run_ns_per_op/ {print $2}' <<<"$cpp")
echo "per-op cost, 100 tiny elementwise ops (float32[16]), one thread, inference mode, medians of 21 rounds:"
printf "  ATen direct (C++)         %8.1f ns/op\n" "$aten"
ratio=$(awk '/ratio_run_over_aten/ {print $2}' <<<"$cpp")
printf "  thundercc run             %8.1f ns/op   %.2fx ATen direct (median of per-round ratios)\n" "$run" "$ratio"
printf "  PyTorch eager (Python)    %8.1f ns/op   thundercc run is %.2fx eager's cost\n" "$eager" "$(awk -v a="$run" -v b="$eager" 'BEGIN {print a/b}')"
