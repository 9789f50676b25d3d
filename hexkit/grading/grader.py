"""Grading one submission: recognise its kind, play the trajectories, shrink what differs,
and score each test (a rule group of the kind, or a scenario file).

A test passes with its full points when no trajectory shows a difference in it; otherwise
it gets none, and its output is the shortest counterexample found, in the game's own terms,
with the expected (the reference's) and the actual answer. A submission that cannot be
loaded fails every test with that one line; one that runs out of time has the tests not yet
checked failed with a line saying so. Nothing here raises for anything a submission does.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeGuard

from hexkit import plugins
from hexkit.errors import HexkitError, OptionError
from hexkit.grading.config import GradingConfig
from hexkit.grading.kind import Kind, LoadFailure, Plan, Session, Trajectory
from hexkit.grading.sandbox import Budget, Limits
from hexkit.grading.shrink import Difference, differences, first_difference, shrink

#: A submission that times out this many times is not played any further.
MAX_TIMEOUTS = 3
#: Nor one that stops answering (crashes, exits) or fails (raises, or its builder does) at
#: the first call of this many trajectories in a row: each would check nothing.
MAX_DEAD_STARTS = 5
#: A rule counts as checked only when at least this share of all calls was compared (a
#: submission that disagrees at the first call of every game has been checked for nothing).
MIN_CHECKED = 0.25


@dataclass
class TestResult:
    """One test of one submission (Gradescope's fields, plus the counterexample)."""

    name: str
    score: float
    max_score: float
    status: str  # "passed" or "failed"
    output: str
    visibility: str = "visible"
    picture: str | None = None
    counterexample: int | None = None  # calls in the shortest sequence found


@dataclass
class GradeResult:
    """A graded submission."""

    submission: str
    path: str
    kind: str
    tests: list[TestResult] = field(default_factory=list)
    error: str | None = None
    seconds: float = 0.0

    @property
    def score(self) -> float:
        return sum(t.score for t in self.tests)

    @property
    def max_score(self) -> float:
        return sum(t.max_score for t in self.tests)

    def to_dict(self) -> dict[str, Any]:
        return {"submission": self.submission, "path": self.path, "kind": self.kind,
                "error": self.error, "seconds": self.seconds,
                "tests": [t.__dict__ for t in self.tests]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GradeResult:
        return cls(data["submission"], data["path"], data["kind"],
                   [TestResult(**t) for t in data["tests"]], data.get("error"),
                   float(data.get("seconds", 0.0)))


def kinds(registry: plugins.Registry | None = None) -> list[tuple[str, Kind]]:
    """The registered kinds, in the order they are asked to recognise a submission."""
    registry = registry or plugins.registry()
    specs = sorted(registry.grading_kinds.values(), key=lambda s: (s.priority, s.name))
    return [(spec.name, spec.make()) for spec in specs]


def recognise(path: Path, available: list[tuple[str, Kind]]) -> tuple[str, Kind] | None:
    """The kind of a submission, by its content (None if no kind knows it)."""
    for name, kind in available:
        try:
            if kind.recognise(path):
                return name, kind
        except OSError:
            continue
    return None


def limits_for(config: GradingConfig, time_limit: float | None) -> Limits:
    """The limits of one submission: the command line over grading.yaml over defaults."""
    base = Limits()
    return Limits(
        time_limit=time_limit or config.time_limit or base.time_limit,
        call_limit=config.call_limit or base.call_limit,
        memory_mb=config.memory_mb or base.memory_mb,
    )


def plan_for(config: GradingConfig, seed: int | None) -> Plan:
    return Plan(random=config.random, bot=config.bot, length=config.length,
                seed=config.seed if seed is None else seed, bot_spec=config.bot_spec,
                probes=config.probes, ends=config.ends,
                scenarios={name: path for name, (path, _points) in config.scenarios.items()})


def weights_for(session: Session, config: GradingConfig) -> dict[str, float]:
    """Points per test: grading.yaml's weights (else the kind's defaults), then scenario
    files."""
    defaults: Mapping[str, float] = getattr(session, "weights", None) or {
        g: 100.0 / len(session.groups) for g in session.groups}
    weights = dict(config.weights) if config.weights is not None else dict(defaults)
    for name, (_path, points) in config.scenarios.items():
        weights[f"scenarios: {name}"] = points
    return weights


class TrajectoryCache:
    """Trajectories depend on the reference, the kind and the plan only: made once for a
    whole class."""

    def __init__(self) -> None:
        self._made: dict[tuple[str, str, str], list[Trajectory]] = {}

    def get(self, kind: str, reference: str, plan: Plan, session: Session) -> list[Trajectory]:
        key = (kind, reference, repr(plan))
        if key not in self._made:
            self._made[key] = session.trajectories(plan)
        return self._made[key]


def grade(path: Path, reference: str, config: GradingConfig, *, name: str | None = None,
          time_limit: float | None = None, seed: int | None = None,
          cache: TrajectoryCache | None = None,
          registry: plugins.Registry | None = None) -> GradeResult:
    """Grade one submission (never raises for anything the submission does)."""
    started = time.monotonic()
    shown = name or path.name
    found = recognise(path, kinds(registry))
    if found is None:
        result = GradeResult(shown, str(path), "unknown", error=(
            "not a submission of any known kind (a hexkit plugin, a FocusGame.py, a Hex "
            "Baron console program or a Java HexAround project)"))
        result.tests = [TestResult("submission", 0.0, 0.0, "failed", result.error or "")]
        return result
    kind_name, kind = found
    limits = limits_for(config, time_limit)
    budget = Budget(limits.time_limit)
    result = GradeResult(shown, str(path), kind_name)
    try:
        session = kind.open(path, reference, limits, budget, config.kind)
    except HexkitError as exc:
        result.error = str(exc)
        result.tests = [TestResult("submission", 0.0, 0.0, "failed", str(exc))]
        return result
    try:
        _play(session, kind_name, reference, config, seed, budget, result,
              cache or TrajectoryCache())
    finally:
        session.close()
        result.seconds = round(time.monotonic() - started, 3)
    return result


def _play(session: Session, kind_name: str, reference: str, config: GradingConfig,
          seed: int | None, budget: Budget, result: GradeResult,
          cache: TrajectoryCache) -> None:
    weights = weights_for(session, config)
    plan = plan_for(config, seed)
    trajectories = cache.get(kind_name, reference, plan, session)
    budget.restart()  # the trajectories are the grader's work (made once per class)
    found: dict[str, Difference] = {}
    unfinished = ""
    timeouts = dead_starts = 0
    dead_how: set[str] = set()  # how the games in a row broke at their first call
    total = checked = 0
    try:
        load = getattr(session, "load", None)
        if load is not None:
            load()
        for trajectory in trajectories:
            if budget.spent():
                unfinished = (f"not checked: the submission's time limit "
                              f"({budget.seconds:g} s) ran out before this test was played")
                break
            if timeouts >= MAX_TIMEOUTS:
                unfinished = (f"not checked: the submission stopped answering in time "
                              f"{MAX_TIMEOUTS} times, so it was played no further")
                break
            if dead_starts >= MAX_DEAD_STARTS:
                how = " or ".join(sorted(dead_how, reverse=True))
                unfinished = (f"not checked: the submission {how} at the first call of "
                              f"{MAX_DEAD_STARTS} games in a row, so it was played no further")
                break
            if trajectory.test and trajectory.test in found and all(
                    a in found for a in session.aspects):
                continue
            seen = differences(session, trajectory, wanted=lambda g: g in weights
                               and g not in found)
            rules = next((d for d in seen if d.aspect is None), None)
            total += len(trajectory.calls)
            checked += rules.index if rules is not None and _broke(session, rules) \
                else len(trajectory.calls)
            if rules is not None and rules.failure and "within" in rules.failure:
                timeouts += 1
            dead = rules is not None and rules.index == 0 and _broke(session, rules)
            if dead:
                assert rules is not None
                dead_how.add("stopped answering" if rules.failure else "raised an error")
            else:
                dead_how.clear()
            dead_starts = dead_starts + 1 if dead else 0
            for seen_here in seen:
                known = found.get(seen_here.group)
                if known is None or seen_here.length < known.length:
                    found[seen_here.group] = seen_here
            if session.stopped:
                unfinished = f"not checked: {session.stopped}"
                break
            if all(g in found for g in weights):
                break
        if not unfinished and total and checked < MIN_CHECKED * total:
            unfinished = (f"not checked: the submission disagreed with the reference early in "
                          f"most games ({checked} of {total} calls could be compared)")
    except LoadFailure as exc:
        result.error = f"the submission could not be loaded: {exc}"
        result.tests = [TestResult(test, 0.0, points, "failed", result.error,
                                   config.visibility_of(test))
                        for test, points in weights.items()]
        return
    for test, points in weights.items():
        difference = found.get(test)
        visibility = config.visibility_of(test)
        if difference is None:
            if unfinished:
                result.tests.append(TestResult(test, 0.0, points, "failed", unfinished,
                                               visibility))
                continue
            result.tests.append(TestResult(test, points, points, "passed",
                                           _passed_text(test, trajectories), visibility))
            continue
        # (a submission played no further cannot be replayed: its difference stays whole)
        replay = not budget.spent() and not session.stopped
        small = shrink(session, difference, budget) if replay else difference
        shown = first_difference(session, small.trajectory.with_calls(
            small.trajectory.calls[: small.length]), detail=True, aspect=small.aspect) \
            if replay else None
        if shown is None or shown.group != small.group:
            shown = small
        lines = session.explain(shown.trajectory, shown.index, shown.expected, shown.actual,
                                shown.failure)
        header = (f"The submission disagrees with the reference ({difference.trajectory.name}"
                  f"; the shortest sequence found has {shown.length} "
                  f"call{'s' if shown.length != 1 else ''}).")
        result.tests.append(TestResult(
            test, 0.0, points, "failed", "\n".join([header, *lines]), visibility,
            picture=session.picture(shown.trajectory, shown.index),
            counterexample=shown.length))
    imported = session.reference_imports()
    if imported:  # scored as graded; the instructor judges (some courses allow it)
        names = ", ".join(repr(n) for n in imported)
        result.tests.append(TestResult(
            "originality", 0.0, 0.0, "failed",
            f"the submission imports {names} from hexkit, the reference implementation it "
            "is graded against: its answers may be the reference's, not its own",
            config.visibility_of("originality")))
    extra = [g for g in found if g not in weights]
    for group in extra:  # a difference in a group that carries no points is still shown
        difference = found[group]
        lines = session.explain(difference.trajectory, difference.index,
                                difference.expected, difference.actual, difference.failure)
        result.tests.append(TestResult(group, 0.0, 0.0, "failed", "\n".join(lines),
                                       config.visibility_of(group),
                                       counterexample=difference.length))


def _broke(session: Session, difference: Difference | None) -> TypeGuard[Difference]:
    """True if the submission crashed, raised, ended or stopped answering there (rather
    than answering differently): the rest of that trajectory checked nothing."""
    if difference is None:
        return False
    if difference.failure:
        return True
    return session.broke(difference.actual or {})


def _passed_text(test: str, trajectories: list[Trajectory]) -> str:
    if test.startswith("scenarios: "):
        count = sum(1 for t in trajectories if t.test == test)
        return f"The submission agrees with the reference on all {count} scenario(s)."
    calls = sum(len(t.calls) for t in trajectories if t.test is None)
    return (f"No difference in {test} on {sum(1 for t in trajectories if t.test is None)} "
            f"trajectories ({calls} calls).")


def check_reference(reference: str, kind: Kind) -> None:
    """OptionError unless the kind can be graded against this reference."""
    try:
        kind.check_reference(reference)
    except HexkitError as exc:
        raise OptionError(f"--reference {reference}: {exc}") from None
