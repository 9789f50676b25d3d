"""Scores, crosstable and ratings of a tournament's stored games.

* **Standings**: wins, draws, losses and points (a win 1, a draw 1/2) per bot, and losses by
  adjudication (time, illegal move, crash) apart.
* **Ratings**: openskill's Plackett-Luce model, which rates games of any number of players:
  each game ranks its winners first (together) and the others after; a draw ranks everyone
  equal. Games are rated in schedule order, so the ratings depend only on the results, never
  on which game finished first. A rating is shown as ``mu`` with the 95% interval
  ``mu +- 1.96 sigma``.
* **Crosstable**: for each pair of bots, the first one's score in the games both played
  (1 for finishing ahead, 1/2 for level).
* **Elo difference** for a pair in two-player games: ``-400 log10(1/p - 1)`` from the score
  ``p``, with a 95% interval from the per-game score's standard error (wins, draws and losses
  counted apart, as chess engine testers do). When one bot won every game the difference is
  unbounded and the interval's finite end comes from the Wilson interval of ``p``.
"""

from __future__ import annotations

import importlib.util
import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from hexkit.errors import OptionError
from hexkit.tournament.store import GameRow

INSTALL_HINT = "tournament ratings need openskill: pip install 'hexkit-games[tournament]'"

Z95 = 1.959963984540054


@dataclass
class Standing:
    """One bot's results and rating."""

    bot: int
    spec: str
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    faults: dict[str, int] = field(default_factory=dict)  # losses by adjudication, by kind
    mu: float = 0.0
    sigma: float = 0.0

    @property
    def points(self) -> float:
        return self.wins + self.draws / 2

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% interval of the rating."""
        return self.mu - Z95 * self.sigma, self.mu + Z95 * self.sigma


@dataclass(frozen=True)
class EloDifference:
    """How much stronger ``first`` is than ``second`` in Elo points, with a 95% interval
    (``None`` for an end that is unbounded)."""

    first: int
    second: int
    games: int
    wins: int
    draws: int
    losses: int
    elo: float | None
    low: float | None
    high: float | None

    @property
    def score(self) -> float:
        return (self.wins + self.draws / 2) / self.games if self.games else 0.5


def _placed(row: GameRow) -> dict[int, int]:
    """Each bot's rank in a game: 1 for a winner (or everyone in a draw), else 2."""
    if not row.winners:
        return {b: 1 for b in row.seats}
    return {b: 1 if b in row.winners else 2 for b in row.seats}


def require_openskill() -> None:
    """OptionError with the install command when openskill is missing (checked before a
    tournament plays its first game, not after)."""
    if importlib.util.find_spec("openskill") is None:
        raise OptionError(INSTALL_HINT)


def standings(specs: Sequence[str], rows: Sequence[GameRow]) -> list[Standing]:
    """Every bot's standing (in the order of ``specs``), rated with openskill."""
    require_openskill()
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    table = [Standing(i, s) for i, s in enumerate(specs)]
    ratings = [model.rating(name=s) for s in specs]
    for row in sorted(rows, key=lambda r: r.number):
        if not row.played:
            continue
        place = _placed(row)
        for b in row.seats:
            s = table[b]
            s.games += 1
            if not row.winners:
                s.draws += 1
            elif b in row.winners:
                s.wins += 1
            else:
                s.losses += 1
        if row.fault_bot is not None and row.fault_kind:
            faults = table[row.fault_bot].faults
            faults[row.fault_kind] = faults.get(row.fault_kind, 0) + 1
        teams = [[ratings[b]] for b in row.seats]
        rated = model.rate(teams, ranks=[place[b] for b in row.seats])
        for b, (new,) in zip(row.seats, rated, strict=True):
            ratings[b] = new
    for s, r in zip(table, ratings, strict=True):
        s.mu, s.sigma = r.mu, r.sigma
    return table


def ranked(table: Sequence[Standing]) -> list[Standing]:
    """Standings best first: by rating, then points, then the order given."""
    return sorted(table, key=lambda s: (-s.mu, -s.points, s.bot))


def crosstable(bots: int, rows: Sequence[GameRow]) -> list[list[tuple[float, int]]]:
    """``table[a][b]`` = (score of bot ``a`` against bot ``b``, games they played together)."""
    table = [[(0.0, 0) for _ in range(bots)] for _ in range(bots)]
    for row in rows:
        if not row.played:
            continue
        place = _placed(row)
        for a in row.seats:
            for b in row.seats:
                if a != b:
                    score, games = table[a][b]
                    gained = 1.0 if place[a] < place[b] else 0.5 if place[a] == place[b] else 0
                    table[a][b] = (score + gained, games + 1)
    return table


def elo_difference(first: int, second: int, rows: Sequence[GameRow]) -> EloDifference:
    """The Elo difference ``first`` - ``second`` over their two-player games."""
    wins = draws = losses = 0
    for row in rows:
        if not row.played or len(row.seats) != 2 or set(row.seats) != {first, second}:
            continue
        if not row.winners:
            draws += 1
        elif first in row.winners:
            wins += 1
        else:
            losses += 1
    n = wins + draws + losses
    if n == 0:
        return EloDifference(first, second, 0, 0, 0, 0, None, None, None)
    p = (wins + draws / 2) / n
    if 0 < p < 1:
        variance = (wins * (1 - p) ** 2 + draws * (0.5 - p) ** 2 + losses * p**2) / n
        margin = Z95 * math.sqrt(variance / n)
        low, high = p - margin, p + margin
    else:  # one bot won everything: the interval is open on that side
        low, high = _wilson(p, n)
        low, high = (low, 1.0) if p == 1 else (0.0, high)
    return EloDifference(first, second, n, wins, draws, losses, _elo(p), _elo(low),
                         _elo(high))


def _wilson(p: float, n: int) -> tuple[float, float]:
    centre = (p + Z95**2 / (2 * n)) / (1 + Z95**2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / (1 + Z95**2 / n)
    return centre - half, centre + half


def _elo(p: float) -> float | None:
    """Elo points for an expected score ``p`` (None at 0 or 1: unbounded)."""
    if p <= 0 or p >= 1:
        return None
    return -400 * math.log10(1 / p - 1)
