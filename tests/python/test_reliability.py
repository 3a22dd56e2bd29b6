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
    thundercc("compile", REPO / "traces" / "add_mul.json", "-o", out, "--executors", "torch")
    assert victim.read_text() == "precious"
    assert not (out / "add_mul.trace.py").is_symlink()
    assert (out / "add_mul.trace.py").read_text() == (REPO / "tests" / "golden" / "add_mul.trace.py").read_text()


def test_concurrent_compiles_into_one_folder_leave_whole_files(tmp_path, thundercc):
    binary = os.environ["THUNDERCC"]
    out = tmp_path / "out"
    procs = [subprocess.Popen([binary, "compile", REPO / "traces" / "gpt2_block.json", "-o", out],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(20)]
    assert all(p.wait() == 0 for p in procs)
    assert sorted(p.name for p in out.iterdir()) == ["gpt2_block.backward.trace.py", "gpt2_block.forward.trace.py",
                                                     "gpt2_block.kernels.so", "gpt2_block.plan.json"]
    for part in ("forward", "backward"):
        assert (out / f"gpt2_block.{part}.trace.py").read_text() == (REPO / "tests" / "golden" / f"gpt2_block.{part}.trace.py").read_text()
    json.loads((out / "gpt2_block.plan.json").read_text())


def test_a_failed_compile_writes_nothing(tmp_path, thundercc):
    bad = add_mul()
    bad["bound_symbols"][1]["output"]["tensor"]["shape"] = [3, 3]
    result = thundercc("compile", REPO / "traces" / "mul.json", write(tmp_path / "bad.json", bad), "-o", tmp_path / "out", check=False)
    fails(result, "bad.json")
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["mul.kernels.so", "mul.plan.json", "mul.trace.py"]


# --- Arithmetic without checks, inputs that exhaust resources ----------------------------------

def with_kwargs(**kwargs):
    doc = add_mul()
    doc["bound_symbols"][1]["kwargs"] = kwargs  # torch.add(a, t0, alpha=...)
    return doc


def one_call(symbol, args, kwargs, input_shape=(2, 2), output=None):
    tensor = {"shape": list(input_shape), "dtype": "float32", "device": "cpu", "requires_grad": False}
    out = output or {"tensor": dict(name="t0", **tensor)}
    return {"format": "thundercc.trace", "version": 1, "name": "f", "inputs": [{"name": "x", "tensor": tensor}],
            "bound_symbols": [{"symbol": symbol, "args": [{"ref": "x"}] + args, "kwargs": kwargs, "output": out}],
            "output": {"ref": "t0"}}


@pytest.mark.parametrize("text, phrase", [
    ('"alpha": 18446744073709551615', "the integer 18446744073709551615 is out of range"),
    ('"alpha": 9223372036854775808', "is out of range"),
    ('"alpha": 1e400', "a number out of range"),
])
def test_numbers_past_64_bits_are_refused(tmp_path, thundercc, text, phrase):
    source = json.dumps(with_kwargs(alpha=12345)).replace('"alpha": 12345', text)
    (tmp_path / "n.json").write_text(source)
    fails(thundercc("compile", tmp_path / "n.json", "-o", tmp_path, check=False), "n.json: ", phrase)


def test_shapes_whose_size_overflows_are_refused(tmp_path, thundercc):
    doc = one_call("torch.reshape", [-1], {}, input_shape=(2**32, 2**32), output={"tensor": {
        "name": "t0", "shape": [0], "dtype": "float32", "device": "cpu", "requires_grad": False}})
    fails(thundercc("validate", write(tmp_path / "s.json", doc), check=False), "s.json: /inputs/0/tensor/shape: ", "2^63 - 1")


@pytest.mark.parametrize("kwargs, phrase", [
    ({"kernel_size": 0}, "stride should not be zero"),
    ({"kernel_size": 2, "stride": 0}, "stride should not be zero"),
    ({"kernel_size": 2, "dilation": 0}, "dilation should be greater than zero"),
    ({"kernel_size": 2**62}, "kernel_size must be below 2^31"),
])
def test_pooling_windows_are_checked(tmp_path, thundercc, kwargs, phrase):
    doc = one_call("torch.nn.functional.max_pool2d", [], kwargs, input_shape=(1, 1, 4, 4))
    fails(thundercc("validate", write(tmp_path / "p.json", doc), check=False), "p.json: /bound_symbols/0: ", phrase)


def test_what_a_trace_may_make_the_compiler_allocate_is_bounded(tmp_path, thundercc):
    # A billion uneven pooling windows, and a split into 2^31 pieces: refused at the limit, quickly.
    pool = one_call("torch.nn.functional.adaptive_avg_pool2d", [{"tuple": [10**9, 10**9]}], {}, input_shape=(1, 1, 3, 3))
    split = one_call("torch.split", [1], {}, input_shape=(2**31,))
    for name, doc, phrase in (("pool", pool, "has more than 65536 windows"), ("split", split, "the limit of one compilation")):
        result = subprocess.run(["prlimit", "--as=4000000000", os.environ["THUNDERCC"], "validate", write(tmp_path / f"{name}.json", doc)],
                                capture_output=True, text=True, timeout=120)
        fails(result, f"{name}.json: /bound_symbols/0: ", phrase)


def test_nesting_and_string_lengths_are_limited_before_any_walk(tmp_path, thundercc):
    source = json.dumps(add_mul())
    deep = source.replace('"output": {"ref": "t1"}}', '"output": ' + '{"tuple": [' * 5000 + '{"ref": "t1"}' + "]}" * 5000 + "}")
    assert deep != source
    (tmp_path / "deep.json").write_text(deep)
    fails(thundercc("validate", tmp_path / "deep.json", check=False), "deep.json: nested deeper than the limit of 64")
    (tmp_path / "long.json").write_text(source.replace('"a"', '"' + "a" * 50000 + '"'))
    fails(thundercc("validate", tmp_path / "long.json", check=False), 'long.json: the string of "name" has 50000 characters')


def test_plans_cannot_ask_for_huge_slot_tables(tmp_path, thundercc, add_mul_plan):
    plan = json.loads(add_mul_plan.read_text())
    plan["slots"] = 2**40
    fails(thundercc("run", write(tmp_path / "p.json", plan), check=False), "p.json: /slots")
    plan = json.loads(add_mul_plan.read_text())
    plan["instructions"][0]["args"][0] = {"slot": 2**32 + 1}
    fails(thundercc("run", write(tmp_path / "q.json", plan), check=False), "q.json: /instructions/0/args/0")


@pytest.mark.parametrize("option,phrase", [(["--rtol", "nan"], "must be a finite number >= 0"), (["--atol", "-1"], "must be a finite number >= 0"),
                                           (["--seed", "-1"], "must be a whole number from 0"), (["--rtol", "inf"], "must be a finite number >= 0")])
def test_tolerances_and_seeds_must_be_finite_and_not_negative(thundercc, add_mul_plan, option, phrase):
    result = thundercc("run", add_mul_plan, *option, check=False)
    assert result.returncode == 2 and phrase in result.stderr, result.stderr


# --- Errors that name the plan, the instruction and the argument -------------------------------

def test_run_time_index_errors_name_the_instruction_and_the_argument(tmp_path, thundercc):
    import torch.nn.functional as F
    from conftest import save_case
    trace = save_case(tmp_path, "emb", lambda idx, w: F.embedding(idx, w), (torch.tensor([1, 2, 3]), torch.randn(10, 4)))
    thundercc("compile", trace, "-o", tmp_path)
    torch.save((torch.tensor([1, 12, -1]), torch.randn(10, 4)), tmp_path / "bad.pt")
    result = thundercc("run", tmp_path / "emb.plan.json", "--inputs", tmp_path / "bad.pt", "--outputs", tmp_path / "out.pt", check=False)
    fails(result, "emb.plan.json: /instructions/0: t0 = torch.nn.functional.embedding(idx, w,", "index out of range",
          "argument 0: cpu i64[3] with values in [-1, 12]", "test_reliability.py:235")
    assert "INTERNAL ASSERT" not in result.stderr and "Exception raised from" not in result.stderr
    assert not (tmp_path / "out.pt").exists()


def test_a_plan_reading_a_freed_slot_is_an_error(tmp_path, thundercc, add_mul_plan):
    plan = json.loads(add_mul_plan.read_text())
    plan["free_at_start"] = [plan["inputs"][0]["slot"]]
    fails(thundercc("run", write(tmp_path / "p.json", plan), check=False), "p.json: /instructions/", "holds no tensor here")


@pytest.mark.parametrize("kept", [0, 4])
def test_storage_records_shorter_than_their_pickle_claims_are_refused(tmp_path, thundercc, add_mul_plan, kept):
    """The pickle says 15 floats; the zip record holds fewer bytes (found by the pt_reader fuzzer)."""
    import io
    import zipfile
    buffer = io.BytesIO()
    torch.save((torch.randn(5, 3), torch.randn(2, 1)), buffer)
    source = zipfile.ZipFile(io.BytesIO(buffer.getvalue()))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as target:
        for info in source.infolist():
            data = source.read(info.filename)
            target.writestr(info, data[:kept] if info.filename.endswith("data/0") else data)
    (tmp_path / "short.pt").write_bytes(out.getvalue())
    result = thundercc("run", add_mul_plan, "--inputs", tmp_path / "short.pt", check=False)
    fails(result, "short.pt: tensor 0: its sizes, strides and offset reach past its storage")


def test_pickle_lengths_past_the_end_are_refused_before_allocating(thundercc, add_mul_plan):
    """A 1 KB pickle whose string length says 1.8 GB (found by the pt_reader fuzzer): refused
    before LibTorch's unpickler allocates it."""
    hostile = REPO / "tests" / "data" / "hostile" / "pickle_huge_length.pt"
    result = subprocess.run(["prlimit", "--as=1500000000", os.environ["THUNDERCC"], "run", add_mul_plan, "--inputs", hostile],
                            capture_output=True, text=True, timeout=60)
    fails(result, "pickle_huge_length.pt: data.pkl: a length of 1850299729 bytes at offset 43 runs past the end")


def test_pickle_memo_indices_past_the_pickle_are_refused_before_allocating(thundercc, add_mul_plan):
    """A 1 KB pickle with LONG_BINPUT 1869898599, for which LibTorch's unpickler reserves 30 GB of
    memo (found by the pt_reader fuzzer)."""
    hostile = REPO / "tests" / "data" / "hostile" / "pickle_huge_memo_index.pt"
    result = subprocess.run(["prlimit", "--as=1500000000", os.environ["THUNDERCC"], "run", add_mul_plan, "--inputs", hostile],
                            capture_output=True, text=True, timeout=60)
    fails(result, "pickle_huge_memo_index.pt: data.pkl: a memo index of 1869898599 larger than the pickle at offset 63")


def test_pickles_are_checked_against_what_torch_save_writes(thundercc, add_mul_plan):
    """A pickle with BUILD below a rebuilt tensor, on which LibTorch's unpickler frees memory it
    never allocated (found by the pt_reader fuzzer): refused by the model of the pickle machine."""
    hostile = REPO / "tests" / "data" / "hostile" / "pickle_build_below_tensor.pt"
    result = thundercc("run", add_mul_plan, "--inputs", hostile, check=False)
    fails(result, "pickle_build_below_tensor.pt: data.pkl: BUILD of something other than a dict's state at offset 153 (not what torch.save writes for tensors)")


def test_statement_counts_are_limited(tmp_path, thundercc, add_mul_plan):
    doc = add_mul()
    doc["bound_symbols"] = doc["bound_symbols"] * 100001
    fails(thundercc("validate", write(tmp_path / "many.json", doc), check=False), "many.json: /bound_symbols: 200002 entries (the limit is 200000)")
    plan = json.loads(add_mul_plan.read_text())
    plan["backward"] = {"instructions": [0] * 200001}
    fails(thundercc("run", write(tmp_path / "plan.json", plan), check=False), "plan.json: /backward/instructions: 200001 entries")
