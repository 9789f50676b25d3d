"""HexAround's fixed action space: every legal move has a number, wherever the colony is.

HexAround's board has no edge and the colony drifts, so a move is numbered as OpenSpiel
numbers Hive's: by *which creature* moves and *where it lands next to another creature*,
never by coordinates. Creatures of one kind are not named one by one, so a creature is a
**slot**: its owner (0 the player to act, 1 the opponent), its kind (the configuration's
order) and its rank among the creatures of that owner and kind on the board (by x, then
y, then height). A configuration with ``n_k`` creatures of kind ``k`` per player has
``S = 2 * sum(n_k)`` slots.

A destination is a **reference** creature (a slot) and a **direction** from its hex: 0..5
the six neighbours in ring order (0,+1) (+1,0) (+1,-1) (0,-1) (-1,0) (-1,+1), 6 on top of
its stack. The reference is the top creature of the first occupied neighbour of the
destination, in that ring order, the mover itself left out (or, on an occupied
destination, its top creature, direction 6). A creature landing where no other creature
is near is referred to its own start hex.

Actions, for ``K`` kinds and ``S`` slots:

- ``0``: pass;
- ``1 .. K``: a first placement of each kind, on the empty board (every hex of an empty
  board is alike: the legal list offers (0, 0));
- ``1 + K + (kind * S + reference) * 6 + direction``: a placement;
- ``1 + K + K * S * 6 + (mover * S + reference) * 7 + direction``: a move.

The numbers depend on the position (which creature holds which slot), so
:meth:`HexAroundActions.action_in` takes the state; :meth:`HexAroundActions.action_of`
alone cannot number a move.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hexaround.hexgrid import OFFSETS
from hexkit.game import Game, Move
from hexkit.kit.actions import ActionSpace, ActionSpaceError

#: Directions from a reference hex: the six neighbours in ring order, then on top.
SIDES = 6
ON_TOP = 6
DIRECTIONS = 7


class HexAroundActions(ActionSpace):
    """pass, first placements (kind), placements (kind x reference x side), moves
    (mover x reference x direction); see the module docstring."""

    def __init__(self, game: Game):
        engine = game.new_state(seed=0).engine  # type: ignore[attr-defined]
        self.kinds: tuple[str, ...] = tuple(engine.names)
        k = len(self.kinds)
        #: Creatures of each kind a player has (the larger stock of the two players).
        self.stock: tuple[int, ...] = tuple(
            max(engine.hands[0][i], engine.hands[1][i]) for i in range(k))
        #: First slot of (relative owner, kind): ``base[owner * K + kind]``.
        self.base: tuple[int, ...] = tuple(
            o * sum(self.stock) + sum(self.stock[:i]) for o in (0, 1) for i in range(k))
        self.slots = 2 * sum(self.stock)
        self.places_from = 1 + k
        self.moves_from = self.places_from + k * self.slots * SIDES
        self.num_actions = self.moves_from + self.slots * self.slots * DIRECTIONS

    # -- numbering ------------------------------------------------------------------------
    def action_of(self, move: Move) -> int:
        """HexAround's numbers depend on the position: see :meth:`action_in`."""
        raise ActionSpaceError(f"{move}: HexAround's action numbers depend on the position "
                               "(use action_in(state, move))")

    def action_in(self, state: Any, move: Move) -> int:
        """The number of ``move`` played in ``state`` (ActionSpaceError if it has none)."""
        try:
            action = state.action_of(move)
        except Exception:
            raise ActionSpaceError(f"{move} is not a move of {state.game}") from None
        return _Numbering(self, state.engine).number(action, move)

    def legal_map(self, state: Any) -> dict[int, Move]:
        """Action -> legal move, every legal move numbered (ActionSpaceError if two share a
        number, which the numbering never does)."""
        listed = state.legal_moves()
        actions: Sequence[Any] = getattr(listed, "actions", None) or [
            state.action_of(m) for m in listed]
        numbering = _Numbering(self, state.engine)
        found: dict[int, Move] = {}
        for i, action in enumerate(actions):
            move = listed[i]
            number = numbering.number(action, move)
            other = found.setdefault(number, move)
            if other is not move and other != move:
                raise ActionSpaceError(
                    f"{state.game}: legal moves {other} and {move} both have action {number}")
        return found

    def describe(self) -> str:
        k, s = len(self.kinds), self.slots
        stock = ", ".join(f"{n} {name}" for name, n in zip(self.kinds, self.stock, strict=True))
        return (
            f"{self.num_actions} actions, relative to the creatures (no window: every legal "
            f"move has one): {s} creature slots (the player to act's, then the opponent's; "
            f"per kind, {stock}; ranked by x, y, height); directions 0..5 the neighbours "
            f"(0,+1) (+1,0) (+1,-1) (0,-1) (-1,0) (-1,+1) of the reference creature, 6 on "
            f"top of it. 0 pass; 1..{k} first placement of a kind; {self.places_from} + "
            f"(kind * {s} + reference) * 6 + direction: place; {self.moves_from} + "
            f"(mover * {s} + reference) * 7 + direction: move."
        )


class _Numbering:
    """The slots of one position's creatures, and the numbers of its actions."""

    __slots__ = ("space", "stacks", "slot", "me")

    def __init__(self, space: HexAroundActions, engine: Any):
        self.space = space
        self.stacks: dict[int, Sequence[int]] = engine.stacks
        self.me = engine.to_move
        k = len(space.kinds)
        base = space.base
        seen = [0] * (2 * k)
        #: (hex, height) -> slot, creatures ranked by hex key (x, then y) and height.
        self.slot: dict[tuple[int, int], int] = {}
        for key in sorted(self.stacks):
            for level, code in enumerate(self.stacks[key]):
                group = ((code & 1) != self.me) * k + (code >> 1)
                rank = seen[group]
                seen[group] = rank + 1
                if rank >= space.stock[code >> 1]:
                    raise ActionSpaceError(f"more {space.kinds[code >> 1]} creatures on the "
                                           "board than a player has")
                self.slot[(key, level)] = base[group] + rank

    def number(self, action: tuple[int, int | None, int], move: Move) -> int:
        """The number of the engine action ``action`` (``move`` names it in errors)."""
        kind, src, dst = action
        space = self.space
        if kind < 0:
            return 0
        stacks = self.stacks
        if src is None:
            if not stacks:
                return 1 + kind
            found = self._reference(dst, None)
            if found is None or found[1] == ON_TOP:
                raise ActionSpaceError(f"{move} is not next to a creature")
            ref, side = found
            return space.places_from + (kind * space.slots + ref) * SIDES + side
        stack = stacks[src]
        code = kind * 2 + self.me
        if code not in stack:
            code ^= 1  # an ability moves another player's creature
        level = len(stack) - 1
        while level >= 0 and stack[level] != code:
            level -= 1
        if level < 0:
            raise ActionSpaceError(f"{move}: no such creature on its start hex")
        mover = self.slot[(src, level)]
        found = self._reference(dst, (src, level))
        if found is None:  # no other creature near: referred to its own start hex
            sides = [d for d in range(SIDES) if src + OFFSETS[d] == dst]
            if not sides:
                raise ActionSpaceError(f"{move} lands where no creature is near")
            found = mover, sides[0]
        ref, direction = found
        return space.moves_from + (mover * space.slots + ref) * DIRECTIONS + direction

    def _reference(self, dst: int, mover: tuple[int, int] | None) -> tuple[int, int] | None:
        """(reference slot, direction) of a destination, the mover (hex, height) left out;
        None if no other creature is next to it."""
        stacks = self.stacks
        here = stacks.get(dst)
        if here:
            return self.slot[(dst, len(here) - 1)], ON_TOP
        for d in range(SIDES):
            hex_ = dst - OFFSETS[d]  # the reference's hex: dst is its neighbour d
            stack = stacks.get(hex_)
            if not stack:
                continue
            top = len(stack) - 1
            if mover is not None and mover[0] == hex_:
                if len(stack) == 1:
                    continue  # the mover alone: it leaves the hex
                if mover[1] == top:
                    top -= 1  # the creature under the mover is on top once it leaves
            return self.slot[(hex_, top)], d
        return None
