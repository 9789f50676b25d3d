"""Differences, and shrinking one to the shortest sequence of calls that still shows it.

:func:`first_difference` plays a trajectory on both sides and finds the first call whose
observations disagree (in the rules, or in one of the kind's aspects such as printed
lines; :func:`differences` finds each from one play). :func:`shrink` cuts a difference
down: first to the calls up to it (a replay from the start), then by delta debugging
(Zeller's ddmin: remove chunks of calls, halving the chunk size when nothing can go, keep
any sequence that still disagrees in the same rule group), replaying from the start after
each success so the sequence always ends where the two first disagree.

Past the first difference of a trajectory, :func:`differences` looks for the next one in
another rule group, where the kind lets the two sides be put back in step, so that a
student with two bugs sees both.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass

from hexkit.grading.kind import Observation, Run, Session, Trajectory, plain
from hexkit.grading.sandbox import Budget


@dataclass
class Difference:
    """Where a trajectory shows a difference: call ``index`` (``failure``: the submission
    stopped answering there)."""

    trajectory: Trajectory
    index: int
    expected: Observation | None
    actual: Observation | None
    failure: str | None
    group: str = ""
    aspect: str | None = None  # None: the rules

    @property
    def length(self) -> int:
        """Calls up to and including the one that disagrees."""
        return self.index + 1


def first_difference(session: Session, trajectory: Trajectory, detail: bool = False,
                     aspect: str | None = None, group: str | None = None
                     ) -> Difference | None:
    """The first call at which the submission disagrees with the reference in the rules
    (``aspect`` None) or in one of the session's aspects, or None. With ``group``, the
    first difference in that rule group, looked for past differences in others as
    :func:`differences` does (so that shrinking keeps what it found there)."""
    expected = [plain(o) for o in session.expected(trajectory, detail)]
    run = session.actual(trajectory, detail)
    found = _first(session, trajectory, expected, run, aspect)
    if found is None or group is None or aspect is not None or found.group == group:
        return found
    return next(iter(_past(session, found, expected, run, lambda g: g == group, detail)),
                None)


#: Differences in the rules looked for in one trajectory at most (the first, then those
#: past it), and the replays that looking past one may cost.
MAX_DIFFERENCES = 3
MAX_REPLAYS = 3
#: Differences looked at past the first (each classified: a replay on the reference).
MAX_LOOKED = 8


def differences(session: Session, trajectory: Trajectory,
                wanted: Callable[[str], bool] | None = None) -> list[Difference]:
    """The first difference in the rules and in each of the session's aspects, from one
    play of the trajectory on each side; then, while ``wanted`` says a group is still
    missing, the differences in the rules past the first (:func:`_past`), so that a second
    bug later in the game is not hidden by the first."""
    expected = [plain(o) for o in session.expected(trajectory)]
    run = session.actual(trajectory)
    found = [_first(session, trajectory, expected, run, aspect)
             for aspect in (None, *session.aspects)]
    rules = found[0]
    if rules is not None and wanted is not None:
        found += _past(session, rules, expected, run, wanted)
    return [d for d in found if d is not None]


def _past(session: Session, first: Difference, expected: list[Observation], run: Run,
          wanted: Callable[[str], bool], detail: bool = False) -> list[Difference]:
    """Differences in the rules past ``first``, in groups ``wanted`` says are missing,
    re-synchronising the two sides where the kind allows: where both took the call alike
    (:meth:`Session.in_step`: both ended the game, with other winners; a move told or
    saved otherwise) the comparison goes on in the same play, no longer comparing what
    already differed there (:meth:`Session.masked`); where the difference is in the answer
    to a request that the reference refused, with nothing seen so far parting the two
    games (:meth:`Session.skippable`), the trajectory is played again without it, so that
    the submission never sees it. A difference that shows the games already parted (a
    query answered otherwise, other legal moves) ends the search: what follows would be
    the same bug again, and so is a difference like one already seen
    (:meth:`Session.signature`). Stops too at a crash or a timeout, or at
    :data:`MAX_DIFFERENCES`."""
    out: list[Difference] = []
    current, replays = first, 0
    trajectory = first.trajectory
    groups = {first.group}
    signs = {_signature(session, first)}
    mask: frozenset[str] = frozenset()
    if trajectory.test:  # a scenario file is one test: its first difference fails it
        return out
    for _looked in range(MAX_LOOKED):
        if len(out) + 1 >= MAX_DIFFERENCES or current.failure:
            break
        if not any(wanted(g) for g in session.groups if g not in groups):
            break
        index, want, got = current.index, current.expected or {}, current.actual or {}
        if session.in_step(want, got) and not session.broke(got):
            mask |= session.masked(want, got)
            following = _first(session, trajectory, expected, run, None, start=index + 1,
                               mask=mask)
        elif replays < MAX_REPLAYS and session.skippable(trajectory, index, want, got):
            # Left out: this call, and each later one that could be too (the reference's
            # game is the same without them).
            replays += 1
            drop = {index} | {
                j for j in range(index + 1, len(run.observations))
                if not session.same(_without(expected[j], mask),
                                    _without(run.observations[j], mask))
                and session.skippable(trajectory, j, expected[j], run.observations[j])}
            keep = [j for j in range(len(expected)) if j not in drop]
            trajectory = Trajectory(f"{first.trajectory.name}, continued past an earlier "
                                    "difference" if trajectory is first.trajectory
                                    else trajectory.name, trajectory.source,
                                    trajectory.setup, [trajectory.calls[j] for j in keep],
                                    trajectory.test)
            expected = [expected[j] for j in keep]
            run = session.actual(trajectory, detail)
            following = _first(session, trajectory, expected, run, None, mask=mask)
        else:
            break
        if following is None:
            break
        current = following
        # A difference like one already seen (in the same respect) is the same bug again,
        # even where it falls in another group.
        sign = _signature(session, following)
        if following.group not in groups and sign not in signs and wanted(following.group):
            groups.add(following.group)
            out.append(following)
        signs.add(sign)
    return out


def _signature(session: Session, difference: Difference) -> Hashable:
    return session.signature(difference.trajectory, difference.index,
                             difference.expected or {}, difference.actual or {})


def _without(observation: Observation, mask: frozenset[str]) -> Observation:
    return {k: v for k, v in observation.items() if k not in mask} if mask else observation


def _first(session: Session, trajectory: Trajectory, expected: list[Observation], run: Run,
           aspect: str | None, start: int = 0,
           mask: frozenset[str] = frozenset()) -> Difference | None:
    found: Difference | None = None
    for i, want in enumerate(expected):
        if i < start:
            continue
        if i >= len(run.observations):
            if aspect is None:
                found = Difference(trajectory, i, want, None, run.failure or "no answer")
            break
        got = run.observations[i]
        agree = session.same(_without(want, mask), _without(got, mask)) if aspect is None \
            else session.same_in(aspect, want, got)
        if not agree:
            found = Difference(trajectory, i, _without(want, mask), _without(got, mask), None,
                               aspect=aspect)
            break
    else:
        if run.failure and aspect is None:
            # It answered every call, then stopped (e.g. exited at the end).
            last = max(len(expected) - 1, 0)
            found = Difference(trajectory, last, expected[-1] if expected else None, None,
                               run.failure)
    if found is not None:
        found.group = aspect or trajectory.test or session.classify(
            trajectory, found.index, found.expected, found.actual)
    return found


def shrink(session: Session, difference: Difference, budget: Budget,
           max_tests: int = 150) -> Difference:
    """The shortest sequence found that still disagrees in the same group."""
    group = difference.group
    best = difference
    calls = list(difference.trajectory.calls[: difference.length])
    if difference.failure and "time" in difference.failure:
        # Each replay of a loop costs a whole deadline: the cut at the call is enough.
        return _retry(session, best, calls) or best
    tests = 0

    def test(candidate: list[object]) -> Difference | None:
        nonlocal tests
        tests += 1
        found = first_difference(session, difference.trajectory.with_calls(candidate),
                                 aspect=difference.aspect, group=group)
        return found if found is not None and found.group == group else None

    again = test(calls)
    if again is not None:
        best, calls = again, list(calls[: again.length])
    # The calls that changed nothing on the reference (refusals, queries) go first, at once.
    flags = session.passive(best.trajectory.with_calls(calls),
                            session.expected(best.trajectory.with_calls(calls)))
    active = [c for c, quiet in zip(calls[:-1], flags[:-1], strict=True) if not quiet]
    if len(active) + 1 < len(calls):
        found = test([*active, calls[-1]])
        if found is not None:
            best, calls = found, list(found.trajectory.calls[: found.length])
    chunks = 2
    while len(calls) >= 2 and tests < max_tests and budget.left() > 5:
        size = -(-len(calls) // chunks)
        reduced = False
        for start in range(0, len(calls), size):
            candidate = calls[:start] + calls[start + size:]
            if not candidate:
                continue
            found = test(candidate)
            if found is not None:
                best, calls = found, list(candidate[: found.length])
                chunks = max(chunks - 1, 2)
                reduced = True
                break
            if tests >= max_tests or budget.left() <= 5:
                break
        if not reduced:
            if chunks >= len(calls):
                break
            chunks = min(chunks * 2, len(calls))
    return best


def _retry(session: Session, best: Difference, calls: list[object]) -> Difference | None:
    found = first_difference(session, best.trajectory.with_calls(calls), aspect=best.aspect,
                             group=best.group)
    return found if found is not None and found.group == best.group else None
