#!/usr/bin/env bash
# Installs thundercc's dependencies from Debian's packages (idempotent), then configures and builds:
# every target, or only the targets named (scripts/setup.sh thundercc thundercc_runtime).
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(cmake ninja-build ccache g++ clang nlohmann-json3-dev libcli11-dev libspdlog-dev catch2
          libvalijson-dev libjemalloc-dev libdnnl-dev libtorch-dev python3-torch python3-pytest python3-pytest-xdist python3-torchvision
          python3-torchaudio libgloo-dev zlib1g-dev pybind11-dev python3-dev)
scripts/install_packages.sh setup "${PACKAGES[@]}"

BUILD_DIR=${BUILD_DIR:-build}
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  echo "setup: configuring $BUILD_DIR"
  # Release: without debug information a fresh build takes a third less time (BUILD_TYPE=RelWithDebInfo has it).
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=${BUILD_TYPE:-Release} >/dev/null
fi
echo "setup: building ${*:-every target} in $BUILD_DIR (a fresh build of the CLI and the runtime takes about 4 minutes on 2 cores)"
cmake --build "$BUILD_DIR" ${*:+--target "$@"}
