#!/usr/bin/env bash
# Compile time of this checkout against another commit's, on the issue's measure: the 96-layer
# GPT-2 stack (inference), whole process, kernel cache warm. Each commit captures the stack with
# its own front end (trace formats differ between versions) and is timed interleaved with this
# checkout, pair by pair, so that a busy machine slows both alike. The other commit's thundercc is
# built once in a worktree beside the build folder (build-COMMIT) and kept for the next run.
# Usage: benchmarks/compile_against.sh COMMIT [PAIRS]   (default 15 pairs; prints figures, asserts nothing)
set -euo pipefail
cd "$(dirname "$0")/.."
commit=$(git rev-parse --short "${1:?usage: compile_against.sh COMMIT [PAIRS]}")
pairs=${2:-15}
BUILD_DIR=${BUILD_DIR:-build}
other=$PWD/build-$commit
if [ ! -x "$other/bin/thundercc" ]; then
  echo "building thundercc at $commit in $other (once) ..." >&2
  rm -rf "$other"
  git worktree add --detach "$other/src" "$commit" >/dev/null
  cmake -S "$other/src" -B "$other/bin" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  ninja -C "$other/bin" thundercc >/dev/null
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
THUNDERCC="$other/bin/thundercc" /usr/bin/python3 "$other/src/scripts/capture.py" benchmarks/gpt_stack.py:make_96_inference -o "$work/old.json" >/dev/null
/usr/bin/python3 scripts/capture.py benchmarks/gpt_stack.py:make_96_inference -o "$work/new.json" >/dev/null
"$other/bin/thundercc" compile "$work/old.json" -o "$work/old" >/dev/null  # fills the kernel cache
"$BUILD_DIR/thundercc" compile "$work/new.json" -o "$work/new" >/dev/null
elapsed_us() { local start; start=$(date +%s%N); "$@" >/dev/null; echo $(( ($(date +%s%N) - start) / 1000 )); }
theirs=() ours=() ratios=()
for _ in $(seq "$pairs"); do
  t=$(elapsed_us "$other/bin/thundercc" compile "$work/old.json" -o "$work/old")
  o=$(elapsed_us "$BUILD_DIR/thundercc" compile "$work/new.json" -o "$work/new")
  theirs+=("$t") ours+=("$o") ratios+=("$(awk -v a="$o" -v b="$t" 'BEGIN {print a / b}')")
done
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
range() { printf '%s\n' "$@" | sort -g | awk 'NR == 1 {lo = $1} {hi = $1} END {printf "%.2f-%.2f", lo, hi}'; }
printf "96-layer GPT-2 stack (inference), %d interleaved pairs: this checkout %.1f ms, %s %.1f ms (medians); ratio %.2fx (pairs %s)\n" \
  "$pairs" "$(awk -v t="$(median "${ours[@]}")" 'BEGIN {print t / 1000}')" "$commit" \
  "$(awk -v t="$(median "${theirs[@]}")" 'BEGIN {print t / 1000}')" "$(median "${ratios[@]}")" "$(range "${ratios[@]}")"
printf "plan size: this checkout %d bytes, %s %d bytes\n" "$(stat -c %s "$work/new/new.plan.json")" "$commit" "$(stat -c %s "$work/old/old.plan.json")"
