"""Hostile inputs (issue 8): every bad trace, plan or tensor file ends in exit 1 with a message
naming the file, the place and the problem; nothing crashes, nothing runs code, nothing is left
half written. One test per class of problem."""
import ast
import json
import os
import subprocess

import pytest
import torch

from conftest import REPO

ADD_MUL = json.loads((REPO / "traces" / "add_mul.json").read_text())


def write(path, doc):
    path.write_text(json.dumps(doc))
    return path


def add_mul(**changes):
    doc = json.loads(json.dumps(ADD_MUL))
    doc.update(changes)
    return doc


def fails(result, *phrases):
    assert result.returncode == 1, result.stderr + result.stdout
    for p in phrases:
        assert p in result.stderr, result.stderr
    assert "internal error" not in result.stderr


# --- Code injection into the printed trace ---------------------------------------------------

HOSTILE_KEYS = ["x'}\n__import__('os').system('echo pwned')\n{'", 'a\\b"c\'d', "tab\there\r\x00\x1b\x7f", "\u0085\u2028é",
                "'", '"', "\\", "'''", '"""']


def test_strings_print_as_exact_python_literals(tmp_path, thundercc):
    doc = add_mul(output={"dict": [[k, ADD_MUL["output"]] for k in HOSTILE_KEYS]})
    thundercc("compile", write(tmp_path / "inj.json", doc), "-o", tmp_path)
    source = (tmp_path / "inj.trace.py").read_text()
    tree = ast.parse(source)  # still one valid module
    returned = [n for n in ast.walk(tree) if isinstance(n, ast.Return)][0].value
    assert [k.value for k in returned.keys] == HOSTILE_KEYS
    assert "__import__" not in [getattr(n.func, "id", None) for n in ast.walk(tree) if isinstance(n, ast.Call)]
    for k in HOSTILE_KEYS:
        if all(0x20 <= ord(c) < 0x7f for c in k):
            assert repr(k) in source  # Python's own repr, quotes chosen as Python chooses


@pytest.mark.parametrize("name", ["import", "None", "lambda", "torch", "prims", "float", "a-b", "1x", "x y"])
def test_names_must_be_identifiers_a_printed_trace_can_use(tmp_path, thundercc, name):
    text = json.dumps(ADD_MUL).replace('"a"', json.dumps(name))
    (tmp_path / "n.json").write_text(text)
    # The schema's pattern or the loader's check, at the first place the name appears.
    fails(thundercc("validate", tmp_path / "n.json", check=False), "n.json: /")
    fails(thundercc("validate", write(tmp_path / "f.json", add_mul(name=name)), check=False), "f.json: /name")
