"""The inference benchmark's programs (issue "Performance"'s table): a GPT-2 block (d768, 12
heads) and a LLaMA block (d1024, 16 heads, 4 KV heads) on a batch of 4 x 256 tokens, parameters
not requiring grad. Run as a script, it times PyTorch eager's forward (no_grad) with one intra-op
thread and prints the median in ms.

    python3 benchmarks/inference_blocks.py gpt2|llama [ROUNDS]
"""
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "examples" / "models"))
import gpt2_block  # noqa: E402
import llama_block  # noqa: E402
from train_step import median_ms  # noqa: E402


def _frozen(model):
    for p in model.parameters():
        p.requires_grad_(False)
    return model.eval()


def make_gpt2():
    torch.manual_seed(0)
    return _frozen(gpt2_block.Block(embed=768, heads=12, block_size=256)), (torch.randn(4, 256, 768),)


def make_llama():
    torch.manual_seed(0)
    return _frozen(llama_block.Block(dim=1024, heads=16, kv_heads=4, hidden=2816, max_len=256)), (torch.randn(4, 256, 1024),)


def eager_ms(make, rounds):
    model, args = make()
    with torch.no_grad():
        return median_ms(lambda: model(*args), rounds)


if __name__ == "__main__":
    torch.set_num_threads(1)
    which = sys.argv[1]
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    print(f"{eager_ms({'gpt2': make_gpt2, 'llama': make_llama}[which], rounds):.3f}")
