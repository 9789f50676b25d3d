"""Errors a user can cause. Each message is one line, fit to print without a traceback."""

from __future__ import annotations

import os


class HexkitError(Exception):
    """Base of every error hexkit reports to a user as one line."""


class MoveParseError(HexkitError, ValueError):
    """The text is not a move in the game's notation."""


class IllegalMoveError(HexkitError, ValueError):
    """The move is well formed but not allowed in this position. The state is unchanged."""


class UnknownGameError(HexkitError, LookupError):
    """No registered game has this name."""


class OptionError(HexkitError, ValueError):
    """A game option is unknown, malformed or out of range."""


class PluginError(HexkitError):
    """A plugin could not be loaded or registered something invalid."""


class RecordError(HexkitError, ValueError):
    """A saved game or record file is corrupt, foreign or inconsistent."""


class ConfigError(HexkitError, ValueError):
    """A configuration or data file is invalid; the message names file and line."""

    def __init__(self, message: str, path: str | os.PathLike[str] | None = None,
                 line: int | None = None):
        self.problem = message
        self.path = None if path is None else os.fspath(path)
        self.line = line
        super().__init__(self._format())

    def _format(self) -> str:
        if self.path is None:
            return self.problem
        where = self.path or "<input>"
        return f"{where}:{self.line}: {self.problem}" if self.line else f"{where}: {self.problem}"


class ConfigErrors(ConfigError):
    """Several problems found in one file, reported together (one line each)."""

    def __init__(self, errors: list[ConfigError]):
        self.errors = list(errors)
        first = self.errors[0]
        super().__init__(first.problem, first.path, first.line)

    def __str__(self) -> str:
        return "\n".join(str(e) for e in self.errors)
