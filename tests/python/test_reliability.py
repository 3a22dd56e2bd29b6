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


# --- Tensor files that lie -------------------------------------------------------------------

def lying_tensor_file(path, tensor, find, replace):
    """torch.save((tensor,)) with bytes of its pickle changed: sizes, strides or offset that
    reach past the storage the file holds."""
    import io
    import zipfile
    buffer = io.BytesIO()
    torch.save((tensor,), buffer)
    source = zipfile.ZipFile(io.BytesIO(buffer.getvalue()))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as target:
        for info in source.infolist():
            data = source.read(info.filename)
            if info.filename.endswith("data.pkl"):
                assert find in data
                data = data.replace(find, replace, 1)
            target.writestr(info, data)
    path.write_bytes(out.getvalue())
    return path


@pytest.fixture
def add_mul_plan(tmp_path, thundercc):
    thundercc("compile", REPO / "traces" / "add_mul.json", "-o", tmp_path)
    return tmp_path / "add_mul.plan.json"


@pytest.mark.parametrize("find, replace", [
    (b"K\x05K\x03\x86", b"M\x00\x10K\x03\x86"),  # 4096 rows of a 5-row storage
    (b"K\x03K\x01\x86", b"K\x03J\x00\x00\x00\x10\x86"),  # a column stride of 2^28
    (b"K\x00K\x05K\x03\x86", b"K\x09K\x05K\x03\x86"),  # storage offset 9 of 15 elements
])
def test_tensor_files_are_checked_against_their_storage(tmp_path, thundercc, add_mul_plan, find, replace):
    bad = lying_tensor_file(tmp_path / "bad.pt", torch.randn(5, 3), find, replace)
    for option in ("--inputs", "--expect"):
        result = thundercc("run", add_mul_plan, option, bad, "--outputs", tmp_path / "out.pt", check=False)
        fails(result, "bad.pt: tensor 0:")
        assert not (tmp_path / "out.pt").exists()


def test_devices_are_not_read(tmp_path, thundercc, add_mul_plan):
    fails(thundercc("validate", "/dev/zero", check=False), "/dev/zero: cannot be read (a device, not a file)")
    fails(thundercc("run", add_mul_plan, "--inputs", "/dev/zero", check=False), "/dev/zero: cannot be read")


# --- Writes that are atomic and checked -------------------------------------------------------

def test_outputs_into_a_missing_folder_fail(tmp_path, thundercc, add_mul_plan):
    result = thundercc("run", add_mul_plan, "--outputs", tmp_path / "missing" / "out.pt", check=False)
    fails(result, "missing/out.pt: cannot write: the folder")


def test_a_planted_symlink_is_replaced_never_written_through(tmp_path, thundercc):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    out = tmp_path / "out"
    out.mkdir()
    (out / "add_mul.trace.py").symlink_to(victim)
    (out / "add_mul.plan.json.tmp").symlink_to(victim)  # where a fixed temporary name would go
    thundercc("compile", REPO / "traces" / "add_mul.json", "-o", out)
    assert victim.read_text() == "precious"
    assert not (out / "add_mul.trace.py").is_symlink()
    assert (out / "add_mul.trace.py").read_text() == (REPO / "tests" / "golden" / "add_mul.trace.py").read_text()


def test_concurrent_compiles_into_one_folder_leave_whole_files(tmp_path, thundercc):
    binary = os.environ["THUNDERCC"]
    out = tmp_path / "out"
    procs = [subprocess.Popen([binary, "compile", REPO / "traces" / "gpt2_block.json", "-o", out],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(20)]
    assert all(p.wait() == 0 for p in procs)
    assert sorted(p.name for p in out.iterdir()) == ["gpt2_block.backward.trace.py", "gpt2_block.forward.trace.py", "gpt2_block.plan.json"]
    for part in ("forward", "backward"):
        assert (out / f"gpt2_block.{part}.trace.py").read_text() == (REPO / "tests" / "golden" / f"gpt2_block.{part}.trace.py").read_text()
    json.loads((out / "gpt2_block.plan.json").read_text())


def test_a_failed_compile_writes_nothing(tmp_path, thundercc):
    bad = add_mul()
    bad["bound_symbols"][1]["output"]["tensor"]["shape"] = [3, 3]
    result = thundercc("compile", REPO / "traces" / "mul.json", write(tmp_path / "bad.json", bad), "-o", tmp_path / "out", check=False)
    fails(result, "bad.json")
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["mul.plan.json", "mul.trace.py"]
