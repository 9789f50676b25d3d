"""The project stays ruff-clean and mypy-clean (both come with the test extras)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_project_is_ruff_clean():
    r = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", str(ROOT)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr


def test_the_core_the_games_the_template_and_the_example_type_check():
    # One cold run (about 7 s of CPU), writing no cache (mypy's way: the null device): what
    # to check, and how strictly, is mypy's configuration in pyproject.toml.
    r = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", os.devnull],
                       cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
