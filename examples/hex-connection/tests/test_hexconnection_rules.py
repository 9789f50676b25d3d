"""The rules of Hex as the hexconnection plugin implements them."""

from __future__ import annotations

import json
import random

import pytest
from hexkit import IllegalMoveError, MoveParseError, OptionError, RecordError

from hexconnection.game import BLUE, EMPTY, RED, HexState, Place, Swap
from hexconnection.plugin import SPEC


def new_state(seed: int = 0, **options: object) -> HexState:
    """A fresh position of a game built straight from the spec (no installation needed)."""
    return SPEC.make_game(options).new_state(seed=seed)


def snapshot(state: HexState) -> tuple:
    """Everything a position is: the saved form, the stones, the union-find, the picture."""
    return (state.to_dict(), list(state.stones), list(state.parent), list(state.weight),
            state.swapped, state.current_player, state.render())


def play(state: HexState, moves: str) -> HexState:
    for text in moves.split():
        state.push(text)
    return state


def connected_by_search(state: HexState, colour: int) -> bool:
    """Does ``colour`` join its edges? A plain flood fill, independent of the union-find."""
    n = state.game.size
    board = state.game.board
    stones = state.stones

    def start(q: int, r: int) -> bool:
        return r == 0 if colour == RED else q == 0

    def goal(q: int, r: int) -> bool:
        return r == n - 1 if colour == RED else q == n - 1

    frontier = [i for i, (q, r) in enumerate(board.cells) if start(q, r) and stones[i] == colour]
    seen = set(frontier)
    while frontier:
        i = frontier.pop()
        if goal(*board.cells[i]):
            return True
        for j in board.neighbour_index[i]:
            if stones[j] == colour and j not in seen:
                seen.add(j)
                frontier.append(j)
    return False


# -- the start and the turn order ----------------------------------------------------------
def test_board_starts_empty_with_red_to_move():
    state = new_state(size=5)
    assert state.players == ("Red", "Blue")
    assert state.current_player == RED
    assert len(state.legal_moves()) == 25
    assert not state.is_over() and state.outcome() is None


def test_default_board_is_eleven_by_eleven():
    state = new_state()
    assert state.game.size == 11
    assert str(state.legal_moves()[-1]) == "k11"


def test_players_alternate_red_then_blue():
    state = new_state(size=5)
    play(state, "c3")
    assert state.current_player == BLUE
    play(state, "d2")
    assert state.current_player == RED
    assert state.stones[2 * 5 + 2] == RED and state.stones[1 * 5 + 3] == BLUE


# -- winning ---------------------------------------------------------------------------------
def test_red_wins_by_connecting_top_to_bottom():
    state = play(new_state(size=5), "a1 e1 a2 e2 a3 e3 a4 e4")
    assert not state.is_over()
    play(state, "a5")
    assert state.is_over()
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (RED,)
    assert outcome.reason == "connected top and bottom"


def test_blue_wins_by_connecting_left_to_right():
    state = play(new_state(size=5), "a1 a3 b1 b3 c1 c3 d1 d3 e1")
    assert not state.is_over()
    play(state, "e3")
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (BLUE,)
    assert outcome.reason == "connected left and right"


def test_a_chain_along_the_other_diagonal_connects():
    # c1 (2,0), b2 (1,1) and a3 (0,2) are neighbours in turn: hex cells touch along q+1, r-1.
    state = play(new_state(size=3), "c1 a1 b2 a2 a3")
    assert state.outcome() is not None and state.outcome().winners == (RED,)


def test_cells_touching_only_at_a_corner_do_not_connect():
    # a1, b2, c3 step by (+1, +1): no two of them share a side.
    state = play(new_state(size=3), "a1 c1 b2 c2 c3")
    assert not state.is_over()
    assert len(state.legal_moves()) == 4


def test_reaching_one_edge_only_does_not_win():
    state = play(new_state(size=5), "a1 e5 a2 e4 a3 e3 a4")
    assert not state.is_over()


def test_a_row_from_corner_to_corner_wins_for_blue():
    # The corners a1 and d1 lie on Red's top edge and on Blue's left and right edges.
    state = play(new_state(size=4), "a2 a1 a3 b1 b3 c1 c4")
    assert not state.is_over()
    play(state, "d1")
    assert state.outcome() is not None and state.outcome().winners == (BLUE,)


def test_no_move_is_accepted_after_the_game_is_won():
    state = play(new_state(size=3), "a1 b1 a2 b2 a3")
    assert state.legal_moves() == []
    before = snapshot(state)
    with pytest.raises(IllegalMoveError, match="the game is over: Red has won"):
        state.push("c3")
    assert snapshot(state) == before


def test_every_game_ends_with_one_winner_and_never_a_draw():
    chooser = random.Random(7)
    for size in (3, 4, 5, 6):
        for seed in range(10):
            state = new_state(seed=seed, size=size)
            while not state.is_over():
                moves = state.legal_moves()
                assert moves, "legal moves ran out before anyone connected"
                state.push(chooser.choice(moves))
            outcome = state.outcome()
            assert outcome is not None and len(outcome.winners) == 1
            assert outcome.winners == (1 - state.current_player,)


def test_incremental_connections_agree_with_a_search_of_the_board():
    chooser = random.Random(3)
    for size in (3, 5, 7):
        for seed in range(8):
            state = new_state(seed=seed, size=size, swap=seed % 2 == 0)
            while not state.is_over():
                state.push(chooser.choice(state.legal_moves()))
                for colour in (RED, BLUE):
                    assert state._connected(colour) == connected_by_search(state, colour)
                if chooser.random() < 0.3:
                    state.pop()
                    for colour in (RED, BLUE):
                        assert state._connected(colour) == connected_by_search(state, colour)


# -- refused moves ---------------------------------------------------------------------------
def test_occupied_cell_is_refused_and_state_unchanged():
    state = play(new_state(size=5), "c3 d4")
    before = snapshot(state)
    for taken in ("c3", "d4"):
        with pytest.raises(IllegalMoveError, match=f"{taken} is taken"):
            state.push(taken)
        assert snapshot(state) == before
        assert len(state.move_stack) == 2
    assert state.current_player == RED


def test_cell_off_the_board_is_refused_and_state_unchanged():
    state = new_state(size=5)
    before = snapshot(state)
    for outside in ("f1", "a6", "z9", "e42"):
        with pytest.raises(IllegalMoveError, match="not on the 5x5 board"):
            state.push(outside)
        assert snapshot(state) == before


@pytest.mark.parametrize("text", ["", "c", "3c", "c0", "c03", "cc3", "c3d", "c-1", "a 1", "pass"])
def test_text_that_is_not_a_cell_is_a_parse_error(text):
    state = new_state(size=5)
    with pytest.raises(MoveParseError, match="column letter and row number"):
        state.parse_move(text)


# -- notation --------------------------------------------------------------------------------
def test_every_cell_name_round_trips_through_the_parser():
    state = new_state(size=19)
    names = [str(m) for m in state.legal_moves()]
    assert names[0] == "a1" and names[18] == "s1" and names[-1] == "s19"
    for move in state.legal_moves():
        assert state.parse_move(str(move)) == move


def test_cell_names_ignore_case_and_surrounding_space():
    state = new_state(size=5)
    assert state.parse_move("  C3 ") == Place(2, 2)
    assert state.parse_move("SWAP") == Swap()


# -- undo, copy and saving -----------------------------------------------------------------
def test_undo_restores_every_earlier_position_exactly():
    state = new_state(size=4, seed=5)
    snapshots = [snapshot(state)]
    for text in "b2 c2 b3 c3 a4 d1 b1".split():
        state.push(text)
        snapshots.append(snapshot(state))
    assert state.is_over()
    while state.move_stack:
        snapshots.pop()
        state.pop()
        assert snapshot(state) == snapshots[-1]
    assert state.stones == [EMPTY] * 16


def test_undoing_the_winning_move_reopens_the_game():
    state = play(new_state(size=3), "a1 b1 a2 b2 a3")
    assert state.is_over()
    state.pop()
    assert not state.is_over() and state.current_player == RED
    play(state, "c3")
    assert not state.is_over()


def test_copy_is_independent_and_can_undo():
    state = play(new_state(size=5), "a1 b1 a2")
    twin = state.copy()
    play(twin, "b2 a3")
    assert len(state.move_stack) == 3 and state.stones[10] == EMPTY
    twin.pop()
    twin.pop()
    twin.pop()
    assert snapshot(twin) == snapshot(play(new_state(size=5), "a1 b1"))
    assert snapshot(state) == snapshot(play(new_state(size=5), "a1 b1 a2"))


def test_saved_position_restores_exactly_and_play_goes_on():
    state = play(new_state(size=5, seed=9, swap=True), "b4 swap c3 e4")
    data = json.loads(json.dumps(state.to_dict()))
    assert data == {"seed": 9, "moves": ["b4", "swap", "c3", "e4"]}
    restored = state.game.state_from_dict(data)
    assert restored.to_dict() == state.to_dict()
    assert restored.stones == state.stones and restored.swapped
    assert restored.current_player == state.current_player == RED
    assert restored.move_stack == []
    for game_state in (state, restored):
        play(game_state, "c4 e1 c5 e5 c2 a1 c1")
    assert restored.outcome() == state.outcome()
    assert restored.outcome().winners == (RED,)


@pytest.mark.parametrize(
    "data, message",
    [
        (["not", "a", "mapping"], "expected an object"),
        ({"moves": []}, "KeyError: 'seed'"),
        ({"seed": "9", "moves": []}, "'seed' must be a whole number"),
        ({"seed": 9, "moves": "a1 b2"}, "'moves' must be a list of moves"),
        ({"seed": 9, "moves": ["a1", "a1"]}, "a1 is taken by Red"),
        ({"seed": 9, "moves": ["a1", "q"]}, "cannot read 'q'"),
        ({"seed": 9, "moves": ["a1", "swap"]}, "swap rule is off"),
        ({"seed": 9, "moves": "a1 b1 a2 b2 a3 c3".split()}, "the game is over: Red has won"),
    ],
)
def test_corrupt_saved_position_is_refused_in_one_line(data, message):
    game = new_state(size=3).game
    with pytest.raises(RecordError, match=message) as caught:
        game.state_from_dict(data)
    assert "\n" not in str(caught.value)


# -- the swap rule ---------------------------------------------------------------------------
def test_swap_is_offered_only_as_blues_first_move():
    state = new_state(size=5, swap=True)
    assert Swap() not in state.legal_moves()
    with pytest.raises(IllegalMoveError, match="only as Blue's first move"):
        state.push("swap")
    play(state, "b4")
    assert state.legal_moves()[-1] == Swap()
    play(state, "c3")
    assert Swap() not in state.legal_moves()
    with pytest.raises(IllegalMoveError, match="only as Blue's first move"):
        state.push("swap")


def test_swap_turns_reds_stone_into_a_mirrored_blue_stone_and_red_moves_next():
    state = play(new_state(size=5, swap=True), "a3 swap")
    # a3 is column a, row 3: (q, r) = (0, 2); its mirror (2, 0) is c1.
    assert state.stones[2 * 5 + 0] == EMPTY
    assert state.stones[0 * 5 + 2] == BLUE
    assert state.current_player == RED
    assert Swap() not in state.legal_moves()
    assert len(state.legal_moves()) == 24
    play(state, "a3")
    assert state.current_player == BLUE


def test_swapped_stone_counts_towards_blues_connection():
    # Red opens a2 = (0, 1); after the swap Blue owns b1 = (1, 0), then builds row 1.
    state = play(new_state(size=3, swap=True), "a2 swap c2 a1 b2")
    assert not state.is_over()
    play(state, "c1")
    assert state.outcome() is not None and state.outcome().winners == (BLUE,)


def test_swap_on_the_long_diagonal_keeps_the_cell():
    state = play(new_state(size=5, swap=True), "c3 swap")
    assert state.stones[12] == BLUE and state.stones.count(EMPTY) == 24


def test_undoing_a_swap_gives_red_back_the_opening_stone():
    state = play(new_state(size=5, swap=True), "b4")
    before = snapshot(state)
    play(state, "swap e1")
    state.pop()
    state.pop()
    assert snapshot(state) == before
    assert state.legal_moves()[-1] == Swap()
    play(state, "a1")
    assert state.stones[0] == BLUE


def test_swap_is_refused_when_the_option_is_off():
    state = play(new_state(size=5), "b4")
    before = snapshot(state)
    assert Swap() not in state.legal_moves()
    with pytest.raises(IllegalMoveError, match="swap rule is off"):
        state.push("swap")
    assert snapshot(state) == before


# -- options -------------------------------------------------------------------------------
@pytest.mark.parametrize("size", [2, 20, -1])
def test_size_outside_3_to_19_is_refused_in_one_line(size):
    with pytest.raises(OptionError, match=f"option size: {size} is outside 3..19"):
        SPEC.make_game({"size": size})


def test_options_from_the_command_line_are_coerced():
    game = SPEC.make_game({"size": "7", "swap": "yes"})
    assert game.size == 7 and game.swap_rule is True
    assert str(game) == "hex(size=7,swap=true)"


# -- pictures --------------------------------------------------------------------------------
def test_text_board_shows_stones_coordinates_and_whose_turn():
    text = play(new_state(size=3), "b1 a2").render()
    assert text.splitlines()[:5] == [
        "    a b c",
        " 1  . R .  1",
        "  2  B . .  2",
        "   3  . . .  3",
        "      a b c",
    ]
    assert "Last move: Blue a2" in text
    assert text.endswith("Red to move.")


def test_text_board_announces_the_winner():
    text = play(new_state(size=3), "a1 b1 a2 b2 a3").render()
    assert text.endswith("Red wins: connected top and bottom.")


def test_view_puts_stones_on_axial_cells_and_highlights_the_last_move():
    state = play(new_state(size=4), "c2 a4")
    view = state.view()
    assert view.topology == "hex" and view.orientation == "pointy"
    assert view.players == ("Red", "Blue")
    cells = {c.at: c for c in view.cells}
    assert len(cells) == 16
    assert cells[(2, 1)].label == "c2"
    assert [(p.owner, p.text) for p in cells[(2, 1)].pieces] == [(RED, "R")]
    assert [(p.owner, p.text) for p in cells[(0, 3)].pieces] == [(BLUE, "B")]
    assert cells[(1, 1)].pieces == ()
    assert view.highlight == ((0, 3),)
    assert "Red to move." in view.caption


def test_view_colours_each_players_edges():
    view = new_state(size=4).view()
    terrain = {c.at: c.terrain for c in view.cells}
    assert terrain[(1, 0)] == terrain[(2, 3)] == "red edge"
    assert terrain[(0, 1)] == terrain[(3, 2)] == "blue edge"
    assert terrain[(0, 0)] == terrain[(3, 3)] == "corner"
    assert terrain[(1, 1)] == ""
    assert {name for name, _ in view.terrain_colours} == {"red edge", "blue edge", "corner"}


def test_view_of_a_swap_highlights_both_cells():
    view = play(new_state(size=5, swap=True), "a3 swap").view()
    assert set(view.highlight) == {(2, 0), (0, 2)}


def test_move_help_names_the_columns_and_rows_and_the_swap():
    assert "columns a-e, rows 1-5" in new_state(size=5).move_help()
    assert "swap" not in new_state(size=5).move_help()
    assert "'swap'" in new_state(size=5, swap=True).move_help()
