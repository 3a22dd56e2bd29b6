"""Real models end to end (scripts/zoo.py): torchvision 0.14's classification models and torch.nn's
Transformer and recurrent modules, with random weights and randomized batch norm statistics,
captured, compiled, run and compared with eager. The models small enough for CI run here; the
rest with THUNDERCC_ZOO=all (or `scripts/zoo.py`, which runs every model)."""
import os
import sys

import pytest

from conftest import REPO

sys.path.insert(0, str(REPO))  # the front end package, thundercc_frontend
sys.path.insert(0, str(REPO / "scripts"))  # zoo.py, ops_table.py
import zoo  # noqa: E402

EVERY_MODEL = os.environ.get("THUNDERCC_ZOO") == "all"
MODELS = [pytest.param(name, marks=[] if name in zoo.FAST or EVERY_MODEL else
                       pytest.mark.skip(reason="slow: THUNDERCC_ZOO=all or scripts/zoo.py runs it"))
          for name in zoo.MODELS]


@pytest.mark.parametrize("name", MODELS)
def test_model_matches_eager(name, tmp_path, thundercc):
    status, detail = zoo.check(name, tmp_path, os.environ["THUNDERCC"])
    assert status == "pass", f"{name} fails in {status}: {detail}"
