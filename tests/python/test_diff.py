"""Reviewing a change as CI does: a small decoder with one activation changed (exact GELU against
its tanh approximation, examples/models/decoder.py), captured, compiled as inference and as a
training step, and the execution traces compared with diff(1) under stable names and with
thundercc diff under either naming. Thunder's counter renumbers every value after the change
(hundreds of changed lines); stable names and thundercc diff show the change alone."""
import difflib
import subprocess
import sys

import pytest

from conftest import REPO

VARIANTS = ("make", "make_tanh")
# What the names-erased diff counts for this pair (the change itself): 20 lines in the inference
# and training-forward traces, 58 in the backward. The bounds: 40, 40, twice 58.
BOUNDS = {"inference": 40, "forward": 40, "backward": 116}


def changed_lines(a: str, b: str) -> list[str]:
    return [line for line in difflib.unified_diff(a.splitlines(), b.splitlines(), lineterm="", n=0)
            if line[:1] in "+-" and not line.startswith(("+++", "---"))]


@pytest.fixture(scope="module")
def compiled(tmp_path_factory, thundercc):
    """{(names, variant, part): printed trace path}, and the traces captured."""
    root = tmp_path_factory.mktemp("decoder")
    traces = {}
    for variant in VARIANTS:
        for inference in (False, True):
            trace = root / f"{variant}{'_inference' if inference else ''}.json"
            subprocess.run([sys.executable, REPO / "scripts" / "capture.py", f"examples/models/decoder.py:{variant}", "-o", trace]
                           + (["--inference"] if inference else []), check=True, cwd=REPO, capture_output=True)
            traces[(variant, inference)] = trace
    printed = {}
    for names in ("thunder", "stable"):
        for (variant, inference), trace in traces.items():
            out = root / names / variant
            thundercc("compile", trace, "-o", out, "--names", names)
            stem = trace.stem
            if inference:
                printed[(names, variant, "inference")] = out / f"{stem}.trace.py"
            else:
                printed[(names, variant, "forward")] = out / f"{stem}.forward.trace.py"
                printed[(names, variant, "backward")] = out / f"{stem}.backward.trace.py"
    return printed, traces


@pytest.mark.parametrize("part", BOUNDS)
def test_stable_names_keep_a_one_op_change_to_its_lines(compiled, part):
    printed, _ = compiled
    before, after = (printed[("stable", v, part)].read_text() for v in VARIANTS)
    changed = changed_lines(before, after)
    print(f"{part}: diff(1) of stable names: {len(changed)} changed lines")
    assert 0 < len(changed) <= BOUNDS[part]
    # Every changed line is the GELU's own (its statement, decomposition, gradient, region or frees).
    assert all("gelu" in line for line in changed), [line for line in changed if "gelu" not in line]


@pytest.mark.parametrize("names", ["thunder", "stable"])
@pytest.mark.parametrize("part", BOUNDS)
def test_thundercc_diff_shows_only_the_change(compiled, thundercc, part, names):
    printed, _ = compiled
    before, after = (printed[(names, v, part)] for v in VARIANTS)
    result = thundercc("diff", before, after, check=False)
    assert result.returncode == 1, result.stderr
    changed = [line for line in result.stdout.splitlines() if line[:1] in "+-" and not line.startswith(("+++", "---"))]
    print(f"{part}, {names} names: thundercc diff: {len(changed)} changed lines "
          f"(diff(1): {len(changed_lines(before.read_text(), after.read_text()))})")
    assert 0 < len(changed) <= BOUNDS[part]
    # The removed lines are the exact GELU's (erf), the added ones the approximation's (tanh).
    assert any("prims.erf(" in line for line in changed if line.startswith("-"))
    assert any("prims.tanh(" in line for line in changed if line.startswith("+"))
    assert not any("prims.tanh(" in line for line in changed if line.startswith("-"))


def test_diff_of_traces_names_the_users_line(compiled, thundercc):
    _, traces = compiled
    result = thundercc("diff", traces[("make", False)], traces[("make_tanh", False)], check=False)
    assert result.returncode == 1
    hunks = [line for line in result.stdout.splitlines() if line.startswith("@@")]
    assert hunks and all(line.endswith("examples/models/decoder.py:19") for line in hunks), hunks
    assert "ltorch.gelu(t_h_0_mlp_c_fc_linear_0, approximate='none')" in result.stdout


def test_diff_of_a_trace_with_itself_is_empty(compiled, thundercc):
    printed, traces = compiled
    same = thundercc("diff", printed[("thunder", "make", "backward")], printed[("thunder", "make", "backward")])
    assert same.returncode == 0 and same.stdout == ""
    # The same program under the two namings: only names differ.
    renamed = thundercc("diff", printed[("thunder", "make", "backward")], printed[("stable", "make", "backward")])
    assert renamed.returncode == 0 and renamed.stdout == ""
    missing = thundercc("diff", traces[("make", False)], traces[("make", False)].with_name("missing.json"), check=False)
    assert missing.returncode == 2 and "missing.json: cannot be read" in missing.stderr


def test_stable_names_compute_what_thunders_names_do(compiled, thundercc, tmp_path):
    """Names are names: the two namings give bit-identical outputs and gradients."""
    trace = tmp_path / "decoder.json"
    subprocess.run([sys.executable, REPO / "scripts" / "capture.py", "examples/models/decoder.py:make", "-o", trace,
                    "--save-io"], check=True, cwd=REPO, capture_output=True)
    results = []
    for names in ("thunder", "stable"):
        out = tmp_path / names
        thundercc("compile", trace, "-o", out, "--names", names)
        thundercc("run", out / "decoder.plan.json", "--inputs", tmp_path / "decoder.inputs.pt", "--expect",
                  tmp_path / "decoder.expected.pt", "--outputs", out / "outputs.pt", "--grads-out", out / "grads.pt")
        results.append([(out / f).read_bytes() for f in ("outputs.pt", "grads.pt")])
    import io

    import torch
    loaded = [[torch.load(io.BytesIO(b)) for b in r] for r in results]
    for a, b in zip(loaded[0], loaded[1]):
        assert all((x is None and y is None) or torch.equal(x, y) for x, y in zip(a, b))
