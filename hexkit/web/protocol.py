"""What a browser may send, checked before anything acts on it.

Every message over a game's WebSocket is one JSON object of at most :data:`MAX_MESSAGE`
bytes with a ``type``:

- ``{"type": "move", "token": T, "move": "a1-b1x1"}``: play a move for the seat T holds;
- ``{"type": "undo", "tokens": [T, ...]}``: take back your last move (asks the other
  player first when another person plays in this game);
- ``{"type": "undo_answer", "token": T, "accept": true}``: answer the other's request;
- ``{"type": "ping"}``: answered by ``{"type": "pong"}``;
- ``{"type": "hello", "protocol": 2, "tokens": [T, ...]}``: this browser understands
  changes (protocol 2; 1 or no hello: the whole state after every change) and keeps these
  tokens: it gets the legal moves of the seats they hold, is counted as present on those
  seats (a spectator otherwise), and is answered by ``{"type": "time", "now": SECONDS}``
  (the server's clock, seconds since the epoch: the page counts clocks down from it);
  from then on it gets ``{"type": "presence", "seats": [true, false], "spectators": N}``
  whenever who is connected changes (the browsers connected to this process);
- ``{"type": "moves"}``: the legal moves now, answered by ``{"type": "moves", "version":
  V, "moves": [...]}``;
- ``{"type": "resync"}``: send the whole state again;
- ``{"type": "resign", "token": T}``: the seat T holds gives up (two-player games);
- ``{"type": "draw", "token": T}``: offer a draw; ``{"type": "draw_answer", "token": T,
  "accept": true}``: accept or decline the other's offer (a move declines it too);
- ``{"type": "rematch", "tokens": [T, ...]}``: ask for a rematch of a finished game
  (made at once when no other person plays in it); ``{"type": "rematch_answer", "token":
  T, "accept": true}``: answer the other's request. The rematch is the same game with
  each player one seat on (two players: swapped), the same clock; the same tokens hold
  the seats there (the finished game's state names it in ``play.rematch``).

Anything else is refused with ``{"type": "error", "message": "..."}``, one line, and
changes nothing.

The server sends ``{"type": "state", ...}`` (the whole game, see
:meth:`hexkit.web.rooms.Room.snapshot`) when a browser comes and when it asks for a
resync. After each change a browser of protocol 1 gets the whole state again; a browser of
protocol 2 gets ``{"type": "change", "base": B, "version": V, ...}``: the fields that
changed since version B (the one it holds), the log from ``log_from`` on, the board as
``svg_patch`` (line splices ``[start, end, lines]`` of the SVG it holds, applied from the
last) or a whole ``svg``, and ``moves`` when the turn changed (the list for the seat to
move, ``[]`` for everyone else). A browser that does not hold version B asks for a
resync.

Beside the rules' fields, the state (and a change, when they changed) has ``play``: the
clocks (``control`` such as ``"5+3"``, each seat's ``left`` seconds, the ``running``
seat's as of ``since``, seconds since the epoch), a ``draw_offer``, a ``rematch_offer``,
the ``rematch`` room, the seats that ``left`` and how the game ``ended`` when play ended it
(``{"winners", "reason"}``); ``last``, the last turn's moves (each ``origin``,
``target``, ``via`` and the cells ``removed``); and ``terrain``, the board's terrains with
their colours (``[[name, "#rrggbb"]]``).
"""

from __future__ import annotations

from typing import Any

from hexkit.errors import ConfigError
from hexkit.files.jsonfile import parse_json
from hexkit.web.rooms import RoomError

#: The largest message a browser may send over a game's WebSocket (bytes).
MAX_MESSAGE = 16 * 1024
#: The largest JSON body of an HTTP request (an uploaded game record), in bytes.
MAX_BODY = 2 * 1024 * 1024

#: Message type -> the fields it must have, with their types.
#: How a message's error names the type a field needs.
_WHAT: dict[type | tuple[type, ...], str] = {str: "a text", bool: "true or false", list: "a list"}

MESSAGES: dict[str, dict[str, type | tuple[type, ...]]] = {
    "move": {"token": str, "move": str},
    "undo": {"tokens": list},
    "undo_answer": {"token": str, "accept": bool},
    "ping": {},
    "hello": {"tokens": list},
    "moves": {},
    "resync": {},
    "resign": {"token": str},
    "draw": {"token": str},
    "draw_answer": {"token": str, "accept": bool},
    "rematch": {"tokens": list},
    "rematch_answer": {"token": str, "accept": bool},
}
#: The protocols a browser may say it speaks.
PROTOCOLS = (1, 2)


def decode_json(raw: str | bytes, refusal: str) -> Any:
    """JSON from a browser, read with the bounds of every JSON hexkit reads (nesting,
    number lengths: :mod:`hexkit.files.jsonfile`); RoomError ``refusal: why`` otherwise."""
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
            what = _WHAT.get(wanted, "given")
            raise RoomError(f"a {kind} message needs {name!r}: {what}")
    if kind in ("undo", "hello", "rematch") and (
            not all(isinstance(t, str) for t in data["tokens"]) or len(data["tokens"]) > 16):
        raise RoomError(f"a{'n' if kind == 'undo' else ''} {kind} message's 'tokens' is a "
                        "list of texts (at most 16)")
    if kind == "hello":
        protocol = data.get("protocol", 2)
        if not isinstance(protocol, int) or isinstance(protocol, bool) or \
                protocol not in PROTOCOLS:
            raise RoomError(f"'protocol' is one of {', '.join(map(str, PROTOCOLS))}")
        data["protocol"] = protocol
    return data
