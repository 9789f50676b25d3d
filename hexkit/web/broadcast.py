"""How the processes serving one storage hear of each other's changes.

A process that committed a change of a game publishes ``(game id, seq)``; every other
process that has the game open catches up from the storage (:meth:`RoomStore.catch_up`)
and sends the change to its own browsers. The message carries no state: the storage is
the only truth, so a lost or repeated message costs a query, never a move.

- :class:`LocalBroadcast`: one process (the default): nobody else to tell.
- :class:`RedisBroadcast`: Redis pub/sub (``--broadcast redis://HOST:PORT/N``, the
  ``redis`` extra), one channel for the server's games.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from hexkit.errors import OptionError

log = logging.getLogger("hexkit.web")

#: What a process does when another one changed a game: ``(game id, seq)``.
Listener = Callable[[str, int], Awaitable[None]]
#: How to install the Redis client, in one line.
REDIS_HINT = "--broadcast redis://... needs the redis extra: pip install 'hexkit-games[redis]'"


class Broadcast(Protocol):
    """Tell the other processes of a change; hear of theirs."""

    async def start(self, listener: Listener) -> None: ...
    def publish(self, game_id: str, seq: int) -> None: ...
    async def stop(self) -> None: ...


class LocalBroadcast:
    """One process: its own browsers are told by the hub, nobody else needs to be."""

    async def start(self, listener: Listener) -> None:
        return None

    def publish(self, game_id: str, seq: int) -> None:
        return None

    async def stop(self) -> None:
        return None


class RedisBroadcast:
    """Redis pub/sub on one channel (``hexkit:games`` unless the URL's ``?channel=`` names
    another). A lost connection is retried every second; meanwhile browsers of games
    changed elsewhere catch up at their next change (every change catches up first)."""

    def __init__(self, url: str, channel: str = "hexkit:games"):
        try:
            import redis.asyncio  # noqa: F401
        except ImportError:
            raise OptionError(REDIS_HINT) from None
        self.url = url
        self.channel = channel
        self.me = secrets.token_hex(8)
        self.client: Any = None
        self.task: asyncio.Task[None] | None = None
        self.pending: set[asyncio.Task[Any]] = set()
        self.listener: Listener | None = None

    async def start(self, listener: Listener) -> None:
        import redis.asyncio as redis

        self.listener = listener
        self.client = redis.Redis.from_url(self.url)
        try:
            await self.client.ping()
        except (OSError, redis.RedisError) as exc:
            raise OptionError(f"--broadcast: cannot reach Redis: {exc}") from None
        ready = asyncio.get_running_loop().create_future()
        self.task = asyncio.get_running_loop().create_task(self._listen(ready))
        await ready

    async def _listen(self, ready: asyncio.Future[None]) -> None:
        import redis.asyncio as redis

        while True:
            try:
                pubsub = self.client.pubsub(ignore_subscribe_messages=True)
                await pubsub.subscribe(self.channel)
                if not ready.done():
                    ready.set_result(None)
                async for message in pubsub.listen():
                    self._heard(message.get("data"))
            except asyncio.CancelledError:
                raise
            except (OSError, redis.RedisError) as exc:
                log.warning("broadcast: lost Redis (%s); trying again", exc)
                if not ready.done():
                    ready.set_result(None)
                await asyncio.sleep(1.0)

    def _heard(self, data: Any) -> None:
        try:
            sender, game_id, seq = json.loads(data)
        except (TypeError, ValueError):
            return
        if sender == self.me or not isinstance(game_id, str) or not isinstance(seq, int) \
                or self.listener is None:
            return
        self._spawn(self.listener(game_id, seq))

    def _spawn(self, work: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(work)
        self.pending.add(task)
        task.add_done_callback(self.pending.discard)

    def publish(self, game_id: str, seq: int) -> None:
        if self.client is None:
            return
        self._spawn(self._publish(json.dumps([self.me, game_id, seq])))

    async def _publish(self, text: str) -> None:
        import redis.asyncio as redis

        try:
            await self.client.publish(self.channel, text)
        except (OSError, redis.RedisError) as exc:
            log.warning("broadcast: cannot publish to Redis: %s", exc)

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task
        for task in list(self.pending):
            task.cancel()
        if self.client is not None:
            with contextlib.suppress(Exception):
                await self.client.aclose()


def open_broadcast(url: str | None) -> Broadcast:
    """The broadcast layer a ``--broadcast`` URL names (None: this process alone)."""
    if url is None or url in ("", "local"):
        return LocalBroadcast()
    if url.startswith(("redis://", "rediss://", "unix://")):
        from urllib.parse import parse_qs, urlsplit

        channel = parse_qs(urlsplit(url).query).get("channel", ["hexkit:games"])[0]
        return RedisBroadcast(url, channel)
    raise OptionError(f"--broadcast {url.split('://')[0]}://...: not a broadcast layer "
                      "(local, or redis://HOST:PORT/N)")
