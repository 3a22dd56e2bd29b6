"""The compile benchmark's programs: stacks of GPT-2 blocks (examples/models/gpt2_block.py) of
1, 6 and 24 layers, to see how `thundercc compile` time grows with trace size."""
import sys
from pathlib import Path

import torch
from torch import nn

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "examples" / "models"))
from gpt2_block import Block  # noqa: E402


class Stack(nn.Module):
    def __init__(self, layers):
        super().__init__()
        self.blocks = nn.ModuleList(Block() for _ in range(layers))

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        return x


def make_stack(layers):
    torch.manual_seed(0)
    return Stack(layers), (torch.randn(2, 16, 64),)


def make_1():
    return make_stack(1)


def make_6():
    return make_stack(6)


def make_24():
    return make_stack(24)


def make_96():
    return make_stack(96)


def make_96_inference():
    """The issue "Performance"'s compile benchmark: 96 layers, parameters without grad."""
    model, args = make_stack(96)
    model.requires_grad_(False)
    return model, args
