"""What the grader observes of a game through the generic API, one move at a time.

The same function runs on the reference (in the grader) and on a plugin submission (in its
sandbox), so the two observations are comparable key by key: whether the game is over and
whose turn it is, the set of legal moves (a digest, or the list in ``detail``), how the move
was taken (``ok``, ``illegal``, ``unreadable`` or the error it raised), that a refusal
changed nothing, the move's events (kind and seat), the outcome, and on some moves that
saving and reloading (``s``) and undo (``u``) give back the same position.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator
from typing import Any

from hexkit.errors import IllegalMoveError, MoveParseError
from hexkit.game import Game, State

Observation = dict[str, Any]


def what(exc: BaseException) -> str:
    """``ValueError: message`` in one line (at most 200 characters)."""
    lines = str(exc).strip().splitlines()
    text = f"{type(exc).__name__}: {lines[0]}" if lines else type(exc).__name__
    return text if len(text) <= 200 else text[:197] + "..."


def attempt(function: Callable[[], Any]) -> tuple[bool, Any]:
    """(True, value) or (False, "error: Type: message") for anything the call raises."""
    try:
        return True, function()
    except BaseException as exc:  # a submission may raise anything, SystemExit included
        return False, f"error: {what(exc)}"


def digest(items: list[str]) -> str:
    """A short fingerprint of a sorted list of moves, with its length."""
    data = "\n".join(items).encode("utf-8", "replace")
    return f"{len(items)}:{hashlib.blake2b(data, digest_size=8).hexdigest()}"


def _legal(state: State) -> tuple[bool, Any]:
    return attempt(lambda: sorted(str(m) for m in state.legal_moves()))


def _snapshot(state: State) -> Any:
    ok, data = attempt(lambda: json.loads(json.dumps(state.to_dict(), default=str)))
    return data if ok else None


def observe(game: Game, state: State, text: str, checks: str, detail: bool) -> Observation:
    """Play ``text`` on ``state`` and say what happened (the state is left after it)."""
    obs: Observation = {}
    ok, over = attempt(state.is_over)
    if not ok:
        return {"over": over}
    obs["over"] = bool(over)
    if not over:
        obs["turn"] = attempt(lambda: state.current_player)[1]
    ok, legal = _legal(state)
    obs["legal"] = legal if (detail or not ok) else digest(legal)
    refusal_expected = not ok or text not in legal
    before = _snapshot(state) if refusal_expected or "u" in checks else None
    try:
        state.push(text)
        result = "ok"
    except MoveParseError:
        result = "unreadable"
    except IllegalMoveError:
        result = "illegal"
    except BaseException as exc:
        result = f"error: {what(exc)}"
    obs["result"] = result
    if result in ("unreadable", "illegal"):
        if before is not None:
            obs["kept"] = _snapshot(state) == before
        return obs
    if result != "ok":
        return obs
    ok, events = attempt(lambda: [[e.kind, e.seat] for e in state.events()])
    obs["events"] = events
    ok, outcome = attempt(state.outcome)
    if not ok:
        obs["end"] = outcome
    else:
        obs["end"] = None if outcome is None else sorted(int(w) for w in outcome.winners)
    if "u" in checks:
        obs["undo"] = _check_undo(state, text, before)
    return obs


def reloaded(game: Game, state: State) -> tuple[str, State]:
    """``("ok", twin)`` if ``state_from_dict(to_dict())`` (through JSON) is the same
    position, else what differs and ``state``. The game goes on from the twin, so that a
    position saved without something it needs shows later on too."""
    ok, data = attempt(lambda: json.loads(json.dumps(state.to_dict(), default=str)))
    if not ok:
        return f"to_dict() failed: {data}", state
    ok, twin = attempt(lambda: game.state_from_dict(data))
    if not ok:
        return f"state_from_dict(to_dict()) failed: {twin}", state
    if _snapshot(twin) != data:
        return "state_from_dict(to_dict()).to_dict() is not the saved data", state
    if _legal(twin) != _legal(state):
        return "the reloaded position has other legal moves", state
    if attempt(twin.outcome) != attempt(state.outcome):
        return "the reloaded position has another outcome", state
    if not state.is_over() and attempt(lambda: twin.current_player) != attempt(
            lambda: state.current_player):
        return "in the reloaded position another player is to move", state
    return "ok", twin


def play(game: Game, state: State, calls: list[list[str]], detail: bool
         ) -> Iterator[Observation]:
    """Observe every call of a trajectory; after a move marked ``s`` the game goes on from
    its saved and reloaded copy."""
    for text, checks in calls:
        obs = observe(game, state, str(text), str(checks), detail)
        if "s" in checks and obs.get("result") == "ok":
            obs["saved"], state = reloaded(game, state)
        yield obs


def _check_undo(state: State, text: str, before: Any) -> str:
    """``ok`` if popping the move gives back the position before it (then it is pushed
    again, so the trajectory goes on)."""
    ok, popped = attempt(state.pop)
    if not ok:
        return f"pop() failed: {popped}"
    back = _snapshot(state)
    verdict = "ok" if back == before else "pop() did not give back the position before the move"
    ok, again = attempt(lambda: state.push(text))
    if not ok:
        return f"the move was refused after pop(): {again}"
    return verdict
