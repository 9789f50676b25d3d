"""What a configuration reader found, with the line of every item, before validation
(:func:`hexaround.config.validate`). Both readers (YAML in :mod:`hexaround.config`, the
course's ``.hgc`` in :mod:`hexaround.hgc`) produce a :class:`RawConfig`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hexkit.errors import ConfigError


@dataclass
class RawCreature:
    """A creature definition as written, with lines."""

    name: Any
    line: int
    max_distance: Any = None
    distance_line: int = 0
    #: (property as written, line) pairs; None if the definition has no usable list.
    properties: list[tuple[Any, int]] | None = None


@dataclass
class RawPlayer:
    """A player's stock as written: (creature, count, line) entries."""

    name: Any
    line: int
    #: None when the stock could not be read (the reader reported why).
    stock: list[tuple[Any, Any, int]] | None = field(default_factory=list)


@dataclass
class RawConfig:
    """What a reader found, before validation. ``errors`` are the reader's own findings."""

    path: str
    creatures: list[RawCreature] = field(default_factory=list)
    players: list[RawPlayer] = field(default_factory=list)
    rules: list[tuple[Any, Any, int]] = field(default_factory=list)
    errors: list[ConfigError] = field(default_factory=list)
    #: The file's shape is so wrong that only the reader's errors are worth reporting.
    structural: bool = False
    #: Where "no creatures" / "no players" problems are reported.
    creatures_line: int = 1
    players_line: int = 1
    has_creatures: bool = True
    #: The file ends inside a comment: nothing after it was read.
    truncated: bool = False
    #: A section was unusable and the reader already said why.
    creatures_reported: bool = False
    players_reported: bool = False

    def error(self, line: int | None, message: str) -> None:
        """Record one problem."""
        self.errors.append(ConfigError(message, self.path, line))


