"""The optimizer in the plan (compile --optimizer) and Python-free training (run --steps): SGD and
AdamW steps give torch.optim's losses and parameters, a batch per step ({step} in --inputs), a
checkpoint that --resume continues bit for bit, and clear errors."""
import pytest
import torch

from conftest import assert_same_checkpoints, capture, saveable

STEPS = 20


class Classifier(torch.nn.Module):
    """Linear, LayerNorm, GELU, Linear and a cross-entropy loss: every optimizer state shape (matrices,
    vectors) and a reduction in the step."""

    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(12, 24)
        self.norm = torch.nn.LayerNorm(24)
        self.fc2 = torch.nn.Linear(24, 5)

    def forward(self, x, labels):
        return torch.nn.functional.cross_entropy(self.fc2(torch.nn.functional.gelu(self.norm(self.fc1(x)))), labels)


def batches(steps):
    g = torch.Generator().manual_seed(1)
    return [(torch.randn(8, 12, generator=g), torch.randint(0, 5, (8,), generator=g)) for _ in range(steps)]


def prepared(tmp_path, thundercc, *optimizer):
    """The model captured on the first batch, compiled with `optimizer`, and a file per step's batch."""
    torch.manual_seed(0)
    model = Classifier()
    data = batches(STEPS)
    captured = capture(model, *data[0])
    captured.save(tmp_path / "clf.json")
    thundercc("compile", tmp_path / "clf.json", "-o", tmp_path, *optimizer)
    parameters = [saveable(t) for t in captured.input_values[2:]]
    # The first step's file holds every input; the later ones only the batch (the parameters are the plan's by then).
    for step, (x, labels) in enumerate(data):
        torch.save((x, labels, *(parameters if step == 0 else [])), tmp_path / f"batch.{step}.pt")
    return model, data


def torch_optim_losses(model, data, make_optimizer):
    optimizer = make_optimizer(model.parameters())
    losses = []
    for x, labels in data:
        optimizer.zero_grad()
        loss = model(x, labels)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses


class LossOf(torch.nn.Module):
    """A training step's module: the mean squared error of `net`'s outputs against the targets."""

    def __init__(self, net):
        super().__init__()
        self.net = net

    def forward(self, inputs, targets):
        return torch.nn.functional.mse_loss(self.net(inputs), targets)


def losses_of(stdout):
    """The losses of `run --steps`' lines, `step S: loss L, T ms`."""
    return [float(line.split("loss ")[1].split(",")[0]) for line in stdout.splitlines() if line.startswith("step ")]


@pytest.mark.parametrize("flags,make_optimizer", [
    (["--optimizer", "sgd", "--lr", "0.1"], lambda p: torch.optim.SGD(p, lr=0.1)),
    (["--optimizer", "sgd", "--lr", "0.05", "--momentum", "0.9", "--weight-decay", "0.01"],
     lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.9, weight_decay=0.01)),
    (["--optimizer", "adamw"], lambda p: torch.optim.AdamW(p)),
    (["--optimizer", "adamw", "--lr", "0.01", "--betas", "0.8,0.99", "--eps", "1e-6", "--weight-decay", "0.1"],
     lambda p: torch.optim.AdamW(p, lr=0.01, betas=(0.8, 0.99), eps=1e-6, weight_decay=0.1)),
], ids=["sgd", "sgd_momentum_decay", "adamw", "adamw_options"])
def test_steps_follow_torch_optim(flags, make_optimizer, tmp_path, thundercc):
    model, data = prepared(tmp_path, thundercc, *flags)
    optimizer_trace = (tmp_path / "clf.optimizer.trace.py").read_text()
    assert "def optimizer_step(" in optimizer_trace and "prims.copy_" in optimizer_trace
    result = thundercc("run", tmp_path / "clf.plan.json", "--inputs", tmp_path / "batch.{step}.pt", "--steps", STEPS,
                       "--checkpoint", tmp_path / "end.pt")
    ours = losses_of(result.stdout)
    theirs = torch_optim_losses(model, data, make_optimizer)
    assert len(ours) == STEPS
    torch.testing.assert_close(torch.tensor(ours), torch.tensor(theirs), rtol=1e-4, atol=1e-5)
    # The checkpoint is PyTorch's: the state_dict after the last step equals torch.optim's, and
    # torch.optim loads the optimizer's state.
    saved = torch.load(tmp_path / "end.pt")
    assert saved["step"] == STEPS
    assert set(saved["model"]) == set(model.state_dict())
    for key, theirs_p in model.state_dict().items():
        torch.testing.assert_close(saved["model"][key], theirs_p, rtol=1e-4, atol=1e-5)
    make_optimizer(model.parameters()).load_state_dict(saved["optimizer"])
    # Each step's time, and a summary.
    assert all(line.endswith(" ms") for line in result.stdout.splitlines() if line.startswith("step "))
    assert " ms per step (median; min " in result.stdout


@pytest.mark.parametrize("flags", [["--optimizer", "sgd", "--lr", "0.05", "--momentum", "0.9"], ["--optimizer", "adamw"]],
                         ids=["sgd_momentum", "adamw"])
def test_a_resumed_run_equals_an_uninterrupted_one(flags, tmp_path, thundercc):
    prepared(tmp_path, thundercc, *flags)
    plan, batch = tmp_path / "clf.plan.json", tmp_path / "batch.{step}.pt"
    whole = thundercc("run", plan, "--inputs", batch, "--steps", STEPS, "--checkpoint", tmp_path / "whole.pt")
    thundercc("run", plan, "--inputs", batch, "--steps", 7, "--checkpoint", tmp_path / "part.pt")
    rest = thundercc("run", plan, "--inputs", batch, "--steps", STEPS - 7, "--resume", tmp_path / "part.pt",
                     "--checkpoint", tmp_path / "resumed.pt")
    # The resumed run takes the batches from step 7 on and prints their numbers; parameters and state equal bit for bit.
    assert rest.stdout.splitlines()[0].startswith("step 7: loss ")
    assert losses_of(rest.stdout) == losses_of(whole.stdout)[7:]
    whole, resumed = torch.load(tmp_path / "whole.pt"), torch.load(tmp_path / "resumed.pt")
    assert whole["step"] == STEPS
    assert_same_checkpoints(whole, resumed)


@pytest.mark.parametrize("flags,make_optimizer", [
    (["--optimizer", "sgd", "--lr", "0.05", "--momentum", "0.9"], lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.9)),
    (["--optimizer", "adamw"], lambda p: torch.optim.AdamW(p)),
], ids=["sgd_momentum", "adamw"])
def test_pytorch_continues_from_a_checkpoint(flags, make_optimizer, tmp_path, thundercc):
    """A checkpoint is what PyTorch saves: load_state_dict takes its model and optimizer, and the
    steps torch.optim then takes are the ones thundercc takes after --resume."""
    model, data = prepared(tmp_path, thundercc, *flags)
    plan, batch = tmp_path / "clf.plan.json", tmp_path / "batch.{step}.pt"
    thundercc("run", plan, "--inputs", batch, "--steps", 7, "--checkpoint", tmp_path / "part.pt")
    ours = losses_of(thundercc("run", plan, "--inputs", batch, "--steps", STEPS - 7, "--resume", tmp_path / "part.pt").stdout)
    checkpoint = torch.load(tmp_path / "part.pt")
    model.load_state_dict(checkpoint["model"])
    optimizer = make_optimizer(model.parameters())
    optimizer.load_state_dict(checkpoint["optimizer"])
    theirs = torch_optim_losses(model, data[7:], lambda _: optimizer)
    torch.testing.assert_close(torch.tensor(ours), torch.tensor(theirs), rtol=1e-4, atol=1e-5)


def test_optimizer_errors(tmp_path, thundercc):
    prepared(tmp_path, thundercc)  # no --optimizer
    plan, batch = tmp_path / "clf.plan.json", tmp_path / "batch.{step}.pt"

    def fails(*args, code=1):
        result = thundercc(*args, check=False)
        assert result.returncode == code, result.stderr
        return result.stderr

    assert "compile it with --optimizer sgd|adamw" in fails("run", plan, "--inputs", batch, "--steps", 2)
    assert "--optimizer sgd needs --lr" in fails("compile", tmp_path / "clf.json", "-o", tmp_path / "x", "--optimizer", "sgd", code=2)
    assert "--momentum is SGD's" in fails("compile", tmp_path / "clf.json", "-o", tmp_path / "x", "--optimizer", "adamw",
                                          "--momentum", "0.9", code=2)
    assert "--checkpoint" in fails("run", plan, "--inputs", batch, "--checkpoint", tmp_path / "c.pt", code=2)
    thundercc("compile", tmp_path / "clf.json", "-o", tmp_path / "sgd", "--optimizer", "sgd", "--lr", "0.1", "--momentum", "0.9")
    # A later step's file with neither every input nor just the batch.
    torch.save(batches(1)[0][:1], tmp_path / "short.1.pt")
    torch.save(torch.load(tmp_path / "batch.0.pt"), tmp_path / "short.0.pt")
    assert "holds 1 tensors: the program's 8 inputs, or the 2 that are not the module's parameters and buffers, were expected" in fails(
        "run", tmp_path / "sgd" / "clf.plan.json", "--inputs", tmp_path / "short.{step}.pt", "--steps", 2)
    # An inference program has nothing to update.
    with torch.no_grad():
        captured = capture(Classifier(), *batches(1)[0])
    captured.save(tmp_path / "inference.json")
    assert "--optimizer ends a training step" in fails("compile", tmp_path / "inference.json", "-o", tmp_path / "y", "--optimizer", "adamw")
    # A checkpoint of another optimizer's plan is refused.
    thundercc("run", tmp_path / "sgd" / "clf.plan.json", "--inputs", batch, "--steps", 1, "--checkpoint", tmp_path / "sgd.pt")
    thundercc("compile", tmp_path / "clf.json", "-o", tmp_path / "adamw", "--optimizer", "adamw")
    assert "the checkpoint has no optimizer state 'exp_avg', which this plan trains" in fails("run", tmp_path / "adamw" / "clf.plan.json", "--inputs", batch, "--steps", 1,
                                                      "--resume", tmp_path / "sgd.pt")



def test_missing_step_files_and_output_folders_are_errors_before_the_first_step(tmp_path, thundercc):
    """Found before any step runs, not after the training that would be lost."""
    prepared(tmp_path, thundercc, "--optimizer", "sgd", "--lr", "0.1")
    plan, batch = tmp_path / "clf.plan.json", tmp_path / "batch.{step}.pt"
    result = thundercc("run", plan, "--inputs", batch, "--steps", STEPS + 1, "--checkpoint", tmp_path / "c.pt", check=False)
    assert result.returncode == 1 and "step 0" not in result.stdout
    assert f"batch.{STEPS}.pt: no such file, and step {STEPS} reads it (--steps {STEPS + 1} from step 0)" in result.stderr
    assert not (tmp_path / "c.pt").exists()
    result = thundercc("run", plan, "--inputs", batch, "--steps", 2, "--checkpoint", tmp_path / "missing" / "c.pt", check=False)
    assert result.returncode == 1 and "step 0" not in result.stdout
    assert "c.pt: cannot write: the folder" in result.stderr and "missing does not exist" in result.stderr
