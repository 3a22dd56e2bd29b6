#!/usr/bin/python3
"""`python3 -m thundercc_frontend` under its older name: captures a PyTorch program as trace.json
(thundercc_frontend/__main__.py says how)."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from thundercc_frontend.__main__ import main  # noqa: E402

sys.exit(main())
