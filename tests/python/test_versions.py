"""`thundercc --version` and the front end's `--version` name the same release and trace format."""
import re
import subprocess
import sys

from conftest import REPO


def test_the_cli_and_the_front_end_agree_on_their_versions(thundercc):
    cli = thundercc("--version").stdout.strip()
    front_end = subprocess.run([sys.executable, "-m", "thundercc_frontend", "--version"], cwd=REPO, capture_output=True, text=True,
                               check=True).stdout.strip()
    release, trace_format, plan_format = re.fullmatch(r"thundercc (\S+) \(trace format (\d+), plan format (\d+)\)", cli).groups()
    assert front_end == f"thundercc_frontend {release} (trace format {trace_format})"
    assert int(plan_format) >= 4
