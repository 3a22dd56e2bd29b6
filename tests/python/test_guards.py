"""Data-dependent values: `.item()`, `int(t)`, `float(t)` and `bool(t)` (an `if` on a tensor) are
specialized to the value seen at capture and recorded as a guard, prims.check_tensor_value, that
`thundercc run` checks: another value is a clear error naming the read and the user's line, never
a wrong result."""
import torch

from conftest import capture


def padded_sum(x, lengths):
    longest = int(lengths.max())  # sizes the slice: specialized to the captured value
    return x[:, :longest].sum(1)


def branch(x):
    if x.sum() > 0:
        return x * 2
    return x * 3


def normalized(x):
    return x / x.abs().max().item()


def compile_case(tmp_path, thundercc, name, fn, *args):
    captured = capture(fn, *args)
    captured.save(tmp_path / f"{name}.json")
    thundercc("compile", tmp_path / f"{name}.json", "-o", tmp_path)
    return captured


def run_with(tmp_path, thundercc, name, args, expected=None):
    torch.save(tuple(args), tmp_path / f"{name}.inputs.pt")
    options = ["--inputs", tmp_path / f"{name}.inputs.pt"]
    if expected is not None:
        torch.save((expected,), tmp_path / f"{name}.expected.pt")
        options += ["--expect", tmp_path / f"{name}.expected.pt"]
    return thundercc("run", tmp_path / f"{name}.plan.json", *options, check=False)


def test_the_captured_value_runs_and_another_is_refused_by_name(tmp_path, thundercc):
    x, lengths = torch.randn(3, 8), torch.tensor([5, 2, 4])
    captured = compile_case(tmp_path, thundercc, "padded_sum", padded_sum, x, lengths)
    assert [b["symbol"] for b in captured.bound_symbols].count("prims.check_tensor_value") == 1
    trace = (tmp_path / "padded_sum.trace.py").read_text()
    assert "prims.check_tensor_value" in trace or "check_tensor_value" in trace
    same = run_with(tmp_path, thundercc, "padded_sum", (torch.randn(3, 8), torch.tensor([1, 5, 3])))
    assert same.returncode == 0, same.stderr
    other = run_with(tmp_path, thundercc, "padded_sum", (x, torch.tensor([6, 2, 4])))
    assert other.returncode == 1
    assert "guard failed" in other.stderr and "test_guards.py:" in other.stderr and "int(lengths.max())" in other.stderr
    assert "gave 5 when the program was captured" in other.stderr and "is 6 now" in other.stderr


def test_a_branch_on_a_tensor_is_guarded(tmp_path, thundercc):
    x = torch.ones(4)
    compile_case(tmp_path, thundercc, "branch", branch, x)
    taken = run_with(tmp_path, thundercc, "branch", (torch.full((4,), 3.0),), expected=torch.full((4,), 6.0))
    assert taken.returncode == 0, taken.stderr
    other = run_with(tmp_path, thundercc, "branch", (-x,))
    assert other.returncode == 1 and "gave True when the program was captured" in other.stderr and "is False now" in other.stderr


def test_a_float_value_is_guarded_within_rounding(tmp_path, thundercc):
    x = torch.randn(16)
    compile_case(tmp_path, thundercc, "normalized", normalized, x)
    assert run_with(tmp_path, thundercc, "normalized", (x,), expected=normalized(x)).returncode == 0
    other = run_with(tmp_path, thundercc, "normalized", (x * 2,))
    assert other.returncode == 1 and "guard failed" in other.stderr and ".item()" in other.stderr


def test_guards_stay_in_a_training_step(tmp_path, thundercc):
    w = torch.randn(3, 8, requires_grad=True)
    lengths = torch.tensor([5, 2, 4])
    compile_case(tmp_path, thundercc, "step", padded_sum, w, lengths)
    assert "check_tensor_value" in (tmp_path / "step.forward.trace.py").read_text()
    assert run_with(tmp_path, thundercc, "step", (w.detach(), torch.tensor([7, 1, 1]))).returncode == 1
