"""The runner benchmark's program: 100 tiny elementwise ops in a chain, x = op(x, b), cycling
through add, mul, sub, maximum on float32[16] tensors. `make()` is the capture factory;
running this file times the same program in PyTorch eager (the same LibTorch), per op, in
inference mode (eager's fastest; the runner runs in it too)."""
import sys
import time

import torch

OPS = [torch.add, torch.mul, torch.sub, torch.maximum]
N_OPS = 100
SIZE = 16


def chain(a, b):
    x = a
    for i in range(N_OPS):
        x = OPS[i % len(OPS)](x, b)
    return x


def make():
    torch.manual_seed(0)
    return chain, (torch.randn(SIZE), torch.randn(SIZE))


def eager_ns_per_op(repeats=2000, rounds=7):
    _, (a, b) = make()
    with torch.inference_mode():
        for _ in range(200):
            chain(a, b)
        best = []
        for _ in range(rounds):
            start = time.perf_counter_ns()
            for _ in range(repeats):
                chain(a, b)
            best.append((time.perf_counter_ns() - start) / repeats / N_OPS)
    best.sort()
    return best[len(best) // 2]


if __name__ == "__main__":
    torch.set_num_threads(1)
    print(f"{eager_ns_per_op():.1f}")
    sys.exit(0)
