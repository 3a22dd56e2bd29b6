#!/usr/bin/env bash
# Installs thundercc's dependencies from Debian's packages (idempotent), then configures and builds.
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(cmake ninja-build ccache g++ clang nlohmann-json3-dev libcli11-dev libspdlog-dev catch2
          libvalijson-dev libjemalloc-dev libdnnl-dev libtorch-dev python3-torch python3-pytest python3-torchvision
          python3-torchaudio libgloo-dev zlib1g-dev pybind11-dev python3-dev)
scripts/install_packages.sh setup "${PACKAGES[@]}"

BUILD_DIR=${BUILD_DIR:-build}
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=${BUILD_TYPE:-RelWithDebInfo}
fi
cmake --build "$BUILD_DIR"
