"""Hive's rules (spec hive.md §2-§5), one test per rule, on positions set up directly.

Axial (q, r): E (+1,0), NE (+1,-1), NW (0,-1), W (-1,0), SW (-1,+1), SE (0,+1)."""

from __future__ import annotations

import pytest

import hexkit
from hexkit.errors import IllegalMoveError

from .positions import destinations, movers, play, position


def _start(expansions: str = "none"):
    return hexkit.load_game("hive", expansions=expansions).new_state(0)


def _ring(q: int, r: int) -> list[tuple[int, int]]:
    return [(q, r + 1), (q + 1, r), (q + 1, r - 1), (q, r - 1), (q - 1, r), (q - 1, r + 1)]


# -- placement (§2) --------------------------------------------------------------------------

def test_white_starts_on_the_origin_and_black_goes_next_to_it():
    state = _start()
    assert sorted(map(str, state.legal_moves())) == ["wA1", "wB1", "wG1", "wS1"]
    state.push("wS1")
    assert destinations(state, "bA1") == set(_ring(0, 0))


def test_queen_may_not_be_placed_on_a_players_first_turn():
    state = _start()
    assert "wQ" not in movers(state) and not destinations(state, "wQ")
    state.push("wS1")
    assert not destinations(state, "bQ")
    with pytest.raises(IllegalMoveError, match="first turn"):
        state.push("bQ wS1-")
    state.push("bS1 wS1-")
    assert destinations(state, "wQ")


def test_placement_touches_own_colour_and_never_the_opponents():
    # wA1 (0,0) with a black Beetle on top counts as black; wS1 (-1,0) is white.
    state = position({(0, 0): "wA1 bB1", (-1, 0): "wS1", (1, 0): "bQ", (-2, 0): "wQ"})
    spots = destinations(state, "wG1")
    # (0,-1) and (-1,1) touch white wS1 but also the black-topped stack: excluded.
    assert spots == {(-3, 0), (-3, 1), (-2, -1), (-2, 1), (-1, -1)}


def test_pieces_of_one_kind_go_down_in_number_order():
    state = _start()
    assert not destinations(state, "wA2")
    state.push("wA1")
    state.push("bA1 wA1-")
    assert destinations(state, "wA2") and not destinations(state, "wA3")
    with pytest.raises(IllegalMoveError, match="number order"):
        state.push("wA3 -wA1")


def test_queen_must_be_down_by_the_fourth_turn():
    state = _start()
    for text in ("wA1", "bA1 wA1-", "wA2 -wA1", "bA2 bA1-", "wA3 -wA2", "bA3 bA2-"):
        state.push(text)
    names = {str(m).split()[0] for m in state.legal_moves()}
    assert names == {"wQ"}


def test_no_piece_moves_before_its_queen_is_placed():
    state = _start()
    for text in ("wA1", "bA1 wA1-", "wG1 -wA1", "bQ bA1-"):
        state.push(text)
    # Black's Queen is down, White's is not: White may only place.
    assert movers(state) == set()
    with pytest.raises(IllegalMoveError, match="Queen Bee is placed"):
        state.push("wA1 \\bQ")


# -- moving (§3) -----------------------------------------------------------------------------

def test_one_hive_a_piece_the_hive_needs_cannot_move_even_if_it_would_reconnect():
    # A line wA1 - wQ - bQ - bA1: the Queen in the middle holds the hive together. Its
    # slide to (1,-1) would touch both halves again, yet it may not move at all.
    state = position({(-1, 0): "wA1", (0, 0): "wQ", (1, 0): "bQ", (2, 0): "bA1"})
    assert not destinations(state, "wQ")
    assert destinations(state, "wA1")


def test_a_piece_under_a_beetle_cannot_move_and_the_stack_is_the_beetles_colour():
    state = position({(0, 0): "wA1 bB1", (1, 0): "wQ", (-1, 0): "bQ", (2, 0): "wS1"})
    assert not destinations(state, "wA1")
    state = position({(0, 0): "wA1 bB1", (1, 0): "wQ", (-1, 0): "bQ", (2, 0): "wS1"},
                     to_move="b")
    assert destinations(state, "bB1")


def test_a_slide_needs_exactly_one_occupied_hex_beside_the_gap():
    # The Queen sits in a pocket open to the west only: both hexes beside that gap are
    # occupied (a closed gate), so it cannot slide out.
    pocket = {(0, -1): "bA1", (1, -1): "bQ", (1, 0): "bA2", (0, 1): "bA3", (-1, 1): "wA1",
              (0, 0): "wQ"}
    assert not destinations(position(pocket), "wQ")
    # At the end of a line it slides only where it keeps touching the hive.
    state = position({(0, 0): "wQ", (1, 0): "bQ", (2, 0): "bA1"})
    assert destinations(state, "wQ") == {(1, -1), (0, 1)}


def test_a_move_must_change_the_position():
    state = position({(0, 0): "wQ", (1, 0): "bQ", (2, 0): "bA1", (-1, 0): "wA1"})
    assert (-1, 0) not in destinations(state, "wA1")
    state = position({(0, 0): "wS1", (1, 0): "bQ", (0, 1): "wQ", (1, -1): "bA1"})
    assert (0, 0) not in destinations(state, "wS1")


# -- the bugs (§4) ---------------------------------------------------------------------------

def test_queen_slides_one_hex():
    state = position({(0, 0): "wQ", (1, 0): "bQ", (-1, 0): "wA1", (2, 0): "bA1"})
    assert destinations(state, "wA1") >= {(-1, 1), (0, -1)}
    state = position({(0, 0): "wA1", (1, 0): "bQ", (-1, 0): "wQ", (2, 0): "bA1"})
    assert destinations(state, "wQ") == {(-1, 1), (0, -1)}


def test_spider_slides_exactly_three_hexes_without_going_back():
    state = position({(0, 0): "wQ", (1, 0): "bQ", (-1, 0): "wS1"})
    # Around a line of two: three steps either way round.
    assert destinations(state, "wS1") == {(1, 1), (2, -1)}


def test_ant_goes_anywhere_around_the_hive_but_not_into_a_closed_pocket():
    pocket = {(0, -1): "bA1", (1, -1): "bQ", (1, 0): "bA2", (0, 1): "bA3", (-1, 1): "wQ",
              (-1, 0): "bS1", (3, 0): "wA1", (2, 0): "bS2"}
    state = position(pocket)
    ends = destinations(state, "wA1")
    assert (0, 0) not in ends  # surrounded hole: no way in
    outside = {(h[0] + d[0], h[1] + d[1]) for h in pocket for d in
               ((0, 1), (1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1))} - set(pocket) - {(0, 0)}
    # Everything outside except the ant's own hex and the hexes that only touched the ant.
    lone = {(4, 0), (4, -1), (3, 1)}
    assert ends == outside - lone - {(3, 0)}


def test_grasshopper_jumps_over_at_least_one_piece_to_the_first_empty_hex():
    state = position({(0, 0): "wG1", (1, 0): "bQ", (2, 0): "bA1", (0, 1): "wQ", (4, 0): "bA2",
                      (3, 0): "bS1"})
    assert destinations(state, "wG1") == {(5, 0), (0, 2)}


def test_beetle_climbs_moves_on_top_and_drops_into_a_surrounded_hole():
    hole = {(0, -1): "bA1", (1, -1): "bQ", (1, 0): "bA2", (0, 1): "bA3", (-1, 1): "wQ",
            (-1, 0): "wB1"}
    state = position(hole)
    # Climbs onto bA1 and wQ, slides round; the ground gate into the hole is shut.
    assert destinations(state, "wB1") == {(0, -1), (-1, 1), (-2, 1), (-1, -1)}
    # On top, then down into the hole surrounded on all sides.
    state = position({**hole, (-1, 0): "bS1", (0, -1): "bA1 wB1"})
    assert (0, 0) in destinations(state, "wB1")


def test_beetle_gates_at_height_block_only_when_both_sides_are_higher_than_both_ends():
    # wB1 on a stack of 2 moving east from (0,0) to the empty (1,0); the hexes beside that
    # gap are (1,-1) and (0,1).
    base = {(0, 0): "bA1 wB1", (-1, 0): "wQ", (-2, 0): "bQ"}
    high_both = {**base, (1, -1): "wA1 bB1", (0, 1): "wA2 bB2"}
    assert (1, 0) not in destinations(position(high_both), "wB1")
    high_one = {**base, (1, -1): "wA1 bB1", (0, 1): "wA2"}
    assert (1, 0) in destinations(position(high_one), "wB1")
    # Climbing onto a stack of 2 between two stacks of 2: max(hs, hd) = 2, not blocked.
    onto = {**high_both, (1, 0): "bA2 bM"}
    assert (1, 0) in destinations(position(onto), "wB1")
    # On the ground, two pieces of height 1 beside the gap shut it.
    ground = {(0, 0): "wB1", (1, -1): "wQ", (0, 1): "bQ", (-1, 0): "bA1"}
    assert (1, 0) not in destinations(position(ground), "wB1")


def test_mosquito_moves_as_the_bugs_it_touches():
    # Touching a Grasshopper and a Queen: jumps like one, slides like the other.
    state = position({(0, 0): "wM", (1, 0): "bG1", (2, 0): "bQ", (0, 1): "wQ"})
    ends = destinations(state, "wM")
    assert (3, 0) in ends  # the jump over bG1 and bQ
    assert (0, 2) in ends  # the jump over wQ
    assert (1, -1) in ends  # a Queen's slide
    assert (1, 0) not in ends  # no Beetle touched: no climbing


def test_mosquito_touching_only_mosquitoes_cannot_move():
    state = position({(0, 0): "wM", (1, 0): "bM", (2, 0): "bQ", (3, 0): "wQ"})
    assert not destinations(state, "wM")


def test_mosquito_next_to_a_beetle_climbs():
    state = position({(0, 0): "wM", (1, 0): "bQ bB1", (2, 0): "wQ"})
    assert (1, 0) in destinations(state, "wM")


def test_mosquito_on_top_of_the_hive_moves_as_a_beetle():
    # On top of an Ant, touching only Ants: it still moves one hex any way, like a Beetle.
    state = position({(0, 0): "bA1 wM", (1, 0): "bA2", (-1, 0): "wQ", (-2, 0): "bQ"})
    ends = destinations(state, "wM")
    assert ends == set(_ring(0, 0))


def test_ladybug_goes_up_along_the_top_and_down():
    state = position({(0, 0): "wL", (1, 0): "wQ", (2, 0): "bQ"})
    assert destinations(state, "wL") == {(3, 0), (3, -1), (2, -1), (2, 1), (1, 1)}


def test_pillbug_throws_an_adjacent_piece_over_itself_even_while_pinned():
    # The Pillbug holds the hive together (it cannot move) but may use its ability.
    state = position({(-1, 0): "bQ", (0, 0): "wP", (1, 0): "wQ"})
    assert not destinations(state, "wP")
    assert destinations(state, "bQ") == {(0, -1), (1, -1), (0, 1), (-1, 1)}


def test_pillbug_cannot_throw_the_piece_moved_on_the_last_turn():
    state = position({(-1, 0): "bQ", (0, 0): "wP", (1, 0): "wQ"}, last="bQ")
    assert not destinations(state, "bQ")


def test_pillbug_cannot_throw_a_piece_in_a_stack():
    state = position({(-1, 0): "bQ bB1", (0, 0): "wP", (1, 0): "wQ"})
    assert not destinations(state, "bB1") and not destinations(state, "bQ")


def test_pillbug_cannot_throw_a_piece_the_hive_needs():
    state = position({(-2, 0): "bA1", (-1, 0): "bQ", (0, 0): "wP", (1, 0): "wQ"})
    assert not destinations(state, "bQ")


def test_pillbug_cannot_lift_a_piece_through_a_gate_of_high_stacks():
    base = {(-1, 0): "bQ", (0, 0): "wP", (1, 0): "wQ", (0, -1): "wA1 bB1"}
    assert not destinations(position({**base, (-1, 1): "wA2 bB2"}), "bQ")
    assert destinations(position({**base, (-1, 1): "wA2"}), "bQ")


def test_pillbug_under_a_beetle_can_do_nothing():
    state = position({(-1, 0): "bQ", (0, 0): "wP bB1", (1, 0): "wQ"})
    assert not destinations(state, "bQ")
    assert not destinations(state, "wP")
    assert destinations(state, "wQ") == {(1, -1), (0, 1)}  # its own slides only


def test_mosquito_next_to_a_pillbug_throws_like_it():
    state = position({(-1, 0): "bQ", (0, 0): "wM", (1, 0): "wP", (2, 0): "wQ"})
    # Thrown over the Mosquito to its empty neighbours.
    assert destinations(state, "bQ") == {(0, -1), (1, -1), (0, 1), (-1, 1)}


def test_a_thrown_piece_is_frozen_on_the_next_turn_but_the_pillbug_is_not():
    # White's Pillbug throws bQ next to Black's Pillbug; Black may not move bQ, but may
    # throw White's Pillbug, which used its ability and did not move.
    state = position({(-1, 0): "bQ", (0, 0): "wP", (1, 0): "bP", (2, 0): "wQ"})
    play(state, "bQ", (1, -1))
    assert state.engine.code_name[state.engine.last] == "bQ"
    assert not destinations(state, "bQ")
    assert destinations(state, "wP")


# -- end of the game (§5) --------------------------------------------------------------------

def test_a_surrounded_queen_loses_even_when_its_owner_completes_the_ring():
    ring = _ring(0, 0)
    board = {(0, 0): "wQ", (5, 0): "bQ"}
    names = ["bA1", "bA2", "bA3", "bS1", "bS2"]
    for at, name in zip(ring[:5], names, strict=True):
        board[at] = name
    board[(4, 0)] = "bG1"
    board[(3, 0)] = "bG2"
    board[(2, 0)] = "bG3"
    board[(-2, 2)] = "wA1"
    board[(-1, 2)] = "wS1"
    state = position(board)
    hole = ring[5]
    assert hole in destinations(state, "wA1")
    play(state, "wA1", hole)
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (1,)


def test_both_queens_surrounded_by_one_move_is_a_draw():
    board = {(0, 0): "wQ", (1, 0): "bQ", (1, -1): "bA1", (0, -1): "bA2", (-1, 0): "bA3",
             (-1, 1): "wA1", (1, 1): "bS1 wB1", (2, 0): "wA2", (2, -1): "wA3"}
    state = position(board)
    play(state, "wB1", (0, 1))
    outcome = state.outcome()
    assert outcome is not None and outcome.is_draw and "both" in outcome.reason


def test_pass_is_legal_only_when_nothing_else_is():
    # White's only piece on the board is its Queen, under a black Beetle: nothing to place
    # next to a white top and nothing to move.
    board = {(0, 0): "wQ bB1", (1, 0): "bQ", (2, 0): "bA1"}
    state = position(board)
    assert [str(m) for m in state.legal_moves()] == ["pass"]
    state.push("pass")
    assert state.current_player == 1
    state = position({(0, 0): "wQ", (1, 0): "bQ"})
    with pytest.raises(IllegalMoveError, match="pass"):
        state.push("pass")


def _shuffle(repetition_draw: bool):
    game = hexkit.load_game("hive", expansions="none", repetition_draw=repetition_draw)
    state = game.state_from_game_string("Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-")
    cycle = ["wQ \\wS1", "bQ bS1/", "wQ -wS1", "bQ bS1-"]
    return state, cycle


def test_third_repetition_is_a_draw_with_the_option():
    state, cycle = _shuffle(True)
    # The position after "bQ bS1-" occurs for the first time before the cycles.
    for text in cycle + cycle[:3]:
        state.push(text)
    assert not state.is_over()
    state.push(cycle[3])
    outcome = state.outcome()
    assert outcome is not None and outcome.is_draw and "three times" in outcome.reason
    state.pop()
    assert not state.is_over()


def test_repetition_never_ends_the_game_by_default():
    state, cycle = _shuffle(False)
    for text in cycle * 4:
        state.push(text)
    assert not state.is_over()


def test_mosquito_copies_a_ladybug_and_a_pillbugs_slide():
    # Next to wL only: up onto wL, along onto bQ, down beside bQ.
    state = position({(0, 0): "wM", (1, 0): "wL", (2, 0): "bQ", (3, 0): "wQ"})
    assert destinations(state, "wM") == {(1, 1), (2, -1), (2, 1), (3, -1)}
    # Next to bP only: one slide.
    state = position({(0, 0): "wM", (1, 0): "bP", (2, 0): "bQ", (3, 0): "wQ"})
    assert destinations(state, "wM") == {(0, 1), (1, -1)}


def test_a_broken_saved_position_is_refused_in_one_line():
    from hexkit.errors import RecordError

    good = position({(0, 0): "wQ", (1, 0): "bQ"}).to_dict()
    broken = [
        {"board": [[0, 0, ["wQ"]], [5, 0, ["bQ"]]]},  # two hives
        {"board": [[0, 0, ["wQ", "bA1"]], [1, 0, ["bQ"]]]},  # an ant on top
        {"board": [[0, 0, ["wX"]], [1, 0, ["bQ"]]]},  # no such piece
        {"board": [[0, 0, ["wQ"]], [0, 0, ["bQ"]]]},  # a hex twice
        {"actions": [2, 7]},  # Black ahead of White
        {"last": "wA3"},  # frozen piece not on the board
        {"game_type": "Base"},  # another game type
    ]
    game = hexkit.load_game("hive")
    for change in broken:
        with pytest.raises(RecordError) as info:
            game.state_from_dict({**good, **change})
        assert "\n" not in str(info.value)
