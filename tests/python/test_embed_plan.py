"""thundercc's runtime as a library (README: Embedding a plan): examples/embed_plan loads a plan
with Plan::load, gives it a state_dict by name (set_weights), runs it on the other inputs by name
(run) from several threads, each with its own loaded copy of the plan and the same weight tensors,
and swaps the weights between rounds; built in the tree and against the installed package."""
import os
import subprocess
from pathlib import Path

import torch

from conftest import REPO, build_against_installed_package, capture


class SmallClassifier(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.features = torch.nn.Sequential(torch.nn.Conv2d(3, 8, 3, padding=1), torch.nn.BatchNorm2d(8), torch.nn.ReLU(),
                                            torch.nn.AdaptiveAvgPool2d(1), torch.nn.Flatten())
        self.head = torch.nn.Linear(8, 4)

    def forward(self, x):
        return torch.softmax(self.head(self.features(x)), -1)


def compiled(tmp_path, thundercc):
    """The classifier's inference plan, two state_dicts (the second a new initialization with
    other batch-norm statistics), the input by name, and eager's outputs with each state_dict."""
    torch.manual_seed(0)
    model = SmallClassifier().eval().requires_grad_(False)
    x = torch.randn(2, 3, 16, 16)
    capture(model, x).save(tmp_path / "classifier.json")
    thundercc("compile", tmp_path / "classifier.json", "-o", tmp_path)
    torch.save({"x": x}, tmp_path / "x.pt")
    expected = []
    for k in range(2):
        if k:
            model = SmallClassifier().eval().requires_grad_(False)
            model.features[1].running_mean.uniform_(-1, 1)
            model.features[1].running_var.uniform_(0.5, 2)
        torch.save(model.state_dict(), tmp_path / f"weights.{k}.pt")
        expected.append(model(x))
    return expected


def check_rounds(binary, tmp_path, expected, threads):
    result = subprocess.run([binary, tmp_path / "classifier.plan.json", tmp_path / "x.pt", str(threads),
                             tmp_path / "weights.0.pt", tmp_path / "out.0.pt", tmp_path / "weights.1.pt", tmp_path / "out.1.pt"],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"{threads} threads agree" in result.stdout
    for k in range(2):
        (out,) = torch.load(tmp_path / f"out.{k}.pt")
        torch.testing.assert_close(out, expected[k])
    assert not torch.allclose(expected[0], expected[1])  # the swap changed the weights


def embed_plan_binary():
    return Path(os.environ.get("THUNDERCC", REPO / "build" / "thundercc")).resolve().parent / "embed_plan"


def test_a_plan_served_from_cpp_matches_eager_on_threads_and_after_a_weight_swap(tmp_path, thundercc):
    expected = compiled(tmp_path, thundercc)
    check_rounds(embed_plan_binary(), tmp_path, expected, threads=3)


def test_weights_and_inputs_by_name_are_checked(tmp_path, thundercc):
    compiled(tmp_path, thundercc)
    weights = torch.load(tmp_path / "weights.0.pt")
    del weights["head.bias"]
    weights["head.extra"] = torch.zeros(1)
    torch.save(weights, tmp_path / "bad.pt")
    result = subprocess.run([embed_plan_binary(), tmp_path / "classifier.plan.json", tmp_path / "x.pt", "1", tmp_path / "bad.pt",
                             tmp_path / "out.pt"], capture_output=True, text=True, timeout=300)
    assert result.returncode == 1
    assert "bad.pt: the state_dict does not fit the plan: missing keys 'head.bias'; unexpected keys 'head.extra'" in result.stderr
    torch.save({"y": torch.zeros(2, 3, 16, 16)}, tmp_path / "y.pt")
    result = subprocess.run([embed_plan_binary(), tmp_path / "classifier.plan.json", tmp_path / "y.pt", "1", tmp_path / "weights.0.pt",
                             tmp_path / "out.pt"], capture_output=True, text=True, timeout=300)
    assert result.returncode == 1
    assert "the plan has no input 'y' (its inputs other than the module's weights: 'x')" in result.stderr, result.stderr
    torch.save({}, tmp_path / "none.pt")
    result = subprocess.run([embed_plan_binary(), tmp_path / "classifier.plan.json", tmp_path / "none.pt", "1", tmp_path / "weights.0.pt",
                             tmp_path / "out.pt"], capture_output=True, text=True, timeout=300)
    assert result.returncode == 1 and "the plan's input 'x' not given" in result.stderr, result.stderr


def test_the_example_builds_against_the_installed_package(tmp_path, thundercc):
    """README's Embedding a plan: cmake --install, then the example's own CMakeLists with
    find_package(thundercc)."""
    expected = compiled(tmp_path, thundercc)
    _, built = build_against_installed_package(tmp_path, "embed_plan")
    check_rounds(built / "embed_plan", tmp_path, expected, threads=2)
