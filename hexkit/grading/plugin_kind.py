"""Kind ``plugin``: a hexkit plugin (a ``.py`` file, a package or a project folder) that
registers one game under any name, graded against an installed reference game through the
generic game API.

Trajectories are moves in the reference's notation: random games with a few refused moves
mixed in (moves legal earlier, junk text), games between two MCTS bots (which reach the
end, where winners are decided), and the moves of scenario files. At every move the
observations of :mod:`hexkit.grading.observe` are compared: legal-move sets, refusals (and
that they change nothing), events, outcomes and winners, saving and reloading, undo.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from hexkit import plugins
from hexkit.errors import HexkitError, OptionError
from hexkit.game import Game, State
from hexkit.grading.kind import (
    Kind,
    Observation,
    Plan,
    SandboxSession,
    Trajectory,
    plan_bot,
)
from hexkit.grading.observe import attempt, play
from hexkit.grading.sandbox import Budget, Limits, Sandbox
from hexkit.kit.events import CAPTURED, DESTROYED, ELIMINATED, RESERVED, RETURNED

#: Text that is no move in any game: each must be refused as unreadable or illegal.
JUNK = ("", "zz", "??", "move", "0", "-1 -1", "pass pass pass")
#: Files read to recognise a plugin.
MAX_FILES = 300
WEIGHTS = {"movement": 30.0, "captures": 20.0, "reserve": 10.0, "winning": 25.0,
           "saving": 10.0, "undo": 5.0}
GROUPS = tuple(WEIGHTS)
#: Random legal moves tried at each step for an ending (besides those the game names).
ENDING_TRIES = 2
#: Branches kept per kind of ending (the shortest).
BRANCHES = 3
_CAPTURE_EVENTS = {CAPTURED, DESTROYED, RETURNED, ELIMINATED}
#: What an observation says of the game itself (rather than of its saved copy or undo).
_PLAYED = ("over", "turn", "legal", "result", "kept", "events", "end")


def python_files(path: Path) -> list[Path]:
    """The ``.py`` files of a submission (a file, or a folder's, at most MAX_FILES)."""
    if path.is_file():
        return [path] if path.suffix == ".py" else []
    found = []
    for file in sorted(path.rglob("*.py")):
        if any(part.startswith(".") or part == "__pycache__" for part in file.parts):
            continue
        found.append(file)
        if len(found) >= MAX_FILES:
            break
    return found


def mentions(path: Path, *words: str) -> bool:
    """True if any ``.py`` file of the submission contains every word."""
    for file in python_files(path):
        try:
            text = file.read_text(encoding="utf-8", errors="replace")[:1_000_000]
        except OSError:
            continue
        if all(w in text for w in words):
            return True
    return False


class PluginKind(Kind):
    """hexkit plugins."""

    name = "plugin"
    title = "hexkit plugin"

    def recognise(self, path: Path) -> bool:
        return mentions(path, "hexkit_register_games")

    def check_reference(self, reference: str) -> None:
        plugins.load_game(reference)

    def open(self, path: Path, reference: str, limits: Limits, budget: Budget,
             options: Mapping[str, Any]) -> PluginSession:
        return PluginSession(path, reference, limits, budget)


def reference_package(name: str) -> str:
    """The top-level package of the installed game ``name``, whose import by a plugin
    submission (from outside its own folder) is reported."""
    factory = plugins.registry().game_spec(name).factory
    module = factory if isinstance(factory, str) else factory.__module__
    return module.partition(":")[0].partition(".")[0]


class PluginSession(SandboxSession):
    """A plugin submission against the installed reference game."""

    groups = GROUPS
    weights = WEIGHTS

    def __init__(self, path: Path, reference: str, limits: Limits, budget: Budget):
        self.reference = reference
        base, inline = plugins.parse_game_string(reference)
        self.base = base
        self.options: dict[str, Any] = dict(inline)
        self._games: dict[str, Game] = {}
        target = f"submission/{path.name}"
        start = {"path": target, "game": base, "reference": [reference_package(base)]}
        super().__init__(Sandbox("hexkit.grading.drivers:PluginDriver", start,
                                 {target: path}, limits, budget))

    # -- the reference ------------------------------------------------------------------
    def game(self, options: Mapping[str, Any]) -> Game:
        key = repr(sorted(options.items()))
        if key not in self._games:
            self._games[key] = plugins.load_game(self.base, **options)
        return self._games[key]

    def start(self, trajectory: Trajectory) -> tuple[Game, State]:
        game = self.game(trajectory.setup.get("options") or {})
        position = trajectory.setup.get("position")
        state = (game.state_from_dict(position) if position is not None
                 else game.new_state(seed=trajectory.setup.get("seed")))
        return game, state

    def trajectories(self, plan: Plan) -> list[Trajectory]:
        """Random games, bot games, the branches that stop them at an ending met on the
        way (the shortest :data:`BRANCHES` of each kind, unless ``plan.ends`` is 0), and
        the scenario files' moves."""
        out = []
        endings = _Endings(self.game(self.options), plan.ends > 0)
        for i in range(plan.random):
            out.append(self._random(f"random game {i + 1}", plan.seed * 1000 + i, plan.length,
                                    endings))
        for i in range(plan.bot):
            out.append(self._bots(f"bot game {i + 1}", plan.seed * 1000 + 500 + i, plan,
                                  endings))
        out += endings.trajectories()
        for name, path in plan.scenarios.items():
            out.extend(self._scenarios(name, path))
        return out

    def _random(self, name: str, seed: int, length: int, endings: _Endings) -> Trajectory:
        setup = {"options": self.options, "seed": seed}
        trajectory = Trajectory(name, "random", setup, [])
        game, state = self.start(trajectory)
        rng = random.Random(seed)
        seen: list[str] = []
        for step in range(length):
            if state.is_over():
                for text in rng.sample(seen, min(2, len(seen))):
                    trajectory.calls.append([text, ""])
                break
            endings.look(trajectory, state)
            legal = [str(m) for m in state.legal_moves()]
            roll = rng.random()
            if roll < 0.05 and seen:
                text = rng.choice(seen)
            elif roll < 0.07:
                text = rng.choice(JUNK)
            else:
                text = rng.choice(legal)
            trajectory.calls.append([text, _checks(step)])
            try:
                state.push(text)
            except HexkitError:
                pass
            seen = (seen + rng.sample(legal, min(5, len(legal))))[-100:]
        return trajectory

    def _bots(self, name: str, seed: int, plan: Plan, endings: _Endings) -> Trajectory:
        setup = {"options": self.options, "seed": seed}
        trajectory = Trajectory(name, "bot", setup, [])
        game, state = self.start(trajectory)
        bots = [plan_bot(game, plan.bot_for(), seed + seat) for seat in
                range(len(state.players))]
        for step in range(plan.length):
            if state.is_over():
                break
            endings.look(trajectory, state)
            bot = bots[state.current_player]
            move = bot.choose(state) if bot is not None else state.legal_moves()[0]
            trajectory.calls.append([str(move), _checks(step)])
            state.push(move)
        return trajectory

    def _scenarios(self, name: str, path: Path) -> list[Trajectory]:
        from hexkit.tools.scenarios import _start, load_scenarios

        out = []
        for scenario in load_scenarios(path):
            base, inline = plugins.parse_game_string(scenario.game)
            options = {**self.options, **inline, **scenario.options}
            game = self.game(options)
            state = _start(scenario, game)
            setup: dict[str, Any] = {"options": options}
            if scenario.position is None and scenario.position_file is None:
                setup["seed"] = scenario.seed if scenario.seed is not None else 0
                if scenario.seed is None:
                    state = game.new_state(seed=0)
            else:
                setup["position"] = state.to_dict()
            calls = [[step.move, "su"] for step in scenario.steps]
            out.append(Trajectory(f"{scenario.where} {scenario.name}", "scenario", setup,
                                  calls, test=f"scenarios: {name}"))
        return out

    def expected(self, trajectory: Trajectory, detail: bool = False) -> list[Observation]:
        game, state = self.start(trajectory)
        return list(play(game, state, trajectory.calls, detail))

    def passive(self, trajectory: Trajectory, expected: list[Observation]) -> list[bool]:
        return [obs.get("result") != "ok" for obs in expected]

    def skippable(self, trajectory: Trajectory, index: int, expected: Observation,
                  actual: Observation) -> bool:
        """The reference refused the move, and before it both games agreed (whose turn,
        the legal moves): only the answer to this move differs."""
        return expected.get("result") != "ok" and _agreed_before(expected, actual)

    def masked(self, expected: Observation, actual: Observation) -> frozenset[str]:
        """What differed (the events, the winners, the save): known wrong from here on."""
        return frozenset(k for k in ("events", "end", "saved")
                         if expected.get(k) != actual.get(k))

    def in_step(self, expected: Observation, actual: Observation) -> bool:
        """Both games agreed before the move and took it the same way (played or refused,
        the game going on or over on both sides, undone alike): a difference in what the
        move announced, who won, or in saving it leaves the games comparable."""
        return (_agreed_before(expected, actual)
                and expected.get("result") == actual.get("result")
                and (expected.get("end") is None) == (actual.get("end") is None)
                and actual.get("kept") is not False
                # (an undo that failed may leave the game otherwise once the move is
                # played again)
                and expected.get("undo") == actual.get("undo"))

    # -- explaining ----------------------------------------------------------------------
    def _before(self, trajectory: Trajectory, index: int) -> State:
        _game, state = self.start(trajectory)
        for text, _checks in trajectory.calls[:index]:
            try:
                state.push(text)
            except HexkitError:
                pass
        return state

    def classify(self, trajectory: Trajectory, index: int, expected: Observation | None,
                 actual: Observation | None) -> str:
        expected, actual = expected or {}, actual or {}

        def differs(key: str) -> bool:
            return expected.get(key) != actual.get(key)

        if differs("saved") and not any(differs(key) for key in _PLAYED):
            return "saving"  # the game itself went the same way: its saved copy did not
        if differs("undo") and not any(differs(key) for key in _PLAYED):
            return "undo"  # the move went the same way (even a game's last): its undo did not
        if differs("end") or differs("over") or expected.get("end") is not None:
            return "winning"
        if differs("saved"):
            return "saving"
        if differs("undo"):
            return "undo"
        if differs("legal") and _only_hand_differs(expected, actual):
            return self._hand_group(trajectory, index)
        kinds = {kind for kind, _seat in expected.get("events") or []}
        if kinds & _CAPTURE_EVENTS:
            return "captures"
        if RESERVED in kinds:
            return "reserve"
        state = self._before(trajectory, index)
        try:
            move = state.parse_move(trajectory.calls[index][0])
            gesture = state.gesture(move)
        except Exception:
            gesture = None
        origin = getattr(gesture, "origin", None)
        if origin is not None and not isinstance(origin, tuple):
            return "reserve"  # a piece from the hand or the reserve
        return "movement"

    def _hand_group(self, trajectory: Trajectory, index: int) -> str:
        """The group of a difference in the moves from the hand or reserve only (those on
        the board agree): ``reserve``, unless the reference never sent a piece to the
        reserve of the player to move while that player captured (then it is what the
        captures left behind that differs: ``captures``)."""
        _game, state = self.start(trajectory)
        reserved: set[Any] = set()
        capturers: set[Any] = set()
        for text, _checks in trajectory.calls[:index]:
            try:
                state.push(text)
            except HexkitError:
                continue
            ok, told = attempt(state.events)
            for event in told if ok else ():
                if event.kind == RESERVED:
                    reserved.add(event.seat)
                elif event.kind in _CAPTURE_EVENTS and event.kind != ELIMINATED:
                    capturers.add(event.seat)  # who took, or whose piece came back
        ok, seat = attempt(lambda: state.current_player)
        if ok and seat in capturers and seat not in reserved:
            return "captures"
        return "reserve"

    def explain(self, trajectory: Trajectory, index: int, expected: Observation | None,
                actual: Observation | None, failure: str | None) -> list[str]:
        setup = trajectory.setup
        start = ("from the scenario's starting position" if "position" in setup
                 else f"from a new game with seed {setup.get('seed')}")
        game = self.game(setup.get("options") or {})
        lines = [f"Game {game} {start}; the moves:"]
        for i, (text, _checks) in enumerate(trajectory.calls[: index + 1]):
            mark = "   <- here they disagree" if i == index else ""
            lines.append(f"  {i + 1}. {text!r}{mark}")
        players = self._before(trajectory, index).players
        if failure:
            lines.append(f"The submission stopped answering at move {index + 1}: {failure}")
            return lines
        lines.extend(_compare(expected or {}, actual or {}, players))
        return lines

    def picture(self, trajectory: Trajectory, index: int) -> str | None:
        from hexkit.render import render_state_svg

        try:
            return render_state_svg(self._before(trajectory, index),
                                    title="the reference's position before the move")
        except Exception:
            return None


class _Endings:
    """The branches that stop a game at an ending met on the way: where a legal move would
    end the game in a way not yet seen in that game (a win for the mover, for another
    player, a draw), the moves so far, that move, then moves that were legal just before
    (each must now be refused). The moves tried at each step are those the game's playout
    policy names as possible wins (its ``may_win``, where it has one) and
    :data:`ENDING_TRIES` others at random; the shortest :data:`BRANCHES` of each kind are
    kept. Its random choices are its own: the games are those of a plan without it."""

    def __init__(self, game: Game, enabled: bool):
        from hexkit.bots.mcts import playout_policy
        from hexkit.bots.policy import function

        self.enabled = enabled
        policy = playout_policy(game.name) if enabled else None
        self.may_win = function(policy.may_win) if policy is not None else None
        self.found: dict[str, list[tuple[int, Trajectory]]] = {}
        self.rng = random.Random(0)
        self._seen: tuple[str, set[str]] = ("", set())

    def look(self, trajectory: Trajectory, state: State) -> None:
        """Try the moves that might end the game now (the state is left as it was)."""
        if not self.enabled:
            return
        if self._seen[0] != trajectory.name:
            self._seen = (trajectory.name, set())
            self.rng = random.Random(trajectory.name)
        seen = self._seen[1]
        legal = list(state.legal_moves())
        named = self.may_win(state) if self.may_win is not None else None
        tries = [*(named or ()), *self.rng.sample(legal, min(ENDING_TRIES, len(legal)))]
        mover = state.current_player
        for move in tries:
            try:
                state.push(move)
            except HexkitError:
                continue
            try:
                outcome = state.outcome()
            finally:
                state.pop()
            if outcome is None:
                continue
            winners = set(outcome.winners)
            what = ("a draw" if not winners or len(winners) == len(state.players)
                    else "a win for the player who moves" if winners == {mover}
                    else "a shared win" if mover in winners else "a win for another player")
            if what in seen:
                continue
            seen.add(what)
            after = [[str(m), ""] for m in self.rng.sample(legal, min(2, len(legal)))]
            calls = [*trajectory.calls, [str(move), "u"], *after]
            self.found.setdefault(what, []).append((len(calls), trajectory.with_calls(calls)))

    def trajectories(self) -> list[Trajectory]:
        out = []
        for what, found in sorted(self.found.items()):
            for _size, branch in sorted(found, key=lambda f: f[0])[:BRANCHES]:
                out.append(Trajectory(f"{branch.name}, ending with {what}", "ending",
                                      branch.setup, branch.calls))
        return out


def _only_hand_differs(expected: Observation, actual: Observation) -> bool:
    """True if the legal moves differ only in those from a hand or reserve (as each side's
    gestures tell)."""
    want, got = expected.get("_split"), actual.get("_split")
    return (isinstance(want, list) and isinstance(got, list) and len(want) == len(got) == 2
            and want[0] == got[0] and want[1] != got[1])


def _checks(step: int) -> str:
    """Which moves also check saving (every 10th) and undo (every 7th)."""
    return ("s" if step % 10 == 9 else "") + ("u" if step % 7 == 3 else "")


def _seat(players: tuple[str, ...], seat: Any) -> str:
    if isinstance(seat, int) and 0 <= seat < len(players):
        return f"{players[seat]} (seat {seat})"
    return repr(seat)


def _result(obs: Observation) -> str:
    result = obs.get("result")
    if result == "ok":
        return "accepted"
    if result in ("illegal", "unreadable"):
        return f"refused as {result}"
    return str(result)


def _end(obs: Observation, players: tuple[str, ...]) -> str:
    end = obs.get("end")
    if end is None:
        return "the game goes on"
    if isinstance(end, list):
        return "a draw" if not end else "won by " + " and ".join(_seat(players, w) for w in end)
    return str(end)


def _compare(expected: Observation, actual: Observation, players: tuple[str, ...]) -> list[str]:
    """The differing observations in words: expected (the reference), then actual."""
    out = []
    if "start" in actual:
        return [f"The submission's game could not start: {actual['start']}"]
    if expected.get("over") != actual.get("over"):
        out.append(f"Before the move, is the game over? expected {expected.get('over')}, "
                   f"got {actual.get('over')}")
    if expected.get("turn") != actual.get("turn"):
        out.append(f"Player to move: expected {_seat(players, expected.get('turn'))}, got "
                   f"{_seat(players, actual.get('turn'))}")
    want, got = expected.get("legal"), actual.get("legal")
    if want != got:
        if isinstance(want, list) and isinstance(got, list):
            missing = sorted(set(want) - set(got))
            extra = sorted(set(got) - set(want))
            out.append(f"Legal moves before it: expected {len(want)}, got {len(got)}")
            if missing:
                out.append(f"  legal but missing from the submission's list: {_few(missing)}")
            if extra:
                out.append(f"  listed by the submission but not legal: {_few(extra)}")
            if not missing and not extra:
                out.append("  (the same moves, listed more than once)")
        else:
            out.append(f"Legal moves before it: expected {_short(want)}, got {_short(got)}")
    if expected.get("result") != actual.get("result"):
        out.append(f"The move: expected {_result(expected)}, got {_result(actual)}")
    if expected.get("kept") != actual.get("kept") and actual.get("kept") is False:
        out.append("The submission refused the move but changed its state doing so")
    if expected.get("events") != actual.get("events") and expected.get("result") == "ok" \
            and actual.get("result") == "ok":
        out.append(f"Events of the move: expected {_events(expected, players)}, got "
                   f"{_events(actual, players)}")
    if expected.get("end") != actual.get("end") and expected.get("result") == actual.get(
            "result") == "ok":
        out.append(f"After the move: expected {_end(expected, players)}, got "
                   f"{_end(actual, players)}")
    if expected.get("saved") is None and actual.get("saved") not in (None, "ok"):
        out.append(f"Saving and reloading: {actual['saved']}")
    for key, what in (("saved", "Saving and reloading"), ("undo", "Undo")):
        if expected.get(key) != actual.get(key) and expected.get(key) is not None:
            out.append(f"{what} after the move: expected {expected.get(key)}, got "
                       f"{actual.get(key)}")
    return out or [f"expected {expected}, got {actual}"]


def _events(obs: Observation, players: tuple[str, ...]) -> str:
    events = obs.get("events")
    if not isinstance(events, list):
        return str(events)
    if not events:
        return "none"
    return ", ".join(f"{kind}" + (f" ({_seat(players, seat)})" if seat is not None else "")
                     for kind, seat in events)


def _few(items: list[str], most: int = 8) -> str:
    shown = ", ".join(items[:most])
    return shown + (f" and {len(items) - most} more" if len(items) > most else "")


def _short(value: Any) -> str:
    text = str(value)
    return text if len(text) <= 120 else text[:117] + "..."


def check_options(reference: str) -> None:
    """OptionError unless ``reference`` names an installed game."""
    try:
        plugins.load_game(reference)
    except HexkitError as exc:
        raise OptionError(f"--reference {reference}: {exc}") from None


def _agreed_before(expected: Observation, actual: Observation) -> bool:
    """Whether the two games agreed before a move: over or not, whose turn, legal moves."""
    return all(expected.get(key) == actual.get(key) for key in ("over", "turn", "legal"))
