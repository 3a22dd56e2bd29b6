"""Gradients of every differentiable sample of the meta-function table, in float64: thundercc's
backward against PyTorch autograd (same inputs, random cotangents), and the vector-Jacobian check
<J u, v> = <u, J^T v> with J u from central finite differences of PyTorch eager and J^T v from
thundercc's backward."""
import os
import zlib
import subprocess

import torch

from conftest import capture, compile_and_run, flatten
from thundercc_frontend import saveable
from test_meta_vs_torch import SAMPLES

RANDOM = ("dropout", "rand")
# The samples whose complex inputs are differentiated too: the ops whose prims have rules declared
# for complex values (others, such as exp of a complex tensor, are refused by name).
COMPLEX_GRADS = ("abs_complex", "real_", "imag_", "view_as_real_", "conj_", "complex_mul_div_", "mH_", "H_", "angle_torch.complex",
                 "stft_complex_input", "istft", "index_select_complex", "cumsum_complex")
# Factorizations whose gradients have no rule yet: refused by name (test below).
NO_GRAD_RULE = ("linalg_lu", "lu_unpack", "lu_solve_torch", "lu_torch", "linalg_eig_general", "linalg_eigvals_general", "householder_product")
# Gradients that finite differences cannot see: detach cuts a dependence the function has; a
# function of a Hermitian matrix reads one triangle, where autograd's gradient (and so thundercc's)
# is the symmetric one; a loss that compares its target with 1 and -1 is moved off both by any
# step of finite differences, and so are the repeated values a mode is made of; torch.svd without
# compute_uv returns zeros that require no grad among its outputs, which the check below pairs
# with the cotangents in order.
NOT_BY_FINITE_DIFFERENCES = ("detach", "cholesky", "eigvalsh", "eigh", "symeig", "hinge_embedding_loss", "cosine_embedding_loss",
                             "mode_of_repeated_values", "svd_torch_no_uv")


# Left out where eager's gradient overflows and thundercc's is finite: frexp's is grad /
# exponent.exp2(), the int32 exponent raised in float32, where 2 ** -1029 (a float64 subnormal's) is 0.
EAGER_OVERFLOWS = ("frexp_extremes",)


def as_real(t):
    return torch.view_as_real(t) if t.is_complex() else t


def differentiable_cases():
    torch.manual_seed(1)
    for i, sample in enumerate(SAMPLES):
        fn, args, kwargs = sample.values
        name = f"g{i:03d}_{sample.id.rsplit('-', 1)[0]}"
        if any(r in name for r in RANDOM) or any(r in name for r in NO_GRAD_RULE) or any(r in name for r in EAGER_OVERFLOWS):
            continue
        # The dtype sweep's float16/bfloat16 copies are the float32 samples rounded: in float64 they
        # add nothing but values that land on kinks (clamp's bounds), where finite differences fail.
        if name.endswith(("_float16", "_bfloat16")) and any(isinstance(a, torch.Tensor) and a.dtype in (torch.float16, torch.bfloat16)
                                                          for a in args):
            continue
        differentiated = lambda a: isinstance(a, torch.Tensor) and (a.is_floating_point() or (a.is_complex() and name.split("_", 1)[1].startswith(COMPLEX_GRADS)))
        args = tuple(a.detach().to(torch.complex128 if a.is_complex() else torch.float64).requires_grad_(True) if differentiated(a) else a
                     for a in args)
        wanted = [a for a in args if isinstance(a, torch.Tensor) and a.requires_grad]
        if not wanted:
            continue
        try:
            outputs = [o for o in flatten(fn(*args, **kwargs)) if o.requires_grad]
            # PyTorch differentiates it (not nll_loss's weight, not nextafter).
            torch.autograd.grad(outputs, wanted, [torch.ones_like(o) for o in outputs], allow_unused=True, retain_graph=True)
        except (RuntimeError, NotImplementedError):
            continue
        if not outputs or any(a.numel() == 0 for a in wanted):
            continue
        yield name, fn, args, kwargs, wanted, outputs


def test_gradients_match_autograd_and_pass_the_vjp_check(tmp_path, thundercc):
    cases, traces = [], []
    for name, fn, args, kwargs, wanted, outputs in differentiable_cases():
        captured = capture(fn, *args, **kwargs)
        captured.save(tmp_path / f"{name}.json")
        cotangents = [torch.randn_like(o) for o in outputs]
        grads = torch.autograd.grad(outputs, wanted, cotangents, allow_unused=True)
        torch.save(tuple(saveable(t) for t in captured.input_values), tmp_path / f"{name}.inputs.pt")
        torch.save(captured.expected_outputs(), tmp_path / f"{name}.expected.pt")
        torch.save(tuple(cotangents), tmp_path / f"{name}.cotangents.pt")
        # (Saved resolved: autograd gives a conjugate's gradient as a lazily conjugated view, which torch.save drops.)
        torch.save(tuple(None if g is None else saveable(g) for g in grads), tmp_path / f"{name}.grads.pt")
        traces.append(tmp_path / f"{name}.json")
        # The finite-difference side needs float64 outputs defined around the point (no log of a
        # negative number, no -inf fill), and autograd's own gradients finite.
        smooth = all(o.dtype in (torch.float64, torch.complex128) and bool(torch.isfinite(o).all()) for o in outputs) and \
            all(g is None or bool(torch.isfinite(g).all()) for g in grads) and \
            not any(n in name for n in NOT_BY_FINITE_DIFFERENCES)
        cases.append((name, fn, args, kwargs, wanted, cotangents, smooth))
    assert len(cases) > 100, "the table has differentiable samples"
    thundercc("compile", *traces, "-o", tmp_path)
    result = subprocess.run([os.environ["THUNDERCC_CHECK_PLANS"], tmp_path], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr + result.stdout

    failures = []
    checked = 0
    for name, fn, args, kwargs, wanted, cotangents, smooth in cases:
        if not smooth:
            continue
        checked += 1
        ours = torch.load(tmp_path / f"{name}.thundercc_grads.pt")
        # Drawn per case (seeded by its name), so that a sample added to the table moves no other case's draw.
        generator = torch.Generator().manual_seed(zlib.crc32(name.encode()))
        directions = [torch.randn(w.shape, dtype=w.dtype, generator=generator) for w in wanted]
        # (A complex input's gradient g gives the derivative Re(sum(conj(g) u)) along u.)
        eps = 1e-6

        def at(sign):
            it = iter(directions)
            moved = tuple(a.detach() + sign * eps * next(it) if isinstance(a, torch.Tensor) and a.requires_grad else a for a in args)
            with torch.no_grad():
                return [o for o in flatten(fn(*moved, **kwargs)) if o.is_floating_point() or o.is_complex()]
        jvp = [(p - m) / (2 * eps) for p, m in zip(at(1), at(-1))]
        # A complex output y's cotangent v gives the gradient of Re(sum(conj(v) y)) (PyTorch's convention).
        lhs = sum((as_real(j) * as_real(v)).sum() for j, v in zip(jvp, cotangents))
        rhs = sum((as_real(u) * as_real(g)).sum() for u, g in zip(directions, ours) if g is not None)
        if not torch.isclose(torch.as_tensor(lhs, dtype=torch.float64), torch.as_tensor(rhs, dtype=torch.float64), rtol=1e-4, atol=1e-6):
            failures.append(f"{name}: <Ju, v> = {float(lhs)}, <u, J^T v> = {float(rhs)}")
    assert not failures, "\n".join(failures)
    assert checked > 100
    print(f"{len(cases)} differentiable samples match autograd; {checked} pass the VJP check")


def test_a_complex_gradient_without_a_rule_is_refused_by_name(tmp_path, thundercc):
    z = torch.randn(3, dtype=torch.complex128, requires_grad=True)
    capture(lambda z: torch.exp(z).abs(), z).save(tmp_path / "exp.json")
    result = thundercc("compile", tmp_path / "exp.json", "-o", tmp_path, check=False)
    assert result.returncode == 1
    assert "the gradient of prims.exp for complex tensors is not supported" in result.stderr


def test_a_factorization_without_a_grad_rule_is_refused_by_name(tmp_path, thundercc):
    a = torch.randn(4, 3, dtype=torch.float64, requires_grad=True)
    capture(lambda a: torch.linalg.lu_factor(a)[0], a).save(tmp_path / "lu.json")
    result = thundercc("compile", tmp_path / "lu.json", "-o", tmp_path, check=False)
    assert result.returncode == 1 and "Failed to find a gradient transform" in result.stderr and "lu_factor" in result.stderr
    assert not list(tmp_path.glob("lu.*.py"))


class Pieces(torch.nn.Module):
    """Uneven split pieces (the middle one unused, so no gradient reaches it) and chunks."""

    def __init__(self, unused=0.0):
        super().__init__()
        self.w = torch.nn.Parameter(torch.randn(4, 10))

    def forward(self, x):
        a, _, c = torch.split(self.w * x, [3, 3, 4], dim=1)
        p, q = self.w.chunk(2)
        return a.sum() * 2 + (c ** 2).sum() + (p * q).sum()


def pieces(unused):
    torch.manual_seed(0)
    return Pieces(), (torch.randn(4, 10),)


def test_split_and_chunk_gradients_are_one_cat(tmp_path, thundercc):
    """The gradient of split's or chunk's input is the pieces' gradients in one cat (zeros where
    none reaches), not a pad of each to the input's shape and their sum: equal to autograd's."""
    model, args = pieces(0.0)
    compile_and_run(tmp_path, thundercc, model, args, compare=pieces)
    backward = (tmp_path / "m.backward.trace.py").read_text()
    assert backward.count(" = torch.cat(") == 2 and "pad(" not in backward, backward
