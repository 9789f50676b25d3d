"""What the operator of ``hexkit serve`` decides: who may connect, what bots may cost, and
how much any one client may take. Plain data, set once from the command line.

Every limit has a default fit for a class server on a small machine; ``hexkit serve --help``
names the flags that change them.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass, field

#: Host names that always mean this machine.
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1", "[::1]")


def is_loopback(host: str) -> bool:
    """True for an address or name that only this machine can reach."""
    text = host.strip().strip("[]").lower()
    if text in ("localhost", "localhost.localdomain") or text.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(text).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True)
class Limits:
    """What one client (an address, or an account when signed in) and everyone together may
    take of the server."""

    #: Live games (not over, not stopped) one client may have created.
    games_per_client: int = 20
    #: Games in the live set (archived games are not counted).
    games_total: int = 400
    #: Open WebSockets of one client, and in all.
    sockets_per_client: int = 24
    sockets_total: int = 600
    #: HTTP requests and socket messages a client may send: ``rate`` a second on average,
    #: ``burst`` at once.
    rate: float = 20.0
    burst: int = 120
    #: Messages waiting to be sent to one socket; a socket that falls further behind (it
    #: stopped reading) is dropped, and the game goes on.
    send_queue: int = 16
    #: Seconds one send may take before its socket is dropped.
    send_timeout: float = 10.0
    #: Moves a game without a person plays before it is stopped.
    bot_only_plies: int = 1000
    #: Seconds a finished (or stopped) game stays in the live set before it is archived.
    archive_after: float = 3600.0
    #: Games a lobby page lists.
    page_size: int = 50


@dataclass(frozen=True)
class BotCaps:
    """What the server's bots may cost: the allow-list and its caps."""

    #: Bot names a request may use (None: every installed bot that starts no program).
    allowed: tuple[str, ...] | None = None
    #: MCTS simulations a move.
    max_simulations: int = 20000
    #: Seconds a bot may think about one move (``time=`` settings above it are refused;
    #: a bot still thinking after it is stopped, and a random move is played instead).
    seconds: float = 10.0
    #: Search depth (``depth=`` settings of bots that take one).
    max_depth: int = 6
    #: Search nodes a move (``nodes=`` settings of bots that take one, such as Hive's).
    max_nodes: int = 3_000_000
    #: Bots thinking at the same time (the others wait their turn).
    thinking: int = 2


@dataclass(frozen=True)
class ServerSettings:
    """Everything the operator set when starting the server."""

    #: The address the server listens on (127.0.0.1: this machine only).
    host: str = "127.0.0.1"
    port: int = 8000
    #: Host names (and addresses) a request may name besides the loopback ones.
    allowed_hosts: tuple[str, ...] = ()
    #: Engines the operator named with ``--engine NAME=SPEC``: the lobby offers them by
    #: name, and only they may start a program.
    engines: dict[str, str] = field(default_factory=dict)
    limits: Limits = field(default_factory=Limits)
    bots: BotCaps = field(default_factory=BotCaps)
    #: Accounts: None decides from the address (required beyond loopback).
    accounts: bool | None = None
    #: With accounts: people who are not signed in may watch games (never play).
    open_watching: bool = False
    #: Where games and accounts are kept: None, the folder; ``postgresql://...``.
    storage: str | None = None
    #: How processes sharing the storage hear of each other's changes: None, this process
    #: alone; ``redis://...``.
    broadcast: str | None = None

    @property
    def reachable_from_others(self) -> bool:
        """True when other machines can connect (a --host other than loopback)."""
        return not is_loopback(self.host)

    @property
    def accounts_required(self) -> bool:
        """True when only signed-in people may create games and take seats."""
        return self.reachable_from_others if self.accounts is None else self.accounts

    def host_names(self) -> frozenset[str]:
        """Every host name a request's ``Host`` may carry (lower case, no port)."""
        names = {n.lower().strip("[]") for n in LOOPBACK_NAMES}
        names.update(h.lower().strip("[]") for h in self.allowed_hosts if h)
        if not _wildcard(self.host):
            names.add(self.host.lower().strip("[]"))
        return frozenset(names)


def _wildcard(host: str) -> bool:
    return host.strip("[]") in ("0.0.0.0", "::", "")


def own_names(host: str) -> tuple[str, ...]:
    """The names and addresses by which other machines may reach this one, for a server
    listening on ``host`` (a wildcard: the machine's name and its addresses)."""
    import socket

    if not _wildcard(host):
        return (host,)
    found: list[str] = []
    for name in (socket.gethostname(), socket.getfqdn()):
        if name and name not in found:
            found.append(name)
        try:
            for info in socket.getaddrinfo(name, None, type=socket.SOCK_STREAM):
                address = str(info[4][0])
                if address not in found:
                    found.append(address)
        except OSError:
            continue
    # The address of the interface that leads outside (no packet is sent).
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))
            address = probe.getsockname()[0]
            if address not in found:
                found.append(address)
    except OSError:
        pass
    return tuple(found)
