"""Random ops: draws come from the seed the plan records (run --seed overrides), the same run to
run and on every executor. They cannot equal eager's stream, so the tests check the distributions
(mean, variance, range, no correlation between calls) and the structure training relies on (the
backward of dropout applies the forward's mask)."""
import pytest
import torch
import torch.nn.functional as F

from conftest import capture

N = 200_000
FLOATS = [torch.float32, torch.float64, torch.bfloat16, torch.float16]

# Meta samples: each random op's shape and dtype against PyTorch's, for every float dtype it takes.
META_SAMPLES = []


def supported(fn, *args):
    try:
        fn(*args)
        return True
    except RuntimeError:  # "bernoulli_scalar_cpu_" not implemented for 'Half', ...
        return False


for dtype in FLOATS:
    a = torch.ones(2, 3, dtype=dtype)
    for name, fn, args in [
            ("rand", lambda: torch.rand(2, 3, dtype=dtype), ()), ("randn", lambda: torch.randn((4,), dtype=dtype), ()),
            ("rand_like", torch.rand_like, (a,)), ("randn_like", torch.randn_like, (a,)),
            ("randint_like", lambda a: torch.randint_like(a, 2, 9), (a,)), ("bernoulli", torch.bernoulli, (a.float() / 2,)),
            ("bernoulli_p", lambda a: torch.bernoulli(a, 0.3), (a,)), ("normal", lambda a: torch.normal(a, 2.0), (a,)),
            ("normal_tensors", torch.normal, (a, torch.ones(3, dtype=dtype))), ("uniform_", lambda a: a.clone().uniform_(-1, 1), (a,)),
            ("normal_", lambda a: a.clone().normal_(1, 2), (a,)), ("bernoulli_", lambda a: a.clone().bernoulli_(0.2), (a,)),
            ("exponential_", lambda a: a.clone().exponential_(), (a,)), ("dropout", F.dropout, (a,)),
            ("dropout2d", lambda a: F.dropout2d(a.reshape(1, 2, 3, 1)), (a,)), ("torch_dropout", lambda a: torch.dropout(a, 0.3, True), (a,)),
            ("dropout3d", lambda a: F.dropout3d(a.reshape(1, 2, 3, 1, 1)), (a,)), ("dropout1d", lambda a: F.dropout1d(a), (a,)),
            ("alpha_dropout", lambda a: F.alpha_dropout(a, 0.2, True), (a,)),
            ("feature_alpha_dropout", lambda a: F.feature_alpha_dropout(a.reshape(1, 2, 3), 0.2, True), (a,)),
            ("rrelu_train", lambda a: F.rrelu(-a, training=True), (a,))]:
        if supported(fn, *args):
            META_SAMPLES.append((f"{name}_{str(dtype)[6:]}", fn, args))
for name, fn, args in [("randint", lambda: torch.randint(10, (5,)), ()), ("randint_low", lambda: torch.randint(-3, 3, (2, 2), dtype=torch.int32), ()),
                       ("multinomial", lambda a: torch.multinomial(a, 2), (torch.ones(2, 4),)),
                       ("multinomial_replacement", lambda a: a.multinomial(6, True), (torch.ones(3, dtype=torch.float64),)),
                       ("rand_empty", lambda: torch.rand(0, 3), ()), ("rand_0d", lambda: torch.rand(()), ()),
                       ("dropout_empty", F.dropout, (torch.ones(0, 2),)),
                       ("rand_complex", lambda: torch.rand(2, 3, dtype=torch.complex64), ()),
                       ("rand_like_complex", torch.rand_like, (torch.ones(4, dtype=torch.complex128),)),
                       ("randn_complex", lambda: torch.randn(3, dtype=torch.complex64), ())]:
    META_SAMPLES.append((name, fn, args))


def test_metas_match_pytorch_and_plans_run(tmp_path, thundercc):
    traces = []
    for name, fn, args in META_SAMPLES:
        captured = capture(fn, *args)
        captured.save(tmp_path / f"{name}.json")
        traces.append((name, tmp_path / f"{name}.json", captured.output_values[0]))
    thundercc("validate", *(path for _, path, _ in traces))
    thundercc("compile", *(path for _, path, _ in traces), "-o", tmp_path)
    for name, _, expected in traces:
        thundercc("run", tmp_path / f"{name}.plan.json", "--fill", "ones", "--outputs", tmp_path / f"{name}.out.pt")
        out = torch.load(tmp_path / f"{name}.out.pt")[0]
        assert out.shape == expected.shape and out.dtype == expected.dtype, name


def random_program(x):
    return (torch.rand(N), torch.rand(N), torch.randn(N), torch.randint(3, 10, (N,)),
            torch.bernoulli(torch.full((N,), 0.3)), torch.normal(2.0, 3.0, size=(N,)),
            torch.empty(N).exponential_(2.0), torch.multinomial(torch.tensor([0.1, 0.2, 0.7]), N, replacement=True),
            torch.nn.functional.dropout(x, 0.25), torch.rand_like(x), torch.randn_like(x))


@pytest.fixture(scope="module")
def random_plans(tmp_path_factory, thundercc):
    directory = tmp_path_factory.mktemp("random")
    capture(random_program, torch.ones(N)).save(directory / "random.json")
    torch.save((torch.ones(N),), directory / "inputs.pt")
    plans = {}
    for executors in ("default", "torch"):
        out = directory / executors
        thundercc("compile", directory / "random.json", "-o", out, *([] if executors == "default" else ["--executors", "torch"]))
        plans[executors] = out / "random.plan.json"
    thundercc("compile", directory / "random.json", "-o", directory / "seeded", "--seed", "7")
    plans["seeded"] = directory / "seeded" / "random.plan.json"
    return directory, plans


def run(thundercc, directory, plan, name, *options):
    out = directory / f"{name}.pt"
    thundercc("run", plan, "--inputs", directory / "inputs.pt", "--outputs", out, *options)
    return [t.double() for t in torch.load(out)]


def test_distributions(random_plans, thundercc):
    directory, plans = random_plans
    rand_a, rand_b, randn, randint, bernoulli, normal, exponential, multinomial, dropout, rand_like, randn_like = \
        run(thundercc, directory, plans["default"], "a")
    for u in (rand_a, rand_b, rand_like):
        assert 0 <= u.min() and u.max() < 1
        assert abs(u.mean() - 0.5) < 0.005 and abs(u.var() - 1 / 12) < 0.002
    for z in (randn, randn_like):
        assert abs(z.mean()) < 0.01 and abs(z.var() - 1) < 0.02
    assert randint.min() == 3 and randint.max() == 9 and abs(randint.mean() - 6) < 0.03
    assert set(bernoulli.unique().tolist()) == {0.0, 1.0} and abs(bernoulli.mean() - 0.3) < 0.005
    assert abs(normal.mean() - 2) < 0.03 and abs(normal.std() - 3) < 0.03
    assert exponential.min() >= 0 and abs(exponential.mean() - 0.5) < 0.005
    counts = torch.bincount(multinomial.long(), minlength=3).double() / N
    assert torch.allclose(counts, torch.tensor([0.1, 0.2, 0.7], dtype=torch.float64), atol=0.005)
    assert abs((dropout == 0).double().mean() - 0.25) < 0.005 and set(dropout.unique().tolist()) == {0.0, torch.tensor(4 / 3).item()}
    # Two calls are two independent draws.
    assert abs(torch.corrcoef(torch.stack([rand_a, rand_b]))[0, 1]) < 0.01
    assert abs(torch.corrcoef(torch.stack([rand_a, rand_like]))[0, 1]) < 0.01


def test_seeds_reproduce_and_executors_agree(random_plans, thundercc):
    directory, plans = random_plans
    first = run(thundercc, directory, plans["default"], "first")
    again = run(thundercc, directory, plans["default"], "again")
    torch_executor = run(thundercc, directory, plans["torch"], "torch")
    other_seed = run(thundercc, directory, plans["default"], "other", "--seed", "7")
    recorded_seed = run(thundercc, directory, plans["seeded"], "recorded")
    for i, (a, b, t, o, r) in enumerate(zip(first, again, torch_executor, other_seed, recorded_seed)):
        assert torch.equal(a, b), f"output {i} differs between two runs of one plan"
        # The draws are the same; arithmetic on them may round differently in a fused kernel.
        assert torch.allclose(a, t, rtol=1e-6, atol=0), f"output {i} differs between executors"
        assert not torch.equal(a, o), f"output {i} is the same under another seed"
        assert torch.equal(o, r), f"output {i}: run --seed 7 differs from a plan compiled with --seed 7"


def test_each_run_draws_anew(random_plans, thundercc):
    directory, plans = random_plans
    # --repeat runs the plan three times in one process; the last run's outputs are written.
    once = run(thundercc, directory, plans["default"], "once")
    thrice = run(thundercc, directory, plans["default"], "thrice", "--repeat", "3")
    assert not torch.equal(once[0], thrice[0])


def test_dropout_backward_reuses_the_forward_mask(tmp_path, thundercc):
    def step(x, w):
        return torch.nn.functional.dropout(x * w, 0.5)

    x, w = torch.randn(256, 64), torch.ones(256, 64, requires_grad=True)
    capture(step, x, w).save(tmp_path / "step.json")
    torch.save((x, w.detach()), tmp_path / "inputs.pt")
    thundercc("compile", tmp_path / "step.json", "-o", tmp_path)
    thundercc("run", tmp_path / "step.plan.json", "--inputs", tmp_path / "inputs.pt", "--outputs", tmp_path / "out.pt",
              "--grads-out", tmp_path / "grads.pt")
    out = torch.load(tmp_path / "out.pt")[0]
    grad_w = torch.load(tmp_path / "grads.pt")[-1]
    # With cotangent ones, d out / d w = x * mask * 2: the forward's own mask, element for element.
    assert set((grad_w / x).round().unique().tolist()) == {0.0, 2.0}
    assert abs((grad_w == 0).double().mean() - 0.5) < 0.02
    assert torch.equal(out, grad_w)


def test_recurrent_dropout_between_layers_trains(tmp_path, thundercc):
    lstm = torch.nn.LSTM(8, 16, num_layers=2, dropout=0.3)
    x = torch.randn(5, 3, 8)
    capture(lstm, x).save(tmp_path / "lstm.json")
    thundercc("compile", tmp_path / "lstm.json", "-o", tmp_path)
    thundercc("run", tmp_path / "lstm.plan.json", "--grads-out", tmp_path / "grads.pt")
    grads = torch.load(tmp_path / "grads.pt")
    assert all(g is None or torch.isfinite(g).all() for g in grads)
    assert "prims.uniform" in (tmp_path / "lstm.forward.trace.py").read_text()  # the dropout between the layers


def test_a_generator_is_refused_by_name(tmp_path, thundercc):
    from thundercc_frontend import CaptureError
    generator = torch.Generator().manual_seed(0)
    with pytest.raises(CaptureError, match="Generator"):
        capture(lambda x: x + torch.rand(3, generator=generator), torch.ones(3))


def test_rrelu_in_training_draws_each_negative_slope(tmp_path, thundercc):
    """F.rrelu(training=True): each negative element scaled by its own slope from U(lower, upper),
    the others passed through; the backward reads the same slopes."""
    x = torch.cat([-torch.ones(N), torch.ones(8)]).requires_grad_()
    captured = capture(lambda x: F.rrelu(x, 0.1, 0.3, training=True), x)
    captured.save(tmp_path / "rrelu.json")
    torch.save((x.detach(),), tmp_path / "inputs.pt")
    thundercc("compile", tmp_path / "rrelu.json", "-o", tmp_path)
    thundercc("run", tmp_path / "rrelu.plan.json", "--inputs", tmp_path / "inputs.pt", "--outputs", tmp_path / "out.pt",
              "--grads-out", tmp_path / "grads.pt")
    out, grad = torch.load(tmp_path / "out.pt")[0].double(), torch.load(tmp_path / "grads.pt")[0].double()
    slopes = -out[:N]
    assert 0.1 <= slopes.min() and slopes.max() < 0.3 and abs(slopes.mean() - 0.2) < 0.002
    assert abs(slopes.var() - 0.2 ** 2 / 12) < 0.0003
    assert torch.equal(out[N:], torch.ones(8, dtype=torch.float64))
    assert torch.equal(grad[:N], slopes) and torch.equal(grad[N:], torch.ones(8, dtype=torch.float64))
