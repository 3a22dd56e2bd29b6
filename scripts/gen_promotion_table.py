#!/usr/bin/python3
"""Writes tests/data/promotion_table.json: torch.result_type for every pair of dtypes, for
tensors with dimensions, 0-d tensors and Python numbers, as PyTorch (Debian's 1.13) computes it.
The C++ type promotion tests compare thundercc against this table."""
import itertools
import json
import pathlib

import torch

NAMES = {torch.bool: "bool8", torch.uint8: "uint8", torch.int8: "int8", torch.int16: "int16",
         torch.int32: "int32", torch.int64: "int64", torch.bfloat16: "bfloat16", torch.float16: "float16",
         torch.float32: "float32", torch.float64: "float64", torch.complex64: "complex64",
         torch.complex128: "complex128"}
RESULT_NAMES = {**NAMES, torch.complex32: "complex32"}


def make(dtype, zero_dim):
    return torch.zeros((), dtype=dtype) if zero_dim else torch.zeros(2, dtype=dtype)


rows = []
for a, b in itertools.product(NAMES, NAMES):
    for za, zb in [(False, False), (False, True), (True, False)]:
        rows.append([NAMES[a], za, NAMES[b], zb, RESULT_NAMES[torch.result_type(make(a, za), make(b, zb))]])
for a in NAMES:
    for number, kind in [(True, "bool"), (2, "int"), (2.5, "float"), (1j, "complex")]:
        for za in (False, True):
            rows.append([NAMES[a], za, kind, None, RESULT_NAMES[torch.result_type(make(a, za), number)]])

out = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / "promotion_table.json"
out.write_text("[\n" + ",\n".join(json.dumps(r) for r in rows) + "\n]\n")
print(f"{out}: {len(rows)} rows")
