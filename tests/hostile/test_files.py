"""Files named by data stay inside their folder; records carry their variant files; errors
name the user's path; nothing overwrites a record by accident; one writer per record."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from hexkit import plugins
from hexkit.errors import RecordError
from hexkit.files.fileio import write_text_atomic
from hexkit.files.recordlock import check_free, release
from hexkit.files.records import GameRecord, load_record, replay, save_record
from hexkit.tools.scenarios import load_scenarios, run_scenario

from .conftest import run_hexkit

CONFIGS = Path(__file__).resolve().parents[2] / "configs"
SECRET = "-----BEGIN OPENSSH PRIVATE KEY-----"


@pytest.fixture
def secret(tmp_path: Path) -> Path:
    folder = tmp_path / "secret"
    folder.mkdir()
    path = folder / "id_rsa"
    path.write_text(SECRET + "\nAAAA\n")
    return path


def _record(tmp_path: Path, name: str, file: str = "g.json", **options) -> Path:
    game = plugins.registry().load_game(name)
    record = GameRecord.for_game(game, seed=1)
    record.options.update(options)
    folder = tmp_path / "records" / "deep"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / file
    path.write_text(json.dumps(record.to_dict()))
    return path


@pytest.mark.parametrize("game,option", [
    ("hexbaron", "setup"), ("focus", "board"), ("hexaround", "config")])
def test_a_record_cannot_make_hexkit_read_a_file_outside_its_folder(tmp_path, secret, game,
                                                                    option):
    path = _record(tmp_path, game, **{option: "../../secret/id_rsa"})
    with pytest.raises(RecordError) as info:
        replay(load_record(path))
    message = str(info.value)
    assert "outside the record's folder" in message
    assert SECRET not in message and "BEGIN" not in message
    r = run_hexkit("replay", str(path))
    assert r.returncode == 1 and SECRET not in r.stderr + r.stdout
    assert len(r.stderr.strip().splitlines()) == 1


def test_a_record_may_use_a_file_beside_it_and_installed_variants(tmp_path):
    path = _record(tmp_path, "focus", board="cross.yaml")
    (path.parent / "cross.yaml").write_text((CONFIGS / "focus" / "cross.yaml").read_text())
    assert replay(load_record(path)).legal_moves()
    installed = str(CONFIGS / "focus" / "cross.yaml")
    path = _record(tmp_path, "focus", board=installed)
    assert replay(load_record(path)).legal_moves()


def test_a_record_carries_its_variant_file_and_replays_on_another_machine(tmp_path):
    variant = tmp_path / "mine" / "wide.yaml"
    variant.parent.mkdir()
    variant.write_text((CONFIGS / "focus" / "cross.yaml").read_text())
    game = plugins.registry().load_game("focus", board=str(variant))
    state = game.new_state(seed=3)
    for _ in range(6):
        state.push(state.legal_moves()[0])
    record = GameRecord.for_game(game, seed=3)
    record.update(state)
    saved = tmp_path / "elsewhere" / "g.json"
    saved.parent.mkdir()
    save_record(saved, record)
    release(saved)
    variant.unlink()  # the other machine has no such file
    again = replay(load_record(saved))
    assert again.to_dict() == state.to_dict()
    # Titles name the file as it was saved, never the private copy it is read from.
    assert str(again.game) == f"focus(board={variant})"
    assert "hexkit-record" not in again.render()


def test_a_scenario_cannot_read_files_outside_its_folder(tmp_path, secret):
    folder = tmp_path / "course" / "tests"
    folder.mkdir(parents=True)
    path = folder / "s.yaml"
    path.write_text("game: hexbaron\noptions: {setup: ../../secret/id_rsa}\n")
    [scenario] = load_scenarios(path)
    with pytest.raises(Exception) as info:
        run_scenario(scenario)
    assert "outside the scenario file's folder" in str(info.value)
    assert SECRET not in str(info.value)
    path.write_text("game: focus\nposition_file: ../../secret/id_rsa\n")
    with pytest.raises(Exception, match=r"s.yaml:2: 'position_file' must be a file in the "):
        load_scenarios(path)


def test_saving_to_a_folder_names_the_users_path_not_a_temporary_file(tmp_path):
    folder = tmp_path / "d"
    folder.mkdir()
    with pytest.raises(OSError) as info:
        write_text_atomic(folder, "x")
    assert info.value.filename == str(folder) and ".tmp" not in str(info.value)
    r = run_hexkit("render", str(_record(tmp_path, "focus")), "-o", str(folder))
    assert r.returncode == 1 and ".tmp" not in r.stderr and str(folder) in r.stderr


def test_a_missing_folder_is_named_as_the_user_wrote_it(tmp_path):
    target = tmp_path / "nope" / "g.json"
    with pytest.raises(OSError) as info:
        write_text_atomic(target, "x")
    assert info.value.filename == str(target)


def test_render_refuses_to_replace_the_record_it_draws_or_any_record(tmp_path):
    path = _record(tmp_path, "focus")
    before = path.read_text()
    r = run_hexkit("render", str(path), "-o", str(path))
    assert r.returncode == 1 and "is the record being drawn" in r.stderr
    other = _record(tmp_path, "hexbaron", "other.json")
    r = run_hexkit("render", str(path), "-o", str(other))
    assert r.returncode == 1 and "is a game record" in r.stderr
    assert path.read_text() == before and "hexkit-record" in other.read_text()


def test_a_read_only_record_is_not_replaced(tmp_path):
    path = _record(tmp_path, "focus")
    path.chmod(0o444)
    before = path.read_text()
    record = load_record(path)
    with pytest.raises(PermissionError) as info:
        save_record(path, record)
    assert info.value.filename == str(path) and "read-only" in str(info.value)
    assert path.read_text() == before and (path.stat().st_mode & 0o777) == 0o444


def test_a_kept_mode_and_saving_through_a_symlink_replaces_its_target(tmp_path):
    path = _record(tmp_path, "focus")
    path.chmod(0o640)
    link = tmp_path / "link.json"
    link.symlink_to(path)
    record = load_record(link)
    record.players = ["saved through the link"]
    save_record(link, record)
    release(link)
    assert link.is_symlink()
    assert load_record(path).players == ["saved through the link"]
    assert (path.stat().st_mode & 0o777) == 0o640


def test_a_stray_temporary_file_from_a_killed_save_is_removed_by_the_next_save(tmp_path):
    path = _record(tmp_path, "focus")
    stray = path.parent / f".{path.name}.k1ll3d.tmp"
    stray.write_text("half a record")
    save_record(path, load_record(path))
    release(path)
    assert not stray.exists()


def test_a_sigkilled_save_leaves_a_whole_record_and_the_next_save_cleans_up(tmp_path):
    path = _record(tmp_path, "focus")
    code = (
        "import os, signal, sys\n"
        "import hexkit.files.fileio as f\n"
        "real = os.replace\n"
        "def die(*a): os.kill(os.getpid(), signal.SIGKILL)\n"
        "f.os.replace = die\n"
        "from hexkit.files.records import load_record, save_record\n"
        f"save_record({str(path)!r}, load_record({str(path)!r}))\n"
    )
    subprocess.run([sys.executable, "-c", code], check=False)
    strays = list(path.parent.glob(f".{path.name}.*.tmp"))
    assert strays, "the killed save left its temporary file"
    assert load_record(path).name == "focus"
    save_record(path, load_record(path))
    release(path)
    assert not list(path.parent.glob(f".{path.name}.*.tmp"))


HOLDER = """
import sys
from hexkit import plugins
from hexkit.files.records import GameRecord, save_record
game = plugins.registry().load_game("focus(board=cross)")
save_record(sys.argv[1], GameRecord.for_game(game, seed=1), hold=True)
print("saved", flush=True)
sys.stdin.readline()
"""


def test_a_second_process_saving_to_the_same_record_is_refused(tmp_path):
    path = tmp_path / "g.json"
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(path)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "saved"
        r = run_hexkit("play", "focus", "--save", str(path), "--force", input="quit\n")
        lines = [x for x in r.stderr.splitlines() if x.strip()]
        assert r.returncode != 0
        assert lines == [f"hexkit: error: {path}: another hexkit process is saving a game of "
                         "focus(board=cross) (0 moves so far) to this file; save this game "
                         "elsewhere (save FILE)"]
        assert load_record(path).game == "focus(board=cross)"  # the first game is whole
    finally:
        holder.communicate("\n", timeout=30)
    # Once the first process has ended, its lock is gone: nothing waits for it.
    check_free(path)
    r = run_hexkit("play", "focus", "--p1", "random", "--p2", "random", "--seed", "2",
                   "--save", str(path), "--force")
    assert r.returncode == 0, r.stderr
    assert load_record(path).game == "focus"
