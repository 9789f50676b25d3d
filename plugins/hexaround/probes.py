"""Requests that probe HexAround's rules, for ``hexkit grade``'s Java kind.

A random game rarely asks the questions a rule bug answers wrongly: a runner sent one hex
short, a walker across open space, Red's first creature placed away from Blue's, a
placement after the game has ended, both butterflies surrounded at once. This module
chooses such requests from the rules, on the reference's position:

* :func:`refused_probes` — at one position, requests a correct game refuses, one per rule
  (placements away from the colony, next to the enemy, on an occupied hex, of a creature
  not in hand or before the butterfly deadline; moves one hex past a creature's distance,
  a runner's one short, across open space, through a shut gate, onto an occupied hex,
  of a trapped creature, of the enemy's creature, that split the colony...). Each is
  checked on the reference (``engine.check``), so a correct game answers MOVE_ERROR and
  stays as it was: they can be mixed into a game without changing its course.
* :func:`after_end_probes` — once the game is over, every kind of request (placements and
  moves that would be legal, for either player): each must be MOVE_ERROR.
* :func:`ending_actions` — the legal actions that end the game now, by result (a
  surround of either butterfly, both at once, a stuck opponent).
* :func:`interest` — how rare a legal action's rule path is (kamikaze attacks, swaps,
  climbs, a runner ending nearer than its distance, a creature leaving a stack, hatching
  placements...), so that games steer through the rules that random play seldom takes.
* :func:`hemming` — an action that hems in a flyer of the next player, and that flyer's
  refused flight; :func:`kamikaze_return` — a kamikaze attack, and its victim placed again
  by its owner.
* :func:`seek` — the action a steering policy prefers: surround RED's butterfly, BLUE's,
  both at once (a draw), or leave the player to act without a legal action (stuck).

Everything reads the reference's engine (its public position tables) and never changes it
except by ``apply``/``undo`` pairs that leave it exactly as it was.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from hexaround.engine import BLUE_WON, DRAW, ONGOING, RED_WON, Engine
from hexaround.hexgrid import (
    FLY,
    HATCH,
    INTRUDE,
    JUMP,
    KAMIKAZE,
    OFFSETS,
    RUN,
    SWAP,
    TRAP,
    WALK,
    coords_of,
    hex_distance,
)

Action = tuple[int, int | None, int]
Call = list[Any]
#: Rule labels of the refused probes, in the order they are tried.
PLACEMENT_RULES = ("place away from the colony", "place next to the enemy",
                   "place on an occupied hex", "place a creature not in hand",
                   "place before the butterfly")
MOVEMENT_RULES = ("one hex past the distance", "a runner one short", "across open space",
                  "through a shut gate", "onto an occupied hex", "a trapped creature",
                  "the enemy's creature", "a creature not there", "to the same hex",
                  "a split colony", "a surrounded flyer", "a jump out of line",
                  "a move before the butterfly")
#: Steering goals of :func:`seek`.
GOALS = ("surround RED", "surround BLUE", "draw", "stuck")
#: Legal actions a steering step weighs at most (a random sample of them).
SEEK_POOL = 100
#: The opponent's destination hexes at most for :func:`ending_actions` to look for a move
#: that leaves it without any (one action seldom takes away more).
FEW_PLACES = 8


def call_of(engine: Engine, action: Action) -> Call:
    """The course call of an engine action."""
    kind, src, dst = action
    name = engine.names[kind]
    if src is None:
        return ["place", name, *coords_of(dst)]
    return ["move", name, *coords_of(src), *coords_of(dst)]


def _near(key: int) -> list[int]:
    return [key + o for o in OFFSETS]


def _touches(occ: set[int] | frozenset[int], key: int) -> bool:
    return any(key + o in occ for o in OFFSETS)


# ---- plain searches with one rule left out -----------------------------------------------

def _steps(occ: set[int], a: int, gates: bool, contact: bool) -> list[int]:
    """The hexes one step from ``a`` may reach on the working board ``occ``: through no
    gate (``gates``), keeping touch with the colony (``contact``)."""
    out = []
    for d in range(6):
        b = a + OFFSETS[d]
        if gates and a + OFFSETS[d - 1] in occ and a + OFFSETS[(d + 1) % 6] in occ:
            continue
        if contact and b not in occ and not _touches(occ, b):
            continue
        out.append(b)
    return out


def walk(occ: set[int], src: int, m: int, *, gates: bool = True, contact: bool = True,
         through: bool = False) -> dict[int, int]:
    """Hexes a walker reaches from ``src`` in 1..m steps on the working board ``occ`` (the
    mover lifted), with the fewest steps; ``gates``/``contact`` False leave out the slide
    rule / per-step continuity, ``through`` lets it pass over occupied hexes."""
    seen = {src: 0}
    out: dict[int, int] = {}
    layer = [src]
    for step in range(1, m + 1):
        nxt = []
        for a in layer:
            for b in _steps(occ, a, gates, contact):
                if b in seen:
                    continue
                seen[b] = out[b] = step
                if b not in occ or through:
                    nxt.append(b)
        layer = nxt
    return out


def run(occ: set[int], src: int, m: int, *, gates: bool = True, contact: bool = True,
        through: bool = False, limit: int = 4000) -> set[int]:
    """The ends of simple paths of exactly m steps (the start visited), as :func:`walk`
    reads a step; at most ``limit`` paths are explored."""
    ends: set[int] = set()
    visited = {src}
    budget = [limit]

    def extend(a: int, left: int) -> None:
        for b in _steps(occ, a, gates, contact):
            if budget[0] <= 0:
                return
            if b in visited:
                continue
            budget[0] -= 1
            if left == 1:
                ends.add(b)
                continue
            if b in occ and not through:
                continue
            visited.add(b)
            extend(b, left - 1)
            visited.discard(b)

    if m >= 1:
        extend(src, m)
    return ends


def _disc(src: int, radius: int) -> list[int]:
    out = []
    for dx in range(-radius, radius + 1):
        for dy in range(max(-radius, -dx - radius), min(radius, -dx + radius) + 1):
            if dx or dy:
                out.append(src + dx * OFFSETS[1] + dy)
    return out


def _in_line(a: int, b: int) -> bool:
    (ax, ay), (bx, by) = coords_of(a), coords_of(b)
    return ax == bx or ay == by or ax + ay == bx + by


# ---- refused requests, one per rule ---------------------------------------------------------

def _placement_candidates(engine: Engine, p: int, rng: random.Random) -> dict[str, list[Action]]:
    occ = engine.occ
    hand = engine.hands[p]
    in_hand = [k for k, n in enumerate(hand) if n]
    missing = [k for k, n in enumerate(hand) if not n]
    border = {b for k in occ for b in _near(k) if b not in occ}
    legal_spots = engine.placement_hexes(p)
    out: dict[str, list[Action]] = {}
    if not in_hand:
        return out
    others = [k for k in in_hand if k != engine.butterfly] or in_hand

    def with_kind(spots: Iterable[int], kinds: list[int]) -> list[Action]:
        return [(rng.choice(kinds), None, s) for s in spots]

    away = sorted({b for k in border for b in _near(k)} - border - occ)
    out["place away from the colony"] = with_kind(away, in_hand)
    enemy = engine.cadj[1 - p]
    out["place next to the enemy"] = with_kind(sorted(k for k in border if enemy.get(k)),
                                               in_hand)
    out["place on an occupied hex"] = with_kind(sorted(occ), in_hand)
    if missing and legal_spots:
        out["place a creature not in hand"] = with_kind(legal_spots, missing)
    if engine.under_obligation(p) and legal_spots:
        out["place before the butterfly"] = with_kind(
            legal_spots, [k for k in in_hand if k != engine.butterfly] or others)
    return out


def _movers(engine: Engine, p: int) -> list[tuple[int, int, bool]]:
    """(hex, code, trapped) of p's creatures: per hex and type the topmost one."""
    out = []
    flags = engine.code_flags
    for k, stack in engine.stacks.items():
        seen: set[int] = set()
        trapped = False
        for c in reversed(stack):
            if c & 1 == p and c not in seen:
                seen.add(c)
                out.append((k, c, trapped))
            if flags[c] & TRAP:
                trapped = True
    out.sort()
    return out


def _movement_candidates(engine: Engine, p: int, rng: random.Random,
                         most: int = 3) -> dict[str, list[Action]]:
    occ_all = engine.occ
    stacks = engine.stacks
    out: dict[str, list[Action]] = {}
    movers = _movers(engine, p)
    if not movers:
        return out

    def add(rule: str, kind: int, src: int, dests: Iterable[int]) -> None:
        out.setdefault(rule, []).extend((kind, src, d) for d in dests)

    # The creatures in a special spot first (trapped, in a stack, surrounded), then others.
    special = [m for m in movers if m[2] or len(stacks[m[0]]) > 1
               or engine.nmask.get(m[0], 0) == 63]
    others = [m for m in movers if m not in special]
    chosen = special + rng.sample(others, min(max(most - len(special), 1), len(others)))
    for src, code, trapped in chosen:
        kind = code >> 1
        flags = engine.code_flags[code]
        m = engine.kind_dist[kind]
        occ = set(occ_all)
        if len(stacks[src]) == 1:
            occ.discard(src)
        through = bool(flags & INTRUDE)
        if flags & (WALK | RUN):
            search = walk if flags & WALK else run
            plain = set(search(occ, src, m, through=through))
            add("one hex past the distance", kind, src,
                set(search(occ, src, m + 1, through=through)) - plain)
            open_space = set(search(occ, src, m, contact=False, through=through)) - plain
            add("across open space", kind, src, [d for d in open_space if _touches(occ, d)])
            add("through a shut gate", kind, src,
                set(search(occ, src, m, gates=False, through=through)) - plain)
            if flags & RUN:
                short = set(walk(occ, src, m, through=through)) - plain
                if m > 1:
                    short |= run(occ, src, m - 1, through=through) - plain
                add("a runner one short", kind, src, short)
            add("a split colony", kind, src, plain)
        else:
            ring = [d for d in _disc(src, m + 1) if hex_distance(src, d) == m + 1]
            add("one hex past the distance", kind, src, [d for d in ring if _touches(occ, d)
                                                          and (not flags & JUMP
                                                               or _in_line(src, d))])
            within = [d for d in _disc(src, m) if _touches(occ, d) or d in occ]
            if flags & JUMP:
                add("a jump out of line", kind, src, [d for d in within
                                                      if not _in_line(src, d)])
            if flags & FLY and engine.nmask.get(src, 0) == 63:
                add("a surrounded flyer", kind, src, within)
            add("a split colony", kind, src, within)
        add("onto an occupied hex", kind, src,
            [d for d in occ_all if d != src and hex_distance(src, d) <= m])
        if trapped:
            add("a trapped creature", kind, src, walk(occ, src, 1) or _near(src))
        add("to the same hex", kind, src, [src])
        if engine.under_obligation(p):
            add("a move before the butterfly", kind, src, walk(occ, src, m))
        names = [k for k in range(len(engine.names)) if k != kind
                 and k * 2 + p not in stacks[src]]
        if names:
            add("a creature not there", rng.choice(names), src, walk(occ, src, 1))
    enemy = _movers(engine, 1 - p)
    if enemy:
        src, code, _trapped = rng.choice(enemy)
        occ = set(occ_all) - ({src} if len(stacks[src]) == 1 else set())
        add("the enemy's creature", code >> 1, src, walk(occ, src, engine.kind_dist[code >> 1]))
    return out


def refused_probes(engine: Engine, rng: random.Random, count: int,
                   used: dict[str, int] | None = None, *,
                   rules: Iterable[str] | None = None) -> list[tuple[str, Action]]:
    """Up to ``count`` requests the reference refuses now, each probing another rule (the
    rules least probed so far in ``used`` first, which is updated); ``rules`` restricts
    them."""
    if engine.is_over() or count <= 0:
        return []
    p = engine.to_move
    candidates = _placement_candidates(engine, p, rng)
    if engine.actions[p] > 0:
        candidates.update(_movement_candidates(engine, p, rng))
    wanted = set(rules) if rules is not None else None
    used = used if used is not None else {}
    order = [r for r in candidates if candidates[r] and (wanted is None or r in wanted)]
    rng.shuffle(order)
    order.sort(key=lambda r: used.get(r, 0))
    out: list[tuple[str, Action]] = []
    for rule in order:
        if len(out) >= count:
            break
        options = candidates[rule]
        for action in rng.sample(options, min(4, len(options))):
            if engine.check(action) is not None:
                out.append((rule, action))
                used[rule] = used.get(rule, 0) + 1
                break
    return out


def after_end_probes(engine: Engine, rng: random.Random) -> list[Call]:
    """Requests of every kind once the game is over (each must be MOVE_ERROR): for the
    player who would act and the other one, a placement and a move that the position
    would allow, a butterfly placement, and one request the rules refuse anyway."""
    calls: list[Call] = []
    p = engine.to_move
    for q in (p, 1 - p):
        actions = engine.generate(q)
        places = [a for a in actions if a[1] is None]
        moves = [a for a in actions if a[1] is not None]
        for group in (places, moves):
            if group:
                calls.append(call_of(engine, rng.choice(group)))
    if engine.occ:
        spot = rng.choice(sorted({b for k in engine.occ for b in _near(k)} - engine.occ))
        calls.append(["place", "BUTTERFLY", *coords_of(spot)])
        calls.append(["place", engine.names[0], *coords_of(rng.choice(sorted(engine.occ)))])
    return calls


# ---- endings ----------------------------------------------------------------------------------

_ENDS = {BLUE_WON: "BLUE_WON", RED_WON: "RED_WON", DRAW: "DRAW"}


def _outcome(engine: Engine, action: Action, stuck: bool) -> tuple[int, bool]:
    """The result after the action (the stuck-player rule only if ``stuck``: it costs the
    next player's whole legal list), and whether a butterfly is surrounded then."""
    engine.apply(action)
    try:
        surrounded = any(b is not None and engine.nmask.get(b, 0) == 63 for b in engine.bpos)
        return engine.result if surrounded or stuck else ONGOING, surrounded
    finally:
        engine.undo()


def ending_actions(engine: Engine, everything: bool = False) -> dict[str, list[Action]]:
    """The legal actions that end the game now, by kind of ending: ``BLUE_WON`` (RED's
    butterfly surrounded), ``RED_WON``, ``draw`` (both at once), ``stuck`` (the opponent
    left without a legal action).

    Unless ``everything``, only the actions that might end it are tried: those onto the
    last free hexes around a butterfly (an action fills at most one hex), the butterflies'
    own, and, while the opponent has few places to go (:data:`FEW_PLACES`), every action
    for the stuck-player rule."""
    legal = engine.legal_actions()
    if not legal:
        return {}
    near: set[int] = set()
    for b in engine.bpos:
        if b is not None and bin(engine.nmask.get(b, 0)).count("1") >= 5:
            near.update(_near(b))
    own = {b for b in engine.bpos if b is not None}
    stuck = everything or len({a[2] for a in engine.generate(1 - engine.to_move)}) <= \
        FEW_PLACES
    if not (near or stuck):
        own_moves = [a for a in legal if a[1] in own]
        if not own_moves:
            return {}
        legal = own_moves
    found: dict[str, list[Action]] = {}
    for action in legal:
        if not stuck and action[2] not in near and action[1] not in own:
            continue
        result, surrounded = _outcome(engine, action, stuck)
        if result not in _ENDS:
            continue
        what = "draw" if result == DRAW else _ENDS[result] if surrounded else "stuck"
        found.setdefault(what, []).append(action)
    return found


def hemming(engine: Engine, rng: random.Random) -> list[Action] | None:
    """A legal action that fills the last free hex around a flyer of the next player (on
    top of its hex), then a flight of that flyer (refused: a flyer hemmed in cannot take
    off); None if no action does."""
    q = 1 - engine.to_move
    flags = engine.code_flags
    spots: set[int] = set()
    for k, stack in engine.stacks.items():
        if stack[-1] & 1 == q and flags[stack[-1]] & FLY and \
                bin(engine.nmask.get(k, 0)).count("1") == 5:
            spots.update(h for h in _near(k) if h not in engine.occ)
    if not spots:
        return None
    for action in engine.legal_actions():
        if action[2] not in spots:
            continue
        engine.apply(action)
        try:
            found = [] if engine.is_over() else refused_probes(
                engine, rng, 1, rules=("a surrounded flyer",))
        finally:
            engine.undo()
        if found:
            return [action, found[0][1]]
    return None


def kamikaze_return(engine: Engine) -> list[Action] | None:
    """A legal kamikaze attack on a creature of the next player that had no other of its
    kind in hand, then that player placing the creature again (legal: the victim went
    back to its hand); None if there is no such attack (or nowhere to place it)."""
    q = 1 - engine.to_move
    flags = engine.code_flags
    for action in engine.legal_actions():
        kind, src, dst = action
        if src is None or not flags[kind * 2 + engine.to_move] & KAMIKAZE:
            continue
        victim = engine.stacks.get(dst, [None])[-1]
        if victim is None or victim & 1 != q or engine.hands[q][victim >> 1]:
            continue
        engine.apply(action)
        try:
            if engine.is_over():
                continue
            for spot in engine.placement_hexes(q):
                again = (victim >> 1, None, spot)
                if engine.check(again) is None:
                    return [action, again]
        finally:
            engine.undo()
    return None


# ---- steering -----------------------------------------------------------------------------------

def _crowd(engine: Engine, player: int) -> int:
    b = engine.bpos[player]
    return bin(engine.nmask.get(b, 0)).count("1") if b is not None else 0


def interest(engine: Engine, action: Action) -> int:
    """How rare the rule path of a legal action is (0: an everyday move)."""
    kind, src, dst = action
    p = engine.to_move
    stacks = engine.stacks
    if src is None:
        if engine.hands[p][kind] and engine.actions[p] > 0 and engine.cadj[1 - p].get(dst):
            return 3  # a hatching placement next to the enemy
        return (1 if kind == engine.butterfly else 0) + _surrounds_a_flyer(engine, action)
    code = kind * 2 + p
    flags = engine.code_flags[code]
    score = 0
    if dst in stacks:
        score += 4  # an attack, a swap or a climb
    if len(stacks[src]) > 1:
        score += 3  # leaving a stack
    d = hex_distance(src, dst)
    m = engine.kind_dist[kind]
    if flags & RUN and d < m:
        score += 3  # a runner that ends nearer than its distance
    if flags & WALK and d >= 2:
        score += 1
    if flags & (FLY | JUMP) and engine.nmask.get(src, 0) and bin(
            engine.nmask.get(src, 0)).count("1") >= 4:
        score += 2
    if flags & HATCH or flags & KAMIKAZE or flags & SWAP:
        score += 1
    return score + _surrounds_a_flyer(engine, action)


def _surrounds_a_flyer(engine: Engine, action: Action) -> int:
    """3 if the action fills the last free neighbour of a flyer (which then cannot take
    off), else 0."""
    _kind, src, dst = action
    if dst in engine.occ:
        return 0
    for o in OFFSETS:
        k = dst + o
        stack = engine.stacks.get(k)
        if (k != src and stack and engine.code_flags[stack[-1]] & FLY
                and engine.nmask.get(k, 0) | _bit(k, dst) == 63
                and (src is None or src not in _near(k))):
            return 3
    return 0


def _bit(k: int, neighbour: int) -> int:
    return 1 << OFFSETS.index(neighbour - k)


def placeable_after(engine: Engine, action: Action) -> bool:
    """True if, once ``action`` is played, the player to act could place a creature were
    the game going on (after an ending: a placement a correct game must refuse)."""
    engine.apply(action)
    try:
        return any(a[1] is None for a in engine.generate(engine.to_move))
    finally:
        engine.undo()


def seek(engine: Engine, goal: str, rng: random.Random, legal: list[Action],
         keep: int | None = None) -> Action:
    """The action a steering policy takes for ``goal`` (one of :data:`GOALS`): the game's
    end of that kind when one is legal, else the action that brings it closest (more
    creatures around the butterfly or butterflies, fewer actions left to the victim), with
    ties broken at random.

    With ``keep`` (a player), that player keeps a creature in hand, and the game ends only
    by an action after which it is to act and could place it (:func:`placeable_after`): an
    ending that a game taking placements after its end shows at once, even in a variant of
    few creatures, where surrounding a butterfly takes nearly all of them."""
    p = engine.to_move
    ends = ending_actions(engine, everything=goal == "stuck")
    target = {"surround RED": "BLUE_WON", "surround BLUE": "RED_WON", "draw": "draw",
              "stuck": "stuck"}[goal]
    if target in ends:
        if keep is None:
            return ends[target][0]
        ready = [a for a in ends[target] if placeable_after(engine, a)]
        if ready:
            return ready[0]
    avoid = {a for found in ends.values() for a in found} \
        if goal in ("draw", "stuck") or keep is not None else set()
    pool = [a for a in legal if a not in avoid] or legal
    if len(pool) > SEEK_POOL:
        pool = rng.sample(pool, SEEK_POOL)
    best: list[Action] = []
    best_score = None
    for action in pool:
        engine.apply(action)
        try:
            if goal == "surround RED":
                score = _crowd(engine, 1) * 10 - _crowd(engine, 0)
            elif goal == "surround BLUE":
                score = _crowd(engine, 0) * 10 - _crowd(engine, 1)
            elif goal == "draw":
                score = _draw_score(engine)
            else:
                # the victim is the player who stays without a butterfly (Red here, by the
                # trajectory's choice): fewer of its placement hexes, butterfly kept in hand
                score = -len(engine.placement_hexes(1)) * 3 + (
                    5 if engine.bpos[1] is None else -50)
                if p == 1 and action[1] is None and action[0] == engine.butterfly:
                    score -= 100
            if keep is not None and not any(engine.hands[keep]):
                score -= 1000
        finally:
            engine.undo()
        if best_score is None or score > best_score:
            best, best_score = [action], score
        elif score == best_score:
            best.append(action)
    return rng.choice(best)


def _draw_score(engine: Engine) -> int:
    """How near the position is to a draw: both butterflies on the board and next to each
    other (only a hex beside both can be the last to fill around both at once), as few
    empty hexes around them as possible, one of them shared; a butterfly nearly surrounded
    with no shared hex left to fill is a dead end (its surround would be a win)."""
    a, b = engine.bpos
    if a is None or b is None:
        return -100 + 10 * ((a is not None) + (b is not None))
    occ = engine.occ
    empty_a = {h for h in _near(a) if h not in occ}
    empty_b = {h for h in _near(b) if h not in occ}
    shared = empty_a & empty_b
    score = -10 * (len(empty_a) + len(empty_b))
    distance = hex_distance(a, b)
    score += 30 if distance == 1 else -5 * distance
    if shared:
        score += 15
    elif len(empty_a) <= 1 or len(empty_b) <= 1:
        score -= 40
    return score
