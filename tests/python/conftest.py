import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "scripts"))

from thundercc_frontend import capture  # noqa: E402


@pytest.fixture(scope="session")
def thundercc():
    binary = os.environ.get("THUNDERCC", str(REPO / "build" / "thundercc"))
    assert Path(binary).exists(), f"build thundercc first ({binary})"
    os.environ["THUNDERCC"] = binary

    def run(*args, check=True, env=None):
        environment = {**os.environ, **env} if env else None
        result = subprocess.run([binary, *map(str, args)], capture_output=True, text=True, env=environment)
        if check and result.returncode != 0:
            raise AssertionError(f"thundercc {' '.join(map(str, args))} exited {result.returncode}:\n{result.stderr}")
        return result

    return run


LOW_PRECISION = (torch.float16, torch.bfloat16)


def flatten(result):
    if isinstance(result, torch.Tensor):
        return [result]
    return [t for x in result for t in flatten(x)]


def save_case(directory, name, fn, args, kwargs=None):
    """Captures fn(*args, **kwargs) as NAME.json with its inputs and eager outputs (.pt) for `thundercc run`."""
    kwargs = kwargs or {}
    captured = capture(fn, *args, **kwargs)
    captured.save(directory / f"{name}.json")
    torch.save(tuple(t.detach() for t in captured.input_values_before()), directory / f"{name}.inputs.pt")
    if captured.mutated_inputs():
        torch.save(tuple(t.detach() for t in captured.input_values), directory / f"{name}.inputs_after.pt")
    torch.save(captured.expected_outputs(), directory / f"{name}.expected.pt")
    if any(t is not None and t.dtype in LOW_PRECISION for t in captured.output_values):
        # The program in float64, for Thunder's fallback comparison of low-precision results.
        upcast = [a.detach().double() if isinstance(a, torch.Tensor) and a.is_floating_point() else a for a in args]
        with torch.no_grad():
            reference = flatten(fn(*upcast, **kwargs))
        torch.save(tuple(t.double() for t in reference), directory / f"{name}.reference64.pt")
    return directory / f"{name}.json"
