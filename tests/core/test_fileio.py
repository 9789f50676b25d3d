import os
import stat

import pytest

from hexkit.files.fileio import write_text_atomic


def test_atomic_write_replaces_the_file_and_leaves_no_temporary_files(tmp_path):
    target = tmp_path / "game.json"
    target.write_text("old")
    write_text_atomic(target, "new")
    assert target.read_text() == "new"
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


def test_atomic_write_gives_normal_permissions_not_private_ones(tmp_path):
    old = os.umask(0o022)
    try:
        write_text_atomic(tmp_path / "board.svg", "<svg/>")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "board.svg").stat().st_mode) == 0o644


def test_failed_atomic_write_keeps_the_old_file(tmp_path):
    target = tmp_path / "game.json"
    target.write_text("old")


    with pytest.raises(TypeError):
        write_text_atomic(target, object())  # type: ignore[arg-type]
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]
