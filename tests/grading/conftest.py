"""Grading tests: a small plan (few, short trajectories) keeps each submission's grading
at a second or two; the whole corpus is graded by benchmarks/grade_corpus.py."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from hexkit.grading.config import GradingConfig
from hexkit.grading.grader import GradeResult, TrajectoryCache, grade

from .corpus import REFERENCE, make


def small_config(**changes: object) -> GradingConfig:
    """Three random and one bot-guided trajectories of at most 100 calls."""
    config = GradingConfig(random=3, bot=1, length=100)
    for key, value in changes.items():
        setattr(config, key, value)
    return config


@pytest.fixture(scope="module")
def cache() -> TrajectoryCache:
    return TrajectoryCache()


@pytest.fixture
def graded(tmp_path, cache):
    """``graded(kind, mutant=None, hostile=None, **config)``: the submission, graded."""

    def run(kind: str, mutant: str | tuple[str, ...] | None = None,
            hostile: str | None = None, time_limit: float | None = None,
            **config: object) -> GradeResult:
        folder = "+".join(mutant) if isinstance(mutant, tuple) else mutant
        path = make(kind, tmp_path / (folder or hostile or "pristine"), mutant, hostile)
        return grade(path, REFERENCE[kind], small_config(**config), cache=cache,
                     time_limit=time_limit)

    return run


def run_hexkit(*args: str, cwd: str | Path | None = None,
               timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env.pop("HEXKIT_PLUGINS_DIR", None)
    return subprocess.run([sys.executable, "-m", "hexkit", *args], capture_output=True,
                          text=True, env=env, cwd=cwd, timeout=timeout)
