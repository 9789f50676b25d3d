"""The hexkit plugin module of Hex Baron (entry point ``hexbaron = "hexbaron.plugin"``).

It registers the game (options, rules summary, the classic console, the ``save`` and
``ids`` words of ``hexkit play``) and adds Hex Baron's own hooks so that other plugins can
extend the game (see :mod:`hexbaron.hookspecs`).
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pluggy

from hexbaron import hookspecs, policy
from hexbaron.classic import run_classic
from hexbaron.game import TIE_DRAW, TIE_PLAYER_TWO, HexBaronGame, HexBaronState
from hexbaron.setup import MAX_SIZE, MIN_SIZE, write_data_file
from hexkit import hookimpl
from hexkit.errors import HexkitError
from hexkit.game import ConsoleCommand, Game, GameSpec, Option, State

RULES = """\
Hex Baron (AQA A-level Paper 1, 2021). Two players command pieces on a grid of hexagonal
tiles: fields ( ), forests (#) and peat bogs (~). Each turn a player gives three commands,
carried out one at a time and in order:
  move FROM TO          move a piece to an empty neighbouring tile, paying fuel
  upgrade less|pbds T   turn a serf into a LESS or a PBDS (5 lumber)
  spawn T               a new serf next to your baron (3 lumber, 1 piece from supply)
  saw T                 a LESS in a forest: +1 lumber
  dig T                 a PBDS in a peat bog: +1 fuel, or (1 in 10) +5 and the bog drains
  pass                  do nothing with this command
Pieces: Baron (B, 10 VPs, moves for 1 fuel), Serf (S, 1 VP, 1 fuel or 2 to/from a bog),
LESS (L, 3 VPs, cannot leave a forest), PBDS (P, 2 VPs, cannot leave a bog, moves cost 2).
At the end of every turn each piece with 2 or more occupied neighbouring tiles is destroyed
and its VPs go to the opponent of its owner. Once a baron is destroyed the game ends when
both players have had the same number of turns; the most VPs wins.
Here a refused command changes nothing and is not counted (type 'pass' to waste one);
in the classic console (--classic) it uses up one of the three, as in the AQA program."""

OPTIONS = (
    Option("setup", "default", "set-up: a shipped name (default, game1, ...), an extension's "
           "set-up, a .yaml set-up file or an AQA data file"),
    Option("size", 0, f"generate a grid of this even size ({MIN_SIZE}-{MAX_SIZE}) with the "
           "set-up's players; 0 keeps the set-up's grid", int),
    Option("p1_name", "", "Player One's name (default: the set-up's)"),
    Option("p2_name", "", "Player Two's name (default: the set-up's)"),
    Option("tie_rule", TIE_DRAW, "equal VPs at the end: a draw, or a win for Player Two as "
           "in the AQA program", str, (TIE_DRAW, TIE_PLAYER_TWO)),
    Option("max_turns", 0, "end the game after this many turns each (0: no limit)", int),
    Option("show_ids", True, "draw tile numbers in the grid", bool),
    Option("extensions", "all", "extension plugins taking part: all, none, or names joined "
           "by +", str),
)

#: The plugin manager being set up, kept from hexkit_add_hookspecs until the game is
#: registered, so each registry's game calls the hooks of its own plugin manager.
_pending_pm: pluggy.PluginManager | None = None


def game_factory(pm: pluggy.PluginManager | None) -> Callable[[GameSpec, dict[str, Any]], Game]:
    """A factory that builds Hex Baron games extended by ``pm``'s plugins."""

    def factory(spec: GameSpec, options: dict[str, Any]) -> Game:
        return HexBaronGame(spec, options, pm)

    return factory


def save_command(state: State, argument: str) -> str:
    """``save [-f] FILE``: write the game as an AQA data file (refuses to replace a file
    unless ``-f`` is given)."""
    if not isinstance(state, HexBaronState):
        raise HexkitError("save works in Hex Baron games only")
    words = argument.strip()
    force = False
    if words == "-f" or words.startswith("-f "):
        force, words = True, words[2:].strip()
    if not words:
        raise HexkitError("usage: save [-f] FILE (writes an AQA data file, e.g. save game.txt)")
    path = Path(words)
    if path.suffix.lower() in (".yaml", ".yml"):
        raise HexkitError("save writes AQA data files, not YAML: use a name such as game.txt")
    if path.exists() and not force:
        raise HexkitError(f"{words} already exists; type 'save -f {words}' to replace it")
    if path.is_dir():
        raise HexkitError(f"{words} is a folder")
    text = write_data_file(state.to_setup(), state.catalogue)
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise HexkitError(f"cannot save to {words}: there is no folder {folder}")
    fd, tmp = tempfile.mkstemp(prefix=".hexbaron-", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return f"saved to {words}; continue it later with: hexkit play hexbaron -o setup={words}"


def ids_command(state: State, argument: str) -> str:
    """``ids``: print the tile numbers laid out as on the grid."""
    if not isinstance(state, HexBaronState):
        raise HexkitError("ids works in Hex Baron games only")
    return state.tile_map()


CONSOLE_COMMANDS = (
    ConsoleCommand("save", "save [-f] FILE: save the game as an AQA data file", save_command),
    ConsoleCommand("ids", "show the tile numbers laid out as on the grid", ids_command),
)


def make_spec(pm: pluggy.PluginManager | None) -> GameSpec:
    """Hex Baron's GameSpec, its games extended by the plugins of ``pm``."""
    return GameSpec(
        name="hexbaron",
        description="Hex Baron, the AQA A-level 2021 game of barons, serfs, lumber and fuel",
        factory=game_factory(pm),
        options=OPTIONS,
        min_players=2,
        max_players=2,
        version="1",
        rules=RULES,
        frontends={"classic": run_classic},
        console_commands=CONSOLE_COMMANDS,
    )


@hookimpl
def hexkit_add_hookspecs(pluginmanager: pluggy.PluginManager) -> None:
    global _pending_pm
    pluginmanager.add_hookspecs(hookspecs)
    _pending_pm = pluginmanager


@hookimpl
def hexkit_register_games(register: Callable[[Any], None]) -> None:
    register(make_spec(_pending_pm))


@hookimpl(optionalhook=True)
def hexkit_register_playout_policies(register: Callable[[Any], None]) -> None:
    """Help the MCTS bot: score positions by VPs, pressure on the barons and approach
    (:mod:`hexbaron.policy`). Optional, so Hex Baron loads where the MCTS service is absent."""
    policy.register_policy(register)
