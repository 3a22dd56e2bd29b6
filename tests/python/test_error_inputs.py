"""OpInfo's error inputs: calls PyTorch refuses, written as traces by hand (a capture cannot record
a call that raised), which `thundercc validate` must refuse too, exit 1, with a message naming the
problem. Each case is also run eagerly, to show PyTorch raises on it."""
import json

import pytest
import torch
import torch.nn.functional as F

DTYPES = {torch.float32: "float32", torch.float64: "float64", torch.int64: "int64", torch.bool: "bool8",
          torch.complex64: "complex64"}


def T(*shape, dtype=torch.float32):
    return torch.zeros(shape, dtype=dtype) if dtype != torch.int64 else torch.zeros(shape, dtype=dtype)


# (symbol id, eager call, tensor arguments, other arguments (name -> value), kwargs, message)
CASES = [
    ("torch.reshape", lambda a: a.reshape(5), [T(2, 3)], [(5,)], {}, r"numel=6 is different from the number of elements in shape, 5"),
    ("torch.cat", lambda a, b: torch.cat([a, b], 0), [T(2, 3), T(2, 4)], None, {}, r"[Ss]izes of tensors must match"),
    ("torch.matmul", lambda a, b: a @ b, [T(2, 3), T(4, 5)], None, {}, r"3.*4|shapes"),
    ("torch.nn.functional.conv2d", lambda a, w: F.conv2d(a, w), [T(1, 3, 8, 8), T(4, 2, 3, 3)], None, {}, r"channels"),
    ("torch.nn.functional.max_pool2d", lambda a: F.max_pool2d(a, 2, 0), [T(1, 1, 4, 4)], [2, 0], {}, r"stride should not be zero"),
    ("torch.softmax", lambda a: torch.softmax(a, 3), [T(2, 3)], [3], {}, r"[Dd]imension out of range"),
    ("torch.gather", lambda a, i: torch.gather(a, 1, i), [T(2, 3), T(2, dtype=torch.int64)], "gather", {}, r"same number of dimensions"),
    ("torch.nn.functional.one_hot", lambda a: F.one_hot(a, 3), [T(2)], [3], {}, r"index tensor"),
    ("torch.nn.functional.glu", lambda a: F.glu(a, 1), [T(2, 3)], [1], {}, r"Halving dimension must be even"),
    ("torch.nn.functional.pixel_shuffle", lambda a: F.pixel_shuffle(a, 2), [T(1, 3, 2, 2)], [2], {}, r"divisible by the square"),
    ("torch.nn.functional.group_norm", lambda a: F.group_norm(a, 4), [T(2, 6, 3)], [4], {}, r"divisible by num_groups"),
    ("torch.tensor_split", lambda a: torch.tensor_split(a, 0), [T(4)], [0], {}, r"number of sections must be larger than 0"),
    ("torch.select", lambda a: a.select(0, 5), [T(3, 2)], [0, 5], {}, r"index 5 out of range"),
    ("torch.unbind", lambda a: a.unbind(0), [T()], [0], {}, r"(no dimensions|0-dim)"),
    ("torch.movedim", lambda a: torch.movedim(a, (0, 1), (0,)), [T(2, 3)], [(0, 1), (0,)], {}, r"same number of dims"),
    ("torch.Tensor.repeat", lambda a: a.repeat(2), [T(2, 3)], [2], {}, r"can not be smaller than number of dimensions"),
    ("torch.dot", lambda a, b: torch.dot(a, b), [T(3), T(3, dtype=torch.float64)], None, {}, r"same dtype"),
    ("torch.nn.functional.binary_cross_entropy", lambda a, b: F.binary_cross_entropy(a, b), [T(3), T(2, 3)], None, {},
     r"different to the input size"),
    ("torch.nn.functional.pad", lambda a: F.pad(a, (3, 0), mode="reflect"), [T(1, 2, 3)], [(3, 0), "reflect"], {},
     r"Padding size should be less than the corresponding input dimension"),
    ("torch.roll", lambda a: torch.roll(a, (1, 2), (0,)), [T(2, 3)], [(1, 2), (0,)], {}, r"shifts and dimensions must align"),
    ("torch.einsum", lambda a: torch.einsum("ij,jk", a), [T(2, 3)], ["ij,jk"], {}, r"2 operands were specified in the equation, but 1 were given"),
    ("torch.nn.functional.smooth_l1_loss", lambda a, b: F.smooth_l1_loss(a, b, beta=-1.0), [T(3), T(3)], None, {"beta": -1.0},
     r"negative values for beta"),
    ("torch.Tensor.add_", lambda a, b: a.add_(b), [T(2), T(2, 2)], None, {}, r"output with shape \[2\] doesn't match the broadcast shape \[2, 2\]"),
    ("torch.Tensor.add_", lambda a, b: a.add_(b), [T(2, dtype=torch.int64), T(2)], None, {},
     r"result type Float can't be cast to the desired output type Long"),
    ("torch.nn.functional.embedding", lambda i, w: F.embedding(i, w), [T(2), T(4, 3)], None, {}, r"integer dtype"),
    ("torch.nn.functional.binary_cross_entropy", lambda a, b: F.binary_cross_entropy(a, b), [T(3), T(3, dtype=torch.float64)], None, {},
     r"Found dtype float64 but expected float32"),
    ("torch.multinomial", lambda a: torch.multinomial(a, 2), [T(2, 2, 3)], [2], {}, r"prob_dist must be 1 or 2 dim"),
    ("torch.multinomial", lambda a: torch.multinomial(a, 4), [T(3)], [4], {}, r"cannot sample n_sample > prob_dist.size\(-1\) samples without replacement"),
    ("torch.nn.functional.dropout", lambda a: F.dropout(a, 1.5), [T(3)], [1.5], {}, r"dropout probability has to be between 0 and 1, but got 1.5"),
    ("torch.bernoulli", lambda a: torch.bernoulli(a), [T(3, dtype=torch.int64)], None, {}, r"bernoulli only supports floating point"),
    ("torch.randint_like", lambda a: torch.randint_like(a, 5, 2), [T(3)], [5, 2], {}, r"'from' to be less than 'to'"),
    ("torch.stft", lambda a: torch.stft(a, 200, return_complex=True), [T(2, 100)], [200], {"center": False, "return_complex": True},
     r"expected 0 < n_fft < 100, but got n_fft=200"),
    ("torch.istft", lambda z: torch.istft(z, 16), [T(5, 4, dtype=torch.complex64)], [16], {}, r"match n_fft / 2 \+ 1 when onesided=True, but got 5"),
    ("torch.view_as_complex", lambda a: torch.view_as_complex(a), [T(2, 3)], None, {}, r"last dimension of size 2"),
    ("torch.imag", lambda a: torch.imag(a), [T(2, 3)], None, {}, r"imag is not implemented for tensors with non-complex dtypes"),
    ("torch.view_as_real", lambda a: torch.view_as_real(a), [T(2, 3)], None, {}, r"only supported for complex tensors"),
    ("torch.complex", lambda a, b: torch.complex(a, b), [T(2), T(2, dtype=torch.float64)], None, {}, r"same dtype"),
]


def trace_of(symbol, tensors, others, kwargs):
    names = [f"t_{i}" for i in range(len(tensors))]
    args = [{"ref": n} for n in names]
    if others == "gather":  # gather(a, dim, index)
        args = [{"ref": names[0]}, 1, {"ref": names[1]}]
    elif others is not None:
        args = args + [{"tuple": list(v)} if isinstance(v, tuple) else v for v in others]
    if symbol == "torch.cat":
        args = [{"list": [{"ref": n} for n in names]}, 0]
    if symbol == "torch.einsum":  # einsum(equation, *operands)
        args = [others[0]] + [{"ref": n} for n in names]
    return {"format": "thundercc.trace", "version": 1, "name": "f",
            "inputs": [{"name": n, "tensor": {"shape": list(t.shape), "dtype": DTYPES[t.dtype], "device": "cpu", "requires_grad": False}}
                       for n, t in zip(names, tensors)],
            "bound_symbols": [{"symbol": symbol, "args": args, "kwargs": kwargs,
                               "output": {"tensor": {"name": "out", "shape": [1], "dtype": "float32", "device": "cpu", "requires_grad": False}}}],
            "output": {"ref": "out"}}


@pytest.mark.parametrize("symbol,eager,tensors,others,kwargs,message", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_error_input_is_refused_like_pytorch(symbol, eager, tensors, others, kwargs, message, tmp_path, thundercc):
    with pytest.raises((RuntimeError, ValueError, IndexError, TypeError)):
        eager(*tensors)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(trace_of(symbol, tensors, others, kwargs)))
    result = thundercc("validate", path, check=False)
    assert result.returncode == 1, result.stderr
    assert "internal error" not in result.stderr
    import re
    assert re.search(message, result.stderr), result.stderr
