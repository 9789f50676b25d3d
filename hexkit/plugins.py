"""All plugin loading policy: built-ins, entry points, a plugins folder, and the checks.

Loading never raises for one bad plugin: a plugin that fails to import, implements an
unknown hook or registers a game name that is already taken is recorded as a one-line
:class:`Problem` and left out, and everything else keeps working.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Callable, Container, Iterable
from dataclasses import dataclass, field, replace
from types import ModuleType
from typing import TYPE_CHECKING, Any

import pluggy

from hexkit import hookspecs
from hexkit.errors import HexkitError, OptionError, PluginError, UnknownGameError
from hexkit.game import Game, GameSpec
from hexkit.loading.entry_points import entry_points

if TYPE_CHECKING:
    from pathlib import Path

#: The entry-point group through which games and extensions are discovered.
ENTRY_POINT_GROUP = "hexkit"
#: Environment variable naming plugin folders (separated like PATH).
PLUGINS_DIR_ENV = "HEXKIT_PLUGINS_DIR"
#: Seconds a plugins folder's module may take to import.
IMPORT_DEADLINE = 30.0
#: Core modules that are plugins like any other (services: commands, bots).
BUILTIN_PLUGINS = ("hexkit.builtins",)


@dataclass(frozen=True)
class Problem:
    """One plugin that could not be used, and why (one line)."""

    plugin: str
    message: str

    def __str__(self) -> str:
        return f"plugin {self.plugin}: {self.message}"


@dataclass(frozen=True)
class PluginInfo:
    """A loaded plugin: its name, where it came from and its version."""

    name: str
    source: str  # "builtin", "entry point", or the file path
    version: str = ""
    games: tuple[str, ...] = ()


@dataclass
class Registry:
    """What the plugins registered: games, bots and CLI commands, keyed by name."""

    pm: pluggy.PluginManager
    plugins: list[PluginInfo] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    games: dict[str, GameSpec] = field(default_factory=dict)
    bots: dict[str, Any] = field(default_factory=dict)
    commands: dict[str, Any] = field(default_factory=dict)
    #: MCTS playout policies by game name (:class:`hexkit.bots.policy.PlayoutPolicy`).
    policies: dict[str, Any] = field(default_factory=dict)
    #: Kinds of submission for ``hexkit grade`` (:class:`hexkit.grading.KindSpec`).
    grading_kinds: dict[str, Any] = field(default_factory=dict)
    #: Names of the plugins found in plugins folders, loaded or not (``problems`` says why
    #: one was not).
    from_folders: set[str] = field(default_factory=set)
    #: The plugins loaded from plugins folders (the plugins under test of ``hexkit check``).
    under_test: set[str] = field(default_factory=set)

    # -- games ---------------------------------------------------------------------------
    def game_spec(self, name: str) -> GameSpec:
        """The spec registered under ``name`` (UnknownGameError with a suggestion if none)."""
        try:
            return self.games[name]
        except KeyError:
            raise UnknownGameError(unknown_message("game", name, self.games)) from None

    def load_game(self, name: str, **options: Any) -> Game:
        """Build a game from ``name`` or ``name(key=value,...)`` plus keyword options."""
        base, inline = parse_game_string(name)
        spec = self.game_spec(base)
        merged = {**inline, **options}
        return spec.make_game(merged)


def _what(exc: BaseException) -> str:
    """``ValueError: bad value``, or just ``KeyboardInterrupt`` when it says nothing."""
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def unknown_message(kind: str, name: str, known: Iterable[str]) -> str:
    """``unknown game 'x'; did you mean 'y'?`` (or the list of known names)."""
    from hexkit.suggest import closest

    known = sorted(known)
    close = closest(name, known)
    if close is not None:
        return f"unknown {kind} '{name}'; did you mean '{close}'?"
    listing = ", ".join(known) if known else "none installed"
    return f"unknown {kind} '{name}' (known: {listing})"


def parse_game_string(text: str) -> tuple[str, dict[str, str]]:
    """Split ``focus(board=cross,players=4)`` into ``("focus", {"board": "cross", ...})``."""
    text = text.strip()
    if "(" not in text:
        if not text or ")" in text or "=" in text or "," in text:
            raise OptionError(f"cannot read game name {text!r}")
        return text, {}
    if not text.endswith(")"):
        raise OptionError(f"cannot read game {text!r}: expected name(key=value,...)")
    name, _, inner = text[:-1].partition("(")
    name = name.strip()
    if not name:
        raise OptionError(f"cannot read game {text!r}: the name is missing")
    options: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in inner.split(","))):
        key, eq, value = part.partition("=")
        if not eq or not key.strip():
            raise OptionError(f"cannot read option {part!r} in {text!r}: expected key=value")
        options[key.strip()] = value.strip()
    return name, options


def parse_option_pairs(pairs: Iterable[str]) -> dict[str, str]:
    """``["key=value", ...]`` from ``-o`` flags into a dict (OptionError if malformed)."""
    out: dict[str, str] = {}
    for pair in pairs:
        key, eq, value = pair.partition("=")
        if not eq or not key.strip():
            raise OptionError(f"cannot read option {pair!r}: expected key=value")
        out[key.strip()] = value.strip()
    return out


class _Loader:
    """Builds one Registry. Kept apart so tests can build registries from chosen sources."""

    def __init__(self) -> None:
        self.pm = pluggy.PluginManager("hexkit")
        self.pm.add_hookspecs(hookspecs)
        self.registry = Registry(self.pm)
        self._sources: dict[str, tuple[str, str]] = {}
        self._dists: dict[str, str] = {}
        #: Plugins loaded from plugins folders (the plugins under test of ``hexkit check``).
        self._under_test = self.registry.under_test
        #: Top-level packages that a plugins folder provides (installed ones are skipped).
        self._shadowed: set[str] = set()
        #: True: plugins under test rank before installed plugins, and an installed game
        #: of the same name gives way to theirs (``hexkit check``).
        self.prefer_under_test = False

    def add(self, plugin: ModuleType | object, name: str, source: str, version: str = "") -> bool:
        try:
            self.pm.register(plugin, name=name)
        except _PLUGIN_FAILURES as exc:  # pluggy raises ValueError or PluginValidationError
            self.registry.problems.append(Problem(name, f"cannot be registered: {exc}"))
            return False
        self._sources[name] = (source, version)
        return True

    def add_builtins(self) -> None:
        for modname in BUILTIN_PLUGINS:
            self.add(importlib.import_module(modname), modname, "builtin")

    def add_entry_points(self) -> None:
        for ep in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
            if str(ep.value).split(":")[0].split(".")[0] in self._shadowed:
                continue
            dist = getattr(ep, "dist", None)
            version = dist.version if dist is not None else ""
            if dist is not None:
                name = str(getattr(dist, "name", "") or "")
                self._dists[ep.name] = name.lower().replace("_", "-")
            try:
                plugin = ep.load()
            except _PLUGIN_FAILURES as exc:
                self.registry.problems.append(
                    Problem(ep.name, f"failed to import {ep.value}: {_what(exc)}")
                )
                continue
            self.add(plugin, ep.name, "entry point", version)

    def add_directory(self, folder: Path) -> None:
        """Every plugin in a plugins folder (see :func:`folder_plugins` for the forms)."""
        if not folder.is_dir():
            self.registry.problems.append(
                Problem(str(folder), "plugins folder does not exist")
            )
            return
        for found in folder_plugins(folder):
            self.registry.from_folders.add(found.name)
            if found.problem:
                self.registry.problems.append(Problem(found.name, found.problem))
                continue
            from hexkit.loading.deadline import call_deadline

            try:
                # A plugin file that loops or calls os._exit when imported must not hang
                # or silently end every command: it is reported like any broken plugin.
                with call_deadline(IMPORT_DEADLINE, f"importing {found.path}"):
                    module = found.load()
            except _PLUGIN_FAILURES as exc:
                self.registry.problems.append(
                    Problem(found.name, f"failed to import {found.path}: {_what(exc)}")
                )
                continue
            if self.add(module, found.name, str(found.path)):
                self._under_test.add(found.name)

    def skip_shadowed_entry_points(self, folders: Iterable[Path]) -> None:
        """Leave out installed plugins whose package a plugins folder provides: the
        folder's package of that name takes their place (an import of the name would find
        one or the other, never both)."""
        for folder in folders:
            if folder.is_dir():
                self._shadowed |= {p.package for p in folder_plugins(folder) if p.package}

    def finish(self) -> Registry:
        pm, reg = self.pm, self.registry
        self._call_each("hexkit_add_hookspecs", lambda: {"pluginmanager": pm})
        self._check_pending()
        self._call_each("hexkit_register_games", lambda: {"register": self._game_registrar})
        self._call_each("hexkit_register_bots", lambda: {"register": self._named(reg.bots, "bot")})
        self._call_each(
            "hexkit_register_commands", lambda: {"register": self._named(reg.commands, "command")}
        )
        self._call_each(
            "hexkit_register_playout_policies", lambda: {"register": self._policy_registrar}
        )
        self._call_each("hexkit_register_grading_kinds",
                        lambda: {"register": self._named(reg.grading_kinds, "grading kind")})
        for name, (source, version) in self._sources.items():
            if pm.is_registered(pm.get_plugin(name)):
                games = tuple(g for g, s in reg.games.items() if s.plugin == name)
                reg.plugins.append(PluginInfo(name, source, version, games))
        return reg

    # Each plugin's hook is called on its own, so one plugin's exception names that plugin
    # and leaves the others' registrations in place.
    # Built-in plugins register first, whatever a plugin's tryfirst/trylast says, so a
    # plugin folder can never take a built-in game's (or command's) name: the later one is
    # the intruder, and it is the one reported.
    def _rank(self, plugin_name: str) -> int:
        source, _version = self._sources.get(plugin_name, ("", ""))
        if source == "builtin":
            return 0
        if self.prefer_under_test and plugin_name in self._under_test:
            return 1
        if source == "entry point":
            return 2 if self._dists.get(plugin_name) == OWN_DISTRIBUTION else 3
        return 4

    def _call_each(self, hook_name: str, kwargs_factory: Any) -> None:
        impls = list(getattr(self.pm.hook, hook_name).get_hookimpls())
        impls.sort(key=lambda impl: self._rank(impl.plugin_name))
        for impl in impls:
            if self.pm.get_plugin(impl.plugin_name) is None:
                continue  # dropped by an earlier hook
            self._current = impl.plugin_name
            try:
                impl.function(**kwargs_factory())
            except _GiveWay:
                self._drop(impl.plugin_name)
            except PluginError as exc:
                self.registry.problems.append(Problem(impl.plugin_name, str(exc)))
                self._drop(impl.plugin_name)
            except _PLUGIN_FAILURES as exc:
                self.registry.problems.append(
                    Problem(impl.plugin_name, f"{hook_name} failed: {_what(exc)}")
                )
                self._drop(impl.plugin_name)

    def _drop(self, plugin_name: str) -> None:
        plugin = self.pm.get_plugin(plugin_name)
        if plugin is not None:
            self.pm.unregister(plugin)
        reg = self.registry
        for table in (reg.games, reg.bots, reg.commands, reg.policies, reg.grading_kinds):
            for key in [k for k, v in table.items() if getattr(v, "plugin", None) == plugin_name]:
                del table[key]

    def _check_pending(self) -> None:
        known = [
            n for n in dir(self.pm.hook)
            if not n.startswith("_") and getattr(self.pm.hook, n).has_spec()
        ]
        for name, plugin in list(self.pm.list_name_plugin()):
            for impl_name in self._pending_hooks(plugin):
                from hexkit.suggest import hint

                self.registry.problems.append(Problem(
                    name, f"implements unknown hook '{impl_name}'{hint(impl_name, known)}"))
                self.pm.unregister(plugin)
                break

    def _pending_hooks(self, plugin: object) -> list[str]:
        pending = []
        for hook_name in dir(self.pm.hook):
            if hook_name.startswith("_"):
                continue
            caller = getattr(self.pm.hook, hook_name)
            if not isinstance(caller, pluggy.HookCaller) or caller.has_spec():
                continue
            for impl in caller.get_hookimpls():
                if impl.plugin is plugin and not impl.optionalhook:
                    pending.append(hook_name)
        return pending

    def _game_registrar(self, spec: GameSpec) -> None:
        if not isinstance(spec, GameSpec):
            raise PluginError(f"registered {type(spec).__name__}, not a GameSpec")
        problem = spec_problem(spec)
        if problem:
            raise PluginError(f"game {str(spec.name)[:40]!r}: {problem}")
        owner = self._current
        source, version = self._sources.get(owner, ("", ""))
        existing = self.registry.games.get(spec.name)
        if existing is not None and self.prefer_under_test and existing.plugin in \
                self._under_test and owner not in self._under_test:
            raise _GiveWay  # the plugin under test provides this game in its place
        if existing is not None:
            raise PluginError(
                f"game name '{spec.name}' is already registered by plugin "
                f"'{existing.plugin}'; plugin '{owner}' cannot register it again"
            )
        self.registry.games[spec.name] = replace(spec, plugin=owner, plugin_version=version,
                                                 plugin_manager=self.pm)

    def _policy_registrar(self, policy: Any) -> None:
        from hexkit.spec import PlayoutPolicy

        if not isinstance(policy, PlayoutPolicy):
            raise PluginError(f"registered {type(policy).__name__}, not a PlayoutPolicy")
        from hexkit.spec import check_levels

        problem = check_levels(policy.levels)
        if problem:
            raise PluginError(f"playout policy for game '{str(policy.game)[:40]}': {problem}")
        existing = self.registry.policies.get(policy.game)
        if existing is not None:
            raise PluginError(f"a playout policy for game '{policy.game}' is already "
                              f"registered by plugin '{existing.plugin}'")
        self.registry.policies[policy.game] = replace(policy, plugin=self._current)

    def _named(self, table: dict[str, Any], kind: str) -> Any:
        def register(item: Any) -> None:
            name = item.name
            if name in table:
                raise PluginError(f"{kind} name '{name}' is already registered")
            try:
                item = replace(item, plugin=self._current)
            except TypeError:
                pass
            table[name] = item

        return register


@dataclass(frozen=True)
class FolderPlugin:
    """A plugin found in a plugins folder: a ``.py`` file, a package (its ``plugin``
    module if it has one), or a project's ``hexkit`` entry point (``pyproject.toml``, as
    ``hexkit new-plugin`` writes it). ``problem`` says why it cannot be loaded."""

    name: str
    path: Path
    module: str = ""
    #: The folder that holds the top-level module or package (made importable).
    base: Path | None = None
    #: The top-level package this plugin brings (None for a single file).
    package: str | None = None
    problem: str = ""

    def load(self) -> ModuleType:
        """Import the plugin's module (once: a second registry reuses it)."""
        assert self.base is not None
        base = str(self.base)
        if base not in sys.path:
            sys.path.append(base)  # last: a plugin file never hides a standard module
        if self.package is None:
            return _load_file(self.module, self.path)
        _load_package(self.package, self.base / self.package)
        return importlib.import_module(self.module)


def _load_file(modname: str, path: Path) -> ModuleType:
    import importlib.util

    loaded = sys.modules.get(modname)
    if loaded is not None and _same_file(getattr(loaded, "__file__", None), path):
        return loaded
    spec = importlib.util.spec_from_file_location(modname, path)
    if spec is None or spec.loader is None:
        raise ImportError("not a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[modname] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(modname, None)
        raise
    return module


def _load_package(name: str, folder: Path) -> None:
    import importlib.util

    loaded = sys.modules.get(name)
    if loaded is not None:
        if _same_file(getattr(loaded, "__file__", None), folder / "__init__.py"):
            return
        where = getattr(loaded, "__file__", None) or "built in"
        raise ImportError(f"package {name!r} is already loaded from {where}: rename the "
                          f"folder, or grade it with 'hexkit grade' (which loads each "
                          f"submission on its own)")
    spec = importlib.util.spec_from_file_location(
        name, folder / "__init__.py", submodule_search_locations=[str(folder)])
    if spec is None or spec.loader is None:
        raise ImportError("not a Python package")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        for key in [k for k in sys.modules if k == name or k.startswith(name + ".")]:
            del sys.modules[key]
        raise


def _same_file(a: str | None, b: Path) -> bool:
    try:
        return a is not None and os.path.samefile(a, b)
    except OSError:
        return False


def _taken_elsewhere(name: str, folder: Path) -> bool:
    """True if ``import name`` would find something other than ``folder``'s file."""
    import importlib.machinery

    if name in sys.builtin_module_names or name in sys.modules:
        return True
    others = [p for p in sys.path if p and os.path.abspath(p) != str(folder.resolve())]
    return importlib.machinery.PathFinder.find_spec(name, others) is not None


def _project_entry_points(folder: Path) -> list[tuple[str, str]] | None:
    """The ``hexkit`` entry points of a project folder's ``pyproject.toml`` (None when the
    folder is no such project)."""
    pyproject = folder / "pyproject.toml"
    if not pyproject.is_file():
        return None
    import tomllib

    try:
        data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    group = data.get("project", {}).get("entry-points", {}).get(ENTRY_POINT_GROUP)
    if not isinstance(group, dict):
        return None
    return [(str(k), str(v)) for k, v in group.items()]


def _is_plugin_package(folder: Path) -> bool:
    init = folder / "__init__.py"
    if not init.is_file():
        return False
    if (folder / "plugin.py").is_file():
        return True
    try:
        return "hexkit_" in init.read_text(encoding="utf-8", errors="replace")[:200_000]
    except OSError:
        return False


def _package_plugin(base: Path, package: str) -> FolderPlugin:
    folder = base / package
    module = f"{package}.plugin" if (folder / "plugin.py").is_file() else package
    return FolderPlugin(package, folder, module, base, package)


def _project_plugins(folder: Path, points: list[tuple[str, str]]) -> list[FolderPlugin]:
    out = []
    for name, value in points:
        module = value.split(":")[0].strip()
        top = module.split(".")[0]
        base = folder / "src" if (folder / "src" / top).is_dir() else folder
        if not (base / top / "__init__.py").is_file():
            out.append(FolderPlugin(name, folder, problem=f"entry point {name} = {value!r} "
                                    f"in {folder / 'pyproject.toml'}: no package {top!r}"))
            continue
        out.append(FolderPlugin(name, base / top, module, base, top))
    return out


def folder_plugins(folder: Path) -> list[FolderPlugin]:
    """The plugins in a plugins folder, in name order. The folder may be a package, a
    project (``pyproject.toml`` with ``hexkit`` entry points), or hold any number of
    ``.py`` files, packages and projects. A single file is imported under its own name when
    nothing else has that name (so ``factory="mygame:MyGame"`` finds it), else under
    ``hexkit_local_plugins.NAME``; a package under its own name."""
    folder = folder.resolve()
    if (folder / "__init__.py").is_file():
        return [_package_plugin(folder.parent, folder.name)]
    points = _project_entry_points(folder)
    if points is not None:
        return _project_plugins(folder, points)
    out: list[FolderPlugin] = []
    for path in sorted(folder.iterdir()):
        if path.name.startswith(("_", ".")):
            continue
        if path.suffix == ".py" and path.is_file():
            name = path.stem
            modname = (f"hexkit_local_plugins.{name}" if not name.isidentifier()
                       or _taken_elsewhere(name, folder) and not _same_file(
                           getattr(sys.modules.get(name), "__file__", None), path)
                       else name)
            out.append(FolderPlugin(name, path, modname, folder))
        elif path.is_dir() and _is_plugin_package(path):
            out.append(_package_plugin(folder, path.name))
        elif path.is_dir():
            points = _project_entry_points(path)
            if points:
                out.extend(_project_plugins(path, points))
    return out


class _GiveWay(Exception):
    """An installed plugin's game is provided by a plugin under test: the installed plugin
    is left out, quietly."""


#: What a plugin may raise while it is imported or registers things, and is then reported
#: as broken: SystemExit and KeyboardInterrupt too (a plugin calling sys.exit() at import
#: must not silently end every hexkit command).
_PLUGIN_FAILURES = (Exception, SystemExit, KeyboardInterrupt)
#: The distribution whose entry points are the built-in games.
OWN_DISTRIBUTION = "hexkit-games"
_OPTION_TYPES = (int, str, bool, float)


def spec_problem(spec: GameSpec) -> str | None:
    """Why a registered GameSpec cannot be used (None if it can): a malformed name,
    player counts or option would otherwise break ``hexkit games`` and every command."""
    from hexkit.game import Option

    if not isinstance(spec.name, str) or not spec.name.strip() or any(
            ch in spec.name for ch in "()=, \t\n"):
        return "the name must be a word (letters, digits, - or _)"
    counts = (spec.min_players, spec.max_players)
    if not all(isinstance(n, int) and not isinstance(n, bool) for n in counts) or not (
            1 <= spec.min_players <= spec.max_players <= 64):
        return "min_players and max_players must be whole numbers, 1 <= min <= max"
    if not isinstance(spec.options, tuple | list):
        return "options must be a tuple of Option"
    seen: set[str] = set()
    for option in spec.options:
        if not isinstance(option, Option):
            return f"option {option!r:.40}: not an Option"
        if not isinstance(option.name, str) or not option.name.isidentifier():
            return f"option {option.name!r:.40}: the name must be an identifier"
        if option.name in seen:
            return f"option {option.name!r} is declared twice"
        seen.add(option.name)
        if option.type not in _OPTION_TYPES:
            return f"option {option.name!r}: type must be int, str, bool or float"
        if option.choices is not None and not isinstance(option.choices, tuple | list):
            return f"option {option.name!r}: choices must be a tuple"
        if option.bounds is not None and (not isinstance(option.bounds, tuple | list)
                                          or len(option.bounds) != 2):
            return f"option {option.name!r}: bounds must be (lowest, highest)"
        if option.default is not None:
            try:
                option.coerce(option.default)
            except HexkitError as exc:
                return f"its default is not valid: {exc}"
            except Exception as exc:
                return f"option {option.name!r}: {_what(exc)}"
    return None


def implementers(pm: pluggy.PluginManager, hook_names: Iterable[str]) -> list[str]:
    """The plugins that implement at least one of a game's own hooks, in the order pluggy
    calls them."""
    names: list[str] = []
    for hook_name in hook_names:
        caller = getattr(pm.hook, hook_name, None)
        for impl in caller.get_hookimpls() if caller is not None else ():
            if impl.plugin_name not in names:
                names.append(impl.plugin_name)
    return names


def call_registrars(pm: pluggy.PluginManager, hook_name: str,
                    make_register: Callable[[str], Callable[..., None]], *,
                    who: Callable[[str], str] = "plugin {}".format,
                    only: Container[str] | None = None) -> None:
    """Call a game's own registrar hook (``hexaround_register_abilities``...) once in every
    plugin that implements it (or in those named in ``only``), each with the ``register``
    function ``make_register(plugin_name)`` made for it. The games collect their extensions
    this way when a game is built, never while it is played. A plugin that fails is one
    PluginError naming it: ``{who(plugin)}: {hook_name} failed: ValueError: ...``."""
    caller = getattr(pm.hook, hook_name, None)
    for impl in caller.get_hookimpls() if caller is not None else ():
        plugin = impl.plugin_name
        if only is not None and plugin not in only:
            continue
        register = make_register(plugin)
        try:
            impl.function(**dict.fromkeys(impl.argnames, register))
        except PluginError:
            raise
        except Exception as exc:  # a broken plugin gets one line naming it
            raise PluginError(f"{who(plugin)}: {hook_name} failed: "
                              f"{type(exc).__name__}: {exc}") from None


def build_registry(
    *,
    entry_points: bool = True,
    plugin_dirs: Iterable[str | os.PathLike[str]] = (),
    extra: Iterable[tuple[str, object]] = (),
    use_env: bool = True,
    prefer_folders: bool = False,
) -> Registry:
    """Load plugins and collect what they register.

    Sources, in order: hexkit's built-in services, the ``hexkit`` entry-point group, the
    folders in ``plugin_dirs`` and in ``$HEXKIT_PLUGINS_DIR``, then ``extra`` (name, module)
    pairs (handy in tests). A package in a folder takes the place of an installed plugin
    package of the same name. With ``prefer_folders`` the folders' plugins are the plugins
    under test (``hexkit check``): an installed game of the same name gives way to theirs.
    """
    from pathlib import Path

    loader = _Loader()
    loader.prefer_under_test = prefer_folders
    loader.add_builtins()
    dirs = [Path(d) for d in plugin_dirs]
    if use_env and os.environ.get(PLUGINS_DIR_ENV):
        dirs += [Path(p) for p in os.environ[PLUGINS_DIR_ENV].split(os.pathsep) if p]
    if entry_points:
        loader.skip_shadowed_entry_points(dirs)
        loader.add_entry_points()
    for folder in dirs:
        loader.add_directory(folder)
    for name, plugin in extra:
        loader.add(plugin, name, "extra")
    registry = loader.finish()
    # A registry is reachable from its plugin manager (services are often handed the pm).
    registry.pm.hexkit_registry = registry  # type: ignore[attr-defined]
    return registry


def registry_of(source: Registry | pluggy.PluginManager | None = None) -> Registry:
    """The registry ``source`` is or belongs to (default: the process-wide one)."""
    if source is None:
        return registry()
    if isinstance(source, Registry):
        return source
    found = getattr(source, "hexkit_registry", None)
    if not isinstance(found, Registry):
        raise PluginError("this plugin manager was not built by hexkit.plugins.build_registry")
    return found


_registry: Registry | None = None
_plugin_dirs: list[str] = []


def configured_dirs() -> list[str]:
    """The plugin folders given on the command line (``--plugins-dir``) and in
    ``$HEXKIT_PLUGINS_DIR``."""
    env = os.environ.get(PLUGINS_DIR_ENV, "")
    return [*_plugin_dirs, *(p for p in env.split(os.pathsep) if p)]


def configure(plugin_dirs: Iterable[str | os.PathLike[str]] = ()) -> None:
    """Set extra plugin folders (the CLI's ``--plugins-dir``) and forget the cached registry."""
    global _registry
    _plugin_dirs[:] = [str(d) for d in plugin_dirs]
    _registry = None


def registry() -> Registry:
    """The process-wide registry, built on first use."""
    global _registry
    if _registry is None:
        _registry = build_registry(plugin_dirs=_plugin_dirs)
    return _registry


def plugin_manager() -> pluggy.PluginManager:
    """The process-wide plugin manager (for games that call their own hooks once)."""
    return registry().pm


def game_names() -> list[str]:
    """Names of every registered game, sorted."""
    return sorted(registry().games)


def load_game(name: str, **options: Any) -> Game:
    """Build a game: ``load_game("focus(board=cross)", players=4)``."""
    return registry().load_game(name, **options)
