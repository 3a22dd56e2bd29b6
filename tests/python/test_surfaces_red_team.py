"""The surfaces added since the first red team (issue 41): the reducer's eager script, the kernel
cache, output paths, weights files, checkpoints, dynamic plans, the CLIs' numbers. Each test
reproduces one class of defect found by attacking them, as an adversary and as a careless user."""
import json

import pytest
import torch

from conftest import capture, saveable
from test_reliability import fails


@pytest.fixture(scope="module")
def linear(tmp_path_factory):
    """A captured nn.Linear(4, 3) compiled to a plan, with its state_dict and an input file."""
    out = tmp_path_factory.mktemp("linear")
    torch.manual_seed(0)
    module = torch.nn.Linear(4, 3)
    x = torch.randn(2, 4)
    with torch.no_grad():
        capture(module, x).save(out / "lin.json")
        torch.save((saveable(module(x)),), out / "expected.pt")
    torch.save(module.state_dict(), out / "sd.pt")
    torch.save({"input": x}, out / "x.pt")
    return out, module


def compiled(thundercc, linear):
    out, _ = linear
    if not (out / "lin.plan.json").exists():
        thundercc("compile", out / "lin.json", "-o", out)
    return out / "lin.plan.json"


# --- Weights files ----------------------------------------------------------------------------

def test_parameters_saved_with_keep_vars_are_read(tmp_path, thundercc, linear):
    out, module = linear
    torch.save(module.state_dict(keep_vars=True), tmp_path / "vars.pt")
    result = thundercc("run", compiled(thundercc, linear), "--weights", tmp_path / "vars.pt", "--inputs", out / "x.pt",
                       "--expect", out / "expected.pt")
    assert "outputs match" in result.stdout


def test_a_plain_dict_of_parameters_is_read(tmp_path, thundercc, linear):
    """The rebuilder's memo entries are left out with its calls; the dict's own stay."""
    out, module = linear
    torch.save({"weight": module.weight, "bias": module.bias}, tmp_path / "params.pt")
    result = thundercc("run", compiled(thundercc, linear), "--weights", tmp_path / "params.pt", "--inputs", out / "x.pt",
                       "--expect", out / "expected.pt")
    assert "outputs match" in result.stdout


def test_sparse_and_cuda_tensors_are_refused_by_key(tmp_path, thundercc, linear, monkeypatch):
    out, module = linear
    sparse = module.state_dict()
    sparse["weight"] = sparse["weight"].to_sparse()
    torch.save(sparse, tmp_path / "sparse.pt")
    fails(thundercc("run", compiled(thundercc, linear), "--weights", tmp_path / "sparse.pt", "--inputs", out / "x.pt", check=False),
          "'weight' is a sparse tensor; thundercc reads dense tensors: save it with .to_dense()")
    # What torch.save writes for CUDA tensors: storages whose location is the device.
    monkeypatch.setattr(torch.serialization, "location_tag", lambda storage: "cuda:0")
    torch.save(module.state_dict(), tmp_path / "cuda.pt")
    monkeypatch.undo()
    fails(thundercc("run", compiled(thundercc, linear), "--weights", tmp_path / "cuda.pt", "--inputs", out / "x.pt", check=False),
          "'weight' is a tensor saved on cuda:0; thundercc reads CPU tensors: save it with .cpu()")
    torch.save([torch.randn(2, 4).to_sparse()], tmp_path / "list.pt")
    fails(thundercc("run", compiled(thundercc, linear), "--inputs", tmp_path / "list.pt", check=False),
          "the tensor at offset", "is a sparse tensor")


# --- The reducer's eager script -----------------------------------------------------------------

HOSTILE = ["x\nopen('PWNED', 'w')", "a\rb = open('PWNED', 'w')", "q\"'\\\"\"\"'''", "\u2028\u0085\x0c\x0bopen('PWNED','w')"]
# PEP 263: an encoding named on line 1 or 2 decodes the file; UTF-7 turns +AFwACg- into a backslash and a newline.
UTF7 = 'coding=utf_7,+AFwACg-open("PWNED","w").write("pwned")#'


def test_a_reduced_script_holds_what_the_trace_carries_as_data(tmp_path, thundercc):
    """Statements' sources, the trace's file name, the failure's message and the options the user
    gave become comments and string literals of the script, never statements."""
    import ast
    import subprocess
    import sys
    from conftest import REPO
    trace = json.loads((REPO / "traces" / "add_mul.json").read_text())
    for b, text in zip(trace["bound_symbols"], HOSTILE):
        b["source"] = text
    trace["bound_symbols"][1]["output"]["tensor"]["shape"] = [2, 3]  # a planted failure
    name = f"{UTF7} m\"a\nopen('PWNED','w')#'"
    hostile = tmp_path / f"{name}.json"
    hostile.write_text(json.dumps(trace))
    out = tmp_path / "out"
    out.mkdir()
    import shutil
    from test_plugins import plugin
    library = tmp_path / "p'l\nopen('PWNED','w').so"
    shutil.copy(plugin("multimul"), library)
    thundercc("reduce", hostile, "-o", out, "--until", "compile-fails", "--expect-error", "do not match", "--plugin", library)
    script = out / f"{name}.reduced.py"
    tree = ast.parse(script.read_text())
    kinds = [type(s).__name__ for s in tree.body]
    assert kinds == ["ImportFrom", "Import", "ClassDef", "ClassDef", "FunctionDef", "FunctionDef", "If"], kinds
    program = next(s for s in tree.body if isinstance(s, ast.FunctionDef) and s.name == "program")
    assert [type(s).__name__ for s in program.body] == ["Assign", "Return"]
    subprocess.run([sys.executable, script.name], cwd=out, check=True, capture_output=True)
    assert not list(tmp_path.rglob("PWNED"))
    assert (out / f"{name}.reduced.inputs.pt").exists() and (out / f"{name}.reduced.expected.pt").exists()


# --- The kernel cache -------------------------------------------------------------------------

@pytest.mark.parametrize("plant", ["world-writable objects", "libraries linked elsewhere", "objects a file"])
def test_every_folder_of_the_kernel_cache_is_checked(tmp_path, thundercc, plant):
    import os
    from conftest import REPO
    thundercc("compile", REPO / "traces" / "add_mul.json", "-o", tmp_path)
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    if plant == "world-writable objects":
        (cache / "objects").mkdir()
        os.chmod(cache / "objects", 0o777)
        phrase = "objects can be written by another user"
    elif plant == "libraries linked elsewhere":
        shared = tmp_path / "shared"
        shared.mkdir()
        os.chmod(shared, 0o777)
        (cache / "libraries").symlink_to(shared)
        phrase = "libraries is not a folder (a link or a file where the cache keeps a folder)"
    else:
        (cache / "objects").write_text("")
        phrase = "objects is not a folder"
    fails(thundercc("run", tmp_path / "add_mul.plan.json", check=False, env={"THUNDERCC_CACHE_DIR": str(cache)}), phrase)
    assert not list((tmp_path / "shared").glob("*")) if plant == "libraries linked elsewhere" else True


def test_a_cache_entry_that_is_a_link_is_made_again_not_followed(tmp_path, thundercc):
    from conftest import REPO
    thundercc("compile", REPO / "traces" / "add_mul.json", "-o", tmp_path)
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    thundercc("run", tmp_path / "add_mul.plan.json", env={"THUNDERCC_CACHE_DIR": str(cache)})
    [library] = (cache / "libraries").glob("*.so")
    elsewhere = tmp_path / "planted.so"
    library.rename(elsewhere)
    library.symlink_to(elsewhere)
    thundercc("run", tmp_path / "add_mul.plan.json", env={"THUNDERCC_CACHE_DIR": str(cache)})
    assert not library.is_symlink()


def test_ctrl_c_during_reduce_leaves_no_child_and_no_temporary_folder(tmp_path):
    import os
    import signal
    import subprocess
    import time
    from conftest import REPO
    from test_plugins import plugin
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    reducer = subprocess.Popen([os.environ["THUNDERCC"], "reduce", str(REPO / "traces" / "gpt2_block.json"), "-o", str(tmp_path),
                                "--until", "run-fails", "--plugin", plugin("test_faulty"), "--executors", "faulty_shape,torch"],
                               env={**os.environ, "TMPDIR": str(temporary)}, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(2.0)
    reducer.send_signal(signal.SIGINT)
    _, stderr = reducer.communicate(timeout=30)
    assert reducer.returncode == 130, stderr
    assert "interrupted" in stderr
    assert list(temporary.iterdir()) == []
    left = subprocess.run(["pgrep", "-f", str(temporary)], capture_output=True, text=True).stdout
    assert left == "", left
    assert not (tmp_path / "gpt2_block.reduced.json").exists()


# --- Output paths -----------------------------------------------------------------------------

@pytest.mark.parametrize("option", ["--outputs", "--profile-json"])
def test_outputs_are_written_only_over_regular_files(tmp_path, thundercc, linear, option):
    import os
    out, _ = linear
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    extra = ["--profile"] if option == "--profile-json" else []
    fails(thundercc("run", compiled(thundercc, linear), "--weights", out / "sd.pt", "--inputs", out / "x.pt", option, fifo, *extra,
                    check=False), f"{fifo}: cannot write: it is a FIFO, and thundercc writes only regular files")
    assert fifo.is_fifo()
    folder = tmp_path / "folder.pt"
    folder.mkdir()
    fails(thundercc("run", compiled(thundercc, linear), "--weights", out / "sd.pt", "--inputs", out / "x.pt", option, folder, *extra,
                    check=False), "it is a folder")
    fails(thundercc("run", compiled(thundercc, linear), "--weights", out / "sd.pt", "--inputs", out / "x.pt", option, "/proc/out.pt",
                    *extra, check=False), "cannot write into the folder /proc")


def test_compile_does_not_replace_a_fifo_and_writes_nothing(tmp_path, thundercc):
    import os
    from conftest import REPO
    os.mkfifo(tmp_path / "add_mul.plan.json")
    fails(thundercc("compile", REPO / "traces" / "add_mul.json", "-o", tmp_path, check=False), "it is a FIFO")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["add_mul.plan.json"]


# --- Checkpoints, step counts and the CLIs' numbers ---------------------------------------------

@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """A classifier's training step compiled with SGD, its first batch, and a checkpoint of 2 steps."""
    import os
    import subprocess
    from test_optimizer import prepared
    out = tmp_path_factory.mktemp("trained")

    def thundercc(*args, check=True):
        return subprocess.run([os.environ["THUNDERCC"], *map(str, args)], capture_output=True, text=True, check=check)
    prepared(out, thundercc, "--optimizer", "sgd", "--lr", "0.1")
    thundercc("run", out / "clf.plan.json", "--inputs", out / "batch.0.pt", "--steps", 2, "--checkpoint", out / "ck.pt")
    return out


@pytest.mark.parametrize("steps", ["9223372036854775807", "-3", "0", "1e3"])
def test_step_counts_are_checked(thundercc, trained, steps):
    result = thundercc("run", trained / "clf.plan.json", "--inputs", trained / "batch.0.pt", "--steps", steps, check=False)
    assert result.returncode == 2 and "--steps" in result.stderr and "step " not in result.stdout, result.stderr


def test_a_checkpoint_with_a_negative_step_count_is_refused(tmp_path, thundercc, trained):
    checkpoint = torch.load(trained / "ck.pt")  # saved again by Python, as a user would edit one
    checkpoint["step"] = -3
    torch.save(checkpoint, tmp_path / "negative.pt")
    fails(thundercc("run", trained / "clf.plan.json", "--inputs", trained / "batch.0.pt", "--steps", 1, "--resume",
                    tmp_path / "negative.pt", check=False), "the checkpoint says -3 steps were done")


def test_a_damaged_tensor_file_is_refused_by_its_crc(tmp_path, thundercc, trained):
    import struct
    import zipfile
    data = bytearray((trained / "ck.pt").read_bytes())
    record = next(f for f in zipfile.ZipFile(trained / "ck.pt").infolist() if f.filename.endswith("data/0"))
    name, extra = struct.unpack("<HH", data[record.header_offset + 26:record.header_offset + 30])
    data[record.header_offset + 30 + name + extra + 1] ^= 0x10  # one bit of the first parameter
    (tmp_path / "flipped.pt").write_bytes(bytes(data))
    fails(thundercc("run", trained / "clf.plan.json", "--inputs", trained / "batch.0.pt", "--steps", 1, "--resume",
                    tmp_path / "flipped.pt", check=False), "flipped.pt: damaged (record", "does not match its CRC-32)")


def test_an_unwritable_checkpoint_is_found_before_the_first_step(thundercc, trained):
    result = thundercc("run", trained / "clf.plan.json", "--inputs", trained / "batch.0.pt", "--steps", 3, "--checkpoint",
                       "/proc/ck.pt", check=False)
    fails(result, "/proc/ck.pt: cannot write into the folder /proc")
    assert "step 0" not in result.stdout


@pytest.mark.parametrize("flags", [["--lr", "nan"], ["--lr", "inf"], ["--lr", "0.1", "--momentum", "nan"],
                                   ["--lr", "0.1", "--weight-decay", "nan"]])
def test_optimizer_options_must_be_finite(tmp_path, thundercc, trained, flags):
    result = thundercc("compile", trained / "clf.json", "-o", tmp_path, "--optimizer", "sgd", *flags, check=False)
    assert result.returncode == 2 and "must be a finite number" in result.stderr, result.stderr


@pytest.mark.parametrize("flags", [["--betas", "nan,0.9"], ["--eps", "nan"]])
def test_adamw_options_must_be_finite(tmp_path, thundercc, trained, flags):
    result = thundercc("compile", trained / "clf.json", "-o", tmp_path, "--optimizer", "adamw", *flags, check=False)
    assert result.returncode == 2 and "must be a finite number" in result.stderr, result.stderr


def test_bucket_sizes_and_reduce_limits_must_be_finite(tmp_path, thundercc, trained):
    from conftest import REPO
    result = thundercc("compile", trained / "clf.json", "-o", tmp_path, "--distributed", "ddp", "--bucket-mb", "nan", check=False)
    assert result.returncode == 2 and "must be a finite number" in result.stderr, result.stderr
    for option, value in [("--timeout", "1e20"), ("--timeout", "nan"), ("--rtol", "nan"), ("--atol", "inf")]:
        result = thundercc("reduce", REPO / "traces" / "add_mul.json", "--until", "differs", option, value, check=False)
        assert result.returncode == 2 and option in result.stderr, result.stderr


@pytest.mark.parametrize("environment,phrase", [
    ({"WORLD_SIZE": "2", "RANK": "0", "MASTER_PORT": "99999"}, "MASTER_PORT is '99999': a whole number from 1 to 65535"),
    ({"WORLD_SIZE": "0"}, "WORLD_SIZE is '0': a whole number from 1 to 65536"),
    ({"WORLD_SIZE": "-1"}, "WORLD_SIZE is '-1'"),
    ({"WORLD_SIZE": "2", "RANK": "2"}, "RANK is '2': a whole number from 0 to 1"),
    ({"WORLD_SIZE": "2x"}, "WORLD_SIZE is '2x'"),
])
def test_the_distributed_environment_is_checked(tmp_path, thundercc, trained, environment, phrase):
    thundercc("compile", trained / "clf.json", "-o", tmp_path, "--distributed", "ddp", "--optimizer", "sgd", "--lr", "0.1")
    fails(thundercc("run", tmp_path / "clf.plan.json", "--inputs", trained / "batch.0.pt", "--steps", 1, check=False, env=environment),
          phrase)


# --- The embedding API and dynamic plans --------------------------------------------------------

def serving_checks(*args):
    import os
    import subprocess
    from conftest import REPO
    binary = os.environ.get("THUNDERCC_SERVING_CHECKS", str(REPO / "build" / "tests" / "serving_checks"))
    return subprocess.run([binary, *map(str, args)], capture_output=True, text=True)


def test_weights_made_under_inference_mode_and_changed_in_place_are_seen(tmp_path, thundercc):
    """Inference tensors have no version counter: the batch-norm fold and the packed convolution
    weights are computed again each run rather than served stale."""
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Conv2d(3, 8, 3), torch.nn.BatchNorm2d(8), torch.nn.ReLU(), torch.nn.Conv2d(8, 4, 3)).eval()
    with torch.no_grad():
        for m in model.modules():
            if isinstance(m, torch.nn.BatchNorm2d):
                m.running_mean.uniform_(-0.5, 0.5)
                m.running_var.uniform_(0.5, 2.0)
    x = torch.randn(2, 3, 12, 12)
    with torch.no_grad():
        capture(model, x).save(tmp_path / "m.json")
    thundercc("compile", tmp_path / "m.json", "-o", tmp_path)
    assert "prologue" in json.loads((tmp_path / "m.plan.json").read_text())  # the batch norm is folded
    torch.save(model.state_dict(), tmp_path / "weights.pt")
    torch.save({"input": x}, tmp_path / "x.pt")
    result = serving_checks("inference", tmp_path / "m.plan.json", tmp_path / "weights.pt", tmp_path / "x.pt", tmp_path / "out.pt")
    assert result.returncode == 0, result.stderr
    first, second = torch.load(tmp_path / "out.pt")
    doubled = model.state_dict()
    for key, value in doubled.items():
        if value.is_floating_point():
            value.mul_(2)
    with torch.no_grad():
        reference = torch.nn.Sequential(torch.nn.Conv2d(3, 8, 3), torch.nn.BatchNorm2d(8), torch.nn.ReLU(), torch.nn.Conv2d(8, 4, 3)).eval()
        reference.load_state_dict(torch.load(tmp_path / "weights.pt"))
        torch.testing.assert_close(first, reference(x), rtol=1e-4, atol=1e-4)
        reference.load_state_dict(doubled)
        torch.testing.assert_close(second, reference(x), rtol=1e-4, atol=1e-4)


def dynamic_mlp_plan(tmp_path, thundercc, swap_inputs=False):
    from thundercc_frontend import capture_dynamic
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(6, 16), torch.nn.Tanh(), torch.nn.Linear(16, 3))
    x = torch.randn(64, 6)
    with torch.no_grad():
        capture_dynamic(model, (x[:4],), ["input:0:1:64"]).save(tmp_path / "m.json")
    thundercc("compile", tmp_path / "m.json", "-o", tmp_path)
    torch.save({"input": x}, tmp_path / "x.pt")
    torch.save(model.state_dict(), tmp_path / "weights.pt")
    return tmp_path / "m.plan.json", model, x


def test_a_dynamic_plan_keeps_a_bounded_number_of_sizes(tmp_path, thundercc):
    plan, _, _ = dynamic_mlp_plan(tmp_path, thundercc)
    result = serving_checks("sizes", plan, tmp_path / "weights.pt", tmp_path / "x.pt", 3, 12)
    assert result.returncode == 0, result.stderr
    kept = [int(line.split()[2]) for line in result.stdout.splitlines()]
    assert max(kept) == 3 and kept[-1] == 3, result.stdout


def test_a_dynamic_plan_whose_trace_takes_its_inputs_in_another_order_is_refused(tmp_path, thundercc):
    from thundercc_frontend import capture_dynamic

    def program(x, y):
        return x - 2 * y
    with torch.no_grad():
        capture_dynamic(program, (torch.randn(4, 3), torch.randn(4, 3)), ["x:0=n", "y:0=n"]).save(tmp_path / "p.json")
    thundercc("compile", tmp_path / "p.json", "-o", tmp_path)
    doc = json.loads((tmp_path / "p.plan.json").read_text())
    doc["dynamic"]["trace"]["inputs"].reverse()
    (tmp_path / "p.plan.json").write_text(json.dumps(doc))
    torch.save({"x": torch.randn(6, 3), "y": torch.randn(6, 3)}, tmp_path / "in.pt")
    fails(thundercc("run", tmp_path / "p.plan.json", "--inputs", tmp_path / "in.pt", check=False),
          "/dynamic/trace/inputs: the symbolic trace takes 'y', 'x', but the plan takes 'x', 'y'")


def test_a_plan_whose_recorded_shapes_disagree_with_its_kernels_is_refused(tmp_path, thundercc):
    model = torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3, padding=1), torch.nn.MaxPool2d(2), torch.nn.AdaptiveAvgPool2d(1))
    with torch.no_grad():
        capture(model, torch.randn(1, 3, 16, 16)).save(tmp_path / "pool.json")
    thundercc("compile", tmp_path / "pool.json", "-o", tmp_path, "--executors", "torch")
    doc = json.loads((tmp_path / "pool.plan.json").read_text())
    pool = next(i for i in doc["instructions"] if i["op"].endswith("max_pool2d"))
    pool["args"][2] = 4  # the stride: a [1, 4, 4, 4] result where the plan records [1, 4, 8, 8]
    (tmp_path / "pool.plan.json").write_text(json.dumps(doc))
    fails(thundercc("run", tmp_path / "pool.plan.json", check=False),
          "its kernel returned output 0 as cpu f32[1, 4, 4, 4], but the statement makes cpu f32[1, 4, 8, 8]",
          "the plan records another type than its kernel computes from these arguments")


def test_an_encoding_named_by_a_trace_string_never_decodes_the_reduced_script(tmp_path, thundercc):
    """The failure's message quotes the trace's string, on what was the script's second line."""
    import subprocess
    import sys
    trace = {"format": "thundercc.trace", "version": 1, "name": "fun",
             "inputs": [{"name": "a", "tensor": {"shape": [2, 2], "dtype": "float32", "device": "cpu", "requires_grad": False}}],
             "bound_symbols": [{"symbol": "torch.nn.functional.gelu", "args": [{"ref": "a"}], "kwargs": {"approximate": UTF7},
                                "output": {"tensor": {"name": "t0", "shape": [2, 2], "dtype": "float32", "device": "cpu",
                                                      "requires_grad": False}}}],
             "output": {"ref": "t0"}}
    (tmp_path / "g.json").write_text(json.dumps(trace))
    thundercc("reduce", tmp_path / "g.json", "-o", tmp_path, "--until", "compile-fails")
    script = (tmp_path / "g.reduced.py").read_text()
    assert script.splitlines()[0] == "# -*- coding: utf-8 -*-"
    subprocess.run([sys.executable, "g.reduced.py"], cwd=tmp_path, capture_output=True)
    assert not (tmp_path / "PWNED").exists()


def test_an_interrupted_compile_leaves_no_compiler_and_no_cache_temporary(tmp_path):
    import os
    import signal
    import subprocess
    import time
    from conftest import REPO
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    compiling = subprocess.Popen([os.environ["THUNDERCC"], "compile", str(REPO / "traces" / "gpt2_block.json"), "-o", str(tmp_path)],
                                 env={**os.environ, "THUNDERCC_CACHE_DIR": str(cache)}, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 20
    while not list(cache.glob("objects/*.cpp")) and time.monotonic() < deadline:  # its compilers are running
        time.sleep(0.02)
    compiling.send_signal(signal.SIGTERM)
    compiling.communicate(timeout=30)
    assert compiling.returncode == -signal.SIGTERM
    time.sleep(0.2)
    left = subprocess.run(["pgrep", "-f", str(cache)], capture_output=True, text=True).stdout
    assert left == "", left
    assert not [p.name for p in cache.rglob("*.tmp*")]


@pytest.mark.parametrize("plant", ["fifo", "folder"])
def test_what_is_planted_at_a_cache_entry_neither_hangs_nor_stays(tmp_path, thundercc, plant):
    import os
    from conftest import REPO
    thundercc("compile", REPO / "traces" / "add_mul.json", "-o", tmp_path)
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    thundercc("run", tmp_path / "add_mul.plan.json", env={"THUNDERCC_CACHE_DIR": str(cache)})
    [library] = (cache / "libraries").glob("*.so")
    library.unlink()
    if plant == "fifo":
        os.mkfifo(library)
        thundercc("run", tmp_path / "add_mul.plan.json", env={"THUNDERCC_CACHE_DIR": str(cache)})  # made again
        assert library.is_file()
    else:
        library.mkdir()
        fails(thundercc("run", tmp_path / "add_mul.plan.json", check=False, env={"THUNDERCC_CACHE_DIR": str(cache)}),
              f"the kernel cache's entry {library} is a folder: remove it")
    assert not list((cache / "libraries").glob("*.tmp*"))


@pytest.mark.parametrize("file,phrase", [
    ("zip64_second_directory.pt", "damaged (two zip directories that disagree)"),  # LibTorch reads the zip64 one
    ("duplicate_record.pt", "damaged (two records named sd/data/0)"),
])
def test_zip_directories_are_checked_as_libtorch_reads_them(thundercc, file, phrase):
    from conftest import REPO
    import tempfile
    from pathlib import Path
    with tempfile.TemporaryDirectory() as out:
        thundercc("compile", REPO / "traces" / "add_mul.json", "-o", out)
        fails(thundercc("run", Path(out) / "add_mul.plan.json", "--inputs", REPO / "tests" / "data" / "hostile" / file, check=False), phrase)


def test_a_plan_without_its_recorded_types_and_a_prologue_reading_by_type_only_are_refused(tmp_path, thundercc):
    model = torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3), torch.nn.BatchNorm2d(4), torch.nn.ReLU()).eval()
    with torch.no_grad():
        capture(model, torch.randn(1, 3, 8, 8)).save(tmp_path / "m.json")
    thundercc("compile", tmp_path / "m.json", "-o", tmp_path, "--executors", "torch")
    doc = json.loads((tmp_path / "m.plan.json").read_text())
    reads = doc["prologue"]["reads"]
    reads[-2], reads[-1] = reads[-1], reads[-2]  # the running mean and variance, of one type
    (tmp_path / "swapped.plan.json").write_text(json.dumps(doc))
    fails(thundercc("run", tmp_path / "swapped.plan.json", check=False), "/prologue/reads/", "not the forward's input 't_1_running")
    doc = json.loads((tmp_path / "m.plan.json").read_text())
    del doc["instructions"][0]["expect"]
    (tmp_path / "unchecked.plan.json").write_text(json.dumps(doc))
    fails(thundercc("run", tmp_path / "unchecked.plan.json", check=False),
          "/instructions/0: no \"expect\": every instruction but a fusion region's records the types of its tensor outputs")


def test_numbers_that_would_be_clamped_or_wrong_are_usage_errors(tmp_path, thundercc, linear, trained):
    plan = compiled(thundercc, linear)
    out, _ = linear
    for option, value in [("--seed", "18446744073709551615"), ("--seed", "1.5"), ("--threads", "100000"), ("--outputs", "")]:
        result = thundercc("run", plan, "--weights", out / "sd.pt", "--inputs", out / "x.pt", option, value, check=False)
        assert result.returncode == 2 and option in result.stderr, result.stderr
    result = thundercc("compile", trained / "clf.json", "-o", tmp_path, "--optimizer", "adamw", "--betas", "0.9,1", check=False)
    assert result.returncode == 2 and "must be below 1" in result.stderr, result.stderr
    result = thundercc("compile", trained / "clf.json", "-o", tmp_path, "--seed", "99999999999999999999", check=False)
    assert result.returncode == 2 and "--seed" in result.stderr, result.stderr


def test_a_timeout_shorter_than_any_compile_is_refused_and_output_folders_are_checked(tmp_path, thundercc):
    from conftest import REPO
    fails(thundercc("reduce", REPO / "traces" / "add_mul.json", "--until", "compile-fails", "--timeout", "0.001", "-o", tmp_path,
                    check=False), "so does a program of none of its statements: --timeout 0.001 s is shorter")
    (tmp_path / "afile").write_text("")
    fails(thundercc("compile", REPO / "traces" / "add_mul.json", "-o", tmp_path / "afile", check=False),
          "afile: cannot make the output folder (Not a directory)")


def test_keys_are_printed_escaped(tmp_path, thundercc, linear):
    out, module = linear
    hostile = {"wei\x1b[31mght\nX": module.weight.detach().to_sparse()}
    torch.save(hostile, tmp_path / "keys.pt")
    result = thundercc("run", compiled(thundercc, linear), "--weights", tmp_path / "keys.pt", "--inputs", out / "x.pt", check=False)
    fails(result, "'wei\\x1b[31mght\\nX' is a sparse tensor")
    assert "\x1b" not in result.stderr
