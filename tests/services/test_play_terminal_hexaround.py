"""HexAround's board at a real terminal (a pseudo-terminal of a given size): it takes the
terminal's width, wide or narrow, without ``COLUMNS`` being set."""

from __future__ import annotations

import fcntl
import os
import struct
import subprocess
import sys
import termios

import pytest

from .test_play_terminal import Terminal

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")

#: Five creatures each in a row: a colony 14 hexes long.
SPREAD = ["place BUTTERFLY 0 0", "place BUTTERFLY 1 0"] + [
    f"place {name} {x} 0" for i, name in enumerate(("ANT", "ANT", "ANT", "SPIDER", "SPIDER"))
    for x in (-1 - i, 2 + i)]


class SizedTerminal(Terminal):
    """A pseudo-terminal of ``columns`` x 40, with no ``COLUMNS`` in the environment: the
    program learns the width from the terminal itself."""

    def __init__(self, args: list[str], columns: int) -> None:
        env = {k: v for k, v in os.environ.items()
               if k not in ("HEXKIT_PLUGINS_DIR", "HEXKIT_DEBUG", "COLUMNS", "LINES")}
        env.update(TERM="xterm", NO_COLOR="1")
        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, columns, 0, 0))
        self.proc = subprocess.Popen(args, stdin=slave, stdout=slave, stderr=slave, env=env,
                                     start_new_session=True)
        os.close(slave)
        self.shown = b""


def board_after_spread(columns: int) -> list[str]:
    term = SizedTerminal([sys.executable, "-m", "hexkit", "play", "hexaround", "-o",
                          "config=hivelike"], columns)
    for n, move in enumerate(SPREAD):
        term.wait_for(b"> ")
        term.shown = b"" if n < len(SPREAD) - 1 else term.shown
        term.type(move.encode() + b"\n")
    term.wait_for(b"RED hand:")
    term.type(b"quit\n")
    code, shown = term.finish()
    assert code == 0, shown
    return shown.split("BLUE> ")[-2].splitlines()


def test_a_wide_terminal_shows_the_whole_colony_in_one_piece():
    lines = board_after_spread(150)
    assert not any(line.startswith("[part") for line in lines)
    assert 80 < max(len(line) for line in lines) <= 150
    assert "-5,0" in "\n".join(lines) and "6,0" in "\n".join(lines)


def test_a_narrow_terminal_gets_strips_of_whole_hexes_within_its_width():
    lines = board_after_spread(60)
    assert any(line.startswith("[part 2 of") for line in lines)
    assert max(len(line) for line in lines) <= 60
    for x in range(-5, 7):
        assert f"{x},0" in "\n".join(lines)
