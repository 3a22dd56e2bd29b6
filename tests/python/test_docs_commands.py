"""The command blocks of docs/*.md run as written, as the README's do (test_readme_commands.py):
every ```sh block with bash -euo pipefail, every ```python block as a program of /usr/bin/python3,
from the root of a checkout after scripts/setup.sh. A page's blocks run in order in one folder, a
later block reading what an earlier one wrote under out/; the folder looks like a checkout (links
to the repository's examples/, scripts/, thundercc_frontend/ and traces/, and build/ to the build
under test). Where a page says what a command prints or makes, that is checked too.
```python printed blocks are printed traces and ```text blocks synopses, not programs; the printed
traces that a command of the page names are compared with what it prints."""
import os
import re
import runpy
import subprocess
from pathlib import Path

import pytest
import torch

from conftest import REPO, assert_same_checkpoints, free_port

DOCS = REPO / "docs"
BUILD = Path(os.environ.get("THUNDERCC", REPO / "build" / "thundercc")).parent
FENCE = re.compile(r"^(?P<indent> *)```(?P<info>[^`\n]*)\n(?P<body>.*?)^(?P=indent)```[ \t]*$", re.M | re.S)
RUNNABLE = {"sh", "python"}
NOT_RUN = {"python printed", "text", "json", "cpp", ""}  # printed traces, synopses, formats, C++, listings


def fenced_blocks(page):
    """(info string, body) of each fenced block of docs/PAGE, in order."""
    return [(m["info"].strip(), re.sub(f"^{m['indent']}", "", m["body"], flags=re.M))
            for m in FENCE.finditer((DOCS / page).read_text())]


def runnable_blocks(page):
    return [(info, body) for info, body in fenced_blocks(page) if info in RUNNABLE]


PAGES = sorted(p.name for p in DOCS.glob("*.md"))
BLOCKS = [(page, k) for page in PAGES for k in range(len(runnable_blocks(page)))]


class Page:
    """A page's folder, and the results of its blocks run so far (in order: block k runs after
    blocks 0..k-1, which it may read the files of)."""

    def __init__(self, page, folder):
        self.page, self.folder, self.blocks, self.results = page, folder, runnable_blocks(page), []
        for name in ("examples", "scripts", "thundercc_frontend", "traces"):
            (folder / name).symlink_to(REPO / name)
        (folder / "build").symlink_to(BUILD)

    def run_through(self, index):
        """Runs the blocks up to index (those not yet run); returns block index's result."""
        while len(self.results) <= index:
            k = len(self.results)
            if k and self.results[-1].returncode != 0:
                pytest.fail(f"{self.page} block {k} needs block {k - 1}, which failed")
            info, body = self.blocks[k]
            command = ["bash", "-euo", "pipefail", "-c", body] if info == "sh" else ["/usr/bin/python3", "-"]
            # torchrun's default port (29500) may be taken by another run on this machine: PET_MASTER_PORT is its --master_port.
            env = {**os.environ, "THUNDERCC": str(BUILD / "thundercc"), "PET_MASTER_PORT": str(free_port())}
            self.results.append(subprocess.run(command, input=body if info == "python" else None, cwd=self.folder,
                                               env=env, capture_output=True, text=True, timeout=600))
        return self.results[index]


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    made = {}

    def get(page):
        if page not in made:
            made[page] = Page(page, tmp_path_factory.mktemp(page.removesuffix(".md")))
        return made[page]

    return get


def the_plugin_runs_the_mul(folder, outputs):
    assert "t0 = my_mul(a, b)" in (folder / "out" / "mul.trace.py").read_text()


def loss_of_step(output, step):
    return float(re.search(rf"^step {step}: loss ([-0-9.e+]+)", output, re.M)[1])


def training_resumed_where_pytorch_continued(folder, outputs):
    assert loss_of_step(outputs[2], 20) == pytest.approx(loss_of_step(outputs[1], 20), rel=1e-5)


def ddp_ranks_end_equal(folder, outputs):
    assert_same_checkpoints(torch.load(folder / "out" / "ckpt.0.pt"), torch.load(folder / "out" / "ckpt.1.pt"))


def ddp_gradients_are_the_whole_batchs(folder, outputs):
    """Each rank's --grads-out holds the gradients of the mean loss over both ranks' shards."""
    out = folder / "out"
    shards = [torch.load(out / f"mlp.inputs.{rank}.pt") for rank in range(2)]
    model, _ = runpy.run_path(str(REPO / "examples" / "models" / "mlp.py"))["make"]()
    with torch.no_grad():  # rank 0's parameters, which the run broadcast
        for p, value in zip(model.parameters(), shards[0][2:]):
            p.copy_(value)
    loss = model(torch.cat([s[0] for s in shards]), torch.cat([s[1] for s in shards]))
    whole = torch.autograd.grad(loss, list(model.parameters()))
    for rank in range(2):
        for got, expected in zip(torch.load(out / f"grads.{rank}.pt"), whole, strict=True):
            torch.testing.assert_close(got, expected, rtol=1e-5, atol=1e-6)


def embedded_plan_matches_eager(folder, outputs):
    out = folder / "out"
    (expected,) = torch.load(out / "batch_of_5.expected.pt")
    torch.testing.assert_close(torch.load(out / "out.pt")[0], expected)
    assert not torch.allclose(torch.load(out / "out2.pt")[0], expected)  # the second state_dict is another model


# What the pages say a block prints (stdout and stderr together) or makes, by (page, block).
PRINTS = {
    ("capture.md", 0): ["outputs match out/mlp.expected.pt", "gradients match out/mlp.grads.pt",
                        "capture --check: every call can be captured"],
    ("python.md", 0): ["# Constructed by Delete Last Used\n"],
    ("reviewing.md", 1): ["-    # t_h_0_mlp_gelu_0_1' = prims.erf(", "prims.tanh("],
    ("serving.md", 0): ["outputs match out/batch_of_5.expected.pt"],
    ("serving.md", 2): ["out/weights.pt: 3 threads agree, outputs written to out/out.pt",
                        "out/other_weights.pt: 3 threads agree, outputs written to out/out2.pt"],
    ("training.md", 0): ["step 19: loss", "20 steps of torch.optim.AdamW"],
    ("training.md", 1): ["step 20: loss"],
    ("training.md", 3): ["[default0]:step 19: loss", "[default1]:step 19: loss"],
}
MAKES = {
    ("plugins.md", 0): the_plugin_runs_the_mul,
    ("serving.md", 2): embedded_plan_matches_eager,
    ("training.md", 2): training_resumed_where_pytorch_continued,
    ("training.md", 3): ddp_ranks_end_equal,
    ("distributed.md", 0): ddp_gradients_are_the_whole_batchs,
}


@pytest.mark.parametrize("page, index", BLOCKS, ids=[f"{page}-{k}" for page, k in BLOCKS])
def test_the_block_runs_as_written(pages, page, index):
    runner = pages(page)
    result = runner.run_through(index)
    info, body = runner.blocks[index]
    shown = result.stdout + result.stderr
    assert result.returncode == 0, f"{page} block {index} ({info}) exited {result.returncode}:\n{body}\n{shown}"
    for text in PRINTS.get((page, index), []):
        assert text in shown, f"{page} block {index} does not print {text!r}:\n{shown}"
    if (page, index) in MAKES:
        MAKES[page, index](runner.folder, [r.stdout + r.stderr for r in runner.results])


def test_every_block_is_run_or_marked_as_not_a_program():
    for page in PAGES:
        for info, _ in fenced_blocks(page):
            assert info in RUNNABLE | NOT_RUN, f"docs/{page}: a ```{info} block is neither run here nor marked as not a program"


def test_the_checks_name_blocks_that_exist():
    for page, index in [*PRINTS, *MAKES]:
        assert (page, index) in BLOCKS, (page, index)


def test_the_plugin_of_the_plugins_page_is_the_example_word_for_word():
    source = (REPO / "examples" / "plugin_package" / "my_plugin.cpp").read_text()
    assert ("cpp", source) in fenced_blocks("plugins.md")


def printed_trace(page, first_line):
    """The ```python printed block of docs/PAGE that starts with first_line."""
    (body,) = [body for info, body in fenced_blocks(page) if info == "python printed" and body.startswith(first_line)]
    return body


def test_the_printed_traces_are_what_the_commands_print(tmp_path, thundercc):
    """docs/cli.md's traces of traces/add_mul.json (print; compile --executors torch; the default
    executors' fusion, the trace's end) and docs/reviewing.md's print --names stable (its end)."""
    printed = thundercc("print", REPO / "traces" / "add_mul.json").stdout
    assert printed == printed_trace("cli.md", "import thunder.torch as ltorch")
    assert printed_trace("reviewing.md", "def fun(a, b):") in thundercc("print", REPO / "traces" / "add_mul.json", "--names", "stable").stdout
    thundercc("compile", REPO / "traces" / "add_mul.json", "--executors", "torch", "-o", tmp_path / "torch")
    assert (tmp_path / "torch" / "add_mul.trace.py").read_text() == printed_trace("cli.md", "# Constructed by Delete Last Used")
    thundercc("compile", REPO / "traces" / "add_mul.json", "-o", tmp_path / "fused")
    assert (tmp_path / "fused" / "add_mul.trace.py").read_text().endswith(printed_trace("cli.md", "  (t2,) = fuser_0(b, a)"))
