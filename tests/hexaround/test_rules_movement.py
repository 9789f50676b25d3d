"""Moving (rules §6, §7): whose creature, the one-colony rule, the slide rule, per-step
contact, and the four movement categories."""

from __future__ import annotations

from pathlib import Path

from hexaround import MoveResult

from .conftest import play, position, refused

RUNNERS = {
    "BUTTERFLY": {"max_distance": 1, "properties": ["WALKING", "QUEEN"]},
    "RUNNER5": {"max_distance": 5, "properties": ["RUNNING"]},
    "RUNNER6": {"max_distance": 6, "properties": ["RUNNING"]},
}


def test_only_the_player_to_act_moves_and_only_its_own_creatures(tmp_path: Path) -> None:
    board = {(0, 0): [("BUTTERFLY", "BLUE")], (1, 0): [("CRAB", "RED")],
             (1, 1): [("BUTTERFLY", "RED")]}
    gm = position(tmp_path, board)
    refused(gm.move_creature("CRAB", 1, 0, 2, -1), "no BLUE CRAB at (1, 0)")
    refused(gm.move_creature("CRAB", 5, 5, 2, -1), "no BLUE CRAB at (5, 5)")


def test_moving_to_the_same_hex_is_refused(tmp_path: Path) -> None:
    board = {(0, 0): [("BUTTERFLY", "BLUE")], (1, 0): [("BUTTERFLY", "RED")]}
    gm = position(tmp_path, board)
    refused(gm.move_creature("BUTTERFLY", 0, 0, 0, 0), "another hex")


def test_a_move_that_splits_the_colony_is_refused(tmp_path: Path) -> None:
    board = {(-1, 0): [("BUTTERFLY", "BLUE")], (0, 0): [("DOVE", "BLUE")],
             (1, 0): [("BUTTERFLY", "RED")]}
    gm = position(tmp_path, board, turns=2)
    refused(gm.move_creature("DOVE", 0, 0, 2, 0), "disconnected")
    before = gm.state.to_dict()
    refused(gm.move_creature("DOVE", 0, 0, 0, -2), "disconnected")
    assert gm.state.to_dict() == before


def test_a_creature_holding_the_colony_together_may_move_to_a_hex_that_still_does(
        tmp_path: Path) -> None:
    # The dove at (0, 0) joins (-1, 1) and (1, 0); (0, 1) touches both of them too.
    board = {(-1, 1): [("BUTTERFLY", "RED")], (0, 0): [("DOVE", "BLUE")],
             (1, 0): [("BUTTERFLY", "BLUE")]}
    gm = position(tmp_path, board, turns=2)
    refused(gm.move_creature("DOVE", 0, 0, 0, -1), "disconnected")
    play(gm, ("move", "DOVE", 0, 0, 0, 1))


def test_walker_cannot_slide_through_a_gate_of_two_creatures(tmp_path: Path) -> None:
    # Figure 5: five neighbours occupied, the sixth hex cannot be reached by sliding.
    board = {(0, 0): [("BUTTERFLY", "BLUE")], (0, 1): [("BUTTERFLY", "RED")],
             (1, 0): [("CRAB", "RED")], (1, -1): [("CRAB", "BLUE")],
             (0, -1): [("CRAB", "BLUE")], (-1, 0): [("CRAB", "BLUE")]}
    gm = position(tmp_path, board)
    refused(gm.move_creature("BUTTERFLY", 0, 0, -1, 1), "slide")


def test_walker_slides_when_one_side_of_the_gate_is_open(tmp_path: Path) -> None:
    board = {(0, 0): [("BUTTERFLY", "BLUE")], (0, 1): [("BUTTERFLY", "RED")],
             (1, 0): [("CRAB", "RED")], (1, -1): [("CRAB", "BLUE")]}
    gm = position(tmp_path, board)
    play(gm, ("move", "BUTTERFLY", 0, 0, -1, 1))


def test_walker_cannot_cross_open_space(tmp_path: Path) -> None:
    # The straight way from (0, 0) to (0, 2) passes (0, 1), which touches no creature once
    # the walker has left (0, 0); the way round by (-1, 1), (-1, 2) takes three steps.
    board = {(0, 0): [("SPIDER", "BLUE")], (-1, 0): [("BUTTERFLY", "BLUE")],
             (-2, 1): [("CRAB", "BLUE")], (-2, 2): [("CRAB", "RED")],
             (-2, 3): [("CRAB", "RED")], (-1, 3): [("BUTTERFLY", "RED")]}
    gm = position(tmp_path, board)
    refused(gm.move_creature("SPIDER", 0, 0, 0, 2), "walk", "2 steps")
    board[(0, 0)] = [("CRAB", "BLUE")]
    gm = position(tmp_path, board)
    play(gm, ("move", "CRAB", 0, 0, 0, 2))


def test_walker_counts_the_steps_of_its_path_not_the_hex_distance(tmp_path: Path) -> None:
    # (2, 0) is two hexes from (0, 0), but the red butterfly stands between them.
    board = {(0, 0): [("SPIDER", "BLUE")], (1, -1): [("BUTTERFLY", "BLUE")],
             (1, 0): [("BUTTERFLY", "RED")]}
    gm = position(tmp_path, board)
    refused(gm.move_creature("SPIDER", 0, 0, 2, 0), "at most 2 steps")
    board[(0, 0)] = [("CRAB", "BLUE")]
    gm = position(tmp_path, board)
    play(gm, ("move", "CRAB", 0, 0, 2, 0))


def test_walker_moves_no_farther_than_its_max_distance(tmp_path: Path) -> None:
    board = {(0, 0): [("CRAB", "BLUE")], (1, 0): [("BUTTERFLY", "BLUE")],
             (2, 0): [("BUTTERFLY", "RED")], (3, 0): [("CRAB", "RED")]}
    gm = position(tmp_path, board)
    refused(gm.move_creature("CRAB", 0, 0, 4, 0), "4 hexes away", "at most 3")
    play(gm, ("move", "CRAB", 0, 0, 2, 1))


def test_walker_may_only_end_on_an_empty_hex(tmp_path: Path) -> None:
    board = {(0, 0): [("CRAB", "BLUE")], (1, 0): [("BUTTERFLY", "BLUE")],
             (1, 1): [("BUTTERFLY", "RED")]}
    gm = position(tmp_path, board)
    refused(gm.move_creature("CRAB", 0, 0, 1, 1), "occupied", "empty hex")


def test_runner_must_move_exactly_its_max_distance(tmp_path: Path) -> None:
    # Round the line (0,0)-(2,0) the horse runs along a ring of ten hexes.
    board = {(-1, 0): [("HORSE", "BLUE")], (0, 0): [("BUTTERFLY", "BLUE")],
             (1, 0): [("BUTTERFLY", "RED")], (2, 0): [("CRAB", "RED")]}
    gm = position(tmp_path, board)
    refused(gm.move_creature("HORSE", -1, 0, -1, 1), "exactly 3 steps")
    refused(gm.move_creature("HORSE", -1, 0, 0, 1), "exactly 3 steps")
    play(gm, ("move", "HORSE", -1, 0, 1, 1))
    gm = position(tmp_path, board)
    play(gm, ("move", "HORSE", -1, 0, 2, -1))


def test_runner_never_visits_a_hex_twice_and_may_end_next_to_its_start(
        tmp_path: Path) -> None:
    # Round a single creature the ring has six hexes: five steps lead to a neighbour of the
    # start, six would need the start again.
    players = {"BLUE": {"BUTTERFLY": 1, "RUNNER5": 1, "RUNNER6": 1}}
    board = {(0, 0): [("BUTTERFLY", "RED")], (0, 1): [("RUNNER5", "BLUE")]}
    gm = position(tmp_path, board, turns=2, creatures=RUNNERS, players=players)
    assert sorted(str(m) for m in gm.state.legal_moves() if str(m).startswith("move")) == [
        "move RUNNER5 0 1 -1 1", "move RUNNER5 0 1 1 0"]
    play(gm, ("move", "RUNNER5", 0, 1, 1, 0))
    board = {(0, 0): [("BUTTERFLY", "RED")], (0, 1): [("RUNNER6", "BLUE")]}
    gm = position(tmp_path, board, turns=2, creatures=RUNNERS, players=players)
    for target in ((1, 0), (-1, 1), (0, -1), (1, -1)):
        refused(gm.move_creature("RUNNER6", 0, 1, *target), "exactly 6 steps")


def test_flyer_cannot_take_off_when_surrounded(tmp_path: Path) -> None:
    ring = [(0, 1), (1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1)]
    board = {(0, 0): [("DOVE", "BLUE")]}
    owners = ["RED", "RED", "BLUE", "BLUE", "BLUE", "BLUE"]
    names = ["BUTTERFLY", "CRAB", "BUTTERFLY", "CRAB", "CRAB", "CRAB"]
    for hx, who, name in zip(ring, owners, names, strict=True):
        board[hx] = [(name, who)]
    gm = position(tmp_path, board)
    refused(gm.move_creature("DOVE", 0, 0, 2, 0), "surrounded", "cannot take off")


def test_flyer_crosses_gaps_and_closed_gates(tmp_path: Path) -> None:
    board = {(0, 0): [("DOVE", "BLUE")], (0, 1): [("BUTTERFLY", "RED")],
             (1, 0): [("CRAB", "RED")], (1, -1): [("CRAB", "BLUE")],
             (0, -1): [("BUTTERFLY", "BLUE")], (-1, 0): [("CRAB", "BLUE")]}
    gm = position(tmp_path, board)
    play(gm, ("move", "DOVE", 0, 0, -1, 1))  # a walker could not slide there
    gm = position(tmp_path, board)
    play(gm, ("move", "DOVE", 0, 0, 2, 0))


def test_flyer_must_land_next_to_the_colony_and_within_range(tmp_path: Path) -> None:
    board = {(0, 0): [("DOVE", "BLUE")], (1, 0): [("BUTTERFLY", "BLUE")],
             (2, 0): [("BUTTERFLY", "RED")], (2, 1): [("CRAB", "RED")]}
    gm = position(tmp_path, board)
    refused(gm.move_creature("DOVE", 0, 0, -3, 0), "disconnected")
    refused(gm.move_creature("DOVE", 0, 0, 4, 0), "4 hexes away", "at most 3")
    play(gm, ("move", "DOVE", 0, 0, 3, 0))


def test_jumper_moves_only_in_a_straight_line(tmp_path: Path) -> None:
    board = {(0, 0): [("FROG", "BLUE")], (1, 0): [("BUTTERFLY", "BLUE")],
             (1, 1): [("BUTTERFLY", "RED")], (2, 1): [("CRAB", "RED")]}
    gm = position(tmp_path, board)
    refused(gm.move_creature("FROG", 0, 0, -1, -1), "straight line")
    refused(gm.move_creature("FROG", 0, 0, 1, 2), "straight line")
    play(gm, ("move", "FROG", 0, 0, 3, 0))  # along y = 0, over the butterfly and a gap


def test_jumper_jumps_out_of_a_ring_of_creatures(tmp_path: Path) -> None:
    ring = [(0, 1), (1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1)]
    board = {(0, 0): [("FROG", "BLUE")]}
    owners = ["RED", "RED", "BLUE", "BLUE", "BLUE", "BLUE"]
    names = ["BUTTERFLY", "CRAB", "BUTTERFLY", "CRAB", "CRAB", "CRAB"]
    for hx, who, name in zip(ring, owners, names, strict=True):
        board[hx] = [(name, who)]
    gm = position(tmp_path, board)
    play(gm, ("move", "FROG", 0, 0, 0, -2))


def test_jump_must_keep_the_colony_together(tmp_path: Path) -> None:
    board = {(0, 0): [("FROG", "BLUE")], (1, 0): [("BUTTERFLY", "BLUE")],
             (1, 1): [("BUTTERFLY", "RED")]}
    gm = position(tmp_path, board)
    refused(gm.move_creature("FROG", 0, 0, -3, 0), "disconnected")
    assert gm.move_creature("FROG", 0, 0, 2, 0).move_result is MoveResult.OK
