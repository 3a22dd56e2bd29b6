"""The fusion benchmark's programs: tanh-GELU written out (8 elementwise ops) on 8M and 32M
floats and on 8M bfloat16 values, GPT-2's NewGELU (the same with torch.pow) on 8M floats, softmax and layer_norm on [4096, 4096]. `make_<name>()` is the
capture factory; `python3 fusion_programs.py NAME ROUNDS` prints eager's median time in ms (one thread), and
`... NAME ROUNDS aten` ATen's own fused kernel for the same result (gelu and softmax into a
preallocated buffer; layer_norm, which has no out= form in PyTorch 1.13, allocating its output),
the bar a generated kernel is held to."""
import sys
import time

import torch
import torch.nn.functional as F


def gelu(x):
    return 0.5 * x * (1.0 + torch.tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)))


def new_gelu(x):
    """GPT-2's NewGELU: the same GELU with torch.pow (issue 28: 26x slower than x * x * x before
    the fuser multiplied)."""
    return 0.5 * x * (1.0 + torch.tanh(0.7978845608028654 * (x + 0.044715 * torch.pow(x, 3.0))))


def softmax(x):
    return torch.softmax(x, -1)


def layer_norm(x, w, b):
    return F.layer_norm(x, (x.shape[-1],), w, b)


def make_gelu_8m():
    torch.manual_seed(0)
    return gelu, (torch.randn(8 << 20),)


def make_gelu_32m():
    torch.manual_seed(0)
    return gelu, (torch.randn(32 << 20),)


def make_gelu_bf16_8m():
    torch.manual_seed(0)
    return gelu, (torch.randn(8 << 20).to(torch.bfloat16),)


def make_new_gelu_8m():
    torch.manual_seed(0)
    return new_gelu, (torch.randn(8 << 20),)


def make_softmax():
    torch.manual_seed(0)
    return softmax, (torch.randn(4096, 4096),)


def make_layer_norm():
    torch.manual_seed(0)
    return layer_norm, (torch.randn(4096, 4096), torch.randn(4096), torch.randn(4096))


def aten_into_buffer(name, args):
    out = torch.empty_like(args[0])
    if "gelu" in name:
        return lambda: torch._C._nn.gelu(args[0], approximate="tanh", out=out)
    if name == "softmax":
        return lambda: torch.softmax(args[0], -1, out=out)
    return lambda: layer_norm(*args)


def median_ms(fn, rounds):
    fn()
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1e3)
    return sorted(times)[len(times) // 2]


if __name__ == "__main__":
    torch.set_num_threads(1)
    name, rounds = sys.argv[1], int(sys.argv[2])
    fn, args = globals()["make_" + name]()
    with torch.inference_mode():
        if len(sys.argv) > 3 and sys.argv[3] == "aten":
            print(f"{median_ms(aten_into_buffer(name, args), rounds):.3f}")
        else:
            print(f"{median_ms(lambda: fn(*args), rounds):.3f}")
