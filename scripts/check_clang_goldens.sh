#!/usr/bin/env bash
# Checks that thundercc's output does not depend on the C++ compiler: builds the compile path with
# Clang (build-clang/, THUNDERCC_COMPILER_ONLY) beside the GCC build (build/), compiles the bundled
# traces and every sample of the OpInfo table (forward, and a float64 training step) with both,
# and requires byte-identical traces and plans. C++ leaves the order of evaluating operands
# unspecified (GCC and Clang differ), so a decomposition that records two operands in one
# expression shows up here.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
CLANG_BUILD_DIR=${CLANG_BUILD_DIR:-build-clang}

scripts/install_packages.sh check_clang_goldens clang
if [ ! -f "$CLANG_BUILD_DIR/build.ninja" ]; then
  CC=clang CXX=clang++ cmake -S . -B "$CLANG_BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release -DTHUNDERCC_COMPILER_ONLY=ON >/dev/null
fi
cmake --build "$CLANG_BUILD_DIR" --target thundercc
cmake --build "$BUILD_DIR" --target thundercc

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
/usr/bin/python3 scripts/dump_sample_traces.py "$work/traces" >/dev/null
cp traces/*.json "$work/traces/"
for build in gcc clang; do
  dir=$BUILD_DIR; [ $build = clang ] && dir=$CLANG_BUILD_DIR
  mkdir -p "$work/$build" "$work/$build-grad" "$work/$build-optimizer"
  "$dir/thundercc" compile "$work"/traces/*.json -o "$work/$build"
  "$dir/thundercc" compile traces/*.json -o "$work/$build-grad" --transform grad
  # The optimizers' steps, traced by the compiler itself.
  "$dir/thundercc" compile traces/{mlp,gpt2_block,llama_block,cnn}.json -o "$work/$build-optimizer" --optimizer adamw
  "$dir/thundercc" compile traces/mlp.json -o "$work/$build-optimizer/sgd" --optimizer sgd --lr 0.1 --momentum 0.9 --weight-decay 0.01
  # The distributed transforms.
  "$dir/thundercc" compile traces/{gpt2_block,cnn}.json -o "$work/$build-optimizer/fsdp" --distributed fsdp --world-size 4 --zero 3 \
    --optimizer sgd --lr 0.1 --momentum 0.9
  "$dir/thundercc" compile traces/llama_block.json -o "$work/$build-optimizer/ddp" --distributed ddp --bucket-mb 1
done
if ! diff -r "$work/gcc" "$work/clang" || ! diff -r "$work/gcc-grad" "$work/clang-grad" ||
   ! diff -r "$work/gcc-optimizer" "$work/clang-optimizer"; then
  echo "check_clang_goldens: the output differs between the GCC and the Clang builds (above)" >&2
  exit 1
fi
echo "check_clang_goldens: $(ls "$work/gcc" "$work/gcc-grad" "$work/gcc-optimizer" | wc -l) output files identical with GCC and Clang"
