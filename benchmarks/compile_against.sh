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
# Timed from Python (a monotonic clock around each process), not with date(1), whose own process
# starts would add a millisecond to each side.
/usr/bin/python3 - "$pairs" "$commit" "$other/bin/thundercc" "$work/old.json" "$work/old" "$BUILD_DIR/thundercc" "$work/new.json" "$work/new" <<'PY'
import statistics, subprocess, sys, time
pairs, commit, theirs_bin, theirs_json, theirs_out, ours_bin, ours_json, ours_out = sys.argv[1:]
def elapsed(binary, trace, out):
    start = time.perf_counter()
    subprocess.run([binary, "compile", trace, "-o", out], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start
theirs, ours = [], []
for _ in range(int(pairs)):
    theirs.append(elapsed(theirs_bin, theirs_json, theirs_out))
    ours.append(elapsed(ours_bin, ours_json, ours_out))
ratios = sorted(o / t for o, t in zip(ours, theirs))
print(f"96-layer GPT-2 stack (inference), {pairs} interleaved pairs: this checkout {statistics.median(ours) * 1e3:.1f} ms, "
      f"{commit} {statistics.median(theirs) * 1e3:.1f} ms (medians); ratio {statistics.median(ratios):.2f}x "
      f"(pairs {ratios[0]:.2f}-{ratios[-1]:.2f})")
PY
printf "plan size: this checkout %d bytes, %s %d bytes\n" "$(stat -c %s "$work/new/new.plan.json")" "$commit" "$(stat -c %s "$work/old/old.plan.json")"
