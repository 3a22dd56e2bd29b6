#!/usr/bin/python3
"""Measures thundercc against PyTorch's own operator test database (issue 40, section 4).

Every sample of `op_db` (torch.testing._internal.common_methods_invocations) and `module_db`
(torch.testing._internal.common_modules) that a pass takes is captured by the front end (in this
process), compiled with the default executors (one `thundercc compile` call per batch of traces),
run by thundercc's runtime (build/tests/check_plans, many plans per process; `thundercc run`
one plan at a time for what that could not run), and compared with eager PyTorch here.

Passes: float32 (8 samples per op), bfloat16, float16, int64, bool (2 per op each), grad (float64
samples that require grad: outputs and thundercc's backward against torch.autograd.grad, seeded
random cotangents, 2 per op), modules (float32, eval and train, under no_grad: 4 samples per mode),
module_grads (float64, train: outputs and the gradients of the inputs and parameters).

A sample is
  pass     thundercc's results equal eager's within torch.testing.assert_close's tolerances for
           the dtype (ten times looser for bfloat16 and float16); a floating-point result outside
           them still passes when it is no farther from the program run in float64 than eager's
           own result is (Thunder's fallback, as check_plans applies it);
  refused  the front end raised CaptureError, or compile/run exited 1 with a message (no C++
           backtrace);
  wrong    thundercc ran (exit 0) and its numbers, shapes or dtypes differ from eager's;
  crash    thundercc died by a signal, exited other than 0/1, printed a C++ backtrace or an
           internal error, or ran past the timeout (60 s); or the front end raised something other
           than CaptureError (reported apart as "front-end error").
Random results (the capture's eager run differs from a first eager run, or the op makes
uninitialized memory) are compared by shape and dtype only.

A sample whose eager call itself fails is left out (an op all of whose samples eager fails, such as
the CUDA-only jiterator ops, is named under the table).

An op is, per pass: pass (every sample passes), partial (some pass, the rest are refused),
by name (every sample refused at capture as a call whose result depends on tensor data: nonzero,
unique, ...; covered, as the user learns which call and line), refused (every sample refused),
wrong (any sample wrong), crash (any crash, none wrong).

Usage: /usr/bin/python3 scripts/opdb.py [--ops REGEX] [--limit-ops N]
           [--passes float32,bfloat16,float16,int64,bool,grad,modules,module_grads]
           [--json OUT] [--workdir DIR] [--samples N] [--no-snapshot]
(--ops filters op names, "name.variant_test_name", and module names, "nn.Linear"; the pass
"modules" brings "module_grads", the module gradients' row, with it; float64, int32, int16, int8,
uint8, complex64 and complex128 are passes too, outside the default table. The binaries are
copied to WORKDIR/bin first, so that a rebuild during the run cannot mix two compilers. The whole
database, default passes, takes about a minute on two cores.)

tests/python/test_opdb.py runs a fixed slice of it in CI through `run()`."""
from __future__ import annotations

import argparse
import copy
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import types
import unittest
import warnings
import zlib
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # the front end package, thundercc_frontend


def install_expecttest_standin() -> None:
    """torch.testing._internal imports `expecttest`, which Debian does not package: two names stand
    in for it (only in this process's sys.modules)."""
    if "expecttest" in sys.modules:
        return
    module = types.ModuleType("expecttest")
    module.ACCEPT = False

    class TestCase(unittest.TestCase):
        pass

    module.TestCase = TestCase
    sys.modules["expecttest"] = module


install_expecttest_standin()

import torch  # noqa: E402
from torch.utils._pytree import tree_flatten, tree_unflatten  # noqa: E402

from thundercc_frontend import CaptureError, capture, saveable  # noqa: E402
from thundercc_frontend.reference import flat_outputs  # noqa: E402

ORIGINAL_GETITEM = torch.Tensor.__getitem__
TIMEOUT = 60  # seconds any one compile or run of one trace may take
OP_PASSES = {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16, "int64": torch.int64,
             "bool": torch.bool,
             # Not in the default table; --passes names them.
             "float64": torch.float64, "int32": torch.int32, "int16": torch.int16, "int8": torch.int8,
             "uint8": torch.uint8, "complex64": torch.complex64, "complex128": torch.complex128}
ALL_PASSES = ["float32", "bfloat16", "float16", "int64", "bool", "grad", "modules", "module_grads"]
KNOWN_PASSES = ALL_PASSES + [p for p in OP_PASSES if p not in ALL_PASSES]
SAMPLES_PER_PASS = {"float32": 8, "grad": 2, "modules": 4, "module_grads": 4}  # 2 for every other dtype
ROW_TITLES = {"grad": "float64 gradients", "modules": "modules (eval and train)", "module_grads": "module gradients"}
# Ops whose results are uninitialized memory: only their shapes and dtypes mean anything.
UNINITIALIZED = {"empty", "empty_like", "new_empty", "new_empty_strided"}
# torch.testing.assert_close's default (rtol, atol) by dtype; bfloat16 and float16 ten times looser.
TOLERANCES = {torch.float16: (1e-2, 1e-4), torch.bfloat16: (1.6e-1, 1e-4), torch.float32: (1.3e-6, 1e-5),
              torch.float64: (1e-7, 1e-7), torch.complex32: (1e-2, 1e-4), torch.complex64: (1.3e-6, 1e-5),
              torch.complex128: (1e-7, 1e-7)}
CRASH_MARKERS = ("Exception raised from", "frame #0", "internal error", "INTERNAL ASSERT", "terminate called",
                 "Segmentation fault", "core dumped", "Traceback (most recent call last)")


def thundercc_binary() -> str:
    return os.environ.get("THUNDERCC", str(REPO / "build" / "thundercc"))


def check_plans_binary() -> str | None:
    for candidate in (os.environ.get("THUNDERCC_CHECK_PLANS"), str(REPO / "build" / "tests" / "check_plans")):
        if candidate and Path(candidate).exists():
            return candidate
    return None


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


# Databases ---------------------------------------------------------------------------------------

def op_database():
    from torch.testing._internal.common_methods_invocations import op_db
    return op_db


def module_database():
    from torch.testing._internal.common_modules import module_db
    return module_db


def op_name(op) -> str:
    return op.name + (f".{op.variant_test_name}" if op.variant_test_name else "")


def module_name(info) -> str:
    return f"nn.{info.module_cls.__name__}"


def file_stem(text: str) -> str:
    """A name as a file name's start (underscores kept: rsub and __rsub__ are two ops)."""
    return re.sub(r"[^A-Za-z0-9_]", "_", text)


# Descriptions ------------------------------------------------------------------------------------

SHORT = {torch.float32: "f32", torch.float64: "f64", torch.float16: "f16", torch.bfloat16: "bf16", torch.int64: "i64",
         torch.int32: "i32", torch.int16: "i16", torch.int8: "i8", torch.uint8: "u8", torch.bool: "b8",
         torch.complex64: "c64", torch.complex128: "c128"}


def describe(value, depth=0) -> str:
    """A sample's arguments in a line: tensors as dtype[shape] (non-contiguous marked), the rest as repr."""
    if isinstance(value, torch.Tensor):
        text = f"{SHORT.get(value.dtype, str(value.dtype))}{list(value.shape)}"
        if value.layout != torch.strided:
            return text + f"({value.layout})"
        if not value.is_contiguous() and value.numel() > 1:
            text += f"(strides {list(value.stride())})"
        if value.numel() == 1 and value.dim() == 0 and not value.requires_grad:
            text += f"={value.item()!r}"
        return text
    if depth > 3:
        return "..."
    if isinstance(value, (list, tuple)):
        inner = ", ".join(describe(v, depth + 1) for v in value)
        return f"[{inner}]" if isinstance(value, list) else f"({inner}{',' if len(value) == 1 else ''})"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}={describe(v, depth + 1)}" for k, v in value.items()) + "}"
    if isinstance(value, torch.nn.Module):
        return type(value).__name__
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


# Cases -------------------------------------------------------------------------------------------

@dataclass
class Case:
    """One sample of one pass: what to capture and what its results must be."""
    key: str                  # file stem, unique in the pass
    op: str                   # op or module name
    pass_name: str
    index: int
    description: str
    status: str = ""          # pass, refused, wrong, crash
    cause: str = ""           # refusals: the grouping key
    message: str = ""
    frontend_error: bool = False
    metadata_only: bool = False
    via_reference64: bool = False
    grads_checked: bool = False
    # Kept in memory between capture and comparison (dropped after):
    expected: tuple | None = None
    expected_grads: list | None = None
    reference64: object = None        # a callable giving the float64 program's flat outputs
    has_backward: bool = False
    outputs_dir: Path | None = None   # where thundercc's outputs were written
    vjp_check: object = None          # gradients: (ours, autograd's) -> which pass the finite-difference check
    autograd_disagrees: bool = False  # passed where autograd's own gradient fails the finite-difference check
    mutates: bool = False             # the program writes into an input (checked by `thundercc run --expect-inputs`)
    files: str = ""                   # DIR/KEY: the trace KEY.json, KEY.inputs.pt, KEY.expected.pt (a reproduction)

    def sample_text(self) -> str:
        return self.description if len(self.description) <= 300 else self.description[:297] + "..."

    def result(self) -> dict:
        out = {"key": self.key, "op": self.op, "pass": self.pass_name, "index": self.index, "sample": self.description,
               "status": self.status}
        for name in ("cause", "message", "files"):
            if getattr(self, name):
                out[name] = getattr(self, name)
        for name in ("frontend_error", "metadata_only", "via_reference64", "grads_checked", "autograd_disagrees", "mutates"):
            if getattr(self, name):
                out[name] = True
        return out


def clone_tensor(t: torch.Tensor) -> torch.Tensor:
    """A copy with the same strides (a transposed sample stays transposed, an expanded one expanded)."""
    d = t.detach()
    if d.layout != torch.strided:
        c = d.clone()
    else:
        expanded = [i for i, stride in enumerate(d.stride()) if stride == 0 and d.shape[i] > 1]
        if expanded:
            small = d
            for i in expanded:
                small = small.narrow(i, 0, 1)
            c = clone_tensor(small).detach().expand(d.shape)
        else:
            try:
                c = torch.empty_strided(d.size(), d.stride(), dtype=d.dtype, device=d.device)
                c.copy_(d)
            except RuntimeError:  # other overlapping memory
                c = d.clone()
    return c.requires_grad_(t.requires_grad) if t.is_floating_point() or t.is_complex() else c


def upcast(v):
    if isinstance(v, torch.Tensor):
        if v.is_floating_point():
            return v.detach().double()
        if v.is_complex():
            return v.detach().to(torch.complex128)
    return v


def comparable(t: torch.Tensor) -> torch.Tensor:
    """t as a dense tensor that every comparison kernel takes (complex32 has few)."""
    t = t.detach()
    if t.layout != torch.strided:
        t = t.to_dense()
    return t.to(torch.complex64) if t.dtype == torch.complex32 else t


def same_values(a: list, b: list) -> bool:
    """Whether two eager runs gave the very same results (NaN equal to NaN)."""
    if len(a) != len(b):
        return False
    for x, y in zip(a, b):
        if (x is None) != (y is None):
            return False
        if x is None:
            continue
        if x.shape != y.shape or x.dtype != y.dtype:
            return False
        x, y = comparable(x), comparable(y)
        if not torch.equal(x, y):
            if not (x.is_floating_point() or x.is_complex()):
                return False
            if not bool(((x == y) | (torch.isnan(x) & torch.isnan(y))).all()):
                return False
    return True


class Prepared:
    """A sample ready to capture: the program `fn`, its arguments, and how to run it again on copies."""

    def __init__(self, fn, args, kwargs, rerun, reference64, module=None):
        self.fn, self.args, self.kwargs = fn, args, kwargs
        self.rerun = rerun            # () -> (outputs, {id(original input): copy used}) on fresh copies
        self.reference64 = reference64
        self.module = module


def prepare_op_sample(op, sample) -> Prepared:
    """The op on the sample's tensors: fn(*tensors) rebuilds the sample's arguments around them, so
    every tensor is an input of the trace (each distinct tensor once)."""
    leaves, spec = tree_flatten((sample.input, sample.args, sample.kwargs))
    distinct, slot = [], []
    for leaf in leaves:
        if isinstance(leaf, torch.Tensor):
            found = next((i for i, t in enumerate(distinct) if t is leaf), None)
            if found is None:
                distinct.append(leaf)
                found = len(distinct) - 1
            slot.append(found)
        else:
            slot.append(None)
    function = op.op
    if function is ORIGINAL_GETITEM:  # looked up at call time: capture wraps Tensor.__getitem__ while it runs
        def function(t, *args, **kwargs):
            return t.__getitem__(*args, **kwargs)

    def fn(*tensors):
        values = [leaf if s is None else tensors[s] for leaf, s in zip(leaves, slot)]
        given, args, kwargs = tree_unflatten(values, spec)
        return function(given, *args, **kwargs)

    def rerun():
        copies = [clone_tensor(t) for t in distinct]
        return fn(*copies), {id(t): c for t, c in zip(distinct, copies)}

    def reference64():
        with torch.no_grad():
            return flat_outputs(fn(*[upcast(t) for t in distinct]))

    return Prepared(fn, distinct, {}, rerun, reference64)


def prepare_module_sample(module, module_input) -> Prepared:
    args, kwargs = module_input.forward_input.args, module_input.forward_input.kwargs

    def copies_of(values, made):
        def copy_one(v):
            if isinstance(v, torch.Tensor):
                made[id(v)] = clone_tensor(v)
                return made[id(v)]
            if isinstance(v, (list, tuple)):
                return type(v)(copy_one(x) for x in v)
            return v
        return copy_one(values)

    def rerun():
        made = {}
        a, k = copies_of(tuple(args), made), {n: copies_of(v, made) for n, v in kwargs.items()}
        return module(*a, **k), made

    def reference64():
        wide = copy.deepcopy(module).double()
        a = tuple(upcast(x) if isinstance(x, torch.Tensor) else x for x in args)
        k = {n: upcast(v) if isinstance(v, torch.Tensor) else v for n, v in kwargs.items()}
        with torch.no_grad():
            return flat_outputs(wide(*a, **k))

    return Prepared(module, tuple(args), dict(kwargs), rerun, reference64, module=module)


def random_cotangents(outputs, key: str) -> list:
    generator = torch.Generator().manual_seed(zlib.crc32(key.encode()))
    return [torch.randn(o.shape, dtype=o.dtype, generator=generator) for o in outputs]


def capture_case(case: Case, prepared: Prepared, directory: Path, grads: bool, deterministic: bool) -> bool:
    """Runs the sample eagerly, captures it and writes KEY.json, KEY.inputs.pt, KEY.expected.pt (and
    for gradients KEY.cotangents.pt). Returns whether there is a trace to compile; otherwise the
    case has its status."""
    # A first eager run, on copies: does eager run it at all, and is it deterministic?
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            first, copies = prepared.rerun()
        first_flat = flat_outputs(first)
    except Exception as e:  # noqa: BLE001  (whatever PyTorch raises)
        case.status, case.cause = "eager fails", f"eager call fails ({type(e).__name__})"
        case.message = f"eager: {type(e).__name__}: {first_line(str(e))}"
        return False
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            captured = capture(prepared.fn, *prepared.args, **prepared.kwargs)
    except CaptureError as e:
        case.status, case.message = "refused", str(e)
        case.cause = refusal_cause("capture", str(e))
        return False
    except Exception as e:  # noqa: BLE001
        case.status, case.frontend_error = "crash", True
        case.cause = f"front end: {type(e).__name__}"
        case.message = f"front end: {type(e).__name__}: {e}"
        return False
    case.expected = captured.expected_outputs()
    # Random draws (the front end marks what depends on one; plans draw from their own seed) and
    # uninitialized memory: shapes and dtypes only. So too a result two eager runs disagree on.
    drawn = getattr(captured, "_drawn", set())
    case.metadata_only = (not deterministic or any(o is not None and id(o) in drawn for o in captured.output_values)
                          or not same_values(first_flat, list(captured.output_values)))
    case.reference64 = prepared.reference64
    try:
        captured.save(directory / f"{case.key}.json")
        case.files = str(directory / case.key)
    except Exception as e:  # noqa: BLE001
        case.status, case.frontend_error = "crash", True
        case.cause = f"front end: {type(e).__name__}"
        case.message = f"front end: writing the trace: {type(e).__name__}: {e}"
        return False
    try:
        torch.save(tuple(saveable(t) for t in captured.input_values_before()), directory / f"{case.key}.inputs.pt")
    except Exception as e:  # noqa: BLE001  (torch.save itself: PyTorch 1.13 cannot write complex32)
        case.status = "harness"
        case.message = f"torch.save of the inputs: {type(e).__name__}: {first_line(str(e))}"
        return False
    try:
        torch.save(case.expected, directory / f"{case.key}.expected.pt")  # for check_plans' own report only
    except Exception:  # noqa: BLE001
        pass
    if captured.mutated_inputs():  # what the program wrote into its inputs: `thundercc run --expect-inputs`
        torch.save(tuple(saveable(t) for t in captured.input_values), directory / f"{case.key}.inputs_after.pt")
        case.mutates = True
    if grads:
        recorded = [o for o in captured.output_values if o is not None and o.requires_grad]
        eager_outputs = [o for o in first_flat if o is not None and o.requires_grad]
        wanted = [copies.get(id(v), v) for v in captured.input_values if v.requires_grad]
        case.has_backward = bool(recorded) and bool(wanted)
        if case.has_backward and not case.metadata_only and len(eager_outputs) == len(recorded):
            cotangents = random_cotangents(recorded, case.key)
            try:
                reference = torch.autograd.grad(eager_outputs, wanted, cotangents, allow_unused=True)
                case.expected_grads = [None if g is None else saveable(g) for g in reference]
            except Exception:  # noqa: BLE001  (autograd itself cannot differentiate it: outputs only)
                case.expected_grads = None
            torch.save(tuple(saveable(c) for c in cotangents), directory / f"{case.key}.cotangents.pt")
            seeded = [i for i, o in enumerate(captured.output_values) if o is not None and o.requires_grad]
            originals = [v for v in captured.input_values if v.requires_grad]
            case.vjp_check = lambda ours, theirs: vjp_check(prepared, originals, seeded, cotangents, case.key, ours, theirs)
    return True


def as_real(t: torch.Tensor) -> torch.Tensor:
    return torch.view_as_real(t) if t.is_complex() else t


def vjp_check(prepared, originals, seeded, cotangents, key, ours, theirs):
    """Where thundercc's gradients and autograd's differ: which of them passes the check
    <J u, v> = <u, J^T v>, J u by central finite differences of eager PyTorch along a random u.
    Returns (ours pass, autograd's pass)."""
    generator = torch.Generator().manual_seed(zlib.crc32(key.encode()) + 1)
    directions = [torch.randn(w.shape, dtype=w.dtype, generator=generator) for w in originals]
    saved = [w.detach().clone() for w in originals]
    eps = 1e-6

    def at(sign):
        with torch.no_grad():
            for w, s, u in zip(originals, saved, directions):
                w.copy_(s + sign * eps * u)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                outputs = flat_outputs(prepared.fn(*prepared.args, **prepared.kwargs))
            return [outputs[i].detach().clone() for i in seeded]
    try:
        plus, minus = at(1), at(-1)
    finally:
        with torch.no_grad():
            for w, s in zip(originals, saved):
                w.copy_(s)
    lhs = sum(float((as_real((p - m) / (2 * eps)) * as_real(v)).sum()) for p, m, v in zip(plus, minus, cotangents))

    def rhs(grads):
        return sum(float((as_real(u) * as_real(g)).sum()) for u, g in zip(directions, grads) if g is not None)

    def agrees(value):
        return math.isfinite(value) and math.isclose(lhs, value, rel_tol=1e-4, abs_tol=1e-6)
    return agrees(rhs(ours)), agrees(rhs(theirs))


# Running thundercc -------------------------------------------------------------------------------

def first_line(text: str) -> str:
    return next((line.strip() for line in text.splitlines() if line.strip()), "")


def run_process(command, timeout):
    """(returncode, stdout, stderr, timed out). A binary being rebuilt (cannot be executed for a
    moment) is waited for, up to five minutes."""
    environment = {**os.environ, "OMP_NUM_THREADS": os.environ.get("OMP_NUM_THREADS", "1")}
    for attempt in range(60):
        try:
            result = subprocess.run([str(c) for c in command], capture_output=True, text=True, timeout=timeout,
                                    env=environment, errors="replace")
            return result.returncode, result.stdout, result.stderr, False
        except subprocess.TimeoutExpired as e:
            def text(b):
                return b.decode(errors="replace") if isinstance(b, bytes) else (b or "")
            return None, text(e.stdout), text(e.stderr), True
        except OSError as e:  # ETXTBSY, EACCES, ENOENT while the linker writes it
            if attempt == 59:
                raise
            log(f"opdb: cannot start {command[0]} ({e}); waiting for the build")
            time.sleep(5)


def snapshot_binaries(folder: Path) -> None:
    """Copies thundercc, check_plans and their libraries into `folder` and points this process and
    its children at the copies, so that a rebuild during a long run cannot mix two compilers."""
    build = Path(thundercc_binary()).parent
    folder.mkdir(parents=True, exist_ok=True)
    for name in ("thundercc", "libthundercc_core.so", "libthundercc_runtime.so"):
        shutil.copy2(build / name, folder / name)
    checker = check_plans_binary()
    if checker:
        shutil.copy2(checker, folder / "check_plans")
        os.environ["THUNDERCC_CHECK_PLANS"] = str(folder / "check_plans")
    os.environ["THUNDERCC"] = str(folder / "thundercc")
    os.environ["LD_LIBRARY_PATH"] = f"{folder}:{os.environ['LD_LIBRARY_PATH']}" if os.environ.get("LD_LIBRARY_PATH") else str(folder)


def classify_exit(returncode, stderr, timed_out, stage):
    """(status, message) of a compile or run of one trace that did not succeed."""
    if timed_out:
        return "crash", f"{stage}: timeout after {TIMEOUT} s"
    message = stderr.strip()
    if returncode is not None and returncode < 0:
        return "crash", f"{stage}: killed by signal {-returncode}: {message[-1500:]}"
    if returncode == 1 and not any(marker in message for marker in CRASH_MARKERS):
        return "refused", f"{stage}: {message}"
    return "crash", f"{stage}: exit {returncode}: {message[-3000:]}"


def strip_error(message: str) -> str:
    """The message without `error:`, the file and JSON pointer that name the place."""
    text = re.sub(r"^(compile|run): ", "", message.strip())
    text = re.sub(r"^\[?[\d\-: .]*\]?\s*\[?error\]?:?\s*", "", text)
    text = re.sub(r"^error:\s*", "", text)
    text = re.sub(r"^\S+\.(json|pt)(:|,)\s*", "", text)
    text = re.sub(r"^/[\w/]*:\s*", "", text)
    return text


def refusal_cause(stage: str, message: str) -> str:
    """The grouping key of a refusal: the unsupported op's name where the message names one, else
    the message's first words with numbers, shapes and places taken out."""
    text = strip_error(message)
    m = re.search(r"thundercc does not support ([\w.]+)", text)
    if m:
        return f"{stage}: unsupported {m.group(1)}"
    symbol = re.search(r"\n\s*in ((?:ltorch|prims|torch)\.[\w.]+)\(", text)
    head = first_line(text)
    head = re.sub(r",? at [^\s]+:\d+.*$", "", head)
    head = re.sub(r"^(\w*Error): ", "", head)
    head = re.sub(r"'[^']*'|\"[^\"]*\"", "'…'", head)
    head = re.sub(r"\((?:[^()]*\d[^()]*)\)|\[[^\]]*\]", "(…)", head)
    head = re.sub(r"(?<![\w.])-?\d+(\.\d+)?(e-?\d+)?(?![\w])", "N", head)
    words = head.split()
    short = " ".join(words[:12]) + (" …" if len(words) > 12 else "")
    return f"{stage}: " + (f"{symbol.group(1)}: " if symbol else "") + short


def compile_traces(cases: list[Case], directory: Path, out: Path, batch: int = 150) -> None:
    """One `thundercc compile` per batch of traces; a batch that ends abnormally goes on after the
    trace it stopped at; each trace that failed is compiled alone, for its exit status and message."""
    out.mkdir(exist_ok=True)
    pending = [c for c in cases if not c.status]
    failed = []
    while pending:
        group, pending = pending[:batch], pending[batch:]
        code, _, err, timed_out = run_process([thundercc_binary(), "compile", *[directory / f"{c.key}.json" for c in group],
                                               "-o", out], TIMEOUT + 2 * len(group))
        compiled = [(out / f"{c.key}.plan.json").exists() for c in group]
        named = [f"{c.key}.json" in err for c in group]
        if code in (0, 1) and not timed_out:
            failed += [c for c, ok in zip(group, compiled) if not ok]
            continue
        # Stopped at a trace: the last one with a plan or an error is done; the next one is alone.
        done = max([i for i, (ok, n) in enumerate(zip(compiled, named)) if ok or n], default=-1)
        failed += [c for c, ok in zip(group[:done + 1], compiled) if not ok]
        if done + 1 < len(group):
            failed.append(group[done + 1])
        pending = group[done + 2:] + pending
    for c in failed:
        code, _, err, timed_out = run_process([thundercc_binary(), "compile", directory / f"{c.key}.json", "-o", out], TIMEOUT)
        if code == 0 and not timed_out:
            continue  # compiled alone (a batch's abnormal end was another trace's)
        c.status, c.message = classify_exit(code, err, timed_out, "compile")
        if c.status == "refused":
            c.cause = refusal_cause("compile", c.message)


def run_plans(cases: list[Case], directory: Path, out: Path, batch: int = 150) -> None:
    """Runs every compiled plan: check_plans over batches (a folder of links each), `thundercc run`
    alone for the plans check_plans did not finish. Leaves KEY.thundercc_outputs.pt (and
    KEY.thundercc_grads.pt) in `out`."""
    pending = [c for c in cases if not c.status]
    alone = []
    checker = check_plans_binary()
    if checker is None:
        alone = pending
        pending = []
    serial = 0
    while pending:
        group, pending = pending[:batch], pending[batch:]
        serial += 1
        folder = out / f"check{serial:03d}"
        folder.mkdir()
        for c in group:
            for suffix in (".plan.json", ".inputs.pt", ".expected.pt", ".cotangents.pt"):
                source = (out if suffix == ".plan.json" else directory) / f"{c.key}{suffix}"
                if source.exists():
                    os.link(source, folder / f"{c.key}{suffix}")
        group.sort(key=lambda c: str(folder / f"{c.key}.plan.json"))
        code, stdout, err, timed_out = run_process([checker, folder], TIMEOUT + 2 * len(group))
        failed_lines = {c.key for c in group if f"FAIL: {c.key}.plan.json:" in err}

        def finished(c):
            if not (folder / f"{c.key}.thundercc_outputs.pt").exists():
                return False
            return not c.has_backward or (folder / f"{c.key}.thundercc_grads.pt").exists()
        normal = code in (0, 1) and not timed_out and "plans checked" in stdout
        if normal:
            for c in group:
                if finished(c):
                    c.outputs_dir = folder
                else:
                    alone.append(c)
            continue
        # Stopped inside a plan: those before the last one with any sign of being run are done.
        seen = [i for i, c in enumerate(group) if (folder / f"{c.key}.thundercc_outputs.pt").exists() or c.key in failed_lines]
        last = max(seen, default=-1)
        for i, c in enumerate(group):
            if i < last and finished(c):
                c.outputs_dir = folder
            elif i <= last + 1:
                alone.append(c)
            else:
                pending.append(c)
    for c in alone:
        plan = out / f"{c.key}.plan.json"
        outputs, grads = out / f"{c.key}.thundercc_outputs.pt", out / f"{c.key}.thundercc_grads.pt"
        command = [thundercc_binary(), "run", plan, "--inputs", directory / f"{c.key}.inputs.pt", "--outputs", outputs]
        if c.has_backward and plan_has_backward(plan):
            cotangents = directory / f"{c.key}.cotangents.pt"
            command += (["--cotangents", cotangents] if cotangents.exists() else []) + ["--grads-out", grads]
        code, _, err, timed_out = run_process(command, TIMEOUT)
        if code == 0 and not timed_out:
            c.outputs_dir = out
        else:
            c.status, c.message = classify_exit(code, err, timed_out, "run")
            if c.status == "refused":
                c.cause = refusal_cause("run", c.message)


def check_mutated_inputs(case: Case, directory: Path, out: Path) -> None:
    """A program that writes into its inputs: what they hold after thundercc's run against eager's,
    by `thundercc run --expect-inputs` (Thunder's tolerances by dtype)."""
    code, _, err, timed_out = run_process([thundercc_binary(), "run", out / f"{case.key}.plan.json", "--inputs",
                                           directory / f"{case.key}.inputs.pt", "--expect-inputs",
                                           directory / f"{case.key}.inputs_after.pt"], TIMEOUT)
    if code == 0 and not timed_out:
        return
    if code == 1 and "inputs after the run:" in err and not any(marker in err for marker in CRASH_MARKERS):
        case.status, case.message = "wrong", "inputs after the run: " + " ".join(
            line.split("inputs after the run: ", 1)[1] for line in err.splitlines() if "inputs after the run: " in line)
    else:
        case.status, case.message = classify_exit(code, err, timed_out, "run --expect-inputs")
        if case.status == "refused":
            case.cause = refusal_cause("run", case.message)


def plan_has_backward(plan: Path) -> bool:
    try:
        return "backward" in json.loads(plan.read_text())
    except (OSError, ValueError):
        return False


# Comparison --------------------------------------------------------------------------------------

def tolerance(dtype):
    return TOLERANCES.get(dtype, (0.0, 0.0))


def close(ours: torch.Tensor, theirs: torch.Tensor):
    """None when equal within the dtype's tolerance, else the difference in words."""
    rtol, atol = tolerance(theirs.dtype)
    ours, theirs = comparable(ours), comparable(theirs)
    try:
        torch.testing.assert_close(ours, theirs, rtol=rtol, atol=atol, equal_nan=True, check_stride=False,
                                   check_device=False, check_layout=False)
        return None
    except AssertionError as e:
        return " ".join(str(e).split())


def no_farther_than_eager(ours, theirs, reference) -> bool:
    """Thunder's fallback: ours is no farther from the float64 program's result than eager's is.
    Where the reference is finite, a non-finite value is infinitely far (eager's float16 norm that
    overflows where thundercc's does not); where it is not, ours must be what eager gives."""
    if reference is None or reference.shape != theirs.shape:
        return False
    ours, theirs, reference = (comparable(t).to(torch.complex128 if t.is_complex() else torch.float64) for t in (ours, theirs, reference))
    finite = torch.isfinite(reference)
    odd = ~finite
    if bool(odd.any()):
        same = (ours[odd] == theirs[odd]) | (torch.isnan(ours[odd]) & torch.isnan(theirs[odd]))
        if not bool(same.all()):
            return False
    if not bool(finite.any()):
        return True
    mine = (ours - reference)[finite].abs().nan_to_num(nan=math.inf).max().item()
    eager = (theirs - reference)[finite].abs().nan_to_num(nan=math.inf).max().item()
    return mine <= eager


def compare_outputs(case: Case, ours: list) -> str | None:
    expected = list(case.expected)
    if len(ours) != len(expected):
        return f"{len(ours)} outputs, eager gives {len(expected)}"
    reference = None
    for i, (o, e) in enumerate(zip(ours, expected)):
        if e is None:
            continue
        if o is None:
            return f"output {i}: none, eager gives {describe(e)}"
        if o.dtype != e.dtype:
            return f"output {i}: dtype {o.dtype}, eager {e.dtype}"
        if o.shape != e.shape:
            return f"output {i}: shape {list(o.shape)}, eager {list(e.shape)}"
        if case.metadata_only:
            continue
        difference = close(o, e)
        if difference is None:
            continue
        if e.is_floating_point() or e.is_complex():
            if reference is None:
                try:
                    reference = case.reference64()
                except Exception:  # noqa: BLE001
                    reference = []
            if i < len(reference) and isinstance(reference[i], torch.Tensor) and no_farther_than_eager(o, e, reference[i]):
                case.via_reference64 = True
                continue
        return f"output {i} ({describe(e)}): {difference}"
    return None


def compare_grads(case: Case, ours: list) -> str | None:
    expected = case.expected_grads
    if len(ours) != len(expected):
        return f"{len(ours)} gradients, autograd gives {len(expected)}"
    for i, (o, e) in enumerate(zip(ours, expected)):
        if e is None and (o is None or not bool(o.any())):
            continue
        if o is None:
            if not bool(e.any()):
                continue
            return f"gradient {i}: none, autograd gives {describe(e)}"
        if e is None:
            return f"gradient {i}: {describe(o)} with nonzero values, autograd gives none"
        if o.shape != e.shape or o.dtype != e.dtype:
            return f"gradient {i}: {describe(o)}, autograd gives {describe(e)}"
        difference = close(o, e)
        if difference is not None:
            return f"gradient {i} ({describe(e)}): {difference}"
    return None


def judge(case: Case) -> None:
    try:
        compare_results(case)
    except Exception as e:  # noqa: BLE001  (a comparison this harness cannot make: reported apart)
        case.status, case.message = "harness", f"comparing: {type(e).__name__}: {first_line(str(e))}"


def compare_results(case: Case) -> None:
    folder = case.outputs_dir
    try:
        ours = list(torch.load(folder / f"{case.key}.thundercc_outputs.pt"))
    except Exception as e:  # noqa: BLE001
        case.status, case.message = "crash", f"reading thundercc's outputs: {type(e).__name__}: {e}"
        return
    problem = compare_outputs(case, ours)
    if problem is None and case.expected_grads is not None:
        grads_file = folder / f"{case.key}.thundercc_grads.pt"
        if not grads_file.exists():
            nonzero = any(g is not None and bool(g.any()) for g in case.expected_grads)
            problem = "no gradients (the plan has no backward), autograd's are nonzero" if nonzero else None
        else:
            ours = list(torch.load(grads_file))
            problem = compare_grads(case, ours)
            case.grads_checked = True
            if problem is not None and case.vjp_check is not None and len(ours) == len(case.expected_grads):
                mine, autograds = case.vjp_check(ours, case.expected_grads)
                if mine and not autograds:
                    case.autograd_disagrees = True
                    problem = None
    case.status, case.message = ("pass", "") if problem is None else ("wrong", problem)


# Passes ------------------------------------------------------------------------------------------

def op_cases(ops, pass_name: str, directory: Path, limit: int) -> list[Case]:
    cases = []
    grads = pass_name == "grad"
    dtype = torch.float64 if grads else OP_PASSES[pass_name]
    for op in ops:
        name = op_name(op)
        if grads:
            if not op.supports_autograd or dtype not in op.supported_backward_dtypes("cpu"):
                continue
        elif dtype not in op.supported_dtypes("cpu"):
            continue
        torch.manual_seed(0)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                samples = []
                for sample in op.sample_inputs("cpu", dtype, requires_grad=grads):
                    samples.append(sample)
                    if len(samples) >= limit:
                        break
        except Exception as e:  # noqa: BLE001  (the database's own sample function fails)
            log(f"opdb: {name}: {pass_name}: sample_inputs fails: {type(e).__name__}: {first_line(str(e))}")
            continue
        for i, sample in enumerate(samples):
            case = Case(f"{file_stem(name)}__{pass_name}_{i}", name, pass_name, i, "")
            try:
                case.description = (describe(sample.input) + (f", args={describe(sample.args)}" if sample.args else "") +
                                    (f", kwargs={describe(sample.kwargs)}" if sample.kwargs else ""))
                prepared = prepare_op_sample(op, sample)
                if grads and not any(t.requires_grad for t in prepared.args):
                    continue
                torch.manual_seed(1000 + i)
                deterministic = op.name not in UNINITIALIZED
                if capture_case(case, prepared, directory, grads, deterministic) and grads and case.expected_grads is None:
                    continue  # no output requires grad, the op is random, or autograd itself cannot differentiate it
            except Exception as e:  # noqa: BLE001  (this harness's own failure: reported apart)
                case.status, case.message = "harness", f"preparing: {type(e).__name__}: {first_line(str(e))}"
            cases.append(case)
    return cases


def module_cases(modules, pass_name: str, directory: Path, limit: int) -> list[Case]:
    cases = []
    grads = pass_name == "module_grads"
    dtype = torch.float64 if grads else torch.float32
    modes = ["train"] if grads else ["eval", "train"]
    for info in modules:
        name = module_name(info)
        if dtype not in info.dtypes:
            continue
        for mode in modes:
            torch.manual_seed(0)
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    inputs = info.module_inputs_func(info, device="cpu", dtype=dtype, requires_grad=grads,
                                                     training=mode == "train")
            except Exception as e:  # noqa: BLE001
                log(f"opdb: {name}: {mode}: module_inputs_func fails: {type(e).__name__}: {first_line(str(e))}")
                continue
            for i, module_input in enumerate(inputs[:limit]):
                c = module_input.constructor_input
                description = (f"{mode}: {info.module_cls.__name__}({describe(c.args)[1:-1]}"
                               f"{', ' if c.args and c.kwargs else ''}{describe(c.kwargs)[1:-1]}) on "
                               f"{describe(module_input.forward_input.args)}"
                               + (f", kwargs={describe(module_input.forward_input.kwargs)}" if module_input.forward_input.kwargs else ""))
                case = Case(f"{file_stem(name)}__{pass_name}_{mode}_{i}", name, pass_name, i, description)
                torch.manual_seed(0)
                try:
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        module = info.module_cls(*c.args, **c.kwargs).to(dtype)
                except Exception as e:  # noqa: BLE001
                    case.status, case.cause = "eager fails", "eager call fails"
                    case.message = f"eager: constructing the module: {type(e).__name__}: {first_line(str(e))}"
                    cases.append(case)
                    continue
                module.train(mode == "train")
                prepared = prepare_module_sample(module, module_input)
                torch.manual_seed(1000 + i)
                try:
                    if grads:
                        ok = capture_case(case, prepared, directory, True, True)
                        if ok and case.expected_grads is None:
                            continue  # nothing to differentiate, random, or autograd cannot
                    else:
                        with torch.no_grad():
                            capture_case(case, prepared, directory, False, True)
                except Exception as e:  # noqa: BLE001
                    case.status, case.message = "harness", f"preparing: {type(e).__name__}: {first_line(str(e))}"
                cases.append(case)
    return cases


def run_pass(pass_name: str, ops, modules, workdir: Path, limit: int | None = None) -> list[Case]:
    """Captures, compiles, runs and judges every sample of one pass; returns the cases."""
    started = time.time()
    directory = workdir / pass_name
    if directory.exists():
        shutil.rmtree(directory)
    directory.mkdir(parents=True)
    limit = limit or SAMPLES_PER_PASS.get(pass_name, 2)
    if pass_name in ("modules", "module_grads"):
        cases = module_cases(modules, pass_name, directory, limit)
    else:
        cases = op_cases(ops, pass_name, directory, limit)
    captured = time.time()
    log(f"opdb: {pass_name}: {len(cases)} samples, {sum(1 for c in cases if not c.status)} captured "
        f"({captured - started:.0f} s)")
    out = directory / "out"
    compile_traces(cases, directory, out)
    compiled = time.time()
    log(f"opdb: {pass_name}: {sum(1 for c in cases if not c.status)} compiled ({compiled - captured:.0f} s)")
    run_plans(cases, directory, out)
    for c in cases:
        if not c.status:
            judge(c)
            if c.status == "pass" and c.mutates and not c.metadata_only:
                check_mutated_inputs(c, directory, out)
        c.expected = c.expected_grads = c.reference64 = c.vjp_check = None
    log(f"opdb: {pass_name}: run and judged ({time.time() - compiled:.0f} s); "
        + ", ".join(f"{k} {v}" for k, v in sorted(Counter(c.status for c in cases).items())))
    return cases


# Summaries ---------------------------------------------------------------------------------------

COLUMNS = ["pass", "partial", "by name", "refused", "wrong", "crash"]
# Samples left out of the op tables: this harness's own failures, and calls eager itself fails on
# this machine (the jiterator ops are CUDA only).
UNJUDGED = ("harness", "eager fails")
# Capture's refusals of a call whose result depends on tensor data, by name: such an op is covered
# (issue 40: a trace cannot depend on data, and the user learns which call and line).
DATA_DEPENDENT = re.compile(r"gives a result whose shape depends on tensor values|reads tensor data, which a trace cannot depend on")


def op_status(cases: list) -> str:
    statuses = [c.status for c in cases]
    if "wrong" in statuses:
        return "wrong"
    if "crash" in statuses:
        return "crash"
    if all(s == "pass" for s in statuses):
        return "pass"
    if all(s == "refused" for s in statuses):
        return "by name" if all(DATA_DEPENDENT.search(c.message) for c in cases) else "refused"
    return "partial"


def covered_percent(counts: dict, of: int) -> str:
    covered = counts["pass"] + counts["partial"] + counts["by name"]
    return f"{100.0 * covered / of:.1f}" if of else "-"


def summarize(cases_by_pass: dict) -> dict:
    summary = {}
    for pass_name, cases in cases_by_pass.items():
        by_op = defaultdict(list)
        for c in cases:
            if c.status not in UNJUDGED:
                by_op[c.op].append(c)
        ops = {op: op_status(cs) for op, cs in by_op.items()}
        frontend_only = sorted(op for op, cs in by_op.items() if ops[op] == "crash" and
                               all(c.frontend_error for c in cs if c.status == "crash"))
        counts = {k: sum(1 for s in ops.values() if s == k) for k in COLUMNS}
        summary[pass_name] = {
            "ops": ops,
            "counts": counts,
            "of": len(ops),
            "covered_percent": covered_percent(counts, len(ops)),
            "samples": dict(Counter(c.status for c in cases if c.status not in UNJUDGED)),
            "harness_errors": sum(1 for c in cases if c.status == "harness"),
            "eager_fails_ops": sorted({c.op for c in cases if c.status == "eager fails"} - set(ops)),
            "frontend_error_ops": frontend_only,
            "metadata_only_samples": sum(1 for c in cases if c.metadata_only and c.status == "pass"),
            "via_reference64_samples": sum(1 for c in cases if c.via_reference64 and c.status == "pass"),
            "autograd_disagrees": sorted({f"{c.op} #{c.index}" for c in cases if c.autograd_disagrees and c.status == "pass"}),
        }
    return summary


def report(cases_by_pass: dict, summary: dict, seconds: dict) -> str:
    lines = ["| pass | " + " | ".join(COLUMNS) + " | of | covered % |", "|---" * (len(COLUMNS) + 3) + "|"]
    for pass_name, s in summary.items():
        lines.append(f"| {ROW_TITLES.get(pass_name, pass_name)} | " + " | ".join(str(s["counts"][k]) for k in COLUMNS)
                     + f" | {s['of']} | {s['covered_percent']} |")
    lines += ["", '"by name": every sample refused at capture, by name, as a call whose result depends on tensor data; '
              'covered = pass + partial + by name.', "", "Samples (not ops):", "", "| pass | pass | refused | wrong | crash | of | seconds |",
              "|---" * 7 + "|"]
    for pass_name, s in summary.items():
        n = s["samples"]
        lines.append(f"| {ROW_TITLES.get(pass_name, pass_name)} | " + " | ".join(str(n.get(k, 0)) for k in ["pass", "refused", "wrong", "crash"])
                     + f" | {sum(n.values())} | {seconds.get(pass_name, 0):.0f} |")
    lines.append("")
    for pass_name, s in summary.items():
        notes = []
        if s["eager_fails_ops"]:
            notes.append(f"{len(s['eager_fails_ops'])} ops left out: eager itself fails every sample here: {', '.join(s['eager_fails_ops'])}")
        if s["frontend_error_ops"]:
            notes.append(f"{len(s['frontend_error_ops'])} of the crash ops crash only in the front end "
                         f"(not CaptureError): {', '.join(s['frontend_error_ops'])}")
        if s["metadata_only_samples"]:
            notes.append(f"{s['metadata_only_samples']} passing samples are random or uninitialized: compared by shape and dtype only")
        if s["via_reference64_samples"]:
            notes.append(f"{s['via_reference64_samples']} passing samples pass by the float64 reference (no farther from it than eager)")
        if s.get("autograd_disagrees"):
            notes.append(f"{len(s['autograd_disagrees'])} passing samples differ from autograd but pass the finite-difference "
                         f"check <J u, v> = <u, J^T v>, which autograd's own gradient fails: {', '.join(s['autograd_disagrees'])}")
        for note in notes:
            lines.append(f"- {ROW_TITLES.get(pass_name, pass_name)}: {note}")
    # Refusals by cause: samples (and ops) per cause, over every pass.
    causes = defaultdict(lambda: [0, set()])
    for cases in cases_by_pass.values():
        for c in cases:
            if c.status == "refused":
                causes[c.cause][0] += 1
                causes[c.cause][1].add(c.op)
    lines += ["", "## Refusals by cause (samples, ops, some ops)", ""]
    unsupported = {cause: v for cause, v in causes.items() if cause.startswith("capture: unsupported ")}
    if unsupported:
        names = sorted(cause[len("capture: unsupported "):] for cause in unsupported)
        lines.append(f"- {sum(v[0] for v in unsupported.values())} samples, {len(set().union(*(v[1] for v in unsupported.values())))} ops: "
                     f"capture: thundercc does not support the call ({len(names)} torch callables: {', '.join(names)})")
    for cause, (count, ops) in sorted(causes.items(), key=lambda kv: (-kv[1][0], kv[0])):
        if cause in unsupported:
            continue
        lines.append(f"- {count} samples, {len(ops)} ops: {cause}  [{', '.join(sorted(ops)[:6])}{' …' if len(ops) > 6 else ''}]")
    titles = {"wrong": "Wrong results", "crash": "Crashes", "harness": "Samples this harness could not judge (left out of the tables)"}
    for status in ("wrong", "crash", "harness"):
        lines += ["", f"## {titles[status]}", ""]
        for pass_name, cases in cases_by_pass.items():
            for c in cases:
                if c.status == status:
                    tag = " [front-end error]" if c.frontend_error else ""
                    message = " ".join(c.message.split())
                    lines.append(f"- {pass_name} {c.op} #{c.index}{tag}: {c.sample_text()}\n    {message[:700]}")
                    if c.files:
                        lines.append(f"    files: {c.files}.{{json,inputs.pt,expected.pt}}")
    return "\n".join(lines) + "\n"


def select(items, regex, name, limit):
    chosen = [x for x in items if regex is None or re.search(regex, name(x))]
    return chosen[:limit] if limit else chosen


def run(ops_regex=None, limit_ops=None, passes=None, workdir=None, op_names=None, module_names=None,
        samples=None) -> dict:
    """Runs the passes; op_names/module_names (exact names) take precedence over the regex.
    Returns {"cases": {pass: [Case]}, "summary": ..., "seconds": ...}."""
    passes = passes or ALL_PASSES
    workdir = Path(workdir) if workdir else Path(tempfile.mkdtemp(prefix="opdb-"))
    workdir.mkdir(parents=True, exist_ok=True)
    ops = modules = []
    if any(p not in ("modules", "module_grads") for p in passes):
        ops = [o for o in op_database() if op_names is None or op_name(o) in op_names]
        ops = select(ops, None if op_names is not None else ops_regex, op_name, limit_ops)
    if any(p in ("modules", "module_grads") for p in passes):
        modules = [m for m in module_database() if module_names is None or module_name(m) in module_names]
        modules = select(modules, None if module_names is not None else ops_regex, module_name, limit_ops)
    cases, seconds = {}, {}
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # eager here, one thread (the subprocesses get OMP_NUM_THREADS=1)
    try:
        for pass_name in passes:
            started = time.time()
            cases[pass_name] = run_pass(pass_name, ops, modules, workdir, (samples or {}).get(pass_name))
            seconds[pass_name] = time.time() - started
    finally:
        torch.set_num_threads(threads)
    return {"cases": cases, "summary": summarize(cases), "seconds": seconds, "workdir": str(workdir)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ops", help="a regular expression: the ops (and modules, nn.NAME) whose name it finds")
    parser.add_argument("--limit-ops", type=int, help="at most this many ops (and modules)")
    parser.add_argument("--passes", default=",".join(ALL_PASSES),
                        help=f"comma separated, of {','.join(KNOWN_PASSES)} (default: {','.join(ALL_PASSES)})")
    parser.add_argument("--samples", type=int, help="samples per op (or module and mode) in every pass, instead of "
                        "8 in float32, 4 for modules, 2 elsewhere")
    parser.add_argument("--json", type=Path, help="write every sample's result here")
    parser.add_argument("--workdir", type=Path, help="where the traces, plans and outputs go (default: a new temporary folder, kept)")
    parser.add_argument("--no-snapshot", action="store_true",
                        help="run build/'s binaries in place (by default they are copied to WORKDIR/bin first)")
    opts = parser.parse_args()
    passes = [p for p in opts.passes.split(",") if p]
    if "modules" in passes and "module_grads" not in passes:
        passes.append("module_grads")
    unknown = [p for p in passes if p not in KNOWN_PASSES]
    if unknown:
        parser.error(f"unknown passes: {', '.join(unknown)}")
    started = time.time()
    opts.workdir = opts.workdir or Path(tempfile.mkdtemp(prefix="opdb-"))
    if not opts.no_snapshot:
        snapshot_binaries(opts.workdir / "bin")
    result = run(opts.ops, opts.limit_ops, passes, opts.workdir,
                 samples={p: opts.samples for p in passes} if opts.samples else None)
    text = report(result["cases"], result["summary"], result["seconds"])
    print(text)
    print(f"workdir: {result['workdir']}; {time.time() - started:.0f} s in all")
    if opts.json:
        opts.json.write_text(json.dumps({
            "summary": result["summary"], "seconds": result["seconds"], "workdir": result["workdir"],
            "samples": {p: [c.result() for c in cs] for p, cs in result["cases"].items()}}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
