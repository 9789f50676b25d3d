"""``hexkit serve``: play any installed game in the browser (see docs/web.md).

The operator (whoever runs this command) is the only one trusted: engines that start a
program, the names the server answers to, and every limit are set here; accounts are
required as soon as the server listens beyond this machine (docs/security.md).
"""

from __future__ import annotations

import argparse
import gc
import sys
from pathlib import Path
from typing import Any

from hexkit.errors import OptionError

#: uvicorn's event loops and WebSocket implementations that ``hexkit serve`` offers.
LOOPS = ("auto", "asyncio", "uvloop")
WS_IMPLS = ("auto", "websockets", "websockets-sansio", "wsproto")
#: The package each choice needs (a choice whose package is missing is one line).
_NEEDS = {"uvloop": "uvloop", "wsproto": "wsproto"}


def check_server_choices(loop: str, ws: str) -> None:
    """OptionError, in one line, when ``--loop`` or ``--ws`` names an implementation whose
    package is not installed."""
    import importlib.util

    for choice in (loop, ws):
        package = _NEEDS.get(choice)
        if package is not None and importlib.util.find_spec(package) is None:
            raise OptionError(f"--loop/--ws {choice}: the {package} package is not "
                              f"installed (pip install {package})")


def default_folder() -> Path:
    """Where the server keeps its games: ``$XDG_DATA_HOME/hexkit/web-games`` (or
    ``~/.local/share/hexkit/web-games``)."""
    from hexkit.files.userdirs import data_home

    return data_home() / "web-games"


def add_folder_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games-dir", default=None, metavar="DIR",
                        help="the server's folder: games saved as they go, accounts "
                             f"(default {default_folder()})")


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``hexkit serve``."""
    from hexkit.web.settings import BotCaps, Limits

    limits, caps = Limits(), BotCaps()
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default 127.0.0.1: this machine only; "
                             "0.0.0.0 lets the local network in, and then only signed-in "
                             "people play)")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    parser.add_argument("--open", action="store_true", help="open the page in the browser")
    add_folder_argument(parser)
    parser.add_argument("--storage", default=None, metavar="URL",
                        help="where games and accounts are kept: the folder (default) or "
                             "postgresql://USER@HOST:PORT/DB, shared by several hexkit "
                             "serve processes (the postgres extra)")
    parser.add_argument("--broadcast", default=None, metavar="URL",
                        help="how processes sharing a --storage hear of each other's "
                             "moves: redis://HOST:PORT/N (the redis extra; default: this "
                             "process alone)")
    parser.add_argument("--allowed-host", action="append", default=[], metavar="NAME",
                        help="a name (or address) browsers use to reach this server, "
                             "beside the loopback names and --host (repeatable; e.g. the "
                             "name behind a reverse proxy)")
    parser.add_argument("--no-compression", dest="compression", action="store_false",
                        help="send WebSocket messages uncompressed: permessage-deflate "
                             "(on by default) sends a move's changes in about a seventh of "
                             "the bytes for about 0.1 ms of CPU a move; off saves that CPU "
                             "where bytes cost nothing (loopback, a LAN)")
    parser.add_argument("--loop", choices=LOOPS, default="auto",
                        help="the event loop: uvloop (the web extra installs it; quicker) "
                             "or Python's asyncio (default auto: uvloop when installed)")
    parser.add_argument("--ws", choices=WS_IMPLS, default="auto",
                        help="uvicorn's WebSocket implementation (default auto: uvicorn's choice, "
                             "websockets-sansio in recent versions)")
    parser.add_argument("--proxy", action="append", default=[], metavar="ADDRESS",
                        help="the address of your reverse proxy (e.g. 127.0.0.1): its "
                             "X-Forwarded-For and X-Forwarded-Proto are believed (the "
                             "client's address for the limits, https for Origin checks); "
                             "nobody else's (repeatable)")
    people = parser.add_argument_group("accounts")
    people.add_argument("--accounts", dest="accounts", action="store_true", default=None,
                        help="only signed-in people play, even on loopback (default: "
                             "required exactly when --host is not loopback)")
    people.add_argument("--no-accounts", dest="accounts", action="store_false",
                        help="anyone who reaches the server plays (refused with a --host "
                             "beyond loopback)")
    people.add_argument("--open-watching", action="store_true",
                        help="with accounts: people who are not signed in may watch games")
    bots = parser.add_argument_group("bots")
    bots.add_argument("--engine", action="append", default=[], metavar="NAME=SPEC",
                      help="offer an external engine by name, e.g. "
                           "mzinga='uhp:/path/to/MzingaEngine' (repeatable; the only way "
                           "this server starts a program)")
    bots.add_argument("--bots", default=None, metavar="NAME,...",
                      help="the bots a game may seat (default: every installed bot that "
                           "starts no program)")
    bots.add_argument("--max-simulations", type=int, default=caps.max_simulations,
                      metavar="N", help=f"MCTS simulations a move (default "
                                        f"{caps.max_simulations})")
    bots.add_argument("--bot-seconds", type=float, default=caps.seconds, metavar="S",
                      help=f"seconds a bot may think about a move (default {caps.seconds:g})")
    bots.add_argument("--max-depth", type=int, default=caps.max_depth, metavar="N",
                      help=f"search depth of bots that take one (default {caps.max_depth})")
    bots.add_argument("--max-nodes", type=int, default=caps.max_nodes, metavar="N",
                      help=f"search nodes a move of bots that take a node budget (default "
                           f"{caps.max_nodes:,})")
    bots.add_argument("--max-thinking", type=int, default=caps.thinking, metavar="N",
                      help=f"bots thinking at the same time (default {caps.thinking})")
    room = parser.add_argument_group("limits")
    room.add_argument("--games-per-client", type=int, default=limits.games_per_client,
                      metavar="N", help="unfinished games one person (or address) may have "
                                        f"made (default {limits.games_per_client})")
    room.add_argument("--max-games", type=int, default=limits.games_total, metavar="N",
                      help=f"games in the live set (default {limits.games_total})")
    room.add_argument("--max-sockets", type=int, default=None, metavar="N",
                      help="open game connections in all (default: what the open-file "
                           f"limit allows, at most {limits.sockets_total})")
    room.add_argument("--sockets-per-client", type=int, default=limits.sockets_per_client,
                      metavar="N", help=f"open game connections of one person or address "
                                        f"(default {limits.sockets_per_client})")
    room.add_argument("--rate", type=float, default=limits.rate, metavar="N",
                      help=f"requests and messages a second per client, on average "
                           f"(default {limits.rate:g}; bursts of {limits.burst})")
    room.add_argument("--ply-cap", type=int, default=limits.bot_only_plies, metavar="N",
                      help="moves after which a game without a person stops (default "
                           f"{limits.bot_only_plies})")
    room.add_argument("--archive-after", type=float, default=limits.archive_after / 60,
                      metavar="MINUTES",
                      help="finished games leave the lobby after this many idle minutes "
                           f"(default {limits.archive_after / 60:g}; still downloadable)")


def _positive(name: str, value: float, low: float = 1) -> None:
    if not value >= low:
        raise OptionError(f"--{name} must be at least {low:g}, not {value:g}")


def settings_from(args: argparse.Namespace, fd_limit: int) -> Any:
    """The server's settings from the command line (OptionError, one line, if wrong)."""
    from hexkit.web.settings import BotCaps, Limits, ServerSettings, is_loopback, own_names

    if not 0 <= args.port <= 65535:
        raise OptionError(f"--port {args.port} is outside 0..65535")
    for name in ("max_simulations", "max_depth", "max_nodes", "max_thinking", "games_per_client",
                 "max_games", "sockets_per_client", "ply_cap"):
        _positive(name.replace("_", "-"), getattr(args, name))
    _positive("bot-seconds", args.bot_seconds, 0.1)
    _positive("rate", args.rate, 0.1)
    if args.broadcast and not (args.storage or "").startswith(("postgresql:", "postgres:")):
        raise OptionError("--broadcast serves processes that share a --storage "
                          "postgresql://... (a folder is one process's)")
    for proxy in args.proxy:
        import ipaddress

        try:
            ipaddress.ip_address(proxy.strip())
        except ValueError:
            raise OptionError(f"--proxy {proxy!r}: an IP address, e.g. 127.0.0.1") from None
    if not args.archive_after >= 0:
        raise OptionError("--archive-after is a number of minutes from 0")
    engines: dict[str, str] = {}
    for item in args.engine:
        name, eq, spec = item.partition("=")
        name = name.strip().lower()
        if not eq or not name or not spec.strip():
            raise OptionError(f"--engine {item!r}: expected NAME=SPEC, e.g. "
                              "mzinga='uhp:/path/to/MzingaEngine'")
        if not name.replace("-", "").replace("_", "").isalnum() or not name.isascii():
            raise OptionError(f"--engine {name!r}: a name is letters, digits, - and _")
        engines[name] = spec.strip()
    allowed = None
    if args.bots is not None:
        allowed = tuple(b.strip().lower() for b in args.bots.split(",") if b.strip())
    reachable = not is_loopback(args.host)
    if reachable and args.accounts is False:
        raise OptionError(f"--no-accounts does not apply with --host {args.host}: beyond "
                          "this machine only signed-in people play")
    default_sockets = Limits().sockets_total
    sockets = args.max_sockets or max(16, min(default_sockets, fd_limit - 64))
    if args.max_sockets is not None:
        _positive("max-sockets", args.max_sockets)
        if args.max_sockets > fd_limit - 32:
            raise OptionError(f"--max-sockets {args.max_sockets} is more than the open-file "
                              f"limit allows ({fd_limit}; raise it with ulimit -n)")
    limits = Limits(games_per_client=args.games_per_client, games_total=args.max_games,
                    sockets_per_client=args.sockets_per_client, sockets_total=sockets,
                    rate=args.rate, burst=max(20, int(args.rate * 6)),
                    bot_only_plies=args.ply_cap, archive_after=args.archive_after * 60)
    caps = BotCaps(allowed=allowed, max_simulations=args.max_simulations,
                   seconds=args.bot_seconds, max_depth=args.max_depth,
                   max_nodes=args.max_nodes, thinking=args.max_thinking)
    names = (*args.allowed_host, *(own_names(args.host) if reachable else ()))
    return ServerSettings(host=args.host, port=args.port, allowed_hosts=tuple(names),
                          engines=engines, limits=limits, bots=caps,
                          accounts=args.accounts, open_watching=args.open_watching,
                          storage=args.storage, broadcast=args.broadcast)


def raise_fd_limit() -> int:
    """Raise the soft open-file limit to the hard one; the limit now in force."""
    try:
        import resource
    except ImportError:  # not on this platform
        return 1024
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):
            pass
    return int(soft if soft != resource.RLIM_INFINITY else 65536)


def banner(settings: Any, store: Any, policy: Any, folder: Path) -> list[str]:
    """What the server tells its operator at start-up: what is exposed, to whom."""
    port = settings.port
    where = f"in {folder}" if settings.storage is None else \
        f"in {settings.storage.split('@')[-1]}"  # no password in the banner
    live = store.storage.live_count()
    lines = [f"{live} games going on {where} (each loaded when first opened)"]
    if settings.broadcast is not None:
        lines.append("other hexkit serve processes on this storage share its games "
                     f"(broadcast {settings.broadcast.split('@')[-1]})")
    elif settings.storage is not None:
        lines.append("no --broadcast: a browser here sees the moves made through another "
                     "process only at this process's next change of that game")
    if settings.reachable_from_others:
        names = [n for n in settings.allowed_hosts if ":" not in n] or [settings.host]
        urls = ", ".join(f"http://{n}:{port}/" for n in names[:4])
        lines.append(f"open {urls} (listening on {settings.host}:{port}: OTHER MACHINES "
                     "CAN CONNECT; Ctrl-C stops the server; games are kept)")
    else:
        shown = "localhost" if settings.host in ("127.0.0.1", "localhost") else settings.host
        lines.append(f"open http://{shown}:{port}/ (this machine only; Ctrl-C stops the "
                     "server; games are kept)")
    count = len(store.storage.accounts())
    if settings.accounts_required:
        watch = ("anyone who reaches the server may watch" if settings.open_watching
                 else "watching needs an account too")
        lines.append(f"only signed-in people create games and take seats ({count} accounts; "
                     f"hexkit users add NAME); {watch}")
        if count == 0:
            lines.append("no accounts yet: nobody can play until you add some "
                         "(hexkit users add NAME, or hexkit users import roster.csv)")
    else:
        lines.append("anyone who reaches the server plays (no accounts)")
    bots = ", ".join(b["name"] for b in policy.offered()) or "none"
    lines.append(f"bots: {bots}; {policy.caps_text()}")
    limits = settings.limits
    lines.append(f"limits a client: {limits.games_per_client} unfinished games, "
                 f"{limits.sockets_per_client} connections, {limits.rate:g} requests/s; in "
                 f"all: {limits.games_total} games, {limits.sockets_total} connections")
    return lines


def run(args: argparse.Namespace) -> int:
    """Start the server and serve until Ctrl-C (or SIGTERM)."""
    from hexkit.web import INSTALL_HINT, missing_dependency

    if missing_dependency() is not None:
        raise OptionError(INSTALL_HINT)
    check_server_choices(args.loop, args.ws)
    fd_limit = raise_fd_limit()
    settings = settings_from(args, fd_limit)
    import logging

    import uvicorn

    from hexkit.web.app import create_app
    from hexkit.web.guards import OncePerMinute

    folder = Path(args.games_dir) if args.games_dir else default_folder()
    try:
        app = create_app(folder, settings=settings)
    except OSError as exc:
        raise OptionError(f"cannot keep games in {folder}: {exc.strerror or exc}") from None
    _check_can_listen(args.host, args.port)
    state = app.state
    for problem in state.store.problems:
        print(f"hexkit serve: warning: {problem}", file=sys.stderr)
    for line in banner(settings, state.store, state.policy, folder):
        print(f"hexkit serve: {line}", flush=True)
    shown = "localhost" if args.host in ("127.0.0.1", "localhost", "0.0.0.0") else args.host
    url = f"http://{shown}:{args.port}/"
    if args.open:
        import threading
        import webbrowser

        threading.Timer(0.8, webbrowser.open, (url,)).start()
    # One line a minute for a flood of identical errors (out of file descriptors).
    quiet = OncePerMinute()
    for name in ("asyncio", "uvicorn.error", "hexkit.web"):
        logging.getLogger(name).addFilter(quiet)
    # Messages above the protocol's limit get a one-line error; beyond a megabyte the
    # connection is closed (WebSocket code 1009, message too big). Beyond the socket
    # limit, uvicorn answers 503 itself.
    config = uvicorn.Config(app, host=args.host, port=args.port, log_level="warning",
                            ws_max_size=1024 * 1024, timeout_graceful_shutdown=1,
                            limit_concurrency=settings.limits.sockets_total + 32,
                            proxy_headers=bool(args.proxy),
                            forwarded_allow_ips=",".join(args.proxy) or None,
                            server_header=False,
                            ws_per_message_deflate=args.compression,
                            loop=args.loop, ws=args.ws,
                            # Out of descriptors, asyncio retries an accept per waiting
                            # connection: a short queue keeps that small.
                            backlog=128)
    # SIGINT and SIGTERM: uvicorn stops; open connections get a second to close, and
    # bots think in daemon threads that never hold the process back.
    server = uvicorn.Server(config)
    # What start-up made (modules, plugins, the app) lives as long as the server: kept out
    # of the garbage collector's passes, whose full ones otherwise stop every game.
    gc.collect()
    gc.freeze()
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    except SystemExit:
        if not server.started:
            raise OptionError(f"cannot listen on {args.host}:{args.port}") from None
        raise
    return 0


def _check_can_listen(host: str, port: int) -> None:
    """OptionError, in one line, if the address cannot be listened on (a port in use)."""
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError as exc:
        raise OptionError(f"--host {host}: {exc.strerror or exc}") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            reason = exc.strerror or str(exc)
            raise OptionError(f"cannot listen on {host}:{port}: {reason.lower()} "
                              f"(choose another with --port)") from None
