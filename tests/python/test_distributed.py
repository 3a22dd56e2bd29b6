"""Data parallelism on torch.distributed: a training step compiled with `--distributed ddp` or
`--distributed fsdp` and run by torchrun on 2 or 4 ranks (c10d's TCPStore, Gloo over the loopback),
each rank on its shard of the batch, gives every rank the gradients one process computes on the
whole batch."""
import json
import os
import shutil
import socket
import subprocess
from pathlib import Path

import pytest
import torch

from conftest import assert_same_checkpoints, capture, free_port, saveable

TORCHRUN = shutil.which("torchrun")
pytestmark = pytest.mark.skipif(TORCHRUN is None, reason="torchrun (python3-torch) is not installed")


class TinyLanguageModel(torch.nn.Module):
    """A GPT-style step: embeddings, one causal transformer layer, the next-token loss (a mean)."""

    def __init__(self, vocabulary=11, width=16):
        super().__init__()
        self.embed = torch.nn.Embedding(vocabulary, width)
        self.position = torch.nn.Parameter(torch.randn(6, width) * 0.1)
        self.block = torch.nn.TransformerEncoderLayer(width, 2, 32, dropout=0.0, batch_first=True)
        self.head = torch.nn.Linear(width, vocabulary)

    def forward(self, tokens, targets):
        causal = torch.triu(torch.full((6, 6), float("-inf")), 1)
        h = self.block(self.embed(tokens) + self.position, src_mask=causal)
        return torch.nn.functional.cross_entropy(self.head(h).flatten(0, 1), targets.flatten())


def torchrun(ranks, tmp_path, *command):
    """torchrun as this machine's needs it: --redirects 1 --tee 1 (Debian's torch 1.13 on Python
    3.11 fails without, 'NoneType' object has no attribute 'get'), a free port, logs in tmp_path."""
    return subprocess.run([TORCHRUN, "--no_python", "--nproc_per_node", str(ranks), "--redirects", "1", "--tee", "1",
                           "--master_port", str(free_port()), "--log_dir", tmp_path / "logs", *map(str, command)],
                          capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("ranks,bucket_mb", [(2, "0"), (4, None), (2, "0.002")], ids=["2_ranks_each_alone", "4_ranks", "2_ranks_2kb_buckets"])
def test_ddp_gives_every_rank_the_whole_batch_gradients(ranks, bucket_mb, tmp_path, thundercc):
    """Each rank on its shard of the batch; ranks other than 0 are given other parameters, which
    rank 0's replace (broadcast when the ranks join). With buckets, gradients are reduced together."""
    torch.manual_seed(0)
    model = TinyLanguageModel()
    tokens, targets = torch.randint(0, 11, (2 * ranks, 6)), torch.randint(0, 11, (2 * ranks, 6))
    captured = capture(model, tokens[:2], targets[:2])  # one rank's shard
    captured.save(tmp_path / "lm.json")
    thundercc("compile", tmp_path / "lm.json", "-o", tmp_path, "--distributed", "ddp", *(["--bucket-mb", bucket_mb] if bucket_mb is not None else []))
    backward = (tmp_path / "lm.backward.trace.py").read_text()
    reductions = backward.count("torchex.all_reduce(")
    assert reductions == backward.count("torchex.wait(")
    if bucket_mb == "0":  # each gradient alone
        assert reductions == len(list(model.parameters()))
    elif bucket_mb:  # 2 KB buckets of float32 gradients: fewer reductions than gradients, but more than one
        assert 1 < reductions < len(list(model.parameters()))
    else:  # the default 25 MB: one bucket
        assert reductions == 1
    # Each rank's inputs: its shard of the batch, the same parameters.
    parameters = [saveable(t) for t in captured.input_values[2:]]
    for rank in range(ranks):
        shard = slice(2 * rank, 2 * rank + 2)
        given = parameters if rank == 0 else [p + torch.randn_like(p) for p in parameters]
        torch.save((tokens[shard], targets[shard], *given), tmp_path / f"inputs.{rank}.pt")
    # One process on the whole batch: the gradients every rank must get.
    loss = model(tokens, targets)
    whole = torch.autograd.grad(loss, list(model.parameters()))
    torch.save(tuple(saveable(g) for g in whole), tmp_path / "grads.expected.pt")
    result = torchrun(ranks, tmp_path, Path(os.environ["THUNDERCC"]).resolve(), "run", tmp_path / "lm.plan.json", "--inputs", tmp_path / "inputs.{rank}.pt",
                      "--grads-out", tmp_path / "grads.{rank}.pt", "--expect-grads", tmp_path / "grads.expected.pt",
                      "--rtol", "1e-4", "--atol", "1e-6")
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert result.stdout.count(" MB over gloo ") == ranks  # CPU tensors: Gloo, on every rank
    for rank in range(ranks):
        grads = torch.load(tmp_path / f"grads.{rank}.pt")
        assert len(grads) == len(whole)
        for ours, expected in zip(grads, whole):
            torch.testing.assert_close(ours, expected, rtol=1e-4, atol=1e-6)


def test_a_ddp_plan_alone_is_the_single_process_step(tmp_path, thundercc):
    torch.manual_seed(0)
    model = TinyLanguageModel()
    tokens, targets = torch.randint(0, 11, (2, 6)), torch.randint(0, 11, (2, 6))
    captured = capture(model, tokens, targets)
    captured.save(tmp_path / "lm.json")
    torch.save(tuple(saveable(t) for t in captured.input_values), tmp_path / "inputs.pt")
    torch.save(tuple(saveable(g) for g in torch.autograd.grad(model(tokens, targets), list(model.parameters()))), tmp_path / "g.pt")
    thundercc("compile", tmp_path / "lm.json", "-o", tmp_path, "--distributed", "ddp")
    alone = thundercc("run", tmp_path / "lm.plan.json", "--inputs", tmp_path / "inputs.pt", "--grads-out", tmp_path / "grads.pt")
    assert "is data parallel, but runs alone (one process: WORLD_SIZE is unset or 1)" in alone.stderr
    for ours, expected in zip(torch.load(tmp_path / "grads.pt"), torch.load(tmp_path / "g.pt")):
        torch.testing.assert_close(ours, expected, rtol=1e-4, atol=1e-6)


def test_ddp_needs_a_training_step(tmp_path, thundercc):
    capture(torch.nn.Linear(3, 2).requires_grad_(False), torch.randn(4, 3)).save(tmp_path / "f.json")
    result = thundercc("compile", tmp_path / "f.json", "-o", tmp_path, "--distributed", "ddp", check=False)
    assert result.returncode == 1 and "--distributed spreads a training step over ranks" in result.stderr
    buckets_alone = thundercc("compile", tmp_path / "f.json", "-o", tmp_path, "--bucket-mb", "1", check=False)
    assert buckets_alone.returncode == 2 and "--bucket-mb requires --distributed" in buckets_alone.stderr


def step_on_one_shard(tmp_path, thundercc, *compile_options):
    """A ddp plan of the language model on a shard of 2 sequences, and its inputs (inputs.pt)."""
    torch.manual_seed(0)
    captured = capture(TinyLanguageModel(), torch.randint(0, 11, (2, 6)), torch.randint(0, 11, (2, 6)))
    captured.save(tmp_path / "lm.json")
    torch.save(tuple(saveable(t) for t in captured.input_values), tmp_path / "inputs.pt")
    thundercc("compile", tmp_path / "lm.json", "-o", tmp_path, "--distributed", "ddp", *compile_options)


def test_ranks_given_different_plans_refuse_to_run(tmp_path, thundercc):
    step_on_one_shard(tmp_path, thundercc)
    (tmp_path / "lm.0.plan.json").write_text((tmp_path / "lm.plan.json").read_text())
    other = tmp_path / "other"
    other.mkdir()
    step_on_one_shard(other, thundercc, "--seed", "1")
    (tmp_path / "lm.1.plan.json").write_text((other / "lm.plan.json").read_text())
    result = torchrun(2, tmp_path, Path(os.environ["THUNDERCC"]).resolve(), "run", tmp_path / "lm.{rank}.plan.json",
                      "--inputs", tmp_path / "inputs.pt")
    assert result.returncode != 0
    assert "rank 1 was given another plan than rank 0" in result.stdout + result.stderr


def ranks_by_hand(tmp_path, thundercc, world, ranks, port, timeout, **extra_env):
    """thundercc run of the ddp plan as the given ranks of `world`, started without torchrun."""
    env = {**os.environ, "WORLD_SIZE": str(world), "MASTER_ADDR": "127.0.0.1", "MASTER_PORT": str(port),
           "THUNDERCC_DISTRIBUTED_TIMEOUT": str(timeout), **extra_env}
    env.pop("TORCHELASTIC_USE_AGENT_STORE", None)
    command = [Path(os.environ["THUNDERCC"]).resolve(), "run", tmp_path / "lm.plan.json", "--inputs", tmp_path / "inputs.pt"]
    return [subprocess.Popen(command, env={**env, "RANK": str(rank)}, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for rank in ranks]


@pytest.mark.parametrize("backend, message", [
    ("nccl", "rank {rank} of 2: THUNDERCC_DISTRIBUTED_BACKEND=nccl: NCCL reduces CUDA tensors, and the plan's inputs are on the CPU"),
    ("mpi", "rank {rank} of 2: THUNDERCC_DISTRIBUTED_BACKEND is 'mpi': 'gloo' or 'nccl' was expected"),
])
def test_a_backend_that_cannot_run_the_plan_is_refused_before_joining(backend, message, tmp_path, thundercc):
    step_on_one_shard(tmp_path, thundercc)
    ranks = ranks_by_hand(tmp_path, thundercc, 2, [0, 1], free_port(), 60, THUNDERCC_DISTRIBUTED_BACKEND=backend)
    for rank, process in enumerate(ranks):
        _, stderr = process.communicate(timeout=30)  # each refuses alone, without waiting for the other
        assert process.returncode != 0
        assert message.format(rank=rank) in stderr


def test_a_missing_rank_is_an_error_within_the_timeout(tmp_path, thundercc):
    step_on_one_shard(tmp_path, thundercc)
    (alone,) = ranks_by_hand(tmp_path, thundercc, 2, [0], free_port(), 3)
    _, stderr = alone.communicate(timeout=60)
    assert alone.returncode == 1
    assert "rank 0 of 2" in stderr and "the ranks did not all join" in stderr and "THUNDERCC_DISTRIBUTED_TIMEOUT" in stderr


def test_a_port_in_use_is_a_clear_error(tmp_path, thundercc):
    step_on_one_shard(tmp_path, thundercc)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        (first,) = ranks_by_hand(tmp_path, thundercc, 2, [0], taken.getsockname()[1], 3)
        _, stderr = first.communicate(timeout=60)
    assert first.returncode == 1
    assert "rank 0 of 2" in stderr and "Address already in use" in stderr


PYTORCH_DDP_TRAINING = '''
import sys
from pathlib import Path

import torch
import torch.distributed as dist

{model}

dist.init_process_group("gloo")
rank = dist.get_rank()
folder, steps, optimizer = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
model = {cls}()
with torch.no_grad():
    for p, value in zip(model.parameters(), torch.load(folder / "parameters.pt")):
        p.copy_(value)
ddp = torch.nn.parallel.DistributedDataParallel(model)
make = {{"sgd": lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9), "adamw": lambda p: torch.optim.AdamW(p, lr=0.01)}}[optimizer]
step = make(ddp.parameters())
losses = []
for s in range(steps):
    tokens, targets = torch.load(folder / f"batch.{{s}}.{{rank}}.pt")[:2]
    step.zero_grad()
    loss = ddp(tokens, targets)
    loss.backward()
    step.step()
    losses.append(loss.item())
torch.save(torch.tensor(losses, dtype=torch.float64), folder / f"pytorch_losses.{{rank}}.pt")
torch.save(dict(model.state_dict()), folder / f"pytorch_state.{{rank}}.pt")
'''


def rank_losses(stdout, ranks):
    """Each rank's `step S: loss L` lines, as torchrun's --tee prefixes them ([default0]:step 0: loss ...)."""
    losses = {rank: [] for rank in range(ranks)}
    for line in stdout.splitlines():
        prefix, _, rest = line.partition("]:")
        if rest.startswith("step ") and prefix.startswith("[default"):
            losses[int(prefix[len("[default"):])].append(float(rest.split("loss ")[1].split(",")[0]))
    return losses


def pytorch_ddp_reference(tmp_path, cls, steps, ranks, optimizer):
    """PyTorch's DistributedDataParallel (Gloo) trained as PYTORCH_DDP_TRAINING does, on the
    batch.S.R.pt files of tmp_path: each rank's losses (pytorch_losses.R.pt) and state_dict
    (pytorch_state.R.pt) written there."""
    import inspect
    script = tmp_path / "pytorch_ddp.py"
    script.write_text(PYTORCH_DDP_TRAINING.format(model=inspect.getsource(cls), cls=cls.__name__))
    reference = subprocess.run([TORCHRUN, "--nproc_per_node", str(ranks), "--redirects", "1", "--tee", "1", "--master_port", str(free_port()),
                                "--log_dir", tmp_path / "pytorch_logs", script, tmp_path, str(steps), optimizer],
                               capture_output=True, text=True, timeout=300)
    assert reference.returncode == 0, reference.stdout[-3000:] + reference.stderr[-3000:]


@pytest.mark.parametrize("distributed", [["ddp"], ["fsdp", "--world-size", "2", "--zero", "3"]], ids=["ddp", "fsdp_zero3"])
@pytest.mark.parametrize("optimizer,flags", [("sgd", ["--optimizer", "sgd", "--lr", "0.1", "--momentum", "0.9"]),
                                             ("adamw", ["--optimizer", "adamw", "--lr", "0.01"])])
def test_training_follows_pytorch_distributed_data_parallel(distributed, optimizer, flags, tmp_path, thundercc):
    """Steps on 2 ranks, a batch per step and rank (20 under DDP; 10 under FSDP with ZeRO-3, whose
    ranks update their shards): each rank's loss curve is the one PyTorch's
    DistributedDataParallel (Gloo) gives on the same shards (PyTorch 1.13's FSDP cannot be imported
    under Python 3.11); with SGD, the checkpoint's (whole) parameters are those PyTorch ends with
    (not compared with AdamW, which turns the float noise of a gradient that is zero in exact
    arithmetic, the attention's key bias's, into steps of lr); half the steps, a checkpoint per
    rank and the other half resumed end where the whole run did, bit for bit."""
    steps, ranks = (20 if distributed[0] == "ddp" else 10), 2
    torch.manual_seed(0)
    model = TinyLanguageModel()
    g = torch.Generator().manual_seed(1)
    data = [[(torch.randint(0, 11, (2, 6), generator=g), torch.randint(0, 11, (2, 6), generator=g)) for _ in range(ranks)]
            for _ in range(steps)]
    captured = capture(model, *data[0][0])
    captured.save(tmp_path / "lm.json")
    parameters = [saveable(t) for t in captured.input_values[2:]]
    torch.save(tuple(parameters), tmp_path / "parameters.pt")
    for s in range(steps):
        for rank in range(ranks):
            torch.save((*data[s][rank], *parameters), tmp_path / f"batch.{s}.{rank}.pt")
    thundercc("compile", tmp_path / "lm.json", "-o", tmp_path, "--distributed", *distributed, *flags)
    run = [Path(os.environ["THUNDERCC"]).resolve(), "run", tmp_path / "lm.plan.json", "--inputs", tmp_path / "batch.{step}.{rank}.pt"]
    whole = torchrun(ranks, tmp_path, *run, "--steps", steps, "--checkpoint", tmp_path / "whole.{rank}.pt")
    assert whole.returncode == 0, whole.stdout[-3000:] + whole.stderr[-3000:]
    ours = rank_losses(whole.stdout, ranks)

    pytorch_ddp_reference(tmp_path, TinyLanguageModel, steps, ranks, optimizer)
    names = [name for name, _ in model.named_parameters()]
    for rank in range(ranks):
        assert len(ours[rank]) == steps
        torch.testing.assert_close(torch.tensor(ours[rank], dtype=torch.float64), torch.load(tmp_path / f"pytorch_losses.{rank}.pt"),
                                   rtol=1e-4, atol=1e-5)
        checkpoint, theirs = torch.load(tmp_path / f"whole.{rank}.pt"), torch.load(tmp_path / f"pytorch_state.{rank}.pt")
        for name in names if optimizer == "sgd" else []:
            torch.testing.assert_close(checkpoint["model"][name], theirs[name], rtol=1e-4, atol=1e-5, msg=f"rank {rank}: {name}")

    half = steps // 2
    first = torchrun(ranks, tmp_path, *run, "--steps", half, "--checkpoint", tmp_path / "half.{rank}.pt")
    assert first.returncode == 0, first.stdout[-3000:] + first.stderr[-3000:]
    rest = torchrun(ranks, tmp_path, *run, "--steps", steps - half, "--resume", tmp_path / "half.{rank}.pt",
                    "--checkpoint", tmp_path / "resumed.{rank}.pt")
    assert rest.returncode == 0, rest.stdout[-3000:] + rest.stderr[-3000:]
    assert rank_losses(rest.stdout, ranks) == {rank: losses[half:] for rank, losses in ours.items()}
    for rank in range(ranks):
        assert_same_checkpoints(torch.load(tmp_path / f"whole.{rank}.pt"), torch.load(tmp_path / f"resumed.{rank}.pt"))


class NormalizedClassifier(torch.nn.Module):
    """A batch norm between two linears: buffers that each rank updates from its shard."""

    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(6, 12)
        self.norm = torch.nn.BatchNorm1d(12)
        self.fc2 = torch.nn.Linear(12, 3)

    def forward(self, x, labels):
        return torch.nn.functional.cross_entropy(self.fc2(torch.relu(self.norm(self.fc1(x)))), labels)


def test_ddp_broadcasts_buffers_as_distributed_data_parallel_does(tmp_path, thundercc):
    """Before each step the ranks' buffers become rank 0's (DDP's broadcast_buffers): after 5 SGD
    steps on 2 ranks, each rank's parameters and batch-norm statistics are PyTorch DDP's on that rank."""
    steps, ranks = 5, 2
    torch.manual_seed(0)
    model = NormalizedClassifier()
    g = torch.Generator().manual_seed(2)
    data = [[(torch.randn(4, 6, generator=g) * (rank + 1), torch.randint(0, 3, (4,), generator=g)) for rank in range(ranks)]
            for _ in range(steps)]
    # The weights before capture, whose eager run updates the batch norm's statistics.
    torch.save(dict(model.state_dict()), tmp_path / "weights.pt")
    torch.save(tuple(saveable(p) for p in model.parameters()), tmp_path / "parameters.pt")
    captured = capture(model, *data[0][0])
    captured.save(tmp_path / "bn.json")
    for s in range(steps):
        for rank in range(ranks):
            torch.save(data[s][rank], tmp_path / f"batch.{s}.{rank}.pt")
    thundercc("compile", tmp_path / "bn.json", "-o", tmp_path, "--distributed", "ddp", "--optimizer", "sgd", "--lr", "0.1", "--momentum", "0.9")
    ours = torchrun(ranks, tmp_path, Path(os.environ["THUNDERCC"]).resolve(), "run", tmp_path / "bn.plan.json", "--weights",
                    tmp_path / "weights.pt", "--inputs", tmp_path / "batch.{step}.{rank}.pt", "--steps", steps,
                    "--checkpoint", tmp_path / "ours.{rank}.pt")
    assert ours.returncode == 0, ours.stdout[-3000:] + ours.stderr[-3000:]
    pytorch_ddp_reference(tmp_path, NormalizedClassifier, steps, ranks, "sgd")
    plan_inputs = json.loads((tmp_path / "bn.plan.json").read_text())["inputs"]
    carried = [i["fqn"][0] for i in plan_inputs if "fqn" in i]
    for rank in range(ranks):
        checkpoint = torch.load(tmp_path / f"ours.{rank}.pt")
        theirs = torch.load(tmp_path / f"pytorch_state.{rank}.pt")
        assert sorted(carried) == sorted(theirs)
        for key in carried:
            torch.testing.assert_close(checkpoint["model"][key], theirs[key], rtol=1e-4, atol=1e-5, msg=f"rank {rank}: {key}")


def fsdp_step(tmp_path, thundercc, ranks, *compile_options):
    """The language model's step compiled with --distributed fsdp for `ranks`, each rank's inputs
    (its 2 sequences, the whole parameters) and the gradients of one process on all the sequences."""
    torch.manual_seed(0)
    model = TinyLanguageModel()
    tokens, targets = torch.randint(0, 11, (2 * ranks, 6)), torch.randint(0, 11, (2 * ranks, 6))
    captured = capture(model, tokens[:2], targets[:2])
    captured.save(tmp_path / "lm.json")
    parameters = [saveable(t) for t in captured.input_values[2:]]
    for rank in range(ranks):  # ranks after the first given other parameters: rank 0's are broadcast before the cut
        given = parameters if rank == 0 else [p + 1 for p in parameters]
        torch.save((tokens[2 * rank:2 * rank + 2], targets[2 * rank:2 * rank + 2], *given), tmp_path / f"inputs.{rank}.pt")
    whole = torch.autograd.grad(model(tokens, targets), list(model.parameters()))
    torch.save(tuple(saveable(g) for g in whole), tmp_path / "grads.expected.pt")
    thundercc("compile", tmp_path / "lm.json", "-o", tmp_path, "--distributed", "fsdp", "--world-size", str(ranks), *compile_options)
    return model, whole


@pytest.mark.parametrize("ranks,zero", [(2, "2"), (2, "3"), (4, "2"), (4, "3")])
def test_fsdp_gives_every_rank_the_whole_batch_gradients(ranks, zero, tmp_path, thundercc):
    """Every parameter sharded over the ranks (the vocabulary's 11 rows padded to a multiple of the
    world size), gathered before its first use, its gradient reduce-scattered; each rank's
    gathered gradients (--grads-out) are those of one process on the whole batch, though the
    ranks after the first were given other parameters (rank 0's are broadcast whole)."""
    model, whole = fsdp_step(tmp_path, thundercc, ranks, "--zero", zero)
    plan = json.loads((tmp_path / "lm.plan.json").read_text())
    assert plan["world_size"] == ranks
    sharded = {tuple(i["fqn"]): i for i in plan["inputs"] if "shard_of" in i}
    assert len(sharded) == len(whole)
    embedding = sharded[("embed.weight",)]
    assert embedding["shard_of"] == [11, 16] and embedding["tensor"]["shape"] == [-(-11 // ranks), 16]
    forward = (tmp_path / "lm.forward.trace.py").read_text()
    backward = (tmp_path / "lm.backward.trace.py").read_text()
    parameters = len(whole)
    assert forward.count(" = torchex.all_gather(") == parameters
    assert backward.count(" = torchex.reduce_scatter(") == parameters
    # ZeRO-3 gathers each parameter the backward reads again; ZeRO-2 saves it whole instead.
    assert (backward.count(" = torchex.all_gather(") > 0) == (zero == "3")
    # The reduce-scatters are waited for after the statements that follow them, not at once.
    lines = [line.strip() for line in backward.splitlines() if not line.strip().startswith(("#", "del"))]
    first_scatter = next(i for i, line in enumerate(lines) if "torchex.reduce_scatter(" in line)
    assert "torchex.wait(" not in lines[first_scatter + 1]
    result = torchrun(ranks, tmp_path, Path(os.environ["THUNDERCC"]).resolve(), "run", tmp_path / "lm.plan.json",
                      "--inputs", tmp_path / "inputs.{rank}.pt", "--grads-out", tmp_path / "grads.{rank}.pt",
                      "--expect-grads", tmp_path / "grads.expected.pt", "--rtol", "1e-4", "--atol", "1e-6")
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    for rank in range(ranks):
        grads = torch.load(tmp_path / f"grads.{rank}.pt")
        assert [g.shape for g in grads] == [p.shape for p in model.parameters()]
        for ours, expected in zip(grads, whole):
            torch.testing.assert_close(ours, expected, rtol=1e-4, atol=1e-6)


def test_an_fsdp_plan_runs_only_on_its_world_size(tmp_path, thundercc):
    fsdp_step(tmp_path, thundercc, 2)
    alone = thundercc("run", tmp_path / "lm.plan.json", "--inputs", tmp_path / "inputs.0.pt", check=False)
    assert alone.returncode == 1
    assert "the plan shards its parameters over 2 ranks (compile --distributed fsdp --world-size 2), but runs on 1" in alone.stderr
    # Shards are cut by the run from the whole parameters; a tensor of another shape is refused.
    tokens, targets, *parameters = torch.load(tmp_path / "inputs.0.pt")
    torch.save((tokens, targets, *[p[:1] if p.dim() else p for p in parameters]), tmp_path / "cut.pt")
    thundercc("compile", tmp_path / "lm.json", "-o", tmp_path / "one", "--distributed", "fsdp", "--world-size", "1")
    wrong = thundercc("run", tmp_path / "one" / "lm.plan.json", "--inputs", tmp_path / "cut.pt", check=False)
    assert wrong.returncode == 1
    assert "'t_position' is sharded over the ranks (FSDP): give the whole (6, 16) tensor" in wrong.stderr


def test_fsdp_options_are_checked(tmp_path, thundercc):
    fsdp_step(tmp_path, thundercc, 1)
    for options, message in [(["--distributed", "fsdp"], "--distributed fsdp needs --world-size N"),
                             (["--distributed", "fsdp", "--zero", "3"], "--distributed fsdp needs --world-size N"),
                             (["--distributed", "ddp", "--world-size", "2"], "--world-size is for --distributed fsdp"),
                             (["--zero", "3"], "--zero is for --distributed fsdp --world-size N"),
                             (["--distributed", "fsdp", "--world-size", "2", "--bucket-mb", "5"], "--bucket-mb is for --distributed ddp"),
                             (["--distributed", "fsdp", "--world-size", "0"], "--world-size: Value 0 not in range 1 to 65536"),
                             (["--distributed", "fsdp", "--world-size", "2", "--zero", "1"], "--zero: 1 not in {2,3}")]:
        result = thundercc("compile", tmp_path / "lm.json", "-o", tmp_path / "x", *options, check=False)
        assert result.returncode == 2 and message in result.stderr, (options, result.stderr)
