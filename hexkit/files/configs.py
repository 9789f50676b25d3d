"""Where game variants live (``configs/<game>/NAME.yaml`` in the checkout, an installed
copy, or a file the user names), found in one place for every game."""

from __future__ import annotations

import os
import site
import sys
import sysconfig
from collections.abc import Iterable
from pathlib import Path

from hexkit.errors import OptionError

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
    out.append(Path(__file__).resolve().parents[2] / "configs" / game)
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


def looks_like_path(value: str, suffixes: Iterable[str] = (".yaml", ".yml")) -> bool:
    """True if an option's value names a file rather than a variant: it has a folder part
    or one of the variant files' suffixes."""
    return "/" in value or "\\" in value or value.lower().endswith(tuple(suffixes))


def resolve_variant(
    game: str,
    value: str,
    *,
    option: str,
    what: str = "variant",
    suffixes: tuple[str, ...] = (".yaml", ".yml"),
    also_known: Iterable[str] = (),
    unknown: str = "unknown {game} {what} {name!r}",
) -> Path | None:
    """The file an option names: a shipped variant of ``game`` (by name, case-insensitive),
    or a file path. Returns None for a name that is no shipped variant but is in
    ``also_known`` (names the game resolves itself, e.g. set-ups registered by extensions).

    OptionError (one line) for an empty value, a missing file, or an unknown name (worded
    by ``unknown``, a format string with ``{game}``, ``{what}`` and ``{name}``, followed by
    the known names).
    """
    text = value.strip()
    if not text:
        raise OptionError(f"option {option}: give a {what} name or a file")
    if looks_like_path(text, suffixes):
        path = Path(text).expanduser()
        if not path.is_file():
            raise OptionError(f"option {option}: no {what} file {text!r}")
        return path
    found = find_config(game, text, suffixes)
    if found is not None:
        return found
    extra = {name.lower() for name in also_known}
    if text.lower() in extra:
        return None
    path = Path(text)
    if path.is_file():
        return path
    known = ", ".join(sorted({*variant_names(game, suffixes), *also_known})) or "none installed"
    problem = unknown.format(game=game, what=what, name=text)
    raise OptionError(f"option {option}: {problem} (known: {known}; or give a file)")
