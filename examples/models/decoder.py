"""A small GPT-style decoder (token and position embeddings, two GPT-2 blocks, a tied head), in two
variants that differ in one op: `make` uses exact GELU, `make_tanh` the tanh approximation. The
pair is what `thundercc diff` and `--names stable` are measured on (docs/reviewing.md)."""
import torch
import torch.nn.functional as F
from torch import nn

from gpt2_block import CausalSelfAttention


class MLP(nn.Module):
    def __init__(self, embed, approximate):
        super().__init__()
        self.c_fc = nn.Linear(embed, 4 * embed)
        self.c_proj = nn.Linear(4 * embed, embed)
        self.approximate = approximate

    def forward(self, x):
        return self.c_proj(F.gelu(self.c_fc(x), approximate=self.approximate))


class Block(nn.Module):
    def __init__(self, embed, heads, block_size, approximate):
        super().__init__()
        self.ln_1 = nn.LayerNorm(embed)
        self.attn = CausalSelfAttention(embed, heads, block_size)
        self.ln_2 = nn.LayerNorm(embed)
        self.mlp = MLP(embed, approximate)

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))


class Decoder(nn.Module):
    def __init__(self, vocab=96, embed=64, heads=4, block_size=16, layers=2, approximate="none"):
        super().__init__()
        self.wte = nn.Embedding(vocab, embed)
        self.wpe = nn.Embedding(block_size, embed)
        self.h = nn.ModuleList(Block(embed, heads, block_size, approximate) for _ in range(layers))
        self.ln_f = nn.LayerNorm(embed)

    def forward(self, idx):
        x = self.wte(idx) + self.wpe(torch.arange(idx.shape[1]))
        for block in self.h:
            x = block(x)
        return self.ln_f(x) @ self.wte.weight.t()


def _make(approximate):
    torch.manual_seed(0)
    return Decoder(approximate=approximate), (torch.randint(0, 96, (2, 16)),)


def make():
    return _make("none")


def make_tanh():
    return _make("tanh")
