"""The training-step benchmark's programs: a GPT-2 block (d256, 4 heads) and a LLaMA block (d256,
8 heads, 2 KV heads) on a batch of 4 x 128 tokens, parameters requiring grad. Run as a script,
it times PyTorch eager's forward and backward (autograd, ones as the output's gradient) with one
intra-op thread and prints the median in ms.

    python3 benchmarks/train_step.py gpt2|llama [ROUNDS]
"""
import statistics
import sys
import time
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "examples" / "models"))
import gpt2_block  # noqa: E402
import llama_block  # noqa: E402


def make_gpt2():
    torch.manual_seed(0)
    return gpt2_block.Block(embed=256, heads=4, block_size=128), (torch.randn(4, 128, 256),)


def make_llama():
    torch.manual_seed(0)
    return llama_block.Block(dim=256, heads=8, kv_heads=2, hidden=688, max_len=128), (torch.randn(4, 128, 256),)


def median_ms(step, rounds):
    """The median time of step() in ms over `rounds` runs, after one that warms up."""
    times = []
    for i in range(rounds + 1):
        start = time.perf_counter()
        step()
        if i:
            times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def eager_ms(make, rounds):
    model, args = make()
    params = [p for p in model.parameters() if p.requires_grad]

    def step():
        out = model(*args)
        torch.autograd.grad(out, params, torch.ones_like(out))
    return median_ms(step, rounds)


if __name__ == "__main__":
    torch.set_num_threads(1)
    which = sys.argv[1]
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    print(f"{eager_ms({'gpt2': make_gpt2, 'llama': make_llama}[which], rounds):.3f}")
