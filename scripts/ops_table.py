#!/usr/bin/python3
"""Writes docs/ops.md, the coverage table: `thundercc ops --format markdown` (each op's kind, the
executors that run it whole, how it differentiates) with two columns from the test suite's own
facts: the input dtypes its OpInfo samples meet (tests/python/test_meta_vs_torch.py and the random
ops' samples in test_random.py) and the symbols of Lightning Thunder's torch language it covers
(tests/data/thunder_torchsymbols.tsv). tests/python/test_ops_table.py keeps the file current.

Usage: /usr/bin/python3 scripts/ops_table.py [-o docs/ops.md]   (THUNDERCC names the binary)"""
import argparse
import subprocess
import sys
import warnings
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # the front end package, thundercc_frontend
sys.path.insert(0, str(REPO / "tests" / "python"))

from thundercc_frontend import capture, thundercc_binary, torch_language  # noqa: E402

SHORT = {"bool8": "b8", "uint8": "u8", "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64", "float16": "f16",
         "bfloat16": "bf16", "float32": "f32", "float64": "f64", "complex64": "c64", "complex128": "c128"}


def canonical_ids() -> dict:
    """Every id thundercc's torch language answers to, mapped to its symbol's canonical id."""
    return {i: canonical for canonical, aliases, _ in torch_language() for i in (canonical, *aliases)}


def opinfo_samples() -> list:
    """(fn, args, kwargs) of every OpInfo sample: the table's, and the random ops' (checked by
    shape and dtype, since their draws cannot equal eager's)."""
    from test_meta_vs_torch import SAMPLES
    from test_random import META_SAMPLES
    return [p.values for p in SAMPLES] + [(fn, args, {}) for _, fn, args in META_SAMPLES]


def sampled_dtypes(samples, canonical) -> dict:
    """Each torch-language symbol the samples call (canonical id) -> the dtypes of its tensor inputs."""
    dtypes = {}
    for fn, args, kwargs in samples:
        captured = capture(fn, *args, **kwargs)
        names = {i["name"]: i["tensor"]["dtype"] for i in captured.inputs if "tensor" in i}
        for b in captured.bound_symbols:
            if b["symbol"] not in canonical:  # a guard the front end records (prims.check_tensor_value)
                continue
            seen = dtypes.setdefault(canonical[b["symbol"]], set())
            seen.update(names[a["ref"]] for a in b["args"] if isinstance(a, dict) and a.get("ref") in names)
    return dtypes


def thunder_symbols() -> list:
    """(name, the torch callables it names) for each @torchsymbol of Thunder's torch language."""
    rows = []
    for line in (REPO / "tests" / "data" / "thunder_torchsymbols.tsv").read_text().splitlines():
        if line.startswith("#"):
            continue
        name, _, ids = line.partition("\t")
        rows.append((name, [i for i in ids.split(",") if i]))
    return rows


def thunder_candidates(name, ids) -> set:
    """The ids a Thunder symbol may be covered by: its callables, or torch's functions of its name."""
    return {*ids, f"torch.{name}", f"torch.nn.functional.{name}", f"torch.Tensor.{name}"}


def render(dtypes, canonical) -> str:
    """docs/ops.md: the markdown table thundercc prints, with the dtypes and Thunder columns."""
    covers = {}
    for name, ids in thunder_symbols():
        for symbol in {canonical[i] for i in thunder_candidates(name, ids) if i in canonical}:
            covers.setdefault(symbol, []).append(name)
    order = list(SHORT)
    table = subprocess.run([thundercc_binary(), "ops", "--format", "markdown"], check=True, capture_output=True, text=True).stdout
    lines = []
    for line in table.splitlines():
        if line.startswith("| op |"):
            lines.append(line + " dtypes its samples meet | Thunder symbols |")
        elif line.startswith("|---"):
            lines.append(line + "---|---|")
        else:
            op = line.split("`")[1]
            seen = " ".join(SHORT[d] for d in order if d in dtypes.get(op, ()))
            lines.append(f"{line} {seen} | {', '.join(sorted(covers.get(op, [])))} |")
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-o", "--output", type=Path, default=REPO / "docs" / "ops.md")
    opts = parser.parse_args()
    warnings.filterwarnings("ignore")  # the samples' own (deprecations, experimental dtypes)
    canonical = canonical_ids()
    opts.output.write_text(render(sampled_dtypes(opinfo_samples(), canonical), canonical))
    print(f"ops_table: {opts.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
