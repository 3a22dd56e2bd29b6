"""Programs under torch.autocast: the front end records the casts autocast makes (matrix products
and convolutions in bfloat16, losses in float32, as PyTorch 1.13's CPU autocast decides), so the
trace validates and the plan computes what eager computed, forward and backward."""
import torch
import torch.nn.functional as F

from conftest import capture

# bfloat16 keeps 8 bits: Thunder's tolerance for it. The fuser computes a region's bfloat16
# arithmetic in float32 and rounds at its outputs, where eager rounds after every op.
RTOL, ATOL = 1.6e-2, 1e-2


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.fc1 = torch.nn.Linear(8 * 4 * 4, 32)
        self.fc2 = torch.nn.Linear(32, 10)

    def forward(self, x, target):
        with torch.autocast("cpu", dtype=torch.bfloat16):
            h = F.max_pool2d(torch.relu(self.conv(x)), 2)
            h = torch.nn.functional.gelu(self.fc1(h.flatten(1)))
            logits = self.fc2(h)
            return F.mse_loss(logits, target), logits


def symbols(captured):
    return [b["symbol"] for b in captured.bound_symbols]


def compile_and_run(tmp_path, thundercc, fn, args):
    """Captures, compiles and runs fn(*args); compares the outputs and, for a training step, the
    gradients (every output that requires grad seeded with ones) with eager's."""
    captured = capture(fn, *args)
    captured.save(tmp_path / "p.json")
    torch.save(tuple(t.detach() for t in captured.input_values), tmp_path / "inputs.pt")
    torch.save(captured.expected_outputs(), tmp_path / "expected.pt")
    thundercc("compile", tmp_path / "p.json", "-o", tmp_path)
    options = ["--inputs", tmp_path / "inputs.pt", "--expect", tmp_path / "expected.pt", "--rtol", RTOL, "--atol", ATOL]
    seeded = [t for t in captured.output_values if t is not None and t.requires_grad]
    if seeded:
        wanted = [t for t in captured.input_values if t.requires_grad]
        grads = torch.autograd.grad(seeded, wanted, [torch.ones_like(t) for t in seeded], allow_unused=True)
        torch.save(tuple(g.detach() for g in grads), tmp_path / "grads.pt")
        options += ["--expect-grads", tmp_path / "grads.pt"]
    thundercc("run", tmp_path / "p.plan.json", *options)
    return captured


def test_training_step_under_autocast_matches_eager(tmp_path, thundercc):
    torch.manual_seed(0)
    net, x, target = Net(), torch.randn(2, 3, 8, 8), torch.randn(2, 10)
    captured = compile_and_run(tmp_path, thundercc, net, (x, target))
    loss, logits = captured.output_values
    assert logits.dtype == torch.bfloat16 and loss.dtype == torch.float32
    recorded = symbols(captured)
    # The convolution's three inputs in bfloat16, each linear's weight and bias (its input is
    # bfloat16 already); mse_loss promotes its bfloat16 input and float32 target by itself.
    assert recorded.count("torch.Tensor.to") == 3 + 2 + 2
    forward = (tmp_path / "p.forward.trace.py").read_text()
    assert 'torch.nn.functional.linear' in forward and 'bf16[2, 32]' in forward


def test_inference_under_autocast_matches_eager(tmp_path, thundercc):
    torch.manual_seed(0)
    net, x, target = Net().eval(), torch.randn(2, 3, 8, 8), torch.randn(2, 10)
    with torch.no_grad():
        compile_and_run(tmp_path, thundercc, net, (x, target))


def test_ops_outside_autocast_record_no_casts():
    torch.manual_seed(0)
    with torch.no_grad():
        captured = capture(torch.nn.Linear(4, 4), torch.randn(2, 4))
    assert "torch.Tensor.to" not in symbols(captured)
