"""Eager PyTorch's training step on the GPU, timed as `thundercc run --warmup 5 --repeat 50` times a
plan: the forward and the backward of FILE.py:FACTORY (every output that requires grad seeded with
ones, as capture --grad and run do), after 5 warm-ups, median of 50, the device synchronized.
scripts/gpu_check.sh prints it beside the plan's time.

    python3 benchmarks/gpu_eager_step.py examples/models/mlp.py:make
"""
import statistics
import sys
import time

import torch

from thundercc_frontend.__main__ import load_factory


def step(fn, args, kwargs):
    outputs = fn(*args, **kwargs)
    outputs = outputs if isinstance(outputs, (tuple, list)) else (outputs,)
    seeded = [t for t in outputs if isinstance(t, torch.Tensor) and t.requires_grad]
    torch.autograd.backward(seeded, [torch.ones_like(t) for t in seeded])


def main(spec: str) -> None:
    fn, args, kwargs = load_factory(spec, torch.device("cuda"))
    times = []
    for i in range(55):
        torch.cuda.synchronize()
        start = time.perf_counter()
        step(fn, args, kwargs)
        torch.cuda.synchronize()
        if i >= 5:
            times.append(time.perf_counter() - start)
    print(f"{spec}: eager on {torch.cuda.get_device_name(0)}, 50 runs after 5 warm-up: "
          f"median {statistics.median(times) * 1e3:.3f} ms, min {min(times) * 1e3:.3f} ms")


if __name__ == "__main__":
    main(sys.argv[1])
