"""Bots that see what a person sees: every built-in game's bots and MCTS for a plugin game
take a win in one and never allow a loss in one when a move avoids it, however small their
budget (the tactical layer works before the search)."""

from __future__ import annotations

import pytest

import hexkit
from hexkit.bots import make_bot
from hexkit.bots.mcts import MctsBot, playout_policy
from hexkit.bots.tactics import Tactics, wins_for
from hexkit.game import State

from ..example_plugins import import_example, registry_with
from .positions import (
    BLUE_STRANDABLE,
    BLUE_THREATENED,
    EXAMPLES,
    RED_STRANDABLE,
    RED_SURROUNDABLE,
    butterfly_crowding,
    hexaround_state,
)

#: The tactical layer's answers are checked against every reply tried blindly.
BLIND = Tactics(None)


def replies_that_win(state: State, move: object) -> list[object]:
    """The next player's winning replies after ``move`` (every reply tried)."""
    state.push(move)
    try:
        return [] if state.is_over() else BLIND.winning_moves(state)
    finally:
        state.pop()


def assert_takes_the_win(state: State, spec: str) -> None:
    game = state.game
    mover = state.current_player
    move = make_bot(game, spec, 1).choose(state)
    state.push(move)
    assert wins_for(state, mover), f"{spec} played {move} and missed the win in one"
    state.pop()


def assert_avoids_the_loss(state: State, spec: str) -> None:
    assert any(replies_that_win(state, m) for m in state.legal_moves()), "no threat here"
    move = make_bot(state.game, spec, 1).choose(state)
    assert replies_that_win(state, move) == [], f"{spec} played {move}, which loses in one"


# -- HexAround (level3) ---------------------------------------------------------------------
@pytest.mark.parametrize("spec", ["mcts:2", "mcts:sims=5,random=1", "bot:easy",
                                  "alphabeta:2"])
def test_hexaround_bots_fill_the_last_hex_around_the_enemy_butterfly(spec):
    assert_takes_the_win(hexaround_state(RED_SURROUNDABLE), spec)


@pytest.mark.parametrize("spec", ["mcts:2", "mcts:sims=5,random=1", "bot:easy",
                                  "alphabeta:2"])
def test_hexaround_bots_free_their_butterfly_when_five_of_six_neighbours_are_taken(spec):
    state = hexaround_state(BLUE_THREATENED)
    assert butterfly_crowding(state, 0) == 5
    assert_avoids_the_loss(state, spec)
    move = make_bot(state.game, spec, 1).choose(state)
    state.push(move)
    assert butterfly_crowding(state, 0) <= 4


def test_hexaround_may_win_names_every_winning_move_among_its_candidates():
    from hexaround.policy import may_win

    state = hexaround_state(RED_SURROUNDABLE)
    assert set(BLIND.winning_moves(state)) <= set(may_win(state))
    state = hexaround_state(BLUE_THREATENED)
    threats = 0
    for move in list(state.legal_moves())[::4]:  # RED to act after each of BLUE's moves
        state.push(move)
        found = BLIND.winning_moves(state)
        threats += bool(found)
        assert set(found) <= set(may_win(state)), move
        state.pop()
    assert threats


@pytest.mark.parametrize("spec", ["mcts:2", "bot:easy"])
def test_hexaround_bots_win_by_leaving_the_other_player_no_action(spec):
    state = hexaround_state(RED_STRANDABLE, empty_hand="RED")
    assert state.engine.has_action(1)  # RED's butterfly can still walk
    state.push(make_bot(state.game, spec, 1).choose(state))
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,)
    assert "can neither place nor move" in outcome.reason


@pytest.mark.parametrize("spec", ["mcts:2", "bot:easy", "alphabeta:2"])
def test_hexaround_bots_do_not_let_themselves_be_left_without_an_action(spec):
    state = hexaround_state(BLUE_STRANDABLE, empty_hand="BLUE")
    assert_avoids_the_loss(state, spec)
    legal = list(state.legal_moves())
    safe, winning = Tactics(playout_policy("hexaround")).root_moves(state, legal)
    assert not winning
    assert set(safe) == {m for m in legal if not replies_that_win(state, m)}


def test_hexaround_bots_check_the_costly_stranding_win_only_for_the_move_they_play():
    # Searches look for surrounds only (quick_win); the root's candidates are narrowed by
    # them, and the move about to be played is confirmed against every win (may_win): the
    # confirmed moves are exactly the safe ones, and a search calls may_win a few times,
    # never once per node.
    from hexaround import policy as hexaround_policy

    from hexkit.bots.policy import PlayoutPolicy

    state = hexaround_state(BLUE_STRANDABLE, empty_hand="BLUE")
    legal = list(state.legal_moves())
    tactics = Tactics(playout_policy("hexaround"))
    assert tactics.needs_confirm
    candidates, winning = tactics.root_candidates(state, legal)
    assert not winning
    assert {m for m in candidates if tactics.confirm(state, m)} == \
        {m for m in legal if not replies_that_win(state, m)}
    calls = []

    def counted(position):
        calls.append(1)
        return hexaround_policy.may_win(position)

    policy = PlayoutPolicy("hexaround", evaluate=hexaround_policy.evaluate, depth=0,
                           may_win=counted, quick_win=hexaround_policy.quick_win)
    move = MctsBot(50, seed=1, policy=policy).choose(state)
    assert replies_that_win(state, move) == []
    assert len(calls) <= len(legal) // 2


def test_hexaround_may_win_names_the_moves_that_strand_the_other_player():
    from hexaround.policy import may_be_stranded, may_win

    state = hexaround_state(RED_STRANDABLE, empty_hand="RED")
    wins = BLIND.winning_moves(state)
    assert {str(m) for m in wins} >= {"move DUCK -1 0 1 1", "move DUCK -1 0 0 2",
                                     "move DUCK -1 0 -1 2"}
    assert set(wins) <= set(may_win(state))
    # With creatures in hand and placement hexes far apart, no move can strand a player:
    # the check is skipped.
    state = hexaround_state(RED_SURROUNDABLE)
    assert not may_be_stranded(state.engine, 1)


# -- Hive -------------------------------------------------------------------------------------
def hive_state(moves_text: str) -> State:
    from hive.notation import split_game_string

    parts = split_game_string(moves_text)
    state = hexkit.load_game("hive", expansions=parts.expansions or "none").new_state(seed=0)
    for text in parts.moves:
        state.push(text)
    return state


@pytest.mark.parametrize("spec", ["mcts:2", "bot:easy", "bot:medium", "alphabeta:2"])
def test_hive_bots_surround_the_queen_in_one(spec):
    from tests.hive.positions import WIN_IN_ONE

    assert_takes_the_win(hive_state(WIN_IN_ONE), spec)


@pytest.mark.parametrize("spec", ["mcts:2", "bot:easy", "bot:medium", "alphabeta:2"])
def test_hive_bots_stop_a_queen_surround_in_one(spec):
    from tests.hive.positions import WIN_IN_ONE

    state = hive_state(WIN_IN_ONE)
    state.pop()  # Black to move, before the move that let White win
    assert_avoids_the_loss(state, spec)


# -- Focus ------------------------------------------------------------------------------------
def focus_state(board: dict, captured: list[int]) -> State:
    import random

    game = hexkit.load_game("focus")
    return game.state_from_dict({
        "board": [[r, c, list(s)] for (r, c), s in board.items()],
        "reserve": [0, 0], "captured": captured, "turn": 0, "turns_taken": [1, 1],
        "out": [], "winner": None, "reason": "", "rng": hexkit.rng_to_json(random.Random(0)),
    })


#: Red's two on c3 onto Green's four on d3 capture one piece: Red's sixth capture wins.
FOCUS_WIN = {(2, 2): [0, 0], (2, 3): [1, 1, 1, 1], (5, 5): [1], (5, 0): [0]}


@pytest.mark.parametrize("spec", ["mcts:2", "bot:easy", "alphabeta:2"])
def test_focus_bots_take_the_capture_that_wins(spec):
    assert_takes_the_win(focus_state(FOCUS_WIN, [5, 0]), spec)


@pytest.mark.parametrize("spec", ["mcts:2", "bot:easy", "alphabeta:2"])
def test_focus_bots_do_not_leave_the_winning_capture_to_the_opponent(spec):
    # Green has five captures and Green's two on d3 could land on Red's four on c3; Red
    # must move the four (or break the stacks' reach) first.
    board = {(2, 2): [0, 0, 0, 0], (2, 3): [1, 1], (5, 5): [1], (5, 0): [0]}
    assert_avoids_the_loss(focus_state(board, [0, 5]), spec)


def test_focus_may_win_names_exactly_the_winning_captures():
    import random

    from focus.policy import may_win

    rng = random.Random(5)
    named = 0
    for options in ({"captures_to_win": 3}, {"board": "cross", "win": "captures"}):
        state = hexkit.load_game("focus", **options).new_state(seed=1)
        while not state.is_over() and len(state.move_stack) < 60:
            found = may_win(state)
            if found is not None:
                assert set(found) == set(BLIND.winning_moves(state))
                named += len(found)
            moves = state.legal_moves()
            state.push(moves[rng.randrange(len(moves))])
    assert named


# -- Hex Baron --------------------------------------------------------------------------------
def test_hexbaron_bots_destroy_a_baron_they_can_reach_this_turn():
    # Player Two's serf on 23 touches its baron on 31; Player One's serf on 19 steps to 27.
    from tests.hexbaron.conftest import board

    for spec in ("mcts:2", "bot:easy", "alphabeta:2"):
        state = board(8, "1,Baron,0 1,Serf,19 2,Serf,23 2,Baron,31", p1="10,10,5",
                      p2="0,0,0", vps=(0, 0), terrain=",".join(" " * 32))
        bot = make_bot(state.game, spec, 1)
        while state.current_player == 0:
            state.push(bot.choose(state))
        assert state.pos.baron_lost, spec


@pytest.mark.parametrize("spec", ["mcts:200", "bot:easy", "alphabeta:200", "bot:level=4"])
def test_hexbaron_bot_defends_its_baron_on_the_issues_command_line(spec):
    # issue 24: "printf 'move 8 12\nmove 0 4\npass\nmove 12 17\nmove 17 21\nmove 21 26\n
    # move 26 30\nmove 30 27\npass\n' | hexkit play hexbaron --p2 mcts:5000 --seed 3" ended
    # with Player One's serf destroying Player Two's baron. The position where Player Two
    # must defend, with the commands mcts:5000 gives in its first turn: its PBDS is stuck
    # in the bog on 23 beside its baron on 31, and the serf on 26 reaches 27 in two.
    game = hexkit.load_game("hexbaron")
    state = game.new_state(seed=3)
    for line in ("move 8 12", "move 0 4", "pass", "upgrade pbds 23", "dig 23", "pass",
                 "move 12 17", "move 17 21", "move 21 26"):
        state.push(line)
    bot = make_bot(game, spec, 2003)
    while state.current_player == 1:
        state.push(bot.choose(state))
    from hexbaron.policy import destroy_plan

    assert destroy_plan(state) is None, "Player One can still destroy the baron"
    for line in ("move 26 30", "move 30 27", "pass"):
        if state.check(state.parse_move(line)) is None:
            state.push(line)
        else:
            state.push("pass")
    assert not state.pos.baron_lost


def test_hexbaron_shortlist_keeps_only_commands_after_which_the_baron_is_safe():
    from hexbaron.policy import shortlist, under_threat

    from tests.hexbaron.conftest import board

    # Player Two to act: its baron on 31 has its own serf on 23; Player One's serf on 26
    # reaches 27 in two commands. Moving the serf off 23 (or the baron) defends.
    state = board(8, "1,Baron,0 1,Serf,26 2,Serf,23 2,Baron,31", p1="10,10,5",
                  p2="10,10,5", vps=(0, 0), terrain=",".join(" " * 32))
    for _ in range(3):
        state.push("pass")
    start = len(state.move_stack)
    assert under_threat_after_passing(state)
    listed = shortlist(state, state.legal_moves())
    assert 0 < len(listed) < len(state.legal_moves())
    for command in listed:
        state.push(command)
        while state.current_player == 1:
            state.push("pass")
        assert not under_threat(state), command
        while len(state.move_stack) > start:
            state.pop()


def under_threat_after_passing(state: State) -> bool:
    from hexbaron.policy import under_threat

    copy = state.copy()
    while copy.current_player == 1:
        copy.push("pass")
    return under_threat(copy)


def leap_registry():
    """A registry with a test extension's command: ``leap FROM TO``, one of your pieces (not
    a baron) jumps to an empty tile exactly two steps away, free."""
    from hexbaron.commands import CommandType, own_piece_problem, own_tiles

    from tests.hexbaron.test_miner_extension import plugin_module

    def distance(pos, a, b):
        return max(abs(p - q) for p, q in zip(pos.cubes[a], pos.cubes[b], strict=True))

    class Leap(CommandType):
        verb = "leap"
        syntax = "leap FROM TO"
        help = "your piece (not a baron) on FROM jumps to the empty TO two steps away"

        def check(self, pos, args):
            start, end = args
            problem = own_piece_problem(pos, start)
            if problem:
                return problem
            if not pos.valid(end) or pos.pieces[end] is not None:
                return f"tile {end} is not free"
            if pos.type_at(start).is_baron or distance(pos, start, end) != 2:
                return "not a leap"
            return None

        def candidates(self, pos):
            return ((a, b) for a in own_tiles(pos) for b in range(pos.n))

        def apply(self, pos, args):
            pos.move_piece(*args)
            return "leapt"

    def hexbaron_register_commands(register):
        register(Leap())

    return registry_with("leaper", plugin_module(
        "leaper", hexbaron_register_commands=hexbaron_register_commands))


def test_hexbaron_tactics_search_commands_added_by_extensions():
    # Player One's serf on 9 is four steps from 27, the last free tile beside Player Two's
    # baron on 31: too far for three moves, but two leaps of an extension's command reach
    # it. The attack is found, and so is the threat, from Player Two's side.
    import random

    from hexbaron.game import HexBaronState
    from hexbaron.policy import destroy_plan, under_threat
    from hexbaron.setup import parse_data_file

    registry = leap_registry()
    game = registry.load_game("hexbaron")
    data = "\n".join(["Player One,0,10,10,5", "Player Two,0,0,0,0", "8",
                      ",".join(" " * 32), "1,Baron,0", "1,Serf,9", "2,Serf,23", "2,Baron,31",
                      ""])
    state = HexBaronState(game, parse_data_file(data, "test.txt", game.catalogue),
                          random.Random(0))
    plan = [str(c) for c in destroy_plan(state) or ()]
    assert sum(c.startswith("leap ") for c in plan) == 2, plan
    assert under_threat(state)
    bot = MctsBot(2, seed=1, policy=playout_policy("hexbaron", registry))
    while state.current_player == 0:
        state.push(bot.choose(state))
    assert state.pos.baron_lost


# -- a plugin game: the tutorial's Hex ---------------------------------------------------------
@pytest.fixture(scope="module")
def hex_registry():
    plugin = import_example(EXAMPLES / "hex-connection", "hexconnection.plugin")
    return registry_with("hexconnection", plugin)


def hex_position(registry, moves: str) -> State:
    state = registry.load_game("hex", size=4).new_state(seed=0)
    for text in moves.split():
        state.push(text)
    return state


def test_mcts_takes_a_win_in_one_in_a_plugin_game(hex_registry):
    # Red (top to bottom) has a1 a2 a3: a4 wins.
    state = hex_position(hex_registry, "a1 d1 a2 d2 a3 c3")
    policy = playout_policy("hex", hex_registry)
    move = MctsBot(2, seed=1, policy=policy).choose(state)
    assert str(move) == "a4"


def test_mcts_blocks_a_win_in_one_in_a_plugin_game(hex_registry):
    # Blue (left to right) has a1 b1 c1 and threatens d1; Red to move must take d1.
    state = hex_position(hex_registry, "b3 a1 c3 b1 a4 c1")
    policy = playout_policy("hex", hex_registry)
    for seed in range(3):
        assert str(MctsBot(2, seed=seed, policy=policy).choose(state)) == "d1"
