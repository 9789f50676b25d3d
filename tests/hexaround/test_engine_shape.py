"""The shape of HexAround's and Hive's engines (issue 25): no class more than two levels deep
within the two packages (the engine holds a position and a generator instead of inheriting
them), no private field written and no private method called from another module, and no
re-export hub (every module imports a name from the module that defines it)."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
from pathlib import Path

import hexaround
import hive

PACKAGES = (hexaround, hive)


def _modules() -> list[tuple[str, Path]]:
    out = []
    for package in PACKAGES:
        root = Path(package.__file__).parent
        for info in pkgutil.iter_modules([str(root)]):
            if not info.name.startswith("_"):
                out.append((f"{package.__name__}.{info.name}", root / f"{info.name}.py"))
    return out


def _ours(cls: type) -> bool:
    return cls.__module__.split(".")[0] in {p.__name__ for p in PACKAGES}


def test_no_class_is_more_than_two_levels_deep() -> None:
    deep = []
    for name, _ in _modules():
        module = importlib.import_module(name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ != name:
                continue
            chain = [c for c in cls.__mro__ if _ours(c)]
            if len(chain) > 2:
                deep.append(" -> ".join(c.__qualname__ for c in chain))
    assert not deep, deep


def _private(attr: str) -> bool:
    return attr.startswith("_") and not attr.startswith("__")


def _self_like(node: ast.expr) -> bool:
    return isinstance(node, ast.Name) and node.id in ("self", "cls")


def test_no_private_field_is_written_or_called_from_another_module() -> None:
    # Per module: the private names its own classes set on self (their own fields) and the
    # private functions and methods it defines.
    own: dict[str, set[str]] = {}
    trees = {}
    for name, path in _modules():
        tree = ast.parse(path.read_text(), str(path))
        trees[name] = tree
        names = own[name] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) \
                    and _self_like(node.value):
                names.add(node.attr)
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names.add(node.name)
            elif isinstance(node, ast.Assign):
                names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    found = []
    for name, tree in trees.items():
        for node in ast.walk(tree):
            if not isinstance(node, ast.Attribute) or not _private(node.attr):
                continue
            writes = isinstance(node.ctx, ast.Store | ast.Del)
            calls = False
            if not writes and isinstance(node.ctx, ast.Load):
                calls = any(isinstance(p, ast.Call) and p.func is node
                            for p in ast.walk(tree))
            if not (writes or calls):
                continue
            if node.attr in own[name]:
                continue  # this module's own field or helper (a copy of itself included)
            found.append(f"{name}:{node.lineno} {ast.unparse(node)}")
    # A class's private fields set from a subclass in another module.
    for name, _ in _modules():
        module = importlib.import_module(name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ != name:
                continue
            for base in cls.__mro__[1:]:
                if not _ours(base) or base.__module__ == name:
                    continue
                shared = {n for n in own[name] & own.get(base.__module__, set())
                          if _private(n) and hasattr(base, "__init__")}
                fields = shared & _instance_fields(base)
                found.extend(f"{name}: {cls.__name__} sets {base.__name__}.{f}"
                             for f in sorted(fields))
    assert not found, found


def _instance_fields(cls: type) -> set[str]:
    """Private names ``cls``'s own methods set on self."""
    tree = ast.parse(inspect.getsource(cls))
    return {n.attr for n in ast.walk(tree)
            if isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Store)
            and _self_like(n.value) and _private(n.attr)}


def test_the_engine_module_is_no_re_export_hub() -> None:
    # Every name hexaround.engine imports, it uses itself: nothing is imported only to be
    # passed on (import a name from the module that defines it).
    source = Path(importlib.import_module("hexaround.engine").__file__).read_text()
    tree = ast.parse(source)
    used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    used |= {n.value.id for n in ast.walk(tree)
             if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)}
    passed_on = [alias.asname or alias.name for node in ast.walk(tree)
                 if isinstance(node, ast.ImportFrom) and node.module != "__future__"
                 for alias in node.names if (alias.asname or alias.name) not in used]
    assert not passed_on, passed_on
    assert "re-export" not in source and "noqa: F401" not in source
