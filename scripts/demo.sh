#!/usr/bin/env bash
# Sets up (if needed) and runs the main job on the bundled example traces.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh >/dev/null
BUILD_DIR=${BUILD_DIR:-build}
for trace in traces/add_mul.json traces/cross_entropy.json; do
  echo "== thundercc validate $trace"
  "$BUILD_DIR/thundercc" -v validate "$trace"
  echo "== thundercc print $trace"
  "$BUILD_DIR/thundercc" print "$trace"
done
