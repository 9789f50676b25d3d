"""Where game variants (``configs/<game>/*.yaml``) live, and reading YAML with line numbers."""

from __future__ import annotations

import os
import site
import sys
import sysconfig
from pathlib import Path

#: Overrides the configs folder (its sub-folders are named after games).
CONFIGS_ENV = "HEXKIT_CONFIGS"


def config_dirs(game: str) -> list[Path]:
    """Folders that may hold ``game``'s variants, most specific first.

    ``$HEXKIT_CONFIGS/<game>``, the source checkout's ``configs/<game>`` (editable
    installs), then the installed data folder ``<prefix>/share/hexkit-games/configs/<game>``
    (``<prefix>`` being the environment or, for ``pip install --user``, the user base).
    """
    out = []
    if os.environ.get(CONFIGS_ENV):
        out.append(Path(os.environ[CONFIGS_ENV]) / game)
    out.append(Path(__file__).resolve().parent.parent / "configs" / game)
    # Where pip puts the distribution's data files: the environment, or the user's base
    # for ``pip install --user``.
    for base in (sys.prefix, sysconfig.get_path("data"), site.getuserbase()):
        out.append(Path(base) / "share" / "hexkit-games" / "configs" / game)
    seen: list[Path] = []
    for p in out:
        if p.is_dir() and p not in seen:
            seen.append(p)
    return seen


def find_config(game: str, name: str, suffixes: tuple[str, ...] = (".yaml", ".yml")) -> Path | None:
    """The variant file ``name`` (case-insensitive, suffix optional) of a game, or None."""
    wanted = name.lower()
    for folder in config_dirs(game):
        for path in sorted(folder.iterdir()):
            if path.suffix.lower() in suffixes and (
                path.stem.lower() == wanted or path.name.lower() == wanted
            ):
                return path
    return None


def variant_names(game: str, suffixes: tuple[str, ...] = (".yaml", ".yml")) -> list[str]:
    """Names of a game's shipped variants."""
    names: set[str] = set()
    for folder in config_dirs(game):
        names.update(p.stem for p in folder.iterdir() if p.suffix.lower() in suffixes)
    return sorted(names)
