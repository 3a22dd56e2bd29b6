"""The fusion executor end to end: programs captured, compiled with `--executors fuser,torch`,
their regions checked in the printed trace, run through the generated kernels and compared with
eager; the printed form against a golden file; the library's hash check and the kernel cache."""
import hashlib
import json
import os
import platform
import re
import subprocess
from pathlib import Path

import pytest
import torch
import torch.nn.functional as F

from conftest import REPO, save_case

torch.manual_seed(0)

PTXAS = Path("/usr/local/cuda/bin/ptxas")


def gelu(x):
    return 0.5 * x * (1.0 + torch.tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)))


def chain(a, b):
    x = a
    for i in range(100):
        x = [torch.add, torch.mul, torch.sub, torch.maximum][i % 4](x, b)
    return x


def rms_norm(x, w):
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * w


def mixed(a, i, m):
    # integers, bools, where and comparisons in one region
    return torch.where(m & (i > 0), a * i, -a.abs()), (i * 3 - 1).bitwise_xor(i), a.amin(-1), a.var(-1, correction=2)


def new_gelu(x):
    """GPT-2's NewGELU, with torch.pow: the kernel multiplies, as eager does."""
    return 0.5 * x * (1.0 + torch.tanh(0.7978845608028654 * (x + 0.044715 * torch.pow(x, 3.0))))


def powers(x):
    """The exponents ATen computes without pow, and one it does not: the same results as eager's,
    at negative numbers, zeros, infinities and NaN too."""
    return tuple(x.pow(e) for e in (0, 1, 2, 3, 0.5, -0.5, -1, -2, 2.5))


SPECIAL_VALUES = torch.tensor([-3.0, -1.5, -0.0, 0.0, 0.25, 1.0, 2.0, 7.5, float("inf"), float("-inf"), float("nan")])


def with_nan(a):
    a = a.clone()
    return torch.maximum(a, torch.zeros_like(a)).amax(-1), torch.softmax(a, -1)


def every_reduction(x):
    return x.sum(-1), x.prod(-1), x.amax(-1), x.amin(-1), torch.var_mean(x, -1)


def with_nan_and_inf(rows, columns):
    """Values near 1 (products stay finite over long rows), a NaN in row 1 and -inf in row 2."""
    x = torch.rand(rows, columns) * 0.2 + 0.9
    x[1, 3] = float("nan")
    x[2, -1] = float("-inf")
    return x


def int64_sums(x):
    return (x + 1).sum(-1), (x - 1).amax(-1), x.amin(-1)


# name, program, inputs, fusion regions in the execution trace
PROGRAMS = [
    ("gelu", gelu, (torch.randn(3, 50),), 1),
    ("softmax", lambda x: torch.softmax(x, -1), (torch.randn(5, 33),), 1),
    ("log_softmax", lambda x: F.log_softmax(x, -1, dtype=torch.float64), (torch.randn(2, 3, 17),), 1),
    ("layer_norm", lambda x, w, b: F.layer_norm(x, (40,), w, b), (torch.randn(2, 6, 40), torch.randn(40), torch.randn(40)), 1),
    ("rms_norm", rms_norm, (torch.randn(4, 24), torch.randn(24)), 1),
    ("silu", F.silu, (torch.randn(7, 9),), 1),
    ("chain", chain, (torch.randn(16), torch.randn(16)), 1),
    ("broadcast_bias", lambda x, b: torch.tanh(x + b) * 2, (torch.randn(3, 4, 5), torch.randn(4, 1)), 1),
    # CUDA: no reduction, so the grid's threads stride over the 2,709 elements (11 blocks, a partial last one)
    ("row_input", lambda x, b: (torch.tanh(x + b) * 2, b * 3), (torch.randn(9, 301), torch.randn(9, 1)), 1),
    ("zero_dim", lambda x, s: x * s + 1, (torch.randn(()), torch.randn(())), 1),
    ("empty", lambda x: torch.exp(x).sum(-1), (torch.randn(3, 0),), 1),
    ("float64", lambda x: torch.softmax(x * 2, -1), (torch.randn(4, 8, dtype=torch.float64),), 1),
    ("mixed", mixed, (torch.randn(4, 6), torch.randint(-3, 3, (4, 6)), torch.rand(4, 6) > 0.5), 1),
    ("new_gelu", new_gelu, (torch.randn(3, 50),), 1),
    ("powers", powers, (torch.cat([SPECIAL_VALUES, torch.randn(30)]),), 1),
    # int64 beyond 2^53, and a product that wraps around as ATen's does
    ("int64_reductions", lambda x, y: ((x + 1).amax(-1), (x - 1).amin(-1), (y + 1).prod(-1), (x // 4).sum(-1)),
     (torch.randint(-2**62, 2**62, (3, 700)), torch.randint(1, 1000, (3, 9))), 3),
    # every kind of reduction, with NaN and -inf, over long rows (CUDA: a block each, its threads
    # striding over the columns) and short ones; sums of int64 values near 2^53, where a float64 rounds
    ("reductions_long_rows", every_reduction, (with_nan_and_inf(4, 700),), 1),
    # CUDA: every thread reads the sum, and a block takes several rows where at most 3 blocks run
    ("normalized_long_rows", lambda x: x / x.sum(-1, keepdim=True), (torch.rand(7, 300),), 1),
    ("reductions_short_rows", every_reduction, (with_nan_and_inf(37, 20),), 1),
    ("layer_norm_short_rows", lambda x, w, b: F.layer_norm(x, (32,), w, b), (torch.randn(50, 32), torch.randn(32), torch.randn(32)), 1),
    ("int64_near_2_53_long_rows", int64_sums, (2**53 + torch.randint(-64, 64, (3, 300)),), 1),
    ("int64_near_2_53_short_rows", int64_sums, (2**53 + torch.randint(-64, 64, (40, 9)),), 1),
    # CUDA: elementwise regions in 16-byte vectors (8 bfloat16s; 4 where floats are beside them;
    # 2 int64s) with a scalar tail, and views starting at an element that no vector's alignment allows
    ("bfloat16_vectors", lambda x, y: torch.sigmoid(x * y) * 3, tuple(torch.randn(3, 301).to(torch.bfloat16) for _ in range(2)), 1),
    ("mixed_width_vectors", lambda x, y: x.float() * y, (torch.randn(1001).to(torch.bfloat16), torch.randn(1001)), 1),
    ("int64_bool_vectors", lambda i, m: torch.where(m, i * 3, -i), (torch.randint(-9, 9, (999,)), torch.rand(999) > 0.5), 1),
    ("misaligned_view", lambda x: torch.tanh(x[1:]) * 2, (torch.randn(1001),), 1),
    ("misaligned_bfloat16_view", lambda x: torch.tanh(x[3:]) * 2, (torch.randn(1003).to(torch.bfloat16),), 1),
    ("aligned_view", lambda x: torch.tanh(x[4:]) * 2, (torch.randn(1004),), 1),
    # a value made in the region broadcast along its last dimension, which simplifying the region put first
    ("hypot_broadcast", torch.hypot, (torch.randn(5, 1), torch.randn(5)), 3),
]


@pytest.mark.parametrize("name,fn,args,regions", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_fused_program_matches_eager(name, fn, args, regions, tmp_path, thundercc):
    trace = save_case(tmp_path, name, fn, args)
    thundercc("compile", trace, "-o", tmp_path, "--executors", "fuser,torch")
    printed = (tmp_path / f"{name}.trace.py").read_text()
    assert printed.count(" = fuser_") == regions, printed
    assert (tmp_path / f"{name}.kernels.so").exists()
    thundercc("run", tmp_path / f"{name}.plan.json", "--inputs", tmp_path / f"{name}.inputs.pt",
              "--expect", tmp_path / f"{name}.expected.pt")


@pytest.mark.parametrize("name,fn,args,regions", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_cuda_kernel_under_the_emulator_matches_eager(name, fn, args, regions, tmp_path, thundercc):
    """The CUDA kernels (blocks of 256 threads, reductions by warp shuffles), run on the CPU
    by the emulator as the driver would launch them, then again with the threads taking turns in
    the other order and at most 3 blocks striding over the rows."""
    trace = save_case(tmp_path, name, fn, args)
    thundercc("compile", trace, "-o", tmp_path, "--executors", "fuser,torch", "--emit-cuda")
    assert (tmp_path / f"{name}.cuda_emulation.so").exists()
    for mode in ("default", "alternate"):
        thundercc("run", tmp_path / f"{name}.plan.json", "--cuda-emulate", "--inputs", tmp_path / f"{name}.inputs.pt",
                  "--expect", tmp_path / f"{name}.expected.pt", env={"THUNDERCC_CUDA_EMULATOR": mode})


def test_nan_propagates_like_aten(tmp_path, thundercc):
    a = torch.randn(3, 8)
    a[1, 3] = float("nan")
    trace = save_case(tmp_path, "nan", with_nan, (a,))
    thundercc("compile", trace, "-o", tmp_path, "--executors", "fuser,torch")
    out = tmp_path / "out.pt"
    thundercc("run", tmp_path / "nan.plan.json", "--inputs", tmp_path / "nan.inputs.pt", "--outputs", out)
    amax, softmax = torch.load(out)
    assert torch.isnan(amax[1]) and not torch.isnan(amax[0]) and torch.isnan(softmax[1]).all()
    torch.testing.assert_close(softmax[0], torch.softmax(a[0], -1))


@pytest.mark.parametrize("name,fn", [("relu", F.relu), ("relu_", lambda x: F.relu(x * 1, inplace=True)), ("relu_then_pool", lambda x: F.max_pool2d(F.relu(x.view(1, 1, 3, 4)), 2))])
def test_relu_keeps_nan_and_negative_zero_as_aten_does(name, fn, tmp_path, thundercc):
    a = torch.tensor([float("nan"), -0.0, 0.0, -1.5, 2.0, float("inf"), -float("inf"), float("nan"), 3.0, -2.0, 0.5, -0.0])
    trace = save_case(tmp_path, name, fn, (a,))
    thundercc("compile", trace, "-o", tmp_path, "--executors", "fuser,torch")
    out = tmp_path / "out.pt"
    thundercc("run", tmp_path / f"{name}.plan.json", "--inputs", tmp_path / f"{name}.inputs.pt", "--outputs", out)
    ours, eager = torch.load(out)[0], fn(a.clone())
    assert torch.equal(ours.isnan(), eager.isnan())
    assert torch.equal(torch.nan_to_num(ours), torch.nan_to_num(eager)) and torch.equal(ours.signbit(), eager.signbit())


def test_softmax_prints_as_one_region(tmp_path, thundercc):
    trace = save_case(tmp_path, "softmax", lambda x: torch.softmax(x, -1), (torch.randn(4, 64),))
    thundercc("compile", trace, "-o", tmp_path, "--executors", "fuser,torch")
    golden = REPO / "tests" / "golden" / "softmax.fuser.trace.py"
    assert (tmp_path / "softmax.trace.py").read_text() == golden.read_text()


def test_trusted_library_is_checked_before_loading(tmp_path, thundercc):
    trace = save_case(tmp_path, "gelu", gelu, (torch.randn(8),))
    thundercc("compile", trace, "-o", tmp_path, "--executors", "fuser,torch")
    library = tmp_path / "gelu.kernels.so"
    library.write_bytes(library.read_bytes() + b"\0")
    result = thundercc("run", tmp_path / "gelu.plan.json", "--trust-kernels", check=False)
    assert result.returncode == 1
    assert "not the library this plan was compiled with" in result.stderr
    library.unlink()
    result = thundercc("run", tmp_path / "gelu.plan.json", "--trust-kernels", check=False)
    assert result.returncode == 1 and "is missing" in result.stderr
    # Built here, the plan needs no file beside it.
    thundercc("run", tmp_path / "gelu.plan.json", "--inputs", tmp_path / "gelu.inputs.pt", "--expect", tmp_path / "gelu.expected.pt")


MALICIOUS = r"""
#include <stdio.h>
__attribute__((constructor)) static void at_load(void) { FILE* f = fopen(MARKER, "w"); if (f) fclose(f); }
"""


def test_a_plan_from_elsewhere_never_runs_its_senders_code(tmp_path, thundercc):
    """A sender controls the plan and every file beside it: a library with a constructor, its
    SHA-256 written into the plan, is never loaded; run builds the regions' kernels itself.
    Only --trust-kernels loads it (and then it does run: what the flag is for)."""
    trace = save_case(tmp_path, "gelu", gelu, (torch.randn(8),))
    thundercc("compile", trace, "-o", tmp_path, "--executors", "fuser,torch")
    marker = tmp_path / "ran"
    source = tmp_path / "evil.c"
    source.write_text(f'#define MARKER "{marker}"\n' + MALICIOUS)
    library = tmp_path / "gelu.kernels.so"
    subprocess.run(["cc", "-shared", "-fPIC", "-o", library, source], check=True)
    plan = json.loads((tmp_path / "gelu.plan.json").read_text())
    plan["kernels"]["sha256"] = hashlib.sha256(library.read_bytes()).hexdigest()
    (tmp_path / "gelu.plan.json").write_text(json.dumps(plan))
    thundercc("run", tmp_path / "gelu.plan.json", "--inputs", tmp_path / "gelu.inputs.pt", "--expect", tmp_path / "gelu.expected.pt")
    assert not marker.exists()
    thundercc("run", tmp_path / "gelu.plan.json", "--trust-kernels", check=False)
    assert marker.exists()


def test_a_region_that_disagrees_with_its_instruction_is_refused(tmp_path, thundercc):
    """The runner generates a kernel from the region's prims: they are checked by the meta
    functions, and must read and write the tensors the instruction gives the kernel."""
    trace = save_case(tmp_path, "gelu", gelu, (torch.randn(8),))
    thundercc("compile", trace, "-o", tmp_path, "--executors", "fuser,torch")
    plan_path = tmp_path / "gelu.plan.json"
    plan = json.loads(plan_path.read_text())
    (fusion,) = [i["fusion"] for i in plan["instructions"] if "fusion" in i]
    region = plan["regions"][fusion["region"]]
    region["inputs"][0]["tensor"]["shape"] = [4096]
    plan_path.write_text(json.dumps(plan))
    result = thundercc("run", plan_path, check=False)
    assert result.returncode == 1 and "/regions/0" in result.stderr and "do not match the meta function's" in result.stderr, result.stderr
    region["inputs"][0]["tensor"]["shape"] = [8]
    fusion["inputs"][0]["shape"] = [4096]  # the instruction's tensors, not the region's
    plan_path.write_text(json.dumps(plan))
    result = thundercc("run", plan_path, check=False)
    assert result.returncode == 1 and "/fusion/region: the region's inputs and outputs are not the tensors" in result.stderr, result.stderr
    fusion["inputs"][0]["shape"] = [8]
    region["inputs"][0]["tensor"]["shape"] = [8]
    region["bound_symbols"][0]["symbol"] = "torch.nn.functional.gelu"
    plan_path.write_text(json.dumps(plan))
    result = thundercc("run", plan_path, check=False)
    assert result.returncode == 1 and "/regions/0: /bound_symbols/0" in result.stderr, result.stderr
    fusion["region"] = 7
    plan_path.write_text(json.dumps(plan))
    result = thundercc("run", plan_path, check=False)
    assert result.returncode == 1 and "/fusion/region: region 7 is not in the plan's /regions (1 regions)" in result.stderr, result.stderr


def test_trusted_kernels_need_the_cpu_they_were_built_for(tmp_path, thundercc):
    trace = save_case(tmp_path, "gelu", gelu, (torch.randn(8),))
    thundercc("compile", trace, "-o", tmp_path, "--executors", "fuser,torch")
    plan_path = tmp_path / "gelu.plan.json"
    plan = json.loads(plan_path.read_text())
    assert plan["kernels"]["flags"].count("-march=native") == 1 and plan["kernels"]["isa"]
    plan["kernels"]["isa"].append("avx1024")  # a feature no CPU has
    plan_path.write_text(json.dumps(plan))
    result = thundercc("run", plan_path, "--trust-kernels", check=False)
    assert result.returncode == 1 and "was built for a CPU with avx1024" in result.stderr, result.stderr
    thundercc("run", plan_path, "--inputs", tmp_path / "gelu.inputs.pt", "--expect", tmp_path / "gelu.expected.pt")


def test_cached_kernels_are_keyed_by_the_cpu_features_they_may_use(tmp_path, thundercc):
    """-march=native compiles for this CPU: an object another CPU made (a kernel cache in a home
    folder shared by machines) may use instructions this one lacks, so each object's name, the
    SHA-256 of what made it, covers the CPU's features with the compiler, the flags and the source."""
    trace = save_case(tmp_path, "gelu", gelu, (torch.randn(8),))
    cache = tmp_path / "cache"
    thundercc("compile", trace, "-o", tmp_path, "--executors", "fuser,torch", env={"THUNDERCC_CACHE_DIR": str(cache)})
    kernels = json.loads((tmp_path / "gelu.plan.json").read_text())["kernels"]
    compiler = subprocess.run([os.environ.get("THUNDERCC_CXX") or "c++", "--version"], capture_output=True, text=True, check=True).stdout.splitlines()[0]
    sources = list((cache / "objects").glob("*.cpp"))
    assert len(sources) == 1
    isa = "".join(feature + " " for feature in kernels["isa"])
    made_by = f"{compiler}\n{kernels['flags']}\n{isa}\n{sources[0].read_text()}"
    assert hashlib.sha256(made_by.encode()).hexdigest() == sources[0].stem
    assert "avx2" in kernels["isa"] or platform.machine() != "x86_64"


def test_kernel_cache_rebuilds_what_is_damaged_and_refuses_other_writers(tmp_path, thundercc):
    trace = save_case(tmp_path, "gelu", gelu, (torch.randn(8),))
    cache = tmp_path / "cache"
    env = dict(os.environ, THUNDERCC_CACHE_DIR=str(cache))

    def compile_verbose():
        return subprocess.run([os.environ["THUNDERCC"], "-v", "compile", trace, "-o", tmp_path, "--executors", "fuser,torch"],
                              capture_output=True, text=True, env=env)

    assert compile_verbose().returncode == 0
    assert oct(cache.stat().st_mode & 0o777) == "0o700"
    for entry in list((cache / "objects").glob("*.o")) + list((cache / "libraries").glob("*.so")):
        entry.write_bytes(entry.read_bytes()[:100])  # truncated, as a full disk leaves it
    again = compile_verbose()
    assert again.returncode == 0 and "1 compiled, 0 from the cache" in again.stderr, again.stderr
    result = subprocess.run([os.environ["THUNDERCC"], "run", tmp_path / "gelu.plan.json", "--inputs", tmp_path / "gelu.inputs.pt",
                             "--expect", tmp_path / "gelu.expected.pt"], capture_output=True, text=True, env=env)
    assert result.returncode == 0, result.stderr
    cache.chmod(0o777)
    refused = compile_verbose()
    assert refused.returncode == 1 and "can be written by another user" in refused.stderr, refused.stderr


def masked_softmax(x, m):
    return torch.softmax((x / 5.0).masked_fill(m, float("-inf")), -1)


@pytest.mark.parametrize("columns", [300, 5000])
def test_a_rows_costly_values_are_computed_once(columns, tmp_path, thundercc):
    """A masked softmax computes its masked scores (a division, then a choice by a one-byte mask)
    in its max's loop and again in its sum's, and its exp in its sum's loop and again in its
    output's: on the CPU the first loop keeps each in a row array that the later one reads, for
    rows of up to 4096 columns, so that the division runs once and no later loop reads the bytes;
    longer rows compute them again. Both against eager, with the mask's -inf and a NaN."""
    x = torch.randn(6, columns)
    x[1, 7] = float("nan")
    trace = save_case(tmp_path, "masked", masked_softmax, (x, torch.rand(6, columns) < 0.3))
    cache = tmp_path / "cache"
    thundercc("compile", trace, "-o", tmp_path, "--executors", "fuser,torch", env={"THUNDERCC_CACHE_DIR": str(cache)})
    (source,) = [p.read_text() for p in (cache / "objects").glob("*.cpp")]
    kept = re.findall(r"tcc_keep_(v\d+)\[j\] = ", source)
    assert len(kept) == 2 and "if (tcc_columns <= 4096) {" in source, source
    kept_path, long_rows = source.split("} else {")
    assert kept_path.count("= tcc_expf(") == 1 and long_rows.count("= tcc_expf(") == 2
    assert kept_path.count(" / (float)(5)") == 1 and kept_path.count("in1[") == 1, kept_path
    thundercc("run", tmp_path / "masked.plan.json", "--inputs", tmp_path / "masked.inputs.pt", "--expect", tmp_path / "masked.expected.pt",
              env={"THUNDERCC_CACHE_DIR": str(cache)})


def silu_then_its_gradient(x, w):
    """A SiLU's region, a product, and a second region reading the product, the SiLU's sigmoid
    (an intermediate value of the first region) and x."""
    s = 1 / (1 + torch.exp(-x))
    y = (x * s) @ w
    return y * s * (1 + x * (1 - s))


def silu_then_sigmoid_alone(x, w):
    """The same, where the second region reads the sigmoid but not x."""
    s = 1 / (1 + torch.exp(-x))
    return ((x * s) @ w) * s


def test_a_region_computes_again_what_costs_fewer_bytes_to_recompute(tmp_path, thundercc):
    """A region's intermediate value that one later region alone reads (the sigmoid) is computed
    again by that region from what it reads already (x): the first region no longer writes it, the
    second no longer reads it. Where recomputing would read as many new bytes as it saves (x is
    not read by the second region), the value is written and read as before. Both against eager."""
    def regions(name, fn):
        trace = save_case(tmp_path, name, fn, (torch.randn(8, 16), torch.randn(16, 16)))
        thundercc("compile", trace, "-o", tmp_path, "--executors", "fuser,torch")
        thundercc("run", tmp_path / f"{name}.plan.json", "--inputs", tmp_path / f"{name}.inputs.pt",
                  "--expect", tmp_path / f"{name}.expected.pt")
        calls = re.findall(r"^  \((.*)\) = fuser_\d+\((.*)\)$", (tmp_path / f"{name}.trace.py").read_text(), re.M)
        return [([v for v in outputs.split(", ") if v.rstrip(",")], inputs.split(", ")) for outputs, inputs in calls]

    # fuser_0 writes only the product's operand x * s; fuser_1 reads x and the product.
    assert regions("recomputed", silu_then_its_gradient) == [(["t4,"], ["x"]), (["t10,"], ["x", "t5"])]
    # fuser_0 writes s too (t3); fuser_1 reads it.
    assert regions("kept", silu_then_sigmoid_alone) == [(["t3", "t4"], ["x"]), (["t6,"], ["t5", "t3"])]


def test_kernel_cache_compiles_each_kernel_once(tmp_path, thundercc):
    """Four identical layers share one kernel per region shape; a second compile finds them all cached."""
    def layers(x, w):
        for _ in range(4):
            x = F.layer_norm(torch.tanh(x @ w), (32,))
        return x

    # Seeded, and weights scaled as a layer's are: with unit weights tanh saturates and layer_norm
    # magnifies the matrix products' rounding (oneDNN here, BLAS in eager) past float32's tolerance
    # for some draws (the draws moved whenever the OpInfo table, drawn at import, grew).
    generator = torch.Generator().manual_seed(0)
    x, w = torch.randn(8, 32, generator=generator), torch.randn(32, 32, generator=generator) / 32 ** 0.5
    trace = save_case(tmp_path, "layers", layers, (x, w))
    env = dict(os.environ, THUNDERCC_CACHE_DIR=str(tmp_path / "cache"))
    first = subprocess.run([os.environ["THUNDERCC"], "-v", "compile", trace, "-o", tmp_path, "--executors", "fuser,torch"],
                           capture_output=True, text=True, env=env)
    assert first.returncode == 0, first.stderr
    assert "4 fusion kernels (1 compiled, 0 from the cache" in first.stderr
    second = subprocess.run([os.environ["THUNDERCC"], "-v", "compile", trace, "-o", tmp_path, "--executors", "fuser,torch"],
                            capture_output=True, text=True, env=env)
    assert "4 fusion kernels (0 compiled, 1 from the cache" in second.stderr
    thundercc("run", tmp_path / "layers.plan.json", "--inputs", tmp_path / "layers.inputs.pt",
              "--expect", tmp_path / "layers.expected.pt")


def test_regions_differing_in_a_constant_get_their_own_kernels_and_in_a_shape_share_one(tmp_path, thundercc):
    """Layers alike share a kernel; a constant splits them; a shape does not (a CPU kernel takes
    its sizes as an argument, which is what lets a dynamic plan's sizes reuse its kernels)."""
    def layers(x, w, v):
        for scale in (1.0, 2.0, 2.0, 1.0):
            x = torch.tanh(x @ w) * scale  # two kernels, used twice each
        return torch.tanh(x[:, :8] @ v) * 1.0  # the first kernel's prims over another shape

    # Weights scaled as a layer's are (1/sqrt(fan-in)): with unit weights, tanh(x @ w) * 2 twice
    # amplifies the matrix products' rounding (oneDNN here, BLAS in eager) past float32's
    # tolerance for some draws.
    generator = torch.Generator().manual_seed(0)
    args = (torch.randn(8, 32, generator=generator), torch.randn(32, 32, generator=generator) / 32 ** 0.5,
            torch.randn(8, 16, generator=generator) / 8 ** 0.5)
    trace = save_case(tmp_path, "scaled", layers, args)
    env = dict(os.environ, THUNDERCC_CACHE_DIR=str(tmp_path / "cache"))
    result = subprocess.run([os.environ["THUNDERCC"], "-v", "compile", trace, "-o", tmp_path, "--executors", "fuser,torch"],
                            capture_output=True, text=True, env=env)
    assert result.returncode == 0, result.stderr
    assert "5 fusion kernels (2 compiled, 0 from the cache" in result.stderr
    thundercc("run", tmp_path / "scaled.plan.json", "--inputs", tmp_path / "scaled.inputs.pt",
              "--expect", tmp_path / "scaled.expected.pt")


def run_fused(tmp_path, thundercc, name, fn, args, kernel="cpu"):
    """Compiles fn with the fuser, checks that it is one region, and returns the plan's outputs,
    computed by its CPU kernel or (kernel="cuda") by its CUDA kernel under the emulator."""
    trace = save_case(tmp_path, name, fn, args)
    cuda = ("--emit-cuda",) if kernel == "cuda" else ()
    thundercc("compile", trace, "-o", tmp_path, "--executors", "fuser,torch", *cuda)
    printed = (tmp_path / f"{name}.trace.py").read_text()
    assert printed.count(" = fuser_") == 1, printed
    out = tmp_path / f"{name}.out.pt"
    emulate = ("--cuda-emulate",) if kernel == "cuda" else ()
    thundercc("run", tmp_path / f"{name}.plan.json", "--inputs", tmp_path / f"{name}.inputs.pt", "--outputs", out, *emulate)
    return torch.load(out)


def assert_same_bits(ours, expected):
    """Bit for bit, NaNs aside (any NaN matches any NaN, as the conversions' payloads are not specified)."""
    nan = torch.isnan(expected.float())
    assert torch.equal(torch.isnan(ours.float()), nan)
    width = torch.int16 if expected.element_size() == 2 else torch.int32
    mismatch = (ours.view(width) != expected.view(width)) & ~nan
    assert not mismatch.any(), f"{int(mismatch.sum())} differ, first at {ours[mismatch][:4]} (expected {expected[mismatch][:4]})"


def test_exp_over_its_whole_range(tmp_path, thundercc):
    """The CPU kernels' own exp (tcc_expf) within 2 ulp of float64's exp rounded to float, over a
    sweep of its range: overflow to inf, subnormal results, 0 below -104 (where a lane computes
    exp(0) and is replaced, as an underflowing product is slow), -inf to 0, NaN kept."""
    sweep = torch.linspace(-120.0, 95.0, 400_001)
    special = torch.tensor([float("-inf"), float("inf"), float("nan"), -103.97, -103.98, -104.0, -87.3, 88.72, 88.73, 0.0, -0.0])
    x = torch.cat([sweep, special])
    (ours,) = run_fused(tmp_path, thundercc, "exp", lambda a: torch.exp(a) * 1.0, (x,))
    exact = torch.exp(x.double()).float()
    assert torch.equal(torch.isnan(ours), torch.isnan(exact))
    assert torch.equal(torch.isinf(ours), torch.isinf(exact))
    assert torch.equal(ours == 0, exact == 0)
    finite = torch.isfinite(exact)
    ulps = (ours[finite].view(torch.int32).long() - exact[finite].view(torch.int32).long()).abs()
    assert ulps.max() <= 2, f"{int(ulps.max())} ulp at x = {x[finite][ulps.argmax()]}"


@pytest.mark.parametrize("kernel", ["cpu", "cuda"])
@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_every_16_bit_float_loads_as_aten_converts_it(dtype, kernel, tmp_path, thundercc):
    every = torch.arange(-(1 << 15), 1 << 15, dtype=torch.int32).to(torch.int16).view(dtype)
    (ours,) = run_fused(tmp_path, thundercc, "load", lambda x: x.to(torch.float32), (every,), kernel)
    assert_same_bits(ours, every.to(torch.float32))


@pytest.mark.parametrize("kernel", ["cpu", "cuda"])
@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_floats_round_to_16_bits_as_aten_rounds_them(dtype, kernel, tmp_path, thundercc):
    """Every tie between neighbouring 16-bit values and the floats either side of it (normal,
    subnormal, the largest finite and beyond), the extremes, and a million spread bit patterns."""
    values = torch.arange(0, 0x7c00 if dtype == torch.float16 else 0x7f80, dtype=torch.int32).to(torch.int16).view(dtype).float()
    ties = (values[:-1].double() + values[1:].double()) / 2
    ties = torch.cat([ties, values[-1:].double() + (values[-1] - values[-2]).double() / 2]).float()
    below, above = torch.nextafter(ties, torch.tensor(0.0)), torch.nextafter(ties, torch.tensor(float("inf")))
    spread = torch.arange(0, 1 << 32, 4099, dtype=torch.int64).to(torch.int32).view(torch.float32)
    special = torch.tensor([0.0, -0.0, float("inf"), -float("inf"), float("nan"), 3.4e38, -3.4e38, 1e-45, 6e-8, 65504.0, 65520.0])
    x = torch.cat([ties, below, above, -ties, -below, -above, values, spread, special])
    (ours,) = run_fused(tmp_path, thundercc, "store", lambda a: a.to(dtype), (x,), kernel)
    assert_same_bits(ours, x.to(dtype))


def bf16_program(x, w, b):
    y = F.layer_norm(x, (x.shape[-1],), w, b)
    return F.gelu(y, approximate="tanh") * 2 + torch.softmax(x, -1), x.sum(-1), x.amax(-1), torch.var_mean(x, -1)


def test_bfloat16_region_rounds_once_at_its_outputs(tmp_path, thundercc):
    """A bfloat16 program is one region computing in float: the round trips its ops' upcasts put
    between them are gone from the printed region, x is converted once, and its results are no farther from the float64
    result than eager's (which rounds after each op); the reductions round as ATen's do."""
    generator = torch.Generator().manual_seed(0)
    args = tuple(torch.randn(*shape, generator=generator).to(torch.bfloat16) for shape in ((16, 64), (64,), (64,)))
    ours = run_fused(tmp_path, thundercc, "bf16", bf16_program, args)
    printed = (tmp_path / "bf16.trace.py").read_text()
    assert printed.count("dtypes.bfloat16)") == 4, printed  # only the outputs' (amax's stays bfloat16)
    assert printed.count("prims.convert_element_type(x, dtypes.float32)") == 1, printed  # four ops' converts merged
    eager = [bf16_program(*args)[0], *bf16_program(*args)[1:3], *bf16_program(*args)[3]]
    reference = [bf16_program(*(a.double() for a in args))[0], *bf16_program(*(a.double() for a in args))[1:3],
                 *bf16_program(*(a.double() for a in args))[3]]
    assert len(ours) == len(eager)
    for mine, theirs, exact in zip(ours, eager, reference):
        assert mine.dtype == torch.bfloat16
        assert (mine.double() - exact).abs().max() <= (theirs.double() - exact).abs().max()
    assert (ours[0].double() - reference[0]).abs().mean() < 0.5 * (eager[0].double() - reference[0]).abs().mean()


def bf16_chain(x, y):
    return torch.sigmoid(torch.tanh(x * y + 1) * x) * 3 - y


@pytest.mark.parametrize("kernel", ["cpu", "cuda"])
def test_bfloat16_chain_computes_in_float_and_rounds_once(kernel, tmp_path, thundercc):
    """A chain of bfloat16 elementwise ops is one region that loads each input as float, computes
    in float and rounds once, at its output (the CUDA kernel in its vector loop and its scalar
    tail alike): no farther from the float64 result than eager, which rounds after each op, and
    closer on average."""
    generator = torch.Generator().manual_seed(0)
    x, y = (torch.randn(4099, generator=generator).to(torch.bfloat16) for _ in range(2))  # 512 vectors of 8 and 3 more
    (ours,) = run_fused(tmp_path, thundercc, "chain", bf16_chain, (x, y), kernel)
    printed = (tmp_path / "chain.trace.py").read_text()
    assert printed.count("dtypes.bfloat16)") == 1, printed  # the output's convert alone
    if kernel == "cuda":
        source = (tmp_path / "chain.kernels.cu").read_text()
        body = source[source.index("__global__"):]
        # the output's convert rounds, its store writes the bits: once each in either loop
        assert body.count("tcc_round_bf16(") == 2 and body.count("tcc_store_bf16(") == 2, body
    eager, exact = bf16_chain(x, y).double(), bf16_chain(x.double(), y.double())
    assert ours.dtype == torch.bfloat16
    assert (ours.double() - exact).abs().max() <= (eager - exact).abs().max()
    assert (ours.double() - exact).abs().mean() < (eager - exact).abs().mean()


def on_cuda(trace):
    """The trace as captured on a GPU: every tensor on cuda:0 (capture needs no GPU for the compiler's side)."""
    trace.write_text(trace.read_text().replace('"device": "cpu"', '"device": "cuda:0"'))
    return trace


@pytest.mark.skipif(not PTXAS.exists(), reason="no CUDA toolkit")
def test_a_cuda_program_compiles_to_one_ptx_module(tmp_path, thundercc):
    """Regions on a CUDA device become CUDA kernels only: one PTX module next to the plan, each
    fusion instruction naming its function and grid; no CPU library. Running it needs a LibTorch
    with CUDA, which this one is not: a clear error, before any tensor is made."""
    trace = on_cuda(save_case(tmp_path, "block", bf16_program, (torch.randn(6, 64), torch.randn(64), torch.randn(64))))
    thundercc("compile", trace, "-o", tmp_path)
    printed = (tmp_path / "block.trace.py").read_text()
    assert printed.count(" = fuser_") == 1 and '"cuda:0 f32[6, 64]"' in printed, printed
    plan = json.loads((tmp_path / "block.plan.json").read_text())
    assert "kernels" not in plan and not (tmp_path / "block.kernels.so").exists()
    module = tmp_path / plan["cuda_kernels"]["ptx"]
    assert plan["cuda_kernels"]["sha256"] == hashlib.sha256(module.read_bytes()).hexdigest()
    (fusion,) = [i["fusion"] for i in plan["instructions"] if "fusion" in i]
    assert "function" not in fusion and fusion["grid"] == 6
    assert f".entry {fusion['cuda_function']}(" in module.read_text()
    result = subprocess.run([PTXAS, "-arch=sm_90", module, "-o", os.devnull], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    result = thundercc("run", tmp_path / "block.plan.json", check=False)
    assert result.returncode == 1 and "runs on cuda:0, but this LibTorch was built without CUDA" in result.stderr, result.stderr


@pytest.mark.skipif(not PTXAS.exists(), reason="no CUDA toolkit")
def test_block_reductions_shuffle_within_warps(tmp_path, thundercc):
    """A block's reduction combines each warp's partial results by shuffles and the 8 warps'
    through a shared slot each: two barriers per reduction (a shared-memory tree takes one per
    halving, 9). NVRTC's PTX shuffles, and assembles for sm_90."""
    trace = on_cuda(save_case(tmp_path, "softmax", lambda x: torch.softmax(x, -1), (torch.randn(4, 700),)))
    thundercc("compile", trace, "-o", tmp_path)
    source = (tmp_path / "softmax.kernels.cu").read_text()
    assert source.count("__syncthreads()") == 4 and "__shfl_down_sync" in source, source
    module = tmp_path / "softmax.kernels.ptx"
    assert "shfl.sync.down" in module.read_text()
    result = subprocess.run([PTXAS, "-arch=sm_90", module, "-o", os.devnull], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


@pytest.mark.skipif(not PTXAS.exists(), reason="no CUDA toolkit")
def test_short_rows_take_a_warp_each(tmp_path, thundercc):
    """Rows of at most 32 columns: a warp each, 8 rows a block, reductions by shuffles alone (no
    shared memory, no barrier); rows of 33 keep a block each. The PTX assembles for sm_90."""
    for columns, grid in ((32, 5), (33, 37)):
        name = f"softmax{columns}"
        trace = on_cuda(save_case(tmp_path, name, lambda x: torch.softmax(x, -1), (torch.randn(37, columns),)))
        thundercc("compile", trace, "-o", tmp_path)
        source = (tmp_path / f"{name}.kernels.cu").read_text()
        assert ("__syncthreads()" in source) == (columns > 32) and "__shfl_down_sync" in source, source
        (fusion,) = [i["fusion"] for i in json.loads((tmp_path / f"{name}.plan.json").read_text())["instructions"] if "fusion" in i]
        assert fusion["grid"] == grid
        result = subprocess.run([PTXAS, "-arch=sm_90", tmp_path / f"{name}.kernels.ptx", "-o", os.devnull], capture_output=True, text=True)
        assert result.returncode == 0, result.stderr


@pytest.mark.skipif(not PTXAS.exists(), reason="no CUDA toolkit")
@pytest.mark.parametrize("name,fn,args,lanes,access", [
    ("float32", lambda x: torch.tanh(x) * 2, (torch.randn(100_000),), 4, r"ld\.global(\.nc)?\.v4\.f32"),
    ("bfloat16", lambda x, y: torch.tanh(x * y), tuple(torch.randn(100_000).to(torch.bfloat16) for _ in range(2)), 8, r"ld\.global(\.nc)?\.v4\.u32"),
    ("mixed", lambda x, y: x.float() * y, (torch.randn(100_000).to(torch.bfloat16), torch.randn(100_000)), 4, r"ld\.global(\.nc)?\.v4\.u16"),
], ids=["float32", "bfloat16", "mixed"])
def test_elementwise_kernels_load_and_store_16_byte_vectors(name, fn, args, lanes, access, tmp_path, thundercc):
    """A region without reductions reads and writes its buffers `lanes` elements at a time (16
    bytes of the widest dtype) where every buffer's address allows, its grid sized for that; NVRTC's
    PTX has the vector loads and stores and assembles for sm_90."""
    trace = on_cuda(save_case(tmp_path, name, fn, args))
    thundercc("compile", trace, "-o", tmp_path)
    source = (tmp_path / f"{name}.kernels.cu").read_text()
    assert f"tcc_load_vector<{lanes}>(in0 + tcc_v)" in source and "tcc_store_vector(out0 + tcc_v" in source, source
    (fusion,) = [i["fusion"] for i in json.loads((tmp_path / f"{name}.plan.json").read_text())["instructions"] if "fusion" in i]
    assert fusion["grid"] == -(-100_000 // (256 * lanes))
    ptx = (tmp_path / f"{name}.kernels.ptx").read_text()
    assert re.search(access, ptx) and re.search(r"st\.global\.v[24]\.", ptx), ptx
    result = subprocess.run([PTXAS, "-arch=sm_90", tmp_path / f"{name}.kernels.ptx", "-o", os.devnull], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


@pytest.mark.skipif(not PTXAS.exists(), reason="no CUDA toolkit")
def test_a_cpu_tensor_beside_cuda_tensors_stays_out_of_regions(tmp_path, thundercc):
    """ATen takes a CPU 0-d tensor beside CUDA tensors; one kernel reads one device's memory."""
    trace = save_case(tmp_path, "mix", lambda x, s: torch.softmax(x * s, -1), (torch.randn(4, 5), torch.tensor(2.0)))
    program = json.loads(on_cuda(trace).read_text())
    (s,) = [i for i in program["inputs"] if i["name"] == "s"]
    s["tensor"]["device"] = "cpu"
    trace.write_text(json.dumps(program))
    thundercc("compile", trace, "-o", tmp_path)
    printed = (tmp_path / "mix.trace.py").read_text()
    assert "torch.mul(x, s)" in printed and "= fuser_0(t0)" in printed, printed


def test_trusted_emulation_library_is_checked_and_needs_emit_cuda(tmp_path, thundercc):
    trace = save_case(tmp_path, "gelu", gelu, (torch.randn(8),))
    thundercc("compile", trace, "-o", tmp_path, "--executors", "fuser,torch")
    result = thundercc("run", tmp_path / "gelu.plan.json", "--cuda-emulate", "--trust-kernels", check=False)
    assert result.returncode == 1 and "no CUDA kernel (compile the trace again with --emit-cuda)" in result.stderr, result.stderr
    # Built here, any plan's regions run under the emulator.
    thundercc("run", tmp_path / "gelu.plan.json", "--cuda-emulate", "--inputs", tmp_path / "gelu.inputs.pt",
              "--expect", tmp_path / "gelu.expected.pt")
    thundercc("compile", trace, "-o", tmp_path, "--executors", "fuser,torch", "--emit-cuda")
    library = tmp_path / "gelu.cuda_emulation.so"
    library.write_bytes(library.read_bytes() + b"\0")
    result = thundercc("run", tmp_path / "gelu.plan.json", "--cuda-emulate", "--trust-kernels", check=False)
    assert result.returncode == 1 and "not the library this plan was compiled with" in result.stderr, result.stderr


def test_pow_by_a_constant_multiplies(tmp_path, thundercc):
    """pow(x, 3.0) in NewGELU is x * x * x in the generated kernel (26x faster than powf per
    element on 8M floats); 2.5 keeps the call."""
    thundercc("compile", save_case(tmp_path, "new_gelu", new_gelu, (torch.randn(8),)), "-o", tmp_path, "--emit-cuda")
    assert "pow" not in (tmp_path / "new_gelu.kernels.cu").read_text()
    thundercc("compile", save_case(tmp_path, "p", lambda x: x.pow(2.5), (torch.randn(8),)), "-o", tmp_path, "--emit-cuda")
    assert "powf(" in (tmp_path / "p.kernels.cu").read_text()


THREADED = [
    ("elementwise", new_gelu, (torch.randn(300_001),)),  # one row: its columns split, parts of 16-element multiples
    ("rows", lambda x: torch.softmax(x, -1) * 2, (torch.randn(67, 2049),)),  # rows split
    ("one_row_reduced", lambda x: (x - x.mean(-1, keepdim=True)).exp(), (torch.randn(1, 100_000),)),  # part 0 alone
    ("broadcast_row", lambda x, b: (torch.tanh(x + b), b * 3), (torch.randn(1, 99_999), torch.randn(1, 1))),
]


@pytest.mark.parametrize("name,fn,args", THREADED, ids=[t[0] for t in THREADED])
def test_kernels_on_threads_equal_one_thread(name, fn, args, tmp_path, thundercc):
    """run --threads 2: each thread computes a part of a generated kernel's rows or columns; the
    outputs equal one thread's bit for bit, and eager's."""
    trace = save_case(tmp_path, name, fn, args)
    thundercc("compile", trace, "-o", tmp_path, "--executors", "fuser,torch")
    for threads in (1, 2):
        thundercc("run", tmp_path / f"{name}.plan.json", "--inputs", tmp_path / f"{name}.inputs.pt", "--threads", threads,
                  "--expect", tmp_path / f"{name}.expected.pt", "--outputs", tmp_path / f"out{threads}.pt")
    for one, two in zip(torch.load(tmp_path / "out1.pt"), torch.load(tmp_path / "out2.pt")):
        assert torch.equal(one, two)


def test_the_kernel_build_shows_its_progress_on_a_terminal_only(tmp_path):
    """A first compile builds the regions' kernels, seconds each: on a terminal it says how far it
    is, on one line rewritten in place; piped, as in CI's logs, it prints nothing of it."""
    from conftest import run_on_a_terminal
    trace = REPO / "traces" / "add_mul.json"
    command = [os.environ["THUNDERCC"], "compile", trace, "-o", tmp_path / "out"]
    done, shown = run_on_a_terminal(command, env={**os.environ, "THUNDERCC_CACHE_DIR": str(tmp_path / "cache")})
    assert done.returncode == 0 and b"fuser: compiling kernels, 0 of 1 done" in shown
    piped = subprocess.run(command, capture_output=True, text=True, env={**os.environ, "THUNDERCC_CACHE_DIR": str(tmp_path / "cache2")})
    assert piped.returncode == 0 and "compiling kernels" not in piped.stderr
