"""The classic console against a direct transcription of the skeleton (``skeleton.py``):
generated sessions (menus, loads of quirky files, mostly-legal and junk commands, ends of
games, end of input) must give the same standard output and exit status."""

from __future__ import annotations

import random
import shutil

import pytest
from hexbaron.classic import ClassicConsole, classic_command, load_classic_file
from hexbaron.game import HexBaronState
from hypothesis import given, settings
from hypothesis import strategies as st

import hexkit

from .conftest import GAME1, classic, skeleton
from .skeleton import check_command_is_valid

GAME1_LF = (
    "Player One,0,5,5,2\nPlayer Two,0,5,5,2\n6\n#,#,~,~, , , ,~, , , , , ,#,#,#,~,~\n"
    "1,Baron,0\n2,Baron,1\n1,LESS,3\n1,LESS,15\n2,LESS,2\n1,Serf,17\n2,LESS,13"
)

#: Data files, quirks included, that the generated sessions load.
FILES = {
    "lf.txt": GAME1_LF + "\n",
    "cr.txt": GAME1_LF.replace("\n", "\r"),
    "four.txt": "Ann,0,6,8,3\nBob,2,6,8,3\n4\n~,#, ,~,#, ,~, \n1,Baron,0\n2,Baron,7\n"
                "1,Serf,4\n2,PBDS,3\n",
    "trail.txt": "Player One,0,9,9,3\nPlayer Two,0,9,9,3\n4\n~,#,~,#,~,#,~, \n"
                 "1,Baron,0\n2,Baron,7\n",
    "quirky.txt": "One, 3,+4,0005,2,extra\nTwo,-1,4,5,2\n6\n#,~\nx,baron,-1\n1,PBDS,-18\n"
                  "1,Knight,5\n2,LESS,5\n1,Baron,9\n\n1,Baron,10\n",
    "pbds.txt": "Player One,0,20,20,5\nPlayer Two,0,20,20,5\n4\n~,~,~,~,~,~,~,~\n"
                "1,Baron,0\n1,PBDS,1\n2,Baron,7\n2,PBDS,6\n",
    "tie.txt": "P,5,3,3,1\nQ,5,3,3,1\n4\n , , , , , , , \n1,Baron,0\n2,Serf,2\n2,Baron,5\n",
    "two.txt": "Player One,0,5,5,5\nPlayer Two,0,5,5,5\n2\n~,#\n1,Baron,0\n2,Baron,1\n",
    "odd.txt": GAME1_LF.replace("\n6\n", "\n7\n"),
    "one.txt": "Player One,0,5,5,5\nPlayer Two,0,5,5,5\n1\n \n",
    "long.txt": GAME1_LF.replace("~,~\n", "~,~,~\n"),
    "fields.txt": "Player One,0,5,5\nPlayer Two,0,5,5,5\n6\n \n",
    "range.txt": GAME1_LF + "\n1,Serf,18\n",
    "noterrain.txt": "A,0,1,1,1\nB,0,1,1,1\n4\n",
    "bytes.txt": "A,0,1,1,1\nB,0,1,1,1\n4\n\xff,#\n",
}
FILE_NAMES = [*FILES, "game1.txt", "missing.txt", "", "game1.txt\r"]
MENU_JUNK = ["q", "", " 1", "1 ", "1\r", "3", "Q ", "quit", "２"]
ENTER = ["", "Q", "x", "  "]


def _fuzz_command(rng: random.Random, n: int, legal: list[str]) -> str:
    """A command line: usually a legal command in a random spelling, sometimes junk."""
    roll = rng.random()
    if legal and roll < 0.7:
        words = rng.choice(legal).split()
        if words[0] == "pass":
            return rng.choice(["pass", "", "help"])
        spelled = []
        for w in words:
            if w.isdigit() and rng.random() < 0.2:
                w = rng.choice([f"+{w}", f"0{w}", f"{w}\r", f" {w}", f"{w}\t"])
            elif not w.isdigit() and rng.random() < 0.2:
                w = w.upper()
            spelled.append(w)
        return " ".join(spelled)
    verb = rng.choice(["move", "saw", "dig", "spawn", "upgrade", "mine", "MOVE", "Dig"])
    tiles = [str(rng.randint(-2, n + 1)) for _ in range(2)]
    return rng.choice([
        f"{verb} {tiles[0]} {tiles[1]}",
        f"{verb} {tiles[0]}",
        f"upgrade {rng.choice(['less', 'pbds', 'serf', 'LESS', 'leß'])} {tiles[0]}",
        f"{verb}  {tiles[0]}",
        f" {verb} {tiles[0]}",
        f"{verb} {tiles[0]}x",
        f"move {tiles[0]} 1_{tiles[1].lstrip('-')}",
    ])


def _session(seed: int, folder) -> str:
    """A whole stdin: menu choices and games, with commands chosen by playing along."""
    rng = random.Random(seed)
    game_rng = random.Random(seed)  # the console's dig generator, mirrored
    mirror = ClassicConsole(hexkit.load_game("hexbaron"), seed, None, None)  # type: ignore[arg-type]
    mirror.rng = game_rng
    lines: list[str] = []
    for _ in range(rng.randint(1, 4)):
        roll = rng.random()
        if roll < 0.12:
            lines.append(rng.choice(MENU_JUNK))
            continue
        if roll < 0.5:
            lines.append("1")
            setup = mirror.default_setup()
        else:
            name = rng.choice(FILE_NAMES)
            lines += ["2", name]
            try:
                setup = load_classic_file(str(folder / name)) if name else None
            except Exception:
                setup = None
            if setup is None:
                continue
            if setup.extra["declared_size"] % 2:
                return "\n".join(lines) + "\n"
        state = HexBaronState(mirror.game(), setup, game_rng)
        for _turn in range(rng.randint(1, 14)):
            if state.is_over():
                break
            for _c in range(3):
                line = _fuzz_command(rng, state.pos.n, [str(m) for m in state.legal_moves()])
                lines.append(line)
                mirror.execute(state, line.lower())
            lines.append(rng.choice(ENTER))
        if not state.is_over():
            cut = rng.randint(0, 3)
            return "\n".join(lines[: len(lines) - cut]) + ("\n" if rng.random() < 0.8 else "")
    lines.append("Q")
    return "\n".join(lines) + "\n"


@pytest.fixture
def data_folder(tmp_path):
    for name, text in FILES.items():
        data = text.encode("latin-1") if name == "bytes.txt" else text.encode("utf-8")
        (tmp_path / name).write_bytes(data)
    if GAME1.is_file():
        shutil.copyfile(GAME1, tmp_path / "game1.txt")
    else:
        (tmp_path / "game1.txt").write_bytes(GAME1_LF.replace("\n", "\r\n").encode())
    return tmp_path


@pytest.mark.parametrize("seed", range(40))
def test_classic_console_prints_what_the_skeleton_prints_for_generated_sessions(seed,
                                                                                data_folder):
    stdin = _session(seed, data_folder)
    want_code, want_out = skeleton(stdin, seed, data_folder)
    code, out, err = classic(stdin, seed, data_folder)
    assert out == want_out
    assert code == want_code
    assert (err == "") == (code == 0)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(
    [*"0123456789 -+_\t\r", "move", "saw", "dig", "spawn", "upgrade", "less", "pbds", "LESS",
     "٢", "٧", "²", "x", "ß", "ſ", "e1", "0x1", ".0"]), max_size=8).map("".join))
def test_classic_command_check_is_the_skeletons_format_check(line):
    assert (classic_command(line) is not None) == check_command_is_valid(line.split(" "))
