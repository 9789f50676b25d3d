"""The games every adapter test runs on: the four built-in games, the example plugin and a
freshly generated ``hexkit new-plugin`` game (imported from their folders, not installed)."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

from hexkit.plugins import build_registry

ROOT = Path(__file__).resolve().parents[2]
BUILT_IN = ["focus", "hexbaron", "hexaround", "hive"]
#: Small bounds keep the peers' suites to a few seconds per game in the test suite
#: (benchmarks/ai_suites.py runs them long).
PLIES = 40


@pytest.fixture(scope="module")
def plugin_games(tmp_path_factory):
    """(registry, {kind: game string}) with the example plugin and a new-plugin game."""
    from hexkit.tools.scaffold import write_plugin

    parent = tmp_path_factory.mktemp("plugins")
    write_plugin("aitoy", parent)
    folders = [(ROOT / "examples" / "hex-connection", "hexconnection"), (parent / "aitoy", "aitoy")]
    extra = []
    for folder, package in folders:
        sys.path.insert(0, str(folder))
        extra.append((package, importlib.import_module(f"{package}.plugin")))
    yield build_registry(use_env=False, extra=extra), {"example": "hex(size=5)", "new": "aitoy"}
    for folder, package in folders:
        sys.path.remove(str(folder))
        for loaded in [m for m in sys.modules if m == package or m.startswith(package + ".")]:
            del sys.modules[loaded]


@pytest.fixture(params=[*BUILT_IN, "example", "new"])
def any_game(request, plugin_games):
    """(registry, game string) for each built-in game and each plugin game."""
    registry, names = plugin_games
    return registry, names.get(request.param, request.param)
