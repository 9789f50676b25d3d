"""The focus game under the conformance kit: the course board and the cross board for 2,
3 and 4 players, played to the end with every move checked."""

from __future__ import annotations

import pytest

from hexkit.testing import check_game


@pytest.mark.parametrize("options", [
    {},
    {"distance": "exact"},
    {"colours": "GR", "layout": "player_order"},
    {"max_height": 3, "start_reserve": 2},
    {"win": "last_mover"},
    {"board": "cross", "players": 4, "win": "captures"},
])
def test_focus_variants_follow_the_hexkit_api(options):
    # sample=2: two deep checks (notation, saving, exact undo) per position, not six; every
    # other check of every position stays (tests/focus/test_variants.py runs the defaults).
    report = check_game("focus", games=2, max_moves=60, sample=2, **options)
    assert report.moves > 0


def test_course_games_play_to_the_end():
    report = check_game("focus", games=3, max_moves=1000, sample=2)
    assert report.finished == 3
    assert all(o is not None and "captured" in o.reason for o in report.outcomes)


# Random play rarely strands a player on the cross board: most random games last 5,000 to
# 30,000 moves, and none of seeds 0-3499 ends within 1,300 moves with two players. These
# seeds give the shortest games found (2,677, 734 and 1,112 moves), so a whole game runs
# through the kit in a second or two; sample=1 keeps the per-move checks (the legal moves
# pushed and popped) and deep-checks one of them.
@pytest.mark.parametrize("players, seed", [(2, 1324), (3, 875), (4, 3143)])
def test_cross_board_games_play_to_the_end_with_the_last_mover_winning(players, seed):
    report = check_game("focus", board="cross", players=players, games=1, seed=seed,
                        sample=1, max_moves=3500)
    assert report.finished == 1
    (outcome,) = report.outcomes
    assert outcome is not None and outcome.reason.endswith("is the last player able to move")
