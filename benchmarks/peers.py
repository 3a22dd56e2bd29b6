"""The peers a careful user picks (issue 28): inference of a GPT-2 block (d768, 4 x 256 tokens),
resnet18 and mobilenet_v3_large (batch 4, 224 x 224), and training steps (forward and backward,
ones as the output's gradient) of the GPT-2 block and of benchmarks/train_step.py's d256 GPT-2
and LLaMA blocks (issue 42), at one thread and at every core the process
may use (each side given the same number), measured in the same run:
thundercc (`compile`, `run`), PyTorch eager and TorchScript's frozen graph
(torch.jit.freeze + optimize_for_inference), all three given OpenBLAS (Debian's
libopenblas0-pthread, unpacked by benchmarks/ddp_step.py's helper, as installing it would give
LibTorch through Debian's alternatives: the reference BLAS Debian defaults to is no careful
user's choice, and ATen's convolutions, which thundercc's plans call, go through the BLAS here). Each program's arithmetic (the multiply-adds of its convolutions and matrix products,
as PyTorch's profiler counts them over one eager run; a training step's, its forward's and
backward's) is stated as a share of this machine's FMA peak, measured in the same run the same way every time (benchmarks/fma_peak.cpp: independent
chains of fused multiply-adds on registers, at the same threads, the best of five rounds); a
2048 x 2048 x 2048 float32 matrix product on oneDNN (a thundercc plan of one torch.matmul) is shown
beside it as the share a large GEMM reaches. Each ratio is followed by the ratio a program would
have whose products all ran at that peak and whose other statements took no time: the bound no
compiler passes on this machine. With OpenBLAS loaded, thundercc times
each distinct matrix product on oneDNN and on OpenBLAS once and keeps the faster
(matrix_products.cpp); the count of products each library won is printed.

The three sides are timed interleaved (issue 42): each round runs thundercc, eager and TorchScript
one after the other, each a median of a few runs, so that a 2-core machine's load swings fall on
all three alike; each figure is the median over the rounds, and each ratio's range over the rounds
is printed beside it.

Usage: /usr/bin/python3 benchmarks/peers.py [ROUNDS]   (THUNDERCC names the binary; fma_peak lies beside it)
Prints the figures; it asserts nothing about them."""
import functools
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import torch

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))
from ddp_step import openblas_environment  # noqa: E402
from inference_blocks import make_gpt2  # noqa: E402
from thundercc_frontend import capture, saveable  # noqa: E402
from train_step import make_gpt2 as make_gpt2_d256, make_llama as make_llama_d256, median_ms  # noqa: E402
import gpt2_block  # noqa: E402


def make_torchvision(name):
    import torchvision
    torch.manual_seed(0)
    model = getattr(torchvision.models, name)().eval().requires_grad_(False)
    return model, (torch.randn(4, 3, 224, 224),)


def make_gpt2_training():
    torch.manual_seed(0)
    return gpt2_block.Block(embed=768, heads=12, block_size=256), (torch.randn(4, 256, 768),)


PROGRAMS = {"gpt2_block": make_gpt2, "resnet18": lambda: make_torchvision("resnet18"),
            "mobilenet_v3_large": lambda: make_torchvision("mobilenet_v3_large")}
# Training steps: the parameters require grad, so the plan is a forward and a backward.
TRAINING = {"gpt2_block_step": make_gpt2_training, "gpt2_d256_step": make_gpt2_d256, "llama_d256_step": make_llama_d256}


# The products PyTorch's profiler counts the flops of (its aten::mul and aten::add are left out).
PRODUCTS = {"aten::mm", "aten::addmm", "aten::bmm", "aten::baddbmm", "aten::conv2d"}


@functools.cache  # counted once, for every thread count
def multiply_add_flops(name):
    """2 x the multiply-adds of the program's matrix products and convolutions, as PyTorch's profiler
    counts them over one eager run; a training step's, its forward's and its backward's (PyTorch
    1.13's profiler counts no convolution's backward: no step here has one)."""
    model, args = (TRAINING if name in TRAINING else PROGRAMS)[name]()
    params = [p for p in model.parameters() if p.requires_grad]

    def run():
        if name in TRAINING:
            out = model(*args)
            torch.autograd.grad(out, params, torch.ones_like(out))
        else:
            with torch.no_grad():
                model(*args)
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU], with_flops=True) as profiled:
        run()
    return sum(e.flops for e in profiled.key_averages() if e.key in PRODUCTS)


def peer_ms(kind, name, rounds, threads):
    """eager or TorchScript frozen, in this process (run under the OpenBLAS environment)."""
    torch.set_num_threads(threads)
    if name in TRAINING:  # forward and backward, as thundercc's plan runs them
        model, args = TRAINING[name]()
        params = [p for p in model.parameters() if p.requires_grad]

        def step():
            out = model(*args)
            torch.autograd.grad(out, params, torch.ones_like(out))
        return median_ms(step, rounds)
    model, args = PROGRAMS[name]()
    with torch.no_grad():
        if kind == "torchscript":
            model = torch.jit.optimize_for_inference(torch.jit.freeze(torch.jit.trace(model, args)))
        return median_ms(lambda: model(*args), rounds)


def median_of(output):
    return float(re.search(r"median ([0-9.]+) ms", output).group(1))


def interleaved(sides: dict, rounds: int) -> dict:
    """Each side (a name and a function timing it once, in ms) run in turn, round after round: the
    per-round figures of each."""
    figures = {name: [] for name in sides}
    for _ in range(rounds):
        for name, time_once in sides.items():
            figures[name].append(time_once())
    return figures


def median(values):
    ordered = sorted(values)
    return ordered[len(ordered) // 2]


def ratio_range(ours, theirs):
    """The ratio of the medians, and its least and greatest value over the rounds."""
    ratios = [a / b for a, b in zip(ours, theirs)]
    return f"{median(ours) / median(theirs):.2f}x, {min(ratios):.2f}-{max(ratios):.2f} over rounds"


def library_wins(threads):
    """How many of the matrix products the kernel cache has choices for (this CPU, OpenBLAS, these
    threads) each library won: the records' first word is the winner, their second line the CPU's
    model name and features, their last number the threads."""
    cache = Path(os.environ.get("THUNDERCC_CACHE_DIR") or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "thundercc")
    cpu = next(line for line in Path("/proc/cpuinfo").read_text().splitlines() if line.startswith("model name"))
    wins = {"onednn": 0, "blas": 0}
    for record in (cache / "matmul").glob("*"):
        if record.suffix in (".sha256",) or ".tmp" in record.name:
            continue
        lines = record.read_text().splitlines()
        if len(lines) >= 4 and lines[1].startswith(cpu + " with") and "openblas" in lines[2] and lines[3].split()[-1] == str(threads):
            wins[lines[0].split()[0]] += 1
    return f"oneDNN {wins['onednn']}, OpenBLAS {wins['blas']}"


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    thundercc = os.environ.get("THUNDERCC", str(REPO / "build" / "thundercc"))
    cores = len(os.sched_getaffinity(0))

    with tempfile.TemporaryDirectory(prefix="peers.") as work:
        work = Path(work)
        capture(torch.matmul, torch.randn(2048, 2048), torch.randn(2048, 2048)).save(work / "matmul.json")
        subprocess.run([thundercc, "compile", work / "matmul.json", "-o", work], check=True, capture_output=True)
        for name, make in {**PROGRAMS, **TRAINING}.items():
            model, args = make()
            captured = capture(model, *args)
            captured.save(work / f"{name}.json")
            torch.save(tuple(saveable(t) for t in captured.input_values), work / f"{name}.inputs.pt")
            subprocess.run([thundercc, "compile", work / f"{name}.json", "-o", work], check=True, capture_output=True)
        for threads in sorted({1, cores}):
            env = {**openblas_environment(), "OMP_NUM_THREADS": str(threads), "OPENBLAS_NUM_THREADS": str(threads)}
            threading = ["--threads", str(threads)]
            fma = subprocess.run([str(Path(thundercc).parent / "fma_peak"), str(threads)], check=True, capture_output=True, text=True).stdout
            peak = float(re.search(r"fma_peak_gflops ([0-9.]+)", fma).group(1))
            # A large GEMM's share of it: one 2048^3 matrix product (on the library thundercc chose), the best of the rounds.
            result = subprocess.run([thundercc, "run", work / "matmul.plan.json", "--fill", "random", "--warmup", "2", "--repeat", "10",
                                     *threading], check=True, capture_output=True, text=True, env=env)
            best = float(re.search(r"min ([0-9.]+) ms", result.stdout).group(1))
            gemm = 2 * 2048 ** 3 / (best / 1e3) / 1e9
            print(f"peers: {threads} thread{'s' if threads > 1 else ''} each, same run, all given OpenBLAS; FMA peak (float32, "
                  f"{re.search(r'isa (.+)', fma).group(1)}) {peak:.1f} GFLOP/s; a 2048^3 matmul in thundercc {gemm:.1f} GFLOP/s "
                  f"({100 * gemm / peak:.0f}% of it)")
            for name in {**PROGRAMS, **TRAINING}:
                def ours_once(name=name):
                    return median_of(subprocess.run([thundercc, "run", work / f"{name}.plan.json", "--inputs", work / f"{name}.inputs.pt",
                                                     "--warmup", "1", "--repeat", "3", *threading],
                                                    check=True, capture_output=True, text=True, env=env).stdout)

                def peer_once(kind, name=name):
                    out = subprocess.run([sys.executable, __file__, "--peer", kind, name, "3", str(threads)], check=True,
                                         capture_output=True, text=True, env=env).stdout
                    return float(out.split()[-1])
                sides = {"thundercc": ours_once, "eager": lambda: peer_once("eager")}
                if name not in TRAINING:  # TorchScript's frozen graph is for inference
                    sides["torchscript"] = lambda: peer_once("torchscript")
                figures = interleaved(sides, rounds)
                ours, eager = median(figures["thundercc"]), median(figures["eager"])
                script = median(figures["torchscript"]) if "torchscript" in figures else None
                flops = multiply_add_flops(name)
                share = lambda ms: f"{100 * flops / (ms / 1e3) / 1e9 / peak:4.0f}%"
                # The ratio a program would have whose products all ran at the peak and the rest took no time.
                at_peak_ms = flops / (peak * 1e9) * 1e3
                print(f"  {name:<19} {flops / 1e9:6.2f} GFLOP   thundercc {ours:8.1f} ms ({share(ours)} of FMA peak)   "
                      f"eager (OpenBLAS) {eager:8.1f} ms ({ratio_range(figures['thundercc'], figures['eager'])}; "
                      f"{at_peak_ms / eager:.2f}x at the peak)"
                      + ("" if name in TRAINING else f"   TorchScript frozen {script:8.1f} ms "
                         f"({ratio_range(figures['thundercc'], figures['torchscript'])}, {share(script)}; {at_peak_ms / script:.2f}x at the peak)"))
            print(f"  matrix products timed on both libraries, at {threads} thread{'s' if threads > 1 else ''}: {library_wins(threads)}")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--peer":
        print(f"{peer_ms(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])):.3f}")
    else:
        main()
