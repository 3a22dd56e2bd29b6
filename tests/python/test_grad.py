"""Gradients of every differentiable sample of the meta-function table, in float64: thundercc's
backward against PyTorch autograd (same inputs, random cotangents), and the vector-Jacobian check
<J u, v> = <u, J^T v> with J u from central finite differences of PyTorch eager and J^T v from
thundercc's backward."""
import os
import zlib
import subprocess

import torch

from conftest import capture, flatten
from test_meta_vs_torch import SAMPLES

RANDOM = ("dropout", "rand")
# Differentiable in PyTorch, without a grad rule here yet (the README's "What does not work yet").
NO_RULE_YET = ("digamma", "polygamma")
# Gradients that finite differences cannot see: detach cuts a dependence the function has.
NOT_BY_FINITE_DIFFERENCES = ("detach",)


def differentiable_cases():
    torch.manual_seed(1)
    for i, sample in enumerate(SAMPLES):
        fn, args, kwargs = sample.values
        name = f"g{i:03d}_{sample.id.rsplit('-', 1)[0]}"
        if any(r in name for r in RANDOM + NO_RULE_YET):
            continue
        # The dtype sweep's float16/bfloat16 copies are the float32 samples rounded: in float64 they
        # add nothing but values that land on kinks (clamp's bounds), where finite differences fail.
        if name.endswith(("_float16", "_bfloat16")) and any(isinstance(a, torch.Tensor) and a.dtype in (torch.float16, torch.bfloat16)
                                                          for a in args):
            continue
        args = tuple(a.detach().double().requires_grad_(True) if isinstance(a, torch.Tensor) and a.is_floating_point() else a
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
        torch.save(tuple(t.detach() for t in captured.input_values), tmp_path / f"{name}.inputs.pt")
        torch.save(captured.expected_outputs(), tmp_path / f"{name}.expected.pt")
        torch.save(tuple(cotangents), tmp_path / f"{name}.cotangents.pt")
        torch.save(tuple(None if g is None else g for g in grads), tmp_path / f"{name}.grads.pt")
        traces.append(tmp_path / f"{name}.json")
        # The finite-difference side needs float64 outputs defined around the point (no log of a
        # negative number, no -inf fill), and autograd's own gradients finite.
        smooth = all(o.dtype == torch.float64 and bool(torch.isfinite(o).all()) for o in outputs) and \
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
        eps = 1e-6

        def at(sign):
            it = iter(directions)
            moved = tuple(a.detach() + sign * eps * next(it) if isinstance(a, torch.Tensor) and a.requires_grad else a for a in args)
            with torch.no_grad():
                return [o for o in flatten(fn(*moved, **kwargs)) if o.is_floating_point()]
        jvp = [(p - m) / (2 * eps) for p, m in zip(at(1), at(-1))]
        lhs = sum((j * v).sum() for j, v in zip(jvp, cotangents))
        rhs = sum((u * g).sum() for u, g in zip(directions, ours) if g is not None)
        if not torch.isclose(torch.as_tensor(lhs, dtype=torch.float64), torch.as_tensor(rhs, dtype=torch.float64), rtol=1e-4, atol=1e-6):
            failures.append(f"{name}: <Ju, v> = {float(lhs)}, <u, J^T v> = {float(rhs)}")
    assert not failures, "\n".join(failures)
    assert checked > 100
    print(f"{len(cases)} differentiable samples match autograd; {checked} pass the VJP check")
