#!/usr/bin/env bash
# The C++ unit tests and the CLI tests under AddressSanitizer and UndefinedBehaviorSanitizer
# (issue "Reliability and security"). Builds into build-asan/ with GCC,
# -fsanitize=address,undefined -fno-sanitize-recover=undefined: the compiler, the runtime and the
# tests are instrumented; LibTorch (a prebuilt Debian library) is not. Any report fails a test.
# Idempotent: configures once, then rebuilds what changed. BUILD_DIR overrides build-asan.
# scripts/test.sh (and so CI) runs it after the main suite.
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(cmake ninja-build g++ nlohmann-json3-dev libcli11-dev libspdlog-dev catch2 libvalijson-dev libdnnl-dev libtorch-dev python3-torch)
scripts/install_packages.sh test_sanitizers "${PACKAGES[@]}"

BUILD_DIR=${BUILD_DIR:-build-asan}
SANITIZE="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  # CMAKE_CXX_FLAGS reach the link lines too, so every executable and library links the runtimes.
  # -O1 -g: readable stacks at a tolerable speed; asserts kept (no NDEBUG).
  CC=gcc CXX=g++ cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
    -DCMAKE_CXX_FLAGS="$SANITIZE" -DCMAKE_CXX_FLAGS_DEBUG="-g -O1"
fi
# JOBS=1 keeps a core free for other work; by default every core. `thundercc` depends on the
# runtime (`thundercc run` loads it), so this builds everything the two tests run.
cmake --build "$BUILD_DIR" -j"${JOBS:-$(nproc)}" --target thundercc thundercc_tests

SUPP="$PWD/scripts/sanitizer-suppressions"
# Every report is fatal (abort_on_error: a failing exit status, which no test expects). LibTorch
# is not instrumented, so ASan checks only thundercc's accesses; of LibTorch's own problems only
# a leak has been seen (on unreadable .pt files), suppressed in lsan.supp with its reason.
# ubsan.supp is for reports inside LibTorch's headers; it lists none so far.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1}"
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$SUPP/lsan.supp:print_suppressions=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1:suppressions=$SUPP/ubsan.supp}"

# `thundercc run` without the leak check (tests/cli/run_cli_tests.sh says why).
THUNDERCC_NO_LEAK_CHECK_FOR_RUN=1 ctest --test-dir "$BUILD_DIR" -R '^(unit|cli)$' --output-on-failure
