#!/usr/bin/python3
"""Real models end to end: torchvision 0.14's classification zoo and torch.nn's Transformer and
recurrent modules, with random weights, each captured, compiled, run and compared with eager.

    /usr/bin/python3 scripts/zoo.py [MODEL ...] [--fast] [--keep DIR] [--markdown]

With no MODEL, every model (--fast: those small enough for CI). Prints one line per model (pass,
or the stage that failed and its first error line) and the counts; exits 1 if any failed.
Models run in eval mode with their batch norm statistics randomized, so normalization is not a
no-op; one thread, as the comparison is about results, not speed.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))  # the front end package, thundercc_frontend

import torch  # noqa: E402

from thundercc_frontend import CaptureError, capture, thundercc_binary  # noqa: E402


def _image(size: int, batch: int = 1):
    return lambda: (torch.randn(batch, 3, size, size),)


def _tv(name: str, size: int = 64, **kwargs):
    def make():
        import torchvision.models as models

        return getattr(models, name)(weights=None, **kwargs)

    return make, _image(size)


def _transformer_layer():
    return torch.nn.TransformerEncoderLayer(d_model=32, nhead=4, dim_feedforward=64, dropout=0.0, batch_first=True)


def _nn_models():
    seq = lambda *shape: (lambda: (torch.randn(*shape),))  # noqa: E731
    return {
        "nn.MultiheadAttention": (lambda: _SelfAttention(), seq(2, 5, 32)),
        "nn.TransformerEncoderLayer": (_transformer_layer, seq(2, 5, 32)),
        "nn.TransformerEncoder": (lambda: torch.nn.TransformerEncoder(_transformer_layer(), num_layers=2,
                                                                       enable_nested_tensor=False), seq(2, 5, 32)),
        "nn.Transformer": (lambda: torch.nn.Transformer(d_model=32, nhead=4, num_encoder_layers=2, num_decoder_layers=2,
                                                        dim_feedforward=64, dropout=0.0, batch_first=True),
                           lambda: (torch.randn(2, 5, 32), torch.randn(2, 4, 32))),
        "nn.LSTM": (lambda: torch.nn.LSTM(16, 24, num_layers=2, batch_first=True), seq(3, 7, 16)),
        "nn.GRU": (lambda: torch.nn.GRU(16, 24, num_layers=2, batch_first=True), seq(3, 7, 16)),
    }


class _SelfAttention(torch.nn.Module):
    """nn.MultiheadAttention as self-attention, returning the attended values and the weights."""

    def __init__(self):
        super().__init__()
        self.attention = torch.nn.MultiheadAttention(32, 4, batch_first=True)

    def forward(self, x):
        return self.attention(x, x, x)


# Sizes: the smallest input each architecture accepts (or 64), to keep CI fast.
TORCHVISION = {
    "alexnet": _tv("alexnet", 64), "googlenet": _tv("googlenet", 64, aux_logits=False, init_weights=True),
    "inception_v3": _tv("inception_v3", 75, aux_logits=False, init_weights=True),
    "vit_b_16": _tv("vit_b_16", 32, image_size=32), "vit_b_32": _tv("vit_b_32", 32, image_size=32),
    "vit_l_16": _tv("vit_l_16", 32, image_size=32), "vit_l_32": _tv("vit_l_32", 32, image_size=32),
    "vit_h_14": _tv("vit_h_14", 28, image_size=28), "maxvit_t": _tv("maxvit_t", 224),
}
for _name in ["convnext_tiny", "convnext_small", "convnext_base", "convnext_large",
              "densenet121", "densenet161", "densenet169", "densenet201",
              *[f"efficientnet_b{i}" for i in range(8)], "efficientnet_v2_s", "efficientnet_v2_m", "efficientnet_v2_l",
              "mnasnet0_5", "mnasnet0_75", "mnasnet1_0", "mnasnet1_3", "mobilenet_v2", "mobilenet_v3_large",
              "mobilenet_v3_small",
              *[f"regnet_{k}_{s}" for k in "yx" for s in ["400mf", "800mf", "1_6gf", "3_2gf", "8gf", "16gf", "32gf"]],
              "regnet_y_128gf", "resnet18", "resnet34", "resnet50", "resnet101", "resnet152", "resnext50_32x4d",
              "resnext101_32x8d", "resnext101_64x4d", "wide_resnet50_2", "wide_resnet101_2",
              "shufflenet_v2_x0_5", "shufflenet_v2_x1_0", "shufflenet_v2_x1_5", "shufflenet_v2_x2_0",
              "squeezenet1_0", "squeezenet1_1", *[f"vgg{d}{bn}" for d in (11, 13, 16, 19) for bn in ("", "_bn")],
              "swin_t", "swin_s", "swin_b", "swin_v2_t", "swin_v2_s", "swin_v2_b"]:
    TORCHVISION.setdefault(_name, _tv(_name, 64))

MODELS = {**TORCHVISION, **_nn_models()}

# Small enough to capture, compile and run in a few seconds each on 2 cores: the CI set.
FAST = ["alexnet", "resnet18", "resnet50", "mobilenet_v2", "mobilenet_v3_small", "efficientnet_b0", "convnext_tiny",
        "densenet121", "googlenet", "inception_v3", "mnasnet0_5", "regnet_y_400mf", "regnet_x_400mf",
        "shufflenet_v2_x0_5", "squeezenet1_1", "vgg11_bn", "vit_b_32", "swin_t", "swin_v2_t", "maxvit_t",
        *_nn_models()]


def build(name: str):
    make_model, make_inputs = MODELS[name]
    torch.manual_seed(0)
    model = make_model().eval()
    for m in model.modules():
        if isinstance(m, torch.nn.modules.batchnorm._BatchNorm) and m.running_mean is not None:
            m.running_mean.uniform_(-0.5, 0.5)
            m.running_var.uniform_(0.5, 2.0)
    for p in model.parameters():
        p.requires_grad_(False)
    return model, make_inputs()


def check(name: str, directory: Path, thundercc: str) -> tuple[str, str]:
    """Returns (status, detail): status is 'pass' or the stage that failed."""
    model, inputs = build(name)
    stem = name.replace(".", "_")
    try:
        with torch.no_grad():
            captured = capture(model, *inputs)
    except CaptureError as e:
        return "capture", str(e)
    trace = directory / f"{stem}.json"
    captured.save(trace)
    torch.save(tuple(t.detach() for t in captured.input_values), directory / f"{stem}.inputs.pt")
    torch.save(captured.expected_outputs(), directory / f"{stem}.expected.pt")
    result = subprocess.run([thundercc, "compile", trace, "-o", directory], capture_output=True, text=True)
    if result.returncode != 0:
        return "compile", result.stderr.strip()
    # A model's output after dozens of layers carries float32 rounding that depends on the order of
    # the sums in each product (oneDNN's blocked matrix products against eager's BLAS), and it scales
    # with the size of the terms summed, not of the result: compared at rtol 1e-4 and an atol of
    # 1e-5 of the output's largest magnitude (inception_v3's random logits reach 2e7, where one
    # float32 step is 2), not the per-op tolerances.
    scale = max([float(t.detach().abs().max()) for t in captured.output_values if t is not None and t.numel()] + [1.0])
    result = subprocess.run([thundercc, "run", directory / f"{stem}.plan.json", "--inputs", directory / f"{stem}.inputs.pt",
                             "--expect", directory / f"{stem}.expected.pt", "--rtol", "1e-4", "--atol", str(1e-5 * scale)],
                            capture_output=True, text=True)
    if result.returncode != 0:
        return "run", (result.stderr or result.stdout).strip()
    return "pass", f"{len(captured.bound_symbols)} bound symbols"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("models", nargs="*", help="model names (default: all)")
    parser.add_argument("--fast", action="store_true", help="only the models small enough for CI")
    parser.add_argument("--keep", type=Path, help="keep traces, plans and tensors in this directory")
    parser.add_argument("--markdown", action="store_true", help="print a markdown table")
    opts = parser.parse_args()
    names = opts.models or (FAST if opts.fast else list(MODELS))
    unknown = [n for n in names if n not in MODELS]
    if unknown:
        parser.error(f"unknown model(s): {', '.join(unknown)}; known: {', '.join(MODELS)}")
    torch.set_num_threads(1)
    thundercc = thundercc_binary()
    directory = opts.keep or Path(tempfile.mkdtemp(prefix="thundercc-zoo-"))
    directory.mkdir(parents=True, exist_ok=True)
    failed = 0
    if opts.markdown:
        print("| model | result |\n|---|---|")
    for name in names:
        start = time.perf_counter()
        status, detail = check(name, directory, thundercc)
        seconds = time.perf_counter() - start
        failed += status != "pass"
        first = detail.splitlines()[0] if detail else ""
        if opts.markdown:
            print(f"| {name} | {'passes' if status == 'pass' else f'fails in {status}: {first}'} |")
        else:
            print(f"{name:28s} {status:8s} {seconds:6.1f}s  {first[:200]}", flush=True)
    print(f"zoo: {len(names) - failed} of {len(names)} models match eager")
    if not opts.keep:
        for f in directory.iterdir():
            f.unlink()
        directory.rmdir()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
