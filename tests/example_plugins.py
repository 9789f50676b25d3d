"""The example plugins of ``examples/`` as the tests load them: imported from their folder
(not installed) and registered beside the built-in games, as an installed one would be."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

from hexkit.plugins import Registry, build_registry


def import_example(folder: Path, module: str) -> ModuleType:
    """``module`` (e.g. ``hexbaron_miner.plugin``) imported from ``folder``."""
    sys.path.insert(0, str(folder))
    try:
        return importlib.import_module(module)
    finally:
        sys.path.remove(str(folder))


def registry_with(name: str, plugin: ModuleType) -> Registry:
    """The built-in games and ``plugin`` registered under ``name``; no environment."""
    return build_registry(use_env=False, extra=[(name, plugin)])
