"""Fixtures for the whole suite."""

from __future__ import annotations

import os
import re
import signal
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.fresh_env import FreshInstall, shared_fresh_install


def pytest_configure(config: pytest.Config) -> None:
    """Ctrl-C reaches the programs the tests start: a suite started in the background by a
    shell without job control (``nohup pytest &``) ignores SIGINT, every child process
    inherits that, and the tests that press Ctrl-C would wait for nothing."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if os.environ.get("PYTEST_XDIST_WORKER"):
        return
    if sys.dont_write_bytecode:
        compile_bytecode()
    if getattr(config.option, "numprocesses", None):
        rewrite_test_modules(config)


def compile_bytecode() -> None:
    """Compile the bytecode of hexkit and its games once, before the test processes start,
    as ``pip install`` does for an installed package. Run with ``PYTHONDONTWRITEBYTECODE=1``
    (as on CI), an editable install would compile every module it imports again in each of
    the hundreds of ``hexkit`` processes the tests start: about half of each one's CPU.
    The file templates of ``hexkit new-plugin`` are left alone."""
    import compileall

    root = Path(__file__).resolve().parents[1]
    for folder in ("hexkit", "plugins"):
        compileall.compile_dir(root / folder, quiet=2, rx=re.compile(r"[/\\]templates[/\\]"))


def rewrite_test_modules(config: pytest.Config) -> None:
    """Rewrite the asserts of the test modules once, here, and keep the result where pytest
    looks for it (its own ``__pycache__`` files), before the xdist workers start: each of
    them would otherwise rewrite every module of the suite again as it collects (about three
    seconds of CPU each). This uses pytest's own rewriting functions, which are not a public
    API: if they change, nothing is written and the workers rewrite as before."""
    try:
        from _pytest.assertion.rewrite import (
            PYC_TAIL,
            _read_pyc,
            _rewrite_test,
            _write_pyc,
            assertstate_key,
            get_cache_dir,
        )

        state = config.stash[assertstate_key]
        for path in sorted(Path(__file__).resolve().parent.rglob("*.py")):
            if not (path.name.startswith("test_") or path.name == "conftest.py"):
                continue
            pyc = get_cache_dir(path) / (path.name[:-3] + PYC_TAIL)
            if _read_pyc(path, pyc) is not None:
                continue
            pyc.parent.mkdir(exist_ok=True)
            source_hash, code = _rewrite_test(path, config)
            _write_pyc(state, code, source_hash, pyc)
    except Exception:  # noqa: BLE001 - an optimisation only: the workers rewrite
        return


@pytest.fixture(autouse=True, scope="session")
def private_data_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A per-user data folder of the suite's own (``$XDG_DATA_HOME``), so that games kept
    by ``hexkit play`` at a terminal, and servers' default folders, never reach the home of
    the person running the tests. Subprocesses inherit it."""
    saved = os.environ.get("XDG_DATA_HOME")
    folder = str(tmp_path_factory.mktemp("xdg-data"))
    os.environ["XDG_DATA_HOME"] = folder
    yield folder
    if saved is None:
        os.environ.pop("XDG_DATA_HOME", None)
    else:
        os.environ["XDG_DATA_HOME"] = saved


@pytest.fixture(autouse=True)
def forget_plugin_folders() -> Iterator[None]:
    """A test that runs ``hexkit --plugins-dir DIR ...`` in this process leaves DIR's
    plugins in the process-wide registry; later tests must see the installed games only."""
    yield
    from hexkit import plugins

    from_env = [d for d in os.environ.get(plugins.PLUGINS_DIR_ENV, "").split(os.pathsep) if d]
    if plugins.configured_dirs() != from_env:
        plugins.configure([])


@pytest.fixture(scope="session")
def fresh_install(tmp_path_factory: pytest.TempPathFactory) -> FreshInstall:
    """One fresh virtual environment with the tutorial's plugin and a ``hexkit new-plugin``
    one installed, for the whole session and every xdist worker (see tests/fresh_env.py)."""
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent  # the folder every worker's own one is in
    return shared_fresh_install(root / "fresh-install")
