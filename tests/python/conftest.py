import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
import torch

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))  # the front end package, thundercc_frontend
sys.path.insert(0, str(REPO / "scripts"))  # zoo.py, ops_table.py

from thundercc_frontend import capture, saveable  # noqa: E402
from thundercc_frontend.reference import Float64Twin  # noqa: E402


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


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_on_a_terminal(command, **kwargs):
    """Runs command with its stderr on a pseudo-terminal (stdout piped); returns the finished
    process and every byte the terminal received."""
    import pty
    parent, child = pty.openpty()
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=child, **kwargs)
    os.close(child)
    shown = b""
    while True:
        try:
            chunk = os.read(parent, 65536)
        except OSError:  # the other end closed
            break
        if not chunk:
            break
        shown += chunk
    os.close(parent)
    return done, shown


def assert_same_checkpoints(a, b):
    """Two training checkpoints (run --checkpoint) equal bit for bit: parameters, buffers, the
    optimizer's state and the steps done."""
    assert a["step"] == b["step"] and a["optimizer"]["param_groups"] == b["optimizer"]["param_groups"]
    for section in ("model", "inputs"):
        assert a[section].keys() == b[section].keys()
        for key in a[section]:
            assert torch.equal(a[section][key], b[section][key]), (section, key)
    for k, state in a["optimizer"]["state"].items():
        for name, value in state.items():
            other = b["optimizer"]["state"][k][name]
            assert (value is None and other is None) or torch.equal(value, other), (k, name)


def build_against_installed_package(tmp_path, example):
    """The README's recipe for a program using thundercc as a package: `cmake --install` the build
    into tmp_path/prefix, then configure and build examples/EXAMPLE with find_package(thundercc).
    Returns (the prefix, the example's build folder)."""
    build = Path(os.environ.get("THUNDERCC", REPO / "build" / "thundercc")).parent
    prefix, built = tmp_path / "prefix", tmp_path / f"build-{example}"
    for command in (["cmake", "--install", build, "--prefix", prefix],
                    ["cmake", "-S", f"examples/{example}", "-B", built, f"-DCMAKE_PREFIX_PATH={prefix}"],
                    ["cmake", "--build", built]):
        subprocess.run([str(a) for a in command], check=True, capture_output=True, text=True, cwd=REPO)
    return prefix, built


LOW_PRECISION = (torch.float16, torch.bfloat16)


def flatten(result):
    if isinstance(result, torch.Tensor):
        return [result]
    return [t for x in result for t in flatten(x)]


def tensors_in(result):
    """The tensors of a result, nested tuples and lists included (other values skipped)."""
    if isinstance(result, torch.Tensor):
        return [result]
    return [t for x in result for t in tensors_in(x)] if isinstance(result, (tuple, list)) else []


def save_case(directory, name, fn, args, kwargs=None):
    """Captures fn(*args, **kwargs) as NAME.json with its inputs and eager outputs (.pt) for `thundercc run`."""
    kwargs = kwargs or {}
    twin = Float64Twin(fn, args, kwargs)
    captured = capture(fn, *args, **kwargs)
    captured.save(directory / f"{name}.json")
    torch.save(tuple(saveable(t) for t in captured.input_values_before()), directory / f"{name}.inputs.pt")
    if captured.mutated_inputs():
        torch.save(tuple(saveable(t) for t in captured.input_values), directory / f"{name}.inputs_after.pt")
    torch.save(captured.expected_outputs(), directory / f"{name}.expected.pt")
    if any(t is not None and t.dtype in LOW_PRECISION for t in captured.output_values):
        # The program in float64, as capture.py writes it: Thunder's assert_closer for low-precision results.
        reference = twin.run(captured, inference=True, grad=False)
        if not isinstance(reference, str):
            torch.save(reference[0], directory / f"{name}.expected64.pt")
    return directory / f"{name}.json"


def float64_gradients(make):
    """Autograd's gradients of the parameters in float64 (rounded to float32) of the model `make`
    builds from seed 0, every output seeded with ones, as `thundercc run` seeds them."""
    torch.manual_seed(0)
    wide, args = make(0.0)
    wide = wide.double().train()
    outputs = wide(*(a.double() if isinstance(a, torch.Tensor) and a.is_floating_point() else a for a in args))
    seeded = [t for t in tensors_in(outputs) if t.requires_grad]
    params = [p for p in wide.parameters() if p.requires_grad]
    grads = torch.autograd.grad(seeded, params, [torch.ones_like(t) for t in seeded], allow_unused=True)
    return tuple(None if g is None else g.float() for g in grads)


def compile_and_run(tmp_path, thundercc, model, args, compare=None):
    """With `compare` (the model's maker), checks the outputs against eager's and the gradients
    against float64 autograd's."""
    captured = capture(model, *args)
    captured.save(tmp_path / "m.json")
    torch.save(tuple(saveable(t) for t in captured.input_values), tmp_path / "inputs.pt")
    thundercc("compile", tmp_path / "m.json", "-o", tmp_path)
    options = ["--inputs", tmp_path / "inputs.pt", "--grads-out", tmp_path / "grads.pt"]
    if compare:
        torch.save(captured.expected_outputs(), tmp_path / "expected.pt")
        torch.save(float64_gradients(compare), tmp_path / "grads.expected.pt")
        options += ["--expect", tmp_path / "expected.pt", "--expect-grads", tmp_path / "grads.expected.pt",
                    "--rtol", "1e-4", "--atol", "1e-5"]
    thundercc("run", tmp_path / "m.plan.json", *options)
    return torch.load(tmp_path / "grads.pt")
