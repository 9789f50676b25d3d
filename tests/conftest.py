"""Fixtures shared by several test folders."""

from __future__ import annotations

import os

import pytest

from tests.fresh_env import FreshInstall, shared_fresh_install


@pytest.fixture(scope="session")
def fresh_install(tmp_path_factory: pytest.TempPathFactory) -> FreshInstall:
    """One fresh virtual environment with the tutorial's plugin and a ``hexkit new-plugin``
    one installed, for the whole session and every xdist worker (see tests/fresh_env.py)."""
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent  # the folder every worker's own one is in
    return shared_fresh_install(root / "fresh-install")
