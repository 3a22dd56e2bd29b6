"""Each matrix product of the training steps (the GPT-2 block d768 at 4 x 256 tokens, and
benchmarks/train_step.py's d256 GPT-2 and LLaMA blocks) against this machine's FMA peak (issue 42:
"every matrix product of the step at >= 80% of the true peak, or the reason it cannot be"), at one
thread, LibTorch given OpenBLAS as in benchmarks/peers.py. The rates are `thundercc run --profile`'s
(each product's flops over its time, median over the timed runs); the peak is benchmarks/fma_peak.cpp's,
measured in the same run. Prints the products' overall share of the peak, their share of the step's
time, and each product below 80% with its operands' shapes.

Usage: /usr/bin/python3 benchmarks/product_rates.py   (THUNDERCC names the binary; fma_peak lies beside it)
Prints figures; asserts nothing about them."""
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
from peers import make_gpt2_training  # noqa: E402
from thundercc_frontend import capture, saveable  # noqa: E402
from train_step import make_gpt2, make_llama  # noqa: E402

STEPS = {"gpt2_block d768": make_gpt2_training, "gpt2 d256": make_gpt2, "llama d256": make_llama}
ROW = re.compile(r"^ *([\d.]+) +[\d.]+% +([\d.]+) +(\S+) = (.*)$")


def shapes(trace_text, statement):
    """The types of the product's operands, from the printed traces' comments (`# t3: "cpu f32[4, 8]"`)."""
    names = re.findall(r"\b(t\w*|x)\b", statement.split("(", 1)[1])
    types = {name: re.search(rf'\b{name}: "cpu ([^"]+)"', trace_text) for name in names}
    return ", ".join(types[n].group(1) if types[n] else n for n in names)


def main():
    thundercc = os.environ.get("THUNDERCC", str(REPO / "build" / "thundercc"))
    env = {**openblas_environment(), "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"}
    fma = subprocess.run([str(Path(thundercc).parent / "fma_peak"), "1"], check=True, capture_output=True, text=True).stdout
    peak = float(re.search(r"fma_peak_gflops ([0-9.]+)", fma).group(1))
    print(f"matrix products of the training steps, one thread, against the FMA peak {peak:.1f} GFLOP/s "
          f"({re.search(r'isa (.+)', fma).group(1)}), measured in the same run:")
    with tempfile.TemporaryDirectory(prefix="rates.") as work:
        work = Path(work)
        for name, make in STEPS.items():
            stem = name.replace(" ", "_")
            model, args = make()
            captured = capture(model, *args)
            captured.save(work / f"{stem}.json")
            torch.save(tuple(saveable(t) for t in captured.input_values), work / f"{stem}.inputs.pt")
            subprocess.run([thundercc, "compile", work / f"{stem}.json", "-o", work], check=True, capture_output=True)
            result = subprocess.run([thundercc, "run", work / f"{stem}.plan.json", "--inputs", work / f"{stem}.inputs.pt", "--threads", "1",
                                     "--warmup", "1", "--repeat", "5", "--profile"], check=True, capture_output=True, text=True, env=env)
            traces = "".join(p.read_text() for p in work.glob(f"{stem}.*.trace.py"))
            rows = [m.groups() for m in map(ROW.match, result.stdout.splitlines()) if m]
            share = re.findall(r"matrix products and convolutions: ([\d.]+)% of the time, ([\d.]+) GFLOP/s", result.stdout)
            below = [(float(rate), us, out, statement) for us, rate, out, statement in rows if float(rate) < 0.8 * peak]
            print(f"  {name:<16} {len(rows)} products, {len(rows) - len(below)} at >= 80% of peak; "
                  + "; ".join(f"{program}: {float(t):.0f}% of the time at {100 * float(r) / peak:.0f}% of peak"
                              for program, (t, r) in zip(("forward", "backward"), share)))
            for rate, us, out, statement in sorted(below):
                print(f"    {100 * rate / peak:3.0f}% of peak, {float(us):8.1f} us: {out} = {statement}   [{shapes(traces, statement)}]")


if __name__ == "__main__":
    main()
