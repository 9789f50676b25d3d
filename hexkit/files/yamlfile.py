"""Safe YAML reading that remembers line numbers, so config errors can say file:line.

Mappings load as :class:`LineDict` and sequences as :class:`LineList`: ordinary dicts and
lists that also know the line (1-based) where they and each of their entries start.
Syntax errors, duplicate keys and unreadable files become one-line ConfigErrors.

The reader is bounded so that no file can exhaust the machine: files larger than
:data:`hexkit.files.fileio.MAX_DATA_BYTES`, nesting deeper than :data:`MAX_DEPTH` (aliases
followed), documents that expand to more than :data:`MAX_NODES` values (alias bombs,
"billion laughs") and integers longer than :data:`MAX_DIGITS` digits are refused with
file:line.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from hexkit.errors import ConfigError
from hexkit.files.fileio import MAX_DATA_BYTES, MAX_DEPTH, MAX_DIGITS, read_text_bounded

#: Most values a document may expand to once its aliases are followed.
MAX_NODES = 250_000


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
    """The safe loader, bounded: depth while composing, expanded size before building."""

    depth = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        self.depth += 1
        try:
            if self.depth > MAX_DEPTH:
                mark = self.peek_event().start_mark  # type: ignore[no-untyped-call]
                raise ConfigError(f"nested more than {MAX_DEPTH} levels deep", self.name,
                                  mark.line + 1)
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1

    def construct_document(self, node: Any) -> Any:
        _check_expansion(node, self.name)
        return super().construct_document(node)


def _check_expansion(root: Any, name: str) -> None:
    """Refuse a node graph that, with its aliases followed, is too deep, too large or
    recursive. Iterative (no recursion), each shared node measured once."""
    size: dict[int, int] = {}
    height: dict[int, int] = {}
    on_path: set[int] = set()
    stack: list[tuple[Any, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        key = id(node)
        children = _children(node)
        if done:
            on_path.discard(key)
            size[key] = 1 + sum(size[id(c)] for c in children)
            height[key] = 1 + max((height[id(c)] for c in children), default=0)
            if size[key] > MAX_NODES:
                raise ConfigError(f"the document holds more than {MAX_NODES} values (each use "
                                  "of an alias counted)", name, node.start_mark.line + 1)
            if height[key] > MAX_DEPTH:
                raise ConfigError(f"nested more than {MAX_DEPTH} levels deep (with aliases "
                                  "followed)", name, node.start_mark.line + 1)
            continue
        if key in size:
            continue
        if key in on_path:
            raise ConfigError("an alias refers to the value that contains it", name,
                              node.start_mark.line + 1)
        on_path.add(key)
        stack.append((node, True))
        stack.extend((c, False) for c in children if id(c) not in size)


def _children(node: Any) -> list[Any]:
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    if isinstance(node, yaml.MappingNode):
        return [n for pair in node.value for n in pair]
    return []


def _construct_int(loader: _Loader, node: yaml.ScalarNode) -> int:
    text = str(node.value).replace("_", "")
    if len(text) > MAX_DIGITS:
        raise ConfigError(f"a number with {len(text)} digits is too long (at most "
                          f"{MAX_DIGITS})", loader.name, node.start_mark.line + 1)
    return yaml.SafeLoader.construct_yaml_int(loader, node)


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
_Loader.add_constructor("tag:yaml.org,2002:int", _construct_int)


def parse_yaml(text: str, path: str | Path = "<input>") -> Any:
    """Parse YAML text safely (no tags that build objects); errors name path:line."""
    loader = None
    try:
        loader = _Loader(text)  # its reader already refuses control characters
        loader.name = str(path)
        return loader.get_single_data()
    except ConfigError:
        raise
    except yaml.reader.ReaderError as exc:
        line = text.count("\n", 0, max(exc.position, 0)) + 1
        raise ConfigError(f"invalid YAML: character {exc.character:#x} is not allowed",
                          path, line) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "invalid YAML"
        raise ConfigError(f"invalid YAML: {problem}", path,
                          mark.line + 1 if mark is not None else None) from None
    except yaml.YAMLError as exc:
        raise ConfigError(f"invalid YAML: {exc}", path) from None
    except RecursionError:  # a guard only: the depth bound above comes first
        raise ConfigError(f"nested more than {MAX_DEPTH} levels deep", path) from None
    finally:
        if loader is not None:
            loader.dispose()


def load_yaml(path: str | Path, limit: int = MAX_DATA_BYTES) -> Any:
    """Read and parse a YAML file: a regular file of at most ``limit`` bytes (ConfigError
    naming the file if it cannot be read or used)."""
    return parse_yaml(read_text_bounded(path, limit), path)
