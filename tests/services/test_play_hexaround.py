"""HexAround at the terminal: help and rules describe the variant's creatures in words, every
action is narrated from the game's events, the end is said once, and the text board uses the
terminal's width with each coordinate inside its own hex, larger y up."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from hexaround.narration import CROWDED, RELEASED, SWAPPED
from hexaround.render import render_text

import hexkit
from hexkit.files.records import GameRecord, save_record
from hexkit.kit import events as ev

from .conftest import run_hexkit

Board = dict[tuple[int, int], list[tuple[str, str]]]


def position(board: Board, to_move: str = "BLUE", config: str = "menagerie",
             **options: Any) -> Any:
    """A HexAround state with this board (bottom-first stacks), the rest of each player's
    stock in hand, five actions each made (the butterfly deadline is behind them)."""
    game = hexkit.load_game("hexaround", config=config, **options)
    on_board = Counter(piece for stack in board.values() for piece in stack)
    hands = {p: {c: n - on_board[(c, p)] for c, n in game.config.stocks[p].items()}
             for p in ("BLUE", "RED")}
    data = {
        "board": [[x, y, [list(p) for p in stack]] for (x, y), stack in sorted(board.items())],
        "hands": hands,
        "actions": [5, 5] if to_move == "BLUE" else [6, 5],
        "result": "ONGOING", "reason": "",
        "rng": game.new_state(seed=1).to_dict()["rng"],
    }
    return game.state_from_dict(data)


def kinds(events: Any) -> list[str]:
    return [e.kind for e in events]


# -- help and rules ------------------------------------------------------------------------
def test_help_describes_every_creature_of_the_variant_in_words():
    out = run_hexkit("play", "hexaround", "-o", "config=level3", input="help\nquit\n",
                     toy=False)
    assert out.returncode == 0, out.stderr
    text = " ".join(out.stdout.split())
    assert "DUCK (5 each): flies up to 5 hexes over anything" in text
    assert "swaps places with the top creature of the hex it lands on (never a butterfly)" \
        in text
    assert "GRASSHOPPER (3 each): jumps in a straight line up to 4 hexes" in text
    assert "HORSE (3 each): runs exactly 5 sliding steps" in text
    assert "RABBIT (3 each): runs exactly 4 sliding steps" in text
    assert "TURTLE (3 each): walks up to 4 sliding steps; intrudes" in text
    assert "Larger y is higher up." in text
    assert "For example: place BUTTERFLY 0 0 (legal now)." in text


def test_rules_with_a_config_option_describes_that_variant():
    out = run_hexkit("rules", "hexaround", "-o", "config=menagerie", "-o",
                     "kamikaze_survives=true", toy=False)
    assert out.returncode == 0, out.stderr
    text = " ".join(out.stdout.split())
    assert "Creatures of this variant (menagerie.yaml)" in text
    assert ("WASP (1 each): flies up to 4 hexes over anything, but not when all six of its "
            "neighbours are occupied; kamikaze: landing on a creature sends that creature "
            "back to its owner's hand; the attacker stays on that hex.") in text
    assert "BEETLE (2 each): walks up to 1 sliding step; intrudes" in text
    assert "traps: climbs onto a creature and pins it there" in text
    assert "At most 3 creatures on one hex." in text
    plain = run_hexkit("rules", "hexaround", "-o", "config=menagerie", toy=False)
    assert "the attacker is destroyed" in " ".join(plain.stdout.split())


def test_rules_with_an_unknown_variant_is_one_line():
    out = run_hexkit("rules", "hexaround", "-o", "config=level9", toy=False)
    assert out.returncode == 1
    assert len(out.stderr.strip().splitlines()) == 1
    assert "unknown hexaround variant 'level9'" in out.stderr


# -- narration -----------------------------------------------------------------------------
BASE: Board = {(0, 0): [("BUTTERFLY", "BLUE")], (1, 0): [("BUTTERFLY", "RED")],
               (2, 0): [("FROG", "RED")]}


def test_a_kamikaze_sends_its_target_back_to_hand_and_is_lost():
    state = position({**BASE, (-1, 0): [("WASP", "BLUE")]})
    state.push("move WASP -1 0 2 0")
    found = state.events()
    assert kinds(found) == [ev.RETURNED, ev.DESTROYED]
    assert found[0].text == ("BLUE's WASP strikes RED's FROG at (2, 0): the FROG goes back "
                             "to RED's hand")
    assert found[0].cells == ((2, 0),)
    assert found[1].text == "BLUE's WASP is lost in the attack"
    assert state.to_dict()["hands"]["RED"]["FROG"] == 2


def test_a_surviving_kamikaze_is_not_said_lost():
    state = position({**BASE, (-1, 0): [("WASP", "BLUE")]}, kamikaze_survives=True)
    state.push("move WASP -1 0 2 0")
    found = kinds(state.events())
    assert found[0] == ev.RETURNED and ev.DESTROYED not in found


def test_a_swap_says_where_the_other_creature_went():
    state = position({**BASE, (-1, 0): [("CUCKOO", "BLUE")]})
    state.push("move CUCKOO -1 0 2 0")
    (swap,) = state.events()
    assert swap.kind == SWAPPED
    assert swap.text == "BLUE's CUCKOO swaps places with RED's FROG: the FROG goes to (-1, 0)"


def test_climbing_makes_a_stack_traps_what_is_below_and_leaving_sets_it_free():
    state = position({**BASE, (0, 1): [("BEETLE", "BLUE")]})
    state.push("move BEETLE 0 1 1 0")
    climbed = state.events()
    assert kinds(climbed) == [ev.STACKED, ev.TRAPPED]
    assert climbed[0].text == "BLUE's BEETLE climbs onto RED's BUTTERFLY at (1, 0) (a stack of 2)"
    assert climbed[1].text == ("RED's BUTTERFLY at (1, 0) is trapped under the BEETLE: it "
                               "cannot move while the BEETLE stays")
    assert climbed[1].seat == 1
    state.push("move FROG 2 0 -1 0")
    state.push("move BEETLE 1 0 2 0")
    (freed,) = state.events()
    assert freed.kind == RELEASED
    assert freed.text == "RED's BUTTERFLY at (1, 0) is free again"
    assert kinds(state.events(0)) == [ev.STACKED, ev.TRAPPED]  # earlier actions too
    assert state.events(1) == ()


def test_a_butterfly_one_hex_from_being_surrounded_is_said():
    crowd: Board = {(0, 0): [("BUTTERFLY", "RED")], (0, 1): [("ANT", "RED")],
                    (1, 0): [("FROG", "RED")], (1, -1): [("HARE", "RED")],
                    (0, -1): [("BUTTERFLY", "BLUE")], (-2, 1): [("ANT", "BLUE")],
                    (-3, 1): [("ANT", "BLUE")], (-2, 0): [("FROG", "BLUE")],
                    (-1, -1): [("HARE", "BLUE")]}
    state = position(crowd)
    state.push("move FROG -2 0 -1 0")
    (warning,) = state.events()
    assert warning.kind == CROWDED
    assert warning.text == ("RED's BUTTERFLY at (0, 0) has 5 of its 6 neighbours occupied: "
                            "one more and RED loses")


#: RED's butterfly at (0, 0) with five occupied neighbours; BLUE's ANT can fill the sixth.
SURROUNDING: Board = {(0, 0): [("BUTTERFLY", "RED")], (0, 1): [("ANT", "RED")],
                      (1, 0): [("FROG", "RED")], (1, -1): [("HARE", "RED")],
                      (0, -1): [("BUTTERFLY", "BLUE")], (-1, 0): [("FROG", "BLUE")],
                      (-2, 1): [("ANT", "BLUE")], (-2, 2): [("ANT", "BLUE")]}


def test_surrounding_a_butterfly_says_who_loses_and_the_game_over_once():
    state = position(SURROUNDING)
    state.push("move ANT -2 2 -1 1")
    found = state.events()
    assert kinds(found) == [ev.ELIMINATED, ev.GAME_OVER]
    assert found[0].text == "RED's BUTTERFLY at (0, 0) is surrounded: RED loses"
    assert found[1].text == "Game over: BLUE wins (RED's butterfly is surrounded)."


def test_a_player_who_cannot_act_is_told_why_they_are_out():
    state = hexkit.load_game("hexaround", config="level3").new_state()
    for move in ("place BUTTERFLY 0 0", "place HORSE -1 0", "move BUTTERFLY 0 0 -1 1",
                 "place RABBIT 0 -1", "move BUTTERFLY -1 1 -2 1", "move RABBIT 0 -1 -3 2"):
        state.push(move)
    found = state.events()
    assert kinds(found) == [ev.ELIMINATED, ev.GAME_OVER]
    assert found[0].seat == 0
    assert found[0].text == ("BLUE is out: no empty hex next to their colour to place on, "
                             "and no creature of theirs can move")
    assert found[1].text == "Game over: RED wins (BLUE can neither place nor move)."


def test_narration_leaves_the_position_as_it_was():
    state = position({**BASE, (0, 1): [("BEETLE", "BLUE")]})
    state.push("move BEETLE 0 1 1 0")
    before = state.to_dict()
    moves = list(state.move_stack)
    state.events()
    state.events(0)
    assert state.to_dict() == before and list(state.move_stack) == moves


def test_a_players_action_is_narrated_at_the_terminal():
    moves = ["place BUTTERFLY 0 0", "place BUTTERFLY 0 1", "place DUCK 1 -1",
             "place TURTLE -1 2", "place RABBIT 0 -1", "move TURTLE -1 2 0 1", "quit"]
    out = run_hexkit("play", "hexaround", "-o", "config=level3", "--seed", "1",
                     input="\n".join(moves) + "\n", toy=False)
    assert out.returncode == 0, out.stderr
    after = out.stdout.split("RED> ")[-1]
    assert after.startswith("  RED's TURTLE climbs onto RED's BUTTERFLY at (0, 1) "
                            "(a stack of 2)\n")


def test_the_winning_action_is_narrated_and_the_end_said_once(tmp_path):
    state = position(SURROUNDING)
    record = GameRecord.for_game(state.game, seed=1, start=state)
    save_record(tmp_path / "g.json", record)
    out = run_hexkit("play", "--load", str(tmp_path / "g.json"), "--p2", "random",
                     input="move ANT -2 2 -1 1\n", toy=False)
    assert out.returncode == 0, out.stderr
    assert out.stdout.count("Game over") == 1
    after = out.stdout.split("BLUE> ")[-1]
    assert after.startswith("  RED's BUTTERFLY at (0, 0) is surrounded: RED loses\n"
                            "Game over: BLUE wins (RED's butterfly is surrounded).\n")


def test_a_focus_game_between_bots_says_game_over_once():
    out = run_hexkit("play", "focus", "--p1", "random", "--p2", "random", "--seed", "1",
                     toy=False)
    assert out.returncode == 0, out.stderr
    assert out.stdout.count("Game over") == 1


# -- the text board ------------------------------------------------------------------------
def spread_state() -> Any:
    state = hexkit.load_game("hexaround", config="hivelike").new_state()
    state.push("place BUTTERFLY 0 0")
    state.push("place BUTTERFLY 1 0")
    x_blue, x_red = 0, 1
    for name in ("ANT", "ANT", "ANT", "SPIDER", "SPIDER"):
        x_blue -= 1
        state.push(f"place {name} {x_blue} 0")
        x_red += 1
        state.push(f"place {name} {x_red} 0")
    return state


def test_each_coordinate_sits_inside_its_own_hex_under_its_creature():
    state = position({**BASE, (0, 1): [("BEETLE", "BLUE")]})
    lines = render_text(state, 100).splitlines()
    for token, where in (("B-BUT", "0,0"), ("R-BUT", "1,0"), ("R-FRO", "2,0"),
                         ("B-BEE", "0,1")):
        (row,) = [i for i, line in enumerate(lines) if f"/ {token}  \\" in line]
        start = lines[row].index(f"/ {token}")
        below = lines[row + 1][start:start + 10]
        assert below == "\\" + where.center(8) + "/", (token, below)


def test_larger_y_is_drawn_higher_up():
    state = position({**BASE, (0, 1): [("BEETLE", "BLUE")], (1, -1): [("ANT", "RED")]})
    text = render_text(state, 100)
    assert text.index("0,1") < text.index("0,0") < text.index("1,-1")
    lines = text.splitlines()
    # (0, 1) is the upper right neighbour of (0, 0): half a hex to the right, a row up.
    beetle = next(line for line in lines if "B-BEE" in line).index("/ B-BEE")
    butterfly = next(line for line in lines if "B-BUT" in line).index("/ B-BUT")
    assert beetle - butterfly == 5


def test_the_board_takes_the_terminals_width(monkeypatch):
    state = spread_state()
    monkeypatch.setenv("COLUMNS", "200")
    wide = state.render().splitlines()
    assert not any(line.startswith("[part") for line in wide)
    assert any(re.search(r"^\s*\.\s", line) or "  .  " in line for line in wide)
    assert 80 < max(len(line) for line in wide) <= 200
    monkeypatch.setenv("COLUMNS", "60")
    narrow = state.render().splitlines()
    assert max(len(line) for line in narrow) <= 60
    assert any(line.startswith("[part 2 of") for line in narrow)
    for x in range(-5, 7):
        assert f"{x},0" in "\n".join(narrow)


def test_empty_hexes_are_left_out_before_the_picture_is_cut():
    state = position(BASE)
    full = render_text(state, 200)
    assert " . " in full
    fitted = render_text(state, 30).splitlines()
    assert max(len(line) for line in fitted) <= 30
    assert not any(line.startswith("[part") for line in fitted)
    assert "R-FRO" in "\n".join(fitted)


def test_hands_show_creature_names():
    state = position(BASE)
    text = render_text(state, 80)
    assert "BLUE hand: BEETLE 2, CUCKOO 1, WASP 1, HEN 1, HARE 2, FROG 2, ANT 2" in text


def test_the_creature_codes_the_board_shows_can_be_typed_and_its_legend_fits_120_columns():
    state = hexkit.load_game("hexaround", config="level3").new_state(seed=1)
    state.push("place BUT 0 0")
    state.push("place duc 0 1")
    assert [str(m) for m in state.move_stack] == ["place BUTTERFLY 0 0", "place DUCK 0 1"]
    text = render_text(state, width=200)
    assert "DUC=DUCK" in text
    assert max(len(line) for line in text.splitlines()) <= 120
