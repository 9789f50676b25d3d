"""The ``hive`` bot's evaluation of a position, for the player to move.

Per player it weighs, in points (a Queen surrounded is :data:`WIN`):

- **the Queen**: the neighbours filled around her (a steep table: the fifth is nearly
  lost), a friendly neighbour that can walk away counting half; her escape cells (the empty
  neighbours she can slide to while she is free to move); an enemy Beetle on top of her
  (she cannot move, and her hex stays filled);
- **mobility**: each piece on top that can move now (not pinned by the one-hive rule, not
  buried, and for the crawling bugs at least one free gap to slide out of) is worth its
  bug's value; a pinned, buried or boxed-in piece is worth nothing;
- **pieces in hand**: a little each, the choice of where to put them later;
- **Pillbug defence**: a Pillbug (or a Mosquito beside one) next to its own free Queen with
  an empty cell to throw her to, or the chance to place the Pillbug beside her.

The pieces beside the enemy Queen count there (as pressure) rather than as mobility: a
piece that leaves the Queen gives the pressure back.

:func:`evaluate` uses the compiled twin of :func:`evaluate_python` (``evaluate_board`` in
``hive._hivegen``, built with the package where a C compiler is found, the one the compiled
search uses; the same scores, several times faster, the cut vertices included) unless
``HEXAROUND_PURE_PYTHON=1`` is set, as for the generators.
"""

from __future__ import annotations

from typing import Any

from hexaround.hexgrid import OFFSETS, POPCOUNT

from hive.generator import CompiledHiveGenerator, _hivegen, native_hive_generator_available
from hive.rules import ANT, BEETLE, GRASSHOPPER, LADYBUG, MOSQUITO, PILLBUG, QUEEN, SPIDER

#: A won position's score (less the plies to reach it).
WIN = 1_000_000

#: Worth of a piece free to move, by bug type (ants are the best, then the climbers).
MOBILE = {QUEEN: 6, SPIDER: 5, BEETLE: 10, GRASSHOPPER: 6, ANT: 14, MOSQUITO: 12,
          LADYBUG: 9, PILLBUG: 7}
#: Worth of a piece still in hand.
IN_HAND = {QUEEN: 0, SPIDER: 2, BEETLE: 4, GRASSHOPPER: 2, ANT: 5, MOSQUITO: 4,
           LADYBUG: 3, PILLBUG: 3}
#: Cost of 0..6 filled neighbours around one's own Queen.
QUEEN_FILLED = (0, 8, 20, 40, 75, 140, 300)
#: Worth of each cell the Queen can slide to.
ESCAPE = 6
#: An enemy Beetle (or Mosquito) on top of one's Queen.
BEETLE_ON_QUEEN = 45
#: A Pillbug ready to throw its Queen out of danger; half of it for one still in hand
#: with a free cell beside the Queen to place it.
PILLBUG_DEFENCE = 30
#: The player to move gets this much for the tempo.
TEMPO = 4

#: Bugs that crawl: they need a free gap to leave their hex.
_CRAWLERS = frozenset({QUEEN, SPIDER, ANT, PILLBUG})


def _slide_exits(mask: int) -> int:
    """Empty neighbours a crawler can slide to from a hex whose occupied neighbours are
    ``mask``: the neighbour is empty and exactly one of the two hexes beside the gap is
    occupied (a gap between two pieces is shut; with none it would lose contact)."""
    count = 0
    for d in range(6):
        if not mask >> d & 1:
            left = mask >> ((d - 1) % 6) & 1
            right = mask >> ((d + 1) % 6) & 1
            if left != right:
                count += 1
    return count


#: Per 6-bit mask of occupied neighbours: the crawler's slide exits.
SLIDE_EXITS: tuple[int, ...] = tuple(_slide_exits(m) for m in range(64))
_AROUND = tuple(OFFSETS)


def evaluate_python(engine: Any) -> int:
    """The position's score for the player to move (see the module), in Python."""
    stacks = engine.stacks
    nmask = engine.nmask
    code_type = engine.code_type
    bpos = engine.bpos
    cuts = engine.analysis().sep
    me = engine.to_move
    score = [0, 0]
    queen_near: tuple[frozenset[int], frozenset[int]] = (
        frozenset(bpos[0] + o for o in _AROUND) if bpos[0] is not None else frozenset(),
        frozenset(bpos[1] + o for o in _AROUND) if bpos[1] is not None else frozenset(),
    )
    pillbug_ready = [False, False]
    for key, stack in stacks.items():
        top = stack[-1]
        owner = top & 1
        kind = code_type[top]
        height = len(stack)
        mobile = True
        if height == 1:
            mask = nmask.get(key, 0)
            if key in cuts:
                mobile = False
            elif kind in _CRAWLERS and not SLIDE_EXITS[mask]:
                mobile = False
            elif kind == MOSQUITO:
                # A Mosquito is worth what it can copy; beside only its Queen, nothing.
                near = [code_type[stacks[key + o][-1]] for o in _AROUND if key + o in stacks]
                if all(t == MOSQUITO or t == QUEEN for t in near):
                    mobile = False
                elif all(t in _CRAWLERS or t == MOSQUITO for t in near) and \
                        not SLIDE_EXITS[mask]:
                    mobile = False
        else:
            if stack[-2] < 2 and stack[-2] & 1 != owner:
                score[owner] += BEETLE_ON_QUEEN  # on the enemy Queen
        if key in queen_near[1 - owner]:
            continue  # pressing the enemy Queen: counted as pressure there
        if mobile:
            score[owner] += MOBILE[kind] if height == 1 else MOBILE[BEETLE] + 4
        if key in queen_near[owner] and height == 1 and (
                kind == PILLBUG or (kind == MOSQUITO and any(
                    code_type[stacks[key + o][-1]] == PILLBUG
                    for o in _AROUND if key + o in stacks))):
            if any(key + o not in stacks for o in _AROUND):
                pillbug_ready[owner] = True
    hands = engine.hands
    kind_types = engine.kind_types
    pillbug = kind_types.index(PILLBUG) if PILLBUG in kind_types else -1
    for colour in (0, 1):
        hand = hands[colour]
        score[colour] += sum(IN_HAND[kind_types[k]] for k, n in enumerate(hand) if n)
        queen = bpos[colour]
        if queen is None:
            continue
        qstack = stacks[queen]
        mask = nmask.get(queen, 0)
        filled = POPCOUNT[mask]
        cost = QUEEN_FILLED[filled]
        # A friendly neighbour that can walk away is half a filled cell.
        leaving = 0
        for o in _AROUND:
            near = stacks.get(queen + o)
            if near and len(near) == 1 and near[-1] & 1 == colour and \
                    queen + o not in cuts and (code_type[near[-1]] not in _CRAWLERS or
                                               SLIDE_EXITS[nmask.get(queen + o, 0)]):
                leaving += 1
        if leaving and filled < 6:
            cost -= (cost - QUEEN_FILLED[filled - leaving]) // 2
        score[colour] -= cost
        free = len(qstack) == 1 and queen not in cuts
        if free:
            score[colour] += ESCAPE * SLIDE_EXITS[mask]
            if pillbug_ready[colour]:
                score[colour] += PILLBUG_DEFENCE
            elif pillbug >= 0 and hand[pillbug] and any(
                    queen + o not in stacks and _placeable(engine, queen + o, colour)
                    for o in _AROUND):
                score[colour] += PILLBUG_DEFENCE // 2
    return score[me] - score[1 - me] + TEMPO


def _placeable(engine: Any, key: int, colour: int) -> bool:
    """True if ``colour`` may place a piece on the empty hex ``key``."""
    cadj = engine.cadj
    return bool(cadj[colour].get(key)) and not cadj[1 - colour].get(key)


def _configure_compiled() -> bool:
    """Give the compiled evaluation (``hive._hivegen``, which also searches with it) this
    module's weights, so there is one source for them; False where it is not built."""
    if _hivegen is None:
        return False
    types = range(8)
    _hivegen.configure_evaluation(tuple(MOBILE[t] for t in types),
                                  tuple(IN_HAND[t] for t in types), QUEEN_FILLED, ESCAPE,
                                  BEETLE_ON_QUEEN, PILLBUG_DEFENCE, TEMPO)
    return True


_CONFIGURED = _configure_compiled()


def evaluate(engine: Any) -> int:
    """The position's score for the player to move (see the module): compiled where the
    engine's generator is the compiled one, else :func:`evaluate_python`."""
    generator = engine.generator
    if _CONFIGURED and isinstance(generator, CompiledHiveGenerator):
        position = engine.position
        got = generator.native.evaluate(position.stacks, position.hands, position.actions,
                                        engine.last)
        if got is not None:
            return int(got)
    return evaluate_python(engine)


def compiled_evaluation_available() -> bool:
    """True if the compiled evaluation is built and in use (not switched off)."""
    return _CONFIGURED and native_hive_generator_available()


__all__ = ["BEETLE_ON_QUEEN", "ESCAPE", "IN_HAND", "MOBILE", "QUEEN_FILLED", "SLIDE_EXITS",
           "WIN", "compiled_evaluation_available", "evaluate", "evaluate_python"]
