"""The data-parallel benchmark: a GPT-2 block's training step (d256, 4 heads, 2 x 128 tokens per
rank, a mean-square loss) on 2 ranks of one thread each, Gloo over the loopback, launched by
torchrun: thundercc (`compile --distributed ddp`, and `--distributed fsdp` with ZeRO-2 and ZeRO-3,
`thundercc run`) against PyTorch's own DistributedDataParallel (bucket_cap_mb 25, its default) on
the same shards, measured in the same run (PyTorch 1.13's FSDP cannot be imported under Python
3.11, so it is not a peer here); each thundercc row also says the bytes its rank handed to the
collectives per step (`run` prints them), both given OpenBLAS (Debian's libopenblas0-pthread, unpacked into ~/.cache/thundercc/openblas
and put first on LD_LIBRARY_PATH: the reference BLAS Debian defaults to is no peer's choice). It also times the step on one rank alone (no communication) and a bare all-reduce of all the
gradients' bytes, to say how much of the communication the backward hides. The variants are
timed interleaved: each of OUTER_ROUNDS rounds launches every one once; the figures are the
medians over the rounds, and each ratio to PyTorch's step also gives its range over the rounds:

    hidden = 1 - (step on 2 ranks - step alone) / (the all-reduce alone)

Usage: /usr/bin/python3 benchmarks/ddp_step.py [ROUNDS]   (THUNDERCC names the binary)
Prints the figures; it asserts nothing about them."""
import os
import re
import shutil
import statistics
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

import torch

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "examples" / "models"))
from gpt2_block import Block  # noqa: E402
from thundercc_frontend import capture, saveable  # noqa: E402
from train_step import median_ms  # noqa: E402

RANKS = 2
OUTER_ROUNDS = 3


class Step(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.block = Block(embed=256, heads=4, block_size=128)

    def forward(self, x, target):
        return torch.nn.functional.mse_loss(self.block(x), target)


def shards():
    torch.manual_seed(0)
    x, target = torch.randn(2 * RANKS, 128, 256), torch.randn(2 * RANKS, 128, 256)
    return [(x[2 * r:2 * r + 2], target[2 * r:2 * r + 2]) for r in range(RANKS)]


def worker(kind, rounds):
    """One rank of PyTorch's DDP (kind 'ddp'), or a bare all-reduce of the gradients' bytes ('allreduce')."""
    import torch.distributed as dist
    torch.set_num_threads(1)
    dist.init_process_group("gloo")
    rank = dist.get_rank()
    torch.manual_seed(0)
    model = Step()
    x, target = shards()[rank]
    if kind == "allreduce":
        flat = torch.zeros(sum(p.numel() for p in model.parameters()))
        ms = median_ms(lambda: dist.all_reduce(flat), rounds)
    else:
        ddp = torch.nn.parallel.DistributedDataParallel(model)

        def step():
            ddp.zero_grad(set_to_none=True)
            ddp(x, target).backward()
        ms = median_ms(step, rounds)
    print(f"rank {rank}: median {ms:.3f} ms", flush=True)
    dist.destroy_process_group()


def openblas_environment():
    """The environment that gives LibTorch OpenBLAS, one thread: Debian's libopenblas0-pthread
    unpacked (once) into a cache folder, its libblas.so.3 first on LD_LIBRARY_PATH."""
    cache = Path.home() / ".cache" / "thundercc" / "openblas"
    lib = cache / "root" / "usr" / "lib" / "x86_64-linux-gnu" / "openblas-pthread"
    if not (lib / "libblas.so.3").exists():
        cache.mkdir(parents=True, exist_ok=True)
        subprocess.run(["apt-get", "download", "libopenblas0-pthread"], cwd=cache, check=True, capture_output=True)
        deb = next(cache.glob("libopenblas0-pthread_*.deb"))
        subprocess.run(["dpkg", "-x", deb, cache / "root"], check=True)
    return {**os.environ, "LD_LIBRARY_PATH": f"{lib}:{os.environ.get('LD_LIBRARY_PATH', '')}", "OPENBLAS_NUM_THREADS": "1",
            "OMP_NUM_THREADS": "1"}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def torchrun(log_dir, env, *command, python=False, communication=False):
    """The slower rank's median step (ms); with `communication`, also its bytes per step (MB)."""
    result = subprocess.run(["torchrun", *([] if python else ["--no_python"]), "--nproc_per_node", str(RANKS), "--redirects", "1",
                             "--tee", "1", "--master_port", str(free_port()), "--log_dir", str(log_dir), *map(str, command)],
                            capture_output=True, text=True, timeout=1200, env=env)
    if result.returncode:
        raise SystemExit(f"ddp_step: torchrun failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
    ms = max(float(m) for m in re.findall(r"median ([0-9.]+) ms", result.stdout))
    if not communication:
        return ms
    return ms, max(float(m) for m in re.findall(r"communication per run: [0-9]+ collectives, ([0-9.]+) MB", result.stdout))


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    thundercc = os.environ.get("THUNDERCC", str(REPO / "build" / "thundercc"))
    work = Path(tempfile.mkdtemp(prefix="ddp_step."))
    try:
        torch.manual_seed(0)
        model = Step()
        captured = capture(model, *shards()[0])
        captured.save(work / "step.json")
        parameters = [saveable(t) for t in captured.input_values[2:]]
        for rank, (x, target) in enumerate(shards()):
            torch.save((x, target, *parameters), work / f"inputs.{rank}.pt")
        subprocess.run([thundercc, "compile", work / "step.json", "-o", work / "ddp", "--distributed", "ddp"], check=True)
        subprocess.run([thundercc, "compile", work / "step.json", "-o", work / "ddp_each", "--distributed", "ddp", "--bucket-mb", "0"],
                       check=True)
        subprocess.run([thundercc, "compile", work / "step.json", "-o", work / "alone"], check=True)
        for zero in ("2", "3"):
            subprocess.run([thundercc, "compile", work / "step.json", "-o", work / f"fsdp{zero}", "--distributed", "fsdp", "--world-size",
                            str(RANKS), "--zero", zero], check=True)
        timed = ["--repeat", str(rounds), "--warmup", "2"]
        env = openblas_environment()

        def alone():
            result = subprocess.run([thundercc, "run", work / "alone" / "step.plan.json", "--inputs", work / "inputs.0.pt", *timed],
                                    capture_output=True, text=True, check=True, env=env)
            return float(re.search(r"median ([0-9.]+) ms", result.stdout + result.stderr).group(1)), 0.0

        def plan_on_ranks(folder):
            return lambda: torchrun(work / f"logs_{folder}", env, thundercc, "run", work / folder / "step.plan.json", "--inputs",
                                    work / "inputs.{rank}.pt", *timed, communication=True)

        def pytorch(kind):
            return lambda: (torchrun(work / f"logs_{kind}", env, Path(__file__).resolve(), "--worker", kind, rounds, python=True), 0.0)

        # Interleaved: each round runs every variant once, so that the machine's load swings reach all alike.
        variants = {"ddp": plan_on_ranks("ddp"), "each": plan_on_ranks("ddp_each"), "fsdp2": plan_on_ranks("fsdp2"),
                    "fsdp3": plan_on_ranks("fsdp3"), "pytorch": pytorch("ddp"), "alone": alone, "allreduce": pytorch("allreduce")}
        runs = {name: [] for name in variants}
        for _ in range(OUTER_ROUNDS):
            for name, run in variants.items():
                runs[name].append(run())
        ms = {name: statistics.median(t for t, _ in r) for name, r in runs.items()}
        mb = {name: r[0][1] for name, r in runs.items()}

        def versus_pytorch(name):
            """The median step's ratio to PyTorch DDP's, and the range of the rounds' ratios."""
            ratios = [a[0] / b[0] for a, b in zip(runs[name], runs["pytorch"])]
            return f"{ms[name] / ms['pytorch']:.2f}x, rounds {min(ratios):.2f}-{max(ratios):.2f}x"

        grad_bytes = sum(p.numel() * p.element_size() for p in model.parameters())
        hidden = 1 - (ms["ddp"] - ms["alone"]) / ms["allreduce"]
        print(f"ddp_step: GPT-2 block d256, 2 x 128 tokens per rank, {RANKS} ranks x 1 thread, Gloo on the loopback, OpenBLAS, "
              f"{grad_bytes / 1e6:.2f} MB of gradients; medians of {OUTER_ROUNDS} interleaved rounds of {rounds} steps")
        print(f"  thundercc --distributed ddp (25 MB buckets, the first 1 MiB) {ms['ddp']:7.2f} ms/step  (thundercc / PyTorch: "
              f"{versus_pytorch('ddp')}), {mb['ddp']:.2f} MB communicated per step")
        print(f"  thundercc, each gradient alone (--bucket-mb 0) {ms['each']:21.2f} ms/step  ({versus_pytorch('each')}), {mb['each']:.2f} MB")
        print(f"  thundercc --distributed fsdp --zero 2 {ms['fsdp2']:30.2f} ms/step  ({versus_pytorch('fsdp2')}), {mb['fsdp2']:.2f} MB "
              f"(parameters gathered once; Gloo has no reduce-scatter: gradients all-reduced whole)")
        print(f"  thundercc --distributed fsdp --zero 3 {ms['fsdp3']:30.2f} ms/step  ({versus_pytorch('fsdp3')}), {mb['fsdp3']:.2f} MB "
              f"(parameters gathered again in the backward)")
        print(f"  PyTorch DistributedDataParallel {ms['pytorch']:36.2f} ms/step, {grad_bytes / 1e6:.2f} MB of gradients all-reduced")
        print(f"  one rank alone, no communication {ms['alone']:35.2f} ms/step")
        print(f"  all-reduce of the gradients alone {ms['allreduce']:34.2f} ms: hidden behind the backward {100 * hidden:.0f}% "
              f"(negative: the step grew by more than the all-reduce takes alone)")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        worker(sys.argv[2], int(sys.argv[3]))
    else:
        main()
