import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "scripts"))


@pytest.fixture(scope="session")
def thundercc():
    binary = os.environ.get("THUNDERCC", str(REPO / "build" / "thundercc"))
    assert Path(binary).exists(), f"build thundercc first ({binary})"
    os.environ["THUNDERCC"] = binary

    def run(*args, check=True):
        result = subprocess.run([binary, *map(str, args)], capture_output=True, text=True)
        if check and result.returncode != 0:
            raise AssertionError(f"thundercc {' '.join(map(str, args))} exited {result.returncode}:\n{result.stderr}")
        return result

    return run
