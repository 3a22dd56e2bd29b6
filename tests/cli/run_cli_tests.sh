#!/usr/bin/env bash
# CLI tests: exit codes, messages and outputs of `thundercc`, run as users run it.
# Usage: run_cli_tests.sh PATH_TO_THUNDERCC   (from the repository root)
set -uo pipefail
THUNDERCC=${1:?usage: run_cli_tests.sh PATH_TO_THUNDERCC}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
BINARY=$THUNDERCC
# Under the sanitizers (scripts/test_sanitizers.sh), `thundercc run` without the leak check: GCC
# 12's LeakSanitizer crashes scanning the dynamic TLS of a process that has dlopened LibTorch's
# twenty-odd libraries with TLS (glibc resizes its thread vector; "Tracer caught signal 11").
# ASan and UBSan still check every run; the leak check stays on for every other command.
if [ -n "${THUNDERCC_NO_LEAK_CHECK_FOR_RUN:-}" ]; then
  THUNDERCC="$tmp/thundercc"
  printf '#!/bin/sh\n[ "$1" = run ] && export ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0"\nexec %s "$@"\n' "$BINARY" >"$THUNDERCC"
  chmod +x "$THUNDERCC"
fi

# expect RC PATTERN -- COMMAND...: the command exits with RC and its stdout+stderr matches PATTERN.
expect() {
  local rc=$1 pattern=$2
  shift 3
  local out actual
  out=$("$@" 2>&1)
  actual=$?
  if [ "$actual" -ne "$rc" ] || ! grep -qE -- "$pattern" <<<"$out"; then
    echo "FAIL: $* (exit $actual, wanted $rc, pattern '$pattern')"
    echo "$out" | sed 's/^/    /'
    failures=$((failures + 1))
  else
    echo "ok: $*"
  fi
}

mutate() {  # mutate OUT PYTHON_EXPR: writes traces/add_mul.json changed by an expression on `d`
  /usr/bin/python3 - "$1" "$2" <<'PY'
import json, sys
d = json.load(open("traces/add_mul.json"))
exec(sys.argv[2])
json.dump(d, open(sys.argv[1], "w"))
PY
}

expect 0 '' -- "$THUNDERCC" validate traces/add_mul.json traces/cross_entropy.json
expect 0 'add_mul.json: ok \(2 bound symbols\)' -- "$THUNDERCC" -v validate traces/add_mul.json
expect 0 'add_mul.json: ok \(2 bound symbols\)' -- "$THUNDERCC" validate -v traces/add_mul.json
# A plan given to compile, or a trace given to run, is named for what it is.
"$THUNDERCC" compile traces/add_mul.json -o "$tmp/kinds" >/dev/null
expect 1 "is not a trace .*a plan \(NAME.plan.json\) is run with thundercc run" -- "$THUNDERCC" compile "$tmp/kinds/add_mul.plan.json"
expect 1 "this is a trace .*not a plan: compile it first" -- "$THUNDERCC" run traces/add_mul.json
expect 0 '# t0 = prims.broadcast_in_dim\(b, \[2, 2\], \(0, 1\)\)' -- "$THUNDERCC" print traces/add_mul.json
expect 0 '^  t2 = ltorch.add\(a, t1, alpha=1\)' -- "$THUNDERCC" print traces/add_mul.json --depth 0
expect 0 'prims.take_along_axis' -- "$THUNDERCC" print traces/cross_entropy.json
# Stable names, and thundercc diff (0: the same up to names, 1: different, 2: a file it cannot read).
expect 0 '^  t_mul_0 = ltorch.mul\(b, a\)' -- "$THUNDERCC" print traces/add_mul.json --names stable
expect 2 'names' -- "$THUNDERCC" print traces/add_mul.json --names bogus
expect 0 '' -- "$THUNDERCC" diff traces/add_mul.json traces/add_mul.json
expect 1 '^@@ -[0-9,]+ \+[0-9,]+ @@' -- "$THUNDERCC" diff traces/add_mul.json traces/mul.json
expect 2 'missing.json: cannot be read' -- "$THUNDERCC" diff traces/add_mul.json "$tmp/missing.json"
expect 0 '^torch.nn.functional.softmax|^torch.softmax\(a, /, dim, \*, dtype=None\)' -- "$THUNDERCC" ops
expect 0 '^prims.broadcast_in_dim\(a, /, shape, broadcast_dimensions\)  \[prim\]' -- "$THUNDERCC" ops --prims
expect 0 'decomposition; run whole by: torch; gradient: rule' -- "$THUNDERCC" ops softmax
expect 0 '^torch.rand\(\*size.*\[random\]' -- "$THUNDERCC" ops torch.rand
expect 1 "no op 'sofmax'; did you mean .*torch.softmax" -- "$THUNDERCC" ops sofmax

# Bad inputs: a clear message naming the file and the place, exit 1.
printf '{"format": ' >"$tmp/not_json.json"
expect 1 'error: .*not_json.json: not valid JSON' -- "$THUNDERCC" validate "$tmp/not_json.json"
mutate "$tmp/schema.json" 'd["bound_symbols"][0]["args"] = 3'
expect 1 'error: .*schema.json: /bound_symbols/0/args: does not match the trace schema' -- "$THUNDERCC" validate "$tmp/schema.json"
mutate "$tmp/unknown.json" 'd["bound_symbols"][0]["symbol"] = "torch.frobnicate"'
expect 1 "unknown symbol 'torch.frobnicate'" -- "$THUNDERCC" validate "$tmp/unknown.json"
mutate "$tmp/undefined.json" 'd["output"] = {"ref": "t9"}'
expect 1 "/output: 't9' is not defined" -- "$THUNDERCC" validate "$tmp/undefined.json"
mutate "$tmp/shape.json" 'd["bound_symbols"][0]["output"]["tensor"]["shape"] = [2, 3]'
expect 1 'recorded t0: cpu f32\[2, 3\]' -- "$THUNDERCC" validate "$tmp/shape.json"
expect 1 'computed t1: cpu f32\[2, 2\]' -- "$THUNDERCC" validate "$tmp/shape.json"
expect 1 't1 = ltorch.mul\(b, a\)' -- "$THUNDERCC" print "$tmp/shape.json"
# A statement's error ends with the program's line the front end recorded.
mutate "$tmp/sourced.json" 'd["bound_symbols"][0]["output"]["tensor"]["shape"] = [2, 3]; d["bound_symbols"][0]["source"] = "model.py:12"'
expect 1 '  at model.py:12' -- "$THUNDERCC" compile "$tmp/sourced.json" -o "$tmp/sourced"
# One bad file among good ones still fails the run, and the good ones are still checked.
expect 1 'shape.json' -- "$THUNDERCC" validate traces/add_mul.json "$tmp/shape.json"
expect 1 'missing.json: cannot be read' -- "$THUNDERCC" validate "$tmp/missing.json"
# A value the schema refuses is shown (a misspelled dtype).
mutate "$tmp/dtype_typo.json" 'd["inputs"][0]["tensor"]["dtype"] = "float31"'
expect 1 '/inputs/0/tensor/dtype: does not match the trace schema: .*\(the value is "float31"\)' -- "$THUNDERCC" validate "$tmp/dtype_typo.json"
expect 2 'A subcommand is required' -- "$THUNDERCC"
expect 2 'depth' -- "$THUNDERCC" print traces/add_mul.json --depth -1

# compile and run. With the torch executor alone, the trace Thunder prints on CPU; by default the
# fuser makes the two ops one generated kernel.
expect 0 '' -- "$THUNDERCC" compile traces/add_mul.json -o "$tmp/out" --executors torch
expect 0 '' -- diff "$tmp/out/add_mul.trace.py" tests/golden/add_mul.trace.py
expect 0 '^  \(t2,\) = fuser_0\(b, a\)$' -- bash -c "'$THUNDERCC' compile traces/add_mul.json -o '$tmp/fused' && cat '$tmp/fused/add_mul.trace.py'"
# Without a C++ compiler the default leaves the fuser out (and says so); asked for, it is an error.
expect 0 'the fuser is left out of the default executors: fuser: the C\+\+ compiler .*/no/cxx.* does not run' -- env THUNDERCC_CXX=/no/cxx "$THUNDERCC" compile traces/add_mul.json -o "$tmp/nocxx"
expect 0 '' -- diff "$tmp/nocxx/add_mul.trace.py" tests/golden/add_mul.trace.py
expect 1 'error: .*fuser: the C\+\+ compiler .*/no/cxx.* does not run' -- env THUNDERCC_CXX=/no/cxx "$THUNDERCC" compile traces/add_mul.json -o "$tmp/nocxx2" --executors fuser,torch
expect 0 'add_mul.1.py' -- bash -c "'$THUNDERCC' compile traces/add_mul.json -o '$tmp/all' --print-after-all && ls '$tmp/all'"
expect 0 '# Constructed by Common Subexpression Elimination' -- cat "$tmp/all/add_mul.2.py"
expect 0 '^ +[0-9.]+ ms +[0-9.]+%      Delete Last Used$' -- "$THUNDERCC" compile traces/add_mul.json -o "$tmp/timed" --time-passes
expect 0 '^ +[0-9.]+ ms  total$' -- "$THUNDERCC" compile traces/cross_entropy.json -o "$tmp/timed" --time-passes
expect 0 'median .* ms, min .* ms, max .* ms' -- "$THUNDERCC" run "$tmp/out/add_mul.plan.json" --fill random --seed 1 --repeat 3
expect 0 't2 = torch.add\(a, t1\)' -- "$THUNDERCC" run "$tmp/out/add_mul.plan.json" --profile
/usr/bin/python3 -c "import torch; torch.save((torch.ones(2, 2), torch.ones(3, 1, dtype=torch.float64)), '$tmp/wrong.pt')"
expect 1 "input 'b': expected cpu f32\[2, 1\], but got cpu f64\[3, 1\]" -- "$THUNDERCC" run "$tmp/out/add_mul.plan.json" --inputs "$tmp/wrong.pt"
/usr/bin/python3 -c "import torch; torch.save((torch.ones(2, 2), torch.ones(2, 1)), '$tmp/ones.pt'); torch.save((torch.full((2, 2), 3.0),), '$tmp/bad_expected.pt'); torch.save((torch.full((2, 2), 2.0),), '$tmp/twos.pt')"
expect 0 'outputs match' -- "$THUNDERCC" run "$tmp/fused/add_mul.plan.json" --inputs "$tmp/ones.pt" --expect "$tmp/twos.pt"
expect 1 'output 0: 4 of 4 elements differ' -- "$THUNDERCC" run "$tmp/out/add_mul.plan.json" --inputs "$tmp/ones.pt" --expect "$tmp/bad_expected.pt"
expect 0 'outputs match' -- bash -c "'$THUNDERCC' run '$tmp/out/add_mul.plan.json' --inputs '$tmp/ones.pt' --outputs '$tmp/result.pt'; /usr/bin/python3 -c \"import torch; r = torch.load('$tmp/result.pt'); assert torch.equal(r[0], torch.full((2, 2), 2.0)); print('outputs match')\""
/usr/bin/python3 - "$tmp/out/add_mul.plan.json" "$tmp/slot.plan.json" <<'PY'
import json, sys
plan = json.load(open(sys.argv[1]))
plan["instructions"][0]["outputs"] = [99]
json.dump(plan, open(sys.argv[2], "w"))
PY
expect 1 'slot.plan.json: /instructions/0/outputs: slot 99 is out of range \(the plan has 4 slots\)' -- "$THUNDERCC" run "$tmp/slot.plan.json"
sed 's/"dtype": "float32"/"dtype": "float31"/' "$tmp/out/add_mul.plan.json" >"$tmp/dtype.plan.json"
expect 1 "dtype.plan.json: /inputs/0/tensor/dtype: unknown dtype 'float31'" -- "$THUNDERCC" run "$tmp/dtype.plan.json"
sed 's/^"version": 4$/"version": 2/' "$tmp/out/add_mul.plan.json" >"$tmp/v2.plan.json"
expect 1 'v2.plan.json: /version: plan format version 2 is not supported \(this thundercc reads version 4\)' -- "$THUNDERCC" run "$tmp/v2.plan.json"
expect 1 'the plan has no backward' -- "$THUNDERCC" run "$tmp/out/add_mul.plan.json" --grads-out "$tmp/g.pt"
# --cuda-graphs: a CPU plan is refused, saying why; a plan on cuda:0 passes the plan's check and is
# then refused by this CPU-only LibTorch; the options a graph's replay cannot honour are refused.
expect 1 "add_mul.plan.json: --cuda-graphs cannot record this plan's step as a CUDA graph:$" -- "$THUNDERCC" run "$tmp/out/add_mul.plan.json" --cuda-graphs
expect 1 "no tensor of the plan is on a CUDA device: CUDA graphs replay a GPU's work" -- "$THUNDERCC" run "$tmp/out/add_mul.plan.json" --cuda-graphs
sed 's/"device": "cpu"/"device": "cuda:0"/g' traces/add_mul.json >"$tmp/add_mul_cuda.json"
"$THUNDERCC" compile "$tmp/add_mul_cuda.json" -o "$tmp/cuda" >/dev/null
expect 1 'the plan runs on cuda:0, but this LibTorch was built without CUDA' -- "$THUNDERCC" run "$tmp/cuda/add_mul_cuda.plan.json" --cuda-graphs
expect 2 '--profile excludes --cuda-graphs' -- "$THUNDERCC" run "$tmp/out/add_mul.plan.json" --cuda-graphs --profile
expect 2 'excludes --cuda-emulate' -- "$THUNDERCC" run "$tmp/out/add_mul.plan.json" --cuda-graphs --cuda-emulate
# Too few inputs: the file, the inputs the plan takes and the missing one. One run is called cold.
/usr/bin/python3 -c "import torch, sys; torch.save((torch.ones(2, 2),), sys.argv[1])" "$tmp/only_a.pt"
expect 1 'only_a.pt: the plan takes 2 inputs \(a, b\), but got 1: missing b' -- "$THUNDERCC" run "$tmp/out/add_mul.plan.json" --inputs "$tmp/only_a.pt"
expect 0 '1 cold run: .* \(--warmup W --repeat N times steady runs\)' -- "$THUNDERCC" run "$tmp/out/add_mul.plan.json" --fill ones
expect 0 '3 runs after 1 warm-up: median' -- "$THUNDERCC" run "$tmp/out/add_mul.plan.json" --fill ones --warmup 1 --repeat 3
# A training step: a + b * a with a and b requiring grad; with ones, d/da = 1 + b = 2, d/db = rows of a summed = 2.
sed 's/"requires_grad": false/"requires_grad": true/' traces/add_mul.json >"$tmp/train.json"
expect 0 'wrote .*train.forward.trace.py and .*train.backward.trace.py \(saved for backward: 24 bytes\)' -- "$THUNDERCC" -v compile "$tmp/train.json" -o "$tmp/out"
expect 0 'gradients match' -- bash -c "'$THUNDERCC' run '$tmp/out/train.plan.json' --fill ones --grads-out '$tmp/g.pt' && /usr/bin/python3 -c \"import torch; ga, gb = torch.load('$tmp/g.pt'); assert torch.equal(ga, torch.full((2, 2), 2.0)) and torch.equal(gb, torch.full((2, 1), 2.0)); print('gradients match')\""
printf '{"format": "thundercc.plan"}' >"$tmp/bad.plan.json"
expect 1 'bad.plan.json: /: does not match the plan schema' -- "$THUNDERCC" run "$tmp/bad.plan.json"
expect 1 "unknown executor 'nope'" -- "$THUNDERCC" compile traces/add_mul.json -o "$tmp/x" --executors nope
expect 1 'cannot load plugin' -- "$THUNDERCC" compile traces/add_mul.json -o "$tmp/x" --plugin "$tmp/missing.so"
if [ -e "$tmp/x" ]; then
  echo "FAIL: a failed compile left $tmp/x behind"
  failures=$((failures + 1))
fi

# The compile side never loads LibTorch.
if ldd "$BINARY" | grep -qi torch; then
  echo "FAIL: thundercc links LibTorch"
  failures=$((failures + 1))
else
  echo "ok: thundercc does not link LibTorch"
fi

# No library search path of the command or its runtime has an empty entry: the loader reads one as
# the directory the command was started in, and would load a library planted there.
runtime_library="$(dirname "$BINARY")/libthundercc_runtime.so"
[ -e "$runtime_library" ] || runtime_library="$(dirname "$BINARY")/../lib/libthundercc_runtime.so"
for file in "$BINARY" "$runtime_library"; do
  path=$(readelf -d "$file" | sed -n 's/.*(R[UN]*PATH).*\[\(.*\)\]/\1/p')
  case "${path:+:$path:}" in
    *::*) echo "FAIL: $file searches the current directory for libraries (RUNPATH '$path' has an empty entry)"
          failures=$((failures + 1)) ;;
    *) echo "ok: $file's library search path ($path) has no empty entry" ;;
  esac
done

echo "$failures failure(s)"
[ "$failures" -eq 0 ]
