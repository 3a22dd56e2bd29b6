"""thundercc_frontend.compile: capture, compile and run in this process, as thunder.jit's callable.
Results against eager PyTorch: inference, a training step's gradients through loss.backward(),
the program's output structure, weights read at every call, and the errors a user meets."""
import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch
import torchvision

import thundercc_frontend as tcc


class Classifier(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.body = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.GELU(), torch.nn.LayerNorm(16), torch.nn.Linear(16, 4))

    def forward(self, x):
        return torch.log_softmax(self.body(x), -1)


@pytest.fixture(autouse=True)
def seeded():
    torch.manual_seed(0)


def test_a_module_runs_in_process_as_eager_does(thundercc, tmp_path):
    model = Classifier().eval()
    x = torch.randn(5, 8)
    with torch.no_grad():
        fast = tcc.compile(model, x, workdir=tmp_path)
        other = torch.randn(5, 8)
        torch.testing.assert_close(fast(other), model(other))
    assert fast.plan_path.exists() and fast.trace_path.exists()
    assert "def computation" in fast.execution_trace() or "def " in fast.execution_trace()


def test_compiling_leaves_a_training_batch_norms_statistics_as_they_were(thundercc, tmp_path):
    """Capture runs the program once; compile puts back what that run modified, so that a call of
    the compiled module updates the running statistics once, as one eager call does."""
    import copy
    model = torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3), torch.nn.BatchNorm2d(4), torch.nn.ReLU()).train()
    eager = copy.deepcopy(model)
    x = torch.randn(2, 3, 8, 8)
    fast = tcc.compile(model, x, workdir=tmp_path)
    for name, value in eager.state_dict().items():
        assert torch.equal(model.state_dict()[name], value), name
    fast(x)
    eager(x)
    for name, value in eager.state_dict().items():
        torch.testing.assert_close(model.state_dict()[name], value, msg=name)


def test_a_torchvision_model(thundercc, tmp_path):
    model = torchvision.models.resnet18(num_classes=10).eval()
    x = torch.randn(2, 3, 64, 64)
    with torch.no_grad():
        fast = tcc.compile(model, x, workdir=tmp_path)
        other = torch.randn(2, 3, 64, 64)
        torch.testing.assert_close(fast(other), model(other), rtol=1e-4, atol=1e-4)


def test_loss_backward_runs_the_plans_backward(thundercc, tmp_path):
    model = Classifier()
    eager_model = Classifier()
    eager_model.load_state_dict(model.state_dict())
    x, target = torch.randn(5, 8), torch.tensor([0, 3, 1, 2, 3])
    fast = tcc.compile(model, x, workdir=tmp_path)
    assert fast.plan.has_backward
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    eager_optimizer = torch.optim.SGD(eager_model.parameters(), lr=0.1)
    for _ in range(3):  # steps of torch.optim on the parameters the plan reads at each call
        other = torch.randn(5, 8)
        for m, opt, call in ((model, optimizer, fast), (eager_model, eager_optimizer, eager_model)):
            opt.zero_grad()
            torch.nn.functional.nll_loss(call(other), target).backward()
            opt.step()
        for (name, p), q in zip(model.named_parameters(), eager_model.parameters()):
            torch.testing.assert_close(p.grad, q.grad, msg=name)
            torch.testing.assert_close(p, q, msg=name)


def test_a_backward_after_another_call_is_refused_not_wrong(thundercc, tmp_path):
    model = Classifier()
    fast = tcc.compile(model, torch.randn(2, 8), workdir=tmp_path)
    first = fast(torch.randn(2, 8)).sum()
    fast(torch.randn(2, 8))
    with pytest.raises(RuntimeError, match="later call replaced"):
        first.backward()


def test_a_second_backward_and_a_double_backward_are_refused_not_wrong(thundercc, tmp_path):
    model = Classifier()
    fast = tcc.compile(model, torch.randn(2, 8), workdir=tmp_path)
    loss = fast(torch.randn(2, 8)).sum()
    loss.backward(retain_graph=True)
    with pytest.raises(RuntimeError, match="this call's backward already ran"):
        loss.backward()
    x = torch.randn(2, 8, requires_grad=True)
    of_x = tcc.compile(model, x, workdir=tmp_path / "of_x")
    with pytest.raises(RuntimeError, match="create_graph=True, a gradient penalty"):  # the penalty would add nothing
        torch.autograd.grad(of_x(x).sum(), x, create_graph=True)


def test_the_train_or_eval_mode_is_specialized_and_checked(thundercc, tmp_path):
    model = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.BatchNorm1d(8), torch.nn.Dropout(0.5)).train()
    fast = tcc.compile(model, torch.randn(4, 8), workdir=tmp_path)
    model.eval()
    with pytest.raises(ValueError, match=r"the module \(the root\) was compiled in training mode and is now in eval mode"):
        fast(torch.randn(4, 8))
    model.train()
    model[2].eval()  # the root as compiled, a submodule not
    with pytest.raises(ValueError, match="the module 2 was compiled in training mode and is now in eval mode"):
        fast(torch.randn(4, 8))


def test_inputs_sharing_memory_are_refused_where_the_program_modifies_them(thundercc, tmp_path):
    def accumulate(a, b):
        a.add_(1)
        return a * b

    fast = tcc.compile(accumulate, torch.ones(3), torch.ones(3), workdir=tmp_path)
    x = torch.arange(3.0)
    with pytest.raises(ValueError, match="inputs a and b overlap in memory, and the program modifies its inputs in place"):
        fast(x, x)
    torch.testing.assert_close(fast(x, x.clone()), accumulate(torch.arange(3.0), torch.arange(3.0)))
    buffer = torch.arange(6.0)
    torch.testing.assert_close(fast(buffer[:3], buffer[3:]), accumulate(torch.arange(3.0), torch.arange(3.0, 6.0)))


def test_an_input_that_now_requires_grad_is_refused_not_left_without_gradient(thundercc, tmp_path):
    model = Classifier()
    fast = tcc.compile(model, torch.randn(2, 8), workdir=tmp_path)  # x without requires_grad: no gradient for it
    with pytest.raises(ValueError, match="x requires grad, but did not when the program was compiled"):
        fast(torch.randn(2, 8, requires_grad=True))
    with torch.no_grad():
        fast(torch.randn(2, 8, requires_grad=True))  # no gradient asked for


def test_a_modules_gradients_reach_its_parameters(thundercc, tmp_path):
    model = Classifier()
    x = torch.randn(3, 8, requires_grad=True)
    fast = tcc.compile(model, x, workdir=tmp_path)
    fast(x).pow(2).sum().backward()
    grads = [p.grad.clone() for p in model.parameters()] + [x.grad.clone()]
    model.zero_grad()
    x.grad = None
    model(x).pow(2).sum().backward()
    for got, want in zip(grads, [p.grad for p in model.parameters()] + [x.grad]):
        torch.testing.assert_close(got, want)


def test_the_output_structure_is_the_programs(thundercc, tmp_path):
    def program(x, y):
        return {"sum": x + y, "pair": (x * y, None), "n": 3}

    x, y = torch.randn(4), torch.randn(4)
    fast = tcc.compile(program, x, y, workdir=tmp_path)
    got = fast(y, x)
    assert set(got) == {"sum", "pair", "n"} and got["n"] == 3 and got["pair"][1] is None
    torch.testing.assert_close(got["sum"], y + x)
    torch.testing.assert_close(got["pair"][0], y * x)


def test_weights_are_read_at_every_call(thundercc, tmp_path):
    model = Classifier().eval()
    x = torch.randn(2, 8)
    with torch.no_grad():
        fast = tcc.compile(model, x, workdir=tmp_path)
        model.body[0].weight.mul_(2)
        torch.testing.assert_close(fast(x), model(x))


def test_numbers_are_specialized_and_checked(thundercc, tmp_path):
    def scaled(x, k):
        return x * k

    fast = tcc.compile(scaled, torch.ones(3), 2, workdir=tmp_path)
    torch.testing.assert_close(fast(torch.ones(3), 2), torch.full((3,), 2.0))
    with pytest.raises(ValueError, match="compiled for k=2"):
        fast(torch.ones(3), 3)


def test_a_tensor_of_another_shape_or_dtype_is_refused_by_name(thundercc, tmp_path):
    """Before any instruction runs: the first one's own message (a fused region's, a kernel's
    buffer) would read like a fault of the plan."""
    fast = tcc.compile(lambda x: x.exp(), torch.ones(3), workdir=tmp_path / "fn")
    with pytest.raises(RuntimeError, match=r"input 'x': expected cpu f32\[3\], but got cpu f32\[4\]"):
        fast(torch.ones(4))
    model = torchvision.models.squeezenet1_1(num_classes=10).eval()
    with torch.no_grad():
        fast = tcc.compile(model, torch.randn(2, 3, 64, 64), workdir=tmp_path / "module")
        with pytest.raises(RuntimeError, match=r"input 'x': expected cpu f32\[2, 3, 64, 64\], but got cpu f32\[3, 3, 64, 64\]"):
            fast(torch.randn(3, 3, 64, 64))
        with pytest.raises(RuntimeError, match=r"input 'x': expected cpu f32\[2, 3, 64, 64\], but got cpu f64\[2, 3, 64, 64\]"):
            fast(torch.randn(2, 3, 64, 64, dtype=torch.float64))


def test_what_capture_refuses_is_a_capture_error(thundercc, tmp_path):
    with pytest.raises(tcc.CaptureError, match="nonzero"):
        tcc.compile(lambda x: torch.nonzero(x), torch.ones(3), workdir=tmp_path)


def test_one_install_gives_the_cli_the_front_end_and_the_api(thundercc, tmp_path):
    """cmake --install puts the command, the runtime, the front end and its extension under one
    prefix; the installed front end finds its command with no THUNDERCC and no checkout."""
    build = Path(os.environ["THUNDERCC"]).parent
    prefix = tmp_path / "prefix"
    subprocess.run(["cmake", "--install", build, "--prefix", prefix], check=True, capture_output=True)
    env = {k: v for k, v in os.environ.items() if k not in ("THUNDERCC", "PYTHONPATH")}
    env["PYTHONPATH"] = str(prefix / "lib" / "python3" / "dist-packages")
    program = ("import torch, thundercc_frontend as tcc\n"
               "m = torch.nn.Linear(3, 2)\n"
               "with torch.no_grad():\n"
               "    f = tcc.compile(m, torch.randn(4, 3))\n"
               "    x = torch.randn(4, 3)\n"
               "    print(tcc.thundercc_binary(), torch.allclose(f(x), m(x)))\n")
    done = subprocess.run([sys.executable, "-c", program], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [str(prefix / "bin" / "thundercc"), "True"]
    version = subprocess.run([sys.executable, "-m", "thundercc_frontend", "--version"], cwd=tmp_path, env=env,
                             capture_output=True, text=True)
    assert version.stdout.startswith("thundercc_frontend 0.1.0"), version.stderr
