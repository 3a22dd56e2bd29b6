#!/usr/bin/python3
"""Mutation fuzzing of thundercc's inputs: random changes to the arguments, keyword arguments and
input shapes of the bundled traces (`compile`); to their plans (`run`): every program's
instructions (forward, backward, the optimizer's update, the batch-norm prologue), a dynamic plan's
symbols and symbolic trace, FSDP's world size and shards, the update's parameters; and to training
checkpoints (`checkpoint`: entries dropped, retyped, reshaped, sections replaced, step counts out of range, read by
`run --resume`). Every run must end with exit code 0 or 1 (a clear error), never a crash, an
internal error or a sanitizer report. Prints each failure found.

    /usr/bin/python3 scripts/fuzz.py compile --runs 1000 --seed 1
    /usr/bin/python3 scripts/fuzz.py run --runs 200 --seed 1
    /usr/bin/python3 scripts/fuzz.py checkpoint --runs 100 --seed 1
"""
import argparse
import copy
import json
import os
import random
import subprocess
import sys
import tempfile
import time
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


HOSTILE_INTS = [-1, 0, 1, 3, 2**31, 2**63 - 1, -(2**63), "x", None, 2.5, [1]]


def programs(doc):
    """The plan's programs: the forward (the document itself), and the backward, update and prologue it has."""
    return [doc] + [doc[k] for k in ("backward", "update", "prologue") if k in doc]


def mutate_sections(doc, rng):
    """A change to a section added since the first fuzzer: dynamic, prologue, world size and shards, the update."""
    choices = []
    if "dynamic" in doc:
        dynamic = doc["dynamic"]
        choices += [lambda: rng.choice(dynamic["trace"]["symbols"]).__setitem__(rng.choice(["min", "max", "hint", "dim", "input", "name"]),
                                                                       rng.choice(HOSTILE_INTS + ["t0", "s0"])),
                    lambda: mutate_trace(dynamic["trace"], rng),
                    lambda: rng.shuffle(dynamic["trace"]["inputs"]),
                    lambda: dynamic.__setitem__("executors", rng.choice([[], ["nope"], "torch", ["torch", "torch"]]))]
    if "prologue" in doc:
        choices.append(lambda: doc["prologue"].__setitem__("reads", [rng.choice(HOSTILE_INTS) for _ in range(rng.randint(0, 3))]))
    if "world_size" in doc:
        choices.append(lambda: doc.__setitem__("world_size", rng.choice(HOSTILE_INTS)))
        sharded = [i for i in doc["inputs"] if "shard_of" in i]
        if sharded:
            choices.append(lambda: rng.choice(sharded).__setitem__("shard_of", rng.choice([[], [0], [-1, 4], [10**12], [3, 3, 3], "x"])))
    if "update" in doc:
        choices += [lambda: doc["update"].__setitem__("parameters", [rng.choice(HOSTILE_INTS) for _ in range(rng.randint(0, 3))]),
                    lambda: doc["update"].__setitem__("optimizer", rng.choice(["", "x" * 10000, 3]))]
    if choices:
        rng.choice(choices)()


def mutate_plan(doc, rng):
    if rng.random() < 0.4:
        mutate_sections(doc, rng)
        return
    program = rng.choice(programs(doc))
    if not program.get("instructions"):
        return
    ins = rng.choice(program["instructions"])
    r = rng.random()
    if r < 0.5 and ins["args"]:
        ins["args"][rng.randrange(len(ins["args"]))] = rng.choice(PLAN_VALUES)
    elif r < 0.7 and ins["args"]:
        ins["args"].pop()
    elif r < 0.85:
        ins["outputs"] = [rng.choice([0, 1, None, 10**6])]
    else:
        ins["free"] = [rng.randrange(max(program["slots"], 1))]


def mutate_checkpoint(checkpoint, rng):
    """A checkpoint ({"model", "inputs", "optimizer", "step"}) changed as a careless user or an attacker would:
    an entry dropped, retyped, reshaped, filled with NaN, a section replaced, or a step count out of range."""
    import torch
    checkpoint = copy.deepcopy(checkpoint)
    places = [(checkpoint["model"], k) for k in checkpoint["model"]]
    places += [(state, k) for state in checkpoint["optimizer"]["state"].values() for k in state if state[k] is not None]
    holder, key = rng.choice(places)
    r = rng.random()
    if r < 0.15:
        del holder[key]
    elif r < 0.3:
        holder[key] = holder[key].to(rng.choice([torch.float64, torch.int64, torch.bool, torch.float16]))
    elif r < 0.45:
        holder[key] = holder[key].reshape(-1)[: max(holder[key].numel() - 1, 0)]
    elif r < 0.6:
        checkpoint["step"] = rng.choice([-1, -(2**63), 2**62, 2**63 - 1, 1.5, "7"])
    elif r < 0.75:
        checkpoint[rng.choice(["model", "inputs", "optimizer"])] = rng.choice([None, [], 3, {"x": torch.zeros(2)}])
    elif r < 0.9:
        holder[key] = holder[key].clone().fill_(float("nan")) if holder[key].is_floating_point() else holder[key]
    else:
        holder[key] = rng.choice([None, "weight", 1.0, (torch.zeros(1),)])
    return checkpoint


def plan_sources(thundercc, work):
    """Plans with every section: the bundled traces' (inference or a backward), training steps with each
    optimizer (update), an FSDP step (world size, shards), a batch norm folded (prologue), a dynamic
    MLP (dynamic). Each with the options `run` takes it with."""
    sys.path.insert(0, str(REPO))
    import torch
    from thundercc_frontend import capture, capture_dynamic

    def compiled(trace, name, *options):
        out = work / name
        subprocess.run([thundercc, "compile", trace, "-o", out, *options], check=True, capture_output=True, env=SANITIZER_ENV)
        return json.loads(next(out.glob("*.plan.json")).read_text())
    sources = [(compiled(REPO / "traces" / f"{name}.json", name), ["--fill", "random"]) for name in TRACES]
    for optimizer in (["sgd", "--lr", "0.1"], ["adamw"]):
        sources.append((compiled(REPO / "traces" / "mlp.json", f"mlp-{optimizer[0]}", "--optimizer", *optimizer),
                        ["--fill", "random", "--steps", "1"]))
    sources.append((compiled(REPO / "traces" / "mlp.json", "fsdp", "--distributed", "fsdp", "--world-size", "1", "--optimizer", "sgd",
                             "--lr", "0.1"), ["--fill", "random", "--steps", "1"]))
    model = torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3), torch.nn.BatchNorm2d(4), torch.nn.ReLU()).eval()
    with torch.no_grad():
        capture(model, torch.randn(1, 3, 8, 8)).save(work / "folded.json")
        mlp = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Tanh(), torch.nn.Linear(8, 2))
        capture_dynamic(mlp, (torch.randn(3, 4),), ["input:0:1:16"]).save(work / "dynamic.json")
    sources.append((compiled(work / "folded.json", "folded"), ["--fill", "random"]))
    sources.append((compiled(work / "dynamic.json", "dynamic"), ["--fill", "random"]))
    return sources


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("target", choices=["compile", "run", "checkpoint"])
    parser.add_argument("--runs", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=None, help="stop after this long (the runs done are counted)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--thundercc", default=THUNDERCC,
                        help="the binary to fuzz, e.g. a sanitizer build's (build-asan/thundercc)")
    opts = parser.parse_args()
    rng = random.Random(opts.seed)
    work = Path(tempfile.mkdtemp())
    if opts.target == "compile":
        sources = [(json.loads((REPO / "traces" / f"{name}.json").read_text()), []) for name in TRACES]
    elif opts.target == "run":
        sources = plan_sources(opts.thundercc, work)
    else:
        import torch
        plan = work / "mlp-sgd" / "mlp.plan.json"
        subprocess.run([opts.thundercc, "compile", REPO / "traces" / "mlp.json", "-o", plan.parent, "--optimizer", "sgd", "--lr", "0.1"],
                       check=True, capture_output=True, env=SANITIZER_ENV)
        subprocess.run([opts.thundercc, "run", plan, "--fill", "random", "--steps", "1", "--checkpoint", work / "ck.pt"],
                       check=True, capture_output=True, env=SANITIZER_ENV)
        checkpoint = torch.load(work / "ck.pt")
    failures = runs = 0
    deadline = time.monotonic() + opts.seconds if opts.seconds else None
    for _ in range(opts.runs):
        if deadline and time.monotonic() > deadline:
            break
        runs += 1
        if opts.target == "checkpoint":
            path = work / "fuzz.ck.pt"
            torch.save(mutate_checkpoint(checkpoint, rng), path)
            command = [opts.thundercc, "run", plan, "--fill", "random", "--steps", "1", "--resume", path]
        else:
            source, run_options = rng.choice(sources)
            doc = copy.deepcopy(source)
            (mutate_trace if opts.target == "compile" else mutate_plan)(doc, rng)
            path = work / ("fuzz.json" if opts.target == "compile" else "fuzz.plan.json")
            path.write_text(json.dumps(doc))
            command = [opts.thundercc, "compile", path, "-o", work / "out"] if opts.target == "compile" else \
                      [opts.thundercc, "run", path, *run_options]
        result = subprocess.run(command, capture_output=True, text=True, env=SANITIZER_ENV)
        sanitizer_report = any(marker in result.stderr for marker in SANITIZER_MARKERS)
        if result.returncode not in (0, 1) or "internal error" in result.stderr or sanitizer_report:
            failures += 1
            shown = path.read_text()[:300] if path.suffix == ".json" else str(path)
            print(f"exit {result.returncode}: {result.stderr.strip()[:300]}\n  input: {shown}")
    print(f"{runs} runs, {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
