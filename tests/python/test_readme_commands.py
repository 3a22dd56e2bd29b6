"""The README's command blocks run as written, as Rust's doctests do: the quick start from a
checkout (after its set-up line, which CI has run) must end in outputs that match eager PyTorch's,
the Python API's example must print True (its result equals eager's), and the two commands must
name scripts that exist."""
import os
import re
import subprocess
from pathlib import Path

from conftest import REPO

README = (REPO / "README.md").read_text()
BLOCKS = re.findall(r"```sh\n(.*?)```", README, re.S)


def commands(block):
    return [line.split("  #")[0].strip() for line in block.splitlines() if line.strip()]


def test_every_command_block_is_one_of_the_tested_ones():
    assert len(BLOCKS) == 3, "a new command block in README.md needs a test here"


def test_the_two_commands_are_scripts_of_the_checkout():
    for command in commands(BLOCKS[0]):
        assert os.access(REPO / command, os.X_OK), command


def test_the_quick_start_runs_as_written(tmp_path):
    lines = commands(BLOCKS[1])
    assert lines[0] == "scripts/setup.sh"
    # A checkout of its own, as far as the commands see: the files they read, and the build.
    for name in ("examples", "thundercc_frontend"):
        (tmp_path / name).symlink_to(REPO / name)
    (tmp_path / "build").symlink_to(Path(os.environ.get("THUNDERCC", REPO / "build" / "thundercc")).parent)
    result = subprocess.run(["bash", "-euc", "\n".join(lines[1:])], cwd=tmp_path, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "outputs match out/resnet18.expected.pt" in result.stdout
    assert (tmp_path / "out" / "resnet18.trace.py").exists()


def test_the_python_example_runs_as_written(tmp_path):
    (tmp_path / "thundercc_frontend").symlink_to(REPO / "thundercc_frontend")
    (tmp_path / "build").symlink_to(Path(os.environ.get("THUNDERCC", REPO / "build" / "thundercc")).parent)
    result = subprocess.run(["bash", "-euc", BLOCKS[2]], cwd=tmp_path, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "True"
