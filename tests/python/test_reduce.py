"""`thundercc reduce`: planted failures in the bundled programs (a wrong recorded shape, a plugin
kernel that returns the wrong shape, one that computes the wrong values) shrink to the statement
that causes them; the reduced trace still fails the same way, and its eager PyTorch script runs and
gives the inputs and outputs that show the difference against eager."""
import json
import os
import re
import subprocess
import sys

import pytest
import torch

from conftest import REPO, run_on_a_terminal, save_case
from test_plugins import plugin

TRACES = REPO / "traces"


def reduce(thundercc, trace, out_dir, *args, check=True):
    return thundercc("reduce", trace, "-o", out_dir, *args, check=check)


def reduced(out_dir, name):
    return json.loads((out_dir / f"{name}.reduced.json").read_text())


def reduce_gpt2_block_with_faulty(thundercc, out_dir, until, executors):
    """Reduces the GPT-2 block's training step compiled with a faulty plugin executor first; returns
    what reduce printed and the symbols of the reduced program's statements."""
    result = reduce(thundercc, TRACES / "gpt2_block.json", out_dir, "--until", until,
                    "--plugin", plugin("test_faulty"), "--executors", executors)
    assert "reduced from 27 statements to 1," in result.stdout
    return result.stdout, [b["symbol"] for b in reduced(out_dir, "gpt2_block")["bound_symbols"]]


def count_of_tests(stdout):
    return int(re.search(r"in (\d+) tests", stdout).group(1))


def test_a_wrong_recorded_shape_reduces_to_its_statement(tmp_path, thundercc):
    trace = json.loads((TRACES / "llama_block.json").read_text())
    planted = trace["bound_symbols"][40]
    planted["output"]["tensor"]["shape"][-1] += 1
    bad = tmp_path / "llama_block.json"
    bad.write_text(json.dumps(trace))
    failed = thundercc("compile", bad, "-o", tmp_path, check=False)
    assert failed.returncode == 1 and "do not match the meta function's" in failed.stderr

    out = tmp_path / "out"
    out.mkdir()
    result = reduce(thundercc, bad, out, "--until", "compile-fails")
    assert "reduced from 61 statements to 1," in result.stdout
    assert count_of_tests(result.stdout) <= 20
    small = reduced(out, "llama_block")
    assert [b["output"] for b in small["bound_symbols"]] == [planted["output"]]
    again = thundercc("compile", out / "llama_block.reduced.json", "-o", out, check=False)
    assert again.returncode == 1 and "do not match the meta function's" in again.stderr


def test_a_plugin_kernel_of_the_wrong_shape_reduces_to_one_add(tmp_path, thundercc):
    _, symbols = reduce_gpt2_block_with_faulty(thundercc, tmp_path, "run-fails", "faulty_shape,torch")
    assert symbols == ["torch.Tensor.add"]
    thundercc("compile", tmp_path / "gpt2_block.reduced.json", "-o", tmp_path,
              "--plugin", plugin("test_faulty"), "--executors", "faulty_shape,torch")
    failed = thundercc("run", tmp_path / "gpt2_block.reduced.plan.json", "--plugin", plugin("test_faulty"), check=False)
    assert failed.returncode == 1 and "the kernel of plugin executor 'faulty_shape' is wrong" in failed.stderr


def test_wrong_values_reduce_to_the_gelu_and_its_script_shows_them_against_eager(tmp_path, thundercc):
    stdout, symbols = reduce_gpt2_block_with_faulty(thundercc, tmp_path, "differs", "faulty_gelu,fuser,torch")
    assert "differ from the torch executor's" in stdout
    assert symbols == ["torch.nn.functional.gelu"]
    assert len(reduced(tmp_path, "gpt2_block")["inputs"]) == 1  # the gelu's operand, made by the linear before it in the block

    # The script runs it eagerly and saves its inputs and outputs beside itself.
    script = tmp_path / "gpt2_block.reduced.py"
    subprocess.run([sys.executable, script.name], cwd=tmp_path, check=True, capture_output=True)
    inputs = torch.load(tmp_path / "gpt2_block.reduced.inputs.pt")
    expected = torch.load(tmp_path / "gpt2_block.reduced.expected.pt")
    assert torch.equal(expected[0], torch.nn.functional.gelu(inputs[0], approximate="tanh"))

    # thundercc's plan with the faulty executor differs from eager; with the default executors it does not.
    for executors, differs in (("faulty_gelu,torch", True), ("fuser,torch", False)):
        out = tmp_path / executors.split(",")[0]
        out.mkdir()
        thundercc("compile", tmp_path / "gpt2_block.reduced.json", "-o", out, "--plugin", plugin("test_faulty"), "--executors", executors)
        run = thundercc("run", out / "gpt2_block.reduced.plan.json", "--plugin", plugin("test_faulty"),
                        "--inputs", tmp_path / "gpt2_block.reduced.inputs.pt", "--expect", tmp_path / "gpt2_block.reduced.expected.pt",
                        check=False)
        assert (run.returncode == 1 and "elements differ" in run.stderr) if differs else run.returncode == 0, run.stderr


def nan_where_tanh_is_negative(x, y):
    a = torch.sin(x) * y
    b = torch.tanh(a - 0.5)
    c = torch.exp(b) + x
    return c.sum(-1), torch.cos(y)


def test_nan_against_numbers_reduces_to_the_tanh(tmp_path, thundercc):
    trace = save_case(tmp_path, "nan_tanh", nan_where_tanh_is_negative, (torch.randn(4, 8), torch.randn(4, 8)))
    out = tmp_path / "out"
    result = reduce(thundercc, trace, out, "--until", "differs", "--plugin", plugin("test_faulty"), "--executors", "faulty_tanh,torch")
    assert "by up to inf times the tolerance" in result.stdout
    assert [b["symbol"] for b in reduced(out, "nan_tanh")["bound_symbols"]] == ["torch.tanh"]
    subprocess.run([sys.executable, "nan_tanh.reduced.py"], cwd=out, check=True, capture_output=True)
    assert len(torch.load(out / "nan_tanh.reduced.expected.pt")) == 1


@pytest.mark.parametrize("until, why", [
    ("compile-fails", "it compiles"),
    ("run-fails", "its plan runs on random inputs"),
    ("differs", "its outputs and gradients match the torch executor's"),
])
def test_a_program_that_does_not_fail_is_an_error_and_writes_nothing(tmp_path, thundercc, until, why):
    result = reduce(thundercc, TRACES / "mlp.json", tmp_path, "--until", until, check=False)
    assert result.returncode == 1
    assert f"does not fail as --until {until} asks: {why}" in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_bad_uses_are_clear_errors(tmp_path, thundercc):
    other_error = reduce(thundercc, TRACES / "gpt2_block.json", tmp_path, "--until", "run-fails", "--expect-error", "no such text",
                         "--plugin", plugin("test_faulty"), "--executors", "faulty_shape,torch", check=False)
    assert other_error.returncode == 1 and "fails, but its output has no 'no such text'" in other_error.stderr
    a_file = tmp_path / "a_file"
    a_file.write_text("")
    not_a_folder = reduce(thundercc, TRACES / "mlp.json", a_file, "--until", "run-fails", check=False)
    assert not_a_folder.returncode == 1 and "a_file" in not_a_folder.stderr
    plan = tmp_path / "mlp.plan.json"
    thundercc("compile", TRACES / "mlp.json", "-o", tmp_path)
    not_a_trace = reduce(thundercc, plan, tmp_path, "--until", "run-fails", check=False)
    assert not_a_trace.returncode == 1 and "is not a trace" in not_a_trace.stderr
    no_until = reduce(thundercc, TRACES / "mlp.json", tmp_path, check=False)
    assert no_until.returncode == 2 and "--until is required" in no_until.stderr
    unknown_executor = reduce(thundercc, TRACES / "mlp.json", tmp_path, "--until", "differs", "--executors", "nvfuser", check=False)
    assert unknown_executor.returncode == 1 and "nvfuser" in unknown_executor.stderr


def test_compile_options_after_a_double_dash_go_to_every_candidate(tmp_path, thundercc):
    """A failure that needs compile's options (a training step with an optimizer here) is reduced
    with them; its script's commands carry them; options compile refuses are an error at once."""
    trace = json.loads((TRACES / "mlp.json").read_text())
    trace["bound_symbols"][2]["output"]["tensor"]["shape"][-1] += 1
    bad = tmp_path / "mlp.json"
    bad.write_text(json.dumps(trace))
    result = reduce(thundercc, bad, tmp_path, "--until", "compile-fails", "--", "--optimizer", "sgd", "--lr", "0.1")
    assert "reduced from" in result.stdout
    assert "#   thundercc compile mlp.reduced.json --optimizer sgd --lr 0.1" in (tmp_path / "mlp.reduced.py").read_text()
    refused = reduce(thundercc, bad, tmp_path, "--until", "compile-fails", "--", "--bogus", check=False)
    assert refused.returncode == 1 and "compile refuses the options given after --: The following argument was not expected: --bogus" in refused.stderr


def test_progress_shows_on_a_terminal_and_nowhere_else(tmp_path, thundercc):
    """On a terminal (stderr a pty) reduce says which test it runs, in place, and clears the line;
    piped, its stderr stays quiet."""
    trace = json.loads((TRACES / "llama_block.json").read_text())
    trace["bound_symbols"][40]["output"]["tensor"]["shape"][-1] += 1
    bad = tmp_path / "llama_block.json"
    bad.write_text(json.dumps(trace))
    done, shown = run_on_a_terminal([os.environ["THUNDERCC"], "reduce", bad, "-o", tmp_path / "tty", "--until", "compile-fails"])
    assert done.returncode == 0
    assert re.search(rb"reduce: test \d+, trying 61 of 61 statements; the smallest that fails so far has 61", shown)
    assert b"trying 1 of 61 statements" in shown
    assert shown.endswith(b"\r\x1b[K")  # the line cleared, before the result on stdout
    piped = reduce(thundercc, bad, tmp_path / "piped", "--until", "compile-fails")
    assert piped.stderr == ""
