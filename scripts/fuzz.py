#!/usr/bin/python3
"""Mutation fuzzing of thundercc's inputs: random changes to the arguments, keyword arguments and
input shapes of the bundled traces (`compile`) and to the arguments and slots of their plans
(`run`). Every run must end with exit code 0 or 1 — a clear error — never a crash or an internal
error. Prints each failure found.

    /usr/bin/python3 scripts/fuzz.py compile --runs 1000 --seed 1
    /usr/bin/python3 scripts/fuzz.py run --runs 200 --seed 1
"""
import argparse
import copy
import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
THUNDERCC = str(REPO / "build" / "thundercc")
TRACES = ["add_mul", "mlp", "gpt2_block", "llama_block", "cnn"]
TRACE_VALUES = ["x", -1, 0, 10**12, -10**12, 2.5, None, True, {"tuple": []}, {"tuple": [1, "a"]},
                {"list": [{"ref": "x"}]}, {"ref": "t0"}, {"dtype": "float64"}, {"slice": [None, -3, 2]},
                {"slice": [None, None, 0]}, {"ellipsis": True}, {"tuple": [-1, -1]}, {"float": "nan"},
                {"tuple": [0]}, {"list": []}, {"tuple": [{"tuple": [1]}]}, {"torch_dtype": "bool8"},
                {"torch_device": "cuda:0"}]
PLAN_VALUES = ["x", -1, 0, 10**12, 2.5, None, True, {"tuple": []}, {"slot": 0}, {"slot": 10**6},
               {"list": [{"slot": 1}, 3]}, {"dtype": "float64"}, {"tuple": [-1]}]


# Under a sanitizer build, a report is a failure even when the process would exit 0 or 1.
SANITIZER_ENV = dict(os.environ, ASAN_OPTIONS="exitcode=86:detect_leaks=0", UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:exitcode=86")
SANITIZER_MARKERS = ("ERROR: AddressSanitizer", "runtime error:", "ERROR: LeakSanitizer")


def mutate_trace(doc, rng):
    for _ in range(rng.randint(1, 2)):
        b = rng.choice(doc["bound_symbols"])
        r = rng.random()
        if r < 0.5 and b["args"]:
            b["args"][rng.randrange(len(b["args"]))] = rng.choice(TRACE_VALUES)
        elif r < 0.7:
            b["kwargs"][rng.choice(list(b["kwargs"]) or ["dim"])] = rng.choice(TRACE_VALUES)
        elif r < 0.85 and b["args"]:
            b["args"].pop(rng.randrange(len(b["args"])))
        else:
            inp = rng.choice(doc["inputs"])
            if "tensor" in inp:
                inp["tensor"]["shape"] = [rng.choice([0, 1, 3, 7]) for _ in range(rng.randint(0, 4))]


def mutate_plan(doc, rng):
    ins = rng.choice(doc["instructions"])
    r = rng.random()
    if r < 0.5 and ins["args"]:
        ins["args"][rng.randrange(len(ins["args"]))] = rng.choice(PLAN_VALUES)
    elif r < 0.7 and ins["args"]:
        ins["args"].pop()
    elif r < 0.85:
        ins["outputs"] = [rng.choice([0, 1, None, 10**6])]
    else:
        ins["free"] = [rng.randrange(doc["slots"])]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("target", choices=["compile", "run"])
    parser.add_argument("--runs", type=int, default=500)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--thundercc", default=THUNDERCC,
                        help="the binary to fuzz, e.g. a sanitizer build's (build-asan/thundercc)")
    opts = parser.parse_args()
    rng = random.Random(opts.seed)
    work = Path(tempfile.mkdtemp())
    sources = []
    for name in TRACES:
        if opts.target == "compile":
            sources.append(json.loads((REPO / "traces" / f"{name}.json").read_text()))
        else:
            subprocess.run([opts.thundercc, "compile", REPO / "traces" / f"{name}.json", "-o", work], check=True)
            sources.append(json.loads((work / f"{name}.plan.json").read_text()))
    failures = 0
    for _ in range(opts.runs):
        doc = copy.deepcopy(rng.choice(sources))
        (mutate_trace if opts.target == "compile" else mutate_plan)(doc, rng)
        path = work / ("fuzz.json" if opts.target == "compile" else "fuzz.plan.json")
        path.write_text(json.dumps(doc))
        command = [opts.thundercc, "compile", path, "-o", work / "out"] if opts.target == "compile" else \
                  [opts.thundercc, "run", path, "--fill", "random"]
        result = subprocess.run(command, capture_output=True, text=True, env=SANITIZER_ENV)
        sanitizer_report = any(marker in result.stderr for marker in SANITIZER_MARKERS)
        if result.returncode not in (0, 1) or "internal error" in result.stderr or sanitizer_report:
            failures += 1
            print(f"exit {result.returncode}: {result.stderr.strip()[:300]}\n  input: {path.read_text()[:300]}")
    print(f"{opts.runs} runs, {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
