"""The terminal's console: what it prints in colour is what it prints without, in colour."""

from __future__ import annotations

import io
import re

import pytest

from hexkit.terminal.console import Console

BACKSLASH = "\\"


def test_a_move_ending_in_a_backslash_is_shown_with_one_backslash_in_colour():
    pytest.importorskip("rich")
    out = io.StringIO()
    console = Console(out, colour=True)
    move = console.escape("bQ wS1" + BACKSLASH)
    console.say(f"{console.player(1, 'Black')} (random) plays {move}", marked=True)
    console.say(console.style("wA1 " + BACKSLASH + "bQ" + BACKSLASH, "bold") + " next", marked=True)
    console.say(console.escape("a [b] c"), marked=True)
    plain = re.sub(r"\x1b\[[0-9;]*m", "", out.getvalue())
    assert plain.splitlines() == ["Black (random) plays bQ wS1" + BACKSLASH,
                                  "wA1 " + BACKSLASH + "bQ" + BACKSLASH + " next", "a [b] c"]
