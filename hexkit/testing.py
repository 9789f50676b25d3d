"""The conformance kit for plugin authors: ``check_game(name, **options)``.

It plays seeded random games through the generic API and checks the contract every
service relies on. Use it straight from a pytest test::

    from hexkit.testing import check_game

    def test_my_game_follows_the_hexkit_api():
        check_game("mygame", size=5)

A broken rule raises :class:`ConformanceError` (an AssertionError) saying which check
failed, in which game, after which moves. Besides the moves, saving, copies and undo, it
checks what user interfaces rely on: every move's gesture starts and ends at cells of the
state's view (or in a hand the view shows), ``moves_from`` lists exactly the moves of each
origin, and events are JSON-safe and name cells of the view. Legal moves are listed once
each, and the same moves from the same seed give the same outcome after saving and reloading
half way.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from hexkit.errors import IllegalMoveError, MoveParseError
from hexkit.game import Game, Move, Outcome, State
from hexkit.kit.gestures import Hand

#: Positions per game whose gestures are all checked against the view (every 7th move).
GESTURE_CHECKS = 4

#: Legal moves per position that :func:`check_game` pushes and pops by default (a seeded
#: sample; ``pushes=None`` pushes every one, as ``benchmarks/conformance_full.py`` does).
PUSHES = 24

#: Texts that are no move in any sensible notation.
JUNK_TEXTS: tuple[str, ...] = (
    "", "   ", "@@@", "xyzzy plugh frobozz", "\x00\x01", "((((", "-", "?!", "9" * 40,
    "move", "place", "☃",
)


class ConformanceError(AssertionError):
    """A game broke the generic API contract."""


@dataclass
class ConformanceReport:
    """What :func:`check_game` played."""

    game: str
    games: int = 0
    moves: int = 0
    finished: int = 0
    outcomes: list[Outcome | None] = field(default_factory=list)

    def __str__(self) -> str:
        return (
            f"{self.game}: {self.games} games, {self.moves} moves, "
            f"{self.finished} played to the end"
        )


def check_game(
    name: str | Game,
    *,
    games: int = 3,
    seed: int = 0,
    max_moves: int = 400,
    sample: int = 6,
    pushes: int | None = PUSHES,
    registry: Any = None,
    **options: Any,
) -> ConformanceReport:
    """Play ``games`` seeded random games of ``name`` and check the API contract.

    ``max_moves`` caps each game (a cap reached is not a failure); ``sample`` is how many
    legal moves per position get the expensive checks (round trips and undo); ``pushes`` is
    how many legal moves per position are pushed and popped, the sampled ones among them
    (``None``: every legal move). The samples are seeded and never change the moves
    played. ``registry`` (a :class:`hexkit.plugins.Registry`) defaults to the installed
    plugins.
    """
    if isinstance(name, Game):
        game = name
    else:
        if registry is None:
            from hexkit import plugins

            registry = plugins.registry()
        game = registry.load_game(name, **options)
    report = ConformanceReport(str(game))
    for g in range(games):
        game_seed = seed + g
        moves = _play_one(game, game_seed, max_moves, sample, report, pushes=pushes)
        _check_determinism(game, game_seed, moves)
    return report


def _fail(game: Game, seed: int, moves: Sequence[Move], message: str) -> ConformanceError:
    played = " ".join(str(m) for m in moves[-12:])
    more = "... " if len(moves) > 12 else ""
    return ConformanceError(
        f"{game} (seed {seed}, after {len(moves)} moves: {more}{played}): {message}"
    )


def play_checked_game(game: Game, seed: int, *, max_moves: int = 400, sample: int = 6,
                      thorough: bool = True, every: int = 7,
                      report: ConformanceReport | None = None) -> list[Move]:
    """Play one seeded random game of ``game`` checking the API contract as it goes
    (ConformanceError on the first breach); returns the moves played.

    ``thorough`` also pushes and pops every legal move of every position and checks the
    gestures (what :func:`check_game` does); without it only the move played is pushed, for
    long soaks. Saving, reloading and copying are checked every ``every`` moves and at the
    end. ``report`` collects the counts."""
    if report is None:
        report = ConformanceReport(str(game))
    return _play_one(game, seed, max_moves, sample, report, thorough=thorough, every=every)


def _play_one(game: Game, seed: int, max_moves: int, sample: int,
              report: ConformanceReport, *, thorough: bool = True,
              every: int = 7, pushes: int | None = None) -> list[Move]:
    state = game.new_state(seed=seed)
    chooser = random.Random(seed * 7919 + 1)
    # Its own generator: how many moves are pushed never changes the moves played.
    pusher = random.Random(seed * 7919 + 2)
    played: list[Move] = []
    report.games += 1

    def fail(message: str) -> ConformanceError:
        return _fail(game, seed, played, message)

    _check_junk(state, fail)
    _check_serialisation(game, state, fail)
    for _ in range(max_moves):
        over = state.is_over()
        outcome = state.outcome()
        if over != (outcome is not None):
            raise fail(f"is_over() is {over} but outcome() is {outcome!r}")
        if over:
            assert outcome is not None
            bad = [w for w in outcome.winners if not 0 <= w < len(state.players)]
            if bad:
                raise fail(f"outcome names seats {bad} but the game has {len(state.players)}")
            report.finished += 1
            report.outcomes.append(outcome)
            return played
        legal = list(state.legal_moves())
        if not legal:
            raise fail("legal_moves() is empty but the game is not over")
        if len(set(legal)) != len(legal):
            seen: set[Move] = set()
            for m in legal:
                if m in seen:
                    raise fail(f"legal_moves() lists {m} more than once")
                seen.add(m)
        if not 0 <= state.current_player < len(state.players):
            raise fail(f"current_player {state.current_player} is not a seat")
        if thorough:
            before = state.to_dict()
            picture = state.render()
            if report.moves % 7 == 0 and report.moves // 7 < GESTURE_CHECKS:
                _check_gestures(state, legal, fail)
            chosen = set(chooser.sample(range(len(legal)), min(sample, len(legal))))
            pushed: Sequence[int] = range(len(legal))
            if pushes is not None and len(legal) > max(pushes, len(chosen)):
                others = [i for i in pushed if i not in chosen]
                pushed = sorted(chosen.union(
                    pusher.sample(others, max(pushes - len(chosen), 0))))
            for i in pushed:
                _check_move(game, state, legal[i], before,
                            picture if i in chosen else None, fail)
        move = legal[chooser.randrange(len(legal))]
        depth = len(state.move_stack)
        state.push(move)
        if len(state.move_stack) != depth + 1:
            raise fail(f"push({move}) did not add one move to move_stack")
        played.append(move)
        report.moves += 1
        _check_events(state, fail)
        if report.moves % every == 0:
            _check_serialisation(game, state, fail)
            _check_copy(state, fail)
    _check_serialisation(game, state, fail)
    _check_copy(state, fail)
    report.outcomes.append(state.outcome())
    return played


def _check_move(game: Game, state: State, move: Move, before: dict[str, Any],
                picture: str | None, fail: Any) -> None:
    """Every legal move pushes and pops; for the sampled ones (``picture``, the position as
    text, is given), also the notation's round trip, saving after it, and that push then
    pop restores the position exactly: its saved form and its picture."""
    deep = picture is not None
    text = str(move)
    if deep:
        try:
            parsed = state.parse_move(text)
        except MoveParseError as exc:
            raise fail(f"str(move) {text!r} does not parse back: {exc}") from None
        if parsed != move:
            raise fail(f"parse_move(str(move)) gives {parsed!r}, not {move!r} ({text!r})")
    depth = len(state.move_stack)
    try:
        state.push(move)
    except IllegalMoveError as exc:
        raise fail(f"legal move {text!r} was refused: {exc}") from None
    if len(state.move_stack) != depth + 1:
        raise fail(f"push({text!r}) did not add one move to move_stack")
    if deep:
        _check_serialisation(game, state, fail)
    undone = state.pop()
    if undone != move:
        raise fail(f"pop() after push({text!r}) returned {undone!r}")
    if deep and state.to_dict() != before:
        raise fail(f"push({text!r}) then pop() does not restore to_dict() exactly")
    if deep and state.render() != picture:
        raise fail(f"push({text!r}) then pop() does not restore the position: render() "
                   "differs")


def _check_gestures(state: State, legal: Sequence[Move], fail: Any) -> None:
    """Gestures use the view's cells and hands, and ``moves_from`` finds every move."""
    view = state.view()
    cells = {c.at for c in view.cells}
    hands = {(h.seat, h.kind) for h in view.hands}
    by_origin: dict[Any, list[Move]] = {}
    for move in legal:
        g = state.gesture(move)
        origin = None if g is None else g.origin
        if g is not None and cells:
            if g.target is not None and tuple(g.target) not in cells:
                raise fail(f"the gesture of {move} ends at {g.target}, not a cell of view()")
            if isinstance(origin, Hand):
                # A view that shows no hands at all leaves them to the user interface.
                if hands and (origin.seat, origin.kind) not in hands:
                    raise fail(f"the gesture of {move} starts in {origin}, but view().hands "
                               "shows no such hand")
            elif origin is not None and tuple(origin) not in cells:
                raise fail(f"the gesture of {move} starts at {origin}, not a cell of view()")
        by_origin.setdefault(origin, []).append(move)
    for origin, moves in by_origin.items():
        found = state.moves_from(origin)
        if sorted(map(str, found)) != sorted(map(str, moves)):
            raise fail(f"moves_from({origin!r}) lists {len(found)} moves, but {len(moves)} "
                       "legal moves start there")


def _check_events(state: State, fail: Any) -> None:
    """The last move's events are game events, JSON-safe."""
    for event in state.events():
        try:
            json.dumps(event.to_dict())
        except (TypeError, ValueError, AttributeError) as exc:
            raise fail(f"event {event!r} is not a JSON-safe GameEvent: {exc}") from None


def _check_junk(state: State, fail: Any) -> None:
    before = state.to_dict()
    for junk in JUNK_TEXTS:
        try:
            state.parse_move(junk)
        except MoveParseError as exc:
            if not isinstance(exc, ValueError):
                raise fail("MoveParseError must be a ValueError") from None
            if "\n" in str(exc):
                raise fail(f"the error for {junk!r} is not one line: {exc!r}") from None
        else:
            raise fail(f"junk text {junk!r} parsed as a move")
        try:
            state.push(junk)
        except MoveParseError:
            pass
        else:
            raise fail(f"push({junk!r}) was accepted")
        if state.to_dict() != before:
            raise fail(f"refusing junk {junk!r} changed the state")


def _check_serialisation(game: Game, state: State, fail: Any) -> None:
    data = state.to_dict()
    try:
        text = json.dumps(data, sort_keys=True)
    except (TypeError, ValueError) as exc:
        raise fail(f"to_dict() is not JSON-safe: {exc}") from None
    if json.loads(text) != data:
        raise fail("to_dict() does not survive a JSON round trip unchanged")
    restored = game.state_from_dict(json.loads(text))
    if restored.to_dict() != data:
        raise fail("state_from_dict(to_dict()) gives a different to_dict()")
    if restored.current_player != state.current_player:
        raise fail("state_from_dict() changes current_player")
    if restored.is_over() != state.is_over():
        raise fail("state_from_dict() changes is_over()")
    mine = sorted(str(m) for m in state.legal_moves())
    theirs = sorted(str(m) for m in restored.legal_moves())
    if mine != theirs:
        raise fail("state_from_dict() changes the legal moves")


def _check_copy(state: State, fail: Any) -> None:
    before = state.to_dict()
    picture = state.render()
    twin = state.copy()
    if twin.to_dict() != before or twin.render() != picture:
        raise fail("copy() differs from the original")
    legal = twin.legal_moves()
    if legal:
        twin.push(legal[0])
        if state.to_dict() != before or state.render() != picture:
            raise fail("pushing on a copy changed the original")
        twin.pop()
        if twin.render() != picture:
            raise fail("a copy does not undo its own move exactly")


def _check_determinism(game: Game, seed: int, moves: Sequence[Move]) -> None:
    a = game.new_state(seed=seed)
    b = game.new_state(seed=seed)
    if a.to_dict() != b.to_dict():
        raise _fail(game, seed, [], "two new states with the same seed differ")
    for i, move in enumerate(moves):
        a.push(str(move))
        b.push(move)
        if a.to_dict() != b.to_dict():
            raise _fail(game, seed, list(moves[: i + 1]),
                        "the same seed and moves gave different states")
    # Saved half way and reloaded, the same moves lead to the same end.
    half = len(moves) // 2
    c = game.new_state(seed=seed)
    for move in moves[:half]:
        c.push(move)
    c = game.state_from_dict(json.loads(json.dumps(c.to_dict())))
    for move in moves[half:]:
        c.push(str(move))
    if c.outcome() != a.outcome() or c.to_dict() != a.to_dict():
        raise _fail(game, seed, list(moves),
                    "saved and reloaded half way, the same moves give another outcome")
