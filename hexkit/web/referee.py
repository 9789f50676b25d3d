"""What players ask of a game beyond moves, decided for a room: resign, offer or answer a
draw, ask for or answer a rematch, leave a finished game; and the flag of a clock that runs
out while nobody acts (:class:`FlagWatch`).

The rules of each are in :mod:`hexkit.web.play`; this module finds who is asking (the
seat a token holds), refuses what the game's state does not allow in one line, and makes
the rematch's room. Each runs in the room's worker (:meth:`RoomStore.run`): every change
is committed by the room before it is announced.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from collections.abc import Iterable
from typing import Any

from hexkit.errors import HexkitError
from hexkit.web.play import PlayError
from hexkit.web.rooms import Room, RoomError, RoomStore

log = logging.getLogger("hexkit.web")


def _playing(room: Room, token: Any) -> int:
    """The seat ``token`` holds in a game that goes on (RoomError otherwise)."""
    seat = room.seat_of(token)
    if room.finished:
        raise RoomError(f"the game is over ({room.result_text()})", 409)
    if room.check_time():
        raise RoomError(f"time is up: {room.result_text()}", 409)
    return seat


def resign(room: Room, token: Any) -> None:
    """The seat ``token`` holds gives up: the other player wins."""
    seat = _playing(room, token)
    room.flow_change(lambda flow: flow.resign(seat, room.players, time.time()))


def offer_draw(room: Room, token: Any) -> None:
    """Offer the other player a draw (refused against a bot: bots play on)."""
    seat = _playing(room, token)
    others = [i for i, s in enumerate(room.seats) if i != seat]
    if all(not room.seats[i].is_human for i in others):
        raise RoomError("bots play on: a draw is offered to a person", 409)
    room.flow_change(lambda flow: flow.offer_draw(seat))


def answer_draw(room: Room, token: Any, accept: bool) -> None:
    """Accept (the game is drawn) or decline the other player's draw offer."""
    seat = _playing(room, token)
    room.flow_change(lambda flow: flow.answer_draw(seat, accept, time.time()))


def _people(room: Room, besides: Iterable[int]) -> list[int]:
    """The human seats somebody holds, other than ``besides``."""
    skip = set(besides)
    return [i for i, s in enumerate(room.seats)
            if s.is_human and s.token_hash is not None and i not in skip]


def ask_rematch(store: RoomStore, room: Room, tokens: Any) -> Room | None:
    """A player of a finished game asks for a rematch: made at once (returned) when no
    other person plays in it, else the others are asked first (None)."""
    held = room.seats_of(tokens if isinstance(tokens, list) else [])
    if not held:
        raise RoomError("that token holds no seat of this game: only a player can ask for "
                        "a rematch", 403)
    if not room.finished:
        raise RoomError("the game goes on: a rematch is asked for once it is over", 409)
    if room.flow.rematch:
        raise RoomError("the rematch is made already", 409)
    if not _people(room, held):
        return make_rematch(store, room)
    seat = min(held)

    def ask(flow: Any) -> None:
        if flow.rematch_offer is not None and flow.rematch_offer not in held:
            raise PlayError("the other player asked for a rematch already: accept it")
        flow.rematch_offer = seat

    room.flow_change(ask)
    return None


def answer_rematch(store: RoomStore, room: Room, token: Any, accept: bool) -> Room | None:
    """Accept (the rematch is made and returned) or decline the other's request."""
    seat = room.seat_of(token)
    asked = room.flow.rematch_offer
    if asked is None:
        raise RoomError("nobody asked for a rematch", 409)
    if asked == seat:
        raise RoomError("the other player answers your rematch request", 409)
    if room.flow.rematch:
        raise RoomError("the rematch is made already", 409)
    if accept:
        return make_rematch(store, room)

    def decline(flow: Any) -> None:
        flow.rematch_offer = None

    room.flow_change(decline)
    return None


def make_rematch(store: RoomStore, room: Room) -> Room:
    """The same game again, each player one seat further on (two players: swapped), the
    same people holding the seats with the same secrets (the page moves its tokens), the
    same clock, the same owner; the finished game names it. Run in the finished game's
    worker (:meth:`RoomStore.run`): a rematch whose naming lost a race with another
    process is deleted again, and made afresh when the change is retried."""
    n = len(room.seats)
    old = [room.seats[(i + 1) % n] for i in range(n)]
    clock = None if room.flow.clock is None else room.flow.clock.control
    made, _, _ = store.create(room.game, [s.spec for s in old], owner=room.owner,
                              clock=clock,
                              holders=[(s.token_hash, s.player) if s.is_human else None
                                       for s in old])

    def named(flow: Any) -> None:
        flow.rematch, flow.rematch_offer = made.id, None

    try:
        room.flow_change(named)
    except BaseException:
        store.delete(made)
        raise
    return made


def leave(store: RoomStore, room: Room, tokens: Any) -> bool:
    """The seats ``tokens`` hold leave a finished game: their secrets no longer hold them
    and their names come off it. When nobody holds a seat any more the game leaves the
    live set (archived: its record stays downloadable); True then."""
    held = room.seats_of(tokens if isinstance(tokens, list) else [])
    if not held:
        raise RoomError("that token holds no seat of this game", 403)
    if not room.finished:
        raise RoomError("the game goes on: resign first, or ask its owner to stop it", 409)
    before = [(s.token_hash, s.player) for s in room.seats]
    for seat in held:
        room.seats[seat].token_hash, room.seats[seat].player = None, ""

    def gone(flow: Any) -> None:
        flow.left = sorted(set(flow.left) | held)
        if flow.rematch_offer in held:
            flow.rematch_offer = None

    try:
        room.flow_change(gone)
    except BaseException:
        for chosen, (token_hash, player) in zip(room.seats, before, strict=True):
            chosen.token_hash, chosen.player = token_hash, player
        raise
    if _people(room, ()):
        return False
    store.archive(room)
    return True


#: How often the lobby's index is asked for clocks that ran out in games not loaded here.
SWEEP_SECONDS = 1.0


class FlagWatch:
    """Ends a game when the running clock runs out, even if nobody acts: one timer per
    loaded room with a clock running, set again from what the room last published after
    every change (:meth:`watch`); when it fires, the room decides in its worker
    (:meth:`Room.check_time` through :meth:`RoomStore.run`, which announces the end).

    A game nobody opened since the server started (or that this process unloaded) has no
    timer: its lobby row keeps its clock's deadline, and :meth:`sweep` loads each game
    whose deadline passed and sets its timer, so its flag falls within a second of its
    time. With several processes each sweeps, and the storage's version check lets one
    commit the flag (the others catch up)."""

    def __init__(self, store: RoomStore):
        self.store = store
        self.timers: dict[str, asyncio.TimerHandle] = {}
        self.tasks: set[asyncio.Task[None]] = set()

    async def sweep(self, every: float = SWEEP_SECONDS) -> None:
        """Every ``every`` seconds, until cancelled: the games whose clock ran out by
        their rows and that have no timer here are loaded and watched."""
        while True:
            await asyncio.sleep(every)
            try:
                due = await asyncio.to_thread(self.store.storage.due_clocks, time.time())
            except (OSError, HexkitError, sqlite3.Error) as exc:  # the next sweep retries
                log.error("cannot look for clocks that ran out: %s", exc)
                continue
            for game_id in due:
                if game_id in self.timers:
                    continue
                try:
                    room = await self.store.open(game_id)
                except RoomError as exc:
                    log.error("game %s: cannot decide its clock: %s", game_id, exc)
                    continue
                if game_id not in self.timers:
                    self.watch(room)

    def watch(self, room: Room, retry: bool = False) -> None:
        """Set (or clear) the room's timer from its clock as last published."""
        old = self.timers.pop(room.id, None)
        if old is not None:
            old.cancel()
        published = room.published
        if published is None or published.data["over"]:
            return
        clock = published.data["play"]["clock"]
        if clock is None or clock["running"] is None:
            return
        deadline = clock["since"] + clock["left"][clock["running"]]
        # A little after the deadline (the clock must say the time is up); a look that
        # found the time not up, or could not save it, waits a second.
        delay = max(0.0, deadline - time.time()) + 0.05
        if retry:
            delay = max(delay, 1.0)
        loop = asyncio.get_running_loop()
        self.timers[room.id] = loop.call_later(delay, self._fire, room)

    def _fire(self, room: Room) -> None:
        self.timers.pop(room.id, None)
        task = asyncio.get_running_loop().create_task(self._decide(room))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _decide(self, room: Room) -> None:
        if self.store.rooms.get(room.id) is not room:
            return  # deleted, archived or unloaded meanwhile
        try:
            flagged = await self.store.run(room, room.check_time)
        except RoomError as exc:
            log.error("game %s: cannot decide its clock: %s", room.id, exc)
            flagged = False
        if not flagged and room.id not in self.timers:
            self.watch(room, retry=True)

    def forget(self, room_id: str) -> None:
        timer = self.timers.pop(room_id, None)
        if timer is not None:
            timer.cancel()

    def close(self) -> None:
        for timer in self.timers.values():
            timer.cancel()
        self.timers.clear()
        for task in self.tasks:
            task.cancel()


__all__ = ["FlagWatch", "answer_draw", "answer_rematch", "ask_rematch", "leave",
           "make_rematch", "offer_draw", "resign"]
