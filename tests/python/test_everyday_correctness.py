"""Programs users bring every day, each of which once gave a wrong number with exit 0, failed
inside the compiler, or was refused: captured, compiled under the default executors and under the
torch executor alone, run, and compared with eager (outputs) and with float64 autograd (gradients)."""
import math
import os
import subprocess

import pytest
import torch
import torch.nn.functional as F

from conftest import capture, flatten, saveable
from test_optimizer import LossOf, losses_of, torch_optim_losses

EXECUTORS = ("default", "torch")


def as_float64(v):
    return v.detach().double().requires_grad_(v.requires_grad) if isinstance(v, torch.Tensor) and v.is_floating_point() else v


def float64_grads(fn, args):
    """Autograd's gradients in float64 of the inputs that require grad, every output seeded with ones."""
    wide = [as_float64(a) for a in args]
    outputs = [o for o in flatten(fn(*wide)) if o.requires_grad]
    wanted = [a for a in wide if isinstance(a, torch.Tensor) and a.requires_grad]
    grads = torch.autograd.grad(outputs, wanted, [torch.ones_like(o) for o in outputs], allow_unused=True)
    given = [a for a in args if isinstance(a, torch.Tensor) and a.requires_grad]
    return [None if g is None else g.to(a.dtype) for g, a in zip(grads, given)]


def through_thundercc(tmp_path, thundercc, fn, args, executors):
    """fn(*args) captured, compiled and run: (outputs, gradients or None, the capture)."""
    folder = tmp_path / executors
    folder.mkdir()
    captured = capture(fn, *args)
    captured.save(folder / "p.json")
    torch.save(tuple(saveable(t) for t in captured.input_values_before()), folder / "inputs.pt")
    thundercc("compile", folder / "p.json", "-o", folder, *(["--executors", "torch"] if executors == "torch" else []))
    wants_grad = any(isinstance(a, torch.Tensor) and a.requires_grad for a in args)
    grads = ["--grads-out", folder / "grads.pt"] if wants_grad else []
    thundercc("run", folder / "p.plan.json", "--inputs", folder / "inputs.pt", "--outputs", folder / "outputs.pt", *grads)
    outputs = torch.load(folder / "outputs.pt")
    return list(outputs), (list(torch.load(folder / "grads.pt")) if wants_grad else None), captured


def check_program(tmp_path, thundercc, fn, *args, rtol=1e-5, atol=1e-5):
    for executors in EXECUTORS:
        outputs, grads, captured = through_thundercc(tmp_path, thundercc, fn, args, executors)
        expected = [t for t in captured.expected_outputs() if t is not None]
        assert len(outputs) == len(expected)
        for ours, theirs in zip(outputs, expected):
            torch.testing.assert_close(ours, theirs, rtol=rtol, atol=atol, equal_nan=True,
                                       msg=lambda m: f"{executors} executors, outputs: {m}")
        if grads is not None:
            for ours, theirs in zip(grads, float64_grads(fn, args)):
                assert (ours is None) == (theirs is None) or (ours is not None and not ours.any()) or \
                    (theirs is not None and not theirs.any()), f"{executors}: a gradient is missing on one side"
                if ours is not None and theirs is not None:
                    torch.testing.assert_close(ours, theirs, rtol=rtol, atol=atol, equal_nan=True,
                                               msg=lambda m: f"{executors} executors, gradients: {m}")


def grad_input(*shape, dtype=torch.float32):
    torch.manual_seed(0)
    return torch.randn(*shape, dtype=dtype).requires_grad_(True)


# Section 1: silent wrong results.

@pytest.mark.parametrize("padding_idx", [0, 3, -1, None])
@pytest.mark.parametrize("scale_grad_by_freq", [False, True])
def test_embedding_gradient_honours_padding_and_frequency_scaling(tmp_path, thundercc, padding_idx, scale_grad_by_freq):
    indices = torch.tensor([[0, 3, 3, 9], [9, 1, 0, 3]])
    weight = grad_input(10, 4)
    check_program(tmp_path, thundercc,
                  lambda i, w: F.embedding(i, w, padding_idx=padding_idx, scale_grad_by_freq=scale_grad_by_freq) * 2.0,
                  indices, weight)


@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
def test_embedding_bag_skips_a_negative_padding_index(tmp_path, thundercc, mode):
    indices = torch.tensor([[1, 9, 2], [9, 9, 4]])
    weight = grad_input(10, 3)
    check_program(tmp_path, thundercc, lambda i, w: F.embedding_bag(i, w, mode=mode, padding_idx=-1), indices, weight)


@pytest.mark.parametrize("p", [0, 1, 2, 3, math.inf])
def test_normalize_of_every_order(tmp_path, thundercc, p):
    x = torch.tensor([[0.0, 2.0, -3.0], [0.0, 0.0, 0.5]])
    check_program(tmp_path, thundercc, lambda x: F.normalize(x, p=p, dim=1), x)


def test_logaddexp_of_equal_infinities(tmp_path, thundercc):
    inf = math.inf
    a = torch.tensor([-inf, inf, -inf, 1.0, 2.0, math.nan])
    b = torch.tensor([-inf, inf, inf, 1.0, -inf, 0.0])
    check_program(tmp_path, thundercc, torch.logaddexp, a, b)


def test_a_branch_after_an_eval_dropout_is_guarded(tmp_path, thundercc):
    dropout = torch.nn.Dropout(0.5).eval()

    def branchy(x):
        y = dropout(x)
        return y * 2 if bool((y > 0).all()) else y - 1

    positive = torch.ones(4)
    captured = capture(branchy, positive)
    assert any(s["symbol"] == "prims.check_tensor_value" for s in captured.bound_symbols), \
        "an identity dropout draws nothing: the branch must be guarded"
    captured.save(tmp_path / "b.json")
    thundercc("compile", tmp_path / "b.json", "-o", tmp_path)
    torch.save((-positive,), tmp_path / "other.pt")
    result = thundercc("run", tmp_path / "b.plan.json", "--inputs", tmp_path / "other.pt", check=False)
    assert result.returncode == 1 and "bool" in result.stderr, result.stderr


def test_a_training_dropout_is_still_a_draw():
    def branchy(x):
        y = F.dropout(x, 0.5, training=True)
        return y * 2 if bool((y > 0).any()) else y - 1

    with pytest.warns(UserWarning, match="randomly drawn"):
        capture(branchy, torch.ones(4))


def test_a_python_number_base_gets_no_gradient(tmp_path, thundercc):
    check_program(tmp_path, thundercc, lambda x: 2.0 ** x + 3 ** x, grad_input(5))


# Section 2: programs that failed inside the compiler.

def test_a_fusion_region_of_seventy_inputs(tmp_path, thundercc):
    torch.manual_seed(0)
    check_program(tmp_path, thundercc, lambda *xs: sum(x * (i + 1) for i, x in enumerate(xs)),
                  *[torch.randn(3).requires_grad_(True) for _ in range(70)])


def test_adamw_in_the_plan_for_a_model_of_many_parameters(tmp_path, thundercc):
    """80 parameter tensors: the optimizer update's fusion region has hundreds of inputs."""
    torch.manual_seed(0)
    step = LossOf(torch.nn.Sequential(*[torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.LayerNorm(8)) for _ in range(20)]))
    x, y = torch.randn(4, 8), torch.randn(4, 8)
    capture(step, x, y).save(tmp_path / "s.json")
    thundercc("compile", tmp_path / "s.json", "-o", tmp_path, "--optimizer", "adamw", "--lr", "0.01")
    torch.save((x, y), tmp_path / "b.pt")
    torch.save(step.state_dict(), tmp_path / "w.pt")
    result = thundercc("run", tmp_path / "s.plan.json", "--weights", tmp_path / "w.pt", "--inputs", tmp_path / "b.pt", "--steps", 3)
    theirs = torch_optim_losses(step, [(x, y)] * 3, lambda p: torch.optim.AdamW(p, lr=0.01))
    torch.testing.assert_close(torch.tensor(losses_of(result.stdout)), torch.tensor(theirs), rtol=1e-4, atol=1e-6)


def test_permute_with_negative_dims_differentiates(tmp_path, thundercc):
    check_program(tmp_path, thundercc, lambda x: x.permute(-1, 0, -2).sin(), grad_input(2, 3, 4))


@pytest.mark.parametrize("op", ["scatter", "scatter_add"])
def test_scatter_gradients_with_an_index_smaller_than_the_input(tmp_path, thundercc, op):
    torch.manual_seed(0)
    index = torch.stack([torch.randperm(10)[:5] for _ in range(3)], 1)  # [5, 3]: no position written twice
    src = grad_input(5, 3)
    x = grad_input(10, 5)
    check_program(tmp_path, thundercc, lambda x, i, s: getattr(torch, op)(x, 0, i, s) * 2, x, index, src)


def test_adaptive_max_pool_keeps_a_none_size(tmp_path, thundercc):
    check_program(tmp_path, thundercc, lambda x: F.adaptive_max_pool2d(x, (None, 3)), grad_input(1, 2, 5, 7))


@pytest.mark.parametrize("program", [
    lambda x: F.glu(x, dim=1),
    lambda x: F.adaptive_avg_pool1d(x, 4),
    lambda x: F.pad(x, (2, 1), mode="circular"),
], ids=["glu", "adaptive_avg_pool1d", "circular_pad"])
def test_gradients_of_an_empty_batch(tmp_path, thundercc, program):
    check_program(tmp_path, thundercc, program, grad_input(0, 4, 6))


@pytest.mark.parametrize("program", [
    lambda t: torch.tensor([t.sum(), t.max()]) + 1,
    lambda t: torch.tensor([[t[0], 2], [t.min(), 0.5]], dtype=torch.float64),
    lambda t: torch.tensor([t.sum().int(), 7]),
], ids=["zero_dim", "nested_mixed", "int32_and_int"])
def test_a_tensor_made_of_tensors_values(tmp_path, thundercc, program):
    check_program(tmp_path, thundercc, program, torch.randn(4))
    # The capture leaves Tensor's indexing as it found it: torch.tensor still reads tensors eagerly.
    assert "__getitem__" not in torch.Tensor.__dict__ and "__setitem__" not in torch.Tensor.__dict__
    assert torch.tensor([torch.ones(()).sum()]).tolist() == [1.0]


# Section 3: everyday calls once refused.

@pytest.mark.parametrize("program", [
    lambda x: x[:, [-1], :] * 2,
    lambda x: x[[0, 2]].sin(),
    lambda x: x[range(2)] + 1,
    lambda x: x[:, [1, 0, 1]],
], ids=["last_position", "rows", "range", "repeated"])
def test_indexing_with_python_lists(tmp_path, thundercc, program):
    check_program(tmp_path, thundercc, program, grad_input(3, 4, 5))


def test_augmented_assignment_into_an_indexed_tensor(tmp_path, thundercc):
    def accumulate(x, v):
        y = x.clone()
        y[1] += v
        y[:, 0] *= 2
        return y

    check_program(tmp_path, thundercc, accumulate, grad_input(3, 4), grad_input(4))


def test_broadcast_tensors_and_new_tensor(tmp_path, thundercc):
    def program(a, b):
        x, y = torch.broadcast_tensors(a, b)
        return x * y + a.new_tensor([1.0, 2.0, 3.0])

    check_program(tmp_path, thundercc, program, grad_input(2, 1), grad_input(3))


def test_a_distribution_log_prob(tmp_path, thundercc):
    check_program(tmp_path, thundercc, lambda loc, x: torch.distributions.Normal(loc, 2.0).log_prob(x), grad_input(3), torch.randn(2, 3))


@pytest.mark.parametrize("lengths", [(3, 5), (2, 4)], ids=["one_full", "all_padded"])
@pytest.mark.parametrize("norm", [False, True])
def test_a_transformer_encoder_with_a_padding_mask(tmp_path, thundercc, lengths, norm):
    """Eval with a padding mask and the defaults: PyTorch's nested-tensor path, whose output has
    zeros at the padding and is as long as the longest sequence."""
    torch.manual_seed(0)
    layer = torch.nn.TransformerEncoderLayer(16, 2, 32, batch_first=True)
    encoder = torch.nn.TransformerEncoder(layer, 2, norm=torch.nn.LayerNorm(16) if norm else None).eval()
    x = torch.randn(2, 5, 16)
    mask = torch.arange(5).unsqueeze(0) >= torch.tensor(lengths).unsqueeze(1)
    with torch.no_grad():
        eager = encoder(x, src_key_padding_mask=mask)
        captured = capture(encoder, x, src_key_padding_mask=mask)
    assert eager.shape[1] == max(lengths)
    captured.save(tmp_path / "e.json")
    torch.save((x, mask), tmp_path / "in.pt")
    torch.save((eager,), tmp_path / "expected.pt")
    torch.save(encoder.state_dict(), tmp_path / "w.pt")
    thundercc("compile", tmp_path / "e.json", "-o", tmp_path)
    thundercc("run", tmp_path / "e.plan.json", "--weights", tmp_path / "w.pt", "--inputs", tmp_path / "in.pt",
              "--expect", tmp_path / "expected.pt", "--rtol", "1e-4", "--atol", "1e-4")
    # A mask padded on the left (which the nested path does not take) is refused by the guards.
    torch.save((x, torch.arange(5).unsqueeze(0).expand(2, 5) < 1), tmp_path / "other.pt")
    result = thundercc("run", tmp_path / "e.plan.json", "--weights", tmp_path / "w.pt", "--inputs", tmp_path / "other.pt", check=False)
    assert result.returncode == 1 and "guard failed" in result.stderr


@pytest.mark.parametrize("base_shape", [(), (5,)])
def test_a_tensor_base_of_rpow(tmp_path, thundercc, base_shape):
    base = (torch.rand(base_shape) + 0.5).requires_grad_(True)
    check_program(tmp_path, thundercc, lambda x, b: x.__rpow__(b), grad_input(5), base)


@pytest.mark.parametrize("program", [
    lambda x: torch.linalg.norm(x),
    lambda x: torch.linalg.vector_norm(x, 3, dim=1),
    lambda x: x.norm(dim=1) + F.normalize(x, dim=1).sum(),
], ids=["norm", "vector_norm_3", "norm_and_normalize"])
def test_norm_gradients_at_a_zero_vector_are_autograds_subgradient(tmp_path, thundercc, program):
    x = torch.zeros(2, 4)
    x[1] = torch.arange(4.0)
    check_program(tmp_path, thundercc, program, x.requires_grad_(True))


@pytest.mark.parametrize("program", [
    lambda x: torch.var(x, 1, correction=2),
    lambda x: torch.std_mean(x, (0, 2), correction=0)[0],
], ids=["var", "std_mean"])
def test_a_variance_keeps_its_correction_in_a_training_step(tmp_path, thundercc, program):
    check_program(tmp_path, thundercc, program, grad_input(2, 5, 3))


@pytest.mark.parametrize("program", [
    lambda x: torch.var(x, True),
    lambda x: x.std(False),
    lambda x: torch.var_mean(x, False)[0] + torch.std_mean(x, True)[1],
], ids=["var", "std", "var_mean_std_mean"])
def test_a_variance_of_every_element_by_pytorchs_unbiased_overload(tmp_path, thundercc, program):
    """torch.var(x, unbiased) (and std, var_mean, std_mean): a bool where the dims would be."""
    check_program(tmp_path, thundercc, program, grad_input(2, 5, 3))


@pytest.mark.parametrize("program", [
    F.elu, F.selu, F.celu, F.mish, F.silu, torch.sigmoid, lambda x: F.softplus(x, beta=2.0, threshold=5.0), F.softplus,
], ids=["elu", "selu", "celu", "mish", "silu", "sigmoid", "softplus_beta2", "softplus"])
def test_saturating_activations_keep_finite_gradients(tmp_path, thundercc, program):
    """Where an activation saturates (|x| of 89 and more in float32), its dropped branch overflows
    (exp(89) is inf) and 0 times inf was a NaN gradient where autograd gives 0 or 1."""
    x = torch.tensor([-200.0, -100.0, -89.0, -10.0, 0.3, 10.0, 89.0, 100.0, 200.0], requires_grad=True)
    check_program(tmp_path, thundercc, program, x)


def test_nansum_of_integers_is_int64(tmp_path, thundercc):
    check_program(tmp_path, thundercc, lambda x, m: torch.nansum(x) + torch.nansum(m, 0), torch.arange(6).reshape(2, 3),
                  torch.tensor([[True, False], [True, True]]))


def test_a_list_key_holding_sequences_or_slices_indexes_as_a_tuple(tmp_path, thundercc):
    """PyTorch's reading (NumPy's former one): x[[[0, 2], [1, 3]]] is x[[0, 2], [1, 3]], and
    x[[slice(None), 0]] is x[:, 0]; a list of ints stays one index."""
    x = torch.arange(60.0).reshape(3, 4, 5).requires_grad_(True)
    check_program(tmp_path, thundercc, lambda x: (x[[[0, 2], [1, 3]]].sum(-1), x[[slice(None), 0]], x[[0, 2]].sum(0)), x)


def test_hypot_neither_overflows_nor_underflows(tmp_path, thundercc):
    """hypot(3e19, 6e19) is 6.7e19 in float32, though 3e19 squared is not a float32 (it was inf),
    and hypot(1e-30, 2e-30) is not 0; infinities win over NaN, as the C library's hypot."""
    a = torch.tensor([3e19, 1e-30, 3.0, 0.0, float("inf"), float("nan"), -5.0], requires_grad=True)
    b = torch.tensor([6e19, 2e-30, 4.0, 1.0, float("nan"), float("-inf"), 12.0], requires_grad=True)
    check_program(tmp_path, thundercc, torch.hypot, a, b)


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_floor_division_and_arange_in_16_bit_floats(tmp_path, thundercc, dtype):
    """The quotient is floored in float before it is rounded (2.999 must not round to 3 first),
    and arange's values are computed in float, as ATen's accumulate type."""
    torch.manual_seed(0)
    a, b = (torch.randn(64) * 8).to(dtype), (torch.rand(64) + 0.1).to(dtype)
    (tmp_path / "div").mkdir()
    (tmp_path / "arange").mkdir()
    check_program(tmp_path / "div", thundercc, lambda a, b: torch.div(a, b, rounding_mode="floor") + a // b, a, b, rtol=0, atol=0)
    check_program(tmp_path / "arange", thundercc, lambda a: a + torch.arange(-3.0, 9.8, 0.2, dtype=dtype), torch.zeros(64, dtype=dtype),
                  rtol=0, atol=0)


def test_a_batched_product_of_an_empty_inner_dimension(tmp_path, thundercc):
    """[5, 5, 0] @ [0, 5]: the rows of the folded product are counted from the shape, not the
    (empty) element count."""
    check_program(tmp_path, thundercc, torch.matmul, torch.randn(5, 5, 0), torch.randn(0, 5))


@pytest.mark.parametrize("program", [
    lambda x: torch.prod(x, 1),
    lambda x: torch.prod(x),
    lambda x: x.prod(0, keepdim=True),
], ids=["dim", "all", "keepdim"])
def test_prod_gradients_at_zeros(tmp_path, thundercc, program):
    x = torch.tensor([[1.0, 0.0, 2.0], [3.0, 4.0, 5.0], [0.0, 0.0, 6.0]]).requires_grad_(True)
    check_program(tmp_path, thundercc, program, x)


def test_cosine_similarity_gradient_with_broadcast_inputs(tmp_path, thundercc):
    torch.manual_seed(0)
    a = torch.randn(1, 2, 3).requires_grad_(True)
    b = torch.randn(2, 1, 3).requires_grad_(True)
    check_program(tmp_path, thundercc, lambda a, b: F.cosine_similarity(a, b, dim=-2), a, b, rtol=1e-4)


@pytest.mark.parametrize("transform", ["ifft", "ihfft"])
def test_a_lazily_conjugated_aten_result_is_written_as_its_values(tmp_path, thundercc, transform):
    """ATen returns ifft and ihfft of a real tensor as lazily conjugated views, which LibTorch's
    pickler writes as the unconjugated memory: plan slots hold them resolved (check_plans writes
    the outputs as a runtime embedding would)."""
    x = torch.randn(3, 8)
    captured = capture(getattr(torch.fft, transform), x)
    captured.save(tmp_path / "f.json")
    torch.save((x,), tmp_path / "f.inputs.pt")
    torch.save(captured.expected_outputs(), tmp_path / "f.expected.pt")
    thundercc("compile", tmp_path / "f.json", "-o", tmp_path)
    checked = subprocess.run([os.environ["THUNDERCC_CHECK_PLANS"], tmp_path], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    torch.testing.assert_close(torch.load(tmp_path / "f.thundercc_outputs.pt")[0], getattr(torch.fft, transform)(x))


@pytest.mark.parametrize("program", [
    lambda x: torch.max(x, 1).values, lambda x: torch.min(x, 0)[0], lambda x: torch.max(torch.relu(x), 0, keepdim=True).values,
    F.relu6, F.hardtanh, F.hardsigmoid,
], ids=["max_dim", "min_dim", "max_dim_of_zeros", "relu6", "hardtanh", "hardsigmoid"])
def test_gradients_at_ties_and_kinks_are_pytorchs(tmp_path, thundercc, program):
    """max/min along a dim give a tie's whole gradient to the returned index (amax spreads it); the
    hardtanh family's gradient is 0 at its bounds (clamp's is not). (hardswish is left out: at 3,
    ATen's vectorized backward gives 1 and its scalar one 1.5, so eager's depends on the tensor.)"""
    x = torch.tensor([[3.0, 1.0, 3.0, 2.0], [0.0, 0.0, 0.0, 0.0], [-3.0, 3.0, 6.0, -1.0], [1.0, -1.0, 0.5, 7.0]], requires_grad=True)
    check_program(tmp_path, thundercc, program, x)


def test_xlogy_gradient_at_zero_and_of_nan(tmp_path, thundercc):
    """xlogy's derivative in x is log(y), also at x = 0 (0 only where y <= 0 too); xlogy(0, nan) is NaN."""
    x = torch.tensor([0.0, 0.0, 1.0, 0.0, 2.0], requires_grad=True)
    y = torch.tensor([2.0, 0.0, 3.0, float("nan"), 0.5], requires_grad=True)
    check_program(tmp_path, thundercc, torch.xlogy, x, y)
    (tmp_path / "of_a_number").mkdir()
    check_program(tmp_path / "of_a_number", thundercc, lambda a: torch.xlogy(a, 2.0), torch.tensor([0.0, 1.0], requires_grad=True))


def test_logcumsumexp_gradient_past_a_leading_minus_infinity(tmp_path, thundercc):
    check_program(tmp_path, thundercc, lambda a: torch.logcumsumexp(a, 0), torch.tensor([float("-inf"), 1.0, float("-inf"), 2.0], requires_grad=True))


@pytest.mark.parametrize("program", [
    lambda x, t: F.binary_cross_entropy_with_logits(x, t, reduction="sum"),
    lambda x, t: F.binary_cross_entropy_with_logits(x, t, pos_weight=torch.tensor([2.0, 0.5, 1.0])),
    lambda x, t: F.binary_cross_entropy_with_logits(x, t, weight=torch.tensor([1.0, 3.0, 0.5]), reduction="none"),
], ids=["sum", "pos_weight", "weight_none"])
def test_logits_binary_cross_entropy_gradient_at_a_zero_logit(tmp_path, thundercc, program):
    """sigmoid(0) - target, where a zero-initialized head's logits start: the decomposition's
    max(-x, 0) and |x| meet their kinks at 0 and gave -target."""
    x = torch.tensor([[0.0, 0.0, 0.5], [0.0, -2.0, 3.0]], requires_grad=True)
    t = torch.tensor([[1.0, 0.0, 0.5], [0.3, 1.0, 0.0]], requires_grad=True)
    check_program(tmp_path, thundercc, program, x, t)


def test_xlog1py_gradient_at_its_pole_and_xlogy_of_a_number(tmp_path, thundercc):
    """xlog1py's derivative in x at x = 0, y = -1 is 0 (log1p(-1) is -inf), as PyTorch's; xlogy
    with a Python number first compiles."""
    x = torch.tensor([0.0, 0.0, 1.0], requires_grad=True)
    y = torch.tensor([-1.0, 2.0, 0.5], requires_grad=True)
    check_program(tmp_path, thundercc, torch.special.xlog1py, x, y)
    (tmp_path / "number_first").mkdir()
    check_program(tmp_path / "number_first", thundercc, lambda b: torch.xlogy(0.0, b) + torch.xlogy(2.0, b),
                  torch.tensor([0.0, 2.0, float("nan")], requires_grad=True))
