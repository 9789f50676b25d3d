"""No import cycles: the module-level import graph of hexkit, the game plugins (plugins/*)
and the examples (examples/*) has no cycle.

Every import statement counts, wherever it is: at the top of a module, inside a function
(a deferred import is still a dependency), and under ``if TYPE_CHECKING:`` (a type named
from another module is a dependency on it). A module that must mention a type from a module
that imports it names a more general type instead (the core's ``State``, for instance).

Importing a submodule first runs its packages' ``__init__`` files, so a module depends on
every package above it: ``hexkit.bots.policy`` on ``hexkit.bots``, whose ``__init__`` may
import more. A package's ``__init__`` may import its own submodules (a facade: Python runs
the package first, then the submodule it asks for); any other way back into a package is a
loop.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def package_roots() -> Iterator[tuple[Path, Path]]:
    """(folder that holds top-level packages, a package folder) for every package."""
    yield ROOT, ROOT / "hexkit"
    for folder in sorted((ROOT / "plugins").iterdir()):
        if (folder / "__init__.py").is_file():
            yield ROOT / "plugins", folder
    for project in sorted((ROOT / "examples").iterdir()):
        if project.is_dir():
            for folder in sorted(project.iterdir()):
                if (folder / "__init__.py").is_file():
                    yield project, folder


def modules() -> dict[str, Path]:
    """Dotted module name -> file, for every module of every package."""
    found: dict[str, Path] = {}
    for base, package in package_roots():
        for path in package.rglob("*.py"):
            if "templates" in path.relative_to(package).parts:
                continue  # file templates for new plugins, not modules of the package
            parts = list(path.relative_to(base).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def imports_of(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The known modules that ``name`` imports, anywhere in its source."""
    is_package = path.name == "__init__.py"
    out: set[str] = set()

    def known_prefix(dotted: str) -> str | None:
        parts = dotted.split(".")
        while parts:
            candidate = ".".join(parts)
            if candidate in known:
                return candidate
            parts.pop()
        return None

    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                target = known_prefix(alias.name)
                if target:
                    out.add(target)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                here = name.split(".") if is_package else name.split(".")[:-1]
                here = here[: len(here) - (node.level - 1)]
                base = ".".join([*here, node.module] if node.module else here)
            else:
                base = node.module or ""
            for alias in node.names:
                target = known_prefix(f"{base}.{alias.name}") or known_prefix(base)
                if target:
                    out.add(target)
    out.discard(name)
    return out


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def with_packages(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """``graph`` with the edges Python's import adds: a module depends on each package above
    it (their ``__init__`` runs first); a package's imports of its own submodules are its
    facade, not a way back into it, and are left out."""
    out: dict[str, set[str]] = {}
    for name, targets in graph.items():
        parts = name.split(".")
        parents = {".".join(parts[:i]) for i in range(1, len(parts))} & graph.keys()
        out[name] = {t for t in targets | parents if not t.startswith(name + ".")}
    return out


@functools.cache
def import_graph() -> dict[str, set[str]]:
    """Every module's imports (parsed once for the three tests that read it)."""
    known = modules()
    return with_packages({name: imports_of(name, path, known) for name, path in known.items()})


def test_the_graph_covers_the_core_the_games_and_the_examples():
    graph = import_graph()
    for module in ("hexkit.game", "hexbaron.game", "focus.game", "hexaround.game",
                   "hexconnection.game", "hexbaron_miner.plugin"):
        assert module in graph, module
    assert "hexbaron.catalogue" in graph["hexbaron.game"] or any(
        "hexbaron.catalogue" in graph[m] for m in graph["hexbaron.game"])


def test_the_cycle_finder_finds_a_cycle_through_a_deferred_import():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]


def test_a_loop_through_a_package_init_is_found():
    # plugins imports bots.policy; importing it runs bots/__init__, which imports plugins.
    graph = with_packages({"hexkit": set(), "hexkit.plugins": {"hexkit.bots.policy"},
                           "hexkit.bots": {"hexkit.plugins"}, "hexkit.bots.policy": set()})
    assert cycles(graph) == [["hexkit.bots", "hexkit.bots.policy", "hexkit.plugins"]]


def test_a_package_init_may_import_its_own_submodules():
    graph = with_packages({"pkg": {"pkg.a", "pkg.b"}, "pkg.a": {"pkg.b"}, "pkg.b": set()})
    assert cycles(graph) == []


def _report(found: list[list[str]]) -> str:
    return "import cycles: " + "; ".join(" <-> ".join(c) for c in found)


def test_there_are_no_import_cycles_outside_hexaround():
    found = [c for c in cycles(import_graph()) if not all(m.startswith("hexaround") for m in c)]
    assert found == [], _report(found)


def test_hexaround_has_no_import_cycles():
    found = [c for c in cycles(import_graph()) if any(m.startswith("hexaround") for m in c)]
    assert found == [], _report(found)
