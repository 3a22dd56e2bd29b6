"""Symbolic sizes end to end: a program captured once with --dynamic, compiled once, runs at other
sizes in the symbols' ranges and matches eager PyTorch there (the reference at each size is a
static capture of the same program at that size: its inputs, eager outputs and autograd's
gradients); sizes outside the ranges, or that the trace's sizes cannot take, are clear errors."""
import json
import os
import subprocess
import sys
import textwrap

import pytest
import torch

from conftest import REPO

PROGRAMS = textwrap.dedent("""
    import os, sys
    import torch, torchvision
    sys.path.insert(0, {models!r})
    from decoder import Decoder

    def size(default):
        return int(os.environ.get("SIZE", default))

    def resnet18():
        torch.manual_seed(0)
        model = torchvision.models.resnet18().eval()
        torch.manual_seed(size(1))
        return model, (torch.randn(size(1), 3, 64, 64),)

    def decoder():  # positions for 64 tokens, captured at 16
        torch.manual_seed(0)
        model = Decoder(block_size=64).eval()
        torch.manual_seed(size(16))
        return model, (torch.randint(0, 96, (2, size(16))),)

    def decoder_training():  # a training step, captured at batch 2
        torch.manual_seed(0)
        model = Decoder(block_size=64)
        torch.manual_seed(size(2))
        return model, (torch.randint(0, 96, (size(2), 16)),)

    class Halves(torch.nn.Module):
        def forward(self, x):
            return x.view(x.shape[0] // 2, -1) * 2

    class Branch(torch.nn.Module):
        def forward(self, x):
            return torch.relu(x) if x.shape[0] > 3 else x * 2

    def branch():
        return Branch(), (torch.randn(5, 4),)

    def halves():
        torch.manual_seed(size(4))
        return Halves(), (torch.randn(size(4), 3),)
""")


@pytest.fixture()
def programs(tmp_path):
    path = tmp_path / "programs.py"
    path.write_text(PROGRAMS.format(models=str(REPO / "examples" / "models")))
    return path


def capture(programs, factory, out, *options, size=None):
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    if size is not None:
        env["SIZE"] = str(size)
    subprocess.run([sys.executable, "-m", "thundercc_frontend", f"{programs}:{factory}", "-o", str(out), "--save-io", *options],
                   check=True, capture_output=True, text=True, env=env)
    return out


def compiled_dynamic(tmp_path, thundercc, programs, factory, *options):
    trace = capture(programs, factory, tmp_path / "dynamic" / "m.json", *options)
    thundercc("compile", trace, "-o", tmp_path / "dynamic")
    return tmp_path / "dynamic" / "m.plan.json"


def reference(tmp_path, programs, factory, size, *options):
    """A static capture at `size`: the stem of its inputs, eager outputs (and gradients)."""
    return capture(programs, factory, tmp_path / f"at{size}" / "m.json", *options, size=size).with_suffix("")


def test_a_vision_model_captured_at_batch_1_runs_at_batch_3_and_5(tmp_path, thundercc, programs):
    plan = compiled_dynamic(tmp_path, thundercc, programs, "resnet18", "--inference", "--dynamic", "x:0:1:8")
    symbolic = json.loads(plan.with_name("m.json").read_text())
    assert symbolic["symbols"] == [{"name": "s0", "input": "x", "dim": 0, "min": 1, "max": 8, "hint": 1}]
    assert symbolic["inputs"][0]["tensor"]["shape"] == [{"symint": "s0"}, 3, 64, 64]
    assert json.loads(plan.read_text())["dynamic"]["trace"] == symbolic
    for size in (3, 5, 1):
        at = reference(tmp_path, programs, "resnet18", size, "--inference")
        result = thundercc("run", plan, "--inputs", f"{at}.inputs.pt", "--expect", f"{at}.expected.pt", "--rtol", "1e-4", "--atol", "1e-4")
        assert "outputs match" in result.stdout


def test_a_gpt_captured_at_sequence_16_runs_at_32_and_48(tmp_path, thundercc, programs):
    """The positions (arange(T)), the causal mask's slice [:T, :T] and the heads' views follow T;
    --profile times the plan compiled for the call's sizes."""
    plan = compiled_dynamic(tmp_path, thundercc, programs, "decoder", "--inference", "--dynamic", "idx:1:1:64")
    for size in (32, 48):
        at = reference(tmp_path, programs, "decoder", size, "--inference")
        result = thundercc("run", plan, "--inputs", f"{at}.inputs.pt", "--expect", f"{at}.expected.pt", "--profile", "--repeat", "2")
        assert "outputs match" in result.stdout
        assert "instruction" in result.stdout


def test_a_training_step_with_a_dynamic_batch_matches_autograd(tmp_path, thundercc, programs):
    plan = compiled_dynamic(tmp_path, thundercc, programs, "decoder_training", "--grad", "--dynamic", "idx:0:1:8")
    for size in (3, 5):
        at = reference(tmp_path, programs, "decoder_training", size, "--grad")
        result = thundercc("run", plan, "--inputs", f"{at}.inputs.pt", "--expect", f"{at}.expected.pt",
                           "--expect-grads", f"{at}.grads.pt", "--rtol", "1e-4", "--atol", "1e-4")
        assert "outputs match" in result.stdout and "gradients match" in result.stdout


def test_a_size_outside_the_range_is_an_error_naming_the_input_and_the_symbol(tmp_path, thundercc, programs):
    plan = compiled_dynamic(tmp_path, thundercc, programs, "decoder", "--inference", "--dynamic", "idx:1:8:32")
    at = reference(tmp_path, programs, "decoder", 40, "--inference")
    result = thundercc("run", plan, "--inputs", f"{at}.inputs.pt", check=False)
    assert result.returncode == 1
    assert "input 'idx': dimension 1 is 40, outside the range of s0 = idx.shape[1] in [8, 32]" in result.stderr


def test_a_size_the_trace_cannot_take_is_an_error_naming_the_statement(tmp_path, thundercc, programs):
    """x.view(x.shape[0] // 2, -1) captured at even sizes holds for even sizes only: at 7, eager
    PyTorch makes a 3 x 7 view, which the trace (a view of s0/2 rows of 6) does not say."""
    plan = compiled_dynamic(tmp_path, thundercc, programs, "halves", "--dynamic", "x:0:2:64")
    view = json.loads(plan.with_name("m.json").read_text())["bound_symbols"][0]
    assert view["args"][1] == {"symint": "(s0)/2"}
    at = reference(tmp_path, programs, "halves", 10)
    assert "outputs match" in thundercc("run", plan, "--inputs", f"{at}.inputs.pt", "--expect", f"{at}.expected.pt").stdout
    odd = reference(tmp_path, programs, "halves", 7)
    result = thundercc("run", plan, "--inputs", f"{odd}.inputs.pt", check=False)
    assert result.returncode == 1
    assert "at s0 = 7: statement 0 (torch.Tensor.view at" in result.stderr and "not an integer" in result.stderr


def test_a_branch_on_a_size_is_refused_where_the_samples_cross_it(tmp_path, programs):
    """Captured at 5, sampled at 10, 15 and the range's least size, 1, where the branch turns."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    command = [sys.executable, "-m", "thundercc_frontend", f"{programs}:branch", "-o", str(tmp_path / "b.json"), "--dynamic"]
    refused = subprocess.run(command + ["x:0"], capture_output=True, text=True, env=env)
    assert refused.returncode == 1 and not (tmp_path / "b.json").exists()
    assert ("statement 0 (torch.relu at " in refused.stderr and "is not the same at x.shape[0] = 1 as at 5: its symbol changes "
            "from \"torch.relu\" to \"torch.Tensor.mul\"" in refused.stderr)
    # Over a range the branch does not turn in, the trace holds.
    subprocess.run(command + ["x:0:4:64"], check=True, capture_output=True, text=True, env=env)


def test_the_plan_names_its_symbols_in_messages_and_printed_traces(tmp_path, thundercc, programs):
    plan = compiled_dynamic(tmp_path, thundercc, programs, "decoder", "--inference", "--dynamic", "idx:1:1:64")
    header = "# Symbolic sizes, here at the sizes captured (run compiles the trace again for others): s0 = idx.shape[1] in [1, 64] (captured at 16)\n"
    assert plan.with_name("m.trace.py").read_text().startswith(header)
    assert thundercc("print", plan.with_name("m.json")).stdout.startswith(header)
    at = reference(tmp_path, programs, "decoder", 32, "--inference")
    inputs = torch.load(f"{at}.inputs.pt")
    torch.save((inputs[0][:1],) + tuple(inputs[1:]), tmp_path / "one_row.pt")
    result = thundercc("run", plan, "--inputs", tmp_path / "one_row.pt", check=False)
    assert result.returncode == 1
    assert "input 'idx': expected cpu i64[2, s0], but got cpu i64[1, 32]" in result.stderr

    # A plan whose trace is another program's is refused when it is read.
    doc = json.loads(plan.read_text())
    doc["dynamic"]["trace"]["inputs"][0]["name"] = "tokens"
    doc["dynamic"]["trace"]["symbols"][0]["input"] = "tokens"
    plan.write_text(json.dumps(doc))
    result = thundercc("run", plan, "--inputs", f"{at}.inputs.pt", check=False)
    assert result.returncode == 1
    assert "/dynamic/trace: its input 'tokens' is not one of the plan's (the trace is another program's)" in result.stderr
