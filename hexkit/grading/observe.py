"""What the grader observes of a game through the generic API, one move at a time.

The same function runs on the reference (in the grader) and on a plugin submission (in its
sandbox), so the two observations are comparable key by key: whether the game is over and
whose turn it is, the set of legal moves (a digest, or the list in ``detail``; apart, for
reports only, the digests of those on the board and those from a hand), how the move
was taken (``ok``, ``illegal``, ``unreadable`` or the error it raised), that a refusal
changed nothing, the move's events (kind and seat), the outcome, and on some moves that
saving and reloading (``s``) and undo (``u``) give back the same position. A copy saved and
reloaded then plays the following moves beside the game: where the two part, the save lost
something that no query showed at once (captures that decide the game later).
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


def _from_hand(state: State, move: Any) -> bool:
    """True if the move brings a piece from a hand or reserve (its gesture starts off the
    board), False for a move on the board (or a game without gestures)."""
    ok, gesture = attempt(lambda: state.gesture(move))
    origin = getattr(gesture, "origin", None) if ok else None
    return origin is not None and not isinstance(origin, tuple)


def _split(state: State, moves: list[Any], texts: list[str]) -> list[str]:
    """Digests of the legal moves on the board and of those from a hand or reserve, so
    that a difference in the list says which rules it touches (``texts``: the moves
    written, in the same order)."""
    hand = [_from_hand(state, m) for m in moves]
    return [digest(sorted(t for t, h in zip(texts, hand, strict=True) if not h)),
            digest(sorted(t for t, h in zip(texts, hand, strict=True) if h))]


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
    ok, moves = attempt(lambda: list(state.legal_moves()))
    legal = moves
    texts: list[str] = []
    if ok:
        ok, texts = attempt(lambda: [str(m) for m in moves])
        legal = sorted(texts) if ok else texts
    obs["legal"] = legal if (detail or not ok) else digest(legal)
    if ok:
        # Not compared (a game need not have gestures): it says which rules a difference
        # in the legal moves touches.
        obs["_split"] = attempt(lambda: _split(state, moves, texts))[1]
    refusal_expected = not ok or text not in legal
    before = _snapshot(state) if refusal_expected or "u" in checks else None
    result = obs["result"] = _push(state, text)
    if result in ("unreadable", "illegal"):
        if before is not None:
            obs["kept"] = _snapshot(state) == before
        return obs
    if result != "ok":
        return obs
    ok, events = attempt(lambda: [[e.kind, e.seat] for e in state.events()])
    obs["events"] = events
    obs["end"] = _end(state)
    if "u" in checks:
        obs["undo"] = _check_undo(state, text, before)
    return obs


def _push(state: State, text: str) -> str:
    """Play a move: ``ok``, ``unreadable``, ``illegal`` or the error it raised."""
    try:
        state.push(text)
    except MoveParseError:
        return "unreadable"
    except IllegalMoveError:
        return "illegal"
    except BaseException as exc:
        return f"error: {what(exc)}"
    return "ok"


def _end(state: State) -> Any:
    """The winners' seats if the game is over, None if it goes on (or the error)."""
    ok, outcome = attempt(state.outcome)
    if not ok:
        return outcome
    return None if outcome is None else sorted(int(w) for w in outcome.winners)


def reloaded(game: Game, state: State) -> tuple[str, State]:
    """``("ok", twin)`` if ``state_from_dict(to_dict())`` (through JSON) is the same
    position, else what differs and ``state``."""
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
    """Observe every call of a trajectory. After a move marked ``s``, its saved and
    reloaded copy plays the same moves beside the game, until the two part (``saved``
    then says how) or the next save."""
    twin: State | None = None
    saved_at = 0
    for number, (text, checks) in enumerate(calls, 1):
        obs = observe(game, state, str(text), str(checks), detail)
        if twin is not None:
            parted = _follow(twin, state, str(text), str(checks), obs)
            if parted:
                obs["saved"] = (f"the game saved and reloaded after move {saved_at} "
                                f"{parted} (the game itself did not)")
                twin = None
        if "s" in checks and obs.get("result") == "ok":
            verdict, copy = reloaded(game, state)
            obs.setdefault("saved", verdict)
            twin, saved_at = (copy, number) if verdict == "ok" and copy is not state else \
                (None, 0)
        yield obs


def _follow(twin: State, state: State, text: str, checks: str, obs: Observation
            ) -> str | None:
    """Play the move on the reloaded copy too (and undo and redo it where the game did):
    how it went otherwise there, or None."""
    result = _push(twin, text)
    if result != obs.get("result"):
        return f"took this move otherwise: {result}, not {obs.get('result')}"
    if result != "ok":
        return None
    if "u" in checks:
        attempt(twin.pop)
        attempt(lambda: twin.push(text))
    end = _end(twin)
    if end != obs.get("end"):
        return (f"ended otherwise after this move: {'the game goes on' if end is None else end}"
                f", not {'the game goes on' if obs.get('end') is None else obs.get('end')}")
    if end is None and attempt(lambda: twin.current_player) != attempt(
            lambda: state.current_player):
        return "had another player to move after this move"
    return None


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
