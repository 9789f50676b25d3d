"""Games in progress on a ``hexkit serve`` server: seats, tokens, moves, undo, saving.

A :class:`Room` is one game: the rules (:class:`~hexkit.game.Game`), the live state, who
sits in each seat (a person holding a secret token, a bot, or nobody yet), who owns the
game, and the narrated log of the moves. Every change is saved at once, atomically, as a
plain game record (``ID.json``, readable by ``hexkit replay``) beside a small file of the
seats (``ID.seats.json``: seat specs and the SHA-256 of each token, never the token
itself), so a server that stops loses no game (:mod:`hexkit.web.storage`). A move whose
save fails is taken back before it is refused. Nothing here knows a game or a web
framework.

What a browser is sent is computed once per change (:meth:`Room.snapshot`, and the
pictures of earlier moves once each), however many browsers ask.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import secrets
import time
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hexkit.errors import HexkitError
from hexkit.game import Game, Move, State, result_text
from hexkit.gestures import Hand, Origin
from hexkit.records import GameRecord, replay_steps
from hexkit.refusals import push_or_refusal
from hexkit.view import BoardView, CellView
from hexkit.web.play import PlayError, PlayFlow, TimeControl
from hexkit.web.storage import SEATS_FORMAT, FolderStorage, Storage

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
    """One move as the page narrates it."""

    seat: int
    move: str
    events: list[dict[str, Any]]

    def to_dict(self, players: tuple[str, ...], ply: int) -> dict[str, Any]:
        name = players[self.seat] if 0 <= self.seat < len(players) else ""
        return {"ply": ply, "seat": self.seat, "player": name, "move": self.move,
                "events": self.events}


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
    #: Clocks, resignation, draw offers, rematch (:mod:`hexkit.web.play`).
    play_flow: PlayFlow | None = None
    _snapshot: tuple[int, dict[str, Any], str] | None = field(default=None, repr=False)
    _pictures: OrderedDict[tuple[int, int, str], Any] = field(
        default_factory=OrderedDict, repr=False)

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
        refused = push_or_refusal(state, move, hint=" (click a piece to see its moves)")
        if refused is not None:
            raise RoomError(refused)
        flow_before = self.flow.to_dict()
        self.flow.moved(seat, None if state.is_over() else state.current_player, time.time())
        try:
            self.save()
            if self.flow.to_dict() != flow_before:
                self.save_seats()
        except (HexkitError, OSError) as exc:
            # Not kept: what the server answers must be what a restart finds.
            state.pop()
            self.record.update(state)
            self.play_flow = PlayFlow.from_dict(flow_before, len(self.seats))
            raise RoomError(saving_refusal(exc), 503) from None
        text = str(state.move_stack[-1])
        self.log.append(LogEntry(seat, text, [e.to_dict() for e in state.events()]))
        self.undo_request = None
        self.notice = ""
        self.changed(save=False)
        return text

    def stop(self, why: str) -> None:
        """End the game here (no more moves; bots stop)."""
        if self.finished:
            return
        self.stopped = why
        self.flow.game_over(time.time())
        self.save_seats()
        self.changed(save=False)

    def check_time(self) -> bool:
        """End the game if the clock of the seat to act ran out (saved); True if it did."""
        flow = self.flow
        if flow.clock is None or flow.ended is not None or self.stopped or \
                self.state.is_over():
            return False
        before = flow.to_dict()
        if flow.flag(self.players, time.time()) is None:
            return False
        try:
            self.save_seats()
        except (HexkitError, OSError):
            # Decided again at the next look: the clock keeps saying the time is up.
            self.play_flow = PlayFlow.from_dict(before, len(self.seats))
            return False
        self.changed(save=False)
        return True

    def flow_change(self, change: Any) -> None:
        """Apply ``change(flow)`` (resign, draw, rematch...) and save it, or change nothing
        and raise (a refusal, or RoomError 503 when the save fails)."""
        before = self.flow.to_dict()
        try:
            change(self.flow)
            self.save_seats()
        except PlayError:
            self.play_flow = PlayFlow.from_dict(before, len(self.seats))
            raise
        except (HexkitError, OSError) as exc:
            self.play_flow = PlayFlow.from_dict(before, len(self.seats))
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
        self.undo_request = seat
        self.changed(save=False)
        return False

    def answer_undo(self, token: Any, accept: Any) -> bool:
        """The other player accepts (the moves are taken back) or refuses the request."""
        seat = self.seat_of(token)
        asked = self.undo_request
        if asked is None:
            raise RoomError("nobody asked for an undo", 409)
        if self.finished:
            self.undo_request = None
            self.changed(save=False)
            raise RoomError("the game is over: moves are no longer taken back", 409)
        if seat == asked:
            raise RoomError("the other player answers your undo request", 409)
        if not isinstance(accept, bool):
            raise RoomError("'accept' is true or false")
        self.undo_request = None
        if accept:
            self.undo(asked)
        else:
            self.changed(save=False)
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
        flow_before = self.flow.to_dict()
        self.flow.undone(self.state.current_player, time.time())
        try:
            self.save()
            if self.flow.to_dict() != flow_before:
                self.save_seats()
        except (HexkitError, OSError) as exc:
            for move in reversed(taken):
                self.state.push(move)
            self.record.update(self.state)
            self.play_flow = PlayFlow.from_dict(flow_before, len(self.seats))
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

    def save(self) -> None:
        """Save the game record atomically (after every move)."""
        self.record.update(self.state)
        if self.storage is not None:
            self.storage.save_record(self.id, self.record)

    def seats_data(self) -> dict[str, Any]:
        return {"id": self.id, "created": self.created, "owner": self.owner.to_dict(),
                "stopped": self.stopped, "play": self.flow.to_dict(),
                "seats": [{"spec": s.spec, "token_sha256": s.token_hash,
                           **({"player": s.player} if s.player else {})}
                          for s in self.seats]}

    def save_seats(self) -> None:
        if self.storage is not None:
            self.storage.save_seats(self.id, self.seats_data())

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
        change."""
        return self._cached()[1]

    def snapshot_text(self) -> str:
        """The snapshot as the JSON text sent to every browser (made once per change)."""
        return self._cached()[2]

    def _cached(self) -> tuple[int, dict[str, Any], str]:
        if self._snapshot is None or self._snapshot[0] != self.version:
            data = self._snapshot_now()
            self._snapshot = (self.version, data, json.dumps(data))
        return self._snapshot

    def _snapshot_now(self) -> dict[str, Any]:
        from dataclasses import replace

        state = self.state
        over = self.finished
        moves = [] if over else [move_entry(state, m) for m in state.legal_moves()]
        view = board_view(state, moves)
        from hexkit.render.svg import render_svg

        result = self.result_text()
        # The panel shows the caption lines: the board does not say them a second time.
        board = replace(view, caption=())
        return {
            "type": "state", "id": self.id, "version": self.version,
            "game": str(self.game), "name": self.game.name, "players": list(self.players),
            "seats": [self._seat_dict(i) for i in range(len(self.seats))],
            "ply": len(state.move_stack),
            "turn": None if over else state.current_player,
            "over": over, "result": result,
            "svg": render_svg(board, result=result, interactive=True, hands_wrap=HANDS_WRAP),
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
        twin = self.state.copy()
        taken = [twin.pop() for _ in range(count)]
        marks = []
        for entry, move in zip(log[len(log) - count:], reversed(taken), strict=True):
            g = twin.gesture(move)
            mark: dict[str, Any] = {"origin": None, "target": None, "via": []} \
                if g is None else {k: v for k, v in g.to_dict().items() if k != "kind"}
            mark["removed"] = [cell for e in entry.events if e.get("kind") in REMOVING
                               for cell in e.get("cells", ())]
            marks.append(mark)
            twin.push(move)
        return marks


#: Pieces in hand wrap onto lines this many font sizes wide (or the board's width): a
#: phone's board is not shrunk by a long row of kinds.
HANDS_WRAP = 22.0
#: Event kinds whose cells lost a piece (marked on the board after the move).
REMOVING = frozenset({"destroyed", "captured", "returned"})


def terrain_legend(view: BoardView) -> list[list[str]]:
    """The terrains on the board with their colours as drawn (``[[name, "#rrggbb"]]``),
    in the order the view names them: any game with terrain gets a legend."""
    from hexkit.render.svg import terrain_fills

    present = {c.terrain for c in view.cells if c.terrain}
    fills = terrain_fills(view)
    return [[name, fills[name]] for name in fills if name in present]


def move_entry(state: State, move: Move) -> dict[str, Any]:
    """A legal move for the page: its notation and where it starts and ends."""
    g = state.gesture(move)
    if g is None:
        return {"text": str(move), "origin": None, "target": None, "via": [], "kind": ""}
    return {"text": str(move), **g.to_dict()}


def board_view(state: State, moves: list[dict[str, Any]]) -> BoardView:
    """The game's view, with an empty cell added for any cell a legal move starts or ends
    at that the view does not draw (so that every target can be clicked)."""
    from dataclasses import replace

    view = state.view()
    present = {c.at for c in view.cells}
    extra: dict[tuple[int, int], CellView] = {}
    if present or view.topology == "hex":
        for m in moves:
            for place in (m["origin"], m["target"]):
                if isinstance(place, list):
                    at = (place[0], place[1])
                    if at not in present and at not in extra:
                        extra[at] = CellView(at, f"{at[0]},{at[1]}")
    if not extra:
        return view
    return replace(view, cells=(*view.cells, *extra.values()))


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
class RoomStore:
    """Every live room of the server, kept in a :class:`Storage` (a folder by default;
    None: in memory only, for tests). ``check_seat(spec)`` turns a seat spec (from a
    request or a saved seats file alike) into a :class:`SeatChoice`, or refuses it."""

    def __init__(self, folder: str | os.PathLike[str] | None, registry: Any = None,
                 storage: Storage | None = None, check_seat: Any = None):
        if registry is None:
            from hexkit import plugins

            registry = plugins.registry()
        self.registry = registry
        self.storage: Storage = storage if storage is not None else FolderStorage(folder)
        self.check_seat = check_seat or _plain_seat(registry)
        self.rooms: dict[str, Room] = {}
        #: One line per saved game that could not be loaded again, or was changed to load.
        self.problems: list[str] = []
        if self.folder is not None:
            self.load_all()

    @property
    def folder(self) -> Path | None:
        return getattr(self.storage, "folder", None)

    def get(self, room_id: Any) -> Room:
        """The room ``room_id`` (RoomError 404 if there is none)."""
        if not isinstance(room_id, str) or not ROOM_ID.match(room_id) or \
                room_id not in self.rooms:
            shown = room_id if isinstance(room_id, str) and len(room_id) <= 40 else "?"
            raise RoomError(f"there is no game {shown!r} on this server", 404)
        return self.rooms[room_id]

    def _new_id(self) -> str:
        while True:
            room_id = secrets.token_hex(5)
            if room_id not in self.rooms:
                return room_id

    def create(self, game: Game, seats: list[Any], *, seed: int | None = None,
               start: GameRecord | None = None, upto: int | None = None,
               owner: Owner | None = None, take: Any = None,
               player: str = "", clock: TimeControl | None = None
               ) -> tuple[Room, int | None, str | None]:
        """A new room for ``game`` with the seats ``seats`` (each checked by
        ``check_seat``); with ``start``, the game goes on from that record after ``upto``
        of its moves (all of them when None), every move re-checked by the rules. The
        creator takes the seat ``take`` ("first": the first free one, if any; None: none).
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
        made = []
        for i, spec in enumerate(seats):
            try:
                choice = self.check_seat(spec)
                bot = None if choice.build == HUMAN else make_seat_bot(
                    self.registry, game, choice, (seed or 0) + 1000 * (i + 1))
            except HexkitError as exc:
                raise RoomError(f"seat {i}: {exc}") from None
            made.append(Seat(HUMAN if bot is None else choice.spec, None, bot))
        try:
            flow = PlayFlow.new(count, clock)
        except PlayError as exc:
            raise RoomError(str(exc), exc.status) from None
        room = Room(self._new_id(), game, record, state, made, time.time(),
                    storage=self.storage, owner=owner or Owner(), play_flow=flow)
        seat: int | None = None
        token: str | None = None
        if take is not None:
            free = room.free_seats()
            if take == "first":
                seat = free[0] if free else None
            else:
                seat = room.check_seat(take)
            if seat is not None:
                token = secrets.token_urlsafe(24)
                room.seats[seat].token_hash = hash_token(token)
                room.seats[seat].player = player
        record.players = [s.spec for s in made]
        for (seat_no, text), events in played:
            room.log.append(LogEntry(seat_no, text, events))
        try:
            room.save_seats()
            room.save()
        except (HexkitError, OSError) as exc:
            self.storage.delete_game(room.id)
            raise RoomError(saving_refusal(exc), 503) from None
        self.rooms[room.id] = room
        return room, seat, token

    def load_all(self) -> None:
        """Load every saved game (a broken one is a line in ``problems``)."""
        for room_id in self.storage.game_ids():
            if not ROOM_ID.match(room_id):
                continue
            try:
                self.rooms[room_id] = self._load(room_id)
            except (HexkitError, OSError, ValueError, KeyError, TypeError) as exc:
                self.problems.append(f"game {room_id}: cannot load this game again: "
                                     f"{exc}")

    def _load(self, room_id: str) -> Room:
        record, data = self.storage.load_game(room_id)
        game = record.load_game(self.registry)
        _, state, played = _replayed(record, game, None)
        entries = data.get("seats")
        if not isinstance(entries, list) or len(entries) != len(state.players):
            count = len(entries) if isinstance(entries, list) else 0
            raise ValueError(f"{count} seats for a game of {len(state.players)}")
        seats = []
        for i, entry in enumerate(entries):
            if not isinstance(entry, Mapping):
                raise ValueError(f"seat {i}: not an object")
            spec = str(entry.get("spec", ""))[:100]
            token_hash = entry.get("token_sha256")
            if token_hash is not None and not re.fullmatch(r"[0-9a-f]{64}", str(token_hash)):
                raise ValueError(f"seat {i}: a corrupt token hash")
            # A seats file is data: its specs are checked as a request's would be.
            try:
                choice = self.check_seat(spec)
                bot = None if choice.build == HUMAN else make_seat_bot(
                    self.registry, game, choice, (record.seed or 0) + 1000 * (i + 1))
            except HexkitError as exc:
                self.problems.append(f"game {room_id}: seat {i} ({spec.partition(':')[0]}) "
                                     f"is played by a person now: {exc}")
                choice, bot = SeatChoice(HUMAN, HUMAN), None
            player = str(entry.get("player") or "")[:100]
            seats.append(Seat(HUMAN if bot is None else choice.spec, token_hash, bot,
                              player))
        created = data.get("created")
        room = Room(room_id, game, record, state, seats,
                    float(created) if isinstance(created, int | float) else 0.0,
                    storage=self.storage, owner=Owner.from_dict(data.get("owner")),
                    stopped=str(data.get("stopped") or "")[:200],
                    play_flow=PlayFlow.from_dict(data.get("play"), len(seats)))
        for (seat, text), events in played:
            room.log.append(LogEntry(seat, text, events))
        return room

    # -- the lobby -----------------------------------------------------------------------
    def lobby(self, offset: int = 0, limit: int | None = None, *, mine: str | None = None
              ) -> tuple[list[dict[str, Any]], int]:
        """A page of the live rooms, games going on first, newest first; with ``mine``,
        only the games of that account (made by it, or with a seat it took)."""
        rooms = list(self.rooms.values())
        if mine is not None:
            rooms = [r for r in rooms if r.owner.account == mine
                     or any(s.player == mine for s in r.seats)]
        rooms.sort(key=lambda r: (r.finished, -r.created))
        end = None if limit is None else offset + limit
        return [r.summary() for r in rooms[offset:end]], len(rooms)

    def live_games_of(self, client: str) -> int:
        """Games not finished that ``client`` made."""
        return sum(1 for r in self.rooms.values()
                   if r.owner.client == client and not r.finished)

    def delete(self, room: Room) -> None:
        self.rooms.pop(room.id, None)
        self.storage.delete_game(room.id)
        _close_bots(room)

    def archive(self, room: Room) -> None:
        """Move a finished game out of the live set (its record stays downloadable)."""
        summary = room.summary()
        self.storage.archive_game(room.id, summary)
        self.rooms.pop(room.id, None)
        _close_bots(room)

    def idle_finished(self, older_than: float) -> list[Room]:
        """Finished games nobody changed for ``older_than`` seconds."""
        now = time.time()
        return [r for r in self.rooms.values()
                if r.finished and r.thinking is None and now - r.touched >= older_than]


def _close_bots(room: Room) -> None:
    """Stop the programs of a room's engine seats (a game deleted or archived)."""
    for seat in room.seats:
        close = getattr(seat.bot, "close", None)
        if callable(close):
            try:
                close()
            except (HexkitError, OSError):
                pass


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
