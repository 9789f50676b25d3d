"""The MCTS bot: generic, deterministic by seed, per-seat rewards, game-registered policies."""

from __future__ import annotations

import pytest

from hexkit import hookimpl
from hexkit.bots import RandomBot
from hexkit.bots.mcts import MctsBot, PlayoutPolicy, mcts_factory, parse_arg, playout_policy
from hexkit.errors import OptionError
from hexkit.plugins import build_registry


def position(game, moves, seed=0):
    state = game.new_state(seed=seed)
    for m in moves:
        state.push(m)
    return state


def test_mcts_takes_an_immediate_win(toy_plugins):
    game = toy_plugins.load_game("toyline")
    # X: a1 b1; O: a2 b2. X to move wins with c1.
    state = position(game, ["a1", "a2", "b1", "b2"])
    assert str(MctsBot(300, seed=1).choose(state)) == "c1"


def test_mcts_blocks_the_opponents_win(toy_plugins):
    game = toy_plugins.load_game("toyline")
    # X: a1 c3; O: a2 b2 threatens c2. X must block.
    state = position(game, ["a1", "a2", "c3", "b2"])
    assert str(MctsBot(500, seed=2).choose(state)) == "c2"


def test_mcts_does_not_change_the_state_it_searches(toy_plugins):
    game = toy_plugins.load_game("toyline", size=4, blockers=True)
    state = position(game, ["a1", "b2"], seed=9)
    before = state.to_dict()
    stack = list(state.move_stack)
    MctsBot(200, seed=3).choose(state)
    assert state.to_dict() == before
    assert state.move_stack == stack


def test_mcts_is_deterministic_for_a_given_seed(toy_plugins):
    game = toy_plugins.load_game("toyline", size=4, blockers=True)

    def play(seed):
        state = game.new_state(seed=7)
        bots = [MctsBot(60, seed=seed), MctsBot(60, seed=seed + 1)]
        while not state.is_over():
            state.push(bots[state.current_player].choose(state))
        return [str(m) for m in state.move_stack]

    assert play(100) == play(100)


def test_mcts_beats_the_random_bot_at_three_in_a_row_on_four_by_four(toy_plugins):
    game = toy_plugins.load_game("toyline", size=4, line=3)
    score = 0
    for g in range(6):
        state = game.new_state(seed=g)
        mcts_seat = g % 2
        bots = {mcts_seat: MctsBot(150, seed=g), 1 - mcts_seat: RandomBot(1000 + g)}
        while not state.is_over():
            state.push(bots[state.current_player].choose(state))
        outcome = state.outcome()
        assert outcome.winners != (1 - mcts_seat,), f"game {g}: MCTS lost to random"
        score += outcome.winners == (mcts_seat,)
    assert score >= 5


def test_mcts_plays_for_its_own_seat_in_a_three_player_game(toy_plugins):
    game = toy_plugins.load_game("toyline", size=4, line=3, players=3)
    # Zed (seat 2) can complete c1 c2 c3 now; Xavier and Olga each also threaten.
    state = position(game, ["a1", "d4", "c1", "b1", "d1", "c2", "a3", "b3"])
    assert state.current_player == 2
    assert str(MctsBot(400, seed=5).choose(state)) == "c3"


def test_a_registered_evaluation_scores_unfinished_playouts(toy_plugins):
    game = toy_plugins.load_game("toyline", size=5, line=5)
    state = game.new_state(seed=0)

    def likes_the_corner(s):
        mover_has_corner = [c for c in s.to_dict()["cells"] if c[:2] == [4, 4]]
        if not mover_has_corner:
            return [0.5, 0.5]
        owner = mover_has_corner[0][2]
        return [1.0 if seat == owner else 0.0 for seat in range(2)]

    policy = PlayoutPolicy("toyline", evaluate=likes_the_corner, depth=0)
    assert str(MctsBot(100, seed=1, policy=policy).choose(state)) == "e5"


def test_a_registered_playout_chooser_is_used_in_playouts(toy_plugins):
    game = toy_plugins.load_game("toyline", size=4)
    calls = []

    def first_move(state, moves, rng):
        calls.append(len(moves))
        return moves[0]

    bot = MctsBot(30, seed=1, policy=PlayoutPolicy("toyline", choose=first_move))
    bot.choose(game.new_state(seed=0))
    assert calls, "the playout policy was never asked for a move"


class PolicyPlugin:
    """A plugin that helps MCTS with the toy game, as a game plugin would."""

    @hookimpl(optionalhook=True)
    def hexkit_register_playout_policies(self, register):
        register(PlayoutPolicy("toyline", depth=7))
        register(PlayoutPolicy("othergame", depth=3))


def test_playout_policies_come_from_the_plugin_hook_by_game_name():
    registry = build_registry(entry_points=False, use_env=False,
                              extra=[("policy", PolicyPlugin())])
    assert playout_policy("toyline", registry.pm).depth == 7
    assert playout_policy("othergame", registry.pm).depth == 3
    assert playout_policy("unknown", registry.pm) is None


def test_the_mcts_bot_is_registered_and_reads_its_argument(toy_plugins):
    spec = toy_plugins.bots["mcts"]
    game = toy_plugins.load_game("toyline")
    bot = spec.factory(game, "250", 4)
    assert isinstance(bot, MctsBot) and bot.simulations == 250
    assert parse_arg("sims=80,c=0.5,depth=12") == {"simulations": 80, "exploration": 0.5,
                                                    "depth": 12}
    assert mcts_factory(game, None, 1).simulations > 0


@pytest.mark.parametrize(("arg", "message"), [
    ("lots", "not a number"), ("speed=3", "unknown setting 'speed'"), ("0", "at least 1"),
])
def test_bad_mcts_arguments_are_one_line_option_errors(toy_plugins, arg, message):
    game = toy_plugins.load_game("toyline")
    with pytest.raises(OptionError, match=message):
        mcts_factory(game, arg, 1)


def test_a_depth_given_by_the_user_wins_over_the_games_registered_depth():
    import hexkit

    game = hexkit.load_game("focus")
    registered = playout_policy("focus").depth
    assert registered is not None and registered != 9
    assert mcts_factory(game, "sims=5", 1).depth == registered
    assert mcts_factory(game, "sims=5,depth=9", 1).depth == 9
    assert mcts_factory(game, "sims=5,depth=0", 1).depth == 0


def test_the_search_reports_its_progress_without_changing_its_choice(toy_plugins):
    game = toy_plugins.load_game("toyline", size=4)
    state = position(game, ["a1", "b2"])
    reports: list[tuple[int, int]] = []
    watched = MctsBot(250, seed=5, progress=lambda done, total: reports.append((done, total)))
    assert watched.choose(state) == MctsBot(250, seed=5).choose(state)
    assert reports[-1] == (250, 250)
    assert [done for done, _ in reports] == sorted({done for done, _ in reports})
    assert 50 <= len(reports) <= 130
