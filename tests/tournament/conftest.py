from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from hexkit import plugins

HERE = Path(__file__).parent
#: The toy game of the service tests and this folder's misbehaving bots.
PLUGIN_DIRS = [str(HERE.parent / "services" / "plugin_files"), str(HERE / "plugin_files")]


@pytest.fixture
def toy() -> Iterator[plugins.Registry]:
    """The process-wide registry with the toy game and the misbehaving bots (restored
    afterwards)."""
    saved = list(plugins._plugin_dirs)
    plugins.configure(PLUGIN_DIRS)
    try:
        yield plugins.registry()
    finally:
        plugins.configure(saved)


def hexkit_process(*args: str, cwd: str | Path | None = None,
                   env_extra: dict[str, str] | None = None, **popen: object) -> subprocess.Popen:
    """The real command line, started in a subprocess with the test plugin folders."""
    env = dict(os.environ)
    env.pop("HEXKIT_PLUGINS_DIR", None)
    env.pop("HEXKIT_DEBUG", None)
    env.update(env_extra or {})
    extra = [a for d in PLUGIN_DIRS for a in ("--plugins-dir", d)]
    return subprocess.Popen([sys.executable, "-m", "hexkit", *extra, *args], cwd=cwd, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            **popen)


def run_hexkit(*args: str, cwd: str | Path | None = None, timeout: float = 120,
               env_extra: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Run the real command line to its end."""
    proc = hexkit_process(*args, cwd=cwd, env_extra=env_extra)
    out, err = proc.communicate(timeout=timeout)
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def error_lines(proc: subprocess.CompletedProcess[str]) -> list[str]:
    """stderr without plugin-loading warnings (other plugins may be half-built)."""
    return [line for line in proc.stderr.splitlines() if not line.startswith("hexkit: warning:")]
