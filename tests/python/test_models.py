"""The example models end to end: capture (the committed trace is what the front end writes
today), compile (their parameters require grad, so a training step: the golden forward and
backward traces), run on the saved inputs, compare the outputs with PyTorch eager and the
gradients with PyTorch autograd; again with the fusion regions' CUDA kernels under the emulator."""
import json
import subprocess
import sys

import pytest

from conftest import REPO

MODELS = ["mlp", "gpt2_block", "llama_block", "cnn"]


def compile_to_goldens_and_run(thundercc, model, out, names):
    """Compiles the committed trace (with `--names NAMES`, if given), compares the forward and
    backward traces with their goldens (MODEL[.NAMES].PART.trace.py) and runs the plan on the
    committed inputs, equal to the committed eager outputs."""
    thundercc("compile", REPO / "traces" / f"{model}.json", "-o", out, *(["--names", names] if names else []))
    for part in ("forward", "backward"):
        golden = REPO / "tests" / "golden" / ".".join(filter(None, [model, names, part, "trace.py"]))
        assert (out / f"{model}.{part}.trace.py").read_text() == golden.read_text(), golden
    result = thundercc("run", out / f"{model}.plan.json", "--inputs", REPO / "traces" / f"{model}.inputs.pt",
                       "--expect", REPO / "traces" / f"{model}.expected.pt")
    assert "outputs match" in result.stdout


@pytest.mark.parametrize("model", MODELS)
def test_model_end_to_end(model, tmp_path, thundercc):
    trace = tmp_path / f"{model}.json"
    subprocess.run([sys.executable, REPO / "scripts" / "capture.py", f"examples/models/{model}.py:make", "-o", trace, "--save-io", "--grad"],
                   check=True, cwd=REPO, capture_output=True)
    assert json.loads(trace.read_text()) == json.loads((REPO / "traces" / f"{model}.json").read_text())

    compile_to_goldens_and_run(thundercc, model, tmp_path, "")
    # The freshly saved eager outputs agree with the committed ones too.
    result = thundercc("run", tmp_path / f"{model}.plan.json", "--inputs", tmp_path / f"{model}.inputs.pt",
                       "--expect", tmp_path / f"{model}.expected.pt", "--expect-grads", tmp_path / f"{model}.grads.pt")
    assert "outputs match" in result.stdout
    assert "gradients match" in result.stdout
    # Every fusion region of the forward and the backward through its CUDA kernel, under the emulator.
    cuda = tmp_path / "cuda"
    thundercc("compile", REPO / "traces" / f"{model}.json", "-o", cuda, "--emit-cuda")
    result = thundercc("run", cuda / f"{model}.plan.json", "--cuda-emulate", "--inputs", tmp_path / f"{model}.inputs.pt",
                       "--expect", tmp_path / f"{model}.expected.pt", "--expect-grads", tmp_path / f"{model}.grads.pt")
    assert "gradients match" in result.stdout


def test_stable_names_golden_and_run(tmp_path, thundercc):
    """--names stable: the GPT-2 block's training step named for its modules (golden), run equal
    to eager and autograd like Thunder's names."""
    compile_to_goldens_and_run(thundercc, "gpt2_block", tmp_path, "stable")
