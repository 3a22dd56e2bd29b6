"""Batch-norm folding (README: Batch-norm folding): in an inference program each convolution that
only an eval-mode batch norm reads takes a weight and bias with the batch norm folded in, computed
by the plan's prologue; outputs equal eager's."""
import json

import pytest
import torch
import torchvision

from conftest import capture, saveable


@pytest.mark.parametrize("name", ["resnet18", "mobilenet_v3_large"])
def test_folded_networks_equal_eager(name, tmp_path, thundercc):
    torch.manual_seed(0)
    model = getattr(torchvision.models, name)().eval().requires_grad_(False)
    for module in model.modules():  # statistics of their own, so that the fold has something to fold
        if isinstance(module, torch.nn.BatchNorm2d):
            module.running_mean.uniform_(-0.5, 0.5)
            module.running_var.uniform_(0.5, 2.0)
    x = torch.randn(2, 3, 64, 64)
    captured = capture(model, x)
    captured.save(tmp_path / "net.json")
    torch.save(tuple(saveable(t) for t in captured.input_values), tmp_path / "inputs.pt")
    torch.save(captured.expected_outputs(), tmp_path / "expected.pt")
    thundercc("compile", tmp_path / "net.json", "-o", tmp_path)
    assert "batch_norm" not in (tmp_path / "net.trace.py").read_text()
    prologue = (tmp_path / "net.prologue.trace.py").read_text()
    assert "def prologue(" in prologue and "prims.rsqrt(" in prologue  # inside its fusion regions
    plan = json.loads((tmp_path / "net.plan.json").read_text())
    norms = sum(isinstance(m, torch.nn.BatchNorm2d) for m in model.modules())
    assert len(plan["inputs"]) == len(captured.input_values) + 2 * norms  # each fold's weight and bias
    result = thundercc("run", tmp_path / "net.plan.json", "--inputs", tmp_path / "inputs.pt", "--expect", tmp_path / "expected.pt",
                       "--repeat", "2")
    assert "outputs match" in result.stdout


def test_a_training_step_is_not_folded(tmp_path, thundercc):
    model = torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3), torch.nn.BatchNorm2d(4)).eval()
    capture(model, torch.randn(1, 3, 8, 8)).save(tmp_path / "step.json")
    thundercc("compile", tmp_path / "step.json", "-o", tmp_path)
    assert "batch_norm" in (tmp_path / "step.forward.trace.py").read_text()
    assert not (tmp_path / "step.prologue.trace.py").exists()
