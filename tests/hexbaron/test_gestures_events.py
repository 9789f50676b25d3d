"""What a user interface learns from Hex Baron without knowing it: where each command is
made by pointing (gestures), what each command did beyond itself (events), and the rules
in words (describe)."""

from __future__ import annotations

from hexkit.kit.events import DESTROYED, GAME_OVER, RESOURCE, SCORE
from hexkit.kit.gestures import Hand
from hexkit.testing import check_game

from .conftest import board, plain_game


def cell_of(state, tile):
    x, _y, z = state.pos.cubes[tile]
    return (x, z)


def texts(moves):
    return sorted(str(m) for m in moves)


def test_clicking_a_serf_lists_its_steps_and_both_upgrades():
    state = plain_game().new_state(0)
    assert texts(state.moves_from(cell_of(state, 8))) == [
        "move 8 12", "move 8 16", "move 8 4", "upgrade less 8", "upgrade pbds 8"]


def test_the_two_upgrades_of_a_serf_share_one_click_pair_for_the_chooser():
    state = plain_game().new_state(0)
    here = cell_of(state, 8)
    same_pair = [m for m in state.moves_from(here) if state.gesture(m).target == here]
    assert texts(same_pair) == ["upgrade less 8", "upgrade pbds 8"]
    assert {state.gesture(m).kind for m in same_pair} == {"Serf"}


def test_a_move_goes_from_the_pieces_tile_to_the_target_tile():
    state = plain_game().new_state(0)
    gesture = state.gesture(state.parse_move("move 0 4"))
    assert (gesture.origin, gesture.target, gesture.kind) == (
        cell_of(state, 0), cell_of(state, 4), "Baron")


def test_dig_and_saw_start_and_end_on_the_diggers_tile():
    state = board(4, "1,PBDS,0 1,LESS,3 1,Baron,6 2,Baron,7")
    for text, tile, kind in (("dig 0", 0, "PBDS"), ("saw 3", 3, "LESS")):
        gesture = state.gesture(state.parse_move(text))
        assert (gesture.origin, gesture.target, gesture.kind) == (
            cell_of(state, tile), cell_of(state, tile), kind)


def test_a_spawn_brings_a_serf_from_the_supply_shown_beside_the_board():
    state = plain_game().new_state(0)
    spawns = state.moves_from(Hand(0, "Serf"))
    assert texts(spawns) == ["spawn 4"]  # the baron's other neighbour holds the serf
    assert state.gesture(spawns[0]).target == cell_of(state, 4)
    hands = {(h.seat, h.kind): h.count for h in state.view().hands}
    assert hands == {(0, "Serf"): 5, (1, "Serf"): 5}
    # The baron's own tile offers its steps, not the spawns.
    assert not any(m.verb == "spawn" for m in state.moves_from(cell_of(state, 0)))


def test_pass_is_made_without_pointing_at_the_grid():
    state = plain_game().new_state(0)
    assert texts(state.moves_from(None)) == ["pass"]


def test_every_gesture_uses_the_cells_and_hands_of_the_view():
    # The conformance kit checks every legal move's gesture against the view, and that
    # moves_from finds each of them, in the positions it plays.
    report = check_game("hexbaron", extensions="none", size=10, games=2, max_moves=60)
    assert report.games == 2 and report.moves >= 60


def test_destroyed_pieces_and_the_vps_they_give_are_told_after_the_turn():
    state = board(4, "1,Serf,0 1,Serf,2 2,Serf,4 1,Baron,1 2,Baron,7")
    state.push("pass")
    state.push("pass")
    assert state.events() == ()
    state.push("pass")
    found = state.events()
    destroyed = [e for e in found if e.kind == DESTROYED]
    assert [(e.seat, e.data["piece"], e.data["tile"], e.cells) for e in destroyed] == [
        (0, "Serf", 0, (cell_of(state, 0),)), (0, "Serf", 2, (cell_of(state, 2),)),
        (1, "Serf", 4, (cell_of(state, 4),))]
    assert destroyed[0].text == "Player One's Serf on tile 0 was destroyed (Player Two +1 VP)"
    scores = {e.seat: (e.data["points"], e.data["total"]) for e in found if e.kind == SCORE}
    assert scores == {0: (1, 1), 1: (2, 2)}
    state.pop()
    assert state.events() == ()


def test_losing_a_baron_is_told_with_the_turn_that_is_left():
    state = plain_game().new_state(0)
    for text in ("spawn 4", "pass", "pass"):
        state.push(text)
    kinds = [e.kind for e in state.events()]
    assert kinds.count(DESTROYED) == 3 and "baron_lost" in kinds
    lost = next(e for e in state.events() if e.kind == "baron_lost")
    assert lost.text == "Player One's baron is lost: Player Two has one last turn, then the " \
        "game ends"
    for _ in range(3):
        state.push("pass")
    assert state.events()[-1].kind == GAME_OVER


def test_a_rich_seam_and_running_out_of_fuel_are_told():
    state = board(4, "1,PBDS,0 2,Baron,7", p1="1,10,5", terrain="~, , , , , , , ", seed=2)
    state.push("dig 0")
    [rich] = state.events()
    assert rich.kind == RESOURCE and rich.data == {"resource": "fuel", "change": 5}
    assert rich.cells == (cell_of(state, 0),) and "bog on tile 0 is now a field" in rich.text
    spent = board(4, "1,Serf,0 2,Baron,7", p1="1,10,5")
    spent.push("move 0 2")
    [empty] = spent.events()
    assert empty.kind == RESOURCE and empty.text.startswith("Player One has no fuel left")


def test_describe_explains_every_piece_command_terrain_and_the_drawing():
    text = " ".join(plain_game().describe().split())
    for phrase in ("B Baron: moves one tile for 1 fuel", "L LESS:", "P PBDS:", "S Serf:",
                   "upgrade less|pbds TILE", "spawn TILE", "(3 lumber",
                   "'#' forest: a LESS saws lumber here", "'~' bog:", "'#L12' is tile 12",
                   "Equal VPs at the end: a draw."):
        assert phrase in text, phrase
    classic = " ".join(plain_game(tie_rule="player_two", max_turns=9).describe().split())
    assert "Player Two wins (the AQA program's rule)" in classic
    assert "ends after 9 turns each" in classic
