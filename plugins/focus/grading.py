"""``hexkit grade`` kind ``focusgame``: an OSU CS 162 ``FocusGame.py`` (a class with the
course API, which needs no hexkit), graded against hexkit's own :class:`focus.FocusGame`
through the course calls only: ``move_piece``, ``reserved_move``, ``show_pieces``,
``show_reserve`` and ``show_captured``.

Trajectories are whole games between the two players (random moves, or moves chosen by
the MCTS bot, which finish more games), each successful move followed by queries of the
squares it touched and of the mover's reserve and captures, with refused calls mixed in:
out of turn, unknown names, squares off the board or not in line, too many pieces or too
far, an empty reserve, and calls after the game is won. Every return value is compared
(strings regardless of case, as the assignment's graders do).

Every printed line is compared too, as a test of its own, ``output``: the reference, as
the assignment asks, prints nothing, so anything a call (or the constructor) prints is a
difference there, shown with the call. It is worth no points unless ``grading.yaml`` gives
it some (``weights: {output: 5, ...}``): the assignment allows printing ("You're not
required to print the board") and its graders compared return values only, so a board
printed after each move, or a debugging line, is reported, not penalised, by default.
Being a test apart, a printed line never hides a rule difference later in the same game.
``kind: {printed: ignore}`` leaves printing out altogether.
"""

from __future__ import annotations

import contextlib
import io
import random
from collections.abc import Hashable, Mapping
from pathlib import Path
from typing import Any

from focus.course import FocusGame
from focus.notation import ReserveMove, StackMove
from hexkit import plugins
from hexkit.errors import OptionError
from hexkit.grading.drivers import PRINTED
from hexkit.grading.kind import (
    Kind,
    Observation,
    Plan,
    SandboxSession,
    Trajectory,
    plan_bot,
)
from hexkit.grading.plugin_kind import mentions, python_files
from hexkit.grading.sandbox import Budget, Limits, Sandbox

#: Pairs of players a game is started with (names as the assignment writes them).
PLAYERS = ((("PlayerA", "R"), ("PlayerB", "G")), (("PlayerA", "R"), ("PlayerB", "G")),
           (("Ann", "R"), ("Bob", "G")), (("PlayerA", "G"), ("PlayerB", "R")))
WEIGHTS = {"movement": 35.0, "captures": 25.0, "reserve": 15.0, "winning": 25.0}
#: ``kind: {printed: ...}``: compare what each call prints (a test worth 0 points unless
#: weighted), or leave it out.
PRINTED_MODES = ("compare", "ignore")
_OFF_BOARD = ((6, 0), (0, 6), (-1, 2), (3, -1), (7, 7))


class FocusGameKind(Kind):
    """OSU CS 162 FocusGame programs."""

    name = "focusgame"
    title = "OSU CS162 FocusGame"

    def recognise(self, path: Path) -> bool:
        return _program(path) is not None

    settings = ("printed",)

    def check_reference(self, reference: str) -> None:
        _reference_options(reference)

    def check_settings(self, settings: Mapping[str, Any]) -> None:
        mode = settings.get("printed", "compare")
        if mode not in PRINTED_MODES:
            raise OptionError(f"grading.yaml kind: printed: {mode!r} is not one of "
                              f"{', '.join(PRINTED_MODES)}")

    def open(self, path: Path, reference: str, limits: Limits, budget: Budget,
             options: Mapping[str, Any]) -> FocusGameSession:
        self.check_settings(options)
        return FocusGameSession(path, reference, limits, budget,
                                compare_printed=options.get("printed", "compare") == "compare")


def _program(path: Path) -> Path | None:
    """The file that defines ``class FocusGame``."""
    for file in python_files(path):
        if mentions(file, "class FocusGame"):
            return file
    return None


def _reference_options(reference: str) -> dict[str, str]:
    """The facade's keywords from ``focus(distance=...,layout=...)``."""
    base, options = plugins.parse_game_string(reference)
    if base != "focus":
        raise OptionError(f"a FocusGame program is graded against focus, not {base}")
    unknown = set(options) - {"distance", "layout", "board"}
    if unknown or options.get("board", "course") != "course":
        raise OptionError("a FocusGame program is graded on the course board; the reference "
                          "may set distance and layout only")
    return {k: v for k, v in options.items() if k in ("distance", "layout")}


class FocusGameSession(SandboxSession):
    """A FocusGame.py against hexkit's FocusGame."""

    groups = tuple(WEIGHTS)

    def __init__(self, path: Path, reference: str, limits: Limits, budget: Budget,
                 compare_printed: bool = True):
        self.facade_options = _reference_options(reference)
        self.weights = {**WEIGHTS, "output": 0.0} if compare_printed else dict(WEIGHTS)
        self.aspects = ("output",) if compare_printed else ()
        program = _program(path)
        if program is None:
            raise OptionError(f"{path}: no file defines class FocusGame")
        if path.is_dir():
            files = {"submission": path}
            target = f"submission/{program.relative_to(path)}"
        else:
            files = {f"submission/{path.name}": path}
            target = f"submission/{path.name}"
        start = {"path": target, "module": "FocusGame", "class": "FocusGame",
                 "reference": ["focus"]}  # its imports of the reference are reported
        super().__init__(Sandbox("hexkit.grading.drivers:ClassDriver", start, files, limits,
                                 budget))

    # -- the reference ------------------------------------------------------------------
    def facade(self, setup: Mapping[str, Any]) -> FocusGame:
        one, two = (tuple(p) for p in setup["args"])
        return FocusGame(one, two, **self.facade_options)

    def trajectories(self, plan: Plan) -> list[Trajectory]:
        out = [self._game(f"random game {i + 1}", plan.seed * 1000 + i, plan.length, None)
               for i in range(plan.random)]
        for i in range(plan.bot):
            out.append(self._game(f"bot game {i + 1}", plan.seed * 1000 + 500 + i,
                                  plan.length, plan.bot_for()))
        return out

    def _game(self, name: str, seed: int, length: int, bot_spec: str | None) -> Trajectory:
        rng = random.Random(seed)
        players = PLAYERS[seed % len(PLAYERS)]
        setup = {"args": [list(players[0]), list(players[1])]}
        trajectory = Trajectory(name, "bot" if bot_spec else "random", setup, [])
        game = self.facade(setup)
        names = [players[0][0], players[1][0]]
        bots = None
        if bot_spec:
            bots = [plan_bot(game._state.game, bot_spec, seed + s) for s in (0, 1)]
        calls = trajectory.calls
        for _step in range(length):
            state = game._state
            if state._winner is not None:
                break
            seat = state._turn if state._turn is not None else rng.randrange(2)
            if rng.random() < 0.15:
                calls.append(self._probe(rng, game, names, seat))
                _call(game, calls[-1])
                continue
            move: Any
            if bots is not None and state._turn is not None:
                move = bots[seat].choose(state)
            else:
                moves = _moves(game, seat)
                if not moves:
                    break
                move = rng.choice(moves)
            if isinstance(move, StackMove):
                call = ["move_piece", names[seat], list(move.frm), list(move.to), move.count]
                touched = [list(move.frm), list(move.to)]
            elif isinstance(move, ReserveMove):
                call = ["reserved_move", names[seat], list(move.to)]
                touched = [list(move.to)]
            else:
                raise TypeError(f"not a Focus move: {move!r}")
            calls.append(call)
            _call(game, call)
            calls.extend(["show_pieces", sq] for sq in touched)
            calls.append(["show_reserve", names[seat]])
            calls.append(["show_captured", names[seat]])
            if rng.random() < 0.1:
                calls.append(["show_pieces", [rng.randrange(6), rng.randrange(6)]])
        if game._state._winner is not None:
            calls.append(["move_piece", names[0], [0, 0], [0, 1], 1])
            calls.append(["reserved_move", names[1], [2, 2]])
            calls.extend(["show_captured", n] for n in names)
        return trajectory

    def _probe(self, rng: random.Random, game: FocusGame, names: list[str],
               seat: int) -> list[Any]:
        """A call the reference refuses (or a query), of a kind picked at random."""
        state = game._state
        other = 1 - seat
        roll = rng.randrange(9)
        own = [i for i, s in enumerate(state._stacks) if s and s[-1] == seat]
        tall = [i for i in own if len(state._stacks[i]) > 1]
        if roll == 3 and tall:
            own = tall
        squares = game._rules.squares
        frm = list(squares[rng.choice(own)]) if own else [0, 0]
        height = len(state._stacks[game._squares[(frm[0], frm[1])]]) if own else 1
        if roll == 0 and state._turn is not None:
            theirs = _moves(game, other)
            if theirs:
                move = rng.choice(theirs)
                if hasattr(move, "frm"):
                    return ["move_piece", names[other], list(move.frm), list(move.to),
                            move.count]
        if roll == 1:
            return ["move_piece", "Nobody", frm, [frm[0], (frm[1] + 1) % 6], 1]
        if roll == 2:
            return ["move_piece", names[seat], frm, list(rng.choice(_OFF_BOARD)), 1]
        if roll == 3:  # one square diagonally, with pieces enough for the distance
            to = [frm[0] + rng.choice((-1, 1)), frm[1] + rng.choice((-1, 1))]
            return ["move_piece", names[seat], frm, to, max(height, 2)]
        if roll == 4:
            return ["move_piece", names[seat], frm, [frm[0], (frm[1] + 1) % 6],
                    rng.choice([0, height + 1, -1])]
        if roll == 5:
            far = [frm[0], 5 if frm[1] < 3 else 0]
            return ["move_piece", names[seat], frm, far, 1]
        if roll == 6:
            return ["reserved_move", names[seat], [rng.randrange(6), rng.randrange(6)]]
        if roll == 7:
            return ["reserved_move", names[other], list(rng.choice(_OFF_BOARD))]
        return ["show_pieces", list(rng.choice(_OFF_BOARD))]

    def expected(self, trajectory: Trajectory, detail: bool = False) -> list[Observation]:
        game = self.facade(trajectory.setup)
        return [_call(game, call) for call in trajectory.calls]

    def passive(self, trajectory: Trajectory, expected: list[Observation]) -> list[bool]:
        out = []
        for call, obs in zip(trajectory.calls, expected, strict=True):
            ret = obs.get("ret")
            out.append(call[0].startswith("show_") or not isinstance(ret, str)
                       or ret.lower() != "successfully moved" and not ret.endswith(" Wins"))
        return out

    def skippable(self, trajectory: Trajectory, index: int, expected: Observation,
                  actual: Observation) -> bool:
        """A move the reference refused (not a query: a ``show_*`` answered otherwise shows
        the two boards parted before it)."""
        ret = expected.get("ret")
        return (trajectory.calls[index][0] in ("move_piece", "reserved_move")
                and isinstance(ret, str) and ret.lower() != "successfully moved"
                and not ret.endswith(" Wins"))

    def signature(self, trajectory: Trajectory, index: int, expected: Observation,
                  actual: Observation) -> Hashable:
        """The method, and the two answers as the course compares them."""
        return (trajectory.calls[index][0], repr(_norm(expected)), repr(_norm(actual)))

    def same(self, expected: Observation, actual: Observation) -> bool:
        return bool(_norm(expected) == _norm(actual))

    def same_in(self, aspect: str, expected: Observation, actual: Observation) -> bool:
        return _printed(expected) == _printed(actual)

    # -- explaining ----------------------------------------------------------------------
    def _replay(self, trajectory: Trajectory, upto: int) -> FocusGame:
        game = self.facade(trajectory.setup)
        for call in trajectory.calls[:upto]:
            _call(game, call)
        return game

    def classify(self, trajectory: Trajectory, index: int, expected: Observation | None,
                 actual: Observation | None) -> str:
        call = trajectory.calls[index]
        method = call[0]
        ret = (expected or {}).get("ret")
        if isinstance(ret, str) and ret.lower().endswith(" wins"):
            return "winning"
        for text in (actual or {}).get("ret"), (actual or {}).get("error"):
            if isinstance(text, str) and "win" in text.lower():
                return "winning"
        if method in ("reserved_move", "show_reserve"):
            return "reserve"
        if method == "show_captured":
            return "captures"
        if method == "move_piece" and "ret" in (actual or {}):
            # Both answered, differently: whether this move may be made at all, which is
            # the movement rules' (a win was told apart above).
            return "movement"
        before = self._replay(trajectory, index)
        captured = list(before._state._captured)
        reserve = list(before._state._reserve)
        if method == "show_pieces":
            # A square's contents: captures when the last move overflowed.
            for back in range(index - 1, -1, -1):
                if trajectory.calls[back][0] in ("move_piece", "reserved_move"):
                    earlier = self._replay(trajectory, back)
                    if earlier._state._captured != captured or earlier._state._reserve \
                            != reserve:
                        return "captures"
                    break
            return "movement"
        _call(before, call)
        if before._state._captured != captured:
            return "captures"
        if before._state._reserve != reserve:
            return "reserve"
        return "movement"

    def explain(self, trajectory: Trajectory, index: int, expected: Observation | None,
                actual: Observation | None, failure: str | None) -> list[str]:
        one, two = trajectory.setup["args"]
        lines = ["The calls, in Python (each with the reference's answer):",
                 f"  game = FocusGame({tuple(one)!r}, {tuple(two)!r})"]
        game = self.facade(trajectory.setup)
        for i, call in enumerate(trajectory.calls[: index + 1]):
            answer = _call(game, call)
            text = f"  game.{_python(call)}"
            if i < index:
                lines.append(f"{text:<60} # {_shown(answer)}")
            else:
                lines.append(f"{text:<60} # <- here they disagree")
        if failure:
            lines.append(f"The submission stopped answering at this call: {failure}")
            return lines
        expected, actual = expected or {}, actual or {}
        if _printed(expected) == _printed(actual):
            lines.append(f"  expected: {_shown(expected)}")
            lines.append(f"  got:      {_shown(actual)}")
            return lines
        lines.append(f"  expected: {_shown(expected)}, {_printing(expected)}")
        lines.append(f"  got:      {_shown(actual)}, {_printing(actual)}")
        for label, obs in (("the submission", actual), ("the reference", expected)):
            for title, text in zip(("FocusGame(...)", "the call"), _printed(obs), strict=True):
                if text:
                    lines.append(f"What {title} printed ({label}):")
                    lines.extend(f"  | {line}" for line in text.rstrip("\n").split("\n")[:40])
        return lines

    def picture(self, trajectory: Trajectory, index: int) -> str | None:
        from hexkit.render import render_state_svg

        game = self._replay(trajectory, index)
        return render_state_svg(game._state, title="the reference's position before the call")


def _moves(game: FocusGame, seat: int) -> list[Any]:
    """The reference's legal moves for ``seat`` (whoever's turn it is)."""
    state, rules = game._state, game._rules
    out: list[Any] = []
    for i, stack in enumerate(state._stacks):
        if stack and stack[-1] == seat and len(stack) <= rules.max_height:
            out += rules.stack_moves[i][len(stack)]
    if state._reserve[seat]:
        out += rules.drop_moves
    return out


def _argument(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def _call(game: FocusGame, call: list[Any]) -> Observation:
    method, args = call[0], [_argument(a) for a in call[1:]]
    printed = io.StringIO()
    try:
        with contextlib.redirect_stdout(printed):
            result = getattr(game, method)(*args)
    except Exception as exc:  # the reference raises nothing for these calls
        obs: Observation = {"error": f"{type(exc).__name__}: {exc}"}
    else:
        obs = {"ret": list(result) if isinstance(result, tuple) else result}
    if printed.getvalue():
        obs["_out"] = printed.getvalue()[:PRINTED]
    return obs


def _printed(obs: Observation) -> tuple[str, str]:
    """What the constructor (before the first call) and the call printed."""
    return str(obs.get("_init_out", "")), str(obs.get("_out", ""))


def _printing(obs: Observation) -> str:
    init, call = _printed(obs)
    if not init and not call:
        return "printing nothing"
    count = sum(len(text.rstrip("\n").split("\n")) for text in (init, call) if text)
    return f"printing {count} line{'s' if count != 1 else ''} (below)"


def _norm(obs: Observation) -> Any:
    if "ret" in obs:
        ret = obs["ret"]
        return ("ret", ret.strip().lower() if isinstance(ret, str) else ret)
    if "error" in obs:
        return ("error", str(obs["error"]).split(":")[0])
    return ("start", obs.get("start"))


def _python(call: list[Any]) -> str:
    args = ", ".join(repr(_argument(a)) for a in call[1:])
    return f"{call[0]}({args})"


def _shown(obs: Observation) -> str:
    if "ret" in obs:
        return repr(obs["ret"]) if not isinstance(obs["ret"], dict) else str(obs["ret"])
    if "error" in obs:
        return f"raised {obs['error']}"
    if "start" in obs:
        return f"the game could not be created: {obs['start']}"
    return str(obs)
