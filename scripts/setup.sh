#!/usr/bin/env bash
# Installs thundercc's dependencies from Debian's packages (idempotent), then configures and builds.
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(cmake ninja-build ccache g++ clang nlohmann-json3-dev libcli11-dev libspdlog-dev catch2
          libvalijson-dev libtorch-dev python3-torch python3-pytest)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

BUILD_DIR=${BUILD_DIR:-build}
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=${BUILD_TYPE:-RelWithDebInfo}
fi
cmake --build "$BUILD_DIR"
