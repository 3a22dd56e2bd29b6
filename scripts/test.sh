#!/usr/bin/env bash
# Sets up (if needed), builds, and runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
BUILD_DIR=${BUILD_DIR:-build}
ctest --test-dir "$BUILD_DIR" --output-on-failure
# The printed traces and plans must not depend on the C++ compiler (GCC here, Clang there).
scripts/check_clang_goldens.sh
# The unit and CLI tests again, under AddressSanitizer and UndefinedBehaviorSanitizer.
scripts/test_sanitizers.sh
