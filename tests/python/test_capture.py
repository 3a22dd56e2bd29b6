"""The front end: names, kinds, outputs, and the programs it must refuse (with the op and the line)."""
import inspect
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch
import torch.nn.functional as F

from conftest import REPO
from thundercc_frontend import CaptureError, capture, check


def test_inputs_are_named_after_parameters_and_module_paths():
    class Block(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc1 = torch.nn.Linear(4, 3)
            self.register_buffer("scale", torch.ones(3))

        def forward(self, x, *, shift=0.5):
            return self.fc1(x) * self.scale + shift

    doc = capture(Block(), torch.randn(2, 4)).to_json()
    assert [i["name"] for i in doc["inputs"]] == ["x", "t_fc1_weight", "t_fc1_bias", "t_scale"]
    assert doc["inputs"][1]["tensor"]["requires_grad"] is True
    assert doc["inputs"][3]["tensor"]["requires_grad"] is False
    assert [b["symbol"] for b in doc["bound_symbols"]] == ["torch.nn.functional.linear", "torch.Tensor.mul", "torch.Tensor.add"]
    assert doc["bound_symbols"][2]["args"][1] == 0.5  # a float stays a float


def test_python_kinds_are_kept_apart():
    doc = capture(lambda a: a.sum(1, keepdim=True).to(torch.float64)[..., 0:1], torch.randn(2, 3)).to_json()
    sum_call, to_call, getitem = doc["bound_symbols"]
    assert sum_call["args"][1:] == [1] and sum_call["kwargs"] == {"keepdim": True}
    assert to_call["args"][1] == {"torch_dtype": "float64"}
    assert getitem["args"][1] == {"tuple": [{"ellipsis": True}, {"slice": [0, 1, None]}]}


def test_tuple_outputs_and_reflected_operators():
    doc = capture(lambda a: (1 - a, torch.split(a, 1)), torch.randn(2, 3)).to_json()
    assert doc["bound_symbols"][0]["symbol"] == "torch.sub"
    assert doc["bound_symbols"][0]["args"][0] == 1
    assert doc["output"]["tuple"][1]["tuple"][1] == {"ref": "t2"}


def test_unknown_op_names_the_op_and_the_line():
    with pytest.raises(CaptureError, match=r"thundercc does not support torch.quantile, at .*test_capture.py:\d+: `return torch.quantile\(a, 0.5, 0\)`"):
        def uses_quantile(a):
            return torch.quantile(a, 0.5, 0)
        capture(uses_quantile, torch.randn(2, 16))


def test_shapes_that_depend_on_values_are_refused_by_name():
    with pytest.raises(CaptureError, match=r"torch.unique gives a result whose shape depends on tensor values.*, at .*test_capture.py:\d+"):
        capture(lambda a: torch.unique(a), torch.tensor([1, 2, 2]))
    with pytest.raises(CaptureError, match=r"torch.nonzero gives a result whose shape depends"):
        capture(lambda a: torch.nonzero(a), torch.tensor([1, 0, 2]))
    with pytest.raises(CaptureError, match=r"x\[mask\] with a boolean mask .*torch.where"):
        capture(lambda a: a[a > 0], torch.randn(5))
    # Assigning through a mask keeps the shape: captured.
    def masked_assign(a):
        b = a.clone()
        b[b > 0] = 0.0
        return b
    assert capture(masked_assign, torch.randn(5)).bound_symbols


def test_reads_of_many_values_are_refused():
    # One element's value is specialized and guarded (test_guards.py); a list of them is not.
    with pytest.raises(CaptureError, match=r"torch.Tensor.tolist reads tensor data"):
        capture(lambda a: a * len([v for v in a.tolist() if v > 0]), torch.randn(2))


def test_closed_over_tensors_are_refused():
    w = torch.randn(2)
    with pytest.raises(CaptureError, match="neither an input nor the result of a captured op"):
        capture(lambda a: a * w, torch.randn(2))


def test_capture_command_writes_trace_and_io(tmp_path, thundercc):
    program = tmp_path / "prog.py"
    program.write_text(
        "import torch\n"
        "def fun(a, b):\n"
        "    return a + b * a\n"
        "def make():\n"
        "    return fun, (torch.randn(2, 2), torch.randn(2, 1))\n"
        "def bad():\n"
        "    return (lambda a: torch.quantile(a, 0.5, 0)), (torch.randn(2, 16),)\n")
    out = tmp_path / "fun.json"
    subprocess.run([sys.executable, REPO / "scripts" / "capture.py", f"{program}:make", "-o", out, "--save-io"], check=True)
    thundercc("validate", out)
    umask = os.umask(0)
    os.umask(umask)
    assert {(tmp_path / f).stat().st_mode & 0o777 for f in ("fun.json", "fun.inputs.pt")} == {0o666 & ~umask}  # not mkstemp's 0600
    assert len(torch.load(tmp_path / "fun.inputs.pt")) == 2
    expected = torch.load(tmp_path / "fun.expected.pt")
    a, b = torch.load(tmp_path / "fun.inputs.pt")
    torch.testing.assert_close(expected[0], a + b * a)
    assert json.loads(out.read_text())["name"] == "fun"

    bad = subprocess.run([sys.executable, REPO / "scripts" / "capture.py", f"{program}:bad", "-o", tmp_path / "bad.json"],
                         capture_output=True, text=True)
    assert bad.returncode == 1
    assert "thundercc does not support torch.quantile" in bad.stderr
    assert "prog.py:7" in bad.stderr
    assert not (tmp_path / "bad.json").exists()


def test_capture_command_saves_autograd_gradients(tmp_path):
    program = tmp_path / "loss.py"
    program.write_text(
        "import torch\n"
        "def make():\n"
        "    torch.manual_seed(0)\n"
        "    w = torch.randn(4, 3, requires_grad=True)\n"
        "    return (lambda x, w: (x @ w).tanh().sum()), (torch.randn(2, 4), w)\n")
    out = tmp_path / "loss.json"
    subprocess.run([sys.executable, REPO / "scripts" / "capture.py", f"{program}:make", "-o", out, "--grad"], check=True)
    (grad_w,) = torch.load(tmp_path / "loss.grads.pt")
    torch.manual_seed(0)
    w = torch.randn(4, 3, requires_grad=True)
    x = torch.randn(2, 4)
    (x @ w).tanh().sum().backward()
    torch.testing.assert_close(grad_w, w.grad)


def test_dict_outputs_compile_and_run(tmp_path, thundercc):
    def heads(x):
        return {"logits": x * 2, "probs": torch.softmax(x, -1)}
    x = torch.randn(3, 5)
    captured = capture(heads, x)
    assert captured.to_json()["output"] == {"dict": [["logits", {"ref": "t0"}], ["probs", {"ref": "t1"}]]}
    captured.save(tmp_path / "heads.json")
    torch.save((x,), tmp_path / "heads.inputs.pt")
    torch.save(tuple(v for v in heads(x).values()), tmp_path / "heads.expected.pt")
    thundercc("compile", tmp_path / "heads.json", "-o", tmp_path)
    assert "  return {'logits': t0, 'probs': t9}\n" in (tmp_path / "heads.trace.py").read_text()
    result = thundercc("run", tmp_path / "heads.plan.json", "--inputs", tmp_path / "heads.inputs.pt", "--expect", tmp_path / "heads.expected.pt")
    assert "outputs match" in result.stdout


def test_input_names_are_valid_unique_identifiers():
    class Block(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.add_module("block1-0", torch.nn.Linear(2, 2))
            self.add_module("block1_0", torch.nn.Linear(2, 2))

        def forward(self, x):
            return getattr(self, "block1-0")(x) + self.block1_0(x)

    names = [i["name"] for i in capture(Block(), torch.randn(1, 2)).inputs]
    assert names == ["x", "t_block1_0_weight", "t_block1_0_bias", "t_block1_0_weight_1", "t_block1_0_bias_1"]


def test_capture_command_checks_before_writing(tmp_path):
    program = tmp_path / "prog.py"
    program.write_text("import torch\n"
                       "def make():\n"
                       "    return (lambda a: a * 2), (torch.randn(2, 2),)\n")
    # A folder that does not exist yet is made; a file where a folder should be is refused.
    made = subprocess.run([sys.executable, REPO / "scripts" / "capture.py", f"{program}:make", "-o", tmp_path / "new" / "dir" / "t.json"],
                          capture_output=True, text=True)
    assert made.returncode == 0 and (tmp_path / "new" / "dir" / "t.json").exists(), made.stderr
    (tmp_path / "file").write_text("")
    blocked = subprocess.run([sys.executable, REPO / "scripts" / "capture.py", f"{program}:make", "-o", tmp_path / "file" / "t.json"],
                             capture_output=True, text=True)
    assert blocked.returncode == 1 and "file is not a directory" in blocked.stderr
    # --grad without anything requiring grad fails before any file is written.
    no_grad = subprocess.run([sys.executable, REPO / "scripts" / "capture.py", f"{program}:make", "-o", tmp_path / "t.json",
                              "--save-io", "--grad"], capture_output=True, text=True)
    assert no_grad.returncode == 1 and "--grad needs an output that requires grad" in no_grad.stderr
    # A device this PyTorch lacks is an error naming it, before the program runs.
    if not torch.cuda.is_available():
        no_gpu = subprocess.run([sys.executable, REPO / "scripts" / "capture.py", f"{program}:make", "-o", tmp_path / "t.json",
                                 "--device", "cuda"], capture_output=True, text=True)
        assert no_gpu.returncode == 1 and "capture: error: cannot move the program to cuda:" in no_gpu.stderr, no_gpu.stderr
        assert "Traceback" not in no_gpu.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file", "new", "prog.py"]


def test_capture_on_a_device_moves_the_module_and_arguments(tmp_path, thundercc):
    """--device moves FACTORY()'s module and argument tensors first; the saved files hold CPU
    tensors whatever the device (here the CPU: scripts/gpu_check.sh runs --device cuda on a GPU)."""
    program = tmp_path / "prog.py"
    program.write_text("import torch\n"
                       "class Head(torch.nn.Module):\n"
                       "    def __init__(self):\n"
                       "        super().__init__()\n"
                       "        self.fc = torch.nn.Linear(4, 3)\n"
                       "    def forward(self, xs):\n"
                       "        return self.fc(xs[0]) * xs[1]\n"
                       "def make():\n"
                       "    torch.manual_seed(0)\n"
                       "    return Head(), ([torch.randn(2, 4), torch.randn(3)],)\n")
    out = tmp_path / "t.json"
    subprocess.run([sys.executable, REPO / "scripts" / "capture.py", f"{program}:make", "-o", out, "--save-io", "--device", "cpu"],
                   check=True, capture_output=True)
    trace = json.loads(out.read_text())
    assert {i["tensor"]["device"] for i in trace["inputs"] if "tensor" in i} == {"cpu"}
    assert all(t.device.type == "cpu" for t in torch.load(tmp_path / "t.inputs.pt"))
    thundercc("compile", out, "-o", tmp_path)
    result = thundercc("run", tmp_path / "t.plan.json", "--inputs", tmp_path / "t.inputs.pt", "--expect", tmp_path / "t.expected.pt")
    assert "outputs match" in result.stdout


def test_a_module_captured_under_no_grad_is_inference(tmp_path, thundercc):
    """Parameters require grad, but under torch.no_grad() the program is inference: one execution
    trace (no backward) whose outputs equal eager's."""
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.LayerNorm(16), torch.nn.Linear(16, 8))
    x = torch.randn(4, 16)
    with torch.no_grad():
        captured = capture(model, x)
        expected = model(x)
    assert not any(i["tensor"]["requires_grad"] for i in captured.to_json()["inputs"] if "tensor" in i)
    captured.save(tmp_path / "m.json")
    torch.save(tuple(t.detach() for t in captured.input_values_before()), tmp_path / "m.inputs.pt")
    torch.save((expected,), tmp_path / "m.expected.pt")
    thundercc("compile", tmp_path / "m.json", "-o", tmp_path)
    assert (tmp_path / "m.trace.py").exists() and not (tmp_path / "m.backward.trace.py").exists()
    thundercc("run", tmp_path / "m.plan.json", "--inputs", tmp_path / "m.inputs.pt", "--expect", tmp_path / "m.expected.pt")


def test_only_inputs_really_modified_count_as_mutated(tmp_path):
    # Every call's first argument is copied in case the call modifies it; only real writes count,
    # so capture.py writes NAME.inputs_after.pt for programs that modify an input and no other.
    assert capture(lambda a, b: (a * 2).sum() + b.mean(), torch.randn(3), torch.randn(2)).mutated_inputs() == []
    def writes_b(a, b):
        b.add_(a.sum())
        return a * 2
    assert capture(writes_b, torch.randn(3), torch.randn(2)).mutated_inputs() == [1]
    bn = torch.nn.BatchNorm1d(3).train()
    captured = capture(bn, torch.randn(4, 3))
    names = [captured.inputs[i]["name"] for i in captured.mutated_inputs()]
    assert names == ["t_running_mean", "t_running_var", "t_num_batches_tracked"]


class _Region(torch.nn.Module):
    def __init__(self, region):
        super().__init__()
        self.linear, self.region = torch.nn.Linear(4, 4), region

    def forward(self, x):
        with self.region():
            return self.linear(x).relu()


@pytest.mark.parametrize("region", [torch.no_grad, torch.inference_mode])
def test_a_no_grad_region_compiles_to_an_inference_plan(region, tmp_path, thundercc):
    from conftest import save_case
    trace = save_case(tmp_path, "m", _Region(region), (torch.randn(2, 4),))
    symbols = [b["symbol"] for b in json.loads(trace.read_text())["bound_symbols"]]
    assert symbols.count("torch.Tensor.detach") == 2  # the weight and the bias, which require grad
    thundercc("compile", trace, "-o", tmp_path)
    assert (tmp_path / "m.trace.py").exists() and not (tmp_path / "m.forward.trace.py").exists()
    thundercc("run", tmp_path / "m.plan.json", "--inputs", tmp_path / "m.inputs.pt", "--expect", tmp_path / "m.expected.pt")


def test_capture_inference_flag_gives_an_inference_plan(tmp_path, thundercc):
    program = tmp_path / "prog.py"
    program.write_text("import torch\ndef make():\n    return torch.nn.Linear(4, 2), (torch.randn(3, 4),)\n")
    subprocess.run([sys.executable, REPO / "scripts" / "capture.py", f"{program}:make", "-o", tmp_path / "p.json", "--inference"],
                   check=True, capture_output=True)
    trace = json.loads((tmp_path / "p.json").read_text())
    assert not any(i["tensor"]["requires_grad"] for i in trace["inputs"] if "tensor" in i)
    # Nothing requires grad in the trace, so nothing is detached (a detach would copy a weight).
    assert [b["symbol"] for b in trace["bound_symbols"]] == ["torch.nn.functional.linear"]
    thundercc("compile", tmp_path / "p.json", "-o", tmp_path)
    assert (tmp_path / "p.trace.py").exists()
    refused = subprocess.run([sys.executable, REPO / "scripts" / "capture.py", f"{program}:make", "-o", tmp_path / "q.json",
                              "--inference", "--grad"], capture_output=True, text=True)
    assert refused.returncode == 2 and "--inference computes no gradients" in refused.stderr


class _Refused(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(8, 8)

    def forward(self, x):
        running = torch.nanquantile(torch.quantile(x, 0.5, 1, keepdim=True), 0.5, 1)  # refused twice: quantile, then nanquantile
        y = self.fc(x) + running.sum()  # reads what a refused call made: not counted again
        for _ in range(3):
            y = y + torch.nonzero(y > 0).sum()  # one place, three calls
        return torch.relu(y) + y[y > 0].sum()


def test_check_lists_every_refused_call_in_one_run(tmp_path):
    refusals = check(_Refused(), torch.randn(4, 8))
    ops = [op for op, _, _ in refusals]
    assert ops == ["torch.quantile", "torch.nanquantile", "torch.nonzero", "torch.nonzero", "torch.nonzero",
                   "torch.Tensor.__getitem__"], refusals
    lines, first = inspect.getsourcelines(_Refused.forward)
    assert all(where.endswith(tuple(f"test_capture.py:{n}" for n in range(first, first + len(lines)))) for _, where, _ in refusals), refusals
    assert check(torch.nn.Linear(4, 2), torch.randn(3, 4)) == []

    program = tmp_path / "prog.py"
    program.write_text("import torch\nfrom test_capture import _Refused\ndef make():\n    return _Refused(), (torch.randn(4, 8),)\n")
    env = {"PYTHONPATH": str(REPO / "tests" / "python")}
    result = subprocess.run([sys.executable, REPO / "scripts" / "capture.py", f"{program}:make", "--check"],
                            capture_output=True, text=True, env={**__import__("os").environ, **env})
    assert result.returncode == 1, result.stderr
    assert "6 calls capture would refuse, 4 ops" in result.stdout
    assert "  torch.nonzero: 3 calls\n" in result.stdout and "(3 calls): torch.nonzero gives a result whose shape" in result.stdout
    assert not list(tmp_path.glob("*.json"))


def test_complex_outputs_are_saved_resolved_and_compared_in_both_parts(tmp_path, thundercc):
    """A lazy conjugate is saved as its values, views of one storage as two dtypes are saved apart,
    and --expect compares a complex output's imaginary part as well as its real part."""
    program = tmp_path / "prog.py"
    program.write_text("import torch\n"
                       "def make():\n"
                       "    return (lambda c: (c.conj(), c.mH.imag, c * 2, (c * 2).real)), (torch.randn(2, 3, dtype=torch.complex64),)\n")
    out = tmp_path / "f.json"
    subprocess.run([sys.executable, REPO / "scripts" / "capture.py", f"{program}:make", "-o", out, "--save-io"], check=True)
    thundercc("compile", out, "-o", tmp_path)
    inputs, expected = tmp_path / "f.inputs.pt", tmp_path / "f.expected.pt"
    (c,) = torch.load(inputs)
    torch.testing.assert_close(torch.load(expected)[0], c.conj().resolve_conj())
    thundercc("run", tmp_path / "f.plan.json", "--inputs", inputs, "--expect", expected)
    wrong = list(torch.load(expected))
    wrong[2] = wrong[2] + 5j
    torch.save(tuple(wrong), tmp_path / "wrong.pt")
    result = thundercc("run", tmp_path / "f.plan.json", "--inputs", inputs, "--expect", tmp_path / "wrong.pt", check=False)
    assert result.returncode == 1 and "output 2: 6 of 12 values (real and imaginary parts) differ" in result.stderr, result.stderr


def test_the_front_end_is_a_package_run_from_the_checkout_or_installed(tmp_path):
    program = tmp_path / "m.py"
    program.write_text("import torch\ndef make():\n    return torch.nn.Linear(4, 3), (torch.randn(2, 4),)\n")
    subprocess.run([sys.executable, "-m", "thundercc_frontend", f"{program}:make", "-o", tmp_path / "a.json"], cwd=REPO, check=True)
    installed, source = tmp_path / "site", tmp_path / "source"  # (built from a copy: setuptools writes build/ beside it)
    import shutil
    shutil.copytree(REPO / "thundercc_frontend", source / "thundercc_frontend", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(REPO / "pyproject.toml", source)
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-build-isolation", "--no-deps", "--no-index",
                    "--target", installed, source], check=True, capture_output=True)
    # Installed, it finds thundercc through $THUNDERCC or PATH (no checkout around it).
    env = {**os.environ, "PYTHONPATH": str(installed), "THUNDERCC": str(Path(os.environ["THUNDERCC"]).resolve())}
    subprocess.run([sys.executable, "-m", "thundercc_frontend", f"{program}:make", "-o", tmp_path / "b.json"], cwd=tmp_path, env=env,
                   check=True)
    assert (tmp_path / "a.json").read_text() == (tmp_path / "b.json").read_text().replace("b.json", "a.json")
