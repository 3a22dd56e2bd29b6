#!/usr/bin/env bash
# Runs one libFuzzer harness of fuzz/ for a while (issue "Reliability and security").
# Usage: scripts/fuzz.sh TARGET SECONDS [LIBFUZZER_ARGS...]
#   TARGET: trace_loader | compile | plan_loader | pt_reader
#
# Builds the harness if needed (idempotent) into build-fuzz/ (Clang, ASan + UBSan + libFuzzer's
# coverage over the whole project; LibTorch itself is not instrumented), then fuzzes for SECONDS
# on one core. The corpus is build-fuzz/work/TARGET/corpus, seeded from fuzz/corpus/TARGET and kept
# between runs; findings (crash-*, timeout-*, oom-*, leak-*) go to fuzz/findings/TARGET/. Exits
# with libFuzzer's status (0: nothing found). FUZZ_KEEP_GOING=1 runs in fork mode and keeps going
# after crashes, timeouts and OOMs. BUILD_DIR overrides build-fuzz.
#
# Reproduce a finding:  build-fuzz/fuzzers/fuzz_TARGET fuzz/findings/TARGET/crash-...
# Minimize it:          build-fuzz/fuzzers/fuzz_TARGET -minimize_crash=1 -max_total_time=30 \
#                         -exact_artifact_path=fuzz/findings/TARGET/min-... fuzz/findings/TARGET/crash-...
set -euo pipefail
cd "$(dirname "$0")/.."

usage() { echo "usage: scripts/fuzz.sh trace_loader|compile|plan_loader|pt_reader SECONDS [LIBFUZZER_ARGS...]" >&2; exit 2; }
[ $# -ge 2 ] || usage
TARGET=$1 SECONDS_TO_RUN=$2
shift 2
case "$TARGET" in trace_loader | compile | plan_loader | pt_reader) ;; *) usage ;; esac
[[ "$SECONDS_TO_RUN" =~ ^[0-9]+$ ]] || usage

# Clang and its libFuzzer runtime (Debian's libclang-rt-dev), only if missing; the project's own
# dependencies are scripts/setup.sh's.
packages=(cmake ninja-build nlohmann-json3-dev libcli11-dev libspdlog-dev libvalijson-dev libdnnl-dev libtorch-dev)
command -v clang++ >/dev/null 2>&1 || packages+=(clang)
# libFuzzer's runtime: libclang-rt-dev, unless clang's own packages already brought it.
ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1 || packages+=(libclang-rt-dev)
scripts/install_packages.sh fuzz "${packages[@]}"

BUILD_DIR=${BUILD_DIR:-build-fuzz}
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  CC=clang CXX=clang++ cmake -S fuzz -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
fi
# One job: this machine's other builds keep their share of the cores.
cmake --build "$BUILD_DIR" -j1 --target "fuzz_$TARGET"
FUZZER="$BUILD_DIR/fuzzers/fuzz_$TARGET"

WORK="$BUILD_DIR/work/$TARGET"
CORPUS="$WORK/corpus"
FINDINGS="fuzz/findings/$TARGET"
mkdir -p "$CORPUS" "$FINDINGS"
cp -n fuzz/corpus/"$TARGET"/* "$CORPUS"/ 2>/dev/null || true

ARGS=(-max_total_time="$SECONDS_TO_RUN" -rss_limit_mb=4096 -timeout=10 -artifact_prefix="$FINDINGS/" -print_final_stats=1)
case "$TARGET" in
  trace_loader | compile) ARGS+=(-dict=fuzz/trace.dict) ;;
  plan_loader) ARGS+=(-dict=fuzz/plan.dict) ;;
esac
if [ "${FUZZ_KEEP_GOING:-0}" = 1 ]; then
  ARGS+=(-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
fi

# UBSan reports are fatal (the build has -fno-sanitize-recover=undefined) and come with a stack.
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# Leaks are findings too, except those allocated inside LibTorch (see the file's comments).
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/scripts/sanitizer-suppressions/lsan.supp:print_suppressions=0}

LOG="$WORK/fuzz-$(date +%Y%m%d-%H%M%S).log"
echo "fuzz: $FUZZER for ${SECONDS_TO_RUN}s, corpus $CORPUS, findings in $FINDINGS/, log $LOG"
before=$(ls "$FINDINGS" | wc -l)
start=$(date +%s)
set +e
"$FUZZER" "${ARGS[@]}" "$@" "$CORPUS" 2>&1 | tee "$LOG" | grep -v -E --line-buffered '^#[0-9]+[[:space:]]+(NEW|REDUCE) |^".*" # Uses: |^[[:space:]]+NEW_FUNC'
status=${PIPESTATUS[0]}
set -e
elapsed=$(( $(date +%s) - start ))
after=$(ls "$FINDINGS" | wc -l)

echo "fuzz: $TARGET ran ${elapsed}s (exit status $status)"
echo "fuzz: final coverage: $(grep -E 'cov: [0-9]+' "$LOG" | tail -1 | sed -E 's/^.*(cov: [0-9]+ ft: [0-9]+ corp: [^ ]+).*$/\1/')"
echo "fuzz: corpus now $(ls "$CORPUS" | wc -l) inputs; $((after - before)) new finding(s) in $FINDINGS/"
[ "$after" -gt "$before" ] && ls -t "$FINDINGS" | head -n $((after - before)) | sed "s|^|  $FINDINGS/|"
exit "$status"
