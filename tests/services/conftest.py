from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from hexkit import plugins
from tests.inprocess import run_in_process

PLUGIN_FILES = Path(__file__).parent / "plugin_files"


@pytest.fixture
def toy_plugins() -> Iterator[plugins.Registry]:
    """The process-wide registry with the test game ``toyline`` loaded from a plugins folder,
    as a student's single-file plugin would be (restored afterwards)."""
    saved = list(plugins._plugin_dirs)
    plugins.configure([PLUGIN_FILES])
    try:
        yield plugins.registry()
    finally:
        plugins.configure(saved)


def run_hexkit(*args: str, input: str = "", cwd: str | Path | None = None,
               toy: bool = True, env_extra: dict[str, str] | None = None,
               timeout: float = 120, real: bool = False) -> subprocess.CompletedProcess[str]:
    """Run the command line, with the toy plugin folder if ``toy``: in this process
    (tests/inprocess.py), or in a subprocess of its own if ``real`` (for what only a
    process shows: worker processes, locks between processes)."""
    env = dict(os.environ)
    env.pop("HEXKIT_PLUGINS_DIR", None)
    env.pop("HEXKIT_DEBUG", None)
    env.update(env_extra or {})
    extra = ["--plugins-dir", str(PLUGIN_FILES)] if toy else []
    if not real:
        return run_in_process([*extra, *args], input=input, cwd=cwd, env=env)
    return subprocess.run(
        [sys.executable, "-m", "hexkit", *extra, *args],
        input=input, capture_output=True, text=True, env=env, cwd=cwd, timeout=timeout,
    )


def error_lines(proc: subprocess.CompletedProcess[str]) -> list[str]:
    """stderr without plugin-loading warnings (other helpers' plugins may be half-built)."""
    return [line for line in proc.stderr.splitlines() if not line.startswith("hexkit: warning:")]
