from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests.inprocess import run_in_process

PLUGIN_FILES = Path(__file__).parent / "plugin_files"


def load_plugin_file(name: str) -> ModuleType:
    """Import one of the test plugin files as a module."""
    path = PLUGIN_FILES / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"hexkit_test_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while it executes
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def tictactoe_registry():
    from hexkit.plugins import build_registry

    return build_registry(entry_points=False, use_env=False,
                          extra=[("tictactoe", load_plugin_file("tictactoe"))])


def run_hexkit(*args: str, input: str = "", env_extra: dict[str, str] | None = None,
               cwd: str | Path | None = None, timeout: float = 120,
               real: bool = False) -> subprocess.CompletedProcess[str]:
    """Run the command line as a user would: in this process (tests/inprocess.py), or in
    a subprocess of its own if ``real``."""
    env = dict(os.environ)
    env.pop("HEXKIT_PLUGINS_DIR", None)
    env.pop("HEXKIT_DEBUG", None)
    env.update(env_extra or {})
    if not real:
        return run_in_process(args, input=input, cwd=cwd, env=env)
    return subprocess.run(
        [sys.executable, "-m", "hexkit", *args],
        input=input, capture_output=True, text=True, env=env, cwd=cwd, timeout=timeout,
    )
