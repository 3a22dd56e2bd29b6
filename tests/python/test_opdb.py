"""A bounded slice of PyTorch's own operator test database (op_db, module_db) through thundercc,
as scripts/opdb.py runs the whole of it: 46 ops (elementwise, reductions, shape ops,
torch.nn.functional, and ops covered for issue 40), their samples in float32 (8 per op), bfloat16, int64 and float64 gradients
(2 each), and three modules in eval and train with their gradients, captured, compiled with the
default executors, run and compared with eager. No sample may give a wrong number or crash, and
the ops known to pass must still pass (each was measured to pass every sample of every pass here).
About 10 s."""
from pathlib import Path

import pytest

from opdb import ROW_TITLES, report, run

# Measured to pass every sample of every pass below (scripts/opdb.py over the whole database).
ELEMENTWISE = ["add", "mul", "div.no_rounding_mode", "exp", "log", "tanh", "clamp", "where", "pow"]
REDUCTIONS = ["sum", "mean", "amax", "softmax", "log_softmax", "logsumexp", "argmax", "cumsum"]
SHAPES = ["reshape", "permute", "transpose", "cat", "expand", "squeeze", "index_select"]
NN = ["nn.functional.relu", "nn.functional.gelu", "nn.functional.layer_norm", "nn.functional.conv2d",
      "nn.functional.linear", "nn.functional.cross_entropy", "nn.functional.dropout", "matmul"]
# Refused on 8ab4f92 (issue 40's coverage), each now passing every sample of every pass.
COVERAGE = ["scatter_reduce.amax", "scatter_reduce.mean", "round.decimals_3", "to", "logspace", "nn.functional.bilinear",
            "nn.functional.max_unpool2d", "nn.functional.adaptive_max_pool3d", "nn.functional.interpolate.area", "put",
            "masked_scatter", "native_layer_norm", "fft.rfft", "fft.hfft2"]
OPS = ELEMENTWISE + REDUCTIONS + SHAPES + NN + COVERAGE
MODULES = ["nn.Linear", "nn.Conv2d", "nn.BatchNorm2d"]
PASSES = ["float32", "bfloat16", "int64", "grad", "modules", "module_grads"]


@pytest.fixture(scope="module")
def slice_results(tmp_path_factory, thundercc):
    return run(passes=PASSES, op_names=OPS, module_names=MODULES, workdir=tmp_path_factory.mktemp("opdb"))


def test_the_slice_gives_no_wrong_result_and_no_crash(slice_results, capsys):
    cases, summary = slice_results["cases"], slice_results["summary"]
    with capsys.disabled():
        print("\n" + report(cases, summary, slice_results["seconds"]).split("\n## Refusals")[0])
    bad = [f"{c.pass_name} {c.op} #{c.index} ({c.description}): {c.status}: {c.message}"
           for cs in cases.values() for c in cs if c.status in ("wrong", "crash", "harness")]
    assert not bad, "\n".join(bad)
    for pass_name in PASSES:
        assert summary[pass_name]["of"] > 0, f"{ROW_TITLES.get(pass_name, pass_name)}: no samples"


def test_the_ops_known_to_pass_still_pass(slice_results):
    summary = slice_results["summary"]
    regressions = []
    for pass_name in PASSES:
        names = MODULES if pass_name in ("modules", "module_grads") else OPS
        statuses = summary[pass_name]["ops"]
        for name in names:
            if name not in statuses:
                continue  # the database has no sample of it for this dtype
            if statuses[name] != "pass":
                regressions.append(f"{pass_name} {name}: {statuses[name]}, was pass")
    assert not regressions, "\n".join(regressions)
    # Every op and module of the slice is in the database (a renamed OpInfo would drop out silently).
    seen = {name for s in summary.values() for name in s["ops"]}
    assert set(OPS) | set(MODULES) <= seen, sorted(set(OPS) | set(MODULES) - seen)
    assert Path(slice_results["workdir"]).exists()
