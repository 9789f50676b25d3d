"""What a browser may send, checked before anything acts on it.

Every message over a game's WebSocket is one JSON object of at most :data:`MAX_MESSAGE`
bytes with a ``type``:

- ``{"type": "move", "token": T, "move": "a1-b1x1"}``: play a move for the seat T holds;
- ``{"type": "undo", "tokens": [T, ...]}``: take back your last move (asks the other
  player first when another person plays in this game);
- ``{"type": "undo_answer", "token": T, "accept": true}``: answer the other's request;
- ``{"type": "ping"}``: answered by ``{"type": "pong"}``;
- ``{"type": "hello", "tokens": [T, ...]}``: this browser keeps these tokens (it is
  counted as present on their seats, a spectator otherwise); answered by ``{"type":
  "time", "now": SECONDS}`` (the server's clock, seconds since the epoch), and from then
  on the browser gets ``{"type": "presence", "seats": [true, false], "spectators": N}``
  whenever who is connected changes;
- ``{"type": "resign", "token": T}``: the seat T holds gives up (two-player games);
- ``{"type": "draw", "token": T}``: offer a draw; ``{"type": "draw_answer", "token": T,
  "accept": true}``: accept or decline the other's offer (a move declines it too);
- ``{"type": "rematch", "tokens": [T, ...]}``: ask for a rematch of a finished game
  (made at once when no other person plays in it); ``{"type": "rematch_answer", "token":
  T, "accept": true}``: answer the other's request. The rematch is the same game with
  each player one seat on (two players: swapped), the same clock; the same tokens hold
  the seats there (the finished game's state names it in ``play.rematch``).

Anything else is refused with ``{"type": "error", "message": "..."}``, one line, and
changes nothing. The server sends ``{"type": "state", ...}`` (see
:meth:`hexkit.web.rooms.Room.snapshot`) to every browser of the game after each change.
Its ``play`` says the clocks (``control`` such as ``"5+3"``, each seat's ``left``
seconds, the ``running`` seat's as of ``since``, seconds since the epoch), a
``draw_offer``, a ``rematch_offer``, the ``rematch`` room, the seats that ``left`` and
how the game ``ended`` when play ended it (``{"winners", "reason"}``); ``last`` marks
the last turn's moves (each ``origin``, ``target``, ``via`` and the cells ``removed``),
and ``terrain`` the board's terrains with their colours (``[[name, "#rrggbb"]]``).
"""

from __future__ import annotations

from typing import Any

from hexkit.errors import ConfigError
from hexkit.jsonfile import parse_json
from hexkit.web.rooms import RoomError

#: The largest message a browser may send over a game's WebSocket (bytes).
MAX_MESSAGE = 16 * 1024
#: The largest JSON body of an HTTP request (an uploaded game record), in bytes.
MAX_BODY = 2 * 1024 * 1024

#: Message type -> the fields it must have, with their types.
MESSAGES: dict[str, dict[str, type | tuple[type, ...]]] = {
    "move": {"token": str, "move": str},
    "undo": {"tokens": list},
    "undo_answer": {"token": str, "accept": bool},
    "ping": {},
    "hello": {"tokens": list},
    "resign": {"token": str},
    "draw": {"token": str},
    "draw_answer": {"token": str, "accept": bool},
    "rematch": {"tokens": list},
    "rematch_answer": {"token": str, "accept": bool},
}


def decode_json(raw: str | bytes, refusal: str) -> Any:
    """JSON from a browser, read with the bounds of every JSON hexkit reads (nesting,
    number lengths: :mod:`hexkit.jsonfile`); RoomError ``refusal: why`` otherwise."""
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
        return parse_json(text)
    except UnicodeDecodeError as exc:
        raise RoomError(f"{refusal}: {exc.reason}") from None
    except ConfigError as exc:
        raise RoomError(f"{refusal}: {exc.problem.removeprefix('invalid JSON: ')}") from None


def ascii_digits(text: str, *, limit: int = 18) -> int | None:
    """``text`` as a whole number from 0 if it is ASCII digits only (``²`` and ``٣`` are
    digits to Python, not to hexkit), at most ``limit`` of them; None otherwise."""
    text = text.strip()
    if not text or len(text) > limit or not text.isascii() or not text.isdigit():
        return None
    return int(text)


def parse_message(raw: str | bytes) -> dict[str, Any]:
    """The message ``raw`` as a checked dict (RoomError, one line, otherwise)."""
    if len(raw) > MAX_MESSAGE:
        raise RoomError(f"message too large: {len(raw)} bytes (at most {MAX_MESSAGE})", 413)
    data = decode_json(raw, "not a JSON message")
    if not isinstance(data, dict):
        raise RoomError("a message is a JSON object with a \"type\"")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in MESSAGES:
        known = ", ".join(MESSAGES)
        shown = kind if isinstance(kind, str) and len(kind) <= 30 else "?"
        raise RoomError(f"unknown message type {shown!r} (known: {known})")
    for name, wanted in MESSAGES[kind].items():
        value = data.get(name)
        if not isinstance(value, wanted) or (wanted is str and not value):
            what = {str: "a text", bool: "true or false", list: "a list"}.get(wanted, "given")
            raise RoomError(f"a {kind} message needs {name!r}: {what}")
    if kind in ("undo", "hello", "rematch") and (
            len(data["tokens"]) > 16 or not all(isinstance(t, str) for t in data["tokens"])):
        raise RoomError(f"a{'n' if kind == 'undo' else ''} {kind} message's 'tokens' is a "
                        "list of texts (at most 16)")
    return data
