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

from hexbaron.catalogue import BOG, FIELD, FUEL, LUMBER, SUPPLY
from hexbaron.commands import SPAWN_LUMBER
from hexbaron.game import HexBaronState

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
