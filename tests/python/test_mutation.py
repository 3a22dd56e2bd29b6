"""In-place ops and mutation (functionalization): the front end gives each in-place result a fresh
name, the compiler runs the out-of-place forms and writes a modified program input back into the
caller's tensor (prims.copy_). Every case is compared with eager PyTorch: the outputs, and the
inputs as the program left them."""
import subprocess
import sys

import pytest
import torch
import torch.nn.functional as F

from conftest import REPO, save_case
from thundercc_frontend import CaptureError, capture


def intermediates(x, y):
    z = x * 2
    z += y
    z.relu_()
    z.mul_(y)
    z[0, ::2] = y[0, ::2]
    z[:, 1] = 7.0
    w = F.relu(z - 3, inplace=True)
    w.clamp_(min=-1.0, max=2.0)
    return w.sigmoid_() - z


def input_modified(x, y):
    x.add_(1.5)
    x[:, 1] = y[:, 0]
    return x * y


def input_modified_twice_with_reads_between(x, y):
    before = x * 1
    x.mul_(y)
    middle = x + 0
    x.sub_(2)
    return before, middle, x


def dtype_kept(x, y):
    x.add_(y)  # float32 += float64 stays float32, as in PyTorch
    return x


def masked(x, mask):
    x[mask] = 0.0
    return x


def through_index_views(x):
    y = x * 2
    row = y[0]
    row.mul_(3)           # y changes through its view
    x[1:, ::2].zero_()    # so does the input x
    y[1][1:].add_(x[0, 1:])  # a view of a view
    return y + 1


def copy_and_fill(x, y):
    x.copy_(y)
    z = y * 0
    z.fill_(3.0)
    return x + z


CASES = {
    "intermediates": (intermediates, lambda: (torch.randn(3, 4), torch.randn(3, 4))),
    "input_modified": (input_modified, lambda: (torch.randn(3, 4), torch.randn(3, 4))),
    "input_modified_twice": (input_modified_twice_with_reads_between, lambda: (torch.randn(3, 4), torch.randn(3, 4))),
    "dtype_kept": (dtype_kept, lambda: (torch.randn(5), torch.randn(5, dtype=torch.float64))),
    "masked": (masked, lambda: (torch.randn(4, 4), torch.randn(4, 4) > 0)),
    "copy_and_fill": (copy_and_fill, lambda: (torch.randn(2, 3), torch.randn(3))),
    "through_index_views": (through_index_views, lambda: (torch.randn(3, 4),)),
}


@pytest.mark.parametrize("name", CASES)
def test_mutation_matches_eager(name, tmp_path, thundercc):
    fn, make = CASES[name]
    torch.manual_seed(0)
    trace = save_case(tmp_path, name, fn, make())
    thundercc("compile", trace, "-o", tmp_path)
    args = [tmp_path / f"{name}.plan.json", "--inputs", tmp_path / f"{name}.inputs.pt", "--expect", tmp_path / f"{name}.expected.pt",
            "--repeat", "3"]
    after = tmp_path / f"{name}.inputs_after.pt"
    if after.exists():
        args += ["--expect-inputs", after]
    result = thundercc("run", *args)
    assert "outputs match" in result.stdout
    assert after.exists() == ("inputs after the run match" in result.stdout)


def test_only_modified_inputs_are_written_back_and_in_place_symbols_are_gone(tmp_path, thundercc):
    trace = save_case(tmp_path, "input_modified", input_modified, (torch.randn(3, 4), torch.randn(3, 4)))
    thundercc("compile", trace, "-o", tmp_path)
    printed = (tmp_path / "input_modified.trace.py").read_text()
    golden = REPO / "tests" / "golden" / "input_modified.trace.py"
    assert printed == golden.read_text(), golden
    assert "add_" not in printed and "__setitem__" not in printed


def test_what_the_trace_cannot_express_is_refused():
    def through_transpose_of_input(x):
        x.t().add_(1)
        return x * 2

    with pytest.raises(CaptureError, match=r"torch.Tensor.add_ modifies a view of the input x in place.*only views made by indexing"):
        capture(through_transpose_of_input, torch.randn(2, 3))

    def stale_base(x):
        y = x * 2
        flat = y.view(-1)
        flat.mul_(3)
        return y + 1  # y changed through flat, a view not made by indexing

    with pytest.raises(CaptureError, match=r"t0 was modified in place through a view or another alias.*`return y \+ 1"):
        capture(stale_base, torch.randn(2, 3))

    def out_argument(x, y):
        z = x * 1
        torch.add(x, y, out=z)
        return z

    with pytest.raises(CaptureError, match=r"torch.add modifies its out in place, which thundercc captures only for a first argument"):
        capture(out_argument, torch.randn(2), torch.randn(2))

    renormalized = torch.nn.Embedding(5, 3, max_norm=1.0)
    with pytest.raises(CaptureError, match=r"embedding modifies its argument 1 in place \(max_norm renormalizes the weight's rows"):
        capture(renormalized, torch.tensor([0, 2]))


def test_in_place_dtype_and_shape_rules_are_pytorchs(thundercc, tmp_path):
    # PyTorch refuses these eagerly; the compiler refuses a hand-written trace the same way.
    import json
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        torch.zeros(2, dtype=torch.long).add_(torch.ones(2))
    trace = {"format": "thundercc.trace", "version": 1, "name": "f",
             "inputs": [{"name": "a", "tensor": {"shape": [2], "dtype": "int64", "device": "cpu", "requires_grad": False}},
                        {"name": "b", "tensor": {"shape": [2, 2], "dtype": "float32", "device": "cpu", "requires_grad": False}}],
             "bound_symbols": [{"symbol": "torch.Tensor.add_", "args": [{"ref": "a"}, {"ref": "b"}], "kwargs": {},
                                "output": {"tensor": {"name": "t0", "shape": [2], "dtype": "int64", "device": "cpu",
                                                      "requires_grad": False}}}],
             "output": {"ref": "t0"}}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(trace))
    result = thundercc("compile", path, "-o", tmp_path, check=False)
    assert result.returncode == 1
    assert "output with shape [2] doesn't match the broadcast shape [2, 2]" in result.stderr


class ConvBatchNorm(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 4, 3)
        self.bn = torch.nn.BatchNorm2d(4)

    def forward(self, x):
        return torch.relu(self.bn(self.conv(x)))


def test_batch_norm_in_training_updates_the_running_statistics(tmp_path, thundercc):
    """As eager PyTorch does: the running mean and variance (and num_batches_tracked) are the
    caller's tensors after the run, and the trace says how (mean, var, lerp_ written back)."""
    torch.manual_seed(0)
    model = ConvBatchNorm().train()
    trace = save_case(tmp_path, "bn", model, (torch.randn(2, 3, 6, 6),))
    symbols = [b["symbol"] for b in __import__("json").loads(trace.read_text())["bound_symbols"]]
    assert symbols.count("torch.Tensor.lerp_") == 2 and "torch.Tensor.add_" in symbols  # num_batches_tracked += 1
    thundercc("compile", trace, "-o", tmp_path)
    assert (tmp_path / "bn.forward.trace.py").read_text().count("  torchex.copy_(") == 3
    result = thundercc("run", tmp_path / "bn.plan.json", "--inputs", tmp_path / "bn.inputs.pt", "--expect", tmp_path / "bn.expected.pt",
                       "--expect-inputs", tmp_path / "bn.inputs_after.pt")
    assert "outputs match" in result.stdout and "inputs after the run match" in result.stdout


@pytest.mark.parametrize("mode", ["train", "eval"])
def test_instance_norm_tracking_running_statistics_matches_eager(tmp_path, thundercc, mode):
    """InstanceNorm(track_running_stats=True): in training it normalizes by each sample's
    statistics and updates the running ones with their mean over the batch (as ATen's); in eval
    it normalizes by the running statistics and leaves them as they are."""
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3), torch.nn.InstanceNorm2d(4, affine=True, track_running_stats=True))
    with torch.no_grad():  # running statistics other than their initial zeros and ones
        model[1].running_mean.uniform_(-1, 1)
        model[1].running_var.uniform_(0.5, 2)
    getattr(model, mode)()
    trace = save_case(tmp_path, "inorm", model, (torch.randn(2, 3, 7, 6),))
    thundercc("compile", trace, "-o", tmp_path)
    args = [tmp_path / "inorm.plan.json", "--inputs", tmp_path / "inorm.inputs.pt", "--expect", tmp_path / "inorm.expected.pt"]
    after = tmp_path / "inorm.inputs_after.pt"
    assert after.exists() == (mode == "train")
    result = thundercc("run", *args, *(["--expect-inputs", after] if after.exists() else []))
    assert "outputs match" in result.stdout
    assert ("inputs after the run match" in result.stdout) == (mode == "train")


class BatchNormOfBfloat16(torch.nn.Module):
    """A bfloat16 input beside float32 running statistics, as under CPU autocast."""

    def __init__(self):
        super().__init__()
        self.bn = torch.nn.BatchNorm1d(4)

    def forward(self, x):
        return self.bn(x.bfloat16())


def test_batch_norm_of_a_bfloat16_input_updates_float32_running_statistics(tmp_path, thundercc):
    """The batch's statistics are recorded in the running statistics' dtype, as ATen computes
    them (lerp_ of float32 by bfloat16 was refused at run)."""
    torch.manual_seed(0)
    trace = save_case(tmp_path, "bn16", BatchNormOfBfloat16().train(), (torch.randn(3, 4),))
    thundercc("compile", trace, "-o", tmp_path)
    result = thundercc("run", tmp_path / "bn16.plan.json", "--inputs", tmp_path / "bn16.inputs.pt", "--expect",
                       tmp_path / "bn16.expected.pt", "--expect-inputs", tmp_path / "bn16.inputs_after.pt")
    assert "outputs match" in result.stdout and "inputs after the run match" in result.stdout


def copied_then_modified(x, y):
    x.copy_(y)   # functionally x's new value is y itself
    x.add_(1)    # so this version must still be known as x's
    return x * 2


def test_a_version_that_is_another_value_is_still_written_back(tmp_path, thundercc):
    trace = save_case(tmp_path, "copied", copied_then_modified, (torch.randn(3), torch.randn(3)))
    thundercc("compile", trace, "-o", tmp_path)
    result = thundercc("run", tmp_path / "copied.plan.json", "--inputs", tmp_path / "copied.inputs.pt",
                       "--expect", tmp_path / "copied.expected.pt", "--expect-inputs", tmp_path / "copied.inputs_after.pt")
    assert "inputs after the run match" in result.stdout


MODIFIED_AFTER_USE = '''
import torch


class ModifiedAfterUse(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.randn(16))

    def forward(self, x):
        a = (x * 2.0).exp()  # w's gradient needs a, a chain from x alone
        y = a * self.w
        x.add_(1.0)          # x holds another value once the forward ends
        return y.sum()


def make():
    torch.manual_seed(0)
    return ModifiedAfterUse(), (torch.randn(4, 16) * 0.1,)
'''


@pytest.mark.parametrize("executors", ["torch", "fuser,torch"])
def test_the_backward_recomputes_nothing_from_an_input_the_forward_modifies(tmp_path, thundercc, executors):
    """Rematerialization would recompute a from x, costing no memory, but the forward's copy_
    writes x + 1 into the caller's x: a is saved instead, as eager saves it."""
    (tmp_path / "modified.py").write_text(MODIFIED_AFTER_USE)
    subprocess.run([sys.executable, REPO / "scripts" / "capture.py", f"{tmp_path / 'modified.py'}:make", "-o", tmp_path / "modified.json",
                    "--save-io", "--grad"], check=True, cwd=REPO, capture_output=True)
    thundercc("compile", tmp_path / "modified.json", "-o", tmp_path, "--executors", executors)
    assert "exp" not in (tmp_path / "modified.backward.trace.py").read_text()
    result = thundercc("run", tmp_path / "modified.plan.json", "--inputs", tmp_path / "modified.inputs.pt",
                       "--expect-grads", tmp_path / "modified.grads.pt")
    assert "gradients match" in result.stdout


OVERWRITTEN_WHILE_REQUIRING_GRAD = '''
import torch


class Overwritten(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.b = torch.nn.Parameter(torch.randn(12))

    def forward(self, x, c):
        b = self.b.clone()
        zeroed = b[4:8].zero_()       # torchvision's swin_v2 zeroes a third of its qkv bias so
        s = (zeroed * 2).sum()        # a value overwritten in place still requires grad
        b[0:2].fill_(3.0)
        b[8:10].copy_(c)              # c requires no grad
        z = x.clone()
        z[:, 1].fill_(2.0)
        return (x * b).sum() + s + z.sum()


def make():
    torch.manual_seed(0)
    return Overwritten(), (torch.randn(3, 12, requires_grad=True), torch.randn(2))
'''


@pytest.mark.parametrize("executors", ["torch", "fuser,torch"])
def test_a_tensor_requiring_grad_overwritten_in_place_keeps_requiring_it(tmp_path, thundercc, executors):
    """zero_, fill_ and copy_ of constants into a tensor that requires grad: the new value still
    requires grad, as in eager (the compile refused it), and no gradient flows to what it overwrote."""
    (tmp_path / "overwritten.py").write_text(OVERWRITTEN_WHILE_REQUIRING_GRAD)
    subprocess.run([sys.executable, REPO / "scripts" / "capture.py", f"{tmp_path / 'overwritten.py'}:make", "-o", tmp_path / "overwritten.json",
                    "--save-io", "--grad"], check=True, cwd=REPO, capture_output=True)
    thundercc("compile", tmp_path / "overwritten.json", "-o", tmp_path, "--executors", executors)
    result = thundercc("run", tmp_path / "overwritten.plan.json", "--inputs", tmp_path / "overwritten.inputs.pt",
                       "--expect", tmp_path / "overwritten.expected.pt", "--expect-grads", tmp_path / "overwritten.grads.pt")
    assert "outputs match" in result.stdout and "gradients match" in result.stdout
    grads = torch.load(tmp_path / "overwritten.grads.pt")
    assert any(g is not None and g.numel() == 12 and (g[4:10] == 0).all() for g in grads)  # what the test relies on, in eager's
