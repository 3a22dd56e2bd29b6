"""Writes every sample of the OpInfo table as a trace (DIR/sNNN_op.json) and, for the
differentiable ones, a float64 training-step variant (DIR/gNNN_op.json): the inputs of
scripts/check_clang_goldens.sh, which compiles them with two builds and compares the output."""
import sys
from pathlib import Path

import torch

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests" / "python"))
from conftest import capture  # noqa: E402
from test_meta_vs_torch import SAMPLES  # noqa: E402


def main(out):
    out.mkdir(parents=True, exist_ok=True)
    written = 0
    for i, sample in enumerate(SAMPLES):
        fn, args, kwargs = sample.values
        op = sample.id.rsplit("-", 1)[0].replace(".", "_")
        capture(fn, *args, **kwargs).save(out / f"s{i:03d}_{op}.json")
        written += 1
        grad_args = tuple(a.detach().double().requires_grad_(True) if isinstance(a, torch.Tensor) and a.is_floating_point() else a
                          for a in args)
        if not any(isinstance(a, torch.Tensor) and a.requires_grad for a in grad_args):
            continue
        try:
            capture(fn, *grad_args, **kwargs).save(out / f"g{i:03d}_{op}.json")
            written += 1
        except Exception:  # a sample PyTorch does not run in float64
            pass
    print(f"{written} traces in {out}")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
