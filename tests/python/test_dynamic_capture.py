"""capture_dynamic and `--dynamic`: symbolic sizes fitted from captures at several sizes, the
programs whose trace cannot be fitted, and the state the samples must not leave behind."""
import copy
import json
import math
import subprocess
import sys
import time

import pytest
import torch
import torch.nn.functional as F
import torchvision

from conftest import REPO, run_on_a_terminal
from thundercc_frontend import CaptureError, capture, capture_dynamic, specialize
from thundercc_frontend.dynamic import evaluate


class Mlp(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(12, 8)
        self.fc2 = torch.nn.Linear(8, 3)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x.view(x.size(0), -1))))


class TinyGpt(torch.nn.Module):
    def __init__(self, vocab=32, block_size=64, channels=16, heads=2):
        super().__init__()
        self.heads = heads
        self.wte = torch.nn.Embedding(vocab, channels)
        self.wpe = torch.nn.Embedding(block_size, channels)
        self.attn = torch.nn.Linear(channels, 3 * channels)
        self.proj = torch.nn.Linear(channels, channels)
        self.head = torch.nn.Linear(channels, vocab)
        self.register_buffer("mask", torch.tril(torch.ones(block_size, block_size)))

    def forward(self, idx):
        B, T = idx.shape
        C = self.wte.embedding_dim
        x = self.wte(idx) + self.wpe(torch.arange(idx.shape[1]))
        q, k, v = self.attn(x).split(C, dim=2)
        q, k, v = (t.view(B, T, self.heads, C // self.heads).transpose(1, 2) for t in (q, k, v))
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(C // self.heads))
        att = F.softmax(att.masked_fill(self.mask[:T, :T] == 0, float("-inf")), dim=-1)
        y = (att @ v).transpose(1, 2).contiguous().view(B * T, C)
        return self.head(self.proj(y)).view(B, T, -1)


def symints(node):
    """Every size expression in a document."""
    if isinstance(node, dict):
        return [node["symint"]] if list(node) == ["symint"] else [e for v in node.values() for e in symints(v)]
    if isinstance(node, list):
        return [e for v in node for e in symints(v)]
    return []


def statements(doc, symbol):
    return [b for b in doc["bound_symbols"] if b["symbol"] == symbol]


def test_a_view_of_the_batch_gets_the_symbol_and_specializes_back():
    model, x = Mlp(), torch.randn(2, 3, 4)
    doc = capture_dynamic(model, (x,), ["x:0"]).to_json()
    assert doc["symbols"] == [{"name": "s0", "input": "x", "dim": 0, "min": 1, "max": 2**31 - 1, "hint": 2}]
    assert doc["inputs"][0]["tensor"]["shape"] == [{"symint": "s0"}, 3, 4]
    view, = statements(doc, "torch.Tensor.view")
    assert view["args"][1:] == [{"symint": "s0"}, -1]
    assert doc["bound_symbols"][-1]["output"]["tensor"]["shape"] == [{"symint": "s0"}, 3]
    assert specialize(doc, {"s0": 2}) == capture(model, x).to_json()
    # At another size too, it is the trace a capture there records.
    assert specialize(doc, {"s0": 5}) == capture(model, torch.randn(5, 3, 4)).to_json()


def test_gpt_sequence_length():
    model, idx = TinyGpt(), torch.randint(0, 32, (2, 16))
    captured = capture_dynamic(model, (idx,), ["idx:1:1:64"])
    doc = captured.to_json()
    assert doc["symbols"] == [{"name": "s0", "input": "idx", "dim": 1, "min": 1, "max": 64, "hint": 16}]
    assert statements(doc, "torch.arange")[0]["args"][0] == {"symint": "s0"}
    mask_slice = statements(doc, "torch.Tensor.__getitem__")[0]["args"][1]
    assert mask_slice == {"tuple": [{"slice": [None, {"symint": "s0"}, None]}] * 2}
    assert {"symint": "2*s0"} in statements(doc, "torch.Tensor.view")[-2]["args"]  # B*T
    assert specialize(doc, {"s0": 16}) == capture(model, idx).to_json()
    assert specialize(doc, {"s0": 7}) == capture(model, idx[:, :7]).to_json()
    assert torch.equal(captured.output_values[0], model(idx))  # the base run's outputs


def test_gpt_batch_and_sequence_length_give_a_product():
    model, idx = TinyGpt(), torch.randint(0, 32, (2, 16))
    doc = capture_dynamic(model, (idx,), ["idx:0=batch", "idx:-1:1:64"]).to_json()
    assert [(s["name"], s["dim"]) for s in doc["symbols"]] == [("batch", 0), ("s0", 1)]
    assert {"symint": "batch*s0"} in statements(doc, "torch.Tensor.view")[-2]["args"]
    assert doc["output"] == {"ref": doc["bound_symbols"][-1]["output"]["tensor"]["name"]}
    assert doc["bound_symbols"][-1]["output"]["tensor"]["shape"] == [{"symint": "batch"}, {"symint": "s0"}, 32]
    assert specialize(doc, {"batch": 2, "s0": 16}) == capture(model, idx).to_json()
    assert specialize(doc, {"batch": 3, "s0": 5}) == capture(model, torch.randint(0, 32, (3, 5))).to_json()


def test_shared_symbols_and_expressions():
    def program(x, y):
        return torch.cat([x, y], 0).reshape(-1)[: x.shape[0] - 1]

    x, y = torch.randn(4, 2), torch.randn(3, 2)
    doc = capture_dynamic(program, (x, y), ["x:0:1:64=n", "y:0"]).to_json()
    assert [s["name"] for s in doc["symbols"]] == ["n", "s0"]
    assert [e for e in symints(doc) if " " in e] == ["n + s0", "2*n + 2*s0", "n - 1", "n - 1"]
    assert specialize(doc, {"n": 6, "s0": 1}) == capture(program, torch.randn(6, 2), torch.randn(1, 2)).to_json()

    def half(y):
        return y[: y.shape[0] // 2 + 1]

    doc = capture_dynamic(half, (torch.randn(4, 2),), ["y:0:2:64"]).to_json()  # sampled at 8, 12 and 2: even sizes
    assert symints(doc) == ["s0", "(s0 + 2)/2", "(s0 + 2)/2"]
    with pytest.raises(CaptureError, match=r"at y.shape\[0\] = 1 as at 4: its argument 1 changes as no polynomial"):
        capture_dynamic(half, (torch.randn(4, 2),), ["y:0"])  # the range's least size, 1, is odd
    with pytest.raises(CaptureError, match=r"its argument 1 changes as no polynomial of s0 with the terms 1, s0 does "
                                           r"\(it is 5 there"):
        capture_dynamic(half, (torch.randn(3, 2),), ["y:0"])  # 3, 6, 9: floor division shows

    # One symbol on two inputs: their ranges (and sizes) must agree.
    doc = capture_dynamic(torch.add, (x, torch.randn(4, 2)), ["t_0:0:1:64=n", "t_1:0:1:64=n"]).to_json()
    assert [(s["name"], s["input"]) for s in doc["symbols"]] == [("n", "t_0"), ("n", "t_1")]
    assert set(symints(doc)) == {"n"}
    with pytest.raises(CaptureError, match=r"t_1.shape\[0\] and t_0.shape\[0\] are both n, but t_1.shape\[0\] is 4 in "
                                           r"\[1, 32\] and t_0.shape\[0\] is 4 in \[1, 64\]"):
        capture_dynamic(torch.add, (x, torch.randn(4, 2)), ["t_0:0:1:64=n", "t_1:0:1:32=n"])
    with pytest.raises(CaptureError, match=r"y.shape\[0\] and x.shape\[0\] are both n, but y.shape\[0\] is 3 in"):
        capture_dynamic(program, (x, y), ["x:0=n", "y:0=n"])


def test_expressions_follow_the_grammar():
    values = {"s0": 3, "s1": 5}
    assert [evaluate(e, values) for e in ["s0", "16*s0", "s0*s1", "3*s0 + 1", "s0 - 1", "-2*s0 + 64", "(s0 + 1)/2"]] == \
        [3, 48, 15, 10, 2, 58, 2]
    for bad in ["s0+1", "s0 * 2", "(s0)/1", "2s0", "s0 - -1"]:
        with pytest.raises(ValueError, match="size expression|divides"):
            evaluate(bad, values)
    with pytest.raises(ValueError, match="not an integer"):
        evaluate("(s0 + 2)/2", values)


def test_resnet18_batch():
    model, x = torchvision.models.resnet18().eval(), torch.randn(1, 3, 64, 64)
    start = time.monotonic()
    doc = capture_dynamic(model, (x,), ["x:0"]).to_json()
    assert time.monotonic() - start < 30
    assert doc["inputs"][0]["tensor"]["shape"] == [{"symint": "s0"}, 3, 64, 64]
    assert set(symints(doc)) == {"s0"}
    assert specialize(doc, {"s0": 1}) == capture(model, x).to_json()


def test_specs_that_name_no_dynamic_size_are_refused():
    model, x = Mlp(), torch.randn(2, 3, 4)
    with pytest.raises(CaptureError, match=r"no tensor input named y \(its tensor arguments: x\)"):
        capture_dynamic(model, (x,), ["y:0"])
    with pytest.raises(CaptureError, match="t_fc1_weight is a parameter or buffer of the module"):
        capture_dynamic(model, (x,), ["t_fc1_weight:0"])
    with pytest.raises(CaptureError, match="x has 3 dimensions, no dimension 3"):
        capture_dynamic(model, (x,), ["x:3"])
    with pytest.raises(CaptureError, match=r"x.shape\[0\] is 2 in the example, outside \[4, 8\]"):
        capture_dynamic(model, (x,), ["x:0:4:8"])
    with pytest.raises(CaptureError, match=r"the range \[2, 3\] has fewer than 3 sizes"):
        capture_dynamic(model, (x,), ["x:0:2:3"])
    with pytest.raises(CaptureError, match="expected INPUT:DIM"):
        capture_dynamic(model, (x,), ["x:0:4"])
    with pytest.raises(CaptureError, match="not '1b'"):
        capture_dynamic(model, (x,), ["x:0=1b"])
    with pytest.raises(CaptureError, match="a size is at most 2147483647 .what the default range allows., not 99999999999999999999"):
        capture_dynamic(model, (x,), ["x:0:1:99999999999999999999"])


def test_traces_that_depend_on_sizes_otherwise_are_refused_with_the_statement():
    def branches(x):
        y = x * 2 if x.shape[0] > 1 else x + 1
        return y

    def mean_by_hand(x):
        return x * (1.0 / x.shape[0])

    def reads_a_count(x):
        return x * int((x > -1e9).sum().item())

    x = torch.randn(1, 4)
    with pytest.raises(CaptureError, match=r"statement 0 \(torch.Tensor.add at .*test_dynamic_capture.py:\d+\) is not the "
                                           r"same at x.shape\[0\] = 2 as at 1: its symbol changes from \"torch.Tensor.add\" "
                                           r"to \"torch.Tensor.mul\"; a program whose trace depends on a size in another "
                                           r"way cannot be captured with --dynamic"):
        capture_dynamic(branches, (x,), ["x:0"])
    with pytest.raises(CaptureError, match=r"statement 0 \(torch.Tensor.mul at .*test_dynamic_capture.py:\d+\) is not the "
                                           r"same at x.shape\[0\] = 2 as at 1: its argument 1 changes from 1.0 to 0.5; a float "
                                           r"made from a size cannot follow it: pass the size itself"):
        capture_dynamic(mean_by_hand, (x,), ["x:0"])
    # As the message says: the size itself is an integer the trace follows.
    doc = capture_dynamic(lambda x: x / x.shape[0], (torch.randn(3, 4),), ["x:0"]).to_json()
    assert doc["bound_symbols"][0]["args"][1] == {"symint": "s0"}
    with pytest.raises(CaptureError, match=r"statement 2 \(prims.check_tensor_value at .*\) is not the same at "
                                           r"x.shape\[0\] = 2 as at 1: it guards a value read from a tensor"):
        capture_dynamic(reads_a_count, (x,), ["x:0"])


def test_cli(tmp_path):
    program = tmp_path / "program.py"
    program.write_text("import torch\n\n"
                       "def make():\n"
                       "    torch.manual_seed(0)\n"
                       "    return torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(12, 3)), (torch.randn(2, 3, 4),)\n")
    out = tmp_path / "t.json"
    made = subprocess.run([sys.executable, "-m", "thundercc_frontend", f"{program}:make", "-o", out, "--save-io",
                           "--grad", "--dynamic", "input:0:1:64"], cwd=REPO, check=True, capture_output=True, text=True)
    assert made.stdout == f"capture: {out}: 2 bound symbols, symbols s0 = input.shape[0] in [1, 64]\n"
    doc = json.loads(out.read_text())
    assert doc["symbols"] == [{"name": "s0", "input": "input", "dim": 0, "min": 1, "max": 64, "hint": 2}]
    # The base run's tensors.
    assert torch.load(tmp_path / "t.inputs.pt")[0].shape == (2, 3, 4)
    assert torch.load(tmp_path / "t.expected.pt")[0].shape == (2, 3)
    assert [g.shape for g in torch.load(tmp_path / "t.grads.pt")] == [(3, 12), (3,)]
    refused = subprocess.run([sys.executable, "-m", "thundercc_frontend", f"{program}:make", "--check",
                              "--dynamic", "input:0"], cwd=REPO, capture_output=True, text=True)
    assert refused.returncode == 2 and "--check" in refused.stderr and "--dynamic" in refused.stderr
    wrong = subprocess.run([sys.executable, "-m", "thundercc_frontend", f"{program}:make", "-o", out,
                            "--dynamic", "x:0"], cwd=REPO, capture_output=True, text=True)
    assert wrong.returncode == 1 and "capture: error: --dynamic x:0: the program has no tensor input named x" in wrong.stderr


class TrainingStep(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.net = torch.nn.Sequential(torch.nn.Linear(6, 8), torch.nn.BatchNorm1d(8), torch.nn.Dropout(0.5),
                                       torch.nn.Linear(8, 2))

    def forward(self, x):
        return self.net(x).sum()


def test_training_leaves_the_state_a_single_capture_leaves():
    torch.manual_seed(0)
    x = torch.randn(4, 6)
    once = TrainingStep().train()
    dynamic = copy.deepcopy(once)

    torch.manual_seed(1)
    single = capture(once, x)
    after_single = torch.rand(3)
    torch.manual_seed(1)
    captured = capture_dynamic(dynamic, (x,), ["x:0:2:64"])  # batch norm in training takes no batch of 1
    assert torch.equal(torch.rand(3), after_single)  # the random state, as if only one capture ran

    doc = captured.to_json()
    assert doc["inputs"][0]["tensor"]["shape"] == [{"symint": "s0"}, 6]
    assert specialize(doc, {"s0": 4}) == single.to_json()
    for (key, a), b in zip(once.state_dict().items(), dynamic.state_dict().values()):
        assert torch.equal(a, b), key  # running statistics and num_batches_tracked included
    assert torch.equal(captured.output_values[0], single.output_values[0])
    # The base run's graph still differentiates: the restored state kept its version counters.
    single.output_values[0].backward()
    captured.output_values[0].backward()
    for a, b in zip(once.parameters(), dynamic.parameters()):
        assert torch.equal(a.grad, b.grad)


def test_capture_dynamic_shows_its_captures_on_a_terminal(tmp_path):
    """Each capture's sizes, in place on a terminal's stderr, the line cleared at the end."""
    program = ("import torch\nfrom thundercc_frontend import capture_dynamic\n"
               "capture_dynamic(torch.nn.Linear(4, 2), (torch.randn(3, 4),), ['input:0:1:16'])\n")
    done, shown = run_on_a_terminal([sys.executable, "-c", program], cwd=REPO)
    assert done.returncode == 0, shown
    assert b"capture --dynamic: capture 2 of " in shown and b"(s0=" in shown
    assert shown.endswith(b"\r\x1b[K")
