"""Who is asking, checked before any route runs: Host, Origin, request rate, and the
headers every answer carries.

:class:`Guard` wraps the whole application (pages, API, WebSockets, static files and the
framework's own 404/405/500 answers), so nothing is served without these checks:

- **Host** must be one of the server's names (loopback by default, plus the names given
  with ``--host``/``--allowed-host``): a page of another site that re-points its own name
  at 127.0.0.1 (DNS rebinding) is refused;
- **Origin**, when a browser sends one, must be this server's own (scheme, host and port);
- each client (an address) gets a **request budget** (a token bucket), HTTP and socket
  messages alike;
- running out of file descriptors answers 503, and the log says so once a minute, not once
  a connection.
"""

from __future__ import annotations

import errno
import json
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

from hexkit.web.settings import ServerSettings

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

log = logging.getLogger("hexkit.web")

#: The page may run its own scripts and talk to its own server, nothing else.
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data: blob:; "
                               "style-src 'self' 'unsafe-inline'; connect-src 'self'; "
                               "frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
}
_RAW_HEADERS = [(k.lower().encode("latin-1"), v.encode("latin-1"))
                for k, v in SECURITY_HEADERS.items()]

#: Errors that mean the process ran out of file descriptors.
FD_ERRORS = (errno.EMFILE, errno.ENFILE)


def split_host(value: str) -> tuple[str, int | None]:
    """``name:port`` (or ``[v6]:port``) -> (lower-case name without brackets, port)."""
    text = value.strip().lower()
    if text.startswith("["):
        name, _, rest = text[1:].partition("]")
        port_text = rest[1:] if rest.startswith(":") else ""
    elif text.count(":") == 1:
        name, _, port_text = text.partition(":")
    else:
        name, port_text = text, ""
    if port_text and not (port_text.isascii() and port_text.isdigit() and len(port_text) <= 5):
        return name, -1
    return name, int(port_text) if port_text else None


def host_allowed(host: str | None, names: frozenset[str]) -> bool:
    """True if the ``Host`` header names this server."""
    if not host:
        return False
    name, port = split_host(host)
    return port != -1 and name in names


def origin_allowed(origin: str | None, host: str | None, secure: bool) -> bool:
    """True unless a browser says the request comes from a page of another origin: the
    Origin's scheme, host and port must be the request's own (``Host`` and scheme)."""
    if origin is None:
        return True  # not sent by a browser page (curl, scripts, the test client)
    if not host:
        return False
    parts = urlsplit(origin.strip())
    scheme = "https" if secure else "http"
    if parts.scheme.lower() != scheme or parts.path not in ("", "/") or parts.query:
        return False
    try:
        origin_port = parts.port
    except ValueError:
        return False
    default = 443 if secure else 80
    name, port = split_host(host)
    return ((parts.hostname or "") == name
            and (origin_port or default) == (port or default))


class RateLimiter:
    """A token bucket per client: ``rate`` a second, ``burst`` at once. Remembers at most
    ``keep`` clients (the least recently seen are forgotten)."""

    def __init__(self, rate: float, burst: int, keep: int = 10000):
        self.rate = rate
        self.burst = burst
        self.keep = keep
        self.buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def wait(self, client: str, cost: float = 1.0) -> float:
        """0 if the client may go on now (the cost is taken), else the seconds to wait."""
        now = time.monotonic()
        tokens, when = self.buckets.pop(client, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - when) * self.rate)
        late = 0.0
        if tokens >= cost:
            tokens -= cost
        else:
            late = (cost - tokens) / self.rate
        self.buckets[client] = (tokens, now)
        while len(self.buckets) > self.keep:
            self.buckets.popitem(last=False)
        return late


class OncePerMinute(logging.Filter):
    """Lets one record of each message through a minute (with a count of the others):
    a flood of identical errors (``Too many open files``) becomes a line a minute."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: dict[str, tuple[float, int]] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        key = f"{record.name}:{str(record.msg)[:40]}"
        now = time.monotonic()
        when, hidden = self.seen.get(key, (0.0, 0))
        if now - when < 60:
            self.seen[key] = (when, hidden + 1)
            return False
        if hidden:
            record.msg = f"{record.msg} ({hidden} more like it in the last minute)"
        record.exc_info = None  # one line, not a traceback each time
        record.exc_text = None
        self.seen[key] = (now, 0)
        return True


def quiet_loop_errors(loop: Any) -> None:
    """The event loop reports each failed ``accept()`` (out of file descriptors) and each
    retry it schedules, thousands a second: say it once a minute, in one line."""
    last: dict[str, float] = {}

    def handler(loop: Any, context: dict[str, Any]) -> None:
        message = str(context.get("message", ""))
        exc = context.get("exception")
        crowded = message.startswith("socket.accept() out of system resource") or (
            isinstance(exc, OSError) and exc.errno in FD_ERRORS) or "_start_serving" in \
            repr(context.get("handle", ""))
        if not crowded:
            loop.default_exception_handler(context)
            return
        now = time.monotonic()
        if now - last.get("fd", 0.0) > 60:
            last["fd"] = now
            log.error("out of file descriptors: new connections wait (raise 'ulimit -n' or "
                      "lower --max-sockets)")

    loop.set_exception_handler(handler)


def client_address(scope: Scope) -> str:
    """The address a request comes from."""
    client = scope.get("client")
    return str(client[0]) if client else "?"


class Guard:
    """The ASGI middleware that checks Host, Origin and rate before the application, and
    adds :data:`SECURITY_HEADERS` to every HTTP answer."""

    def __init__(self, app: ASGIApp, settings: ServerSettings, limiter: RateLimiter):
        self.app = app
        self.names = settings.host_names()
        self.limiter = limiter
        self.out_of_files = 0.0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1")
                   for k, v in scope.get("headers", [])}
        host = headers.get("host")
        secure = scope.get("scheme") in ("https", "wss")
        refusal: tuple[int, str] | None = None
        if not host_allowed(host, self.names):
            shown = (host or "")[:60]
            refusal = (421, f"refused: this server does not answer to the name {shown!r} "
                            "(the operator lists its names with --allowed-host)")
        elif not origin_allowed(headers.get("origin"), host, secure):
            refusal = (403, "refused: the request comes from a page of another site")
        else:
            late = self.limiter.wait(client_address(scope))
            if late:
                refusal = (429, f"too many requests: try again in {max(1, round(late))} s")
        if refusal is not None:
            if kind == "http":
                await answer(send, refusal[0], {"error": refusal[1]})
            else:
                await refuse_socket(receive, send, refusal[1])
            return
        if kind == "websocket":
            await self._run(scope, receive, send)
            return

        started = False

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                present = {k.lower() for k, _ in message.get("headers", [])}
                message["headers"] = list(message.get("headers", [])) + [
                    (k, v) for k, v in _RAW_HEADERS if k not in present]
            await send(message)

        try:
            await self.app(scope, receive, send_with_headers)
        except OSError as exc:
            if exc.errno not in FD_ERRORS:
                raise
            self._note_out_of_files()
            if not started:
                await answer(send, 503, {"error": "the server is busy (out of file "
                                                  "descriptors): try again shortly"})

    async def _run(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await self.app(scope, receive, send)
        except OSError as exc:
            if exc.errno not in FD_ERRORS:
                raise
            self._note_out_of_files()

    def _note_out_of_files(self) -> None:
        now = time.monotonic()
        if now - self.out_of_files > 60:
            self.out_of_files = now
            log.error("out of file descriptors: answering 503 (raise 'ulimit -n' or lower "
                      "--max-sockets)")


async def answer(send: Send, status: int, data: Any) -> None:
    """A JSON answer with the security headers, straight on the ASGI channel."""
    body = json.dumps(data).encode("utf-8")
    headers = [(b"content-type", b"application/json"),
               (b"content-length", str(len(body)).encode("ascii")), *_RAW_HEADERS]
    if status == 429:
        headers.append((b"retry-after", b"1"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def refuse_socket(receive: Receive, send: Send, message: str) -> None:
    """Accept a WebSocket only to say why it is refused, in one line, and close it."""
    first = await receive()
    if first.get("type") != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.send", "text": json.dumps({"type": "error",
                                                               "message": message})})
    await send({"type": "websocket.close", "code": 1008})
