"""Start-up: every ``hexkit`` command imports only what it uses. The figures are in
``benchmarks/startup.py``; these tests check the imports that make them."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from importlib.metadata import entry_points as metadata_entry_points
from pathlib import Path

import hexkit
from hexkit.loading.entry_points import entry_points

from .conftest import PLUGIN_FILES, run_hexkit

#: What the core must not import for ``--help``, ``games`` or ``rules``: the modules of
#: other commands and services, the state kit, and heavy standard-library modules.
NOT_AT_START = (
    "importlib.metadata", "email", "zipfile", "csv", "shutil", "tempfile", "json", "difflib",
    "threading", "hexkit.files.records", "hexkit.terminal.session", "hexkit.tournament.match",
    "hexkit.tools.scenarios",
    "hexkit.render.svg", "hexkit.bots.mcts", "hexkit.commands.play", "hexkit.commands.replay",
    "hexkit.kit.events", "hexkit.kit.gestures", "hexkit.kit.undo", "hexkit.kit.turns",
)


def modules_after(argv: list[str], *, plugin_dirs: tuple[Path, ...] = (PLUGIN_FILES,),
                  pythonpath: Path | None = None, installed: bool = False) -> set[str]:
    """The modules a fresh interpreter holds after ``hexkit ARGV``, with the plugins of
    ``plugin_dirs`` only (installed entry points left out, so the core is measured), or
    with the installed plugins (the built-in games) when ``installed``."""
    dirs = [arg for d in plugin_dirs for arg in ("--plugins-dir", str(d))]
    script = textwrap.dedent(f"""
        import os, sys
        before = set(sys.modules)
        import hexkit.loading.entry_points
        if {not installed!r}:
            hexkit.loading.entry_points.entry_points = lambda group: []  # the core alone
        from hexkit.cli import main
        real, sys.stdout = sys.stdout, open(os.devnull, "w")
        try:
            main({[*dirs, *argv]!r})
        except SystemExit:
            pass
        loaded = sorted(set(sys.modules) - before)
        import json
        real.write(json.dumps(loaded))
    """)
    env = None
    if pythonpath is not None:
        import os

        env = {**os.environ, "PYTHONPATH": str(pythonpath)}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          input="quit\n", env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    return set(json.loads(done.stdout))


def heavy(modules: set[str]) -> list[str]:
    return sorted(m for m in modules
                  if any(m == n or m.startswith(n + ".") for n in NOT_AT_START))


def test_help_games_and_rules_import_no_other_command_and_nothing_heavy():
    for argv in (["--help"], ["games"], ["rules", "tictactoe"]):
        assert heavy(modules_after(argv)) == [], argv


def test_help_imports_no_command_module():
    loaded = modules_after(["--help"])
    assert not [m for m in loaded if m.startswith("hexkit.commands.")]


def test_version_loads_no_plugin():
    loaded = modules_after(["--version"])
    assert "pluggy" not in loaded and "hexkit.plugins" not in loaded
    out = run_hexkit("--version")
    python = ".".join(map(str, sys.version_info[:3]))
    assert out.returncode == 0
    assert out.stdout == f"hexkit {hexkit.__version__} (Python {python})\n"


def test_playing_one_game_imports_only_that_games_rules(tmp_path):
    plugins_dir = tmp_path / "plugins"
    rules_dir = tmp_path / "lib"
    plugins_dir.mkdir()
    rules_dir.mkdir()
    toy = (PLUGIN_FILES / "tictactoe.py").read_text()
    for name in ("alpha", "beta"):
        (rules_dir / f"{name}_rules.py").write_text(toy)
        (plugins_dir / f"{name}.py").write_text(textwrap.dedent(f"""
            from hexkit import GameSpec, Option, hookimpl

            SPEC = GameSpec("{name}", "a lazily loaded game", "{name}_rules:TicTacToe",
                            options=(Option("size", 3, "side", int),))

            @hookimpl
            def hexkit_register_games(register):
                register(SPEC)
        """))
    listed = modules_after(["games"], plugin_dirs=(plugins_dir,), pythonpath=rules_dir)
    assert not {"alpha_rules", "beta_rules"} & listed
    played = modules_after(["play", "alpha"], plugin_dirs=(plugins_dir,),
                           pythonpath=rules_dir)
    assert "alpha_rules" in played and "beta_rules" not in played


def test_entry_points_are_those_importlib_metadata_finds():
    for group in ("hexkit", "console_scripts", "pytest11"):
        ours = sorted((e.name, e.value, e.dist.name, e.dist.version)
                      for e in entry_points(group=group))
        theirs = sorted((e.name, e.value, e.dist.name, e.dist.version)
                        for e in metadata_entry_points(group=group))
        assert ours == theirs, group


def test_an_unknown_command_gets_did_you_mean():
    out = run_hexkit("gmaes")
    assert out.returncode == 2
    assert out.stderr.splitlines()[-1] == (
        "hexkit: error: unknown command 'gmaes'; did you mean 'games'? "
        "(run 'hexkit --help' for the list)")


#: The modules of a plugin package that registering it may import: the package, its plugin
#: module, its own hook specifications, and the services it adds (commands, bots).
REGISTRATION = ("", ".plugin", ".hookspecs", ".services")

#: Built-in games whose rules no other of them uses (a game built on another's engine, as
#: Hive on HexAround's, imports that engine when played).
INDEPENDENT = ("hexbaron", "hexaround", "focus")


def game_modules(loaded: set[str], package: str) -> set[str]:
    """The modules of ``package`` among ``loaded``, beyond what registering needs."""
    return {m for m in loaded if m.split(".")[0] == package} - \
        {package + suffix for suffix in REGISTRATION}


def installed_packages() -> set[str]:
    """The top-level packages of the installed plugins (entry point group ``hexkit``)."""
    return {e.value.split(":")[0].split(".")[0] for e in entry_points(group="hexkit")}


def test_listing_the_installed_games_imports_none_of_their_rules():
    packages = installed_packages()
    assert set(INDEPENDENT) <= packages
    for argv in (["--help"], ["games"]):
        loaded = modules_after(argv, plugin_dirs=(), installed=True)
        for package in packages:
            assert game_modules(loaded, package) == set(), (argv, package)


#: Heavy standard-library modules no game's ``rules`` or ``play`` needs: drawing a board
#: escapes its own XML (xml.sax.saxutils imports urllib, http and email), and only writing
#: a file makes a temporary one.
NOT_FOR_A_GAME = ("xml", "email", "http", "ssl")


def test_rules_and_play_import_only_the_chosen_games_rules_and_nothing_heavy():
    for game in INDEPENDENT:
        for argv in (["rules", game], ["play", game]):
            loaded = modules_after(argv, plugin_dirs=(), installed=True)
            assert game_modules(loaded, game), (argv, "the game itself is loaded")
            for other in set(INDEPENDENT) - {game}:
                assert game_modules(loaded, other) == set(), (argv, other)
            heavy = NOT_FOR_A_GAME + (("tempfile",) if argv[0] == "rules" else ())
            assert not {m for m in loaded if m.split(".")[0] in heavy}, argv


def test_hexaround_registration_names_what_the_game_uses():
    """HexAround's plugin names its default variant and MCTS depth without importing the
    game; they must stay those of the game and the policy."""
    from hexaround import plugin, policy
    from hexaround.game import DEFAULT_VARIANT

    from hexkit.bots.policy import PlayoutPolicy

    assert plugin.DEFAULT_VARIANT == DEFAULT_VARIANT
    assert plugin.SPEC.options[0].default == DEFAULT_VARIANT
    registered: list[PlayoutPolicy] = []
    plugin.hexkit_register_playout_policies(registered.append)
    (found,) = registered
    assert found.depth == policy.DEPTH
    assert found.resolved().evaluate is policy.evaluate
    assert plugin.SPEC.make_game({}).spec is plugin.SPEC
