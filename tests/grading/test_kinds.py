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
    # One bot game, from the seed whose game ends soonest (30 moves) among seeds 0-39: the
    # shrinking replays it up to 150 times, so a long game cost seconds to show this bug.
    result = graded("plugin", "winner_swapped", bot=1, random=0, length=200, seed=16)
    [test] = failed(result)
    assert test.name == "winning" and result.score < result.max_score
    assert "After the move: expected won by Red (seat 0), got won by Green (seat 1)" in \
        test.output or "expected won by Green (seat 1), got won by Red (seat 0)" in test.output
    assert test.picture is not None and "<svg" in test.picture


def test_a_plugin_with_two_bugs_in_one_game_shows_both(tmp_path, cache):
    """Captures told without their events (early in every game) no longer hide the winner
    reported as the other seat (at the game's end): the grader goes on past a difference
    that leaves both games in step, comparing no longer what it found wrong there. (One
    game, unshrunk: the winner-swapped test above shrinks such a difference.)"""
    from hexkit.grading.grader import plan_for
    from hexkit.grading.plugin_kind import PluginSession
    from hexkit.grading.sandbox import Budget, Limits
    from hexkit.grading.shrink import differences

    from .conftest import small_config
    from .corpus import make

    path = make("plugin", tmp_path / "two", ("no_capture_events", "winner_swapped"))
    config = small_config(bot=1, random=0, length=200, seed=16)
    session = PluginSession(path, "focus", Limits(), Budget(60))
    try:
        game = next(t for t in cache.get("plugin", "focus", plan_for(config, None), session)
                    if t.source == "bot")
        first, *past = differences(session, game, wanted=lambda group: True)
        assert first.group == "captures" and first.actual["events"] != first.expected["events"]
        [winner] = past
        assert winner.group == "winning" and winner.index == len(game.calls) - 1
        assert winner.expected["end"] != winner.actual["end"]
        assert "events" not in winner.expected  # the known difference is not compared again
        # Without looking past the first difference, the winner was not seen.
        assert [d.group for d in differences(session, game)] == ["captures"]
    finally:
        session.close()


def test_a_plugin_whose_refusal_changes_its_state_fails(graded):
    result = graded("plugin", "refusal_changes_state")
    assert any("changed its state" in t.output for t in failed(result))


def printing(folder, mutant=None):
    """A FocusGame that prints the board after every successful move (and a rule bug)."""
    from .corpus import make

    path = make("focusgame", folder, mutant)
    program = path / "FocusGame.py" if path.is_dir() else path
    source = program.read_text()
    program.write_text(source.replace(
        '        return "successfully moved"\n',
        '        for line in self._board:\n            print(line)\n'
        '        return "successfully moved"\n', 1))
    return path


def test_what_a_focusgame_prints_is_compared_apart_and_hides_no_rule_bug(tmp_path, cache):
    from hexkit.grading.grader import grade

    from .conftest import small_config

    result = grade(printing(tmp_path / "p", "no_turn_order"), "focus", small_config(),
                   cache=cache)
    tests = {t.name: t for t in failed(result)}
    assert set(tests) == {"movement", "output"}
    assert result.score == 65 and result.max_score == 100  # printing costs nothing
    output = tests["output"]
    assert (output.score, output.max_score, output.counterexample) == (0, 0, 1)
    assert "expected: 'successfully moved', printing nothing" in output.output
    assert "got:      'successfully moved', printing 6 lines (below)" in output.output
    assert "What the call printed (the submission):\n  | [['R'], ['R'], ['G']" in output.output
    assert "expected: 'not your turn'" in tests["movement"].output


def test_printed_lines_weigh_what_grading_yaml_says_or_nothing_when_ignored(tmp_path, cache):
    from hexkit.grading.grader import grade

    from .conftest import small_config

    path = printing(tmp_path / "p")
    weighted = grade(path, "focus", small_config(weights={
        "movement": 35, "captures": 25, "reserve": 15, "winning": 20, "output": 5}),
        cache=cache)
    assert (weighted.score, weighted.max_score) == (95, 100)
    ignored = grade(path, "focus", small_config(kind={"printed": "ignore"}), cache=cache)
    assert (ignored.score, ignored.max_score) == (100, 100)
    assert "output" not in {t.name for t in ignored.tests}



def test_a_save_that_forgets_the_captures_shows_where_its_reloaded_copy_parts(monkeypatch):
    """The loss shows only when the captures decide the game, many moves later: the
    reloaded copy, played beside the game, tells the save (``saved``) from the rules (the
    game itself, and so ``end``, goes on as the reference's)."""
    from focus.game import FocusState

    from hexkit import plugins
    from hexkit.bots import make_bot
    from hexkit.grading.observe import play
    from hexkit.grading.plugin_kind import PluginSession

    game = plugins.load_game("focus")
    state = game.new_state(seed=1)
    bots = [make_bot(game, "mcts:sims=12", seat) for seat in (0, 1)]
    moves: list[str] = []
    captured: list[list[int]] = []
    while not state.is_over():
        moves.append(str(bots[state.current_player].choose(state)))
        state.push(moves[-1])
        captured.append(list(state._captured))
    # Saved right after the winner's first capture: the copy forgets it, and falls short.
    [winner] = state.outcome().winners
    saved_at = next(i for i, counts in enumerate(captured, 1) if counts[winner])
    calls = [[move, "s" if i == saved_at else ""] for i, move in enumerate(moves, 1)]
    expected = list(play(game, game.new_state(seed=1), calls, False))
    saved = FocusState.to_dict

    def forgetful(self):
        return {**saved(self), "captured": [0] * len(self._captured)}

    monkeypatch.setattr(FocusState, "to_dict", forgetful)
    actual = list(play(game, game.new_state(seed=1), calls, False))
    [index] = [i for i, (a, b) in enumerate(zip(expected, actual, strict=True)) if a != b]
    assert index == len(calls) - 1  # the move that wins, on the game but not on its copy
    assert actual[index]["saved"].startswith(
        f"the game saved and reloaded after move {saved_at} ended otherwise after this "
        "move: the game goes on, not [")
    assert {k: v for k, v in actual[index].items() if k != "saved"} == expected[index]
    session = PluginSession.__new__(PluginSession)
    assert session.classify(None, index, expected[index], actual[index]) == "saving"
