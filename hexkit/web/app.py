"""The ``hexkit serve`` application: pages, a JSON API and one WebSocket per game.

- ``GET /`` the lobby and the game picker; ``GET /game/ID`` a game; ``/login``,
  ``/welcome`` (a one-time link), ``/me`` (my games): the same page;
- ``GET /api/catalog`` the installed games with their options, and the bots offered;
- ``GET /api/me`` who is signed in; ``POST /api/login``, ``/api/logout``,
  ``/api/welcome``;
- ``GET /api/games?offset=N&limit=N[&mine=1][&archived=1]`` the lobby, a page at a time;
  ``POST /api/games`` a new game; ``POST /api/games/load`` a game from a record; ``POST
  /api/games/ID/join`` take a free seat; ``POST /api/games/ID/seats`` which seats the
  tokens a browser keeps hold; ``POST /api/games/ID/leave`` the seats of a finished game
  leave it; ``POST /api/games/ID/stop`` and ``DELETE /api/games/ID`` (the owner or an
  admin);
- ``GET /api/games/ID`` the game as the WebSocket sends it; ``.../position?ply=N`` the
  picture after move N; ``.../svg?ply=N`` the SVG to download; ``.../record`` the record;
- ``WS /ws/games/ID`` moves (and resign, draw, rematch) in, every change out to every
  browser of the game;
- ``GET /favicon.ico`` the icon.

Every request passes :class:`~hexkit.web.guards.Guard` first (Host, Origin, rate, security
headers). Routes then check who is asking (session, seat token, owner) and what it may
cost (the caps of :class:`~hexkit.web.settings.ServerSettings`), and hand the work to a
room through the :class:`~hexkit.web.rooms.RoomStore` (in a worker: nothing blocking runs
on the event loop). State-changing requests are JSON only (no form of another site can
send one). Games live in the storage the operator chose (a folder, or PostgreSQL), and
several processes on one storage hear of each other's changes through the broadcast layer
(in-process, or Redis).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import HTTPConnection, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from hexkit.errors import HexkitError, UnknownGameError
from hexkit.files.datapaths import variants_only
from hexkit.files.records import GameRecord
from hexkit.web import referee
from hexkit.web.accounts import COOKIE, SESSION_SECONDS, AccountError, Accounts, Person
from hexkit.web.backends import open_broadcast, open_storage
from hexkit.web.bots import BotPolicy, BotPool
from hexkit.web.guards import (
    FD_ERRORS,
    SECURITY_HEADERS,
    Guard,
    RateLimiter,
    client_address,
    quiet_loop_errors,
)
from hexkit.web.hub import Hub
from hexkit.web.play import PRESETS, PlayError, TimeControl
from hexkit.web.protocol import MAX_BODY, ascii_digits, decode_json, parse_message
from hexkit.web.rooms import Owner, Room, RoomError, RoomStore, SeatChoice, hash_token
from hexkit.web.settings import ServerSettings

STATIC = Path(__file__).with_name("static")
log = logging.getLogger("hexkit.web")

__all__ = ["SECURITY_HEADERS", "create_app"]


# -- helpers ---------------------------------------------------------------------------------
def error(message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def ok(data: Any, status: int = 200) -> JSONResponse:
    return JSONResponse(data, status_code=status)


async def read_json(request: Request, limit: int = MAX_BODY) -> Any:
    """The request's JSON body (RoomError if it is too large, not JSON, or not sent as
    JSON: a form of another site cannot send ``application/json`` without asking)."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise RoomError("send the request as JSON (Content-Type: application/json)", 415)
    length = ascii_digits(request.headers.get("content-length", ""))
    if length is not None and length > limit:
        raise RoomError(f"request too large: {length} bytes (at most {limit})", 413)
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise RoomError(f"request too large (at most {limit} bytes)", 413)
    return decode_json(bytes(body), "the request is not JSON")


def game_options(spec: Any, data: Any) -> dict[str, Any]:
    """A request's game options: plain values, and no file names (installed variants
    only)."""
    if data is None:
        return {}
    if not isinstance(data, dict) or len(data) > 50:
        raise RoomError("'options' maps option names to values")
    out = {}
    for key, value in data.items():
        if value is None or value == "":
            continue  # left at its default
        if not isinstance(value, str | int | float | bool) or len(str(value)) > 500:
            raise RoomError(f"option {str(key)[:40]!r}: a plain value")
        out[key] = value
    files = frozenset(o.name for o in spec.options if o.names_file)
    variants_only(spec.name, out, "a request", files)
    return out


def parse_seed(value: Any) -> int | None:
    if value is None or value == "":
        return None
    if isinstance(value, str):
        number = ascii_digits(value, limit=19)
        value = number if number is not None else value
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 2**63:
        raise RoomError("'seed' is a whole number from 0, or empty for a random one")
    return value


def parse_take(value: Any) -> Any:
    """The seat the creator takes: a seat number, "first" (default) or null/"none"."""
    if value is None or value == "first":
        return "first"
    if value == "none":
        return None
    return value


# -- the application -------------------------------------------------------------------------
def create_app(folder: str | os.PathLike[str] | None, registry: Any = None,
               settings: ServerSettings | None = None) -> Any:
    """The application, keeping its games in ``folder`` (None: in memory, for tests),
    with the operator's ``settings`` (default: loopback, default limits)."""
    settings = settings or ServerSettings()
    limits = settings.limits
    storage = open_storage(settings.storage, folder)
    broadcast = open_broadcast(settings.broadcast)
    if registry is None:
        from hexkit import plugins

        registry = plugins.registry()
    policy = BotPolicy(settings.bots, settings.engines, registry)

    def check_seat(spec: Any) -> SeatChoice:
        build, from_operator = policy.check(spec)
        shown = spec.strip().lower() if from_operator else build
        return SeatChoice(shown, build, from_operator)

    store = RoomStore(folder, registry, storage=storage, check_seat=check_seat)
    store.on_commit = lambda room: broadcast.publish(room.id, room.seq)
    accounts = Accounts(storage)
    pool = BotPool(settings.bots.thinking, settings.bots.seconds)
    flags = referee.FlagWatch(store)
    hub = Hub(store, limits, pool, watch=flags.watch)
    limiter = RateLimiter(limits.rate, limits.burst)
    required = settings.accounts_required

    # -- who is asking -------------------------------------------------------------------
    async def person_of(conn: HTTPConnection) -> Person:
        cookie = conn.cookies.get(COOKIE)
        if cookie and storage.shared:  # a database query: not on the event loop
            return await asyncio.to_thread(accounts.person, cookie)
        return accounts.person(cookie)

    def client_of(conn: HTTPConnection, person: Person) -> str:
        return f"account:{person.name}" if person.signed_in else \
            f"addr:{client_address(conn.scope)}"

    def may_watch(person: Person) -> None:
        if required and not settings.open_watching and not person.signed_in:
            raise RoomError("sign in to see the games of this server", 401)

    def may_play(person: Person) -> None:
        if required and not person.signed_in:
            # Say what is true of this server: watching may need an account too.
            also = " (people who are not signed in can only watch)" \
                if settings.open_watching else ""
            raise RoomError(f"sign in to play on this server{also}", 401)

    # -- pages ---------------------------------------------------------------------------
    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def favicon(request: Request) -> Response:
        return FileResponse(STATIC / "favicon.ico", media_type="image/x-icon")

    async def api_catalog(request: Request) -> Response:
        may_watch(await person_of(request))
        games = []
        for name in sorted(store.registry.games):
            spec = store.registry.games[name]
            games.append({
                "name": name, "description": spec.description,
                "min_players": spec.min_players, "max_players": spec.max_players,
                "player_names": list(spec.player_names),
                "options": [{
                    "name": o.name, "default": o.default, "help": o.help,
                    "type": o.type.__name__,
                    "choices": None if o.choices is None else list(o.choices),
                    "bounds": None if o.bounds is None else list(o.bounds),
                    "names_file": o.names_file,
                } for o in spec.options],
                **policy.offered_for(name),
            })
        return ok({"games": games, "bots": policy.offered(), "caps": policy.caps_text(),
                   "clocks": list(PRESETS)})

    async def api_me(request: Request) -> Response:
        person = await person_of(request)
        return ok({"name": person.name, "display": person.display, "admin": person.admin,
                   "accounts": required, "watching": not required or settings.open_watching
                   or person.signed_in})

    def with_session(answer: Response, key: str | None, request: Request) -> Response:
        secure = request.url.scheme == "https"
        if key is None:
            answer.delete_cookie(COOKIE, path="/", httponly=True, samesite="strict",
                                 secure=secure)
        else:
            answer.set_cookie(COOKIE, accounts.cookie_value(key), max_age=SESSION_SECONDS,
                              path="/", httponly=True, samesite="strict", secure=secure)
        return answer

    async def api_login(request: Request) -> Response:
        data = await read_json(request, 4096)
        if not isinstance(data, dict):
            raise RoomError('send {"name": NAME, "password": PASSWORD}')
        # Hashing takes a good fraction of a second of CPU: off the event loop.
        key = await asyncio.to_thread(accounts.sign_in, data.get("name"),
                                      data.get("password"), client_address(request.scope))
        person = accounts.person(accounts.cookie_value(key))
        return with_session(ok({"name": person.name, "admin": person.admin}), key, request)

    async def api_logout(request: Request) -> Response:
        await read_json(request, 4096)
        accounts.sign_out(request.cookies.get(COOKIE))
        return with_session(ok({"name": None}), None, request)

    async def api_welcome(request: Request) -> Response:
        data = await read_json(request, 4096)
        if not isinstance(data, dict):
            raise RoomError('send {"key": KEY, "password": PASSWORD}')
        key = await asyncio.to_thread(accounts.welcome, data.get("key"),
                                      data.get("password"))
        person = accounts.person(accounts.cookie_value(key))
        return with_session(ok({"name": person.name}), key, request)

    # -- the lobby -----------------------------------------------------------------------
    def page_of(request: Request) -> tuple[int, int]:
        offset = ascii_digits(request.query_params.get("offset", "0") or "0", limit=9)
        size = ascii_digits(request.query_params.get("limit", "") or
                            str(limits.page_size), limit=9)
        if offset is None or size is None:
            raise RoomError("'offset' and 'limit' are whole numbers from 0")
        return offset, max(1, min(size, limits.page_size))

    async def api_lobby(request: Request) -> Response:
        person = await person_of(request)
        may_watch(person)
        offset, size = page_of(request)
        mine = None
        if request.query_params.get("mine") == "1":
            if not person.signed_in:
                raise RoomError("sign in to see your games", 401)
            mine = person.name
        if request.query_params.get("archived") == "1":
            games, total = await asyncio.to_thread(storage.archived, offset, size, mine)
        else:
            games, total = await asyncio.to_thread(store.lobby, offset, size, mine=mine)
        return ok({"games": games, "total": total, "offset": offset, "limit": size})

    # -- making games --------------------------------------------------------------------
    async def check_capacity(client: str) -> None:
        live = await asyncio.to_thread(storage.live_count)
        if live >= limits.games_total:
            raise RoomError(f"the server holds its most games ({limits.games_total}); "
                            "try again later", 503)
        if await asyncio.to_thread(store.live_games_of, client) >= limits.games_per_client:
            raise RoomError(f"you have {limits.games_per_client} games going on already "
                            "(the server's cap): finish, stop or delete one first", 429)

    def make_owner(client: str, person: Person) -> tuple[Owner, str]:
        import secrets

        token = secrets.token_urlsafe(24)
        return Owner(client, person.name or "", hash_token(token)), token

    def created(room: Room, seat: int | None, token: str | None,
                owner_token: str) -> Response:
        hub.kick(room)
        return ok({"id": room.id, "url": f"/game/{room.id}", "seat": seat, "token": token,
                   "owner_token": owner_token}, 201)

    async def api_create(request: Request) -> Response:
        person = await person_of(request)
        may_play(person)
        data = await read_json(request)
        if not isinstance(data, dict):
            raise RoomError("send a JSON object: game, options, seed, seats")
        name = data.get("game")
        if not isinstance(name, str) or not name or len(name) > 100:
            raise RoomError("'game' is the name of an installed game")
        client = client_of(request, person)
        await check_capacity(client)
        spec = store.registry.game_spec(name)
        game = spec.make_game(game_options(spec, data.get("options")))
        seats = data.get("seats")
        if seats is None:
            seats = ["human"] * len(game.player_names)
        if not isinstance(seats, list) or len(seats) > 8:
            raise RoomError("'seats' is a list: 'human' or a bot for each seat")
        for i, seat_spec in enumerate(seats):
            try:
                policy.check_for_game(seat_spec, game.name)
            except HexkitError as exc:
                raise RoomError(f"seat {i}: {exc}") from None
        clock = TimeControl.parse(data.get("clock"))
        owner, owner_token = make_owner(client, person)
        room, seat, token = await store.make(game, seats, seed=parse_seed(data.get("seed")),
                                             owner=owner, take=parse_take(data.get("take")),
                                             player=person.name or "", clock=clock)
        return created(room, seat, token, owner_token)

    async def api_load(request: Request) -> Response:
        person = await person_of(request)
        may_play(person)
        data = await read_json(request)
        if not isinstance(data, dict):
            raise RoomError("send a JSON object: record, upto, seats")
        client = client_of(request, person)
        await check_capacity(client)
        record = GameRecord.from_dict(data.get("record"), "the uploaded record")
        game = record.load_game(store.registry, untrusted=True)
        seats = data.get("seats")
        count = len(game.player_names)
        notes = []
        if seats is None:
            seats = []
            for i, spec in enumerate(record.players):
                try:
                    check_seat(spec or "human")
                    seats.append(spec or "human")
                except HexkitError:
                    notes.append(f"seat {i} ({str(spec).partition(':')[0][:30]}) is played "
                                 "by a person")
                    seats.append("human")
            if len(seats) != count:
                seats, notes = ["human"] * count, []
        if not isinstance(seats, list) or len(seats) > 8:
            raise RoomError("'seats' is a list: 'human' or a bot for each seat")
        upto = data.get("upto")
        owner, owner_token = make_owner(client, person)
        room, seat, token = await store.make(game, seats, start=record, upto=upto,
                                             owner=owner, take=parse_take(data.get("take")),
                                             player=person.name or "")
        answer = created(room, seat, token, owner_token)
        if notes:
            body = json.loads(bytes(answer.body))
            body["notes"] = notes
            answer = ok(body, 201)
        return answer

    # -- one game ------------------------------------------------------------------------
    async def api_join(request: Request) -> Response:
        person = await person_of(request)
        may_play(person)
        room = await store.open(request.path_params["room"])
        data = await read_json(request, 4096)
        if not isinstance(data, dict):
            raise RoomError("send {\"seat\": N}")

        def take() -> str:
            if room.finished:
                raise RoomError("the game is over: no seat to take", 409)
            return room.take_seat(data.get("seat"), person.name or "")

        token = await store.run(room, take)
        return ok({"id": room.id, "seat": data["seat"], "token": token})

    async def api_seats(request: Request) -> Response:
        may_watch(await person_of(request))
        room = await store.open(request.path_params["room"])
        data = await read_json(request, 4096)
        if not isinstance(data, dict):
            raise RoomError("send {\"tokens\": [TOKEN, ...]}")
        return ok({"id": room.id, "held": room.held_by(data.get("tokens"))})

    async def api_leave(request: Request) -> Response:
        person = await person_of(request)
        may_watch(person)
        room = await store.open(request.path_params["room"])
        data = await read_json(request, 4096)
        if not isinstance(data, dict):
            raise RoomError("send {\"tokens\": [TOKEN, ...]}")
        archived = await store.run(room, lambda: referee.leave(store, room,
                                                               data.get("tokens")))
        if archived:
            hub.close_room(room.id)
            flags.forget(room.id)
        return ok({"id": room.id, "left": True, "archived": archived})

    async def owner_request(request: Request) -> tuple[Room, Person]:
        person = await person_of(request)
        room = await store.open(request.path_params["room"])
        data = await read_json(request, 4096)
        token = data.get("owner_token") if isinstance(data, dict) else None
        if not (person.admin or room.owned_by(person.name, token)):
            raise RoomError("only the game's owner (or an admin) can do that", 403)
        return room, person

    async def api_stop(request: Request) -> Response:
        room, person = await owner_request(request)
        who = "an admin" if person.admin and not room.owned_by(person.name, None) \
            else "its owner"
        def stop() -> dict[str, Any]:
            room.stop(f"stopped by {who}")
            return room.summary()

        return ok(await store.run(room, stop))

    async def api_delete(request: Request) -> Response:
        room, _ = await owner_request(request)
        await store.run(room, lambda: room.stop("deleted"))
        await asyncio.to_thread(store.delete, room)
        hub.close_room(room.id)
        flags.forget(room.id)
        return ok({"id": room.id, "deleted": True})

    async def api_game(request: Request) -> Response:
        may_watch(await person_of(request))
        room = await store.open(request.path_params["room"])
        return Response(room.snapshot_text(), media_type="application/json")

    def _ply(request: Request) -> int | None:
        text = request.query_params.get("ply")
        if text is None or text == "":
            return None
        number = ascii_digits(text, limit=9)
        if number is None:
            raise RoomError("'ply' is a move number from 0")
        return number

    async def api_position(request: Request) -> Response:
        may_watch(await person_of(request))
        room = await store.open(request.path_params["room"])
        ply = _ply(request)

        def make(state: Any) -> dict[str, Any]:
            from hexkit.render.svg import render_svg

            view = state.view()
            result = room.result_text(state) if state is not room.state else \
                room.result_text()
            return {"ply": len(state.move_stack), "svg": render_svg(view, result=result),
                    "caption": list(view.caption), "result": result}

        return ok(await store.run(room, lambda: room.picture(ply, "position", make)))

    async def api_svg(request: Request) -> Response:
        may_watch(await person_of(request))
        room = await store.open(request.path_params["room"])
        ply = _ply(request)

        def make(state: Any) -> tuple[int, str]:
            from hexkit.render import render_state_svg

            shown = len(state.move_stack)
            title = f"{room.game} after move {shown}" if shown else f"{room.game}: start"
            return shown, render_state_svg(state, title=title)

        shown, svg = await store.run(room, lambda: room.picture(ply, "svg", make))
        headers = {"Content-Disposition":
                   f'attachment; filename="{room.game.name}-{room.id}-{shown}.svg"'}
        return Response(svg, media_type="image/svg+xml", headers=headers)

    async def api_record(request: Request) -> Response:
        may_watch(await person_of(request))
        room_id = store.check_id(request.path_params["room"])
        try:
            room = await store.open(room_id)
        except RoomError as exc:
            if exc.status != 404:
                raise
            found = await asyncio.to_thread(storage.archived_record, room_id)
            if found is None:
                raise
            data, name = found.to_dict(), found.name
        else:
            def current() -> dict[str, Any]:
                room.record.update(room.state)
                return room.record.to_dict()

            data, name = await store.run(room, current), room.game.name
        headers = {"Content-Disposition": f'attachment; filename="{name}-{room_id}.json"'}
        return Response(json.dumps(data, indent=1) + "\n",
                        media_type="application/json", headers=headers)

    # -- the game's socket ---------------------------------------------------------------
    async def refuse(websocket: WebSocket, message: str) -> None:
        await websocket.accept()
        await websocket.send_json({"type": "error", "message": message})
        await websocket.close(code=1008)

    async def game_socket(websocket: WebSocket) -> None:
        person = await person_of(websocket)
        try:
            may_watch(person)
            room = await store.open(websocket.path_params["room"])
        except RoomError as exc:
            await refuse(websocket, str(exc))
            return
        client = client_of(websocket, person)
        full = hub.admit(client)
        if full is not None:
            await refuse(websocket, full)
            return
        await websocket.accept()
        peer = hub.join(websocket, client, room.id)
        hub.kick(room)  # a bot whose turn it was when the game was saved
        try:
            hub.send_state(peer, room)
            while not peer.dropped:
                raw = await websocket.receive()
                if raw["type"] == "websocket.disconnect":
                    break
                payload = raw.get("text")
                if payload is None:
                    payload = raw.get("bytes") or b""
                if limiter.wait(client):
                    hub.send(peer, json.dumps({"type": "error", "message":
                                               "too many messages: slow down"}))
                    continue
                await handle(room, peer, person, payload)
        except WebSocketDisconnect:
            pass
        finally:
            hub.leave(peer)

    async def handle(room: Room, peer: Any, person: Person, payload: str | bytes) -> None:
        def say(message: str) -> None:
            hub.send(peer, json.dumps({"type": "error", "message": message}))

        try:
            message = parse_message(payload)
            kind = message["type"]
            if kind == "ping":
                hub.send(peer, '{"type": "pong"}')
                return
            if kind == "hello":
                hub.hello(peer, room, message["protocol"], message["tokens"])
                return
            if kind == "resync":
                hub.send_state(peer, room)
                return
            if kind == "moves":
                hub.send_moves(peer, room)
                return
            if store.rooms.get(room.id) is not room:
                raise RoomError("this game was deleted", 410)
            if required and not person.signed_in:
                raise RoomError("sign in to play on this server (you are watching)", 401)

            def act() -> Room | None:
                """The request, in the room's worker; a rematch made by it."""
                if kind == "move":
                    check_player(room, person, room.seat_of(message["token"]))
                    room.play(message["token"], message["move"])
                elif kind == "undo":
                    room.request_undo(message["tokens"])
                elif kind == "undo_answer":
                    check_player(room, person, room.seat_of(message["token"]))
                    room.answer_undo(message["token"], message["accept"])
                elif kind == "resign":
                    check_player(room, person, room.seat_of(message["token"]))
                    referee.resign(room, message["token"])
                elif kind == "draw":
                    check_player(room, person, room.seat_of(message["token"]))
                    referee.offer_draw(room, message["token"])
                elif kind == "draw_answer":
                    check_player(room, person, room.seat_of(message["token"]))
                    referee.answer_draw(room, message["token"], message["accept"])
                elif kind == "rematch_answer":
                    check_player(room, person, room.seat_of(message["token"]))
                    return referee.answer_rematch(store, room, message["token"],
                                                  message["accept"])
                elif kind == "rematch":
                    for seat in room.seats_of(message["tokens"]):
                        check_player(room, person, seat)
                    return referee.ask_rematch(store, room, message["tokens"])
                return None

            made = await store.run(room, act, checked=kind == "move")
            if made is not None:
                hub.kick(made)
        except (RoomError, PlayError) as exc:
            say(str(exc))
            return
        except HexkitError as exc:
            say(f"refused: {exc}")
            return
        hub.kick(room)

    def check_player(room: Room, person: Person, seat: int) -> None:
        player = room.seats[seat].player
        if required and player and person.name != player and not person.admin:
            raise RoomError(f"seat {seat} is {player}'s: sign in as {player} to play it", 403)

    # -- errors --------------------------------------------------------------------------
    async def on_room_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, RoomError | AccountError | PlayError)
        return error(str(exc), exc.status)

    async def on_hexkit_error(request: Request, exc: Exception) -> Response:
        status = 404 if isinstance(exc, UnknownGameError) else 400
        return error(str(exc), status)

    async def on_os_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, OSError)
        if exc.errno in FD_ERRORS:
            raise exc  # the guard answers 503 and logs it once a minute
        log.error("%s %s failed: %s", request.method, request.url.path,
                  exc.strerror or type(exc).__name__)
        reason = (exc.strerror or "an error").lower()
        return error(f"the server failed on this request ({reason})", 500)

    async def on_crash(request: Request, exc: Exception) -> Response:
        log.error("%s %s failed: %s: %s", request.method, request.url.path,
                  type(exc).__name__, exc)
        return error("the server failed on this request (its log says why)", 500)

    async def archive_idle() -> None:
        while True:
            await asyncio.sleep(min(60.0, max(1.0, limits.archive_after / 4)))
            if storage.shared:  # a bot whose process stopped: another one plays it
                for room_id in list(hub.peers):
                    if room_id in store.rooms:
                        hub.kick(store.rooms[room_id])
            for room_id in await asyncio.to_thread(store.idle_finished, limits.archive_after):
                try:
                    await asyncio.to_thread(store.archive, room_id)
                    hub.close_room(room_id)
                    flags.forget(room_id)
                except (OSError, HexkitError) as exc:
                    log.error("game %s: cannot archive it: %s", room_id,
                              getattr(exc, "strerror", None) or exc)

    async def remote_change(game_id: str, seq: int) -> None:
        """Another process committed a change of a game: the browsers here see it."""
        room = store.rooms.get(game_id)
        if room is None or room.seq == seq:
            return
        room.heard = max(room.heard, seq)
        if game_id not in hub.peers and room.thinking is None and \
                (room.lock is None or not room.lock.locked()):
            store.forget(game_id)  # nobody watches it here: loaded afresh if opened
            flags.forget(game_id)
            return
        try:
            await store.run(room, lambda: None)
        except RoomError as exc:
            if exc.status == 410:
                store.rooms.pop(game_id, None)
                hub.close_room(game_id)
                flags.forget(game_id)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        loop = asyncio.get_running_loop()
        quiet_loop_errors(loop)
        await broadcast.start(remote_change)
        indexing = loop.run_in_executor(store.workers, store.index_missing)
        archiver = loop.create_task(archive_idle())
        sweeper = loop.create_task(flags.sweep())
        yield
        archiver.cancel()
        sweeper.cancel()
        flags.close()
        await hub.shutdown()
        await broadcast.stop()
        with contextlib.suppress(Exception):
            await indexing
        await asyncio.to_thread(store.close)

    routes = [
        Route("/", page),
        Route("/game/{room}", page),
        Route("/login", page),
        Route("/welcome", page),
        Route("/me", page),
        Route("/api/catalog", api_catalog),
        Route("/api/me", api_me),
        Route("/api/login", api_login, methods=["POST"]),
        Route("/api/logout", api_logout, methods=["POST"]),
        Route("/api/welcome", api_welcome, methods=["POST"]),
        Route("/api/games", api_lobby, methods=["GET"]),
        Route("/api/games", api_create, methods=["POST"]),
        Route("/api/games/load", api_load, methods=["POST"]),
        Route("/api/games/{room}", api_game, methods=["GET"]),
        Route("/api/games/{room}", api_delete, methods=["DELETE"]),
        Route("/api/games/{room}/delete", api_delete, methods=["POST"]),
        Route("/api/games/{room}/stop", api_stop, methods=["POST"]),
        Route("/api/games/{room}/join", api_join, methods=["POST"]),
        Route("/api/games/{room}/seats", api_seats, methods=["POST"]),
        Route("/api/games/{room}/leave", api_leave, methods=["POST"]),
        Route("/favicon.ico", favicon),
        Route("/api/games/{room}/position", api_position),
        Route("/api/games/{room}/svg", api_svg),
        Route("/api/games/{room}/record", api_record),
        WebSocketRoute("/ws/games/{room}", game_socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    handlers: dict[Any, Callable[[Request, Exception], Awaitable[Response]]] = {
        RoomError: on_room_error, AccountError: on_room_error, PlayError: on_room_error,
        HexkitError: on_hexkit_error, OSError: on_os_error, Exception: on_crash}
    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers=handlers)
    app.state.store = store
    app.state.hub = hub
    app.state.accounts = accounts
    app.state.settings = settings
    app.state.policy = policy
    app.state.broadcast = broadcast
    guarded = Guard(app, settings, limiter)
    guarded.state = app.state  # type: ignore[attr-defined]
    return guarded

