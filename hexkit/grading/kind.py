"""The one narrow interface per submission kind.

A :class:`Kind` recognises its submissions by their content and opens a :class:`Session`:
the submission and the reference side by side. A session makes trajectories (lists of
calls in the kind's own terms: moves in a game's notation, course method calls, lines
typed at a console), plays one on the reference (:meth:`Session.expected`) and on the
submission (:meth:`Session.actual`), one observation per call, and explains a difference
in words a student can read. Everything else (which trajectories, comparing, shrinking,
scores, reports, parallel grading) is the grader's and the same for every kind.

Game plugins register kinds through the ``hexkit_register_grading_kinds`` hook (the
course programs' kinds live with their games); the core's own kind grades hexkit plugins.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hexkit.errors import HexkitError, OptionError
from hexkit.grading.sandbox import Budget, Limits, Sandbox, SandboxError

if TYPE_CHECKING:
    from hexkit.bots import Bot
    from hexkit.game import Game

Observation = dict[str, Any]

#: The rule groups of the course games, in report order.
RULE_GROUPS = ("movement", "captures", "reserve", "winning")
#: The bot that plays bot-guided trajectories unless grading.yaml or the kind names another.
DEFAULT_BOT = "mcts:sims=12"


class LoadFailure(HexkitError):
    """The submission cannot be graded at all (it does not import, registers no game...)."""


@dataclass
class Trajectory:
    """A sequence of calls from a starting point. ``setup`` is the kind's (seed, options,
    players...); ``test`` is the test it belongs to when it comes from a scenario file."""

    name: str
    source: str  # "random", "bot" or "scenario"
    setup: dict[str, Any]
    calls: list[Any]
    test: str | None = None

    def with_calls(self, calls: Sequence[Any]) -> Trajectory:
        return Trajectory(self.name, self.source, self.setup, list(calls), self.test)


@dataclass
class Run:
    """The submission's observations; ``failure`` says why it stopped answering after the
    last one (a timeout, an exit), None if it answered every call."""

    observations: list[Observation]
    failure: str | None = None


@dataclass
class Plan:
    """How many trajectories of each source, how long, from which seed; the scenario files
    (name shown in reports -> path). ``probes``: requests that probe the rules at each step
    of a game (the kind chooses them; 0: none); ``ends``: games steered on purpose to each
    kind of ending the kind knows (a win for each side, a draw...)."""

    random: int = 12
    bot: int = 4
    length: int = 200
    seed: int = 0
    bot_spec: str | None = None  # None: the kind's own (DEFAULT_BOT unless it says)
    probes: int = 2
    ends: int = 2
    scenarios: dict[str, Path] = field(default_factory=dict)

    def bot_for(self, default: str = "") -> str:
        """The bot of the bot-guided games: ``bot_spec``, else the kind's ``default``, else
        :data:`DEFAULT_BOT`."""
        return self.bot_spec or default or DEFAULT_BOT


class Session(ABC):
    """One submission against the reference."""

    #: The rule groups this kind reports (tests of the same names).
    groups: tuple[str, ...] = RULE_GROUPS
    #: Aspects compared apart from the rules, each a test of its own (a course program's
    #: printed lines): a difference in one does not hide a later difference in the rules
    #: of the same trajectory, nor the other way round.
    aspects: tuple[str, ...] = ()
    #: Why the submission is played no further (it ran out of memory), or None: the grader
    #: then stops at once and fails the tests not yet failed with this line.
    stopped: str | None = None

    def reference_imports(self) -> list[str]:
        """The reference game's packages the submission imported from outside its own
        folder (reported to the instructor, not scored)."""
        return []

    @abstractmethod
    def trajectories(self, plan: Plan) -> list[Trajectory]:
        """The trajectories to play (made with the reference only)."""

    @abstractmethod
    def expected(self, trajectory: Trajectory, detail: bool = False) -> list[Observation]:
        """The reference's observation after each call (``detail``: the long form, for an
        explanation)."""

    @abstractmethod
    def actual(self, trajectory: Trajectory, detail: bool = False) -> Run:
        """The submission's observations (LoadFailure if it cannot be loaded at all)."""

    def passive(self, trajectory: Trajectory, expected: list[Observation]) -> list[bool]:
        """For each call, True if it left the reference's game as it was (a refused move,
        a query): shrinking first tries without all of them. Default: none known."""
        return [False] * len(expected)

    def broke(self, actual: Observation) -> bool:
        """True if the submission crashed or raised at this call (rather than answering
        differently): the rest of its game checks nothing, since its state is unknown."""
        return "error" in actual or "start" in actual or any(
            isinstance(v, str) and v.startswith("error") for v in actual.values())

    def skippable(self, trajectory: Trajectory, index: int, expected: Observation,
                  actual: Observation) -> bool:
        """True if call ``index`` can be left out to put the two sides back in step: the
        reference refused it (its game is the same without it) and nothing observed at it
        says the two games had parted before it. Default: never assumed."""
        return False

    def signature(self, trajectory: Trajectory, index: int, expected: Observation,
                  actual: Observation) -> Hashable:
        """What a difference is, regardless of where it happens: two differences of the
        same signature in one trajectory are taken for the same bug. Default: the keys of
        the observations that differ."""
        keys = {k for k in (*expected, *actual) if not k.startswith("_")}
        return frozenset(k for k in keys if expected.get(k) != actual.get(k))

    def masked(self, expected: Observation, actual: Observation) -> frozenset[str]:
        """The keys of the observations no longer compared once the two sides went on in
        step past this difference (:meth:`in_step`): the bug is known there. Default:
        none."""
        return frozenset()

    def in_step(self, expected: Observation, actual: Observation) -> bool:
        """True if, though they differ, both sides took the call alike (both games went
        on, or ended, the same way), so that the calls after it can still be compared.
        Default: never assumed."""
        return False

    def same(self, expected: Observation, actual: Observation) -> bool:
        """Whether two observations agree: keys starting with ``_`` are for reports only."""
        return {k: v for k, v in expected.items() if not k.startswith("_")} == {
            k: v for k, v in actual.items() if not k.startswith("_")}

    def same_in(self, aspect: str, expected: Observation, actual: Observation) -> bool:
        """Whether two observations agree in ``aspect`` (one of :attr:`aspects`)."""
        return True

    @abstractmethod
    def classify(self, trajectory: Trajectory, index: int, expected: Observation | None,
                 actual: Observation | None) -> str:
        """The rule group a difference at call ``index`` belongs to."""

    @abstractmethod
    def explain(self, trajectory: Trajectory, index: int, expected: Observation | None,
                actual: Observation | None, failure: str | None) -> list[str]:
        """The difference in the game's own terms: the calls, then expected and actual."""

    def picture(self, trajectory: Trajectory, index: int) -> str | None:
        """An SVG of the reference's position just before call ``index`` (None if the kind
        has none)."""
        return None

    def close(self) -> None:  # noqa: B027 - a session without a process has nothing to do
        """Stop the submission's process and delete its folder."""


class Kind(ABC):
    """A kind of submission."""

    name: str = ""
    title: str = ""

    @abstractmethod
    def recognise(self, path: Path) -> bool:
        """True if ``path`` (a file or folder) is a submission of this kind."""

    #: The keys of ``grading.yaml``'s ``kind:`` mapping that this kind reads.
    settings: tuple[str, ...] = ()

    def check_settings(self, settings: Mapping[str, Any]) -> None:  # noqa: B027
        """OptionError for a bad value of one of this kind's :attr:`settings`."""

    def check_reference(self, reference: str) -> None:  # noqa: B027 - any reference will do
        """OptionError unless this kind can be graded against ``reference``."""

    @abstractmethod
    def open(self, path: Path, reference: str, limits: Limits, budget: Budget,
             options: Mapping[str, Any]) -> Session:
        """A session for one submission (nothing of it runs yet). ``options`` are the
        kind's settings from ``grading.yaml``."""


def plan_bot(game: Game, spec: str, seed: int) -> Bot:
    """The bot that chooses the moves of bot-guided trajectories (``bot_spec``)."""
    from hexkit.bots import make_bot

    bot = make_bot(game, spec, seed)
    if bot is None:
        raise OptionError(f"trajectories: bot_spec {spec!r}: a bot chooses the moves of the "
                          "bot-guided games, not a human")
    return bot


def plain(value: Any) -> Any:
    """A value as it comes back from JSON (tuples become lists): observations made in
    this process compare equal to those sent by the submission's process."""
    return json.loads(json.dumps(value, default=str))


class SandboxSession(Session):
    """A session whose submission runs in a :class:`Sandbox` with a child-side driver that
    answers ``{"setup": ..., "calls": [...], "detail": bool}`` with one observation per
    call."""

    def __init__(self, sandbox: Sandbox):
        self.sandbox = sandbox
        self.loaded: dict[str, Any] | None = None

    def load(self) -> dict[str, Any]:
        """Start the submission's process; LoadFailure if the submission cannot load."""
        try:
            self.loaded = self.sandbox.ensure()
        except SandboxError as exc:
            raise LoadFailure(_load_message(exc, self.sandbox)) from None
        return self.loaded

    def reference_imports(self) -> list[str]:
        return [str(name) for name in self.sandbox.info.get("reference_imports", [])]

    def actual(self, trajectory: Trajectory, detail: bool = False) -> Run:
        self.load()
        observations: list[Observation] = []
        request = {"setup": trajectory.setup, "calls": trajectory.calls, "detail": detail}
        try:
            for answer in self.sandbox.stream(request):
                observations.append(answer.get("obs", {}))
        except SandboxError as exc:
            return Run(observations, str(exc))
        return Run(observations)

    def close(self) -> None:
        self.sandbox.close()


def _load_message(exc: SandboxError, sandbox: Sandbox) -> str:
    if exc.reason == "load":
        return str(exc)
    tail = sandbox.log_tail().strip().splitlines()
    last = f" (last output: {tail[-1][:200]})" if tail else ""
    return f"{exc}{last}"
