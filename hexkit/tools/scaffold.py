"""``hexkit new-plugin NAME``: write a ready-to-install game plugin package to start from.

The package is a copy of the files in ``hexkit/templates/plugin`` (a working plugin of its
own, the game ``newgame``, checked by ruff and by hexkit's tests), with ``newgame`` and
``Newgame`` replaced by the new name: a small complete game (three in a row on a hexagon of
hexes) written with the seven members the state kit asks for, its ``pyproject.toml`` with
the ``hexkit`` entry point, a test that runs :func:`hexkit.testing.check_game` plus two rule
tests, and a scenario file for ``hexkit check``. After ``pip install -e NAME`` the game
appears in ``hexkit games`` and ``pytest`` passes in the new folder.
"""

from __future__ import annotations

import importlib.util
import keyword
import re
import sys
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path

from hexkit import plugins
from hexkit.errors import HexkitError

NAME_PATTERN = re.compile(r"[a-z][a-z0-9_]{0,39}")
#: The template's game and package name, and its class-name prefix.
TEMPLATE_NAME, TEMPLATE_CLASS = "newgame", "Newgame"


def check_name(name: str) -> None:
    """HexkitError (one line) unless ``name`` can be a new game and Python package."""
    if not NAME_PATTERN.fullmatch(name):
        raise HexkitError(
            f"plugin name {name!r} must be lower case letters, digits and _, starting with a "
            "letter (it is the game's name and its Python package's name)"
        )
    if keyword.iskeyword(name) or name in sys.stdlib_module_names or name == "hexkit":
        raise HexkitError(f"plugin name {name!r} is taken by Python itself; choose another")
    if name in plugins.registry().games:
        raise HexkitError(f"a game named {name!r} is already installed; choose another name")
    spec = importlib.util.find_spec(name)
    # A plain folder of that name in the working directory is a namespace package: fine.
    if spec is not None and spec.origin not in (None, "namespace"):
        raise HexkitError(f"a Python package named {name!r} is already installed; "
                          "choose another name")


def write_plugin(name: str, parent: Path) -> Path:
    """Create ``parent/name/`` with the plugin package; returns the folder."""
    target = parent / name
    if NAME_PATTERN.fullmatch(name) and target.exists():
        raise HexkitError(f"{target} already exists; remove it or choose another name")
    check_name(name)
    if not parent.is_dir():
        raise HexkitError(f"{parent} is not a folder")
    class_name = "".join(part.capitalize() for part in name.split("_") if part) or "Game"
    written = {
        relative.replace(TEMPLATE_NAME, name):
            text.replace(TEMPLATE_NAME, name).replace(TEMPLATE_CLASS, class_name)
        for relative, text in template_files().items()
    }
    target.mkdir()
    for relative, text in written.items():
        path = target / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return target


def template_files() -> dict[str, str]:
    """The template plugin's files: relative path (with ``/``) -> text."""
    found: dict[str, str] = {}

    def walk(folder: Traversable, prefix: str) -> None:
        for entry in folder.iterdir():
            if entry.name == "__pycache__" or entry.name.startswith("."):
                continue
            if entry.is_dir():
                walk(entry, f"{prefix}{entry.name}/")
            else:
                found[prefix + entry.name] = entry.read_text(encoding="utf-8")

    walk(files("hexkit") / "templates" / "plugin", "")
    return found
