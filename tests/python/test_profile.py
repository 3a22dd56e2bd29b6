"""run --profile-json: the last timed run as Chrome trace events (the format chrome://tracing and
Perfetto load), checked against the format's rules: an event per instruction of the forward and
the backward, on their own threads, in order, without overlap, and a memory counter."""
import json

from conftest import REPO


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
