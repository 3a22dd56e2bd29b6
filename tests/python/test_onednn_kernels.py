"""Matrix products (batch dimensions kept apart: attention heads read in place from a linear's
output, broadcast operands, views oneDNN cannot read), conv2d and max_pool2d on oneDNN (src/runtime/matrix_products.cpp) against eager PyTorch (groups,
depthwise, dilation, stride, no bias, channels-last and non-contiguous inputs, the channels-last
results followed by the ops a network has; ceil mode, NaN and -inf in max pooling), and a CNN with
1x1 and 3x3 convolutions trained for several steps in one process, following torch.optim."""
import pytest
import torch
import torch.nn.functional as F

from conftest import capture, saveable
from test_optimizer import losses_of, torch_optim_losses

NAN = float("nan")

CASES = {
    "conv_groups_stride_dilation": (lambda x, w, b: F.conv2d(x, w, b, 2, 1, 2, 4),
                                    lambda: (torch.randn(2, 8, 17, 15), torch.randn(12, 2, 3, 3), torch.randn(12))),
    "conv_depthwise_no_bias": (lambda x, w: F.conv2d(x, w, None, 1, 1, 1, 8), lambda: (torch.randn(2, 8, 9, 9), torch.randn(8, 1, 3, 3))),
    "conv_channels_last_input": (lambda x, w: F.conv2d(x, w),
                                 lambda: (torch.randn(2, 5, 9, 7).contiguous(memory_format=torch.channels_last), torch.randn(6, 5, 1, 2))),
    "conv_transposed_view": (lambda x, w: F.conv2d(x.transpose(2, 3), w, padding=2), lambda: (torch.randn(1, 3, 9, 7), torch.randn(4, 3, 5, 5))),
    "conv_1x1_bias": (lambda x, w, b: F.conv2d(x, w, b), lambda: (torch.randn(2, 6, 5, 7), torch.randn(9, 6, 1, 1), torch.randn(9))),
    "conv_1x1_channels_last_no_bias": (lambda x, w: F.conv2d(x, w),
                                       lambda: (torch.randn(2, 6, 5, 7).contiguous(memory_format=torch.channels_last), torch.randn(9, 6, 1, 1))),
    "conv_1x1_one_pixel": (lambda x, w, b: F.conv2d(x, w, b), lambda: (torch.randn(3, 6, 1, 1), torch.randn(4, 6, 1, 1), torch.randn(4))),
    "conv_same_padding": (lambda x, w: F.conv2d(x, w, padding="same"), lambda: (torch.randn(1, 3, 8, 8), torch.randn(4, 3, 3, 3))),
    "conv_float64_aten": (lambda x, w: F.conv2d(x, w), lambda: (torch.randn(1, 2, 5, 5, dtype=torch.float64), torch.randn(3, 2, 2, 2, dtype=torch.float64))),
    # Convolutions leave their results channels-last: elementwise regions, a residual sum, a
    # squeeze-and-excitation scale (a broadcast, which reads contiguous copies), max pooling and a
    # view follow them; a channels-last result is also an output.
    "conv_chain_layouts": (lambda x, w1, w2, w3: _conv_chain(x, w1, w2, w3),
                           lambda: (torch.randn(2, 3, 12, 12), torch.randn(8, 3, 3, 3) / 3, torch.randn(8, 8, 1, 1) / 3, torch.randn(8, 1, 3, 3) / 3)),
    # Heads split from one linear's output and transposed, [B, T, H, D] read as [B, H, T, D]:
    # oneDNN reads them where they lie, each batch dimension apart (the products of attention).
    "matmul_heads_in_place": (lambda x: _heads(x), lambda: (torch.randn(2, 5, 3 * 12),)),
    # One matrix against a stack of two batch dimensions; a stack with a batch dimension of one
    # against one of three (broadcast by oneDNN); and one broadcast along a dimension it has (a copy).
    "matmul_single_against_a_stack": (lambda a, b: (a @ b, b.t() @ a.transpose(-2, -1)), lambda: (torch.randn(3, 4, 6, 5), torch.randn(5, 7))),
    "matmul_batch_of_one": (lambda a, b: a @ b, lambda: (torch.randn(2, 1, 4, 5), torch.randn(1, 3, 5, 6))),
    "matmul_partly_broadcast": (lambda a, b: a @ b, lambda: (torch.randn(3, 4, 5), torch.randn(2, 3, 5, 6))),
    # More batch dimensions than oneDNN describes (12 in all): ATen's product.
    "matmul_eleven_batch_dims": (lambda a, b: a @ b, lambda: (torch.randn(2, *[1] * 9, 2, 3, 4), torch.randn(4, 5))),
    # Three batch dimensions, a step slice (rows 2 apart) and an expanded operand (stride 0).
    "matmul_three_batch_dims_strided": (lambda a, b: (a[:, :, ::2, :] @ b, a.expand(2, 2, 3, 8, 5)[..., :4, :] @ b.expand(2, 2, 3, 5, 3)),
                                        lambda: (torch.randn(2, 3, 8, 5), torch.randn(2, 3, 5, 3))),
    "pool_nan": (lambda x: F.max_pool2d(x, 3, 2, 1),
                 lambda: (torch.where(torch.rand(2, 3, 8, 8) < 0.1, torch.tensor(NAN), torch.randn(2, 3, 8, 8)),)),
    "pool_ceil_dilation": (lambda x: F.max_pool2d(x, (2, 3), (2, 1), (1, 1), (2, 1), True), lambda: (torch.randn(2, 3, 11, 10),)),
    "pool_all_minus_infinity": (lambda x: F.max_pool2d(x, 2), lambda: (torch.full((1, 1, 4, 4), -float("inf")),)),
    "pool_window_past_the_end": (lambda x: F.max_pool2d(x, 2, 3), lambda: (torch.randn(1, 2, 4, 4),)),
}


def _heads(x):
    q, k, v = x.view(2, 5, 3, 12).split(4, 3)[0], *x.split(12, 2)[1:]
    q, k, v = (t.reshape(2, 5, 3, 4).transpose(1, 2) for t in (q.reshape(2, 5, 12), k, v))
    scores = q @ k.transpose(-2, -1)
    return scores, scores.softmax(-1) @ v, q.transpose(-2, -1) @ scores


def _conv_chain(x, w1, w2, w3):
    a = F.relu(F.conv2d(x, w1, padding=1))
    b = F.conv2d(a, w2) + a
    c = F.hardswish(F.conv2d(b, w3, padding=1, groups=8))
    # Broadcasts into the 4-d domain: the regions' channels-last twins (an [N, C, 1, 1] scale, a
    # [C, 1, 1] shift read as [1, 1, C], an [H, 1] one) and one whose [C, H, 1] input has no twin
    # (NHWC reads it in another order: contiguous copies).
    d = c * torch.sigmoid(c.mean((2, 3), keepdim=True)) + w2[:, 0, 0, 0][:, None, None] + x[0, 0, :, :1]
    e = F.max_pool2d(F.conv2d(d, w2) * d.mean(3)[0][:, :, None], 2)
    return e.view(e.shape[0], -1), b


@pytest.mark.parametrize("name", CASES)
def test_against_eager(name, tmp_path, thundercc):
    fn, make = CASES[name]
    torch.manual_seed(0)
    args = make()
    captured = capture(fn, *args)
    captured.save(tmp_path / "case.json")
    torch.save(tuple(saveable(t) for t in captured.input_values), tmp_path / "case.inputs.pt")
    expected = fn(*args)
    torch.save(list(expected) if isinstance(expected, tuple) else [expected], tmp_path / "case.expected.pt")
    thundercc("compile", tmp_path / "case.json", "-o", tmp_path)
    thundercc("run", tmp_path / "case.plan.json", "--inputs", tmp_path / "case.inputs.pt", "--expect", tmp_path / "case.expected.pt",
              "--outputs", tmp_path / "case.outputs.pt")
    # Results the runtime kept channels-last come back contiguous, as eager returns them from
    # contiguous inputs (from channels-last inputs eager's are channels-last; ours contiguous).
    for got, want in zip(torch.load(tmp_path / "case.outputs.pt"), torch.load(tmp_path / "case.expected.pt")):
        assert got.is_contiguous() or not want.is_contiguous()


class SmallCnn(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.conv2 = torch.nn.Conv2d(8, 8, 1)
        self.fc = torch.nn.Linear(8 * 4 * 4, 5)

    def forward(self, x, labels):
        y = F.max_pool2d(F.relu(self.conv1(x)), 2)
        y = F.max_pool2d(F.relu(self.conv2(y)), 2)
        return F.cross_entropy(self.fc(y.flatten(1)), labels)


def test_a_cnn_trained_in_one_process_follows_sgd(tmp_path, thundercc):
    steps = 6
    torch.manual_seed(0)
    model = SmallCnn()
    g = torch.Generator().manual_seed(1)
    data = [(torch.randn(4, 3, 16, 16, generator=g), torch.randint(0, 5, (4,), generator=g)) for _ in range(steps)]
    captured = capture(model, *data[0])
    captured.save(tmp_path / "cnn.json")
    thundercc("compile", tmp_path / "cnn.json", "-o", tmp_path, "--optimizer", "sgd", "--lr", "0.1")
    parameters = [saveable(t) for t in captured.input_values[2:]]
    for step, (x, labels) in enumerate(data):
        torch.save((x, labels, *(parameters if step == 0 else [])), tmp_path / f"batch.{step}.pt")
    result = thundercc("run", tmp_path / "cnn.plan.json", "--inputs", tmp_path / "batch.{step}.pt", "--steps", steps)
    ours = losses_of(result.stdout)
    theirs = torch_optim_losses(model, data, lambda p: torch.optim.SGD(p, lr=0.1))
    assert len(ours) == steps
    torch.testing.assert_close(torch.tensor(ours), torch.tensor(theirs), rtol=1e-4, atol=1e-5)


def test_each_matrix_product_is_timed_once_on_both_libraries_and_the_choice_kept(tmp_path, thundercc):
    """With an optimized BLAS (or THUNDERCC_MATMUL=measure, as here, where Debian's reference BLAS
    is loaded), each distinct product is timed on oneDNN and on the BLAS once; the faster is
    recorded in the kernel cache, read back by the next run, and measured again when damaged."""
    def products(x, w, b, y):
        h = F.linear(x, w, b)              # [32, 24] x [24, 40]^T + bias
        return h @ y, h.t() @ h            # a plain product, and one with its left operand transposed
    torch.manual_seed(0)
    args = (torch.randn(32, 24) / 4, torch.randn(40, 24) / 4, torch.randn(40) / 4, torch.randn(40, 16) / 4)
    captured = capture(products, *args)
    captured.save(tmp_path / "p.json")
    torch.save(tuple(saveable(t) for t in captured.input_values), tmp_path / "p.inputs.pt")
    torch.save([t.float() for t in products(*(a.double() for a in args))], tmp_path / "p.expected.pt")  # one rounding
    measure = {"THUNDERCC_CACHE_DIR": str(tmp_path / "cache"), "THUNDERCC_MATMUL": "measure"}
    thundercc("compile", tmp_path / "p.json", "-o", tmp_path, env=measure)
    run = ["run", tmp_path / "p.plan.json", "--inputs", tmp_path / "p.inputs.pt", "--expect", tmp_path / "p.expected.pt",
           "--threads", "1"]  # the choice is measured at one thread only
    thundercc(*run, env=measure)
    records = sorted(p for p in (tmp_path / "cache" / "matmul").iterdir() if p.suffix != ".sha256")
    assert len(records) == 3
    for record in records:
        assert record.read_text().split()[0] in ("onednn", "blas") and "\nproduct " in record.read_text()
    # Every record says BLAS now (its SHA-256 written to match): the next run reads them, measures nothing, and is right.
    import hashlib
    for record in records:
        text = "blas (set by the test)\n" + record.read_text().split("\n", 1)[1]
        record.write_text(text)
        record.with_name(record.name + ".sha256").write_text(hashlib.sha256(text.encode()).hexdigest())
    thundercc(*run, env=measure)
    assert all(r.read_text().startswith("blas (set by the test)") for r in records)
    # A record changed behind its SHA-256 is measured again.
    records[0].write_text("onednn damaged")
    thundercc(*run, env=measure)
    assert records[0].read_text().split()[0] in ("onednn", "blas") and "\nproduct " in records[0].read_text()
    for library in ("onednn", "blas"):
        thundercc(*run, env={"THUNDERCC_MATMUL": library})
    # At two threads nothing is timed: OpenBLAS's and ATen's thread pools contend (matrix_products.cpp).
    thundercc(*run[:-1], "2", env={**measure, "THUNDERCC_CACHE_DIR": str(tmp_path / "cache2")})
    assert not list((tmp_path / "cache2" / "matmul").glob("*"))
