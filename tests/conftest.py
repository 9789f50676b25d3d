"""Fixtures shared by several test folders."""

from __future__ import annotations

import os
import signal

import pytest

from tests.fresh_env import FreshInstall, shared_fresh_install


def pytest_configure(config: pytest.Config) -> None:
    """Ctrl-C reaches the programs the tests start: a suite started in the background by a
    shell without job control (``nohup pytest &``) ignores SIGINT, every child process
    inherits that, and the tests that press Ctrl-C would wait for nothing."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(scope="session")
def fresh_install(tmp_path_factory: pytest.TempPathFactory) -> FreshInstall:
    """One fresh virtual environment with the tutorial's plugin and a ``hexkit new-plugin``
    one installed, for the whole session and every xdist worker (see tests/fresh_env.py)."""
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent  # the folder every worker's own one is in
    return shared_fresh_install(root / "fresh-install")
