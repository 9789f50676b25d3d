"""The ``alphabeta`` bot: its search finds what a person would (a win in one without the
tactical layer, a whole Hex Baron turn by one player), it keeps to its node budget and
its seed, it plays games of three seats, and bad settings or a game with no evaluation are
refused in one line. (The guarantees of the tactical layer are in test_tactics.py.)"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

import hexkit
from hexkit.bots import make_bot
from hexkit.bots.alphabeta import AlphaBetaBot
from hexkit.bots.levels import bot_menu
from hexkit.bots.mcts import playout_policy
from hexkit.bots.policy import PlayoutPolicy
from hexkit.bots.tactics import wins_for
from hexkit.errors import OptionError

from .test_tactics import FOCUS_WIN, focus_state


def test_the_search_alone_takes_a_winning_capture():
    state = focus_state(FOCUS_WIN, [5, 0])
    bot = make_bot(state.game, "alphabeta:nodes=500,tactics=off", 1)
    move = bot.choose(state)
    state.push(move)
    assert wins_for(state, 0), move


def test_the_search_plays_a_whole_hex_baron_turn_by_the_same_player():
    # Player One's serf on 26 walks to 27 in two commands (through 30), beside Player
    # Two's baron on 31, which its own serf on 23 also touches: destroyed at the end of the
    # turn, three commands later, all Player One's (the search maximises for the seat to
    # act, whoever acted before).
    from tests.hexbaron.conftest import board

    state = board(8, "1,Baron,0 1,Serf,26 2,Serf,23 2,Baron,31", p1="10,10,5",
                  p2="0,0,0", vps=(0, 0), terrain=",".join(" " * 32))
    bot = make_bot(state.game, "alphabeta:depth=3,tactics=off", 1)
    while state.current_player == 0:
        state.push(bot.choose(state))
    assert state.pos.baron_lost


class _TwoCommandsInARow:
    """The smallest game in which one seat acts twice in a row, through the generic API the
    bot uses: seat 0 plays two commands; ``x`` then ``x`` wins, ``x`` then ``y`` loses, and
    ``y`` first draws whatever follows."""

    players = ("one", "two")
    current_player = 0

    def __init__(self, moves: tuple[str, ...] = ()):
        self.moves = list(moves)

    def legal_moves(self) -> list[str]:
        return [] if self.is_over() else ["x", "y"]

    def push(self, move: str) -> None:
        self.moves.append(move)

    def pop(self) -> str:
        return self.moves.pop()

    def copy(self) -> _TwoCommandsInARow:
        return _TwoCommandsInARow(tuple(self.moves))

    def is_over(self) -> bool:
        return len(self.moves) == 2

    def outcome(self) -> Any:
        if not self.is_over():
            return None
        if self.moves[0] == "y":
            return SimpleNamespace(winners=())
        return SimpleNamespace(winners=(0,) if self.moves[1] == "x" else (1,))


def test_a_seat_that_acts_twice_in_a_row_is_searched_as_itself_not_as_its_opponent():
    # Scored by ply parity, the second command would be the opponent's choice: "x" would
    # look lost (its worst reply "y") and the bot would play the drawing "y".
    policy = PlayoutPolicy(game="two-commands", evaluate=lambda state: (0.5, 0.5))
    bot = AlphaBetaBot(policy, 1, depth=2, tactics=False)
    state = _TwoCommandsInARow()
    assert bot.choose(state) == "x"  # type: ignore[arg-type]
    state.push("x")
    assert bot.choose(state) == "x"  # type: ignore[arg-type]


def test_random_moves_on_purpose_vary_but_never_miss_a_win_in_one():
    # random=1 draws every move at random among those the tactics allow: different seeds
    # open differently (it searches nothing), yet a capture that wins is still taken.
    game = hexkit.load_game("focus")
    state = game.new_state(seed=4)
    opened = {str(make_bot(game, "alphabeta:nodes=300,random=1", seed).choose(state))
              for seed in range(6)}
    assert len(opened) > 1, opened
    win = focus_state(FOCUS_WIN, [5, 0])
    for seed in range(3):
        bot = make_bot(win.game, "alphabeta:nodes=300,random=1", seed)
        assert isinstance(bot, AlphaBetaBot) and bot.randomness == 1.0
        move = bot.choose(win)
        win.push(move)
        assert wins_for(win, 0), move
        win.pop()
        assert bot.visited == 0  # played without a search


def test_a_node_budget_is_kept_and_the_same_seed_plays_the_same_move():
    game = hexkit.load_game("focus")
    state = game.new_state(seed=4)
    for text in ("a3-a4x1", "b6-b5x1"):  # any two legal opening moves
        if text in {str(m) for m in state.legal_moves()}:
            state.push(text)
    moves = []
    for _ in range(2):
        bot = make_bot(game, "alphabeta:300", 9)
        assert isinstance(bot, AlphaBetaBot)
        moves.append(bot.choose(state))
        assert bot.visited <= 301 and bot.reached >= 1
    assert moves[0] == moves[1] and moves[0] in state.legal_moves()


def test_three_seats_are_searched_paranoid_and_play_on():
    game = hexkit.load_game("focus", board="cross", players=3)
    state = game.new_state(seed=1)
    bots = [make_bot(game, "alphabeta:200", seat) for seat in range(3)]
    for _ in range(6):
        move = bots[state.current_player].choose(state)  # type: ignore[union-attr]
        assert move in state.legal_moves()
        state.push(move)


@pytest.mark.parametrize(("spec", "message"), [
    ("alphabeta:nodes=0", "nodes=N needs 1..50,000,000 positions a move"),
    ("alphabeta:nodes=lots", "nodes='lots' is not a whole number"),
    ("alphabeta:depth=0", "depth=N needs 1..64 plies"),
    ("alphabeta:time=-1", "time=S needs 0 to 3600 seconds a move"),
    ("alphabeta:time=nan", "time='nan' is not a number of seconds"),
    ("alphabeta:tactics=maybe", "tactics='maybe' is not on or off"),
    ("alphabeta:random=1.5", "random=P needs a probability between 0 and 1"),
    ("alphabeta:random=often", "random='often' is not a probability"),
    ("alphabeta:width=3", "unknown setting 'width'"),
])
def test_bad_alphabeta_settings_are_refused_in_one_line(spec, message):
    with pytest.raises(OptionError) as caught:
        make_bot(hexkit.load_game("focus"), spec, 1)
    text = str(caught.value)
    assert message in text and "\n" not in text and len(text) < 200


def test_a_game_with_no_evaluation_is_refused_and_not_offered():
    from ..example_plugins import import_example, registry_with
    from .positions import EXAMPLES

    plugin = import_example(EXAMPLES / "hex-connection", "hexconnection.plugin")
    registry = registry_with("hexconnection", plugin)
    with pytest.raises(OptionError, match="hex registers no evaluation to search with"):
        AlphaBetaBot(playout_policy("hex", registry) or PlayoutPolicy("hex"))
    assert "alphabeta" not in {b.name for b in bot_menu("hex", registry).bots}
    assert "alphabeta" in {b.name for b in bot_menu("focus", registry).bots}


def test_a_web_request_cannot_ask_for_more_positions_than_the_servers_cap():
    from hexkit import plugins
    from hexkit.web.bots import BotPolicy, BotRefused
    from hexkit.web.settings import BotCaps

    policy = BotPolicy(BotCaps(max_nodes=100_000, max_depth=3), {}, plugins.registry())
    for spec in ("alphabeta:200000", "alphabeta:nodes=1m", "alphabeta:depth=9"):
        with pytest.raises(BotRefused, match="cap of"):
            policy.check(spec)
    with pytest.raises(BotRefused, match="depth=2 alone searches with no node budget"):
        policy.check("alphabeta:depth=2")  # depth alone lifts the node budget
    assert policy.check("alphabeta:50k") == ("alphabeta:50k", False)
    small = BotPolicy(BotCaps(max_nodes=10_000), {}, plugins.registry())
    with pytest.raises(BotRefused, match="20,000 positions is beyond"):
        small.check("alphabeta")  # the default budget is checked too
    assert policy.check("alphabeta:nodes=50k,depth=2") == ("alphabeta:nodes=50k,depth=2", False)
