"""Hex Baron's help for the MCTS bot: an evaluation of unfinished positions.

A game of Hex Baron ends only when a baron is destroyed (two or more occupied neighbours at
the end of a turn), and then the most VPs wins. Random playouts rarely get there, and a bot
that only counts VPs has no reason to attack: it waits, and the game never ends. So the
evaluation scores, for each player:

* VPs, counting the pieces that would be destroyed if the turn ended now (their VPs go to
  the opponent of their owner, as at the end of a turn);
* pressure: each occupied tile next to the enemy baron is one of the two that destroy it,
  and each occupied tile next to one's own baron is the same danger;
* approach: how many steps the two cheapest would-be attackers need to stand next to the
  enemy baron: one's pieces that can move, one's baron, and serfs that could be spawned next
  to it (lumber and supply permitting). It counts in proportion to the fuel there is to walk
  those steps (a digger in a peat bog counts as a supply of fuel), so a player with no fuel
  is no threat;
* the economy: fuel and lumber (what moves, spawns and upgrades are paid with; beyond a
  turn's worth or two they add nothing, so hoarding them is not a plan), and a digger
  standing in a peat bog, which makes fuel every command.

The score difference becomes a reward in 0..1 through a wide logistic curve, so a lead
does not flatten the differences between moves. Piece values, the destruction threshold,
which pieces are barons or diggers and how pieces move come from the game's catalogue, so
extension pieces are scored too.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from hexbaron.catalogue import BOG, FIELD, FUEL, LUMBER, SUPPLY
from hexbaron.commands import COMMANDS_PER_TURN, SPAWN_LUMBER, Command
from hexbaron.game import HexBaronState
from hexbaron.position import Position

#: Score per occupied tile next to the enemy baron (and against, next to one's own).
PRESSURE = 1.0
#: Score per step saved, for each of the two cheapest would-be attackers.
APPROACH = 0.3
#: Score per unit of fuel and of lumber, up to the caps.
FUEL_VALUE, FUEL_CAP = 0.2, 12
LUMBER_VALUE, LUMBER_CAP = 0.1, 10
#: Score of a digger standing in a peat bog (a fuel income), and the fuel it is taken to
#: be worth when judging whether an attack can be walked.
DIGGER, DIGGER_FUEL = 2.5, 6
#: Score difference that moves the reward from 0.5 to about 0.73.
TEMPERATURE = 5.0


def scores(state: HexBaronState) -> list[float]:
    """Each player's score (see the module docstring); the evaluation compares them."""
    pos = state.pos
    pieces, nbrs, types, cubes, terrain = pos.pieces, pos.neighbours, pos.types, pos.cubes, \
        pos.terrain
    occupied = [p is not None for p in pieces]
    crowd = [0] * pos.n
    score = [float(v) for v in pos.vps]
    diggers = [False, False]
    barons: list[list[int]] = [[], []]
    others: list[list[int]] = [[], []]
    for tile, p in enumerate(pieces):
        if p is None:
            continue
        count = 0
        for j in nbrs[tile]:
            if occupied[j]:
                count += 1
        crowd[tile] = count
        ptype = types[p.kind]
        if count >= ptype.destroy_at:  # gone at the end of this turn
            score[1 - p.owner] += ptype.vp_value
        elif ptype.is_baron:
            barons[p.owner].append(tile)
        else:
            others[p.owner].append(tile)
            if "dig" in ptype.actions and terrain[tile] == BOG:
                score[p.owner] += DIGGER
                diggers[p.owner] = True
    far = pos.size  # more than the largest distance between two tiles

    def distance(a: int, b: int) -> int:
        xa, ya, za = cubes[a]
        xb, yb, zb = cubes[b]
        return max(abs(xa - xb), abs(ya - yb), abs(za - zb))

    for seat in (0, 1):
        res = pos.resources[seat]
        fuel = max(0, res.get(FUEL, 0))
        lumber = max(0, res.get(LUMBER, 0))
        score[seat] += FUEL_VALUE * min(fuel, FUEL_CAP) + LUMBER_VALUE * min(lumber, LUMBER_CAP)
        for b in barons[seat]:
            score[seat] -= PRESSURE * crowd[b]
        spawns = min(2, max(0, res.get(SUPPLY, 0)), lumber // SPAWN_LUMBER)
        for b in barons[1 - seat]:
            score[seat] += PRESSURE * crowd[b]
            costs = []
            for t in others[seat]:
                d = distance(t, b)
                if d == 1:
                    costs.append(0)
                elif types[pieces[t].kind].move_cost(terrain[t], FIELD) >= 0:
                    costs.append(d - 1)
            for t in barons[seat]:
                d = distance(t, b)
                costs.append(d - 1)
                costs += [max(0, d - 2)] * spawns  # spawned next to the baron
            costs = sorted(costs)[:2]
            need = sum(costs)
            have = fuel + (DIGGER_FUEL if diggers[seat] else 0)
            able = 1.0 if need <= have else have / need
            score[seat] += APPROACH * able * sum(far - c for c in costs)
    return score


def evaluate(state: HexBaronState) -> list[float]:
    """Rewards for (Player One, Player Two) in 0..1 (see the module docstring)."""
    one, two = scores(state)
    x = 1.0 / (1.0 + math.exp((two - one) / TEMPERATURE))
    return [x, 1.0 - x]


# -- tactics: a baron destroyed this turn, a baron under threat defended ----------------------
#: Commands played, at most, by one search for a way to destroy a baron within a turn (a
#: search that runs out says "maybe": an attack is assumed, and a defence is looked for).
SEARCH_PUSHES = 4000
#: The verbs that can put a piece next to a baron within a turn, or pay for that: moves and
#: spawns, and the digging and sawing that buy fuel and lumber.
_ATTACK_VERBS = frozenset({"move", "spawn", "dig", "saw"})
#: The built-in verbs. Any other command was added by an extension: the searches try it
#: too, and since what it does is unknown, the bounds that prune them assume the worst of it
#: (see :class:`_Search`).
BUILT_IN_VERBS = frozenset({"move", "spawn", "dig", "saw", "upgrade", "pass"})


class _OutOfBudget(Exception):
    pass


def _barons(pos: Position, seat: int) -> list[int]:
    types, pieces = pos.types, pos.pieces
    return [t for t in pos.owned[seat] if types[pieces[t].kind].is_baron]


def _distance(pos: Position, a: int, b: int) -> int:
    xa, ya, za = pos.cubes[a]
    xb, yb, zb = pos.cubes[b]
    return max(abs(xa - xb), abs(ya - yb), abs(za - zb))


def _mobile(pos: Position, tile: int) -> bool:
    """True if the piece on ``tile`` could step to some neighbouring tile's terrain."""
    ptype = pos.types[pos.pieces[tile].kind]
    here, terrain = pos.terrain[tile], pos.terrain
    return any(ptype.move_cost(here, terrain[j]) >= 0 for j in pos.neighbours[tile])


#: What the extension commands of a position may do, for :func:`_commands_needed`: none
#: legal, only change resources, or (may) change the board.
NO_EXTENSION, RESOURCES, BOARD = 0, 1, 2


def _commands_needed(pos: Position, seat: int, target: int,
                     extension: int = NO_EXTENSION) -> int:
    """A lower bound on the commands ``seat`` needs to destroy the baron on ``target`` at
    the end of the turn: one per piece that must still arrive next to it (its distance
    less one, or a spawn next to one's own baron), fuel and paths aside. Where an extension
    command changes the board, one command might do it all; where one only changes
    resources, spawns are limited by the supply and lumber it might add."""
    pieces, nbrs = pos.pieces, pos.neighbours
    occupied = sum(1 for j in nbrs[target] if pieces[j] is not None)
    need = pos.types[pieces[target].kind].destroy_at - occupied
    if need <= 0:
        return 0
    if extension == BOARD:
        return 1
    costs = [_distance(pos, t, target) - 1 for t in pos.owned[seat]
             if _distance(pos, t, target) > 1 and _mobile(pos, t)]
    res = pos.resources[seat]
    spawns = min(res.get(SUPPLY, 0), res.get(LUMBER, 0) // SPAWN_LUMBER)
    if extension == RESOURCES:
        spawns = COMMANDS_PER_TURN
    if spawns > 0:
        for b in _barons(pos, seat):
            costs += [1 + max(0, _distance(pos, b, target) - 2)] * spawns
    if len(costs) < need:
        return COMMANDS_PER_TURN + 1
    costs.sort()
    return sum(costs[:need])


class _Search:
    """A depth-first search of one player's remaining commands this turn, for a way to
    destroy an enemy baron at the end of it (only commands that can help are tried).

    Commands added by extensions are tried as well. What one does is learnt by playing it
    once (per verb, per search): if it changed which piece stands where, it may bring an
    attacker anywhere, and the search stops pruning by distance where one is legal; if it
    changed only resources, spawns are no longer limited by lumber and supply."""

    def __init__(self, state: HexBaronState, attacker: int):
        self.state = state
        self.attacker = attacker
        self.targets = _barons(state.pos, 1 - attacker)
        self.own = len(_barons(state.pos, attacker))
        self.pushes = 0
        #: Extension verb -> BOARD or RESOURCES, as seen when first played.
        self.kinds: dict[str, int] = {}

    def _extension(self, legal: Sequence[Command]) -> int:
        """The most an extension command legal here may do (NO_EXTENSION if none is)."""
        most = NO_EXTENSION
        for command in legal:
            verb = command.verb
            if verb in BUILT_IN_VERBS:
                continue
            kind = self.kinds.get(verb)
            if kind is None:
                pieces = list(self.state.pos.pieces)
                self._push(command)
                try:
                    kind = BOARD if list(self.state.pos.pieces) != pieces else RESOURCES
                finally:
                    self.state.pop()
                self.kinds[verb] = kind
            most = max(most, kind)
            if most == BOARD:
                break
        return most

    def plan(self) -> list[Command] | None:
        if not self.targets or self.state.is_over():
            return None
        return self._search()

    def _left(self) -> int:
        pos = self.state.pos
        return COMMANDS_PER_TURN - pos.command if pos.seat == self.attacker else 0

    def _push(self, command: Command) -> None:
        self.pushes += 1
        if self.pushes > SEARCH_PUSHES:
            raise _OutOfBudget
        self.state.push(command)

    def _done(self) -> bool:
        pos = self.state.pos
        pieces, types = pos.pieces, pos.types
        hit = any(pieces[t] is None or not types[pieces[t].kind].is_baron
                  for t in self.targets)
        return hit and len(_barons(pos, self.attacker)) >= self.own

    def _search(self) -> list[Command] | None:
        state, pos = self.state, self.state.pos
        left = self._left()
        if left == 0:
            return [] if self._done() else None
        legal = state.legal_moves()
        extension = self._extension(legal)
        needed = {t: _commands_needed(pos, self.attacker, t, extension) for t in self.targets}
        reachable = [t for t in self.targets if needed[t] <= left]
        if not reachable:
            return None
        if any(needed[t] == 0 for t in reachable):
            if self._ends_with_passes(left):
                return [Command("pass")] * left
        for command in self._relevant(legal, reachable, left):
            self._push(command)
            try:
                rest = self._search()
            finally:
                state.pop()
            if rest is not None:
                return [command, *rest]
        return None

    def _ends_with_passes(self, left: int) -> bool:
        state = self.state
        pushed = 0
        try:
            for _ in range(left):
                self._push(Command("pass"))
                pushed += 1
            return self._done()
        finally:
            for _ in range(pushed):
                state.pop()

    def _relevant(self, legal: Sequence[Command], targets: list[int],
                  left: int) -> list[Command]:
        """The commands worth trying: moves of pieces that could still arrive next to a
        target (nearest first), spawns, extension commands, digs and saws; never upgrades
        or passes (a pass is tried by :meth:`_ends_with_passes`)."""
        pos = self.state.pos
        keyed = []
        for command in legal:
            if command.verb not in BUILT_IN_VERBS:
                keyed.append((8, str(command), command))
                continue
            if command.verb not in _ATTACK_VERBS:
                continue
            if command.verb == "move":
                start, end = command.args
                if any(_distance(pos, start, t) - 1 > left and _distance(pos, end, t) > left
                       for t in targets):
                    continue
                key = min(_distance(pos, end, t) for t in targets)
            elif command.verb == "spawn":
                key = min(_distance(pos, command.args[0], t) for t in targets)
            else:
                key = 9  # resources last
            keyed.append((key, str(command), command))
        keyed.sort(key=lambda k: (k[0], k[1]))
        return [c for _, _, c in keyed]


def destroy_plan(state: HexBaronState, seat: int | None = None) -> list[Command] | None:
    """The commands by which the player to act destroys an enemy baron at the end of this
    turn (their own barons kept), or None; "maybe" (a search that ran out) is None too."""
    attacker = state.current_player if seat is None else seat
    if attacker != state.current_player:
        return None
    try:
        return _Search(state, attacker).plan()
    except _OutOfBudget:
        return None


def under_threat(state: HexBaronState) -> bool:
    """At the start of a turn: True if the player to act can destroy an enemy baron by
    the end of it (or the search could not rule it out)."""
    try:
        return _Search(state, state.current_player).plan() is not None
    except _OutOfBudget:
        return True


def may_win(state: HexBaronState) -> list[Command]:
    """The commands that might win at once: only Player Two's last command of a turn can
    end the game (a baron already lost, the turn limit, Player One's baron crowded enough to
    go at the end of this turn, or an extension command that might do anything)."""
    pos = state.pos
    if pos.seat != 1 or pos.command != COMMANDS_PER_TURN - 1 or state.is_over():
        return []
    limit = state.game.max_turns
    legal = state.legal_moves()
    if pos.baron_lost or (limit and pos.turns[1] + 1 >= limit) or \
            any(c.verb not in BUILT_IN_VERBS for c in legal):
        return legal  # (an extension command might crowd a baron by more than one)
    pieces, nbrs, types = pos.pieces, pos.neighbours, pos.types
    for b in _barons(pos, 0):
        crowd = sum(1 for j in nbrs[b] if pieces[j] is not None)
        if crowd + 1 >= types[pieces[b].kind].destroy_at:
            return legal
    return []


def _safe_after(state: HexBaronState, me: int, barons: int) -> bool:
    """With the rest of ``me``'s turn passed: ``me`` still has ``barons`` barons after its
    end, and the other player cannot destroy one in the next turn."""
    pushed = 0
    try:
        while not state.is_over() and state.current_player == me:
            state.push(Command("pass"))
            pushed += 1
        if len(_barons(state.pos, me)) < barons:
            return False
        return state.is_over() or not under_threat(state)
    finally:
        for _ in range(pushed):
            state.pop()


def shortlist(state: HexBaronState, legal: Sequence[Command]) -> list[Command]:
    """Hex Baron's tactics over a three-command turn: the first command of a plan that
    destroys an enemy baron this turn if there is one; else the commands that begin a way
    through the rest of the turn after which no baron of one's own is destroyed at its end
    or can be in the next turn (one command then passes, else two, else three, within
    :data:`DEFENCE_CHECKS` checks); else every command (the search decides)."""
    plan = destroy_plan(state)
    if plan:
        return [plan[0]]
    me = state.current_player
    barons = len(_barons(state.pos, me))
    left = COMMANDS_PER_TURN - state.pos.command
    budget = [DEFENCE_CHECKS]
    for depth in range(1, left + 1):
        safe = []
        for command in legal:
            state.push(command)
            try:
                if _defended(state, me, barons, depth - 1, budget):
                    safe.append(command)
            except _OutOfBudget:
                return list(legal)
            finally:
                state.pop()
        if safe:
            return safe
    return list(legal)


#: Positions checked, at most, by one search for a defence.
DEFENCE_CHECKS = 600


def _defended(state: HexBaronState, me: int, barons: int, more: int,
              budget: list[int]) -> bool:
    """True if ``me`` is safe after passing the rest of the turn, or (with ``more``
    commands to spare) after some further command of this turn."""
    budget[0] -= 1
    if budget[0] < 0:
        raise _OutOfBudget
    if _safe_after(state, me, barons):
        return True
    if more <= 0 or state.is_over() or state.current_player != me:
        return False
    for command in state.legal_moves():
        if command.verb == "pass":
            continue
        state.push(command)
        try:
            if _defended(state, me, barons, more - 1, budget):
                return True
        finally:
            state.pop()
    return False
