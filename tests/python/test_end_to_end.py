"""Capture, compile, run, compare with PyTorch eager: every sample of the meta-function table and
the example models go through thundercc compile and thundercc's runtime, and the outputs must
match eager PyTorch within Thunder's tolerances."""
import os
import subprocess

from pathlib import Path

from conftest import save_case
from test_meta_vs_torch import SAMPLES


PTXAS = Path("/usr/local/cuda/bin/ptxas")


def check_plans(directory, count, *options):
    result = subprocess.run([os.environ["THUNDERCC_CHECK_PLANS"], directory, *options], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr + result.stdout
    assert f"{count} plans checked, 0 failed" in result.stdout


def test_every_sample_runs_and_matches_eager(tmp_path, thundercc):
    """With the default executors (ATen runs whole torch ops), with `torch_prims` (every op runs
    as its decomposition into prims), which checks the decompositions and the prims' kernels, and
    with `fuser,torch`, which checks every generated kernel against eager on the samples of the
    ops it fuses: the CPU kernels, and the CUDA kernels under the emulator."""
    whole, decomposed, fused = tmp_path / "whole", tmp_path / "decomposed", tmp_path / "fused"
    whole.mkdir()
    decomposed.mkdir()
    fused.mkdir()
    traces = []
    for i, sample in enumerate(SAMPLES):
        fn, args, kwargs = sample.values
        name = f"s{i:03d}_{sample.id.rsplit('-', 1)[0]}"
        traces.append(save_case(whole, name, fn, args, kwargs))
        for io in ("inputs", "expected", "expected64"):
            if (whole / f"{name}.{io}.pt").exists():
                for other in (decomposed, fused):
                    (other / f"{name}.{io}.pt").write_bytes((whole / f"{name}.{io}.pt").read_bytes())
    thundercc("compile", *traces, "-o", whole)
    thundercc("compile", *traces, "-o", decomposed, "--executors", "torch_prims")
    thundercc("compile", *traces, "-o", fused, "--executors", "fuser,torch", "--emit-cuda")
    check_plans(whole, len(SAMPLES))
    check_plans(decomposed, len(SAMPLES))
    check_plans(fused, len(SAMPLES))
    regions = sum(p.read_text().count(" = fuser_") for p in fused.glob("*.py"))
    print(f"\nfuser: {len(list(fused.glob('*.kernels.so')))} of {len(SAMPLES)} samples run generated kernels ({regions} fusion regions)")
    assert regions > 900
    # The same regions as CUDA kernels: NVRTC compiled each plan's module (compile fails
    # otherwise), ptxas assembles it, and the emulator runs every kernel against eager.
    ptx = sorted(fused.glob("*.kernels.ptx"))
    if PTXAS.exists() and ptx:
        kernels = 0
        for p in ptx:
            kernels += p.read_text().count(".entry ")
            result = subprocess.run([PTXAS, "-arch=sm_80", p, "-o", os.devnull], capture_output=True, text=True)
            assert result.returncode == 0, f"{p.name}: {result.stderr}"
        assert len(ptx) == len(list(fused.glob("*.kernels.so")))
        print(f"fuser: {kernels} CUDA kernels in {len(ptx)} PTX modules compiled by NVRTC and assembled by ptxas")
    assert len(list(fused.glob("*.cuda_emulation.so"))) == len(list(fused.glob("*.kernels.so")))
    check_plans(fused, len(SAMPLES), "--cuda-emulate")
    os.environ["THUNDERCC_CUDA_EMULATOR"] = "alternate"  # threads in the other order, blocks over several rows
    try:
        check_plans(fused, len(SAMPLES), "--cuda-emulate")
    finally:
        del os.environ["THUNDERCC_CUDA_EMULATOR"]
    print(f"fuser: the CUDA kernels of {regions} regions, run under the emulator both ways, match eager")
