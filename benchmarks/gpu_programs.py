"""The programs of the GPU benchmark (benchmarks/gpu_bench.py, issue 44), as capture factories.
What each makes is set by the environment, so that one factory serves every case:
GPU_BENCH_DTYPE (float32 | bfloat16), GPU_BENCH_MODE (inference | training: the parameters
require grad, and the plan is a forward and a backward), GPU_BENCH_SMALL=1 (sizes that run on a
CPU in seconds: the dry run that checks the benchmark itself).

    resnet50        batch 32, 224 x 224 (small: resnet18, batch 2, 64 x 64)
    vit_b_16        batch 16, 224 x 224 (small: 2 layers of width 64, image 32, patch 16)
    gpt2_stack      2 GPT-2 blocks, d768, 12 heads, batch 8 x 1024 tokens (small: d64, 2 x 32)
    llama_block     d2048, 32 heads, 8 KV heads (GQA), SwiGLU 5632, batch 4 x 512 (small: d64, 4 / 2 heads, 2 x 32)
    gelu, softmax, layer_norm, rms_norm   one fused region each on 16M float32 values (64 MB;
                    small: 64K), a [4096, 4096] tensor: the bandwidth cases
"""
import os
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "examples" / "models"))
import gpt2_block  # noqa: E402
import llama_block  # noqa: E402

SMALL = os.environ.get("GPU_BENCH_SMALL") == "1"
DTYPE = getattr(torch, os.environ.get("GPU_BENCH_DTYPE", "float32"))
TRAINING = os.environ.get("GPU_BENCH_MODE", "inference") == "training"


def _prepared(model, *inputs):
    """The model and inputs in the case's dtype, parameters requiring grad for a training step."""
    model = model.to(DTYPE).train(TRAINING).requires_grad_(TRAINING)
    return model, tuple(x.to(DTYPE) if x.is_floating_point() else x for x in inputs)


def make_resnet50():
    import torchvision
    torch.manual_seed(0)
    if SMALL:
        return _prepared(torchvision.models.resnet18(num_classes=10), torch.randn(2, 3, 64, 64))
    return _prepared(torchvision.models.resnet50(), torch.randn(32, 3, 224, 224))


def make_vit_b_16():
    import torchvision
    torch.manual_seed(0)
    if SMALL:
        model = torchvision.models.VisionTransformer(image_size=32, patch_size=16, num_layers=2, num_heads=2, hidden_dim=64,
                                                     mlp_dim=128, num_classes=10)
        args = (torch.randn(2, 3, 32, 32),)
    else:
        model, args = torchvision.models.vit_b_16(), (torch.randn(16, 3, 224, 224),)
    torch.nn.init.normal_(model.heads.head.weight, std=0.02)  # torchvision makes it zeros: every output would be the bias
    return _prepared(model, *args)


class GptStack(torch.nn.Module):
    def __init__(self, layers, embed, heads, tokens):
        super().__init__()
        self.blocks = torch.nn.Sequential(*(gpt2_block.Block(embed=embed, heads=heads, block_size=tokens) for _ in range(layers)))

    def forward(self, x):
        return self.blocks(x)


def make_gpt2_stack():
    torch.manual_seed(0)
    embed, heads, batch, tokens = (64, 4, 2, 32) if SMALL else (768, 12, 8, 1024)
    return _prepared(GptStack(2, embed, heads, tokens), torch.randn(batch, tokens, embed))


def make_llama_block():
    torch.manual_seed(0)
    if SMALL:
        return _prepared(llama_block.Block(dim=64, heads=4, kv_heads=2, hidden=176, max_len=32), torch.randn(2, 32, 64))
    return _prepared(llama_block.Block(dim=2048, heads=32, kv_heads=8, hidden=5632, max_len=512), torch.randn(4, 512, 2048))


def _region_input():
    torch.manual_seed(0)
    rows = 256 if SMALL else 4096
    return torch.randn(rows, 4096)


def make_gelu():
    return (lambda x: torch.nn.functional.gelu(x, approximate="tanh")), (_region_input(),)


def make_softmax():
    return (lambda x: torch.softmax(x, -1)), (_region_input(),)


def make_layer_norm():
    x = _region_input()
    return (lambda x, w, b: torch.nn.functional.layer_norm(x, (4096,), w, b)), (x, torch.randn(4096), torch.randn(4096))


def make_rms_norm():
    x = _region_input()
    return (lambda x, w: x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * w), (x, torch.randn(4096))
