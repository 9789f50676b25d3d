"""Bounded JSON reading for records and position files: a regular file of bounded size,
nesting at most :data:`MAX_DEPTH` deep, integers of at most :data:`MAX_DIGITS` digits, no
NaN or Infinity. Every problem is one ConfigError naming file:line, never quoting content."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable
from typing import Any

from hexkit.errors import ConfigError
from hexkit.files.fileio import MAX_DEPTH, MAX_DIGITS, MAX_RECORD_BYTES, read_text_bounded

_LONG_NUMBER = re.compile(r"\d{" + str(MAX_DIGITS + 1) + ",}")


class _Refused(Exception):
    def __init__(self, problem: str):
        self.problem = problem


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise _Refused(f"a number with {len(text.lstrip('-'))} digits is too long "
                       f"(at most {MAX_DIGITS})")
    return int(text)


def _parse_float(text: str) -> float:
    if len(text) > MAX_DIGITS * 4:
        raise _Refused(f"a number of {len(text)} characters is too long")
    return float(text)


def _parse_constant(text: str) -> Any:
    raise _Refused(f"{text} is not a JSON number")


def _line_of(text: str, pattern: re.Pattern[str]) -> int | None:
    found = pattern.search(text)
    return None if found is None else text.count("\n", 0, found.start()) + 1


def parse_json(text: str, path: str | os.PathLike[str] = "<input>") -> Any:
    """Parse JSON text with the bounds above (ConfigError naming ``path`` and the line)."""
    try:
        data = json.loads(text, parse_int=_parse_int, parse_float=_parse_float,
                          parse_constant=_parse_constant)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"invalid JSON: {exc.msg}", path, exc.lineno) from None
    except _Refused as exc:
        raise ConfigError(exc.problem, path, _line_of(text, _LONG_NUMBER)) from None
    except RecursionError:
        raise ConfigError(f"nested more than {MAX_DEPTH} levels deep", path) from None
    _check_depth(data, path)
    return data


def load_json(path: str | os.PathLike[str], limit: int = MAX_RECORD_BYTES) -> Any:
    """Read and parse a JSON file: a regular file of at most ``limit`` bytes."""
    return parse_json(read_text_bounded(path, limit), path)


def _check_depth(data: Any, path: str | os.PathLike[str]) -> None:
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        children: Iterable[Any]
        if isinstance(value, dict):
            children = value.values()
        elif isinstance(value, list):
            children = value
        else:
            continue
        if depth > MAX_DEPTH:
            raise ConfigError(f"nested more than {MAX_DEPTH} levels deep", path)
        stack.extend((child, depth + 1) for child in children)
