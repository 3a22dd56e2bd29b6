"""Memory planning end to end: programs whose intermediates the plan places in its arena (by
liveness, in place where an elementwise op's input dies), run repeatedly and compared with eager;
outputs never in the arena; a plan whose buffers leave the arena is refused; `run --profile`
reports the working peak, the arena included, and takes nothing fresh once warm."""
import json
import re

import pytest
import torch
import torch.nn.functional as F

from conftest import save_case

torch.manual_seed(0)


def elementwise_chain(x, y):
    # each value dies at its one use: the planner writes most of them in place
    a = torch.exp(x)
    b = a * y
    c = torch.tanh(b)
    d = c - x
    return d.sum(-1), torch.sigmoid(d)


def views_between(x):
    # reshape and transpose make views of planned buffers: their bases must outlive them
    a = torch.exp(x)
    v = a.reshape(8, 4, 6).transpose(1, 2)
    b = torch.sin(x)  # made while the view of `a` lives
    return (v * 2).sum(0), b.reshape(8, 24) + a


def attention(q, k, v):
    s = torch.softmax(q @ k.transpose(-1, -2) / 8.0, -1)
    return F.gelu(s @ v) + q


def gather_and_join(idx, w, x):
    # embedding, cat and stack write into planned buffers (index_select_out, cat_out, stack_out)
    e = F.embedding(idx, w)
    c = torch.cat([e, x.exp()], -1)
    s = torch.stack([c, c * 2], 0)
    return torch.tanh(s.sum(0)), e[0] + 1


PROGRAMS = [
    ("elementwise_chain", elementwise_chain, (torch.randn(6, 32), torch.randn(6, 32))),
    ("gather_and_join", gather_and_join, (torch.tensor([[1, 0, 3], [2, 2, 0]]), torch.randn(4, 5), torch.randn(2, 3, 5))),
    ("views_between", views_between, (torch.randn(8, 24),)),
    ("attention", attention, (torch.randn(2, 16, 8), torch.randn(2, 16, 8), torch.randn(2, 16, 8))),
]


def instructions(plan):
    yield from plan["instructions"]
    yield from plan.get("backward", {}).get("instructions", [])


@pytest.mark.parametrize("executors", ["torch", "fuser,torch", "torch_prims"])
@pytest.mark.parametrize("name,fn,args", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_planned_program_matches_eager(name, fn, args, executors, tmp_path, thundercc):
    trace = save_case(tmp_path, name, fn, args)
    thundercc("compile", trace, "-o", tmp_path, "--executors", executors)
    plan = json.loads((tmp_path / f"{name}.plan.json").read_text())
    arena = plan.get("arena")
    if (name, executors) == ("gather_and_join", "torch"):
        written = {ins["op"].split(".")[-1] for ins in instructions(plan) if any(b is not None for b in ins.get("buffers", []))}
        assert {"embedding", "cat", "stack"} <= written, written
    if (name, executors) == ("elementwise_chain", "fuser,torch"):
        assert arena is None  # one fused kernel, writing only the program's outputs
    else:
        assert arena and arena["buffers"] > 0, plan.keys()
        assert 0 < arena["bytes"] <= arena["buffer_bytes"]
    output_slots = set(re.findall(r'"slot": (\d+)', json.dumps(plan["output"])))
    for ins in instructions(plan):
        for slot, buffer in zip(ins["outputs"], ins.get("buffers", [])):
            if buffer is not None:
                assert str(slot) not in output_slots  # the caller's tensors are never in the arena
                assert buffer["offset"] % 64 == 0
    # Several runs through the same arena give eager's result every time.
    thundercc("run", tmp_path / f"{name}.plan.json", "--inputs", tmp_path / f"{name}.inputs.pt",
              "--expect", tmp_path / f"{name}.expected.pt", "--repeat", "3", "--warmup", "1")


def test_prims_chain_writes_in_place(tmp_path, thundercc):
    trace = save_case(tmp_path, "chain", elementwise_chain, (torch.randn(6, 32), torch.randn(6, 32)))
    thundercc("compile", trace, "-o", tmp_path, "--executors", "torch_prims")
    arena = json.loads((tmp_path / "chain.plan.json").read_text())["arena"]
    # exp, mul, tanh, sub, neg, exp and add each write over their dying input: one buffer for all
    assert arena["in_place"] >= 5
    assert arena["bytes"] == 6 * 32 * 4


def masked_attention(q, k, v, mask):
    # the mask, over another shape, sits between the scale and the softmax that reads both
    s = (q @ k.transpose(-1, -2)) * 0.125
    m = mask == 0
    return torch.softmax(s.masked_fill(m, float("-inf")), -1) @ v


def test_fusion_regions_write_over_dying_inputs(tmp_path, thundercc):
    mask = torch.tril(torch.ones(16, 16))
    trace = save_case(tmp_path, "attn", masked_attention, (torch.randn(2, 16, 8), torch.randn(2, 16, 8), torch.randn(2, 16, 8), mask))
    thundercc("compile", trace, "-o", tmp_path, "--executors", "fuser,torch")
    printed = (tmp_path / "attn.trace.py").read_text()
    # scale, mask and softmax: one region for the [2, 16, 16] scores and one for the mask
    assert printed.count(" = fuser_") == 2, printed
    plan = json.loads((tmp_path / "attn.plan.json").read_text())
    # the softmax region writes its result over the product it reads, which dies there
    softmax = next(i for i in plan["instructions"] if i["op"].startswith("fuser_") and len(i["args"]) == 2)
    product = next(i for i in plan["instructions"] if "matmul" in i["op"])
    assert softmax["buffers"][0]["offset"] == product["buffers"][0]["offset"]
    assert plan["arena"]["in_place"] >= 1
    thundercc("run", tmp_path / "attn.plan.json", "--inputs", tmp_path / "attn.inputs.pt",
              "--expect", tmp_path / "attn.expected.pt", "--repeat", "3", "--warmup", "1")


def test_buffer_outside_the_arena_is_refused(tmp_path, thundercc):
    trace = save_case(tmp_path, "chain", elementwise_chain, (torch.randn(6, 32), torch.randn(6, 32)))
    thundercc("compile", trace, "-o", tmp_path, "--executors", "torch")  # an op per instruction: buffers between them
    path = tmp_path / "chain.plan.json"
    plan = json.loads(path.read_text())
    planned = next(ins for ins in plan["instructions"] if any(b is not None for b in ins.get("buffers", [])))
    buffer = next(b for b in planned["buffers"] if b is not None)
    buffer["offset"] = plan["arena"]["bytes"]  # aligned, but past the end
    path.write_text(json.dumps(plan))
    result = thundercc("run", path, check=False)
    assert result.returncode == 1
    assert "does not lie in the arena" in result.stderr


def test_profile_reports_the_working_peak(tmp_path, thundercc):
    trace = save_case(tmp_path, "big", lambda x: torch.tanh(torch.exp(x) * 2) + 1, (torch.randn(1024, 1024),))
    thundercc("compile", trace, "-o", tmp_path, "--executors", "torch")  # an op per instruction: buffers between them
    result = thundercc("run", tmp_path / "big.plan.json", "--profile", "--repeat", "3", "--warmup", "1")
    memory = re.search(r"memory: working peak ([\d.]+) MB \(arena ([\d.]+) MB\), ([\d.]+) MB newly taken", result.stdout)
    assert memory, result.stdout
    peak, arena, fresh = map(float, memory.groups())
    # exp's output is planned and tanh writes over it (4.2 MB); add's output is the caller's.
    assert arena == pytest.approx(4.2, abs=0.05)
    assert peak == pytest.approx(8.4, abs=0.1)
    assert fresh == pytest.approx(4.2, abs=0.05)  # one output per run, its block reused after the first


def matrix_products(x, w, b, y, z):
    # oneDNN reads each operand where it lies (plain, transposed, broadcast batch) and writes the
    # product into its planned buffer; layouts it cannot take are copied first, 1-d operands go to ATen
    h = F.linear(x, w, b)  # [3, 5, 7] x [6, 7]^T + [6]
    u = torch.relu(h) @ y  # [3, 5, 6] x [6, 4]: batch broadcast against a single matrix
    v = u.transpose(-1, -2) @ z[0]  # transposed [3, 4, 5] x [5, 2]
    m = torch.bmm(h.transpose(1, 2), h)  # [3, 6, 5] x [3, 5, 6], the first transposed
    s = torch.matmul(y[:, 0], y)  # 1-d x 2-d
    t = torch.matmul(x[:, :, ::2], torch.ones(4, 3)[None])  # strided columns: copied first
    e = torch.matmul(z.expand(3, 5, 2)[:, None], v[None, 0].transpose(-1, -2).unsqueeze(0))  # [3,1,5,2] x [1,1,2,4]
    return F.linear(v, torch.ones(3, 2)), m.sum(), s, t, e, F.linear(x[0, 0], w)


def test_matrix_products_write_into_planned_buffers(tmp_path, thundercc):
    args = (torch.randn(3, 5, 7), torch.randn(6, 7), torch.randn(6), torch.randn(6, 4), torch.randn(1, 5, 2))
    trace = save_case(tmp_path, "products", matrix_products, args)
    thundercc("compile", trace, "-o", tmp_path)
    plan = json.loads((tmp_path / "products.plan.json").read_text())
    ops = ("torch:torch.nn.functional.linear", "torch:torch.matmul", "torch:torch.bmm")
    products = [ins for ins in plan["instructions"] if ins["op"] in ops]
    planned = [ins for ins in products if any(b is not None for b in ins.get("buffers", []))]
    assert len(planned) >= 4, [ins["statement"] for ins in products]
    for matmul in ("onednn", "blas"):
        env = {"THUNDERCC_MATMUL": matmul}
        thundercc("run", tmp_path / "products.plan.json", "--inputs", tmp_path / "products.inputs.pt",
                  "--expect", tmp_path / "products.expected.pt", "--repeat", "3", "--warmup", "1", env=env)
