"""Schedules: every group meets, every bot sits in every seat equally often, seeds derived
from the tournament seed."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from hexkit.errors import OptionError
from hexkit.tournament.pairings import Schedule


def test_a_round_robin_plays_every_pair_in_both_seat_orders():
    games = list(Schedule(4, 2, "round-robin", 4))
    assert len(games) == 6 * 4 and [g.number for g in games] == list(range(1, 25))
    orders = Counter(g.seats for g in games)
    assert set(orders) == {(a, b) for a in range(4) for b in range(4) if a != b}
    assert set(orders.values()) == {2}


def test_three_and_four_player_games_rotate_through_every_seat_permutation():
    for seats, per in ((3, 6), (4, 24)):
        games = list(Schedule(seats + 1, seats, "round-robin", per))
        for members in combinations(range(seats + 1), seats):
            tables = [g.seats for g in games if set(g.seats) == set(members)]
            assert len(set(tables)) == per  # all orders, each once
        sits = Counter((bot, seat) for g in games for seat, bot in enumerate(g.seats))
        assert len(set(sits.values())) == 1  # every bot in every seat equally often


def test_a_gauntlet_plays_the_first_bot_against_each_of_the_others():
    games = list(Schedule(4, 2, "gauntlet", 2))
    assert {frozenset(g.seats) for g in games} == {frozenset({0, b}) for b in (1, 2, 3)}
    assert all(0 in g.seats for g in games)


def test_a_stopped_schedule_has_played_each_group_about_equally():
    first_half = list(Schedule(3, 2, "round-robin", 4))[:6]
    assert Counter(frozenset(g.seats) for g in first_half) == {
        frozenset(p): 2 for p in combinations(range(3), 2)}


@pytest.mark.parametrize(("bots", "seats", "games", "fmt", "message"), [
    (3, 2, 3, "round-robin", "--games-per-pair must be a positive multiple of 2"),
    (4, 3, 4, "round-robin", "--games-per-pair must be a positive multiple of 6"),
    (2, 3, 6, "round-robin", "this game has 3 seats: a tournament needs at least 3 bots"),
    (2, 2, 2, "gauntlet", "a gauntlet needs more than 2 bots"),
    (3, 2, 2, "swiss", "unknown format 'swiss'"),
])
def test_impossible_schedules_are_refused_with_one_line(bots, seats, games, fmt, message):
    with pytest.raises(OptionError, match=message):
        Schedule(bots, seats, fmt, games)


def test_defaults_give_at_least_ten_games_per_group_in_whole_rotations():
    assert [Schedule(4, s).games_per_group for s in (2, 3, 4)] == [10, 12, 24]
