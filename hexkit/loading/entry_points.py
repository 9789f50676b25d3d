"""Entry points of installed distributions, read without :mod:`importlib.metadata`.

Every ``hexkit`` command starts by discovering plugins, and ``importlib.metadata`` costs
about as much CPU as the rest of start-up together (it imports email, zipfile, csv...).
Installed distributions are plain folders (``*.dist-info`` / ``*.egg-info``) on
``sys.path``, each with an ``entry_points.txt`` in INI form, so they are read directly
here, with the same rules as ``importlib.metadata.entry_points()``: path order, and the
first distribution of a name wins. Where that reading might miss something (a zip file on
``sys.path``, an import hook that finds distributions of its own) this falls back to
``importlib.metadata``.
"""

from __future__ import annotations

import os
import sys
from typing import Any

_SUFFIXES = (".dist-info", ".egg-info")


class Distribution:
    """The installed distribution an entry point comes from: its name and version (the
    attributes of ``importlib.metadata.Distribution`` that plugin loading reads)."""

    __slots__ = ("name", "version")

    def __init__(self, name: str, version: str) -> None:
        self.name = name
        self.version = version

    def __repr__(self) -> str:
        return f"Distribution({self.name!r}, {self.version!r})"


class EntryPoint:
    """One entry point: ``name = value`` in ``group``, from the distribution ``dist``; the
    attributes and ``load()`` of ``importlib.metadata.EntryPoint``.

    (Plain classes: dataclasses would cost more to define than this module saves.)"""

    __slots__ = ("name", "value", "group", "dist")

    def __init__(self, name: str, value: str, group: str, dist: Distribution | None = None):
        self.name = name
        self.value = value
        self.group = group
        self.dist = dist

    def __repr__(self) -> str:
        return f"EntryPoint(name={self.name!r}, value={self.value!r}, group={self.group!r})"

    def load(self) -> Any:
        """Import the module the value names (and the attribute after ``:``, if any)."""
        import importlib

        module_name, _, attribute = self.value.partition(":")
        attribute = attribute.split("[", 1)[0].strip()  # drop ``[extras]``
        found: Any = importlib.import_module(module_name.strip())
        for part in filter(None, attribute.split(".")):
            found = getattr(found, part)
        return found


def entry_points(*, group: str) -> list[EntryPoint]:
    """The entry points of ``group`` of every distribution on ``sys.path``, as
    ``importlib.metadata.entry_points(group=group)`` lists them."""
    if not _plain_folders_suffice():
        return _from_importlib_metadata(group)
    seen: set[str] = set()
    found: list[EntryPoint] = []
    for entry in sys.path:
        folder = entry or "."
        try:
            names = sorted(os.listdir(folder))
        except OSError:
            continue
        for child in names:
            if not child.lower().endswith(_SUFFIXES):
                continue
            dist_name, version = _name_and_version(child)
            key = _normalise(dist_name)
            if key in seen:
                continue
            seen.add(key)
            path = os.path.join(folder, child)
            text = _read(os.path.join(path, "entry_points.txt"))
            if not text:
                continue
            points = _parse(text, group)
            if not points:
                continue
            headers = _metadata_headers(path)
            dist = Distribution(headers.get("name", dist_name), headers.get("version", version))
            found.extend(EntryPoint(n, v, group, dist) for n, v in points)
    return found


def _plain_folders_suffice() -> bool:
    """True when every distribution is a folder on a ``sys.path`` folder: no zip files on
    the path and no import hook other than the standard path finder that finds
    distributions (``importlib.metadata`` asks every finder for them)."""
    from importlib.machinery import PathFinder

    for finder in sys.meta_path:
        if finder is not PathFinder and hasattr(finder, "find_distributions"):
            return False
    return not any(os.path.isfile(entry) for entry in sys.path if entry)


def _from_importlib_metadata(group: str) -> list[EntryPoint]:
    from importlib.metadata import entry_points as metadata_entry_points

    found = []
    for ep in metadata_entry_points(group=group):
        dist = getattr(ep, "dist", None)
        found.append(EntryPoint(ep.name, ep.value, group, None if dist is None else
                                Distribution(dist.name, dist.version)))
    return found


def _name_and_version(folder_name: str) -> tuple[str, str]:
    """``hexkit_games-0.1.0.dist-info`` -> ``("hexkit_games", "0.1.0")``; egg-info folders
    may carry no version (``name.egg-info``) or a Python tag (``name-1.0-py3.11.egg-info``)."""
    stem = folder_name.rsplit(".", 1)[0]
    name, _, rest = stem.partition("-")
    version = rest.split("-", 1)[0]
    return name, version


def _normalise(name: str) -> str:
    """The distribution name as ``importlib.metadata`` compares them (PEP 503)."""
    out = []
    previous_dash = False
    for ch in name.lower():
        if ch in "-_.":
            if not previous_dash:
                out.append("_")
            previous_dash = True
        else:
            out.append(ch)
            previous_dash = False
    return "".join(out)


def _read(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except (OSError, UnicodeDecodeError):
        return ""


def _parse(text: str, group: str) -> list[tuple[str, str]]:
    """The ``name = value`` lines of section ``[group]`` of an ``entry_points.txt``."""
    points = []
    section = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1].strip()
            continue
        if section != group:
            continue
        name, eq, value = line.partition("=")
        if eq and name.strip() and value.strip():
            points.append((name.strip(), value.strip()))
    return points


def _metadata_headers(dist_folder: str) -> dict[str, str]:
    """The ``Name`` and ``Version`` headers of a distribution's METADATA (or PKG-INFO),
    by lower-case key (only those present)."""
    found: dict[str, str] = {}
    for name in ("METADATA", "PKG-INFO"):
        text = _read(os.path.join(dist_folder, name))
        for line in text.splitlines():
            if not line.strip():
                break
            key, _, value = line.partition(":")
            key = key.strip().lower()
            if key in ("name", "version") and key not in found:
                found[key] = value.strip()
        if found:
            break
    return found
