"""HexAround's own hooks: how another plugin adds creature abilities and placement rules
without editing hexaround (Hive is built this way).

Each hook is a registrar, called once per plugin manager when the first HexAround game is
built (never while a game is played), with a ``register`` function; call it once per thing
you add. Implement them in your plugin module with ``@hexkit.hookimpl``; see
``docs/hexaround.md`` ("Extending HexAround") and ``examples/hexaround-hopper``. A name that
clashes with a built-in property or another extension's, or a hook that raises, stops the
game from being built with a one-line error naming your plugin.

The built-in behaviour in the places where a relative of HexAround reads the rules
differently is chosen by ``rules:`` options of the configuration (``slide_rule``,
``one_colony``, ``gates_count_heights``, ``jump_landing``, ``pinned_under``,
``stack_limit``, ``no_action``, ``butterfly_not_first``, ``moves_before_butterfly``,
``freeze_last_moved``), so they need no hook.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hexkit.hookspecs import hookspec


@hookspec
def hexaround_register_abilities(register: Callable[[Any], None]) -> None:
    """``register(Ability(name, category=..., moves=..., actions=...))``
    (:class:`hexaround.extensions.Ability`): a new property that configurations may give
    creatures in YAML like WALKING or INTRUDING. A category (``category=True``) is the
    creature's one way of moving, found by ``moves(engine, src, code)``; an attribute may add
    actions that move other creatures with ``actions(engine, src, code)``."""


@hookspec
def hexaround_register_placement_rules(register: Callable[[Any], None]) -> None:
    """``register(PlacementRule(name, refuse))`` (:class:`hexaround.extensions.PlacementRule`):
    ``refuse(engine, player, kind)`` returns why that creature type may not be placed now
    (or None); it is asked once per type in hand when the legal actions are listed."""
