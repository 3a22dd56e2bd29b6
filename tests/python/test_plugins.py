"""The seeds' executors as plugins: golden execution traces, executor order, the executor error,
and their numbers against PyTorch."""
import json
import os
import subprocess
from pathlib import Path

import pytest
import torch
import torch.nn.functional as F

from conftest import REPO, build_against_installed_package, save_case

GOLDEN = REPO / "tests" / "golden"


def plugin(name):
    return str(Path(os.environ.get("THUNDERCC_PLUGIN_DIR", REPO / "build" / "examples" / "plugins")) / f"libthundercc_{name}.so")


def compile_trace(thundercc, trace, out_dir, plugin_name, executors, check=True):
    return thundercc("compile", trace, "-o", out_dir, "--plugin", plugin(plugin_name), "--executors", executors, check=check)


def run_plan(thundercc, plan, plugin_name, inputs, expected, check=True):
    return thundercc("run", plan, "--plugin", plugin(plugin_name), "--inputs", inputs, "--expect", expected, check=check)


def test_seed_002_add_executor_claims_prims_add_when_listed_first(tmp_path, thundercc):
    compile_trace(thundercc, REPO / "traces" / "add_mul.json", tmp_path, "add_executor", "custom_add_executor,torch")
    assert (tmp_path / "add_mul.trace.py").read_text() == (GOLDEN / "add_mul.custom_add_executor.trace.py").read_text()
    plan = json.loads((tmp_path / "add_mul.plan.json").read_text())
    assert plan["plugins"] == [{"name": "custom_add_executor", "version": "0.1"}]

    def fun(a, b):
        return a + b * a
    trace = save_case(tmp_path, "fun", fun, (torch.randn(2, 2), torch.randn(2, 1)))
    compile_trace(thundercc, trace, tmp_path, "add_executor", "custom_add_executor,torch")
    run_plan(thundercc, tmp_path / "fun.plan.json", "add_executor", tmp_path / "fun.inputs.pt", tmp_path / "fun.expected.pt")

    missing = thundercc("run", tmp_path / "fun.plan.json", check=False)
    assert missing.returncode == 1
    assert "needs plugin executor 'custom_add_executor' 0.1" in missing.stderr


def test_seed_002_torch_first_and_other_inputs_leave_add_to_torch(tmp_path, thundercc):
    compile_trace(thundercc, REPO / "traces" / "add_mul.json", tmp_path, "add_executor", "torch,custom_add_executor")
    assert "t2 = torch.add(a, t1)" in (tmp_path / "add_mul.trace.py").read_text()

    def fun(a, b):
        return a + b * a
    # float64 and a first dimension of 3: the checker declines, torch runs add.
    trace = save_case(tmp_path, "fun64", fun, (torch.randn(3, 2, dtype=torch.float64), torch.randn(3, 1, dtype=torch.float64)))
    compile_trace(thundercc, trace, tmp_path, "add_executor", "custom_add_executor,torch")
    text = (tmp_path / "fun64.trace.py").read_text()
    assert "add_numpy" not in text and "t2 = torch.add(a, t1)" in text


def test_seed_002_add_executor_alone_fails_with_the_executor_error(tmp_path, thundercc):
    result = compile_trace(thundercc, REPO / "traces" / "add_mul.json", tmp_path, "add_executor", "custom_add_executor", check=False)
    assert result.returncode == 1
    assert "Failed to find an executor for bound symbol t1 = ltorch.mul(b, a)" in result.stderr
    assert "# t0 = prims.broadcast_in_dim(b, [2, 2], (0, 1))" in result.stderr
    assert not list(tmp_path.iterdir()), "a failed compile leaves no files"


@pytest.mark.parametrize("executor", ["myex", "myex_contiguous"])
def test_seed_001_multimul(tmp_path, thundercc, executor):
    compile_trace(thundercc, REPO / "traces" / "mul.json", tmp_path, "multimul", f"{executor},torch")
    assert (tmp_path / "mul.trace.py").read_text() == (GOLDEN / f"mul.{executor}.trace.py").read_text()

    def bar(a, b):
        return a * b
    trace = save_case(tmp_path, "bar", bar, (torch.randn(3, 4).t(), torch.randn(4, 3)))  # a non-contiguous input
    compile_trace(thundercc, trace, tmp_path, "multimul", f"{executor},torch")
    run_plan(thundercc, tmp_path / "bar.plan.json", "multimul", tmp_path / "bar.inputs.pt", tmp_path / "bar.expected.pt")

    # The checker declines a multiplication of two numbers: nothing to claim, torch keeps the rest.
    def scaled(a):
        return a * 2.0
    trace = save_case(tmp_path, "scaled", scaled, (torch.randn(3),))
    compile_trace(thundercc, trace, tmp_path, "multimul", f"{executor},torch")
    run_plan(thundercc, tmp_path / "scaled.plan.json", "multimul", tmp_path / "scaled.inputs.pt", tmp_path / "scaled.expected.pt")


def test_seeds_000_004_xentropy_golden_trace(tmp_path, thundercc):
    compile_trace(thundercc, REPO / "traces" / "cross_entropy.json", tmp_path, "xentropy", "apex_xentropy,torch")
    assert (tmp_path / "cross_entropy.trace.py").read_text() == (GOLDEN / "cross_entropy.apex_xentropy.trace.py").read_text()


@pytest.mark.parametrize("reduction", ["none", "sum", "mean"])
@pytest.mark.parametrize("smoothing", [0.0, 0.1])
def test_seeds_000_004_xentropy_forward_matches_pytorch(tmp_path, thundercc, reduction, smoothing):
    def loss(logits, labels):
        return F.cross_entropy(logits, labels, reduction=reduction, ignore_index=-1, label_smoothing=smoothing)
    labels = torch.randint(0, 1000, (64,))
    labels[::7] = -1
    trace = save_case(tmp_path, "xe", loss, (torch.randn(64, 1000), labels))
    compile_trace(thundercc, trace, tmp_path, "xentropy", "apex_xentropy,torch")
    assert "apex_xentropy(logits, labels, None, None, -1, None," in (tmp_path / "xe.trace.py").read_text()
    run_plan(thundercc, tmp_path / "xe.plan.json", "xentropy", tmp_path / "xe.inputs.pt", tmp_path / "xe.expected.pt")


def test_seed_004_xentropy_backward_matches_autograd(tmp_path, thundercc):
    """A trace calling the executor's forward and backward operators directly, checked against
    autograd's gradient of cross_entropy(reduction='none') for a given incoming gradient."""
    torch.manual_seed(0)
    logits = torch.randn(32, 500, dtype=torch.float64)
    labels = torch.randint(0, 500, (32,))
    labels[::5] = -1
    grad = torch.randn(32, dtype=torch.float64)
    meta = lambda t: {"shape": list(t.shape), "dtype": {torch.float64: "float64", torch.int64: "int64", torch.float32: "float32"}[t.dtype],
                      "device": "cpu", "requires_grad": False}
    trace = {
        "format": "thundercc.trace", "version": 1, "name": "xentropy_fwd_bwd",
        "inputs": [{"name": "logits", "tensor": meta(logits)}, {"name": "labels", "tensor": meta(labels)},
                   {"name": "grad", "tensor": meta(grad)}],
        "bound_symbols": [
            {"symbol": "apex_xentropy:xentropy_forward", "args": [{"ref": "logits"}, {"ref": "labels"}],
             "kwargs": {"ignore_index": -1, "reduction": "none", "label_smoothing": 0.1},
             "output": {"tuple": [{"tensor": dict(name="t0", **meta(grad))}, {"tensor": dict(name="t1", **meta(grad))}]}},
            {"symbol": "apex_xentropy:xentropy_backward",
             "args": [{"ref": "grad"}, {"ref": "logits"}, {"ref": "labels"}, {"ref": "t1"}, 0.1], "kwargs": {"ignore_index": -1},
             "output": {"tensor": dict(name="t2", **meta(logits))}},
        ],
        "output": {"tuple": [{"ref": "t0"}, {"ref": "t2"}]},
    }
    (tmp_path / "fwd_bwd.json").write_text(json.dumps(trace))
    x = logits.clone().requires_grad_(True)
    losses = F.cross_entropy(x, labels, reduction="none", ignore_index=-1, label_smoothing=0.1)
    (expected_grad,) = torch.autograd.grad(losses, x, grad)
    torch.save((logits, labels, grad), tmp_path / "fwd_bwd.inputs.pt")
    torch.save((losses.detach(), expected_grad), tmp_path / "fwd_bwd.expected.pt")
    thundercc("compile", tmp_path / "fwd_bwd.json", "-o", tmp_path, "--plugin", plugin("xentropy"))
    run_plan(thundercc, tmp_path / "fwd_bwd.plan.json", "xentropy", tmp_path / "fwd_bwd.inputs.pt", tmp_path / "fwd_bwd.expected.pt")


@pytest.mark.parametrize("reduction", ["none", "sum", "mean"])
@pytest.mark.parametrize("smoothing", [0.0, 0.1])
def test_seed_004_cross_entropy_custom_forward_and_backward(tmp_path, thundercc, reduction, smoothing):
    """Seed 004: with the xentropy plugin loaded, the training step of cross_entropy runs the
    plugin's augmented forward (xentropy_forward) and backward (xentropy_backward); the losses and
    the logits' gradient match autograd."""
    torch.manual_seed(0)
    logits = torch.randn(64, 1000, dtype=torch.float64, requires_grad=True)
    labels = torch.randint(0, 1000, (64,))
    labels[::7] = -1

    def loss(logits, labels):
        return F.cross_entropy(logits, labels, reduction=reduction, ignore_index=-1, label_smoothing=smoothing)
    trace = save_case(tmp_path, "xe", loss, (logits, labels))
    out = loss(logits, labels)
    cotangent = torch.randn_like(out)
    (grad,) = torch.autograd.grad(out, logits, cotangent)
    torch.save((cotangent,), tmp_path / "xe.cotangents.pt")
    torch.save((grad,), tmp_path / "xe.grads.pt")

    compile_trace(thundercc, trace, tmp_path, "xentropy", "apex_xentropy,torch")
    forward = (tmp_path / "xe.forward.trace.py").read_text()
    backward = (tmp_path / "xe.backward.trace.py").read_text()
    assert "xentropy_forward(logits, labels, None, None, -1, None, 'none'," in forward
    assert "xentropy_backward(" in backward and "log_softmax" not in forward + backward
    if smoothing == 0.0:
        for part, text in (("forward", forward), ("backward", backward)):
            assert text == (GOLDEN / f"xentropy_{reduction}.{part}.trace.py").read_text()
    result = thundercc("run", tmp_path / "xe.plan.json", "--plugin", plugin("xentropy"), "--inputs", tmp_path / "xe.inputs.pt",
                       "--expect", tmp_path / "xe.expected.pt", "--cotangents", tmp_path / "xe.cotangents.pt",
                       "--expect-grads", tmp_path / "xe.grads.pt")
    assert "gradients match" in result.stdout


def test_seed_004_cross_entropy_outside_the_checker_differentiates_the_decomposition(tmp_path, thundercc):
    """Class weights are outside what the plugin's rule accepts: the decomposition is differentiated."""
    logits = torch.randn(8, 5, dtype=torch.float64, requires_grad=True)
    weight = torch.rand(5, dtype=torch.float64)
    trace = save_case(tmp_path, "xw", lambda a, t, w: F.cross_entropy(a, t, weight=w), (logits, torch.randint(0, 5, (8,)), weight))
    compile_trace(thundercc, trace, tmp_path, "xentropy", "apex_xentropy,torch")
    assert "xentropy" not in (tmp_path / "xw.forward.trace.py").read_text() + (tmp_path / "xw.backward.trace.py").read_text()


@pytest.mark.parametrize("with_multimul", [False, True])
def test_seed_001_grad(tmp_path, thundercc, with_multimul):
    """Seed 001's `grad` of a * b: with the torch executor, two muls by the seeded ones; with myex,
    its grad transform makes the backward one multimul(b, g, a, g). The gradients are b and a."""
    a, b = torch.randn(2, 2, requires_grad=True), torch.randn(2, 2, requires_grad=True)
    trace = save_case(tmp_path, "bar", lambda a, b: a * b, (a, b))
    args = ["--plugin", plugin("multimul"), "--executors", "myex,torch"] if with_multimul else ["--executors", "torch"]
    thundercc("compile", trace, "-o", tmp_path, "--transform", "grad", *args)
    golden = GOLDEN / f"bar.grad{'.myex' if with_multimul else ''}.trace.py"
    assert (tmp_path / "bar.trace.py").read_text() == golden.read_text()
    torch.save((b.detach(), a.detach()), tmp_path / "bar.grads.pt")
    run_args = ["--plugin", plugin("multimul")] if with_multimul else []
    result = thundercc("run", tmp_path / "bar.plan.json", "--inputs", tmp_path / "bar.inputs.pt", "--expect", tmp_path / "bar.grads.pt", *run_args)
    assert "outputs match" in result.stdout


def test_a_plugins_wrong_result_is_blamed_on_its_own_instruction(tmp_path, thundercc):
    """The faulty test plugin (tests/plugins/faulty.cpp): a kernel that returns the wrong shape
    fails at its own instruction, naming it; a kernel registered under another id than its
    operator's says so, though the plugin is loaded."""
    compile_trace(thundercc, REPO / "traces" / "add_mul.json", tmp_path, "test_faulty", "faulty_shape,torch")
    plan = json.loads((tmp_path / "add_mul.plan.json").read_text())
    (add,) = [i for i in plan["instructions"] if i["executor"] == "faulty_shape"]
    assert add["expect"] == [{"shape": [2, 2], "dtype": "float32", "device": "cpu", "requires_grad": False}]
    result = thundercc("run", tmp_path / "add_mul.plan.json", "--plugin", plugin("test_faulty"), "--fill", "ones", check=False)
    assert result.returncode == 1, result.stderr
    assert "/instructions/1: t2 = add(a, t1): its kernel returned output 0 as cpu f32[4], but the statement makes cpu f32[2, 2] " \
           "(the kernel of plugin executor 'faulty_shape' is wrong)" in result.stderr, result.stderr
    compile_trace(thundercc, REPO / "traces" / "mul.json", tmp_path, "test_faulty", "faulty_id,torch")
    result = thundercc("run", tmp_path / "mul.plan.json", "--plugin", plugin("test_faulty"), "--fill", "ones", check=False)
    assert result.returncode == 1
    assert "no kernel for 'faulty_id:mul' (the plugin" in result.stderr and "registers no kernel under this id" in result.stderr, \
        result.stderr


def test_a_plugin_builds_against_the_installed_package_as_the_readme_says(tmp_path):
    """docs/plugins.md's recipe: install thundercc, build the example plugin with
    find_package(thundercc) in two commands, compile and run a program with it, its outputs
    compared with eager's. (test_docs_commands.py runs the page's block as written, and checks that
    the page's plugin is examples/plugin_package/my_plugin.cpp word for word.)"""
    prefix, built = build_against_installed_package(tmp_path, "plugin_package")
    run = lambda *args: subprocess.run([str(a) for a in args], check=True, capture_output=True, text=True, cwd=REPO)
    library = built / "libmy_plugin.so"
    thundercc = prefix / "bin" / "thundercc"
    run(thundercc, "compile", "traces/mul.json", "-o", tmp_path / "out", "--plugin", library)
    assert "t0 = my_mul(a, b)" in (tmp_path / "out" / "mul.trace.py").read_text()
    a, b = torch.randn(2, 2), torch.randn(2, 2)
    torch.save((a, b), tmp_path / "in.pt")
    torch.save((a * b,), tmp_path / "expected.pt")
    result = run(thundercc, "run", tmp_path / "out" / "mul.plan.json", "--plugin", library, "--inputs", tmp_path / "in.pt",
                 "--expect", tmp_path / "expected.pt")
    assert "outputs match" in result.stdout
