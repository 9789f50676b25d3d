"""The ``hexkit serve`` application: pages, a JSON API and one WebSocket per game.

- ``GET /`` the lobby and the game picker; ``GET /game/ID`` a game (the same page);
- ``GET /api/catalog`` the installed games with their options, and the bots;
- ``GET /api/games`` the lobby; ``POST /api/games`` a new game; ``POST /api/games/load``
  a game from a record; ``POST /api/games/ID/join`` take a free seat; ``POST
  /api/games/ID/seats`` which seats the tokens a browser keeps hold;
- ``GET /api/games/ID`` the game as the WebSocket sends it; ``.../position?ply=N`` the
  picture after move N; ``.../svg?ply=N`` the SVG to download; ``.../record`` the record;
- ``WS /ws/games/ID`` moves in, every change out to every browser of the game.

Requests from another origin (another site's page in the same browser) are refused.
Bots think in a worker thread, so the server keeps answering while they do.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from hexkit.errors import HexkitError
from hexkit.records import GameRecord
from hexkit.web.protocol import MAX_BODY, decode_json, parse_message
from hexkit.web.rooms import Room, RoomError, RoomStore

STATIC = Path(__file__).with_name("static")
log = logging.getLogger("hexkit.web")

#: The page may run its own scripts and talk to its own server, nothing else.
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data: blob:; "
                               "style-src 'self' 'unsafe-inline'; connect-src 'self'; "
                               "frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


class Hub:
    """The browsers watching each game, and the bots thinking for them."""

    def __init__(self, store: RoomStore):
        self.store = store
        self.sockets: dict[str, set[WebSocket]] = {}
        self.tasks: set[asyncio.Task[None]] = set()

    async def broadcast(self, room: Room) -> None:
        """Send the game's new state to every browser of it at once."""
        sockets = list(self.sockets.get(room.id, ()))
        if not sockets:
            return
        text = json.dumps(room.snapshot())
        results = await asyncio.gather(*(s.send_text(text) for s in sockets),
                                       return_exceptions=True)
        for s, r in zip(sockets, results, strict=True):
            if isinstance(r, BaseException):
                self.sockets.get(room.id, set()).discard(s)

    def kick(self, room: Room) -> None:
        """Start the bot whose turn it is, if it is a bot's turn and none is thinking."""
        state = room.state
        if state.is_over() or room.thinking is not None:
            return
        seat = state.current_player
        if seat >= len(room.seats) or room.seats[seat].is_human:
            return
        task = asyncio.get_running_loop().create_task(self._bot_turn(room, seat))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _bot_turn(self, room: Room, seat: int) -> None:
        version = room.version
        room.thinking = seat
        await self.broadcast(room)
        bot = room.seats[seat].bot
        try:
            move = await asyncio.to_thread(bot.choose, room.state.copy())
        except Exception as exc:  # a bot's bug must not take the server down
            log.error("game %s: the bot %s failed: %s: %s", room.id, room.seats[seat].spec,
                      type(exc).__name__, exc)
            room.thinking = None
            await self.broadcast(room)
            return
        room.thinking = None
        try:
            room.play_bot(seat, move, version)
        except RoomError as exc:
            log.error("game %s: the bot %s chose a refused move: %s", room.id,
                      room.seats[seat].spec, exc)
            await self.broadcast(room)
            return
        await self.broadcast(room)
        self.kick(room)


# -- helpers ---------------------------------------------------------------------------------
def same_origin(headers: Any) -> bool:
    """True unless the request says it comes from a page of another origin."""
    origin = headers.get("origin")
    if origin is None:
        return True  # not sent by a browser page (curl, scripts, the test client)
    host = headers.get("host", "")
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and parts.netloc.lower() == host.lower()


def error(message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=SECURITY_HEADERS)


def ok(data: Any, status: int = 200) -> JSONResponse:
    return JSONResponse(data, status_code=status, headers=SECURITY_HEADERS)


async def read_json(request: Request, limit: int = MAX_BODY) -> Any:
    """The request's JSON body (RoomError if it is too large or not JSON)."""
    if not same_origin(request.headers):
        raise RoomError("refused: the request comes from a page of another site", 403)
    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > limit:
        raise RoomError(f"request too large: {length} bytes (at most {limit})", 413)
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise RoomError(f"request too large (at most {limit} bytes)", 413)
    return decode_json(bytes(body), "the request is not JSON")


def catalog(registry: Any) -> dict[str, Any]:
    """The installed games (options with their help) and bots, for the game picker."""
    games = []
    for name in sorted(registry.games):
        spec = registry.games[name]
        games.append({
            "name": name, "description": spec.description,
            "min_players": spec.min_players, "max_players": spec.max_players,
            "player_names": list(spec.player_names),
            "options": [{
                "name": o.name, "default": o.default, "help": o.help, "type": o.type.__name__,
                "choices": None if o.choices is None else list(o.choices),
                "bounds": None if o.bounds is None else list(o.bounds),
            } for o in spec.options],
        })
    bots = [{"name": n, "description": b.description} for n, b in sorted(registry.bots.items())]
    return {"games": games, "bots": bots}


def _options(data: Any) -> dict[str, Any]:
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise RoomError("'options' maps option names to values")
    out = {}
    for key, value in data.items():
        if value is None or value == "":
            continue  # left at its default
        if not isinstance(value, str | int | float | bool) or len(str(value)) > 500:
            raise RoomError(f"option {key!r}: a plain value")
        out[key] = value
    return out


def _seed(value: Any) -> int | None:
    if value is None or value == "":
        return None
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 2**63:
        raise RoomError("'seed' is a whole number from 0, or empty for a random one")
    return value


def _claim(room: Room, take: Any) -> dict[str, Any]:
    """Take the seat ``take`` (None: the first free one, if any) for the creator."""
    seat = take
    if seat is None:
        free = room.free_seats()
        if not free:
            return {"id": room.id, "url": f"/game/{room.id}", "seat": None, "token": None}
        seat = free[0]
    token = room.take_seat(seat)
    return {"id": room.id, "url": f"/game/{room.id}", "seat": seat, "token": token}


# -- the application ---------------------------------------------------------------------
def create_app(folder: str | os.PathLike[str] | None, registry: Any = None) -> Starlette:
    """The application, keeping its games in ``folder`` (None: in memory, for tests)."""
    store = RoomStore(folder, registry)
    hub = Hub(store)

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers=SECURITY_HEADERS)

    async def api_catalog(request: Request) -> Response:
        return ok(catalog(store.registry))

    async def api_lobby(request: Request) -> Response:
        return ok({"games": store.lobby()})

    async def api_create(request: Request) -> Response:
        data = await read_json(request)
        if not isinstance(data, dict):
            raise RoomError("send a JSON object: game, options, seed, seats")
        name = data.get("game")
        if not isinstance(name, str) or not name:
            raise RoomError("'game' is the name of an installed game")
        spec = store.registry.game_spec(name)
        game = spec.make_game(_options(data.get("options")))
        seats = data.get("seats")
        count = len(game.player_names)
        if seats is None:
            seats = ["human"] * count
        if not isinstance(seats, list):
            raise RoomError("'seats' is a list: 'human' or a bot for each seat")
        room = store.create(game, seats, seed=_seed(data.get("seed")))
        answer = _claim(room, data.get("take"))
        hub.kick(room)
        return ok(answer, 201)

    async def api_load(request: Request) -> Response:
        data = await read_json(request)
        if not isinstance(data, dict):
            raise RoomError("send a JSON object: record, upto, seats")
        record = GameRecord.from_dict(data.get("record"), "the uploaded record")
        game = record.load_game(store.registry)
        seats = data.get("seats")
        count = len(game.player_names)
        if seats is None:
            seats = [p if p else "human" for p in record.players]
            if len(seats) != count:
                seats = ["human"] * count
        if not isinstance(seats, list):
            raise RoomError("'seats' is a list: 'human' or a bot for each seat")
        room = store.create(game, seats, start=record, upto=data.get("upto"))
        answer = _claim(room, data.get("take"))
        hub.kick(room)
        return ok(answer, 201)

    async def api_join(request: Request) -> Response:
        room = store.get(request.path_params["room"])
        data = await read_json(request, 4096)
        if not isinstance(data, dict):
            raise RoomError("send {\"seat\": N}")
        token = room.take_seat(data.get("seat"))
        await hub.broadcast(room)
        return ok({"id": room.id, "seat": data["seat"], "token": token})

    async def api_seats(request: Request) -> Response:
        room = store.get(request.path_params["room"])
        data = await read_json(request, 4096)
        if not isinstance(data, dict):
            raise RoomError("send {\"tokens\": [TOKEN, ...]}")
        return ok({"id": room.id, "held": room.held_by(data.get("tokens"))})

    async def api_game(request: Request) -> Response:
        return ok(store.get(request.path_params["room"]).snapshot())

    def _ply(request: Request) -> int | None:
        text = request.query_params.get("ply")
        if text is None or text == "":
            return None
        if not text.isdigit() or len(text) > 9:
            raise RoomError("'ply' is a move number from 0")
        return int(text)

    async def api_position(request: Request) -> Response:
        room = store.get(request.path_params["room"])
        ply = _ply(request)
        state = room.position(ply)
        from hexkit.render.svg import render_svg

        view = state.view()
        result = room.result_text(state)
        return ok({"ply": len(state.move_stack), "svg": render_svg(view, result=result),
                   "caption": list(view.caption), "result": result})

    async def api_svg(request: Request) -> Response:
        room = store.get(request.path_params["room"])
        state = room.position(_ply(request))
        from hexkit.render import render_state_svg

        shown = len(state.move_stack)
        title = f"{room.game} after move {shown}" if shown else f"{room.game}: start"
        headers = {**SECURITY_HEADERS, "Content-Disposition":
                   f'attachment; filename="{room.game.name}-{room.id}-{shown}.svg"'}
        return Response(render_state_svg(state, title=title), media_type="image/svg+xml",
                        headers=headers)

    async def api_record(request: Request) -> Response:
        room = store.get(request.path_params["room"])
        room.record.update(room.state)
        headers = {**SECURITY_HEADERS, "Content-Disposition":
                   f'attachment; filename="{room.game.name}-{room.id}.json"'}
        return Response(json.dumps(room.record.to_dict(), indent=1) + "\n",
                        media_type="application/json", headers=headers)

    async def game_socket(websocket: WebSocket) -> None:
        if not same_origin(websocket.headers):
            await websocket.accept()
            await websocket.send_json({"type": "error", "message": "refused: this page "
                                       "comes from another site"})
            await websocket.close(code=1008)
            return
        await websocket.accept()
        try:
            room = store.get(websocket.path_params["room"])
        except RoomError as exc:
            await websocket.send_json({"type": "error", "message": str(exc)})
            await websocket.close(code=1008)
            return
        hub.sockets.setdefault(room.id, set()).add(websocket)
        try:
            await websocket.send_text(json.dumps(room.snapshot()))
            while True:
                raw = await websocket.receive()
                if raw["type"] == "websocket.disconnect":
                    break
                payload = raw.get("text")
                if payload is None:
                    payload = raw.get("bytes") or b""
                await handle(room, websocket, payload)
        except WebSocketDisconnect:
            pass
        finally:
            hub.sockets.get(room.id, set()).discard(websocket)

    async def handle(room: Room, websocket: WebSocket, payload: str | bytes) -> None:
        try:
            message = parse_message(payload)
            kind = message["type"]
            if kind == "ping":
                await websocket.send_json({"type": "pong"})
                return
            if kind == "move":
                room.play(message["token"], message["move"])
            elif kind == "undo":
                room.request_undo(message["tokens"])
            elif kind == "undo_answer":
                room.answer_undo(message["token"], message["accept"])
        except RoomError as exc:
            await websocket.send_json({"type": "error", "message": str(exc)})
            return
        except (HexkitError, OSError) as exc:
            await websocket.send_json({"type": "error", "message": f"refused: {exc}"})
            return
        await hub.broadcast(room)
        hub.kick(room)

    async def on_room_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, RoomError)
        return error(str(exc), exc.status)

    async def on_hexkit_error(request: Request, exc: Exception) -> Response:
        from hexkit.errors import UnknownGameError

        status = 404 if isinstance(exc, UnknownGameError) else 400
        return error(str(exc), status)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        for room in store.rooms.values():
            hub.kick(room)  # a bot whose turn it was when the server stopped
        yield
        for task in list(hub.tasks):
            task.cancel()

    routes = [
        Route("/", page),
        Route("/game/{room}", page),
        Route("/api/catalog", api_catalog),
        Route("/api/games", api_lobby, methods=["GET"]),
        Route("/api/games", api_create, methods=["POST"]),
        Route("/api/games/load", api_load, methods=["POST"]),
        Route("/api/games/{room}", api_game),
        Route("/api/games/{room}/join", api_join, methods=["POST"]),
        Route("/api/games/{room}/seats", api_seats, methods=["POST"]),
        Route("/api/games/{room}/position", api_position),
        Route("/api/games/{room}/svg", api_svg),
        Route("/api/games/{room}/record", api_record),
        WebSocketRoute("/ws/games/{room}", game_socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers={RoomError: on_room_error, HexkitError: on_hexkit_error})
    app.state.store = store
    app.state.hub = hub
    return app
