"""The example models end to end: capture (the committed trace is what the front end writes
today), compile (the golden execution trace), run on the saved inputs, compare with PyTorch eager."""
import json
import subprocess
import sys

import pytest

from conftest import REPO

MODELS = ["mlp", "gpt2_block", "llama_block", "cnn"]


@pytest.mark.parametrize("model", MODELS)
def test_model_end_to_end(model, tmp_path, thundercc):
    trace = tmp_path / f"{model}.json"
    subprocess.run([sys.executable, REPO / "scripts" / "capture.py", f"examples/models/{model}.py:make", "-o", trace, "--save-io"],
                   check=True, cwd=REPO, capture_output=True)
    assert json.loads(trace.read_text()) == json.loads((REPO / "traces" / f"{model}.json").read_text())

    thundercc("compile", REPO / "traces" / f"{model}.json", "-o", tmp_path)
    assert (tmp_path / f"{model}.trace.py").read_text() == (REPO / "tests" / "golden" / f"{model}.trace.py").read_text()

    result = thundercc("run", tmp_path / f"{model}.plan.json", "--inputs", REPO / "traces" / f"{model}.inputs.pt",
                       "--expect", REPO / "traces" / f"{model}.expected.pt")
    assert "outputs match" in result.stdout
    # The freshly saved eager outputs agree with the committed ones too.
    result = thundercc("run", tmp_path / f"{model}.plan.json", "--inputs", tmp_path / f"{model}.inputs.pt",
                       "--expect", tmp_path / f"{model}.expected.pt")
    assert "outputs match" in result.stdout
