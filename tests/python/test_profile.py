"""run --profile-json: the last timed run as Chrome trace events (the format chrome://tracing and
Perfetto load), checked against the format's rules: an event per instruction of the forward and
the backward, on their own threads, in order, without overlap, and a memory counter. run --profile:
each matrix product's and convolution's rate, from its arithmetic counted by hand here."""
import json
import re

import torch
import torch.nn.functional as F

from conftest import REPO, save_case


def test_profile_json_is_a_chrome_trace(tmp_path, thundercc):
    thundercc("compile", REPO / "traces" / "gpt2_block.json", "-o", tmp_path)
    plan = json.loads((tmp_path / "gpt2_block.plan.json").read_text())
    profile = tmp_path / "profile.json"
    thundercc("run", tmp_path / "gpt2_block.plan.json", "--inputs", REPO / "traces" / "gpt2_block.inputs.pt",
              "--repeat", 3, "--warmup", 1, "--profile-json", profile)
    document = json.loads(profile.read_text())
    assert set(document) == {"traceEvents", "displayTimeUnit"} and document["displayTimeUnit"] in ("ms", "ns")
    events = document["traceEvents"]
    for e in events:
        assert e["ph"] in ("X", "C", "M") and isinstance(e["name"], str) and isinstance(e["pid"], int)
        if e["ph"] == "X":
            assert isinstance(e["tid"], int) and e["ts"] >= 0 and e["dur"] >= 0 and isinstance(e["args"]["statement"], str)
        if e["ph"] == "C":
            assert e["ts"] >= 0 and all(isinstance(v, float) for v in e["args"].values())
    threads = {e["args"]["name"]: e["tid"] for e in events if e["name"] == "thread_name"}
    assert set(threads) == {"forward", "backward"}
    for program, instructions in (("forward", plan["instructions"]), ("backward", plan["backward"]["instructions"])):
        spans = [e for e in events if e["ph"] == "X" and e["tid"] == threads[program]]
        assert [e["name"] for e in spans] == [i["op"] for i in instructions]
        assert [e["args"]["index"] for e in spans] == list(range(len(instructions)))
        for before, after in zip(spans, spans[1:]):
            assert before["ts"] + before["dur"] <= after["ts"] + 1e-3  # one thread runs them in turn
    forward_end = max(e["ts"] + e["dur"] for e in events if e["ph"] == "X" and e["tid"] == threads["forward"])
    assert all(e["ts"] >= forward_end - 1e-3 for e in events if e["ph"] == "X" and e["tid"] == threads["backward"])
    assert sum(e["ph"] == "C" for e in events) == len(plan["instructions"]) + len(plan["backward"]["instructions"])


def products(x, w, y, k, t):
    h = F.linear(x, w)  # [6, 40] x [24, 40]^T: 2 * 6 * 24 * 40 flops
    z = torch.matmul(torch.relu(h), y)  # [6, 24] x [24, 16]: 2 * 6 * 16 * 24
    c = F.conv2d(t, k, padding=1)  # [2, 3, 10, 10] * [8, 3, 3, 3]: 2 * (2 * 8 * 10 * 10) * 27
    c2 = F.conv_transpose2d(c, k, padding=1)  # weight [8 in, 3 out, 3, 3]: 2 * (2 * 8 * 10 * 10 inputs) * 27
    return z.sum() + c2.sum()


def test_profile_prints_each_products_rate(tmp_path, thundercc):
    args = (torch.randn(6, 40), torch.randn(24, 40), torch.randn(24, 16), torch.randn(8, 3, 3, 3), torch.randn(2, 3, 10, 10))
    trace = save_case(tmp_path, "products", products, args)
    thundercc("compile", trace, "-o", tmp_path, "--executors", "torch")
    result = thundercc("run", tmp_path / "products.plan.json", "--profile", "--repeat", "2", "--warmup", "1")
    rows = re.findall(r"^ *([\d.]+) +[\d.]+% +([\d.]*) +(.*)$", result.stdout, re.MULTILINE)
    expected = {"linear": 2 * 6 * 24 * 40, "matmul": 2 * 6 * 16 * 24, "conv2d": 2 * 1600 * 27, "conv_transpose2d": 2 * 1600 * 27}
    seen = {}
    for us, rate, statement in rows:
        op = next((name for name in expected if f"functional.{name}(" in statement or f"torch.{name}(" in statement), None)
        if op is None:
            assert rate == "", statement  # only products have a rate
            continue
        seen[op] = True
        # GFLOP/s = flops / ns, to one decimal; the time printed has two decimals of a microsecond.
        assert abs(float(rate) - expected[op] / (float(us) * 1e3)) <= 0.05 + 0.01 * expected[op] / (float(us) * 1e3), (statement, us, rate)
    assert set(seen) == set(expected), result.stdout
    assert re.search(r"^matrix products and convolutions: [\d.]+% of the time, [\d.]+ GFLOP/s$", result.stdout, re.MULTILINE)
