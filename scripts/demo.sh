#!/usr/bin/env bash
# Sets up (if needed) and runs the main job: capture the bundled example models from PyTorch,
# compile them, run the plans with LibTorch and compare with PyTorch eager.
set -euo pipefail
cd "$(dirname "$0")/.."
# Only what the demo runs: the CLI, the runtime it loads (scripts/test.sh builds the rest).
scripts/setup.sh thundercc thundercc_runtime
BUILD_DIR=${BUILD_DIR:-build}
OUT=${OUT:-out}
mkdir -p "$OUT"
echo "== thundercc print traces/add_mul.json"
"$BUILD_DIR/thundercc" print traces/add_mul.json
for model in mlp gpt2_block llama_block cnn; do
  echo "== $model: capture, compile a training step, run, compare with eager and autograd"
  /usr/bin/python3 scripts/capture.py "examples/models/$model.py:make" -o "$OUT/$model.json" --save-io --grad
  "$BUILD_DIR/thundercc" -v compile "$OUT/$model.json" -o "$OUT"
  "$BUILD_DIR/thundercc" run "$OUT/$model.plan.json" --inputs "$OUT/$model.inputs.pt" --expect "$OUT/$model.expected.pt" \
    --expect-grads "$OUT/$model.grads.pt" --repeat 20 --warmup 3
done
echo "== the MLP's backward trace ($OUT/mlp.backward.trace.py), top level:"
grep -vE '^ {4,}#' "$OUT/mlp.backward.trace.py"
