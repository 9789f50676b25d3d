"""Game set-ups as data: the YAML set-ups, AQA data files read strictly with file:line
errors, saving to the data-file format and loading it back, and the set-up options."""

from __future__ import annotations

import random
import textwrap

import pytest
from hexbaron.classic import load_classic_file
from hexbaron.game import HexBaronState
from hexbaron.setup import parse_data_file, setup_from_yaml, write_data_file

import hexkit
from hexkit.errors import ConfigError, OptionError
from hexkit.files.yamlfile import parse_yaml

from .conftest import GAME1, plain_game

GAME1_TEXT = (
    "Player One,0,5,5,2\r\nPlayer Two,0,5,5,2\r\n6\r\n#,#,~,~, , , ,~, , , , , ,#,#,#,~,~\r\n"
    "1,Baron,0\r\n2,Baron,1\r\n1,LESS,3\r\n1,LESS,15\r\n2,LESS,2\r\n1,Serf,17\r\n2,LESS,13"
)


def data(text: str, catalogue):
    return parse_data_file(textwrap.dedent(text).lstrip("\n"), "game.txt", catalogue)


def yaml_setup(text: str, catalogue):
    return setup_from_yaml(parse_yaml(textwrap.dedent(text), "s.yaml"), "s.yaml", catalogue)


def errors_of(exc: ConfigError) -> list[str]:
    return str(exc).splitlines()


def same_game(a, b) -> bool:
    return (a.size, a.terrain, a.pieces, a.players, a.to_move, a.command, tuple(a.turns),
            a.baron_lost) == (b.size, b.terrain, b.pieces, b.players, b.to_move, b.command,
                              tuple(b.turns), b.baron_lost)


# -- AQA data files -----------------------------------------------------------------------
def test_aqas_game1_file_loads_byte_for_byte_with_crlf_and_no_final_newline(catalogue):
    if GAME1.is_file():
        assert GAME1.read_bytes().decode() == GAME1_TEXT
    setup = parse_data_file(GAME1_TEXT, "game1.txt", catalogue)
    assert setup.size == 6 and setup.tile_count == 18
    assert "".join(setup.terrain) == "##~~   ~     ###~~"
    assert setup.pieces == {0: (0, "Baron"), 1: (1, "Baron"), 3: (0, "LESS"), 15: (0, "LESS"),
                            2: (1, "LESS"), 17: (0, "Serf"), 13: (1, "LESS")}
    assert [(p.name, p.vps, p.resources) for p in setup.players] == [
        ("Player One", 0, {"fuel": 5, "lumber": 5, "supply": 2}),
        ("Player Two", 0, {"fuel": 5, "lumber": 5, "supply": 2}),
    ]


def test_game1_loads_the_same_with_lf_or_cr_line_endings(catalogue):
    crlf = parse_data_file(GAME1_TEXT, "a", catalogue)
    assert same_game(parse_data_file(GAME1_TEXT.replace("\r\n", "\n"), "b", catalogue), crlf)
    assert same_game(parse_data_file(GAME1_TEXT.replace("\r\n", "\r"), "c", catalogue), crlf)


def test_shipped_game1_yaml_is_the_same_game_as_aqas_data_file(catalogue):
    from_yaml = plain_game(setup="game1").setup
    assert same_game(from_yaml, parse_data_file(GAME1_TEXT, "game1.txt", catalogue))


def test_fewer_terrain_entries_than_tiles_leaves_fields(catalogue):
    setup = data("""
        A,0,1,1,1
        B,0,1,1,1
        4
        #,~
        """, catalogue)
    assert setup.terrain == ["#", "~"] + [" "] * 6


def test_a_last_field_keeps_its_space_unlike_the_skeleton(catalogue):
    text = "A,0,1,1,1\nB,0,1,1,1\n4\n#,#,#,#,#,#,#, \n"
    assert parse_data_file(text, "t", catalogue).terrain[7] == " "


@pytest.mark.parametrize("text, message", [
    ("A,0,1,1\nB,0,1,1,1\n4\n \n", "game.txt:1: Player One needs 5 comma-separated fields"),
    ("A,0,1,1,1\nB,0,x,1,1\n4\n \n", "game.txt:2: Player Two's fuel must be a whole number"),
    ("A,0,1,1,1\nB,0,-1,1,1\n4\n \n", "game.txt:2: Player Two's fuel must be a whole number"),
    ("A,0,1,1,1\nB,0,1,1,1\n7\n \n", "game.txt:3: grid size must be an even number from 4 "
                                       "to 100, not 7"),
    ("A,0,1,1,1\nB,0,1,1,1\n2\n \n", "game.txt:3: grid size must be an even number"),
    ("A,0,1,1,1\nB,0,1,1,1\n102\n \n", "game.txt:3: grid size must be an even number"),
    ("A,0,1,1,1\nB,0,1,1,1\nsix\n \n", "game.txt:3: the grid size must be a whole number"),
    ("A,0,1,1,1\nB,0,1,1,1\n4\n", "game.txt:4: the file ends before line 4"),
    ("A,0,1,1,1\nB,0,1,1,1\n", "game.txt:3: the file ends before line 3"),
    ("", "game.txt:1: the file ends before line 1"),
    ("A,0,1,1,1\nB,0,1,1,1\n4\n#,#,#,#,#,#,#,#,#\n", "game.txt:4: 9 terrain entries for 8"),
    ("A,0,1,1,1\nB,0,1,1,1\n4\n#,x\n", "game.txt:4: tile 1: unknown terrain 'x'"),
    ("A,0,1,1,1\nB,0,1,1,1\n4\n#,,#\n", "game.txt:4: the terrain of tile 1 is empty"),
    ("A,0,1,1,1\nB,0,1,1,1\n4\n \n3,Baron,0\n", "game.txt:5: the owner must be 1 or 2"),
    ("A,0,1,1,1\nB,0,1,1,1\n4\n \n1,Knight,0\n", "game.txt:5: unknown piece type 'Knight'"),
    ("A,0,1,1,1\nB,0,1,1,1\n4\n \n1,Baron,8\n", "game.txt:5: the tile must be a number "
                                                  "from 0 to 7, not '8'"),
    ("A,0,1,1,1\nB,0,1,1,1\n4\n \n1,Baron,-1\n", "game.txt:5: the tile must be a number"),
    ("A,0,1,1,1\nB,0,1,1,1\n4\n \n1,Baron,0\n2,Serf,0\n", "game.txt:6: tile 0 already holds"),
    ("A,0,1,1,1\nB,0,1,1,1\n4\n \n1,Baron\n", "game.txt:5: a piece line is owner,type,tile"),
    ("A,0,1,1,1\nB,0,1,1,1\n4\n \n1,Baron,0\n\nmore\n", "game.txt:7: unexpected text after"),
    ("A,0,1,1,1,ore=2\nB,0,1,1,1\n4\n \n", "game.txt:1: Player One: unexpected field 'ore=2'"),
    (",0,1,1,1\nB,0,1,1,1\n4\n \n", "game.txt:1: a player's name cannot be empty"),
    ("A,0,1,1,1\nB,0,1,1,1\n4\n \n\nhexkit-turn,3,0,0,0,0\n", "game.txt:6: inconsistent turn"),
])
def test_malformed_data_files_are_refused_naming_file_line_and_problem(text, message, catalogue):
    with pytest.raises(ConfigError) as info:
        parse_data_file(text, "game.txt", catalogue)
    assert message in str(info.value)


def test_every_problem_in_a_data_file_is_reported_with_its_line(catalogue):
    text = "A,0,1,1,1\nB,0,1,x,1\n4\n#,?\n1,Baron,0\n5,Serf,1\n1,Wizard,2\n"
    with pytest.raises(ConfigError) as info:
        parse_data_file(text, "g.txt", catalogue)
    lines = errors_of(info.value)
    assert [line.split(":")[1] for line in lines] == ["2", "4", "6", "7"]


def test_piece_types_in_data_files_are_case_insensitive(catalogue):
    setup = parse_data_file("A,0,1,1,1\nB,0,1,1,1\n4\n#\n1,baron,0\n2,pbds,7\n2,serf,5\n",
                            "game.txt", catalogue)
    assert setup.pieces == {0: (0, "Baron"), 7: (1, "PBDS"), 5: (1, "Serf")}


def test_loading_a_missing_or_unreadable_file_names_it():
    with pytest.raises(ConfigError, match="no such file"):
        plain_game(setup="nowhere/game.txt")
    with pytest.raises(OptionError, match="no set-up called 'nowhere'"):
        plain_game(setup="nowhere")


def test_a_folder_is_not_a_data_file(tmp_path):
    with pytest.raises(ConfigError, match="is not a file"):
        plain_game(setup=str(tmp_path))


def test_a_binary_file_is_refused_as_not_text(tmp_path):
    path = tmp_path / "g.txt"
    path.write_bytes(b"A,0,1,1,1\nB,0,1,1,1\n4\n\xff\n")
    with pytest.raises(ConfigError, match=r"g\.txt:4: not a text file"):
        plain_game(setup=str(path))


# -- saving -------------------------------------------------------------------------------
def positions():
    """Positions from seeded random play: starts, mid-turn, Player Two to move, last turns."""
    for seed in range(6):
        state = plain_game().new_state(seed)
        chooser = random.Random(seed)
        for ply in range(80):
            if state.is_over():
                break
            if ply % 9 == 0:
                yield state.copy()
            legal = state.legal_moves()
            state.push(legal[chooser.randrange(len(legal))])
        yield state


def test_saving_then_loading_gives_the_same_game(catalogue):
    for state in positions():
        text = write_data_file(state.to_setup(), catalogue)
        loaded = parse_data_file(text, "saved.txt", catalogue)
        assert same_game(loaded, state.to_setup())
        again = HexBaronState(state.game, loaded, random.Random())
        again.pos.rng.setstate(state.rng.getstate())
        assert again.to_dict() == state.to_dict()


def test_a_saved_game_records_whose_turn_it_is_after_a_blank_line(catalogue):
    state = plain_game().new_state(0)
    for c in ("spawn 4", "pass", "pass", "pass"):
        state.push(c)
    text = write_data_file(state.to_setup(), catalogue)
    assert text.endswith("\n\nhexkit-turn,2,1,1,0,1\n")
    assert text.startswith("Player One,0,10,7,4\nPlayer Two,13,10,10,5\n8\n")


def test_a_saved_game_loads_in_the_aqa_loader_too(tmp_path, catalogue):
    state = plain_game().new_state(0)
    for c in ("upgrade less 8", "move 8 12", "saw 12"):
        state.push(c)
    path = tmp_path / "saved.txt"
    path.write_text(write_data_file(state.to_setup(), catalogue), encoding="utf-8")
    classic = load_classic_file(str(path))
    mine = state.to_setup()
    assert classic.pieces == mine.pieces
    assert classic.players == mine.players
    assert classic.terrain[:-1] == mine.terrain[:-1]


# -- YAML set-ups -------------------------------------------------------------------------
def test_default_yaml_set_up_is_the_skeletons_default_game(catalogue):
    setup = plain_game().setup
    assert setup.size == 8 and setup.players[1].vps == 1
    assert setup.pieces == {0: (0, "Baron"), 8: (0, "Serf"), 31: (1, "Baron"),
                            23: (1, "Serf")}


@pytest.mark.parametrize("text, message", [
    ("size: 8\nterrain: {}\nplayers: []\nsizes: 3\n", "s.yaml:4: unknown key 'sizes' (did you "
                                                      "mean 'size'?)"),
    ("terrain: {}\nplayers: []\n", "s.yaml:1: missing key 'size'"),
    ("size: 9\nterrain: {}\nplayers: []\n", "s.yaml:1: grid size must be an even number"),
    ("size: eight\nterrain: {}\nplayers: []\n", "s.yaml:1: size must be a whole number"),
    ("size: 4\nterrain:\n  lava: [1]\nplayers: []\n", "s.yaml:3: unknown terrain 'lava'"),
    ("size: 4\nterrain:\n  forest: [1, 9]\nplayers: []\n", "s.yaml:3: terrain forest: there "
                                                           "is no tile 9"),
    ("size: 4\nterrain:\n  forest: [1]\n  bog: [1]\nplayers: []\n",
     "s.yaml:4: tile 1 is listed as both forest and bog"),
    ("size: 4\nterrain: {}\nplayers: [{name: A}]\n", "s.yaml:3: players must be a list of two"),
    ("size: 4\nterrain: {}\nplayers:\n- {name: A, gold: 3}\n- {name: B}\n",
     "s.yaml:4: player 1: unknown key 'gold'"),
    ("size: 4\nterrain: {}\nplayers:\n- {name: A, fuel: -3}\n- {name: B}\n",
     "s.yaml:4: player 1: fuel must be a whole number, 0 or more"),
    ("size: 4\nterrain: {}\nplayers:\n- name: A\n  pieces: {Knight: [0]}\n- {name: B}\n",
     "s.yaml:5: unknown piece type 'Knight'"),
    ("size: 4\nterrain: {}\nplayers:\n- name: A\n  pieces: {Baron: [0]}\n- name: B\n"
     "  pieces: {Serf: [0]}\n", "s.yaml:7: tile 0 already holds a piece"),
    ("size: 4\nterrain: {}\nplayers:\n- {name: 'A,B'}\n- {name: B}\n",
     "s.yaml:4: a player's name cannot contain a comma"),
    ("size: [4\n", "s.yaml:2: invalid YAML"),
])
def test_malformed_yaml_set_ups_are_refused_with_file_and_line(text, message, catalogue):
    with pytest.raises(ConfigError) as info:
        setup_from_yaml(parse_yaml(text, "s.yaml"), "s.yaml", catalogue)
    assert message in str(info.value)


def test_a_yaml_set_up_file_can_be_played(tmp_path):
    path = tmp_path / "mine.yaml"
    path.write_text("size: 4\nterrain: {forest: [3]}\nplayers:\n"
                    "- {name: Ann, fuel: 3, lumber: 4, supply: 1, pieces: {Baron: 0}}\n"
                    "- {name: Bob, pieces: {Baron: [7], PBDS: [6]}}\n", encoding="utf-8")
    state = hexkit.load_game("hexbaron", setup=str(path), extensions="none").new_state(0)
    assert state.players == ("Ann", "Bob")
    assert state.pos.resources[1] == {"fuel": 0, "lumber": 0, "supply": 0}
    assert state.pos.terrain[3] == "#"


# -- options ------------------------------------------------------------------------------
def test_size_option_generates_a_grid_of_that_size_with_the_default_pieces():
    state = plain_game(size=60).new_state(0)
    pos = state.pos
    assert pos.n == 1800 and len(pos.neighbours) == 1800
    pieces = {t: (p.owner, p.kind) for t, p in enumerate(pos.pieces) if p}
    assert pieces == {0: (0, "Baron"), 60: (0, "Serf"), 1799: (1, "Baron"),
                      1739: (1, "Serf")}
    assert set(pos.terrain) == {" ", "#", "~"}
    assert plain_game(size=60).setup.terrain == pos.terrain  # the same grid every time


@pytest.mark.parametrize("size", [3, 7, 2, 0 - 4, 102])
def test_grid_sizes_must_be_even_and_from_4_to_100(size):
    with pytest.raises(OptionError, match="grid size must be an even number from 4 to 100"):
        plain_game(size=size)


def test_player_names_can_be_chosen():
    state = plain_game(p1_name="Ada", p2_name="Brian").new_state(0)
    assert state.players == ("Ada", "Brian")
    assert "Ada  " in state.render()


@pytest.mark.parametrize("name, message", [("A,B", "comma"), (" Ann", "spaces"),
                                           ("x" * 41, "at most 40")])
def test_unusable_player_names_are_refused(name, message):
    with pytest.raises(OptionError, match=message):
        plain_game(p1_name=name)


def test_the_players_cannot_share_a_name():
    with pytest.raises(OptionError, match="both players are called"):
        plain_game(p2_name="Player One")
