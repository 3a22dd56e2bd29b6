"""Captures a PyTorch program as trace.json: `python3 -m thundercc_frontend` (from the checkout, or
wherever the package is installed; scripts/capture.py runs the same).

    /usr/bin/python3 -m thundercc_frontend FILE.py:FACTORY -o trace.json [--save-io] [--grad | --inference] [--device cuda]
                                           [--dynamic INPUT:DIM[:MIN:MAX][=NAME]]...
    /usr/bin/python3 -m thundercc_frontend FILE.py:FACTORY --check [--inference]

FACTORY() returns (callable, args) or (callable, args, kwargs). --save-io also writes the inputs and
the eager outputs with torch.save (NAME.inputs.pt, NAME.expected.pt next to the trace); --grad also
writes the gradients autograd computes for the inputs that require grad (NAME.grads.pt), in input
order, with every output that requires grad seeded with ones (for a scalar loss: d loss). A program
that modifies inputs in place also gets NAME.inputs_after.pt (every input as the program left it);
NAME.inputs.pt holds them as it received them. Both also write the program's results run again in
float64 (NAME.expected64.pt, NAME.grads64.pt), which `thundercc run --expect` and --expect-grads read
from beside the files they are given: an element that differs from eager float32 beyond tolerance
passes when it is no further from float64 than eager's own (Thunder's assert_closer). A program that
draws random values, or fails in float64, gets none (a note says why). Nothing is written unless
everything is.

--dynamic makes the dimension DIM of the tensor argument INPUT symbolic, for the sizes MIN to MAX
(default 1 to 2**31-1), named NAME if given (dimensions that share a name share a size): the trace
holds for all of them (thundercc_frontend/dynamic.py says how, and which programs it refuses). The
saved tensors are those of the run at FACTORY()'s sizes.

--check writes nothing: it runs the program once and lists every call capture would refuse, by op
with counts and the lines that made them (capture itself stops at the first); exit 1 if any.
"""
import argparse
import contextlib
import importlib.util
import os
import sys
import tempfile
from pathlib import Path

import torch

from thundercc_frontend import VERSION, CaptureError, capture, capture_dynamic, check, saveable
from thundercc_frontend.reference import Float64Twin


def _package_version() -> str:
    """The package's version: pyproject.toml's in a checkout, cmake --install's (_installed.py), or
    pip's metadata."""
    pyproject = Path(__file__).resolve().parent.parent / "pyproject.toml"
    if pyproject.exists():
        for line in pyproject.read_text().splitlines():
            if line.startswith("version = "):
                return line.split('"')[1]
    try:
        from thundercc_frontend._installed import VERSION
        return VERSION
    except ImportError:
        pass
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("thundercc-frontend")
    except PackageNotFoundError:  # a copy of the folder alone: every command still runs
        return "unknown"


def load_factory(spec: str, device: torch.device | None = None):
    path, _, factory = spec.rpartition(":")
    if not path or not factory:
        raise SystemExit(f"capture: expected FILE.py:FACTORY, got '{spec}'")
    module_spec = importlib.util.spec_from_file_location(Path(path).stem, path)
    if module_spec is None:
        raise SystemExit(f"capture: cannot load '{path}'")
    module = importlib.util.module_from_spec(module_spec)
    sys.path.insert(0, str(Path(path).resolve().parent))
    module_spec.loader.exec_module(module)
    if not hasattr(module, factory):
        raise SystemExit(f"capture: '{path}' has no '{factory}'")
    made = getattr(module, factory)()
    fn, args = made[0], made[1]
    kwargs = made[2] if len(made) > 2 else {}
    if device is not None:
        try:
            fn, args, kwargs = to_device((fn, tuple(args), kwargs), device)
        except (RuntimeError, AssertionError) as e:  # PyTorch without CUDA asserts
            raise SystemExit(f"capture: error: cannot move the program to {device}: {e}")
    return fn, tuple(args), kwargs


def to_device(value, device: torch.device):
    """FACTORY()'s module and argument tensors (in lists, tuples and dicts too) moved to device."""
    if isinstance(value, (torch.nn.Module, torch.Tensor)):
        return value.to(device)
    if isinstance(value, (list, tuple)):
        return type(value)(to_device(v, device) for v in value)
    if isinstance(value, dict):
        return {k: to_device(v, device) for k, v in value.items()}
    return value


def write_all(files: dict) -> None:
    """Writes every file through a temporary next to it, then renames them all: a failure leaves
    none of them behind. The files get the mode a new file gets (0666 less the umask), as
    thundercc's own outputs do, not mkstemp's 0600."""
    umask = os.umask(0)
    os.umask(umask)
    written = []
    try:
        for path, write in files.items():
            fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
            os.close(fd)
            written.append((temporary, path))
            write(temporary)
    except BaseException:
        for temporary, _ in written:
            Path(temporary).unlink(missing_ok=True)
        raise
    for temporary, path in written:
        os.chmod(temporary, 0o666 & ~umask)
        os.replace(temporary, path)


def check_report(refusals) -> str:
    """capture --check's report: per op, how many calls, and each place with its message."""
    if not refusals:
        return "capture --check: every call can be captured"
    by_op: dict[str, dict[str, list]] = {}
    for op, where, message in refusals:
        by_op.setdefault(op, {}).setdefault(where, []).append(message)
    lines = [f"capture --check: {len(refusals)} call{'s' * (len(refusals) != 1)} capture would refuse, "
             f"{len(by_op)} op{'s' * (len(by_op) != 1)}:"]
    for op, places in sorted(by_op.items(), key=lambda item: -sum(map(len, item[1].values()))):
        count = sum(map(len, places.values()))
        lines.append(f"  {op}: {count} call{'s' * (count != 1)}")
        for where, messages in places.items():
            times = f" ({len(messages)} calls)" if len(messages) > 1 else ""
            lines.append(f"    {where}{times}: {messages[0]}")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description="Captures a PyTorch program as trace.json.")
    parser.add_argument("--version", action="version", version=f"thundercc_frontend {_package_version()} (trace format {VERSION})")
    parser.add_argument("program", help="FILE.py:FACTORY")
    parser.add_argument("-o", "--output", help="where to write trace.json")
    parser.add_argument("--check", action="store_true",
                        help="write nothing: list every call capture would refuse, with counts and lines (exit 1 if any)")
    parser.add_argument("--save-io", action="store_true", help="also save inputs and eager outputs (.pt)")
    parser.add_argument("--grad", action="store_true", help="also save autograd's gradients of a scalar output")
    parser.add_argument("--inference", action="store_true",
                        help="capture under torch.no_grad(): an inference program even where parameters require grad")
    parser.add_argument("--device", type=torch.device,
                        help="move FACTORY()'s module and argument tensors to this device first (cuda: capture on the GPU)")
    parser.add_argument("--dynamic", action="append", default=[], metavar="INPUT:DIM[:MIN:MAX][=NAME]",
                        help="make this dimension of the tensor argument INPUT symbolic, for sizes MIN to MAX (repeatable; "
                             "dimensions given the same NAME share one size)")
    opts = parser.parse_args()
    if opts.inference and opts.grad:
        parser.error("--inference computes no gradients: leave out --grad")
    if opts.check:
        if opts.output or opts.save_io or opts.grad:
            parser.error("--check writes nothing: leave out -o, --save-io and --grad")
        if opts.dynamic:
            parser.error("--check captures at the example's sizes only: leave out --dynamic")
        fn, args, kwargs = load_factory(opts.program, opts.device)
        try:
            with torch.no_grad() if opts.inference else contextlib.nullcontext():
                refusals = check(fn, *args, **kwargs)
        except CaptureError as e:  # no thundercc binary to ask which ops it knows
            print(f"capture: error: {e}", file=sys.stderr)
            return 2
        print(check_report(refusals))
        return 1 if refusals else 0
    if not opts.output:
        parser.error("the following arguments are required: -o/--output (or --check)")

    out = Path(opts.output)
    # A missing folder is made (as `thundercc compile -o` makes one), once the capture succeeded;
    # a file in its place is an error before anything runs.
    existing = next(p for p in [out.parent, *out.parent.parents] if p.exists())
    if not existing.is_dir():
        print(f"capture: error: {existing} is not a directory", file=sys.stderr)
        return 1
    fn, args, kwargs = load_factory(opts.program, opts.device)
    twin = Float64Twin(fn, args, kwargs) if opts.save_io or opts.grad else None
    try:
        with torch.no_grad() if opts.inference else contextlib.nullcontext():
            captured = capture_dynamic(fn, args, opts.dynamic, kwargs) if opts.dynamic else capture(fn, *args, **kwargs)
    except CaptureError as e:
        print(f"capture: error: {e}", file=sys.stderr)
        return 1
    stem = out.name[:-len(".json")] if out.name.endswith(".json") else out.name
    files = {out: lambda path: captured.save(path)}
    if opts.grad:
        # Every output that requires grad is seeded with ones, as `thundercc run` does without
        # --cotangents (for a scalar loss, that is d loss).
        seeded = [t for t in captured.output_values if t is not None and t.requires_grad]
        wanted = [t for t in captured.input_values if t.requires_grad]
        if not seeded or not wanted:
            print("capture: error: --grad needs an output that requires grad and an input that requires grad", file=sys.stderr)
            return 1
        grads = torch.autograd.grad(seeded, wanted, [torch.ones_like(t) for t in seeded], allow_unused=True)
        files[out.with_name(stem + ".grads.pt")] = lambda path: torch.save(
            tuple(None if g is None else saveable(g) for g in grads), path)
    if opts.save_io:
        files[out.with_name(stem + ".inputs.pt")] = lambda path: torch.save(
            tuple(saveable(t) for t in captured.input_values_before()), path)
        files[out.with_name(stem + ".expected.pt")] = lambda path: torch.save(
            captured.expected_outputs(), path)
        if captured.mutated_inputs():
            # What the inputs hold after the program: `thundercc run --expect-inputs` checks them.
            files[out.with_name(stem + ".inputs_after.pt")] = lambda path: torch.save(
                tuple(saveable(t) for t in captured.input_values), path)
    if twin is not None:
        reference = twin.run(captured, inference=opts.inference, grad=opts.grad)
        if isinstance(reference, str):
            print(f"capture: note: no float64 reference: {reference}", file=sys.stderr)
        else:
            outputs64, grads64 = reference
            if opts.save_io:
                files[out.with_name(stem + ".expected64.pt")] = lambda path: torch.save(outputs64, path)
            if opts.grad:
                files[out.with_name(stem + ".grads64.pt")] = lambda path: torch.save(grads64, path)
    out.parent.mkdir(parents=True, exist_ok=True)
    write_all(files)
    symbols = ", ".join(f"{s['name']} = {s['input']}.shape[{s['dim']}] in [{s['min']}, {s['max']}]"
                        for s in captured.symbols or [])
    print(f"capture: {out}: {len(captured.bound_symbols)} bound symbols" + (f", symbols {symbols}" if symbols else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
