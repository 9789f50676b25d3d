"""Which files a record or scenario file may make hexkit read.

A game option can name a file (a Focus board, a Hex Baron set-up, a HexAround config).
When that option comes from a data file rather than from the user, the file it names must
lie inside the data file's own folder or an installed variants folder; anything else
(``../../secret/id_rsa``, ``/etc/passwd``) is refused before it is opened. A record also
carries the text of the files its game was built from, so that it replays anywhere.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from hexkit.errors import ConfigError
from hexkit.files.configs import config_dirs
from hexkit.files.fileio import MAX_DATA_BYTES, read_text_bounded

#: Suffixes of the files game options name (variants, set-ups, configs, AQA data files).
FILE_SUFFIXES = (".yaml", ".yml", ".hgc", ".txt", ".json")


def names_a_file(value: Any) -> bool:
    """True if an option value is a file name rather than a variant's name."""
    if not isinstance(value, str) or not value.strip():
        return False
    text = value.strip()
    return "/" in text or "\\" in text or text.lower().endswith(FILE_SUFFIXES)


def _inside(path: Path, folder: Path) -> bool:
    try:
        path.relative_to(folder)
    except ValueError:
        return False
    return True


def confine(game: str, options: Mapping[str, Any], base: Path, what: str) -> dict[str, Any]:
    """The options with every file they name resolved against ``base`` (the data file's
    folder) and checked: it must be inside ``base`` or an installed variants folder of
    ``game``. ConfigError (one line, never the file's content) otherwise."""
    out = dict(options)
    root = base.resolve()
    allowed = [root, *(d.resolve() for d in config_dirs(game))]
    for key, value in options.items():
        if not names_a_file(value):
            continue
        given = Path(os.path.expanduser(value.strip()))
        target = (given if given.is_absolute() else root / given).resolve()
        if not any(_inside(target, folder) for folder in allowed):
            raise ConfigError(f"option {key} names the file {value!r} outside the {what}'s "
                              f"folder; a {what} may only use files beside it or installed "
                              "variants")
        out[key] = str(target)
    return out


def embed(options: Mapping[str, Any]) -> dict[str, dict[str, str]]:
    """The text of each file the options name (``{option: {"name", "text"}}``), for a
    record to carry. Files that cannot be read are left out (the record still names them)."""
    files = {}
    for key, value in options.items():
        if names_a_file(value) and Path(value).is_file():
            try:
                text = read_text_bounded(value, MAX_DATA_BYTES)
            except ConfigError:
                continue
            files[key] = {"name": Path(value).name, "text": text}
    return files


def variants_only(game: str, options: Mapping[str, Any], what: str,
                  file_options: frozenset[str] = frozenset()) -> None:
    """ConfigError (one line) if an option from someone other than the operator (a web
    request, an uploaded record) names a file: such options take installed variant names
    only. ``file_options`` are the options the game marks as naming files; any other
    option whose value looks like a path is refused too."""
    from hexkit.files.configs import variant_names

    for key, value in options.items():
        if not isinstance(value, str):
            continue
        text = value.strip()
        if names_a_file(text) or (key in file_options and (text.startswith(("~", "."))
                                                          or "\0" in text)):
            names = ", ".join(variant_names(game)[:12])
            known = f" ({names})" if names else ""
            raise ConfigError(f"option {key}: {what} may name installed variants only"
                              f"{known}, not a file")


#: The longest carried file name kept (longer ones are cut, keeping the suffix).
MAX_CARRIED_NAME = 100


def carried_name(name: Any, original: Any = "") -> str:
    """A carried file's name as it is written: its last part, without path separators,
    NUL or leading dots, cut to :data:`MAX_CARRIED_NAME` characters (``file``, with the
    suffix of the option's ``original`` value, if nothing is left)."""
    text = str(name).replace("\\", "/").rsplit("/", 1)[-1]
    text = "".join(c for c in text if c.isprintable() and c != "\0").lstrip(". ")
    if len(text) > MAX_CARRIED_NAME:
        stem, dot, suffix = text.rpartition(".")
        keep = f".{suffix}" if dot and len(suffix) <= 10 else ""
        text = text[: MAX_CARRIED_NAME - len(keep)] + keep
    if not text:
        suffix = Path(str(original)).suffix
        text = "file" + (suffix if suffix.lower() in FILE_SUFFIXES else "")
    return text


@contextlib.contextmanager
def carried_files(files: Mapping[str, Mapping[str, str]],
                  options: Mapping[str, Any] | None = None
                  ) -> Iterator[tuple[dict[str, str], dict[str, str]]]:
    """Write a record's carried files to a private folder of their own, removed when the
    ``with`` block ends (the game has been built, or refused), so that the game can read
    them.

    Yields the option values to use, and a map from each written path to how messages
    should name it (``NAME (carried by the record)``), since a user never saw those paths."""
    folder = Path(tempfile.mkdtemp(prefix="hexkit-record-"))
    try:
        values: dict[str, str] = {}
        shown: dict[str, str] = {}
        for number, (key, entry) in enumerate(files.items()):
            name = carried_name(entry.get("name", "file"), (options or {}).get(key, ""))
            place = folder / str(number)
            place.mkdir()
            path = place / name
            path.write_text(str(entry.get("text", "")), encoding="utf-8")
            values[key] = str(path)
            shown[str(path)] = f"{name} (carried by the record)"
            shown[str(place)] = "(carried by the record)"
        yield values, shown
    finally:
        shutil.rmtree(folder, ignore_errors=True)
