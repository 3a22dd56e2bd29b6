"""Capture, compile, run, compare with PyTorch eager: every sample of the meta-function table and
the example models go through thundercc compile and thundercc's runtime, and the outputs must
match eager PyTorch within Thunder's tolerances."""
import os
import subprocess

import torch

from thundercc_frontend import capture
from test_meta_vs_torch import SAMPLES


LOW_PRECISION = (torch.float16, torch.bfloat16)


def flatten(result):
    if isinstance(result, torch.Tensor):
        return [result]
    return [t for x in result for t in flatten(x)]


def save_case(directory, name, fn, args, kwargs):
    captured = capture(fn, *args, **kwargs)
    captured.save(directory / f"{name}.json")
    torch.save(tuple(t.detach() for t in captured.input_values), directory / f"{name}.inputs.pt")
    torch.save(tuple(t.detach() for t in captured.output_values), directory / f"{name}.expected.pt")
    if any(t.dtype in LOW_PRECISION for t in captured.output_values):
        # The program in float64, for Thunder's fallback comparison of low-precision results.
        upcast = [a.detach().double() if isinstance(a, torch.Tensor) and a.is_floating_point() else a for a in args]
        with torch.no_grad():
            reference = flatten(fn(*upcast, **kwargs))
        torch.save(tuple(t.double() for t in reference), directory / f"{name}.reference64.pt")
    return directory / f"{name}.json"


def check_plans(directory, count):
    result = subprocess.run([os.environ["THUNDERCC_CHECK_PLANS"], directory], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr + result.stdout
    assert f"{count} plans checked, 0 failed" in result.stdout


def test_every_sample_runs_and_matches_eager(tmp_path, thundercc):
    """With the default executors (ATen runs whole torch ops) and with `torch_prims` (every op runs
    as its decomposition into prims), which checks the decompositions and the prims' kernels."""
    whole, decomposed = tmp_path / "whole", tmp_path / "decomposed"
    whole.mkdir()
    decomposed.mkdir()
    traces = []
    for i, sample in enumerate(SAMPLES):
        fn, args, kwargs = sample.values
        name = f"s{i:03d}_{sample.id.rsplit('-', 1)[0]}"
        traces.append(save_case(whole, name, fn, args, kwargs))
        for io in ("inputs", "expected", "reference64"):
            if (whole / f"{name}.{io}.pt").exists():
                (decomposed / f"{name}.{io}.pt").write_bytes((whole / f"{name}.{io}.pt").read_bytes())
    thundercc("compile", *traces, "-o", whole)
    thundercc("compile", *traces, "-o", decomposed, "--executors", "torch_prims")
    check_plans(whole, len(SAMPLES))
    check_plans(decomposed, len(SAMPLES))
