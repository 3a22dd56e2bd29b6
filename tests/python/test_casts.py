"""Casts the program writes survive fusion and autodiff bit for bit. Over every ordered pair of the
fuser's dtypes with a float on one side (float to float, float to and from int32 and int64, float
to and from bool), programs that cast, compute in the new dtype and cast back are compiled with
the default executors (the fuser first) and run; their outputs, and the input gradients of the
float pairs, must equal eager's bit for bit. Only the casts a decomposition makes for its own
arithmetic may be elided; `(x.to(torch.float16) * 2).to(torch.float32)` rounds to float16 as eager
does."""
import os
import subprocess

import pytest
import torch

from conftest import capture

FLOATS = (torch.float16, torch.bfloat16, torch.float32, torch.float64)
EXACT = (torch.bool, torch.int32, torch.int64)
PAIRS = [(a, b) for a in FLOATS + EXACT for b in FLOATS + EXACT if a != b and (a in FLOATS or b in FLOATS)]


def short(dtype):
    return str(dtype).removeprefix("torch.")


def values(dtype, wide):
    """Inputs of `dtype` that exercise rounding: halfway cases, subnormals of the 16-bit floats,
    signed zeros and, where every conversion is defined (`wide`), values beyond float16's range.
    Converted to an integer type they stay in range (a float's conversion out of range is undefined
    in C++ and in ATen)."""
    g = torch.Generator().manual_seed(7)
    if dtype == torch.bool:
        return torch.rand(64, generator=g) > 0.5
    if not dtype.is_floating_point:
        return torch.randint(-3000, 3000, (64,), generator=g, dtype=dtype)
    x = torch.randn(64, generator=g, dtype=torch.float64) * 40
    x[:8] = torch.tensor([0.0, -0.0, 1 + 2**-11, 1 + 3 * 2**-11, 1 + 2**-8, 3e-6, -6e-8, 2049.0])
    if wide:
        x[8:12] = torch.tensor([7e4, -1e5, 1e-30, 65519.0])
    return x.to(dtype)


def programs(a, b):
    """(name, fn) over a tensor of dtype `a` casting to `b`."""
    return [
        ("round_trip", lambda x: x.to(b).to(a)),
        ("arithmetic", lambda x: (x.to(b) * 3).to(a) if b != torch.bool else (~x.to(b)).to(a)),
        ("chain", lambda x: (x.to(b) + x.to(b)).to(a) * 2 if b != torch.bool else (x.to(b) | x.to(b)).to(a) * 2),
    ]


def printed(directory, case):
    """The execution trace (a training step's forward)."""
    forward = directory / f"{case}.forward.trace.py"
    return (forward if forward.exists() else directory / f"{case}.trace.py").read_text()


def bits(t):
    """The bit patterns of a tensor (NaN payloads compared as NaN)."""
    if t.dtype == torch.bool:
        return t
    view = {2: torch.int16, 4: torch.int32, 8: torch.int64}[t.element_size()] if t.is_floating_point() else None
    return t.view(view) if view is not None else t


def assert_bitwise_equal(actual, expected, what):
    assert actual.dtype == expected.dtype and actual.shape == expected.shape, what
    if actual.is_floating_point():
        nan = torch.isnan(expected)
        assert torch.equal(torch.isnan(actual), nan), f"{what}: NaN at other places"
        actual, expected = actual[~nan], expected[~nan]
    differ = bits(actual) != bits(expected)
    assert not differ.any(), (f"{what}: {int(differ.sum())} of {differ.numel()} elements differ, "
                              f"first {actual[differ][:4].tolist()} against {expected[differ][:4].tolist()}")


def test_program_casts_are_bit_exact_forward_and_backward(tmp_path, thundercc):
    cases = []
    for a, b in PAIRS:
        wide = a.is_floating_point and b.is_floating_point
        for name, fn in programs(a, b):
            case = f"{short(a)}_{short(b)}_{name}"
            x = values(a, wide)
            grad = a.is_floating_point and b.is_floating_point and name != "chain"
            if grad:
                x = x.detach().requires_grad_(True)
            captured = capture(fn, x)
            captured.save(tmp_path / f"{case}.json")
            out = fn(x)
            torch.save((x.detach(),), tmp_path / f"{case}.inputs.pt")
            torch.save((out.detach(),), tmp_path / f"{case}.expected.pt")
            expected_grad = None
            if grad:
                cotangent = torch.randn(out.shape, generator=torch.Generator().manual_seed(3), dtype=torch.float64).to(a)
                (expected_grad,) = torch.autograd.grad(out, x, cotangent)
                torch.save((cotangent,), tmp_path / f"{case}.cotangents.pt")
            cases.append((case, out.detach(), expected_grad))
    thundercc("compile", *(tmp_path / f"{c}.json" for c, _, _ in cases), "-o", tmp_path)
    # Most of these programs are one fusion region: the casts run in the generated kernels.
    fused = sum(" = fuser_" in printed(tmp_path, c) for c, _, _ in cases)
    assert fused >= len(cases) * 3 // 4, f"only {fused} of {len(cases)} programs fused"
    result = subprocess.run([os.environ["THUNDERCC_CHECK_PLANS"], tmp_path], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr + result.stdout
    grads_checked = 0
    for case, expected, expected_grad in cases:
        (actual,) = torch.load(tmp_path / f"{case}.thundercc_outputs.pt")
        assert_bitwise_equal(actual, expected, case)
        if expected_grad is not None:
            (actual_grad,) = torch.load(tmp_path / f"{case}.thundercc_grads.pt")
            assert_bitwise_equal(actual_grad, expected_grad, f"{case} gradient")
            grads_checked += 1
    assert len(cases) == 3 * len(PAIRS) and grads_checked == 2 * 12
    print(f"{len(cases)} cast programs ({fused} fused) and {grads_checked} gradients equal eager bit for bit")


@pytest.mark.parametrize("program", [lambda x: (x.to(torch.float16) * 2).to(torch.float32),
                                     lambda x: (x.to(torch.bfloat16) * 2).to(torch.float32),
                                     lambda x: (x.half() * 2).float(), lambda x: (x.bfloat16() * 2).float(),
                                     lambda x: (x.half().float() * 3).double().float()],
                         ids=["to_float16", "to_bfloat16", "half", "bfloat16", "methods_chain"])
def test_the_issue_program_rounds_in_low_precision(program, tmp_path, thundercc):
    """The report's program, and its Tensor.half()/.float() spelling: fused, it still rounds the
    product to the 16-bit type."""
    x = torch.randn(32, generator=torch.Generator().manual_seed(0))
    capture(program, x).save(tmp_path / "p.json")
    torch.save((x,), tmp_path / "p.inputs.pt")
    thundercc("compile", tmp_path / "p.json", "-o", tmp_path)
    assert " = fuser_" in (tmp_path / "p.trace.py").read_text()
    thundercc("run", tmp_path / "p.plan.json", "--inputs", tmp_path / "p.inputs.pt", "--outputs", tmp_path / "out.pt")
    (actual,) = torch.load(tmp_path / "out.pt")
    assert_bitwise_equal(actual, program(x), "program")
