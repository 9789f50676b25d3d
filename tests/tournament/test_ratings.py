"""Standings, openskill ratings, crosstable and Elo differences from stored games."""

from __future__ import annotations

import pytest

from hexkit.tournament.ratings import crosstable, elo_difference, ranked, standings
from hexkit.tournament.store import GameRow


def row(number, seats, winners, fault_bot=None, kind=None, error=""):
    return GameRow(number, tuple(seats), tuple(winners), "", 10, False, fault_bot, kind,
                   None, error, 0.1)


def test_an_even_score_is_zero_elo_and_the_interval_contains_it():
    rows = [row(i, (0, 1), (i % 2,)) for i in range(20)]
    d = elo_difference(0, 1, rows)
    assert d.elo == 0 and d.low < 0 < d.high and d.games == 20


def test_three_quarters_of_the_points_is_about_191_elo():
    rows = [row(i, (0, 1), (0,) if i % 4 else (1,)) for i in range(400)]
    d = elo_difference(0, 1, rows)
    assert d.elo == pytest.approx(190.85, abs=0.01)
    assert 150 < d.low < d.elo < d.high < 240
    assert elo_difference(1, 0, rows).elo == pytest.approx(-190.85, abs=0.01)


def test_winning_every_game_has_no_upper_bound_but_a_finite_lower_one():
    d = elo_difference(0, 1, [row(i, (i % 2, 1 - i % 2), (0,)) for i in range(10)])
    assert d.elo is None and d.high is None and d.score == 1
    assert d.low is not None and 100 < d.low < 800


def test_the_winner_of_every_game_is_rated_first_with_an_interval():
    rows = [row(n, (a, b), (min(a, b),)) for n, (a, b) in
            enumerate([(0, 1), (1, 0), (0, 2), (2, 0), (1, 2), (2, 1)] * 3)]
    table = standings(["strong", "middle", "weak"], rows)
    assert [s.spec for s in ranked(table)] == ["strong", "middle", "weak"]
    assert [(s.wins, s.losses) for s in table] == [(12, 0), (6, 6), (0, 12)]
    low, high = table[0].interval
    assert low < table[0].mu < high


def test_ratings_depend_on_the_results_not_on_the_order_they_arrived_in():
    rows = [row(n, (n % 3, (n + 1) % 3), ((n * 7) % 3 % 2,) if n % 5 else ())
            for n in range(30)]
    a = standings(["a", "b", "c"], rows)
    b = standings(["a", "b", "c"], list(reversed(rows)))
    assert [(s.mu, s.sigma) for s in a] == [(s.mu, s.sigma) for s in b]


def test_games_that_could_not_be_played_count_for_no_one():
    rows = [row(1, (0, 1), (0,)), row(2, (1, 0), (), error="rules failed")]
    table = standings(["a", "b"], rows)
    assert [s.games for s in table] == [1, 1]
    assert crosstable(2, rows)[0][1] == (1.0, 1)


def test_adjudicated_losses_are_counted_by_kind():
    rows = [row(1, (0, 1), (1,), fault_bot=0, kind="time"),
            row(2, (1, 0), (1,), fault_bot=0, kind="crash")]
    assert standings(["a", "b"], rows)[0].faults == {"time": 1, "crash": 1}


def test_the_crosstable_of_a_three_player_game_scores_each_pair():
    rows = [row(1, (0, 1, 2), (0,)), row(2, (2, 0, 1), ())]
    table = crosstable(3, rows)
    assert table[0][1] == (1.5, 2) and table[1][0] == (0.5, 2) and table[1][2] == (1.0, 2)
