"""Safe YAML reading that remembers line numbers, so config errors can say file:line.

Mappings load as :class:`LineDict` and sequences as :class:`LineList`: ordinary dicts and
lists that also know the line (1-based) where they and each of their entries start.
Syntax errors, duplicate keys and unreadable files become one-line ConfigErrors.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from hexkit.errors import ConfigError


class LineDict(dict):  # type: ignore[type-arg]
    """A dict with ``line`` (where it starts) and ``lines[key]`` (where each key is)."""

    line: int = 0
    lines: dict[Any, int]

    def line_of(self, key: Any) -> int:
        """Line of a key, or of the mapping itself if the key is absent."""
        return self.lines.get(key, self.line)


class LineList(list):  # type: ignore[type-arg]
    """A list with ``line`` and ``lines[i]`` for each item."""

    line: int = 0
    lines: list[int]


class _Loader(yaml.SafeLoader):
    pass


def _construct_mapping(loader: _Loader, node: yaml.MappingNode) -> LineDict:
    loader.flatten_mapping(node)
    out = LineDict()
    out.line = node.start_mark.line + 1
    out.lines = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        try:
            hash(key)
        except TypeError:
            raise ConfigError(
                "a mapping key must be a plain value", loader.name, key_node.start_mark.line + 1
            ) from None
        if key in out:
            raise ConfigError(f"duplicate key {key!r}", loader.name, key_node.start_mark.line + 1)
        out[key] = loader.construct_object(value_node, deep=True)
        out.lines[key] = key_node.start_mark.line + 1
    return out


def _construct_sequence(loader: _Loader, node: yaml.SequenceNode) -> LineList:
    out = LineList(loader.construct_object(child, deep=True) for child in node.value)
    out.line = node.start_mark.line + 1
    out.lines = [child.start_mark.line + 1 for child in node.value]
    return out


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _construct_sequence)


def parse_yaml(text: str, path: str | Path = "<input>") -> Any:
    """Parse YAML text safely (no tags that build objects); errors name path:line."""
    loader = _Loader(text)
    loader.name = str(path)
    try:
        return loader.get_single_data()
    except ConfigError:
        raise
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        problem = exc.problem or exc.context or "invalid YAML"
        raise ConfigError(f"invalid YAML: {problem}", path, line) from None
    except yaml.YAMLError as exc:
        raise ConfigError(f"invalid YAML: {exc}", path) from None
    finally:
        loader.dispose()


def load_yaml(path: str | Path) -> Any:
    """Read and parse a YAML file (ConfigError naming the file if it cannot be read)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ConfigError("not a text file (UTF-8 expected)", path) from None
    except OSError as exc:
        raise ConfigError(f"cannot read file: {exc.strerror or exc}", path) from None
    return parse_yaml(text, path)
