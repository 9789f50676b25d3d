"""``hexkit grade`` kind ``hexbaron``: an AQA Hex Baron console program (the skeleton as a
student modified it), run on generated sessions and compared, line read by line read, with
hexbaron's classic console, which prints what the AQA skeleton prints byte for byte.

The program runs as ``__main__`` in its sandbox with the global ``random`` seeded as the
classic console's ``--seed`` (specs/hexbaron.md §7.1: one draw per dig on a peat bog), in a
folder holding the data file ``game1.txt``. A session picks the default game or loads the
file, then plays turns of three commands (legal ones in the spellings the skeleton accepts,
junk, refused ones) and Enter, chosen at random or by the MCTS bot (whose games end, so
the final states and the winner are compared), and quits from the menu at the end of a
game. The observation of each line typed is what the program printed in reply, and how it
ended.
"""

from __future__ import annotations

import difflib
import io
import queue
import random
import shutil
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from hexbaron.classic import ClassicConsole, _Stop, load_classic_file
from hexbaron.game import HexBaronState
from hexkit import plugins
from hexkit.errors import OptionError
from hexkit.grading.drivers import _Lines, console_observations
from hexkit.grading.kind import (
    Kind,
    Observation,
    Plan,
    SandboxSession,
    Trajectory,
    plan_bot,
)
from hexkit.grading.plugin_kind import python_files
from hexkit.grading.sandbox import Budget, Limits, Sandbox

#: The AQA data file ``game1.txt`` (Windows line ends, as distributed).
GAME1 = ("Player One,0,5,5,2\r\nPlayer Two,0,5,5,2\r\n6\r\n#,#,~,~, , , ,~, , , , , ,#,#,#,~,~"
         "\r\n1,Baron,0\r\n2,Baron,1\r\n1,LESS,3\r\n1,LESS,15\r\n2,LESS,2\r\n1,Serf,17\r\n"
         "2,LESS,13\r\n")
#: Small positions beside it: a baron one step from a tie, and peat bogs with diggers.
DATA_FILES = {
    "game1.txt": GAME1,
    "tie.txt": "P,5,3,3,1\nQ,5,3,3,1\n4\n , , , , , , , \n1,Baron,0\n2,Serf,2\n2,Baron,5\n",
    "bogs.txt": "Player One,0,20,20,5\nPlayer Two,0,20,20,5\n4\n~,~,#,~,~,#,~,~\n"
                "1,Baron,0\n1,PBDS,1\n1,Serf,4\n2,Baron,7\n2,PBDS,6\n2,LESS,3\n",
}
WEIGHTS = {"movement": 20.0, "resources": 15.0, "pieces": 15.0, "captures": 20.0,
           "winning": 20.0, "input": 10.0}
JUNK = ("", "help", "move 1", "dig", "upgrade knight 3", "MOVE 99 100", "spawn x", "saw -40")
#: The skeleton's answers to a command, one line each.
_RESULT_LINES = {"Command executed", "Couldn't do that", "Invalid command",
                 "That move can't be done", "Spawning did not occur", "Upgrade not possible"}
_VERB_GROUP = {"move": "movement", "dig": "resources", "saw": "resources", "spawn": "pieces",
               "upgrade": "pieces"}


def _program(path: Path) -> Path | None:
    """The console program: a .py that reads input and knows barons."""
    for file in python_files(path):
        try:
            text = file.read_text(encoding="utf-8", errors="replace")[:1_000_000]
        except OSError:
            continue
        if "input(" in text and "Baron" in text and ("HexGrid" in text
                                                     or "Enter your choice" in text):
            return file
    return None


class HexBaronKind(Kind):
    """AQA Hex Baron console programs."""

    name = "hexbaron"
    title = "AQA Hex Baron program"

    def recognise(self, path: Path) -> bool:
        return _program(path) is not None

    def check_reference(self, reference: str) -> None:
        base, options = plugins.parse_game_string(reference)
        if base != "hexbaron" or options:
            raise OptionError("a Hex Baron program is graded against plain hexbaron (its "
                              "classic console)")

    def open(self, path: Path, reference: str, limits: Limits, budget: Budget,
             options: Mapping[str, Any]) -> HexBaronSession:
        self.check_reference(reference)
        return HexBaronSession(path, limits, budget)


class _Reference(ClassicConsole):
    """The classic console reading data files from a given folder, keeping its state."""

    def __init__(self, folder: Path, seed: int, stdin: Any, stdout: Any):
        super().__init__(plugins.load_game("hexbaron"), seed, stdin, stdout)
        self.folder = folder
        self.state: HexBaronState | None = None

    def load(self) -> Any:
        name = self.ask("Enter the name of the file to load: ", "file name prompt")
        try:
            return load_classic_file(str(self.folder / name) if name else "")
        except Exception:
            self.write("File not loaded\n")
            return None

    def execute(self, state: HexBaronState, line: str) -> str:
        self.state = state
        return super().execute(state, line)


class HexBaronSession(SandboxSession):
    """A console program against the classic console."""

    weights = WEIGHTS
    groups = tuple(WEIGHTS)

    def __init__(self, path: Path, limits: Limits, budget: Budget):
        program = _program(path)
        if program is None:
            raise OptionError(f"{path}: no Hex Baron console program found")
        self.data = Path(tempfile.mkdtemp(prefix="hexkit-hexbaron-"))
        for name, text in DATA_FILES.items():
            (self.data / name).write_bytes(text.encode())
        files: dict[str, Path] = {name: self.data / name for name in DATA_FILES}
        if path.is_dir():
            files["."] = path
            target = program.relative_to(path).as_posix()
        else:
            files[path.name] = path
            target = path.name
        super().__init__(Sandbox("hexkit.grading.drivers:ConsoleDriver",
                                 {"path": target, "reference": ["hexbaron"]},
                                 files, limits, budget))

    def close(self) -> None:
        super().close()
        shutil.rmtree(self.data, ignore_errors=True)

    # -- sessions -------------------------------------------------------------------------
    def trajectories(self, plan: Plan) -> list[Trajectory]:
        out = [self._session(f"random session {i + 1}", plan.seed * 1000 + i, plan.length,
                             None) for i in range(plan.random)]
        for i in range(plan.bot):
            out.append(self._session(f"bot session {i + 1}", plan.seed * 1000 + 500 + i,
                                     plan.length * 2, plan.bot_for()))
        return out

    def _session(self, name: str, seed: int, length: int, bot_spec: str | None) -> Trajectory:
        """Games from the menu (the default game or a data file) until ``length`` lines, then
        Q (or the end of input in the middle of a game)."""
        rng = random.Random(seed)
        mirror = _Reference(self.data, seed, None, None)
        lines: list[str] = []
        bots = None
        while len(lines) < length:
            roll = rng.random()
            if roll < 0.45:
                file = rng.choice(sorted(DATA_FILES))
                lines += ["2", file]
                setup = load_classic_file(str(self.data / file))
            else:
                if roll > 0.95:
                    lines.append(rng.choice(["3", "q", " 1"]))
                lines.append("1")
                setup = mirror.default_setup()
            state = HexBaronState(mirror.game(), setup, mirror.rng)
            if bot_spec and bots is None:
                bots = [plan_bot(state.game, bot_spec, seed + s) for s in (0, 1)]
            while len(lines) < length and not state.is_over():
                for _command in range(3):
                    if bots is not None and rng.random() < 0.9:
                        line = str(bots[state.current_player].choose(state))
                    else:
                        line = _random_command(rng, state)
                    lines.append(line)
                    mirror.execute(state, line.lower())
                lines.append(rng.choice(["", "", "", "x"]))
            if not state.is_over():
                break
        else:
            lines.append("Q")
        return Trajectory(name, "bot" if bot_spec else "random", {"seed": seed}, lines)

    def expected(self, trajectory: Trajectory, detail: bool = False) -> list[Observation]:
        return list(self._reference(trajectory)[0])

    def _reference(self, trajectory: Trajectory) -> tuple[list[Observation], _Reference]:
        lines = [str(line) for line in trajectory.calls]
        notes: queue.Queue[Any] = queue.Queue()
        out = io.StringIO()
        stdin = _Lines(lines, out, notes)
        console = _Reference(self.data, trajectory.setup["seed"], stdin, out)
        try:
            console.run()
            how = "exit 0"
        except _Stop as exc:
            how = "end of input" if "end of input" in str(exc) else f"error: {exc}"
        stdin.finish(how)
        return list(console_observations(lines, notes, timeout=0)), console

    # -- explaining ----------------------------------------------------------------------
    def classify(self, trajectory: Trajectory, index: int, expected: Observation | None,
                 actual: Observation | None) -> str:
        want = str((expected or {}).get("out", "")).splitlines()
        got = str((actual or {}).get("out", "")).splitlines()
        if (expected or {}).get("end") != (actual or {}).get("end") and want == got:
            return "input"
        first = next((i for i, (a, b) in enumerate(zip(want, got, strict=False)) if a != b),
                     min(len(want), len(got)))
        line = want[first] if first < len(want) else (got[first] if first < len(got) else "")
        if "is the winner" in line or "final state" in line:
            return "winning"
        if "current state" in line:
            verbs = [str(c).strip().lower().split(" ")[0]
                     for c in trajectory.calls[max(0, index - 3): index + 1]]
            return _state_line_group(line, got[first] if first < len(got) else "", verbs)
        got_line = got[first] if first < len(got) else ""
        if line.startswith("Invalid command") or got_line.startswith("Invalid command"):
            return "input"  # which lines are commands at all: the parsing of what is typed
        results = [i for i, text in enumerate(want) if text in _RESULT_LINES]
        if first in results:
            k = results.index(first)
            commands = [str(c) for c in trajectory.calls[max(0, index - 2): index + 1]]
            if k < len(commands):
                verb = commands[k].strip().lower().split(" ")[0]
                return _VERB_GROUP.get(verb, "input")
        if any(mark in line for mark in ("__", "\\", "/")):
            commands = [str(c).lower().split(" ")[0] for c in trajectory.calls[:index + 1]]
            recent = [c for c in commands[-4:] if c in _VERB_GROUP]
            return _VERB_GROUP[recent[-1]] if recent else "movement"
        return "input"

    def explain(self, trajectory: Trajectory, index: int, expected: Observation | None,
                actual: Observation | None, failure: str | None) -> list[str]:
        seed = trajectory.setup["seed"]
        lines = [f"Run with random.seed({seed}) (one draw per dig on a peat bog); the lines "
                 "typed:"]
        for i, text in enumerate(trajectory.calls[: index + 1]):
            mark = "   <- the output after this line differs" if i == index else ""
            lines.append(f"  {i + 1}. {str(text)!r}{mark}")
        if failure:
            lines.append(f"The program stopped answering here: {failure}")
            return lines
        want = str((expected or {}).get("out", "")).splitlines()
        got = str((actual or {}).get("out", "")).splitlines()
        diff = list(difflib.unified_diff(want, got, "expected", "your program", lineterm="",
                                         n=2))
        if diff:
            lines.append("What was printed next (- expected, + your program):")
            lines.extend(f"  {d}" for d in diff[2:40])
        if (expected or {}).get("end") != (actual or {}).get("end"):
            lines.append(f"How the program ended: expected {(expected or {}).get('end')!r}, "
                         f"got {(actual or {}).get('end')!r}")
        return lines

    def picture(self, trajectory: Trajectory, index: int) -> str | None:
        from hexkit.render import render_state_svg

        _obs, console = self._reference(trajectory.with_calls(trajectory.calls[:index + 1]))
        if console.state is None:
            return None
        return render_state_svg(console.state, title="the reference's game at that point")


def _state_line_group(want: str, got: str, verbs: list[str]) -> str:
    """The group of a difference in a player's state line (VPs, pieces in supply, lumber,
    fuel), given the verbs typed in that turn."""
    def numbers(text: str) -> list[str]:
        return [w for w in text.replace(":", " ").split() if w.lstrip("-").isdigit()]

    a, b = numbers(want), numbers(got)
    if a[:1] != b[:1]:
        return "captures"  # victory points: destroyed pieces
    if a[1:2] != b[1:2]:
        return "pieces"  # the supply: spawning takes from it
    if a[2:3] != b[2:3] and "saw" not in verbs and {"spawn", "upgrade"} & set(verbs):
        return "pieces"  # lumber spent on a spawn or an upgrade: their cost
    return "resources"


def _plausible(rng: random.Random, state: HexBaronState) -> str:
    """A command about one of the mover's own pieces, legal or not (too far, too dear,
    the wrong terrain or piece): the edge of every rule."""
    pos = state.pos
    own = [t for t, p in enumerate(pos.pieces) if p is not None and p.owner == pos.seat]
    if not own:
        return "pass"
    tile = rng.choice(own)
    verb = rng.choice(["move", "move", "dig", "saw", "upgrade less", "upgrade pbds", "spawn"])
    if verb == "move":
        near = [t for t in pos.neighbours[tile]]
        far = {u for t in near for u in pos.neighbours[t]} - {tile}
        return f"move {tile} {rng.choice(sorted(far | set(near)))}"
    if verb == "spawn":
        return f"spawn {rng.choice(pos.neighbours[tile])}"
    return f"{verb} {tile}"


def _random_command(rng: random.Random, state: HexBaronState) -> str:
    legal = [str(m) for m in state.legal_moves()]
    roll = rng.random()
    if roll < 0.3:
        return _plausible(rng, state)
    if roll < 0.8 and legal:
        words = rng.choice(legal).split()
        if words[0] == "pass":
            return rng.choice(["pass", "", "help"])
        if rng.random() < 0.1:
            words = [w.upper() if not w.isdigit() else f"0{w}" for w in words]
        return " ".join(words)
    if roll < 0.9:
        verb = rng.choice(["move", "dig", "saw", "spawn", "upgrade less", "upgrade pbds"])
        tiles = [str(rng.randint(-1, state.pos.n)) for _ in range(2)]
        return f"{verb} {tiles[0]} {tiles[1]}" if verb == "move" else f"{verb} {tiles[0]}"
    return rng.choice(JUNK)
