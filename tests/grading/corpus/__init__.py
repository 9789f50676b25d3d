"""The grader's corpus: a pristine submission of each kind, single-bug mutants made from
it by one textual change each, and hostile submissions (loops, memory, exits, sleeps,
writes outside the folder).

* ``focusgame``: ``focusgame/FocusGame.py``, a student-style OSU CS 162 program written from
  the assignment (it does not import hexkit);
* ``hexbaron``: ``hexbaron/HexBaron.py``, the AQA skeleton as a program on standard input
  and output (derived from the transcription in ``tests/hexbaron/skeleton.py``);
* ``plugin``: a copy of the built-in ``focus`` plugin as a student hands in a plugin: the
  package keeps the name ``focus`` and the game is renamed ``myfocus``.

:func:`make` writes any of them into a folder. The test suite grades a few; the whole
corpus is graded by ``benchmarks/grade_corpus.py``.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
FOCUS_PLUGIN = ROOT / "plugins" / "focus"

REFERENCE = {"focusgame": "focus", "hexbaron": "hexbaron", "plugin": "focus"}


@dataclass(frozen=True)
class Mutant:
    """One planted bug: in ``file`` (of the pristine submission), ``old`` becomes ``new``
    (its first occurrence)."""

    name: str
    file: str
    old: str
    new: str
    bug: str


FOCUSGAME = [
    Mutant("exact_distance", "FocusGame.py", "        if distance > count:",
           "        if distance != count:", "a stack must move exactly as far as its count"),
    Mutant("win_at_seven", "FocusGame.py", "if player.get_captured() >= 6:",
           "if player.get_captured() > 6:", "seven captures are needed to win"),
    Mutant("captures_and_reserve_swapped", "FocusGame.py",
           "            if bottom == player.get_colour():",
           "            if bottom != player.get_colour():", "own pieces are captured"),
    Mutant("overflow_above_six", "FocusGame.py", "        while len(stack) > 5:",
           "        while len(stack) > 6:", "stacks of six are allowed"),
    Mutant("overflow_from_the_top", "FocusGame.py", "            bottom = stack.pop(0)",
           "            bottom = stack.pop()", "overflow removes the top pieces"),
    Mutant("diagonal_moves", "FocusGame.py",
           "        if from_pos[0] != to_pos[0] and from_pos[1] != to_pos[1]:",
           "        if False:", "diagonal moves are accepted"),
    Mutant("no_turn_order", "FocusGame.py",
           "        if player is None or (self._turn is not None and self._turn != name):",
           "        if player is None:", "a player may move twice in a row"),
    Mutant("reserve_not_used_up", "FocusGame.py", "        player.use_reserve()\n",
           "        pass\n", "a reserved move does not use up the reserve"),
    Mutant("moves_bottom_pieces", "FocusGame.py",
           "        moving = source[-count:]\n        del source[-count:]",
           "        moving = source[:count]\n        del source[:count]",
           "the bottom pieces of a stack are moved"),
    Mutant("layout_by_player_order", "FocusGame.py",
           'line.append(["R"] if (row + col // 2) % 2 == 0 else ["G"])',
           "line.append([player_one[1].upper()] if (row + col // 2) % 2 == 0 "
           "else [player_two[1].upper()])", "the first player's colour takes the R squares"),
    Mutant("whole_stack_refused", "FocusGame.py", "if count < 1 or count > len(source):",
           "if count < 1 or count >= len(source):", "a whole stack cannot be moved"),
    Mutant("show_pieces_top_first", "FocusGame.py", "        return list(self._stack(pos))",
           "        return list(reversed(self._stack(pos)))", "pieces are listed top first"),
]

HEXBARON = [
    Mutant("dig_odds", "HexBaron.py", "< 0.9 else 5", "< 0.5 else 5",
           "a dig strikes it rich half the time"),
    Mutant("bog_costs_single", "HexBaron.py", "                return self._fuel_cost_of_move * 2",
           "                return self._fuel_cost_of_move", "moving into a bog is not doubled"),
    Mutant("spawn_cost", "HexBaron.py", "        return 3\n", "        return 2\n",
           "spawning costs 2 lumber"),
    Mutant("upgrade_cost", "HexBaron.py", "lumber < 5 or items[1]", "lumber < 4 or items[1]",
           "an upgrade needs only 4 lumber"),
    Mutant("destroy_threshold", "HexBaron.py", "self._connections_to_destroy = 2",
           "self._connections_to_destroy = 3", "a serf needs three neighbours to die"),
    Mutant("ties_to_player_one", "HexBaron.py", "(p1.name if p1.vps > p2.vps else p2.name)",
           "(p1.name if p1.vps >= p2.vps else p2.name)", "a tie is won by Player One"),
    Mutant("baron_worth_five", "HexBaron.py", "self._vp_value = 10", "self._vp_value = 5",
           "a baron is worth 5 VPs"),
    Mutant("vps_to_the_loser", "HexBaron.py", "                        vps2 += p.get_vps()",
           "                        vps1 += p.get_vps()",
           "VPs for a destroyed piece go to its owner"),
    Mutant("saw_anywhere", "HexBaron.py", 'return 1 if terrain == "#" else 0', "return 1",
           "sawing gives lumber on any terrain"),
    Mutant("move_two", "HexBaron.py", "        if distance == 1:\n            if start",
           "        if distance <= 2:\n            if start", "serfs move two tiles"),
    Mutant("supply_not_used", "HexBaron.py", "                    mover.supply -= 1",
           "                    pass", "spawning does not use up the supply"),
    Mutant("invalid_message", "HexBaron.py", 'self.print("Invalid command")',
           'self.print("Invalid command!")', "a different message for invalid commands"),
]

PLUGIN = [
    Mutant("winner_swapped", "focus/game.py",
           "return Outcome((self._winner,), self._reason)",
           "return Outcome((1 - self._winner,), self._reason)",
           "the winner is reported as the other seat"),
    Mutant("captures_to_reserve", "focus/game.py",
           "            self._reserve[seat] += own\n"
           "            self._captured[seat] += excess - own",
           "            self._reserve[seat] += excess - own\n"
           "            self._captured[seat] += own",
           "captured pieces go to the reserve"),
    Mutant("overflow_above_six", "focus/game.py",
           "excess = len(dst) - self.rules.max_height",
           "excess = len(dst) - self.rules.max_height - 1", "stacks of six are allowed"),
    Mutant("undo_keeps_reserve", "focus/game.py",
           "        else:\n            self._reserve[seat] += 1\n        del dst[-count:]",
           "        del dst[-count:]", "undoing a reserve move loses the piece"),
    Mutant("no_reserve_moves", "focus/game.py",
           "        if self._reserve[seat]:\n            out += rules.drop_moves",
           "        if False:\n            out += rules.drop_moves",
           "reserve moves are never listed"),
    Mutant("saves_no_captures", "focus/game.py", '"captured": list(self._captured),',
           '"captured": [0] * len(self._captured),', "a saved game forgets the captures"),
    Mutant("turn_stays", "focus/game.py", "        nxt = (seat + 1) % n\n",
           "        nxt = seat\n", "the turn does not pass"),
    Mutant("win_at_seven", "focus/game.py",
           "self._captured[seat] >= rules.captures_to_win",
           "self._captured[seat] > rules.captures_to_win", "seven captures are needed"),
    Mutant("opponents_stacks_listed", "focus/game.py",
           "            if s and s[-1] == seat:\n                h = len(s)",
           "            if s:\n                h = len(s)", "the opponent's stacks are listed"),
    Mutant("no_capture_events", "focus/narration.py", "    if taken:\n        owners",
           "    if False:\n        owners", "captures are not told as events"),
    Mutant("refusal_changes_state", "focus/game.py",
           "            raise IllegalMoveError(self._why_not(seat, move, stack))",
           "            self._turns_taken[seat] += 1\n"
           "            raise IllegalMoveError(self._why_not(seat, move, stack))",
           "a refused move still counts a turn taken"),
]

MUTANTS = {"focusgame": FOCUSGAME, "hexbaron": HEXBARON, "plugin": PLUGIN}

#: The test (rule group) a student would look in for each bug: a caught mutant must fail
#: it (it may fail others too, where the bug shows through another rule).
WHERE_TO_LOOK: dict[str, dict[str, set[str]]] = {
    "focusgame": {
        "exact_distance": {"movement"}, "win_at_seven": {"winning"},
        "captures_and_reserve_swapped": {"captures", "reserve"},
        "overflow_above_six": {"captures"}, "overflow_from_the_top": {"captures"},
        "diagonal_moves": {"movement"}, "no_turn_order": {"movement"},
        "reserve_not_used_up": {"reserve"}, "moves_bottom_pieces": {"movement"},
        "layout_by_player_order": {"movement"}, "whole_stack_refused": {"movement"},
        "show_pieces_top_first": {"movement"},
    },
    "hexbaron": {
        "dig_odds": {"resources"}, "bog_costs_single": {"resources", "movement"},
        "spawn_cost": {"pieces"}, "upgrade_cost": {"pieces"},
        "destroy_threshold": {"captures"}, "ties_to_player_one": {"winning"},
        "baron_worth_five": {"captures"}, "vps_to_the_loser": {"captures"},
        "saw_anywhere": {"resources"}, "move_two": {"movement"},
        "supply_not_used": {"pieces"}, "invalid_message": {"input"},
    },
    "plugin": {
        "winner_swapped": {"winning"}, "captures_to_reserve": {"captures"},
        "overflow_above_six": {"captures"}, "undo_keeps_reserve": {"undo"},
        "no_reserve_moves": {"reserve"}, "saves_no_captures": {"saving"},
        "turn_stays": {"movement"}, "win_at_seven": {"winning"},
        "opponents_stacks_listed": {"movement"}, "no_capture_events": {"captures"},
        "refusal_changes_state": {"movement"},
    },
    "hexaround-java": {
        "butterfly-deadline-off-by-one": {"placement", "movement"},
        "slide-ignores-gates": {"movement"},
        "jumper-flies": {"movement"}, "win-for-wrong-colour": {"winning"},
        "draw-missed": {"winning"}, "stack-limit-ignored": {"movement"},
        "kamikaze-attacker-survives": {"movement"}, "kamikaze-victim-lost": {"movement"},
        "red-first-placement-anywhere": {"placement"}, "hatching-ignored": {"placement"},
        "surrounded-flyer-flies": {"movement"}, "runner-stops-short": {"movement"},
        "walker-crosses-open-space": {"movement"}, "colony-may-split": {"movement"},
        "swap-with-butterfly": {"movement"}, "error-passes-the-turn": {"placement",
                                                                        "movement"},
        "play-after-the-end": {"placement", "winning"},
        "trapped-creature-moves": {"movement"},
    },
}

#: Hostile code put at the start of a method every trajectory calls.
HOSTILE_CODE = {
    "loop": "while True:\n    pass\n",
    "memory": "hog = [0] * (10 ** 10)\n",
    "exit": "import os\nos._exit(3)\n",
    "sleep": "import time\ntime.sleep(3600)\n",
    "write_outside": "open('/tmp/hexkit-grade-escape.txt', 'w').write('escaped')\n",
    "exit_at_import": "import os\nos._exit(3)\n",
}
#: Where a file written outside the folder would appear (it must not).
ESCAPE = Path("/tmp/hexkit-grade-escape.txt")
#: Where the hostile code goes, per kind: (file, line it is put before).
HOSTILE_AT = {
    "focusgame": ("FocusGame.py", '    def move_piece(self, name, from_pos, to_pos, count):\n'
                                  '        """Moves the top count pieces of from_pos onto '
                                  'to_pos."""\n'),
    "hexbaron": ("HexBaron.py",
                 "    def play(self, p1: Player, p2: Player, grid: HexGrid) -> None:\n"),
    "plugin": ("focus/game.py", "    def apply(self, move: Move) -> None:\n"),
}


def pristine(kind: str, folder: Path) -> Path:
    """Write the pristine submission of ``kind`` into ``folder``; its path."""
    folder.mkdir(parents=True, exist_ok=True)
    if kind == "plugin":
        target = folder / "focus"
        shutil.copytree(FOCUS_PLUGIN, target, ignore=shutil.ignore_patterns("__pycache__"))
        plugin = target / "plugin.py"
        text = plugin.read_text(encoding="utf-8")
        plugin.write_text(text.replace('    name="focus",', '    name="myfocus",', 1),
                          encoding="utf-8")
        return target
    name = {"focusgame": "FocusGame.py", "hexbaron": "HexBaron.py"}[kind]
    target = folder / name
    shutil.copyfile(HERE / kind / name, target)
    return target


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    if old not in text:
        raise AssertionError(f"{path.name}: the text to change is not there: {old!r}")
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _file(submission: Path, name: str) -> Path:
    return submission if submission.is_file() else submission.parent / name


def make(kind: str, folder: Path, mutant: str | tuple[str, ...] | None = None,
         hostile: str | None = None) -> Path:
    """Write a submission (pristine, a mutant, several bugs planted together, or a hostile
    one) into ``folder``."""
    submission = pristine(kind, folder)
    for name in (mutant,) if isinstance(mutant, str) else mutant or ():
        found = next(m for m in MUTANTS[kind] if m.name == name)
        _edit(_file(submission, found.file), found.old, found.new)
    if hostile == "exit_at_import":
        path = _file(submission, HOSTILE_AT[kind][0])
        text = path.read_text(encoding="utf-8")
        future = "from __future__ import annotations\n"
        head, sep, tail = text.partition(future)
        text = (head + sep + HOSTILE_CODE[hostile] + tail) if sep else HOSTILE_CODE[hostile] + text
        path.write_text(text, encoding="utf-8")
    elif hostile is not None:
        file, line = HOSTILE_AT[kind]
        indent = " " * 8
        code = "".join(indent + c + "\n" for c in HOSTILE_CODE[hostile].splitlines())
        _edit(_file(submission, file), line, line + code)
    return submission
