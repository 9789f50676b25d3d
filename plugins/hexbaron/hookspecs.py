"""Hex Baron's own hooks: how another plugin adds terrains, resources, piece types, commands
and set-ups without editing hexbaron.

Each hook is a registrar: it is called once, when a Hex Baron game is built (not per move),
with a ``register`` function; call it once per thing you add. Implement them in your plugin
module with ``@hexkit.hookimpl`` (see ``examples/hexbaron-miner`` and ``docs/hexbaron.md``).
Names must not clash with the built-in ones or another extension's; a clash, or a hook that
raises, stops the game from being built with a one-line error naming your plugin. Players
can choose which extensions take part with the game option ``extensions`` (``all``,
``none`` or names joined by ``+``). The classic console never uses extensions.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hexkit.hookspecs import hookspec


@hookspec
def hexbaron_register_terrains(register: Callable[[Any], None]) -> None:
    """``register(Terrain(symbol, name, colour, help))``: a new kind of tile. The symbol is
    one character, drawn on the grid and written in data files; the name is used in YAML
    set-ups."""


@hookspec
def hexbaron_register_resources(register: Callable[[Any], None]) -> None:
    """``register(Resource(name, label, start, help))``: something players own an amount of
    (e.g. ore). It is shown in the status lines and saved as ``name=amount`` on the player
    lines of data files."""


@hookspec
def hexbaron_register_pieces(register: Callable[[Any], None]) -> None:
    """``register(MyPiece())`` with a subclass of :class:`hexbaron.catalogue.PieceType`:
    name, letter, VP value, destruction threshold, movement rule (``move_cost``), the tile
    commands it can carry out (``actions``) and how it is made (``upgrade_word``...)."""


@hookspec
def hexbaron_register_commands(register: Callable[[Any], None]) -> None:
    """``register(MyCommand())`` with a subclass of :class:`hexbaron.commands.CommandType`
    (often :class:`hexbaron.commands.PieceActionCommand`): a new verb, its syntax, when it
    is allowed, what it does, and which arguments are legal now."""


@hookspec
def hexbaron_register_setups(register: Callable[..., None]) -> None:
    """``register(name, path)``: a YAML set-up shipped with your plugin, playable with
    ``-o setup=name``."""
