"""Fixtures for the whole suite."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest


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
