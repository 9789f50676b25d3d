"""The project stays ruff-clean (ruff comes with the test extras)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_project_is_ruff_clean():
    r = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", str(ROOT)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
