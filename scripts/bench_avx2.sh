#!/usr/bin/env bash
# scripts/bench.sh with every library held to its AVX2 code paths, on a CPU that also has AVX-512:
# what an AVX2 core (a Zen 3, say) runs, measured on this one. oneDNN (ONEDNN_MAX_CPU_ISA), ATen
# and so eager and TorchScript (ATEN_CPU_CAPABILITY), OpenBLAS (OPENBLAS_CORETYPE=Haswell) and the
# fuser's generated kernels (-mno-avx512f after -march=native, through THUNDERCC_CXX) keep to
# AVX2; a kernel cache of its own makes every product choice be measured again; fma_peak measures
# AVX2's peak. It is not an AVX2 machine: caches and clocks are this CPU's (a Zen 4 runs AVX2 at
# the same flops per cycle as AVX-512, a Zen 3 at the same too). Prints what bench.sh prints.
# Usage: scripts/bench_avx2.sh   (asserts nothing; never writes docs/performance.md)
set -euo pipefail
cd "$(dirname "$0")/.."
grep -qw avx2 /proc/cpuinfo || { echo "bench_avx2.sh: this CPU has no AVX2" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/c++" <<'WRAPPER'
#!/bin/sh
exec c++ "$@" -mno-avx512f
WRAPPER
chmod +x "$work/c++"
export ONEDNN_MAX_CPU_ISA=AVX2 DNNL_MAX_CPU_ISA=AVX2 ATEN_CPU_CAPABILITY=avx2 OPENBLAS_CORETYPE=Haswell
export THUNDERCC_CXX="$work/c++" THUNDERCC_CACHE_DIR="$work/cache"
echo "every library held to AVX2 on $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //') ($(grep -qw avx512f /proc/cpuinfo && echo 'which has AVX-512' || echo 'AVX2 only')):"
scripts/bench.sh
