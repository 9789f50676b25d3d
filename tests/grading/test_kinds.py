"""Each submission kind: the pristine submission gets full score, a single-bug mutant less,
with the shortest counterexample in the failed test's output."""

from __future__ import annotations

import pytest


def failed(result):
    return [t for t in result.tests if t.status != "passed"]


@pytest.mark.parametrize("kind", ["focusgame", "hexbaron", "plugin"])
def test_a_pristine_submission_gets_full_score(graded, kind):
    result = graded(kind)
    assert result.kind == kind
    assert result.score == result.max_score == 100, [t.output for t in failed(result)]


def test_a_focusgame_that_lets_a_player_move_twice_fails_movement_with_two_calls(graded):
    result = graded("focusgame", "no_turn_order")
    [test] = failed(result)
    assert test.name == "movement" and test.score == 0
    assert test.counterexample == 2
    assert "game.move_piece('PlayerA'" in test.output
    assert "expected: 'not your turn'" in test.output
    assert "got:      'successfully moved'" in test.output


def test_a_hexbaron_program_that_needs_three_neighbours_to_destroy_fails_captures(graded):
    result = graded("hexbaron", "destroy_threshold")
    test = next(t for t in failed(result) if t.name == "captures")
    assert result.score < result.max_score
    assert test.counterexample is not None and test.counterexample <= 8
    assert "random.seed(" in test.output and "- expected, + your program" in test.output


def test_a_plugin_whose_winner_is_the_other_seat_fails_winning_with_the_game(graded):
    """The planted bug that passed OpenSpiel's, PettingZoo's and hexkit's own API checks."""
    result = graded("plugin", "winner_swapped", bot=2, random=0, length=200)
    [test] = failed(result)
    assert test.name == "winning" and result.score < result.max_score
    assert "After the move: expected won by Red (seat 0), got won by Green (seat 1)" in \
        test.output or "expected won by Green (seat 1), got won by Red (seat 0)" in test.output
    assert test.picture is not None and "<svg" in test.picture


def test_a_plugin_whose_refusal_changes_its_state_fails(graded):
    result = graded("plugin", "refusal_changes_state")
    assert any("changed its state" in t.output for t in failed(result))
