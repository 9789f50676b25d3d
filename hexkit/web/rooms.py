"""Games in progress on a ``hexkit serve`` server: seats, tokens, moves, undo, saving.

A :class:`Room` is one game: the rules (:class:`~hexkit.game.Game`), the live state, who
sits in each seat (a person holding a secret token, a bot, or nobody yet) and the narrated
log of the moves. Every change is saved at once, atomically, as a plain game record
(``ID.json``, readable by ``hexkit replay``) beside a small file of the seats
(``ID.seats.json``: seat specs and the SHA-256 of each token, never the token itself), so
a server that stops loses no game. Nothing here knows a game or a web framework.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import secrets
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hexkit.errors import HexkitError
from hexkit.fileio import MAX_DATA_BYTES, write_text_atomic
from hexkit.game import Game, Move, State, result_text
from hexkit.gestures import Hand, Origin
from hexkit.jsonfile import load_json
from hexkit.records import GameRecord, load_record, replay_steps, save_record
from hexkit.refusals import push_or_refusal
from hexkit.view import BoardView, CellView

#: A room's id: lower-case hex, so that it is safe in a file name and a URL.
ROOM_ID = re.compile(r"[0-9a-f]{10}\Z")
#: The seat spec of a person (as in ``hexkit play``).
HUMAN = "human"
#: At most this many seats (the CLI's limit too).
MAX_SEATS = 8
SEATS_FORMAT = "hexkit-web-seats"


class RoomError(HexkitError):
    """A request a room refuses, in one line; ``status`` is the HTTP status that fits."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


def hash_token(token: str) -> str:
    """The SHA-256 of a seat's token (what is stored)."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


@dataclass
class Seat:
    """One seat: ``spec`` is ``human`` or a bot spec (``random``, ``mcts:200``); a human
    seat is free until someone takes it (``token_hash`` set)."""

    spec: str
    token_hash: str | None = None
    bot: Any = None

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
    folder: Path | None = None

    # -- who is who ----------------------------------------------------------------------
    @property
    def players(self) -> tuple[str, ...]:
        return tuple(self.state.players)

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

    def take_seat(self, seat: Any) -> str:
        """Give the free human seat ``seat`` a new secret token and return it."""
        if not isinstance(seat, int) or isinstance(seat, bool) or \
                not 0 <= seat < len(self.seats):
            raise RoomError(f"there is no seat {seat!r} in this game (seats 0 to "
                            f"{len(self.seats) - 1})")
        chosen = self.seats[seat]
        if not chosen.is_human:
            raise RoomError(f"seat {seat} ({self.players[seat]}) is played by the bot "
                            f"{chosen.spec}", 409)
        if chosen.token_hash is not None:
            raise RoomError(f"seat {seat} ({self.players[seat]}) is already taken", 409)
        token = secrets.token_urlsafe(24)
        chosen.token_hash = hash_token(token)
        self.version += 1
        self.save_seats()
        return token

    def free_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.is_human and s.token_hash is None]

    # -- moves ---------------------------------------------------------------------------
    def play(self, token: Any, text: Any) -> str:
        """Play the move ``text`` for the seat that ``token`` holds; returns its notation.

        RoomError (one line, the terminal's wording for a refused move) and no change if
        the seat is not to act or the move cannot be read or is illegal."""
        seat = self.seat_of(token)
        if not isinstance(text, str) or not text.strip():
            raise RoomError("a move is the move's text, e.g. as listed when you click a piece")
        state = self.state
        if state.is_over():
            raise RoomError("the game is over: no more moves", 409)
        to_act = state.current_player
        if to_act != seat:
            raise RoomError(f"it is {self.players[to_act]}'s turn, not "
                            f"{self.players[seat]}'s", 409)
        return self._push(seat, text.strip())

    def play_bot(self, seat: int, move: Move, version: int) -> bool:
        """Play a bot's chosen move if nothing changed since it started thinking."""
        if version != self.version or self.state.current_player != seat or \
                self.state.is_over():
            return False
        self._push(seat, move)
        return True

    def _push(self, seat: int, move: Move | str) -> str:
        state = self.state
        refused = push_or_refusal(state, move, hint=" (click a piece to see its moves)")
        if refused is not None:
            raise RoomError(refused)
        text = str(state.move_stack[-1])
        self.log.append(LogEntry(seat, text, [e.to_dict() for e in state.events()]))
        self.undo_request = None
        self.changed()
        return text

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
        taken = []
        while len(self.log) > max(last, 0) and self.state.move_stack:
            taken.append(str(self.state.pop()))
            self.log.pop()
        self.undo_request = None
        self.changed()
        return taken[::-1]

    # -- saving --------------------------------------------------------------------------
    def changed(self, save: bool = True) -> None:
        self.version += 1
        if save:
            self.save()

    def record_path(self) -> Path | None:
        return None if self.folder is None else self.folder / f"{self.id}.json"

    def save(self) -> None:
        """Save the game record atomically (after every move)."""
        path = self.record_path()
        if path is not None:
            self.record.update(self.state)
            save_record(path, self.record)

    def save_seats(self) -> None:
        if self.folder is None:
            return
        data = {"format": SEATS_FORMAT, "version": 1, "id": self.id, "created": self.created,
                "seats": [{"spec": s.spec, "token_sha256": s.token_hash} for s in self.seats]}
        write_text_atomic(self.folder / f"{self.id}.seats.json", json.dumps(data, indent=1) + "\n")

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

    def result_text(self, state: State | None = None) -> str:
        return result_text(state or self.state)

    def summary(self) -> dict[str, Any]:
        """What the lobby shows of this game."""
        state = self.state
        return {
            "id": self.id, "game": str(self.game), "name": self.game.name,
            "players": list(self.players),
            "seats": [self._seat_dict(i) for i in range(len(self.seats))],
            "free": self.free_seats(), "ply": len(state.move_stack),
            "over": state.is_over(), "result": self.result_text(),
            "created": self.created,
        }

    def _seat_dict(self, i: int) -> dict[str, Any]:
        s = self.seats[i]
        return {"seat": i, "name": self.players[i], "spec": s.spec,
                "bot": not s.is_human, "taken": s.is_human and s.token_hash is not None}

    def snapshot(self) -> dict[str, Any]:
        """Everything a browser shows of the live game: the clickable board, the legal
        moves with their gestures, the panel's lines, the narrated log."""
        state = self.state
        over = state.is_over()
        moves = [] if over else [move_entry(state, m) for m in state.legal_moves()]
        view = board_view(state, moves)
        from hexkit.render.svg import render_svg

        result = self.result_text()
        return {
            "type": "state", "id": self.id, "version": self.version,
            "game": str(self.game), "name": self.game.name, "players": list(self.players),
            "seats": [self._seat_dict(i) for i in range(len(self.seats))],
            "ply": len(state.move_stack),
            "turn": None if over else state.current_player,
            "over": over, "result": result,
            "svg": render_svg(view, result=result, interactive=True),
            "caption": list(view.caption),
            "hands": [{"seat": h.seat, "kind": h.kind, "count": h.count, "label": h.label}
                      for h in view.hands],
            "moves": moves,
            "log": [e.to_dict(self.players, n) for n, e in enumerate(self.log, start=1)],
            "undo_request": self.undo_request, "thinking": self.thinking,
            "move_help": state.move_help(),
        }


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


# -- the rooms of a server -------------------------------------------------------------------
class RoomStore:
    """Every room of the server, kept in ``folder`` (None: in memory only, for tests)."""

    def __init__(self, folder: str | os.PathLike[str] | None, registry: Any = None):
        self.folder = None if folder is None else Path(folder)
        if registry is None:
            from hexkit import plugins

            registry = plugins.registry()
        self.registry = registry
        self.rooms: dict[str, Room] = {}
        #: One line per saved game that could not be loaded again.
        self.problems: list[str] = []
        if self.folder is not None:
            self.folder.mkdir(parents=True, exist_ok=True)
            self.load_all()

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

    def create(self, game: Game, seats: list[str], *, seed: int | None = None,
               start: GameRecord | None = None, upto: int | None = None) -> Room:
        """A new room for ``game`` with the seat specs ``seats`` (``human`` or a bot);
        with ``start``, the game goes on from that record after ``upto`` of its moves
        (all of them when None), every move re-checked by the rules."""
        from hexkit.bots import make_bot

        if seed is None:
            seed = secrets.randbelow(2**31)
        if start is None:
            state = game.new_state(seed=seed)
            record = GameRecord.for_game(game, seed=seed)
            played: list[tuple[str, list[dict[str, Any]]]] = []
        else:
            record, state, played = _replayed(start, game, upto)
            seed = record.seed
        count = len(state.players)
        if len(seats) != count:
            raise RoomError(f"{game} has {count} seats: give {count} players, not "
                            f"{len(seats)}")
        made = []
        for i, spec in enumerate(seats):
            if not isinstance(spec, str) or not spec.strip() or len(spec) > 100:
                raise RoomError(f"seat {i}: a player is 'human' or a bot such as random")
            spec = spec.strip()
            try:
                bot = make_bot(game, spec, (seed or 0) + 1000 * (i + 1), registry=self.registry)
            except HexkitError as exc:
                raise RoomError(f"seat {i}: {exc}") from None
            made.append(Seat(HUMAN if bot is None else spec, None, bot))
        record.players = [s.spec for s in made]
        room = Room(self._new_id(), game, record, state, made, time.time(), folder=self.folder)
        for seat_text, events in played:
            seat, text = seat_text
            room.log.append(LogEntry(seat, text, events))
        room.save_seats()
        room.save()
        self.rooms[room.id] = room
        return room

    def load_all(self) -> None:
        """Load every saved game of the folder (a broken one is a line in ``problems``)."""
        assert self.folder is not None
        for path in sorted(self.folder.glob("*.seats.json")):
            room_id = path.name[: -len(".seats.json")]
            if not ROOM_ID.match(room_id):
                continue
            try:
                self.rooms[room_id] = self._load(room_id, path)
            except (HexkitError, OSError, ValueError, KeyError, TypeError) as exc:
                self.problems.append(f"{path}: cannot load this game again: {exc}")

    def _load(self, room_id: str, seats_path: Path) -> Room:
        from hexkit.bots import make_bot

        assert self.folder is not None
        data = load_json(seats_path, MAX_DATA_BYTES)
        if not isinstance(data, Mapping) or data.get("format") != SEATS_FORMAT:
            raise ValueError(f"not a {SEATS_FORMAT} file")
        record = load_record(self.folder / f"{room_id}.json")
        game = record.load_game(self.registry)
        _, state, played = _replayed(record, game, None)
        seats = []
        for i, entry in enumerate(data["seats"]):
            spec = str(entry["spec"])
            token_hash = entry.get("token_sha256")
            if token_hash is not None and not re.fullmatch(r"[0-9a-f]{64}", str(token_hash)):
                raise ValueError(f"seat {i}: a corrupt token hash")
            bot = make_bot(game, spec, (record.seed or 0) + 1000 * (i + 1),
                           registry=self.registry)
            seats.append(Seat(spec, token_hash, bot))
        if len(seats) != len(state.players):
            raise ValueError(f"{len(seats)} seats for a game of {len(state.players)}")
        created = data.get("created")
        room = Room(room_id, game, record, state, seats,
                    float(created) if isinstance(created, int | float) else 0.0,
                    folder=self.folder)
        for (seat, text), events in played:
            room.log.append(LogEntry(seat, text, events))
        return room

    def lobby(self) -> list[dict[str, Any]]:
        """Every room, newest first: open ones (a free seat) and running or finished ones."""
        rooms = sorted(self.rooms.values(), key=lambda r: r.created, reverse=True)
        return [r.summary() for r in rooms]


def _replayed(record: GameRecord, game: Game, upto: int | None
              ) -> tuple[GameRecord, State, list[tuple[tuple[int, str], list[dict[str, Any]]]]]:
    """Replay ``record`` (every move re-checked) up to ``upto`` moves; the record to go on
    with, the live state and each move's (seat, notation) and events."""
    total = len(record.moves)
    if upto is not None and (not isinstance(upto, int) or isinstance(upto, bool)
                             or not 0 <= upto <= total):
        raise RoomError(f"move {upto!r} is out of range: the record has {total} moves")
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


__all__ = ["ROOM_ID", "Room", "RoomError", "RoomStore", "Seat", "board_view", "hash_token",
           "move_entry", "origin_key"]
