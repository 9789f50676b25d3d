"""``hexkit play`` at a real terminal (a pseudo-terminal): Ctrl-D and Ctrl-C leave a game the
way ``quit`` does, a bot's thinking is shown there (and never in piped output), and colour
follows the terminal and NO_COLOR."""

from __future__ import annotations

import os
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hexkit.files.records import load_record

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")

PEBBLE = Path(__file__).parent / "terminal_plugins"
PLAY = [sys.executable, "-m", "hexkit", "--plugins-dir", str(PEBBLE), "play", "pebble"]
CTRL_D = b"\x04"


class Terminal:
    """A command run on a pseudo-terminal, as from a shell: type to it, read what it shows,
    press Ctrl-C (SIGINT to its process group, as the terminal sends it)."""

    def __init__(self, args: list[str], cwd: Path | None = None,
                 env: dict[str, str] | None = None) -> None:
        base = {k: v for k, v in os.environ.items()
                if k not in ("HEXKIT_PLUGINS_DIR", "HEXKIT_DEBUG", "NO_COLOR")}
        # Plain text unless a test asks for colour (env={}), so that output is easy to match.
        base.update({"TERM": "xterm", "COLUMNS": "100"},
                    **({"NO_COLOR": "1"} if env is None else env))
        self.master, slave = os.openpty()
        self.proc = subprocess.Popen(args, stdin=slave, stdout=slave, stderr=slave, cwd=cwd,
                                     env=base, start_new_session=True)
        os.close(slave)
        self.shown = b""

    def wait_for(self, text: bytes, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while text not in self.shown:
            assert time.monotonic() < deadline, f"never shown: {text!r} in {self.shown!r}"
            self._read(0.1)

    def type(self, data: bytes) -> None:
        os.write(self.master, data)

    def ctrl_c(self, at_prompt: bool = True) -> None:
        """Press Ctrl-C once the program sleeps: in its read of the terminal if
        ``at_prompt``, anywhere otherwise (a bot thinking)."""
        self._wait_until_asleep(at_prompt)
        os.killpg(self.proc.pid, signal.SIGINT)

    def _wait_until_asleep(self, at_prompt: bool, timeout: float = 30) -> None:
        """Wait until the program sleeps (in its read of the terminal, as when a person
        presses a key). A signal that lands after the prompt is written but before the
        read starts is taken by Python without interrupting that read: a race no person
        can hit, which a test pressing Ctrl-C the instant the prompt appears would."""
        stat = f"/proc/{self.proc.pid}/stat"
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                with open(stat) as fh:
                    state = fh.read().rsplit(")", 1)[1].split()[0]
            except (OSError, IndexError):
                time.sleep(0.2)  # no /proc here: a moment is enough for a person too
                return
            if state == "S" and (not at_prompt or self._blocked_on_stdin()):
                time.sleep(0.05)
                return
            time.sleep(0.01)

    def _blocked_on_stdin(self) -> bool:
        """The program waits in a system call on its standard input (fd 0), not merely
        asleep: on a busy machine it was seen asleep elsewhere between writing the prompt
        and reading, and the Ctrl-C sent then was lost. True where /proc does not say."""
        try:
            with open(f"/proc/{self.proc.pid}/syscall") as fh:
                fields = fh.read().split()
        except OSError:
            return True
        return len(fields) > 1 and fields[0] != "running" and fields[1] == "0x0"

    def finish(self, timeout: float = 60) -> tuple[int, str]:
        deadline = time.monotonic() + timeout
        while self.proc.poll() is None and time.monotonic() < deadline:
            self._read(0.1)
        code = self.proc.wait(timeout=5)
        while self._read(0.05):
            pass
        os.close(self.master)
        return code, self.shown.decode("utf-8", "replace").replace("\r\n", "\n")

    def _read(self, timeout: float) -> bool:
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return False
        try:
            chunk = os.read(self.master, 65536)
        except OSError:  # the other side closed
            return False
        self.shown += chunk
        return bool(chunk)


def test_ctrl_d_at_the_prompt_leaves_the_game_saved_with_exit_status_zero(tmp_path):
    term = Terminal([*PLAY, "--seed", "1", "--save", "g.json"], cwd=tmp_path)
    term.wait_for(b"Xavier> ")
    term.type(b"drop 2\n")
    term.wait_for(b"Olga> ")
    term.type(CTRL_D)
    code, shown = term.finish()
    assert code == 0
    assert "The game was left unfinished (1 move played); it is saved in g.json." in shown
    assert f"Resume it with: hexkit --plugins-dir {PEBBLE} play --load g.json" in shown
    assert load_record(tmp_path / "g.json").moves == ["drop 2"]


def test_ctrl_c_at_the_prompt_leaves_the_game_as_quit_does():
    term = Terminal([*PLAY, "--seed", "1"])
    term.wait_for(b"Xavier> ")
    term.ctrl_c()
    code, shown = term.finish()
    assert code == 0
    assert "The game was left unfinished (0 moves played) and is not saved" in shown
    assert "Traceback" not in shown


def test_ctrl_c_while_a_bot_thinks_leaves_the_game_saved(tmp_path):
    # The bot thinks for a minute: however busy the machine, Ctrl-C lands while it thinks.
    term = Terminal([*PLAY, "--seed", "1", "--p2", "slow:60", "--save", "g.json"],
                    cwd=tmp_path)
    term.wait_for(b"Xavier> ")
    term.type(b"drop 0\n")
    term.wait_for(b"is thinking")
    term.ctrl_c(at_prompt=False)
    code, shown = term.finish()
    assert code == 0
    assert "it is saved in g.json" in shown and "Traceback" not in shown
    assert load_record(tmp_path / "g.json").moves == ["drop 0"]


def test_a_bot_thinking_longer_than_half_a_second_is_shown_then_wiped():
    term = Terminal([*PLAY, "--seed", "1", "--p1", "slow", "--p2", "first", "-o", "length=2"])
    code, shown = term.finish()
    assert code == 0
    line = re.search(r"\rXavier \(slow\) is thinking\.\.\. (\d+)% \((\d+)/20\)", shown)
    assert line is not None, shown
    wiped = shown.index("Xavier (slow) plays drop 0")
    assert shown[:wiped].endswith("\r\x1b[K")


def test_piped_output_never_shows_the_thinking_line():
    out = subprocess.run([*PLAY, "--seed", "1", "--p1", "slow", "--p2", "first",
                          "-o", "length=2"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0
    assert "thinking" not in out.stdout and "\x1b" not in out.stdout
    assert out.stdout.startswith("Xavier (slow) plays drop 0\n")


def test_colour_at_a_terminal_and_none_with_no_color():
    pytest.importorskip("rich")
    for env, coloured in (({}, True), ({"NO_COLOR": "1"}, False)):
        term = Terminal([*PLAY, "--seed", "1"], env=env)
        term.wait_for(b"> ")
        term.type(b"quit\n")
        code, shown = term.finish()
        assert code == 0
        assert ("\x1b[" in shown) is coloured, (env, shown)


def test_colour_always_without_rich_is_one_line_with_the_install_hint():
    script = ("import sys; sys.modules['rich'] = None\n"
              "from hexkit.cli import main\n"
              f"sys.exit(main(['--plugins-dir', {str(PEBBLE)!r}, 'play', 'pebble', "
              "'--colour', 'always']))\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         input="quit\n", timeout=60)
    assert out.returncode == 1
    assert out.stderr.splitlines()[-1] == (
        "hexkit: error: colour needs the rich library: pip install 'hexkit-games[colour]'")


def test_help_at_a_terminal_without_rich_says_how_to_get_colour():
    script = ("import sys; sys.modules['rich'] = None\n"
              "from hexkit.cli import main\n"
              f"sys.exit(main(['--plugins-dir', {str(PEBBLE)!r}, 'play', 'pebble']))\n")
    term = Terminal([sys.executable, "-c", script], env={})
    term.wait_for(b"Xavier> ")
    term.type(b"help\nquit\n")
    code, shown = term.finish()
    assert code == 0 and "\x1b[1" not in shown
    assert "(For colour: pip install 'hexkit-games[colour]')" in shown


def test_a_game_at_a_terminal_is_kept_in_the_user_folder_and_quit_says_how_to_resume(tmp_path):
    term = Terminal([*PLAY, "--seed", "1"], env={"NO_COLOR": "1", "XDG_DATA_HOME": str(tmp_path)})
    term.wait_for(b"Xavier> ")
    term.type(b"drop 0\n")
    term.wait_for(b"Olga> ")
    term.type(b"quit\n")
    code, shown = term.finish()
    assert code == 0
    [kept] = (tmp_path / "hexkit" / "games").iterdir()
    assert kept.name.startswith("pebble-") and kept.suffix == ".json"
    assert load_record(kept).moves == ["drop 0"]
    assert f"(This game is kept in {kept} as you play;" in shown
    assert f"The game was left unfinished (1 move played); it is saved in {kept}." in shown
    assert f"Resume it with: hexkit --plugins-dir {PEBBLE} play --load {kept}" in shown


def test_with_no_save_quit_asks_before_losing_the_moves_played(tmp_path):
    term = Terminal([*PLAY, "--seed", "1", "--no-save"],
                    env={"NO_COLOR": "1", "XDG_DATA_HOME": str(tmp_path)})
    term.wait_for(b"Xavier> ")
    term.type(b"drop 0\n")
    term.wait_for(b"Olga> ")
    term.type(b"quit\n")
    term.wait_for(b"leave anyway? [y/N] ")
    term.type(b"\n")
    term.wait_for(b"The game goes on ('save FILE' keeps it).")
    term.type(b"quit\n")
    deadline = time.monotonic() + 60
    while term.shown.count(b"leave anyway? [y/N] ") < 2:  # asked again
        assert time.monotonic() < deadline, term.shown
        term._read(0.1)
    term.type(b"y\n")
    code, shown = term.finish()
    assert code == 0
    assert "The game was left unfinished (1 move played) and is not saved" in shown
    assert not (tmp_path / "hexkit").exists()


def test_a_lone_player_at_a_terminal_is_told_how_to_play_a_bot():
    term = Terminal([*PLAY, "--seed", "1", "-o", "length=3"])
    term.wait_for(b"Xavier> ")
    term.type(b"quit\n")
    code, shown = term.finish()
    assert code == 0
    assert ("All 2 players are people taking turns at this keyboard; to play against a bot: "
            f"hexkit --plugins-dir {PEBBLE} play pebble -o length=3 --p2 mcts") in shown
    term = Terminal([*PLAY, "--seed", "1", "--p2", "first"])
    term.wait_for(b"Xavier> ")
    term.type(b"quit\n")
    assert "taking turns" not in term.finish()[1]
