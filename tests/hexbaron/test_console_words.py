"""The words Hex Baron adds to ``hexkit play``: ``savefile [-f] FILE`` and ``ids``."""

from __future__ import annotations

import pytest
from hexbaron.console import ids_command, savefile_command

from hexkit.errors import HexkitError

from .conftest import plain_game


def test_save_writes_the_game_and_refuses_to_replace_a_file_without_f(tmp_path):
    state = plain_game().new_state(0)
    target = tmp_path / "g.txt"
    assert "saved to" in savefile_command(state, str(target))
    first = target.read_text(encoding="utf-8")
    state.push("upgrade less 8")
    with pytest.raises(HexkitError, match="already exists; type 'savefile -f"):
        savefile_command(state, str(target))
    assert target.read_text(encoding="utf-8") == first
    savefile_command(state, f"-f {target}")
    assert target.read_text(encoding="utf-8").startswith("Player One,0,10,5,5\n")
    assert [p.name for p in tmp_path.iterdir()] == ["g.txt"]  # no temporary file left


@pytest.mark.parametrize("argument, message", [
    ("", "usage: savefile"), ("-f", "usage: savefile"), ("x.yaml", "not YAML"),
    ("nowhere/x.txt", "there is no folder nowhere"),
])
def test_save_explains_what_is_wrong(argument, message, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(HexkitError, match=message):
        savefile_command(plain_game().new_state(0), argument)


def test_ids_shows_the_tile_numbers_laid_out_as_the_grid():
    lines = ids_command(plain_game().new_state(0), "").splitlines()
    assert lines[1] == " / 0\\__/ 1\\__/ 2\\__/ 3\\__"
    assert lines[2] == " \\__/ 4\\__/ 5\\__/ 6\\__/ 7\\"
    assert lines[-2] == " \\__/28\\__/29\\__/30\\__/31\\"
