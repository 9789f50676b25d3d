"""What extension plugins add to HexAround, collected once per plugin manager.

The objects here are plain: the engine keeps the functions they carry in per-creature
tables when a game is built, so no hook is called while a game is played.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from hexaround.config import PROPERTIES
from hexkit.errors import PluginError

if TYPE_CHECKING:
    import pluggy

# The first argument of these functions is the game's hexaround.engine.Engine (named Any
# here: the engine's modules import this one).
#: ``moves(engine, src, code)``: the hexes the creature ``code`` at ``src`` may move to.
MovesFn = Callable[[Any, int, int], Iterable[int]]
#: ``actions(engine, src, code)``: (from, to) hex pairs of other creatures it may move.
ActionsFn = Callable[[Any, int, int], Iterable[tuple[int, int]]]
#: ``refuse(engine, player, kind)``: why the player may not place that type now, or None.
RefuseFn = Callable[[Any, int, int], "str | None"]


@dataclass(frozen=True)
class Ability:
    """A creature property added by a plugin.

    ``moves`` is called with the mover lifted off the board (``engine.stacks``, ``occ`` and
    ``nmask`` show the working board) and returns destination hex keys; the engine then
    drops the start hex, hexes above the stack limit and (per the ``one_colony`` option)
    destinations that split the colony, and sorts them. ``actions`` is called on the full
    board and returns (from, to) pairs: the top creature at ``from`` is moved to ``to``
    (the ability checks its own conditions; the engine only applies the frozen-creature
    rule). ``doc`` is one line for the rules summary.
    """

    name: str
    category: bool = False
    moves: MovesFn | None = None
    actions: ActionsFn | None = None
    doc: str = ""


@dataclass(frozen=True)
class PlacementRule:
    """A restriction on which creature types a player may place now (e.g. by turn).

    It applies in the games where some creature has the property ``requires`` (one of the
    plugin's abilities, so that installing the plugin changes no other game); an empty
    ``requires`` makes it apply to every HexAround game."""

    name: str
    refuse: RefuseFn
    requires: str = ""


@dataclass(frozen=True)
class Extensions:
    """Abilities (by upper-case name) and placement rules of the installed extensions."""

    abilities: dict[str, Ability] = field(default_factory=dict)
    placement_rules: tuple[PlacementRule, ...] = ()

    def kinds(self) -> dict[str, bool]:
        """Property name -> True for a movement category, False for an attribute (what the
        configuration reader needs)."""
        return {name: a.category for name, a in self.abilities.items()}


EMPTY = Extensions()

_cache: dict[int, tuple[Any, Extensions]] = {}


def collect(pm: pluggy.PluginManager | None) -> Extensions:
    """Call HexAround's hooks of every plugin once and keep the result per plugin manager."""
    if pm is None:
        return EMPTY
    got = _cache.get(id(pm))
    if got is not None and got[0] is pm:
        return got[1]
    abilities: dict[str, Ability] = {}
    rules: list[PlacementRule] = []
    from hexkit.plugins import call_registrars

    def ability_of(plugin: str) -> Callable[[Any], None]:
        return lambda item: _add_ability(abilities, item, plugin)

    def rule_of(plugin: str) -> Callable[[Any], None]:
        def register(item: Any) -> None:
            if not isinstance(item, PlacementRule) or not callable(item.refuse):
                raise PluginError(f"plugin {plugin}: register() wants a "
                                  f"PlacementRule, not {item!r}")
            rules.append(item)

        return register

    call_registrars(pm, "hexaround_register_abilities", ability_of)
    call_registrars(pm, "hexaround_register_placement_rules", rule_of)
    result = Extensions(abilities, tuple(rules))
    _cache[id(pm)] = (pm, result)
    return result


def _add_ability(table: dict[str, Ability], item: Any, plugin: str) -> None:
    if not isinstance(item, Ability):
        raise PluginError(f"plugin {plugin}: register() wants an Ability, not {item!r}")
    name = str(item.name).upper()
    if not name.isidentifier() or not name[:1].isalpha():
        raise PluginError(f"plugin {plugin}: ability name {item.name!r} is not a name")
    if name in PROPERTIES or name in table:
        raise PluginError(f"plugin {plugin}: ability {name} already exists")
    if item.category and item.moves is None:
        raise PluginError(f"plugin {plugin}: category {name} needs a moves function")
    if not item.category and item.moves is not None:
        raise PluginError(f"plugin {plugin}: attribute {name} cannot have a moves function "
                          f"(make it a category)")
    if item.moves is None and item.actions is None:
        raise PluginError(f"plugin {plugin}: ability {name} has neither moves nor actions")
    table[name] = Ability(name, item.category, item.moves, item.actions, item.doc)


def installed_extensions(pm: pluggy.PluginManager | None = None) -> Extensions:
    """The extensions of ``pm``: the plugin manager of the registry that registered the
    game spec, or the process-wide one for a spec made by hand."""
    if pm is None:
        from hexkit.plugins import plugin_manager

        pm = plugin_manager()
    return collect(pm)
