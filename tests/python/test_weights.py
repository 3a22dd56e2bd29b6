"""Weights by name (run --weights): a plan captured from one module runs with another module's
state_dict, as torch.save(module.state_dict()) writes it, mapped by its keys; strict, as
load_state_dict is."""
import json

import pytest
import torch
import torchvision

from conftest import capture, saveable
from test_optimizer import LossOf, losses_of, torch_optim_losses


def compiled(tmp_path, thundercc, module, *args):
    with torch.no_grad():
        captured = capture(module, *args)
    captured.save(tmp_path / "m.json")
    thundercc("compile", tmp_path / "m.json", "-o", tmp_path)
    return tmp_path / "m.plan.json"


def test_a_resnet_runs_with_another_models_state_dict(tmp_path, thundercc):
    """Parameters and buffers (batch norm's statistics, num_batches_tracked) by key; the trace's
    inputs record the keys."""
    torch.manual_seed(0)
    plan = compiled(tmp_path, thundercc, torchvision.models.resnet18().eval(), torch.randn(1, 3, 32, 32))
    fqns = {i["name"]: i.get("fqn") for i in json.loads((tmp_path / "m.json").read_text())["inputs"]}
    assert fqns["t_layer1_0_bn1_running_mean"] == ["layer1.0.bn1.running_mean"] and fqns["x"] is None
    torch.manual_seed(1)
    other = torchvision.models.resnet18()
    with torch.no_grad():
        for m in other.modules():
            if isinstance(m, torch.nn.BatchNorm2d):
                m.running_mean.uniform_(-0.5, 0.5)
                m.running_var.uniform_(0.5, 2.0)
    other.eval()
    torch.save(other.state_dict(), tmp_path / "other.pt")
    x = torch.randn(1, 3, 32, 32)
    torch.save((x,), tmp_path / "x.pt")
    with torch.no_grad():
        torch.save((saveable(other(x)),), tmp_path / "expected.pt")
    result = thundercc("run", plan, "--weights", tmp_path / "other.pt", "--inputs", tmp_path / "x.pt", "--expect", tmp_path / "expected.pt")
    assert "outputs match" in result.stdout


class TiedLanguageModel(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = torch.nn.Embedding(13, 8)
        self.head = torch.nn.Linear(8, 13, bias=False)
        self.head.weight = self.embed.weight  # one parameter, two state_dict keys

    def forward(self, tokens):
        return self.head(torch.tanh(self.embed(tokens)))


def test_a_tied_weight_is_one_input_with_both_keys(tmp_path, thundercc):
    torch.manual_seed(0)
    tokens = torch.randint(0, 13, (2, 5))
    plan = compiled(tmp_path, thundercc, TiedLanguageModel(), tokens)
    torch.manual_seed(1)
    other = TiedLanguageModel()
    torch.save(other.state_dict(), tmp_path / "other.pt")
    torch.save((tokens,), tmp_path / "tokens.pt")
    with torch.no_grad():
        torch.save((other(tokens),), tmp_path / "expected.pt")
    thundercc("run", plan, "--weights", tmp_path / "other.pt", "--inputs", tmp_path / "tokens.pt", "--expect", tmp_path / "expected.pt")


def test_a_state_dict_that_does_not_fit_is_refused(tmp_path, thundercc):
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.BatchNorm1d(3)).eval()
    plan = compiled(tmp_path, thundercc, model, torch.randn(2, 4))
    torch.save((torch.randn(2, 4),), tmp_path / "x.pt")

    def refused(state):
        torch.save(state, tmp_path / "w.pt")
        result = thundercc("run", plan, "--weights", tmp_path / "w.pt", "--inputs", tmp_path / "x.pt", check=False)
        assert result.returncode == 1, result.stdout
        return result.stderr

    state = model.state_dict()
    missing = dict(state)
    del missing["1.running_var"]
    assert "missing keys '1.running_var'" in refused(missing)
    extra = {**state, "2.weight": torch.ones(3)}
    assert "unexpected keys '2.weight'" in refused(extra)
    assert "'0.weight' (the plan's t_0_weight) is not cpu f32[3, 4]" in refused({**state, "0.weight": torch.ones(4, 3)})
    assert "expected a state_dict" in refused((torch.ones(3),))
    assert "'model' holds a dict, not a tensor: a training checkpoint?" in refused({"model": state, "epoch": 3})
    assert "every key of the state_dict has the prefix 'module.'" in refused({"module." + k: v for k, v in state.items()})
    forgot = thundercc("run", plan, "--inputs", tmp_path / "x.pt", check=False)
    assert forgot.returncode == 1 and "give those with --weights FILE" in forgot.stderr
    # A program captured from a function has no parameters by name.
    capture(lambda a, b: a @ b, torch.randn(2, 4), torch.randn(4, 3)).save(tmp_path / "f.json")
    thundercc("compile", tmp_path / "f.json", "-o", tmp_path)
    result = thundercc("run", tmp_path / "f.plan.json", "--weights", tmp_path / "w.pt", check=False)
    assert result.returncode == 1 and "weights by name need a program captured from an nn.Module" in result.stderr


@pytest.mark.parametrize("order", ["batch_only", "every_input"])
def test_weights_then_training_steps(order, tmp_path, thundercc):
    """--weights with --steps: the state_dict's parameters train; the inputs file holds the batch
    (or every input, the parameters in it ignored)."""
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 1))
    x, y = torch.randn(6, 4), torch.randn(6, 1)

    class Step(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.net = model

        def forward(self, inputs, targets):
            return torch.nn.functional.mse_loss(self.net(inputs), targets)

    captured = capture(Step(), x, y)
    captured.save(tmp_path / "s.json")
    thundercc("compile", tmp_path / "s.json", "-o", tmp_path, "--optimizer", "sgd", "--lr", "0.1")
    torch.manual_seed(3)
    other = Step()
    other.net = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 1))
    torch.save(other.state_dict(), tmp_path / "w.pt")
    given = (x, y) if order == "batch_only" else (x, y, *[torch.zeros_like(p) for p in other.parameters()])
    torch.save(given, tmp_path / "b.pt")
    result = thundercc("run", tmp_path / "s.plan.json", "--weights", tmp_path / "w.pt", "--inputs", tmp_path / "b.pt", "--steps", 3)
    ours = [float(line.split("loss ")[1].split(",")[0]) for line in result.stdout.splitlines() if line.startswith("step ")]
    optimizer = torch.optim.SGD(other.parameters(), lr=0.1)
    theirs = []
    for _ in range(3):
        optimizer.zero_grad()
        value = other(x, y)
        value.backward()
        optimizer.step()
        theirs.append(value.item())
    torch.testing.assert_close(torch.tensor(ours), torch.tensor(theirs), rtol=1e-5, atol=1e-6)


def test_one_tensor_under_two_keys_trains_as_two_parameters(tmp_path, thundercc):
    """A state_dict holding one tensor under the keys of two untied parameters (saved from a
    module that tied them): each parameter gets its own copy, as load_state_dict gives it, so the
    optimizer updates each once a step."""
    torch.manual_seed(0)
    step = LossOf(torch.nn.Sequential(torch.nn.Linear(4, 4, bias=False), torch.nn.Tanh(), torch.nn.Linear(4, 4, bias=False)))
    x, y = torch.randn(3, 4), torch.randn(3, 4)
    capture(step, x, y).save(tmp_path / "s.json")
    thundercc("compile", tmp_path / "s.json", "-o", tmp_path, "--optimizer", "sgd", "--lr", "0.5")
    shared = torch.randn(4, 4)
    torch.save({"net.0.weight": shared, "net.2.weight": shared}, tmp_path / "w.pt")
    torch.save((x, y), tmp_path / "b.pt")
    result = thundercc("run", tmp_path / "s.plan.json", "--weights", tmp_path / "w.pt", "--inputs", tmp_path / "b.pt", "--steps", 3)
    step.load_state_dict(torch.load(tmp_path / "w.pt"))
    theirs = torch_optim_losses(step, [(x, y)] * 3, lambda p: torch.optim.SGD(p, lr=0.5))
    torch.testing.assert_close(torch.tensor(losses_of(result.stdout)), torch.tensor(theirs), rtol=1e-5, atol=1e-6)


def test_one_element_files(tmp_path, thundercc):
    """A state_dict of one key and a dict of one input, which LibTorch 1.13's unpickler cannot read
    as written (SETITEM), and a one-element list (APPEND)."""
    torch.manual_seed(0)
    plan = compiled(tmp_path, thundercc, torch.nn.Linear(4, 3, bias=False), torch.randn(2, 4))
    other = torch.nn.Linear(4, 3, bias=False)
    torch.save(other.state_dict(), tmp_path / "w.pt")
    x = torch.randn(2, 4)
    with torch.no_grad():
        torch.save((other(x),), tmp_path / "expected.pt")
    torch.save({"input": x}, tmp_path / "x_dict.pt")
    torch.save([x], tmp_path / "x_list.pt")
    for given in ("x_dict.pt", "x_list.pt"):
        thundercc("run", plan, "--weights", tmp_path / "w.pt", "--inputs", tmp_path / given, "--expect", tmp_path / "expected.pt")
