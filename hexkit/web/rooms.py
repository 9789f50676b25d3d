"""Games in progress on a ``hexkit serve`` server: seats, tokens, moves, undo, saving.

A :class:`Room` is one game: the rules (:class:`~hexkit.game.Game`), the live state, who
sits in each seat (a person holding a secret token, a bot, or nobody yet), who owns the
game, and the narrated log of the moves. Every change is saved at once, atomically, as a
plain game record (``ID.json``, readable by ``hexkit replay``) beside a small file of the
seats (``ID.seats.json``: seat specs and the SHA-256 of each token, never the token
itself, and the play beyond the rules: clocks, endings, offers, :mod:`hexkit.web.play`),
so a server that stops loses no game (:mod:`hexkit.web.storage`). A move whose
save fails is taken back before it is refused. Nothing here knows a game or a web
framework.

What a browser is sent is computed once per change (:meth:`Room.publish`: the whole state
for a browser that just came, and what changed for those that hold the one before; the
pictures of earlier moves once each), however many browsers ask.

:class:`RoomStore` runs every change of a room in a worker thread, one at a time per
room: the rules, the durable save (:meth:`Storage.commit`) and the new pictures never run
on the server's event loop, and a move is announced once it is saved. Games are loaded
when first opened; with a storage that several processes share, each change first
catches up with what the others committed, and a commit that lost the race is retried on
the fresh game.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import os
import re
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import lru_cache, partial
from itertools import chain
from pathlib import Path
from typing import Any, TypeVar

from hexkit.errors import HexkitError
from hexkit.files.records import GameRecord, replay_steps
from hexkit.game import Game, Move, State, result_text
from hexkit.kit.gestures import Gesture, Hand, Origin
from hexkit.kit.refusals import push_or_refusal
from hexkit.kit.view import BoardView, CellView
from hexkit.web.play import PlayError, PlayFlow, TimeControl
from hexkit.web.storage import SEATS_FORMAT, Conflict, FolderStorage, IndexRow, Storage

T = TypeVar("T")
log = logging.getLogger("hexkit.web")

#: A room's id: lower-case hex, so that it is safe in a file name and a URL.
ROOM_ID = re.compile(r"[0-9a-f]{10}\Z")
#: The seat spec of a person (as in ``hexkit play``).
HUMAN = "human"
#: At most this many seats (the CLI's limit too).
MAX_SEATS = 8
#: Pictures of earlier moves kept per game.
PICTURES_KEPT = 16


class RoomError(HexkitError):
    """A request a room refuses, in one line; ``status`` is the HTTP status that fits."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


def hash_token(token: str) -> str:
    """The SHA-256 of a seat's token (what is stored)."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def saving_refusal(exc: BaseException) -> str:
    """Why a save failed, in words that name no server file."""
    if isinstance(exc, OSError):
        reason = (exc.strerror or type(exc).__name__).lower()
    else:
        reason = "another program holds this game's file" if "another hexkit process" \
            in str(exc) else type(exc).__name__
    return f"refused: the game could not be saved ({reason}); nothing changed"


@dataclass
class Seat:
    """One seat: ``spec`` is ``human`` or a bot spec (``random``, ``mcts:200``) or an
    engine's name; a human seat is free until someone takes it (``token_hash`` set), and
    ``player`` is the account that took it (shown on the board), if any."""

    spec: str
    token_hash: str | None = None
    bot: Any = None
    player: str = ""

    @property
    def is_human(self) -> bool:
        return self.bot is None

    def holds(self, token: str) -> bool:
        """True when ``token`` is this seat's secret."""
        if self.token_hash is None or not isinstance(token, str):
            return False
        return hmac.compare_digest(self.token_hash, hash_token(token))


@dataclass
class LogEntry:
    """One move as the page narrates it; ``mark``, the move's gesture as the last-move
    marks show it (``origin``, ``target``, ``via``), when it was known as the move was
    played (else :meth:`Room.last_marks` works it out)."""

    seat: int
    move: str
    events: list[dict[str, Any]]
    mark: dict[str, Any] | None = field(default=None, repr=False, compare=False)
    _shown: tuple[int, dict[str, Any]] | None = field(default=None, repr=False,
                                                      compare=False)

    def to_dict(self, players: tuple[str, ...], ply: int) -> dict[str, Any]:
        """The entry as the page shows it (made once: an entry never changes)."""
        if self._shown is None or self._shown[0] != ply:
            name = players[self.seat] if 0 <= self.seat < len(players) else ""
            self._shown = (ply, {"ply": ply, "seat": self.seat, "player": name,
                                 "move": self.move, "events": self.events})
        return self._shown[1]


@dataclass
class Owner:
    """Who made a game: the client it came from (an account or an address), the account if
    signed in, and the SHA-256 of the owner's secret (stop and delete)."""

    client: str = ""
    account: str = ""
    token_hash: str = ""

    def to_dict(self) -> dict[str, str]:
        return {"client": self.client, "account": self.account,
                "token_sha256": self.token_hash}

    @classmethod
    def from_dict(cls, data: Any) -> Owner:
        if not isinstance(data, Mapping):
            return cls()
        token = str(data.get("token_sha256") or "")
        return cls(str(data.get("client") or "")[:200], str(data.get("account") or "")[:100],
                   token if re.fullmatch(r"[0-9a-f]{64}", token) else "")


@dataclass
class Published:
    """What browsers are sent for one version of a room: ``full``, the whole state (a
    browser that just came, or fell behind); ``base``, the version published before, and
    what changed since then: ``mover`` for the browsers holding the seat to move (with its
    legal moves), ``others`` for everyone else."""

    version: int
    data: dict[str, Any]
    base: int | None = None
    mover: str | None = None
    others: str | None = None
    _full: str | None = field(default=None, repr=False)
    _moves: str | None = field(default=None, repr=False)
    _by_text: dict[str, dict[str, Any]] | None = field(default=None, repr=False)
    #: The legal moves as JSON (their entries' texts joined).
    moves_text: str = field(default="", repr=False)
    #: The SVG's lines and where its parts start (:func:`~hexkit.render.svg.svg_lines`).
    lines: list[str] = field(default_factory=list, repr=False)
    blocks: list[int] = field(default_factory=list, repr=False)

    @property
    def full(self) -> str:
        """The whole state as JSON (made when a browser first needs it)."""
        if self._full is None:
            self._full = json.dumps(self.data)
        return self._full

    @property
    def moves(self) -> str:
        """The legal moves as a ``moves`` message (made when a browser first asks)."""
        if self._moves is None:
            self._moves = (f'{{"type": "moves", "version": {self.version}, "moves": '
                           f'{self.moves_text}}}') if self.moves_text else \
                json.dumps({"type": "moves", "version": self.version,
                            "moves": self.data["moves"]})
        return self._moves

    def move_named(self, text: str) -> dict[str, Any] | None:
        """The legal move whose notation is ``text``, as published (None if none)."""
        if self._by_text is None:
            self._by_text = {m["text"]: m for m in self.data["moves"]}
        return self._by_text.get(text)


def svg_patch(before: str, now: str) -> list[list[Any]] | None:
    """``now`` as line splices of ``before``: ``[[start, end, [lines]], ...]`` in order
    (lines ``start`` to ``end`` of ``before`` become ``lines``; applied from the last),
    or None when that is not shorter than ``now`` itself."""
    import difflib

    old, new = before.split("\n"), now.split("\n")
    # The lines around the changes are the same: only the middle goes through difflib.
    head, most = 0, min(len(old), len(new))
    while head < most and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < most - head and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    middle_old, middle_new = old[head:len(old) - tail], new[head:len(new) - tail]
    matcher = difflib.SequenceMatcher(None, middle_old, middle_new, autojunk=False)
    patch: list[list[Any]] = [[head + i1, head + i2, middle_new[j1:j2]]
             for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"]
    size = sum(len(line) + 8 for _, _, lines in patch for line in lines) + 12 * len(patch)
    return patch if size < len(now) // 2 else None


def block_patch(old: list[str], old_blocks: list[int], new: list[str],
                new_blocks: list[int]) -> list[list[Any]] | None:
    """:func:`svg_patch`'s splices made part by part: two pictures of one board have as
    many parts (:func:`~hexkit.render.svg.svg_lines`), and only the lines that differ
    within the parts that differ are sent (neighbours merged into one splice). None when
    the parts do not pair up (the board's frame, its cells and where they are drawn,
    changed: :func:`svg_patch` then compares the lines) or when the splices are not
    shorter than half the picture."""
    if len(old_blocks) < 2 or len(old_blocks) != len(new_blocks) or \
            old[old_blocks[0]:old_blocks[1]] != new[new_blocks[0]:new_blocks[1]]:
        return None  # not the same cells in the same places
    patch: list[list[Any]] = []
    old_ends = [*old_blocks[1:], len(old)]
    new_ends = [*new_blocks[1:], len(new)]
    # The lines before the first part, then each part, compared in place.
    pairs = zip([0, *old_blocks], [old_blocks[0], *old_ends],
                [0, *new_blocks], [new_blocks[0], *new_ends], strict=True)
    for a, b, c, d in pairs:
        if b - a == d - c and old[a:b] == new[c:d]:
            continue
        # Within a part, the lines that stay (a pile's lower pieces) are not sent.
        while a < b and c < d and old[a] == new[c]:
            a, c = a + 1, c + 1
        while a < b and c < d and old[b - 1] == new[d - 1]:
            b, d = b - 1, d - 1
        if patch and patch[-1][1] == a:
            patch[-1][1] = b
            patch[-1][2].extend(new[c:d])
        else:
            patch.append([a, b, new[c:d]])
    size = sum(len(line) + 8 for _, _, lines in patch for line in lines) + 12 * len(patch)
    return patch if size < sum(len(line) + 1 for line in new) // 2 else None


def change_message(before: dict[str, Any], now: dict[str, Any], with_moves: bool,
                   patch: list[list[Any]] | None = None) -> dict[str, Any]:
    """What changed from the state ``before`` to ``now`` (both :meth:`Room.snapshot`
    dicts): every other field that differs (the SVG as ``svg_patch``, the line splices of
    :func:`svg_patch`, when given), the log from the first entry that differs, and the
    legal moves when the turn or the moves changed (the list for the seat to move, ``[]``
    for the others)."""
    out: dict[str, Any] = {"type": "change", "base": before["version"],
                           "version": now["version"]}
    for key, value in now.items():
        if key not in ("type", "version", "log", "moves") and before.get(key) != value:
            out[key] = value
    if patch is not None and "svg" in out:
        del out["svg"]
        out["svg_patch"] = patch
    old, new = before["log"], now["log"]
    same = min(len(old), len(new))
    while same and old[same - 1] != new[same - 1]:
        same -= 1
    if same != len(old) or same != len(new):
        out["log_from"], out["log"] = same, new[same:]
    if before["turn"] != now["turn"] or before["moves"] != now["moves"]:
        out["moves"] = now["moves"] if with_moves else []
    return out


def change_texts(before: dict[str, Any], now: dict[str, Any],
                 patch: list[list[Any]] | None, moves_text: str = "") -> tuple[str, str]:
    """:func:`change_message` as JSON for the browsers holding the seat to move and for
    the others: what they share is encoded once, the legal moves spliced in (``moves_text``,
    their JSON when it is known)."""
    shared = change_message(before, now, False, patch)
    if "moves" not in shared:
        text = json.dumps(shared)
        return text, text
    del shared["moves"]
    head = json.dumps(shared)[:-1]
    return (f'{head}, "moves": {moves_text or json.dumps(now["moves"])}}}',
            f'{head}, "moves": []}}')


@dataclass
class Room:
    """One game in progress (or finished) on the server."""

    id: str
    game: Game
    record: GameRecord
    state: State
    seats: list[Seat]
    created: float
    log: list[LogEntry] = field(default_factory=list)
    #: The seat that asked the others to take back moves, if any.
    undo_request: int | None = None
    #: The bot seat working on a move (shown as "thinking").
    thinking: int | None = None
    #: Goes up with every change: a bot's move for an older version is dropped.
    version: int = 0
    storage: Storage | None = None
    owner: Owner = field(default_factory=Owner)
    #: Why the game was stopped before its end (by its owner, an admin, the ply cap).
    stopped: str = ""
    #: A line about the last bot move the page should show (a bot out of time).
    notice: str = ""
    #: When the game was last changed (archiving idle finished games).
    touched: float = field(default_factory=time.time)
    #: The storage's number of the last change this room holds (see Storage.commit).
    seq: int = 0
    #: What browsers were last sent (made by :meth:`publish`, in a worker).
    published: Published | None = field(default=None, repr=False)
    #: One change at a time (made on the event loop by the RoomStore).
    lock: asyncio.Lock | None = field(default=None, repr=False)
    #: The version last sent to browsers, the seq last told to other processes.
    announced: int = -1
    told: int = 0
    #: The highest seq other processes said they committed (their broadcast).
    heard: int = 0
    #: Clocks, resignation, draw offers, rematch (:mod:`hexkit.web.play`).
    play_flow: PlayFlow | None = None
    _pictures: OrderedDict[tuple[int, int, str], Any] = field(
        default_factory=OrderedDict, repr=False)
    #: Set by the RoomStore while a change runs: tells the browsers at once (from the
    #: worker), as soon as a move is durable and published.
    tell: Callable[[], object] | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if self.play_flow is None:
            self.play_flow = PlayFlow(len(self.seats))

    @property
    def flow(self) -> PlayFlow:
        """The play of this game beyond its rules (clocks, endings, offers)."""
        assert self.play_flow is not None
        return self.play_flow

    # -- who is who ----------------------------------------------------------------------
    @property
    def players(self) -> tuple[str, ...]:
        return tuple(self.state.players)

    @property
    def folder(self) -> Path | None:
        return getattr(self.storage, "folder", None)

    @property
    def finished(self) -> bool:
        """Over by the rules, ended by play (resigned, out of time, a draw agreed), or
        stopped."""
        return bool(self.stopped) or self.flow.ended is not None or self.state.is_over()

    @property
    def has_person(self) -> bool:
        return any(s.is_human for s in self.seats)

    def seat_of(self, token: Any) -> int:
        """The seat that ``token`` holds (RoomError 403 if none)."""
        if isinstance(token, str) and token:
            for i, seat in enumerate(self.seats):
                if seat.holds(token):
                    return i
        raise RoomError("that token holds no seat of this game: only a seat's player "
                        "can act for it", 403)

    def seats_of(self, tokens: Iterable[Any]) -> set[int]:
        return {i for i, seat in enumerate(self.seats) for t in tokens if seat.holds(t)}

    def held_by(self, tokens: Any) -> list[int | None]:
        """For each token of a list (at most 16), the seat it holds or None: a browser
        checks the tokens it keeps (or got from a seat link) and forgets those that hold
        nothing."""
        if not isinstance(tokens, list) or len(tokens) > 16:
            raise RoomError("send {\"tokens\": [TOKEN, ...]} (at most 16)")
        return [next((i for i, seat in enumerate(self.seats) if seat.holds(token)), None)
                for token in tokens]

    def check_seat(self, seat: Any) -> int:
        """``seat`` if it is a free human seat (RoomError otherwise, changing nothing)."""
        if not isinstance(seat, int) or isinstance(seat, bool) or \
                not 0 <= seat < len(self.seats):
            shown = seat if isinstance(seat, int | str) and len(str(seat)) <= 20 else "?"
            raise RoomError(f"there is no seat {shown!r} in this game (seats 0 to "
                            f"{len(self.seats) - 1})")
        chosen = self.seats[seat]
        if not chosen.is_human:
            raise RoomError(f"seat {seat} ({self.players[seat]}) is played by the bot "
                            f"{chosen.spec}", 409)
        if chosen.token_hash is not None:
            raise RoomError(f"seat {seat} ({self.players[seat]}) is already taken", 409)
        return seat

    def take_seat(self, seat: Any, player: str = "") -> str:
        """Give the free human seat ``seat`` a new secret token and return it; ``player``
        is the account taking it (shown on the board)."""
        seat = self.check_seat(seat)
        chosen = self.seats[seat]
        token = secrets.token_urlsafe(24)
        chosen.token_hash, chosen.player = hash_token(token), player
        try:
            self.save_seats()
        except Conflict:
            chosen.token_hash, chosen.player = None, ""
            raise
        except (HexkitError, OSError) as exc:
            chosen.token_hash, chosen.player = None, ""
            raise RoomError(saving_refusal(exc), 503) from None
        self.version += 1
        return token

    def free_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.is_human and s.token_hash is None]

    def owned_by(self, account: str | None, token: Any) -> bool:
        """True for the game's owner: its account, or the holder of its owner secret."""
        if account and self.owner.account and account == self.owner.account:
            return True
        return bool(isinstance(token, str) and token and self.owner.token_hash
                    and hmac.compare_digest(self.owner.token_hash, hash_token(token)))

    # -- moves ---------------------------------------------------------------------------
    def play(self, token: Any, text: Any) -> str:
        """Play the move ``text`` for the seat that ``token`` holds; returns its notation.

        RoomError (one line, the terminal's wording for a refused move) and no change if
        the seat is not to act or the move cannot be read or is illegal."""
        seat = self.seat_of(token)
        if not isinstance(text, str) or not text.strip():
            raise RoomError("a move is the move's text, e.g. as listed when you click a piece")
        state = self.state
        if self.stopped:
            raise RoomError(f"the game was stopped ({self.stopped}): no more moves", 409)
        if self.finished:
            raise RoomError("the game is over: no more moves", 409)
        if self.check_time():
            raise RoomError(f"time is up: {self.result_text()}", 409)
        to_act = state.current_player
        if to_act != seat:
            raise RoomError(f"it is {self.players[to_act]}'s turn, not "
                            f"{self.players[seat]}'s", 409)
        return self._push(seat, text.strip())

    def play_bot(self, seat: int, move: Move, version: int) -> bool:
        """Play a bot's chosen move if nothing changed since it started thinking."""
        if version != self.version or self.finished or self.state.current_player != seat \
                or self.check_time():
            return False
        self._push(seat, move)
        return True

    def _push(self, seat: int, move: Move | str) -> str:
        state = self.state
        shown = self.published
        if shown is not None and (shown.version != self.version or
                                  shown.data["ply"] != len(state.move_stack)):
            shown = None  # not this position's moves
        refused = push_or_refusal(state, move, hint=" (click a piece to see its moves)")
        if refused is not None:
            raise RoomError(refused)
        asked, self.undo_request = self.undo_request, None  # a move answers it
        flow_before = self.flow.copy()
        self.flow.moved(seat, None if state.is_over() else state.current_player, time.time())
        text = str(state.move_stack[-1])
        entry = None if shown is None else shown.move_named(text)
        mark = None if entry is None else \
            {k: v for k, v in entry.items() if k not in ("text", "kind")}
        self.log.append(LogEntry(seat, text, [e.to_dict() for e in state.events()], mark))
        notice, self.notice = self.notice, ""
        version, touched = self.version, self.touched
        self.changed(save=False)
        try:
            self.save(seats=asked is not None or self.flow != flow_before,
                      durable=self._durable)
        except (HexkitError, OSError) as exc:
            # Not kept: what the server answers must be what a restart finds.
            state.pop()
            self.record.update(state)
            self.log.pop()
            self.undo_request = asked
            self.play_flow = flow_before
            self.notice = notice
            self.touched = touched
            # A version the browsers may have been told is never used again.
            shown_now = self.published
            self.version = version if shown_now is None or shown_now.version <= version \
                else self.version + 1
            if isinstance(exc, Conflict):
                raise
            raise RoomError(saving_refusal(exc), 503) from None
        return text

    def stop(self, why: str) -> None:
        """End the game here (no more moves; bots stop)."""
        if self.finished:
            return
        self.stopped = why
        flow_before = self.flow.copy()
        self.flow.game_over(time.time())
        try:
            self.save_seats()
        except BaseException:
            self.stopped = ""
            self.play_flow = flow_before
            raise
        self.changed(save=False)

    def check_time(self) -> bool:
        """End the game if the clock of the seat to act ran out (saved); True if it did."""
        flow = self.flow
        if flow.clock is None or flow.ended is not None or self.stopped or \
                self.state.is_over():
            return False
        before = flow.copy()
        if flow.flag(self.players, time.time()) is None:
            return False
        try:
            self.save_seats()
        except Conflict:
            self.play_flow = before
            raise
        except (HexkitError, OSError) as exc:
            # Decided again at the next look: the clock keeps saying the time is up.
            self.play_flow = before
            log.error("game %s: cannot save that time is up: %s", self.id, exc)
            return False
        self.changed(save=False)
        return True

    def flow_change(self, change: Callable[[PlayFlow], Any]) -> None:
        """Apply ``change(flow)`` (resign, draw, rematch...) and save it, or change nothing
        and raise (a refusal, Conflict, or RoomError 503 when the save fails)."""
        before = self.flow.copy()
        try:
            change(self.flow)
            self.save_seats()
        except (PlayError, Conflict):
            self.play_flow = before
            raise
        except (HexkitError, OSError) as exc:
            self.play_flow = before
            raise RoomError(saving_refusal(exc), 503) from None
        self.changed(save=False)

    # -- undo ----------------------------------------------------------------------------
    def request_undo(self, tokens: Iterable[Any]) -> bool:
        """A player asks to take back their last move. Returns True if it was taken back
        at once (no other person plays here, or this browser holds every human seat),
        False if the others are asked first."""
        tokens = list(tokens)
        held = self.seats_of(tokens)
        if not held:
            raise RoomError("that token holds no seat of this game: only a player can ask "
                            "for an undo", 403)
        if self.stopped:
            raise RoomError(f"the game was stopped ({self.stopped})", 409)
        if self.finished:
            raise RoomError("the game is over: moves are no longer taken back", 409)
        # The most recent move of this browser's seats (one browser may hold several).
        seat = max(held, key=lambda s: self._last_move_of(s))
        if self._last_move_of(seat) < 0:
            raise RoomError("nothing to undo: you have not moved yet", 409)
        others = {i for i, s in enumerate(self.seats) if s.is_human and s.token_hash} - held
        if not others:
            self.undo(seat)
            return True
        self._ask(seat)
        return False

    def _ask(self, seat: int | None) -> None:
        """Set (or clear) the undo request, saved: another process may hold the browser
        that answers it."""
        before = self.undo_request
        self.undo_request = seat
        try:
            self.save_seats()
        except Conflict:
            self.undo_request = before
            raise
        except (HexkitError, OSError) as exc:
            self.undo_request = before
            raise RoomError(saving_refusal(exc), 503) from None
        self.changed(save=False)

    def answer_undo(self, token: Any, accept: Any) -> bool:
        """The other player accepts (the moves are taken back) or refuses the request."""
        seat = self.seat_of(token)
        asked = self.undo_request
        if asked is None:
            raise RoomError("nobody asked for an undo", 409)
        if self.finished:
            self._ask(None)
            raise RoomError("the game is over: moves are no longer taken back", 409)
        if seat == asked:
            raise RoomError("the other player answers your undo request", 409)
        if not isinstance(accept, bool):
            raise RoomError("'accept' is true or false")
        if accept:
            self.undo(asked)
        else:
            self._ask(None)
        return accept

    def _last_move_of(self, seat: int) -> int:
        for i in range(len(self.log) - 1, -1, -1):
            if self.log[i].seat == seat:
                return i
        return -1

    def undo(self, seat: int) -> list[str]:
        """Take back ``seat``'s last move and every move since (bots' replies too)."""
        last = self._last_move_of(seat)
        taken: list[Move] = []
        keep = max(last, 0)
        while len(self.log) - len(taken) > keep and self.state.move_stack:
            taken.append(self.state.pop())
        asked, self.undo_request = self.undo_request, None
        flow_before = self.flow.copy()
        self.flow.undone(self.state.current_player, time.time())
        try:
            self.save(seats=asked is not None or self.flow != flow_before)
        except (HexkitError, OSError) as exc:
            for move in reversed(taken):
                self.state.push(move)
            self.record.update(self.state)
            self.undo_request = asked
            self.play_flow = flow_before
            if isinstance(exc, Conflict):
                raise
            raise RoomError(saving_refusal(exc), 503) from None
        del self.log[len(self.log) - len(taken):]
        self.undo_request = None
        self.changed(save=False)
        return [str(m) for m in reversed(taken)]

    # -- saving --------------------------------------------------------------------------
    def changed(self, save: bool = True) -> None:
        self.version += 1
        self.touched = time.time()
        if save:
            self.save()

    def record_path(self) -> Path | None:
        folder = self.folder
        return None if folder is None else folder / f"{self.id}.json"

    def save(self, seats: bool = False, durable: Callable[[], None] | None = None
             ) -> None:
        """Save the game record durably (after every move), with the seats when
        ``seats``; Conflict if another process changed the game since this room last
        caught up. ``durable()`` runs once it is durable (see Storage.commit)."""
        self.record.update(self.state)
        self._commit(record=True, seats=seats, durable=durable)

    def _durable(self) -> None:
        """A move is durable: publish it and tell the browsers now, before the rest of
        the save (the lobby row)."""
        self.publish()
        if self.tell is not None:
            self.tell()

    def seats_data(self) -> dict[str, Any]:
        return {"id": self.id, "created": self.created, "owner": self.owner.to_dict(),
                "stopped": self.stopped, "undo_request": self.undo_request,
                "play": self.flow.to_dict(),
                "seats": [{"spec": s.spec, "token_sha256": s.token_hash,
                           **({"player": s.player} if s.player else {})}
                          for s in self.seats]}

    def save_seats(self) -> None:
        self._commit(record=False, seats=True)

    def _commit(self, record: bool, seats: bool,
                durable: Callable[[], None] | None = None) -> None:
        if self.storage is None:
            if durable is not None:
                durable()
            return
        self.seq = self.storage.commit(
            self.id, record=self.record if record else None,
            seats=self.seats_data() if seats else None, row=self.index_row(),
            expected=self.seq or None, durable=durable)

    def index_row(self) -> IndexRow:
        """The game's row in the lobby."""
        finished = self.finished
        clock = self.flow.clock
        return IndexRow(self.summary(), self.owner.client, self.owner.account,
                        tuple(s.player for s in self.seats if s.player), finished,
                        self.created,
                        None if finished or clock is None else clock.deadline())

    # -- pictures ------------------------------------------------------------------------
    def position(self, ply: int | None = None) -> State:
        """The live state (``ply`` None or the last move), else a copy taken back to the
        position after move ``ply`` (0: the start)."""
        total = len(self.state.move_stack)
        if ply is None or ply == total:
            return self.state
        if not isinstance(ply, int) or isinstance(ply, bool) or not 0 <= ply <= total:
            raise RoomError(f"move {ply!r} is out of range: the game has {total} moves")
        twin = self.state.copy()
        for _ in range(total - ply):
            twin.pop()
        return twin

    def picture(self, ply: int | None, kind: str, make: Any) -> Any:
        """``make(state)`` for the position after move ``ply``, computed once per position
        of the current game (however many browsers ask) and kept for the last few."""
        total = len(self.state.move_stack)
        shown = total if ply is None else ply
        key = (self.version, shown, kind)
        found = self._pictures.get(key)
        if found is None:
            found = make(self.position(ply))
            self._pictures[key] = found
            for old in [k for k in self._pictures if k[0] != self.version]:
                del self._pictures[old]
            while len(self._pictures) > PICTURES_KEPT:
                self._pictures.popitem(last=False)
        return found

    def result_text(self, state: State | None = None) -> str:
        if state is None and self.stopped and not self.state.is_over():
            return f"Stopped: {self.stopped}"
        if state is None and self.flow.ended is not None:
            return self.flow.result_text(self.players)
        return result_text(state or self.state)

    def summary(self) -> dict[str, Any]:
        """What the lobby shows of this game."""
        state = self.state
        return {
            "id": self.id, "game": str(self.game), "name": self.game.name,
            "players": list(self.players),
            "seats": [self._seat_dict(i) for i in range(len(self.seats))],
            "free": [] if self.finished else self.free_seats(),
            "ply": len(state.move_stack),
            "over": self.finished, "result": self.result_text(),
            "created": self.created, "owner": self.owner.account,
            "stopped": self.stopped,
        }

    def _seat_dict(self, i: int) -> dict[str, Any]:
        s = self.seats[i]
        return {"seat": i, "name": self.players[i], "spec": s.spec,
                "bot": not s.is_human, "taken": s.is_human and s.token_hash is not None,
                "player": s.player}

    def snapshot(self) -> dict[str, Any]:
        """Everything a browser shows of the live game: the clickable board, the legal
        moves with their gestures, the panel's lines, the narrated log. Computed once per
        change (by :meth:`publish`)."""
        return self.publish().data

    def snapshot_text(self) -> str:
        """The snapshot as the JSON text sent to a browser that needs the whole state (as
        last published: the event loop never computes it while a worker changes the
        room)."""
        return (self.published or self.publish()).full

    def publish(self) -> Published:
        """What browsers are sent for the current version (made once per change, in the
        worker that made the change; the event loop only reads ``published``)."""
        last = self.published
        if last is not None and last.version == self.version:
            return last
        made = self._snapshot_now()
        data = made.data
        if last is not None:
            made.base = last.version
            patch = None
            if last.data["svg"] != data["svg"]:
                patch = block_patch(last.lines, last.blocks, made.lines, made.blocks) or \
                    svg_patch(last.data["svg"], data["svg"])
            made.mover, made.others = change_texts(last.data, data, patch, made.moves_text)
        self.published = made
        return made

    def _snapshot_now(self) -> Published:
        from dataclasses import replace

        state = self.state
        over = self.finished
        listed = [] if over else [_entry_of(state, m) for m in state.legal_moves()]
        moves = [entry for entry, _, _ in listed]
        view = board_view(state, moves, chain.from_iterable(cells for _, _, cells in listed))
        from hexkit.render.svg import svg_lines

        result = self.result_text()
        # The panel shows the caption lines: the board does not say them a second time.
        board = replace(view, caption=())
        blocks: list[int] = []
        lines = svg_lines(board, result=result, interactive=True, hands_wrap=HANDS_WRAP,
                          blocks=blocks)
        svg = "\n".join(lines) + "\n"
        if svg.count("\n") != len(lines):
            blocks = []  # a line of the picture holds a newline: its lines are the text's
        data = {
            "type": "state", "id": self.id, "version": self.version,
            "game": str(self.game), "name": self.game.name, "players": list(self.players),
            "seats": [self._seat_dict(i) for i in range(len(self.seats))],
            "ply": len(state.move_stack),
            "turn": None if over else state.current_player,
            "over": over, "result": result,
            "svg": svg,
            "caption": list(view.caption),
            "hands": [{"seat": h.seat, "kind": h.kind, "count": h.count, "label": h.label}
                      for h in view.hands],
            "moves": moves,
            "log": [e.to_dict(self.players, n) for n, e in enumerate(self.log, start=1)],
            "undo_request": self.undo_request, "thinking": self.thinking,
            "move_help": state.move_help(), "owner": self.owner.account,
            "stopped": self.stopped, "notice": self.notice,
            "play": self.flow.view(), "last": self.last_marks(),
            "terrain": terrain_legend(view),
        }
        return Published(self.version, data, lines=lines, blocks=blocks,
                         moves_text=f"[{', '.join(text for _, text, _ in listed)}]")

    def last_marks(self) -> list[dict[str, Any]]:
        """Where the last turn's moves started and ended and what they removed: the moves
        of the last player to act since the turn came to them (Hex Baron's three commands),
        each as its gesture (``origin``, ``target``, ``via``) and ``removed``, the cells of
        pieces its events destroyed, captured or sent back."""
        log = self.log
        if not log or not self.state.move_stack:
            return []
        seat = log[-1].seat
        count = 0
        while count < len(log) and count < len(self.state.move_stack) and \
                log[-1 - count].seat == seat:
            count += 1
        if all(entry.mark is not None for entry in log[len(log) - count:]):
            return [{**entry.mark, "removed": removed_cells(entry.events)}  # type: ignore[dict-item]
                    for entry in log[len(log) - count:]]
        twin = self.state.copy()
        taken = [twin.pop() for _ in range(count)]
        marks = []
        for entry, move in zip(log[len(log) - count:], reversed(taken), strict=True):
            g = twin.gesture(move)
            mark: dict[str, Any] = {"origin": None, "target": None, "via": []} \
                if g is None else {k: v for k, v in g.to_dict().items() if k != "kind"}
            mark["removed"] = removed_cells(entry.events)
            marks.append(mark)
            twin.push(move)
        return marks


#: Pieces in hand wrap onto lines this many font sizes wide (or the board's width): a
#: phone's board is not shrunk by a long row of kinds.
HANDS_WRAP = 22.0
#: Event kinds whose cells lost a piece (marked on the board after the move).
REMOVING = frozenset({"destroyed", "captured", "returned"})


def removed_cells(events: list[dict[str, Any]]) -> list[Any]:
    """The cells of the pieces a move's events destroyed, captured or sent back."""
    return [cell for e in events if e.get("kind") in REMOVING for cell in e.get("cells", ())]


def terrain_legend(view: BoardView) -> list[list[str]]:
    """The terrains on the board with their colours as drawn (``[[name, "#rrggbb"]]``),
    in the order the view names them: any game with terrain gets a legend."""
    from hexkit.render.svg import terrain_fills

    present = {c.terrain for c in view.cells if c.terrain}
    fills = terrain_fills(view)
    return [[name, fills[name]] for name in fills if name in present]


def move_entry(state: State, move: Move) -> dict[str, Any]:
    """A legal move for the page: its notation and where it starts and ends (shared
    between positions and games: never change it)."""
    return _entry_of(state, move)[0]


def _entry_of(state: State, move: Move
              ) -> tuple[dict[str, Any], str, tuple[tuple[int, int], ...]]:
    """:func:`move_entry`, its JSON and the cells it starts and ends at, made once per move
    and gesture (a move's notation and its gesture's form depend on nothing else)."""
    g = state.gesture(move)
    kind: Any = type(move)
    try:
        return _entry(kind, move, g)
    except TypeError:  # a move that cannot be a key
        return _entry.__wrapped__(kind, move, g)


#: Legal moves' entries remembered with their JSON: a server lists the same moves in many
#: positions of many games (a Focus game's 80-odd a position cost more to name and encode
#: than the rules take to find them).
ENTRIES_CACHED = 1 << 14


@lru_cache(maxsize=ENTRIES_CACHED)
def _entry(kind: Any, move: Any, g: Gesture | None
           ) -> tuple[dict[str, Any], str, tuple[tuple[int, int], ...]]:
    # ``kind`` is part of the key: moves of two types may compare equal (tuples).
    entry: dict[str, Any]
    if g is None:
        entry = {"text": str(move), "origin": None, "target": None, "via": [], "kind": ""}
    else:
        entry = {"text": str(move), **g.to_dict()}
    return entry, json.dumps(entry), _places(entry)


def board_view(state: State, moves: list[dict[str, Any]],
               places: Iterable[tuple[int, int]] | None = None) -> BoardView:
    """The game's view, with an empty cell added for any cell a legal move starts or ends
    at that the view does not draw (so that every target can be clicked); ``places``, those
    cells in the moves' order when known."""
    from dataclasses import replace

    view = state.view()
    present = {c.at for c in view.cells}
    if not present and view.topology != "hex":
        return view
    if places is None:
        places = chain.from_iterable(_places(m) for m in moves)
    extra = [at for at in dict.fromkeys(places) if at not in present]
    if not extra:
        return view
    return replace(view, cells=(*view.cells, *(CellView(at, f"{at[0]},{at[1]}")
                                               for at in extra)))


def _places(entry: Mapping[str, Any]) -> tuple[tuple[int, int], ...]:
    """The cells a move's entry starts and ends at."""
    return tuple((place[0], place[1]) for place in (entry["origin"], entry["target"])
                 if isinstance(place, list))


def origin_key(origin: Origin) -> str:
    """An origin as a short text key (``3,4`` or ``hand:1:CRAB`` or ``none``)."""
    if origin is None:
        return "none"
    if isinstance(origin, Hand):
        return str(origin)
    return f"{origin[0]},{origin[1]}"


@dataclass(frozen=True)
class SeatChoice:
    """A seat as the server will build it: ``spec`` is what is shown and saved (``human``,
    ``mcts:200``, an engine's name), ``build`` what is built, ``from_operator`` whether
    the operator named it (an engine)."""

    spec: str
    build: str
    from_operator: bool = False


# -- the rooms of a server -------------------------------------------------------------------
#: Threads that change rooms: their saves wait on the disk or the database, and the file
#: system (or the database) commits the saves of concurrent threads together.
WORKERS = 16


class RoomStore:
    """The rooms of the server, kept in a :class:`Storage` (a folder by default; None: in
    memory only, for tests) and loaded when first opened. ``check_seat(spec)`` turns a
    seat spec (from a request or a saved seats file alike) into a :class:`SeatChoice`, or
    refuses it.

    Every change goes through :meth:`run` (one at a time per room, in a worker thread);
    ``on_change(room)`` is then called on the event loop when the room published a new
    version (the hub sends it to the browsers), and ``on_commit(room)`` when it committed
    a change (the broadcast layer tells the other processes)."""

    def __init__(self, folder: str | os.PathLike[str] | None, registry: Any = None,
                 storage: Storage | None = None, check_seat: Any = None,
                 workers: int = WORKERS):
        if registry is None:
            from hexkit import plugins

            registry = plugins.registry()
        self.registry = registry
        self.storage: Storage = storage if storage is not None else FolderStorage(folder)
        self.check_seat = check_seat or _plain_seat(registry)
        #: The rooms loaded in this process (opened since it started).
        self.rooms: dict[str, Room] = {}
        #: One line per saved game that could not be loaded again, or was changed to load.
        self.problems: list[str] = []
        self.broken: dict[str, str] = {}
        self.workers = ThreadPoolExecutor(max(1, workers), thread_name_prefix="hexkit-room")
        self._opening: dict[str, asyncio.Future[Room]] = {}
        self.on_change: Callable[[Room], None] | None = None
        self.on_commit: Callable[[Room], None] | None = None
        #: When this process started (a folder's clocks resume from here).
        self.started = time.time()

    @property
    def folder(self) -> Path | None:
        return getattr(self.storage, "folder", None)

    def close(self) -> None:
        """Wait for the saves under way, then let the storage go."""
        self.workers.shutdown(wait=True, cancel_futures=False)
        checkpoint = getattr(self.storage, "checkpoint", None)
        if callable(checkpoint):
            try:
                checkpoint()
            except OSError as exc:
                log.error("cannot make the games' files durable at exit (%s): the journal "
                          "is replayed at the next start", exc.strerror or exc)
        close = getattr(self.storage, "close", None)
        if callable(close) and self.storage.shared:
            close()

    @staticmethod
    def check_id(room_id: Any) -> str:
        """``room_id`` if it can be a room's id (RoomError 404 otherwise)."""
        if not isinstance(room_id, str) or not ROOM_ID.match(room_id):
            shown = room_id if isinstance(room_id, str) and len(room_id) <= 40 else "?"
            raise RoomError(f"there is no game {shown!r} on this server", 404)
        return room_id

    def get(self, room_id: Any) -> Room:
        """The loaded room ``room_id`` (RoomError 404 if it is not loaded)."""
        if self.check_id(room_id) not in self.rooms:
            raise RoomError(f"there is no game {room_id!r} on this server", 404)
        return self.rooms[room_id]

    # -- opening -------------------------------------------------------------------------
    async def open(self, room_id: Any) -> Room:
        """The room ``room_id``, loaded from the storage in a worker if it is not yet
        (RoomError 404 if there is none)."""
        room_id = self.check_id(room_id)
        found = self.rooms.get(room_id)
        if found is not None:
            return found
        opening = self._opening.get(room_id)
        if opening is None:
            opening = asyncio.get_running_loop().run_in_executor(
                self.workers, self.load_room, room_id)
            self._opening[room_id] = opening
            opening.add_done_callback(lambda _: self._opening.pop(room_id, None))
        return await opening

    def load_room(self, room_id: str) -> Room:
        """Load a saved game now, in this thread: RoomError 404 if there is none, or (and a
        line in ``problems``) if it cannot be loaded again."""
        found = self.rooms.get(room_id)
        if found is not None:
            return found
        if room_id in self.broken:
            raise RoomError(self.broken[room_id], 500)
        try:
            record, data, seq = self.storage.load(room_id)
        except KeyError:
            raise RoomError(f"there is no game {room_id!r} on this server", 404) from None
        except (HexkitError, OSError, ValueError, TypeError) as exc:
            raise self._broken(room_id, exc) from None
        try:
            room = self._build(room_id, record, data, seq)
        except (HexkitError, OSError, ValueError, KeyError, TypeError) as exc:
            raise self._broken(room_id, exc) from None
        room.publish()
        return self.rooms.setdefault(room_id, room)

    def _broken(self, room_id: str, exc: BaseException) -> RoomError:
        self.problems.append(f"game {room_id}: cannot load this game again: {exc}")
        log.warning("%s", self.problems[-1])
        message = (f"game {room_id} cannot be loaded again: its saved files are damaged "
                   "(the server's log says why)")
        self.broken[room_id] = message
        return RoomError(message, 500)

    def index_missing(self) -> int:
        """Give a lobby row to the games the storage found without one (saved before the
        lobby had an index, or left by a crash between a save and its row); how many."""
        missing = list(getattr(self.storage, "unindexed", ()))
        done = 0
        for room_id in missing:
            if not ROOM_ID.match(room_id):
                continue
            try:
                room = self.load_room(room_id)
            except RoomError:
                continue
            put_row = getattr(self.storage, "put_row", None)
            if put_row is not None:
                put_row(room_id, room.index_row())
                done += 1
        if hasattr(self.storage, "unindexed"):
            self.storage.unindexed = []
        return done

    # -- changing ------------------------------------------------------------------------
    async def run(self, room: Room, work: Callable[[], T], checked: bool = False) -> T:
        """``work()`` on ``room`` in a worker, one change at a time per room, after catching
        up with the other processes (a shared storage); a commit that lost the race is
        retried once on the fresh game. The browsers are told once it returns.

        ``checked``: ``work`` commits a change (a move), so a stale copy is caught by the
        commit's version check: the room catches up first only when another process said
        it committed since (one query a move saved), and a change refused on a copy that
        may be stale is tried again on the fresh game."""
        if room.lock is None:
            room.lock = asyncio.Lock()
        async with room.lock:
            loop = asyncio.get_running_loop()
            room.tell = partial(loop.call_soon_threadsafe, self._announce, room)
            try:
                return await loop.run_in_executor(self.workers, self._work, room, work,
                                                  checked)
            finally:
                room.tell = None
                self._announce(room)

    def _work(self, room: Room, work: Callable[[], T], checked: bool = False) -> T:
        try:
            if not self.storage.shared:
                return self._attempt(room, work)
            fresh = not checked or room.heard > room.seq
            if fresh:
                self.catch_up(room)
            try:
                return self._attempt(room, work)
            except RoomError:
                if fresh:
                    raise
                before = room.seq
                self.catch_up(room)
                if room.seq == before:
                    raise
                return self._attempt(room, work)
        finally:
            room.publish()

    def _attempt(self, room: Room, work: Callable[[], T]) -> T:
        """``work()``, and once more on the fresh game if its commit lost the race."""
        try:
            return work()
        except Conflict:
            self.catch_up(room, force=True)
            try:
                return work()
            except Conflict:
                raise RoomError("this game changed on another server meanwhile: try "
                                "again", 409) from None

    def _announce(self, room: Room) -> None:
        published = room.published
        if published is not None and published.version != room.announced:
            room.announced = published.version
            if self.on_change is not None:
                self.on_change(room)
        if room.seq != room.told:
            room.told = room.seq
            if self.on_commit is not None:
                self.on_commit(room)

    def catch_up(self, room: Room, force: bool = False) -> None:
        """Bring ``room`` up to what the storage holds (moves and seats committed by another
        process): the new moves played on (every one re-checked), or the game replayed
        when it was taken back."""
        if room.heard <= room.seq or force:
            # Nothing heard of (or a commit refused): is there anything new?
            seq = self.storage.seq_of(room.id)
            if seq is None:
                raise RoomError("this game was deleted", 410)
            if seq == room.seq and not force:
                return
        try:
            record, data, seq = self.storage.load(room.id)
        except KeyError:
            raise RoomError("this game was deleted", 410) from None
        if seq == room.seq and not force:
            return
        seats = self._seats(room.id, room.game, record, data, room.seats, len(room.seats))
        known = room.record.moves
        if record.moves[: len(known)] == known and record.start == room.record.start:
            for text in record.moves[len(known):]:
                seat = room.state.current_player
                refused = push_or_refusal(room.state, text, hint="")
                if refused is not None:
                    raise RoomError(f"game {room.id}: the stored move {text!r} is refused: "
                                    f"{refused}", 500)
                room.log.append(LogEntry(seat, str(room.state.move_stack[-1]),
                                         [e.to_dict() for e in room.state.events()]))
            room.record.update(room.state)
        else:
            fresh, state, played = _replayed(record, room.game, None)
            room.record, room.state = fresh, state
            room.log = [LogEntry(seat, text, events) for (seat, text), events in played]
        room.seats = seats
        self._meta(room, data)
        room.seq = room.told = seq
        room.changed(save=False)

    # -- making --------------------------------------------------------------------------
    def _new_id(self) -> str:
        while True:
            room_id = secrets.token_hex(5)
            if room_id not in self.rooms:
                return room_id

    async def make(self, game: Game, seats: list[Any], **options: Any
                   ) -> tuple[Room, int | None, str | None]:
        """:meth:`create` in a worker (a record's replay, the first pictures and the save
        stay off the event loop)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.workers, lambda: self.create(game, seats,
                                                                            **options))

    def create(self, game: Game, seats: list[Any], *, seed: int | None = None,
               start: GameRecord | None = None, upto: int | None = None,
               owner: Owner | None = None, take: Any = None,
               player: str = "", clock: TimeControl | None = None,
               holders: list[tuple[str | None, str] | None] | None = None
               ) -> tuple[Room, int | None, str | None]:
        """A new room for ``game`` with the seats ``seats`` (each checked by
        ``check_seat``); with ``start``, the game goes on from that record after ``upto``
        of its moves (all of them when None), every move re-checked by the rules. The
        creator takes the seat ``take`` ("first": the first free one, if any; None: none).
        ``clock`` is the game's time control (None: no clock); ``holders`` gives human
        seats to people at once (each seat's token hash and player, a rematch).
        Everything is checked before anything is saved: a refused request leaves nothing.

        Returns the room, the seat taken and its token."""
        if seed is None:
            seed = secrets.randbelow(2**31)
        if start is None:
            state = game.new_state(seed=seed)
            record = GameRecord.for_game(game, seed=seed)
            played: list[tuple[tuple[int, str], list[dict[str, Any]]]] = []
        else:
            record, state, played = _replayed(start, game, upto)
            seed = record.seed
        count = len(state.players)
        if len(seats) != count:
            raise RoomError(f"{game} has {count} seats: give {count} players, not "
                            f"{len(seats)}")
        made: list[Any] = []
        for i, spec in enumerate(seats):
            try:
                choice = self.check_seat(spec)
                bot = None if choice.build == HUMAN else make_seat_bot(
                    self.registry, game, choice, (seed or 0) + 1000 * (i + 1))
            except HexkitError as exc:
                _close_bots_of(made)
                raise RoomError(f"seat {i}: {exc}") from None
            made.append(Seat(HUMAN if bot is None else choice.spec, None, bot))
        try:
            flow = PlayFlow.new(count, clock)
        except PlayError as exc:
            _close_bots_of(made)
            raise RoomError(str(exc), exc.status) from None
        for chosen, held in zip(made, holders or [], strict=False):
            if chosen.is_human and held is not None:
                chosen.token_hash, chosen.player = held
        room = Room(self._new_id(), game, record, state, made, time.time(),
                    storage=self.storage, owner=owner or Owner(), play_flow=flow)
        seat: int | None = None
        token: str | None = None
        if take is not None:
            free = room.free_seats()
            if take == "first":
                seat = free[0] if free else None
            else:
                try:
                    seat = room.check_seat(take)
                except RoomError:
                    _close_bots(room)
                    raise
            if seat is not None:
                token = secrets.token_urlsafe(24)
                room.seats[seat].token_hash = hash_token(token)
                room.seats[seat].player = player
        record.players = [s.spec for s in made]
        for (seat_no, text), events in played:
            room.log.append(LogEntry(seat_no, text, events))
        try:
            room.save(seats=True)
        except (HexkitError, OSError) as exc:
            self.storage.delete_game(room.id)
            _close_bots(room)
            raise RoomError(saving_refusal(exc), 503) from None
        room.told = room.seq
        room.publish()
        room.announced = room.version
        self.rooms[room.id] = room
        return room, seat, token

    def _build(self, room_id: str, record: GameRecord, data: Mapping[str, Any],
               seq: int) -> Room:
        game = record.load_game(self.registry)
        _, state, played = _replayed(record, game, None)
        seats = self._seats(room_id, game, record, data, None, len(state.players))
        created = data.get("created")
        room = Room(room_id, game, record, state, seats,
                    float(created) if isinstance(created, int | float) else 0.0,
                    storage=self.storage, seq=seq, told=seq)
        # One process owns a folder: a turn under way when it stopped starts again when
        # it started (its downtime is not charged); a shared storage's clocks are the
        # same for every process and run on.
        self._meta(room, data, resume=None if self.storage.shared else self.started)
        for (seat, text), events in played:
            room.log.append(LogEntry(seat, text, events))
        return room

    def _seats(self, room_id: str, game: Game, record: GameRecord, data: Mapping[str, Any],
               keep: list[Seat] | None, count: int) -> list[Seat]:
        """The seats of a saved seats document, every spec checked as a request's would be
        (a seats document is data); the bots of ``keep`` are kept where the spec is the
        same (no engine is started twice)."""
        entries = data.get("seats")
        if not isinstance(entries, list) or len(entries) != count:
            shown = len(entries) if isinstance(entries, list) else 0
            raise ValueError(f"{shown} seats for a game of {count}")
        seats = []
        for i, entry in enumerate(entries):
            if not isinstance(entry, Mapping):
                raise ValueError(f"seat {i}: not an object")
            spec = str(entry.get("spec", ""))[:100]
            token_hash = entry.get("token_sha256")
            if token_hash is not None and not re.fullmatch(r"[0-9a-f]{64}", str(token_hash)):
                raise ValueError(f"seat {i}: a corrupt token hash")
            player = str(entry.get("player") or "")[:100]
            if keep is not None and keep[i].spec == spec:
                seats.append(Seat(spec, token_hash, keep[i].bot, player))
                continue
            try:
                choice = self.check_seat(spec)
                bot = None if choice.build == HUMAN else make_seat_bot(
                    self.registry, game, choice, (record.seed or 0) + 1000 * (i + 1))
            except HexkitError as exc:
                self.problems.append(f"game {room_id}: seat {i} ({spec.partition(':')[0]}) "
                                     f"is played by a person now: {exc}")
                choice, bot = SeatChoice(HUMAN, HUMAN), None
            seats.append(Seat(HUMAN if bot is None else choice.spec, token_hash, bot,
                              player))
        return seats

    @staticmethod
    def _meta(room: Room, data: Mapping[str, Any], resume: float | None = None) -> None:
        room.owner = Owner.from_dict(data.get("owner"))
        room.play_flow = PlayFlow.from_dict(data.get("play"), len(room.seats), resume)
        room.stopped = str(data.get("stopped") or "")[:200]
        asked = data.get("undo_request")
        room.undo_request = asked if isinstance(asked, int) and not isinstance(asked, bool) \
            and 0 <= asked < len(room.seats) else None

    # -- the lobby -----------------------------------------------------------------------
    def lobby(self, offset: int = 0, limit: int | None = None, *, mine: str | None = None
              ) -> tuple[list[dict[str, Any]], int]:
        """A page of the live games, going on first, newest first (from the storage's
        index: no game is loaded); with ``mine``, only the games of that account (made by
        it, or with a seat it took)."""
        return self.storage.lobby(offset, 10**9 if limit is None else limit, mine)

    def live_games_of(self, client: str) -> int:
        """Games not finished that ``client`` made."""
        return self.storage.live_count(client)

    def forget(self, room_id: str) -> None:
        """Unload a game (its engines stop); it is loaded afresh when next opened."""
        loaded = self.rooms.pop(room_id, None)
        if loaded is not None:
            _close_bots(loaded)

    def delete(self, room: Room | str) -> None:
        room_id = room if isinstance(room, str) else room.id
        loaded = self.rooms.pop(room_id, None)
        self.storage.delete_game(room_id)
        if loaded is not None:
            _close_bots(loaded)

    def archive(self, room: Room | str) -> None:
        """Move a finished game out of the live set (its record stays downloadable)."""
        room_id = room if isinstance(room, str) else room.id
        loaded = self.rooms.get(room_id) or self.load_room(room_id)
        summary = loaded.summary()
        self.storage.archive_game(room_id, summary)
        self.rooms.pop(room_id, None)
        _close_bots(loaded)

    def idle_finished(self, older_than: float) -> list[str]:
        """Finished games nobody changed for ``older_than`` seconds (no bot thinking)."""
        return [g for g in self.storage.idle_finished(older_than)
                if (room := self.rooms.get(g)) is None or room.thinking is None]


def _close_bots_of(seats: list[Seat]) -> None:
    for seat in seats:
        close = getattr(seat.bot, "close", None)
        if callable(close):
            try:
                close()
            except (HexkitError, OSError):
                pass


def _close_bots(room: Room) -> None:
    """Stop the programs of a room's engine seats (a game deleted or archived)."""
    _close_bots_of(room.seats)


def make_seat_bot(registry: Any, game: Game, choice: SeatChoice, seed: int) -> Any:
    from hexkit.bots import make_bot

    return make_bot(game, choice.build, seed, registry=registry,
                    from_operator=choice.from_operator)


def _plain_seat(registry: Any) -> Any:
    """Seats as ``hexkit play`` reads them, minus programs (no operator engines here)."""

    def check(spec: Any) -> SeatChoice:
        if not isinstance(spec, str) or not spec.strip() or len(spec) > 100:
            raise RoomError("a player is 'human' or a bot such as random")
        text = spec.strip()
        return SeatChoice(text, text, False)

    return check


def _replayed(record: GameRecord, game: Game, upto: int | None
              ) -> tuple[GameRecord, State, list[tuple[tuple[int, str], list[dict[str, Any]]]]]:
    """Replay ``record`` (every move re-checked) up to ``upto`` moves; the record to go on
    with, the live state and each move's (seat, notation) and events."""
    total = len(record.moves)
    if upto is not None and (not isinstance(upto, int) or isinstance(upto, bool)
                             or not 0 <= upto <= total):
        shown = upto if isinstance(upto, int) and len(str(upto)) <= 20 else "?"
        raise RoomError(f"move {shown!r} is out of range: the record has {total} moves")
    limit = total if upto is None else upto
    played: list[tuple[tuple[int, str], list[dict[str, Any]]]] = []
    steps = replay_steps(record, game)
    _, _, state = next(steps)
    seat = state.current_player
    while len(played) < limit:
        number, text, state = next(steps)
        played.append(((seat, text), [e.to_dict() for e in state.events()]))
        seat = state.current_player if not state.is_over() else seat
    fresh = GameRecord(name=record.name, options=dict(record.options), game=record.game,
                       game_version=record.game_version, seed=record.seed,
                       players=list(record.players), moves=list(record.moves[:limit]),
                       start=record.start, files=dict(record.files))
    fresh.update(state)
    return fresh, state, played


__all__ = ["ROOM_ID", "SEATS_FORMAT", "Owner", "Room", "RoomError", "RoomStore", "Seat",
           "SeatChoice", "board_view", "hash_token", "move_entry", "origin_key"]
