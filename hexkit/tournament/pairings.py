"""Who plays whom, in which seats, with which seeds: a tournament's schedule.

A *group* is the set of bots at one table (a pair in a two-player game, three or four bots
in a game for three or four). Round-robin: every group of distinct bots; gauntlet: the
first bot against every group of the others. Each group plays its games in rounds, and each
round plays every seat order (both for two players, all 6 or 24 permutations for three or
four), so every bot sits in every seat equally often. The schedule runs round by round over
all groups, so a tournament stopped half-way has a balanced half.

Games are numbered from 1 in schedule order; the number is the game's id in the results
store. Seeds are derived from the tournament seed: the starting position from (group,
round), the same for every seat order of a round, so every bot gets to play each side of the
same start; each bot's seed from (game number, seat).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations, permutations
from math import comb, factorial

from hexkit.errors import OptionError

FORMATS = ("round-robin", "gauntlet")


@dataclass(frozen=True)
class Pairing:
    """One scheduled game: its number and who sits where (``seats[s]`` = bot index)."""

    number: int
    group: int
    round: int
    seats: tuple[int, ...]


def derived_seed(seed: int, *parts: object) -> int:
    """A 62-bit seed from the tournament seed and a path (stable across processes)."""
    text = ":".join(str(p) for p in ("hexkit-tournament", seed, *parts))
    return random.Random(text).getrandbits(62)


class Schedule:
    """The games of a tournament of ``bots`` bots in a game with ``seats`` seats."""

    def __init__(self, bots: int, seats: int, fmt: str = "round-robin",
                 games_per_group: int | None = None):
        if fmt not in FORMATS:
            raise OptionError(f"unknown format {fmt!r}; choose round-robin or gauntlet")
        if seats < 2:
            raise OptionError("a tournament needs a game for two players or more")
        if bots < seats:
            raise OptionError(f"this game has {seats} seats: a tournament needs at least "
                              f"{seats} bots, got {bots}")
        if fmt == "gauntlet" and bots == seats:
            raise OptionError(f"a gauntlet needs more than {seats} bots (with {seats}, "
                              "use round-robin)")
        self.bots, self.seats, self.format = bots, seats, fmt
        self.orders = list(permutations(range(seats)))
        per = len(self.orders)
        games = default_games(seats) if games_per_group is None else games_per_group
        if games < 1 or games % per:
            raise OptionError(
                f"--games-per-pair must be a positive multiple of {per}, so that every bot "
                f"sits in every seat equally often ({seats} seats: {per} seat orders)")
        self.rounds = games // per
        self.games_per_group = games
        if fmt == "round-robin":
            self.groups = comb(bots, seats)
        else:
            self.groups = comb(bots - 1, seats - 1)

    def __len__(self) -> int:
        return self.groups * self.games_per_group

    def group_members(self) -> Iterator[tuple[int, ...]]:
        """The groups of bots, in schedule order."""
        if self.format == "round-robin":
            yield from combinations(range(self.bots), self.seats)
        else:
            for rest in combinations(range(1, self.bots), self.seats - 1):
                yield (0, *rest)

    def __iter__(self) -> Iterator[Pairing]:
        number = 0
        for rnd in range(self.rounds):
            for g, members in enumerate(self.group_members()):
                for order in self.orders:
                    number += 1
                    yield Pairing(number, g, rnd, tuple(members[i] for i in order))


def default_games(seats: int) -> int:
    """Games per group by default: the smallest multiple of the seat orders >= 10."""
    per = factorial(seats)
    return per * -(-10 // per)
