"""The browsers watching each game, and the bots thinking for them.

Every socket has its own bounded queue and a task that sends from it, each send with a
timeout: a broadcast only puts the game's new version (texts made once per change, in the
worker that made it) in each queue and never waits for a browser. A browser that stops
reading falls behind; when its queue is full or a send times out it is dropped, and the
game goes on for everyone else.

What a browser is sent: the whole state when it comes (and when it asks for a resync);
then, once it said ``hello`` with protocol 2, only what changed since the version it holds
(the legal moves only to the browsers holding the seat to move). A browser of protocol 1
(no hello) gets the whole state after every change, as before.

Presence: a browser that says ``hello`` with the tokens it keeps is counted on the seats
they hold (the others are spectators), gets the server's time (for clocks) and then
``presence`` messages (who is connected, how many watch) whenever that changes. Presence
is per process: with several processes behind a proxy, each counts the browsers connected
to it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hexkit.web.bots import BotPool, close_bot, fallback_move
from hexkit.web.rooms import Room, RoomError, RoomStore
from hexkit.web.settings import Limits

log = logging.getLogger("hexkit.web")


@dataclass(eq=False)
class Peer:
    """One open WebSocket: who it is, its queue and its sending task."""

    socket: Any
    client: str
    room: str
    queue: asyncio.Queue[str | None] = field(default_factory=lambda: asyncio.Queue())
    task: asyncio.Task[None] | None = None
    dropped: bool = False
    #: 1: the whole state after every change; 2: what changed (said in its hello).
    protocol: int = 1
    #: Said hello: gets presence messages; the seats its tokens hold.
    greeted: bool = False
    seats: frozenset[int] = frozenset()
    #: The version of the game this browser was last sent.
    version: int = -1


class Hub:
    """Sockets by game, with per-client and total caps; bot turns through the pool."""

    def __init__(self, store: RoomStore, limits: Limits, pool: BotPool,
                 watch: Callable[[Room], None] | None = None):
        self.store = store
        self.limits = limits
        self.pool = pool
        #: Called with a room after each change (the clocks' flag timers).
        self.watch = watch
        self.peers: dict[str, set[Peer]] = {}
        self.per_client: dict[str, int] = {}
        self.count = 0
        self.tasks: set[asyncio.Task[None]] = set()
        #: The presence each game's browsers were last told.
        self.told: dict[str, str] = {}
        store.on_change = self.broadcast

    # -- sockets -------------------------------------------------------------------------
    @property
    def sockets(self) -> dict[str, set[Any]]:
        """The sockets of each game (for tests and tools)."""
        return {room: {p.socket for p in peers} for room, peers in self.peers.items()}

    def admit(self, client: str) -> str | None:
        """Why a new socket of ``client`` is refused (a cap), or None."""
        if self.count >= self.limits.sockets_total:
            return (f"refused: the server has its most connections open "
                    f"({self.limits.sockets_total}); try again shortly")
        if self.per_client.get(client, 0) >= self.limits.sockets_per_client:
            return (f"refused: you have {self.limits.sockets_per_client} connections open "
                    "already (close some pages)")
        return None

    def join(self, socket: Any, client: str, room: str) -> Peer:
        peer = Peer(socket, client, room,
                    asyncio.Queue(maxsize=max(1, self.limits.send_queue)))
        peer.task = asyncio.get_running_loop().create_task(self._sender(peer))
        self.peers.setdefault(room, set()).add(peer)
        self.per_client[client] = self.per_client.get(client, 0) + 1
        self.count += 1
        self.tell_presence(room)
        return peer

    def leave(self, peer: Peer) -> None:
        peers = self.peers.get(peer.room)
        if peers is None or peer not in peers:
            return
        peers.discard(peer)
        if not peers:
            del self.peers[peer.room]
        self.count -= 1
        left = self.per_client.get(peer.client, 1) - 1
        if left > 0:
            self.per_client[peer.client] = left
        else:
            self.per_client.pop(peer.client, None)
        if peer.task is not None and peer.task is not asyncio.current_task():
            peer.task.cancel()
        self.tell_presence(peer.room)

    # -- presence ------------------------------------------------------------------------
    def presence(self, room_id: str) -> dict[str, object]:
        """Which seats have a browser open, and how many others watch."""
        room = self.store.rooms.get(room_id)
        count = len(room.seats) if room is not None else 0
        peers = self.peers.get(room_id, set())
        present = [any(i in p.seats for p in peers) for i in range(count)]
        watching = sum(1 for p in peers if not p.seats)
        return {"type": "presence", "seats": present, "spectators": watching}

    def tell_presence(self, room_id: str, to: Peer | None = None) -> None:
        """Send the presence of a game to its browsers that said hello when it changed
        (and to ``to``, a browser that just said hello, in any case)."""
        if room_id not in self.peers:
            self.told.pop(room_id, None)
            return
        text = json.dumps(self.presence(room_id))
        changed = self.told.get(room_id) != text
        self.told[room_id] = text
        for peer in list(self.peers[room_id]):
            if peer.greeted and (changed or peer is to):
                self.send(peer, text)

    def send(self, peer: Peer, text: str) -> None:
        """Queue ``text`` for one socket; a socket whose queue is full is dropped."""
        if peer.dropped:
            return
        try:
            peer.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.drop(peer, "it stopped reading")

    def drop(self, peer: Peer, why: str) -> None:
        if peer.dropped:
            return
        peer.dropped = True
        log.info("game %s: a browser of %s was dropped: %s", peer.room, peer.client, why)
        self.leave(peer)
        task = asyncio.get_running_loop().create_task(self._close(peer))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _close(self, peer: Peer) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(peer.socket.close(code=1008), 2.0)

    async def _sender(self, peer: Peer) -> None:
        timeout = self.limits.send_timeout
        try:
            while True:
                text = await peer.queue.get()
                if text is None:
                    return
                try:
                    # A deadline on the send, without a task per message (wait_for's).
                    async with asyncio.timeout(timeout):
                        await peer.socket.send_text(text)
                except TimeoutError:
                    self.drop(peer, f"a send took more than {timeout:g} s")
                    return
                except Exception:  # the browser went away
                    self.leave(peer)
                    return
        except asyncio.CancelledError:
            pass

    def broadcast(self, room: Room) -> None:
        """Queue the game's new version for every browser of it (never waits for one):
        what changed for a browser holding the version before, the whole state for the
        others; the game's flag timer is set again."""
        if self.watch is not None:
            self.watch(room)
        published = room.published
        peers = self.peers.get(room.id)
        if not peers or published is None:
            return
        turn = published.data["turn"]
        for peer in list(peers):
            if peer.version == published.version:
                continue
            if peer.protocol >= 2 and published.base is not None and \
                    peer.version == published.base:
                mover = turn is not None and turn in peer.seats
                text = published.mover if mover else published.others
            else:
                text = published.full
            peer.version = published.version
            self.send(peer, text or published.full)

    def send_state(self, peer: Peer, room: Room) -> None:
        """The whole state, to a browser that just came or asked for a resync."""
        published = room.published or room.publish()
        peer.version = published.version
        self.send(peer, published.full)

    def hello(self, peer: Peer, room: Room, protocol: int, tokens: list[str]) -> None:
        """A browser says which protocol it speaks and which tokens it keeps: it is counted
        on their seats, gets the server's time, the legal moves when it holds the seat to
        move and, from now on, presence messages."""
        peer.protocol = protocol
        peer.greeted = True
        peer.seats = frozenset(room.seats_of(tokens[:16]))
        self.send(peer, json.dumps({"type": "time", "now": round(time.time(), 3)}))
        self.send_moves(peer, room, only_mover=True)
        self.tell_presence(room.id, to=peer)

    def send_moves(self, peer: Peer, room: Room, only_mover: bool = False) -> None:
        published = room.published or room.publish()
        turn = published.data["turn"]
        if only_mover and (turn is None or turn not in peer.seats):
            return
        self.send(peer, published.moves)

    def close_room(self, room_id: str) -> None:
        """Drop every browser of a game (deleted or archived)."""
        for peer in list(self.peers.get(room_id, ())):
            self.drop(peer, "the game left the live set")

    # -- bots ----------------------------------------------------------------------------
    def kick(self, room: Room) -> None:
        """Start the bot whose turn it is, if it is a bot's turn and none is thinking (with
        a storage shared by several processes, only the process that claims the turn), and
        set the game's flag timer again."""
        if self.watch is not None:
            self.watch(room)
        # From what was published (the live state may be changing in a worker); the
        # worker checks again before the bot thinks.
        published = room.published
        if published is None or published.data["over"] or \
                published.data["thinking"] is not None:
            return
        seat = published.data["turn"]
        if seat is None or seat >= len(room.seats) or room.seats[seat].is_human:
            return
        self._later(self._bot_turn(room, seat))

    def later(self, work: Any) -> None:
        """Run the coroutine ``work`` on the event loop, kept until it ends."""
        self._later(work)

    def _later(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _bot_turn(self, room: Room, seat: int) -> None:
        store = self.store

        def begin() -> tuple[int, Any] | None:
            if room.finished or room.thinking is not None or \
                    room.state.current_player != seat or room.seats[seat].is_human:
                return None
            cap = self.limits.bot_only_plies
            if not room.has_person and len(room.state.move_stack) >= cap:
                room.stop(f"{cap} moves without a person (the server's cap)")
                return None
            if store.storage.shared and not store.storage.claim_bot(
                    room.id, room.seq, self.pool.seconds + 5.0):
                return None  # another process plays this turn
            room.thinking = seat
            room.version += 1  # the page shows the bot thinking
            return room.version, room.state.copy()

        try:
            started = await store.run(room, begin)
        except RoomError as exc:
            log.error("game %s: the bot %s cannot start: %s", room.id,
                      room.seats[seat].spec, exc)
            return
        if started is None:
            return
        version, position = started
        bot = room.seats[seat].bot
        move, why = await self.pool.choose(bot, position)

        def finish() -> bool:
            nonlocal move
            if room.thinking == seat:
                room.thinking = None
                room.version += 1
            if store.rooms.get(room.id) is not room:
                return False  # deleted meanwhile
            if move is None and why in ("late", "stopped") and not self.pool.stopping \
                    and version + 1 == room.version and not room.finished:
                move = fallback_move(room.state, room.version)
                room.notice = (f"{room.players[seat]} ({room.seats[seat].spec}) ran out of "
                               f"its {self.pool.seconds:g} s: a random move was played")
                log.warning("game %s: the bot %s ran out of time", room.id,
                            room.seats[seat].spec)
            elif move is None:
                if not self.pool.stopping:
                    log.error("game %s: the bot %s failed: %s", room.id,
                              room.seats[seat].spec, why)
                return False
            return room.play_bot(seat, move, version + 1)

        try:
            played = await store.run(room, finish)
        except RoomError as exc:
            log.error("game %s: the bot %s's move was refused: %s", room.id,
                      room.seats[seat].spec, exc)
            return
        if played:
            self.kick(room)

    async def shutdown(self) -> None:
        """Stop thinking bots (their programs too) and close every socket."""
        self.pool.stopping = True
        self.store.on_change = None
        for task in list(self.tasks):
            task.cancel()
        for peers in list(self.peers.values()):
            for peer in list(peers):
                self.leave(peer)
        for room in self.store.rooms.values():
            for seat in room.seats:
                if seat.bot is not None:
                    close_bot(seat.bot)
