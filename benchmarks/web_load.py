"""hexkit serve under a class's load: N two-person Focus games at once, side by side with an
anchor (a bare Starlette + uvicorn WebSocket app relaying messages of the same sizes, with
no game and no saving).

    python benchmarks/web_load.py [--games N] [--seconds S] [--storage URL]
                                  [--broadcast URL] [--processes K] [--rounds R]

Loopback only, bounded in time, stops by itself. It starts the server(s) (``hexkit serve``
in subprocesses on free ports; with ``--processes K`` each game's two players sit on two
different processes, so every move crosses from one to the other) and the anchor, then
alternates rounds of hexkit and the anchor, ``--seconds`` each. In a round every game's
player to move sends a random legal move 0.5-1.5 s after seeing the last position; a move
is timed from its send to the moment both players' clients hold the new position. At the
end every game's record is fetched: each move both players saw must be in it.

Errors: error messages from a server, connections dropped, moves not seen by both players
within 10 s, records missing a move. ``--storage postgresql`` (the word alone) and
``--broadcast redis`` start throw-away PostgreSQL and Redis servers for the run (Debian's
``postgresql`` and ``redis-server``); a full URL uses a server you run.

The last line, exactly:
``web-load: N games, hexkit median M ms p90 P ms, anchor median A ms, ratio R, moves/s T,
errors E`` (R = hexkit median / anchor median; T: moves a second in hexkit's rounds).

Targets (issue 23), on the 2-core machine, load generator included: at N = 200, R <= 3,
hexkit median <= 100 ms, p90 <= 300 ms, no errors.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: A move not seen by both players this long after it was sent is lost (an error).
LOST_AFTER = 10.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_http(url: str, proc: subprocess.Popen[bytes], seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            urllib.request.urlopen(url, timeout=2)
            return
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
                raise SystemExit(f"web-load: a server did not start: {err[-2000:]}") from None
            time.sleep(0.1)


def cpu_times(pid: int) -> tuple[float, float]:
    """User and system CPU time of a process (Linux)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        tick = os.sysconf("SC_CLK_TCK")
        return int(fields[11]) / tick, int(fields[12]) / tick
    except (OSError, IndexError, ValueError):
        return 0.0, 0.0


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (Linux)."""
    return sum(cpu_times(pid))


def fdatasync_ms(folder: Path, count: int = 30) -> float:
    """The median time of an fdatasync of a small append in ``folder``, at random moments
    (a hexkit move is acknowledged once durable, so a move waits about this long; the
    anchor saves nothing). Measured during a round: some virtual disks flush slowly
    (milliseconds) when flushes are rare and quickly when they are many."""
    fd, name = tempfile.mkstemp(dir=folder, prefix="fsync-")
    times = []
    pause = random.Random(count)
    try:
        for _ in range(count):
            time.sleep(pause.uniform(0.001, 0.01))
            os.write(fd, b"x" * 600 + b"\n")
            started = time.perf_counter()
            os.fdatasync(fd)
            times.append(time.perf_counter() - started)
    finally:
        os.close(fd)
        os.unlink(name)
    return statistics.median(times) * 1000


def http(method: str, url: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data, {"Content-Type": "application/json"},
                                     method=method)
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.load(answer)


# -- the anchor: the same stack, no game, no saving ------------------------------------------
def anchor_main(port: int, samples_path: str, loop: str = "auto", ws_impl: str = "auto",
                compression: bool = True) -> None:
    """Serve the anchor: ``/ws/games/ID`` relays each move message to both clients of the
    game as a message of the size hexkit sent (the samples of the last hexkit round). It
    runs with hexkit serve's uvicorn settings (the same loop, WebSocket implementation
    and compression), so the two differ only by what hexkit does."""
    import uvicorn
    from starlette.applications import Starlette
    from starlette.routing import WebSocketRoute
    from starlette.websockets import WebSocket, WebSocketDisconnect

    samples = json.loads(Path(samples_path).read_text())
    games: dict[str, list[Any]] = {}

    async def socket_route(ws: WebSocket) -> None:
        await ws.accept()
        game = ws.path_params["game"]
        peers = games.setdefault(game, [])
        peers.append(ws)
        first = dict(samples["state"], ply=0, turn=0)
        await ws.send_text(json.dumps(first))
        try:
            while True:
                text = await ws.receive_text()
                message = json.loads(text)
                if message.get("type") != "move":
                    continue
                ply = int(message["ply"])
                turn = ply % 2
                for i, peer in enumerate(list(peers)):
                    kind = "to_move" if i == turn else "others"
                    out = dict(samples[kind], ply=ply, turn=turn)
                    with contextlib.suppress(Exception):
                        await peer.send_text(json.dumps(out))
        except WebSocketDisconnect:
            pass
        finally:
            peers.remove(ws)

    app = Starlette(routes=[WebSocketRoute("/ws/games/{game}", socket_route)])
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", loop=loop,
                ws=ws_impl, ws_per_message_deflate=compression)


# -- throw-away PostgreSQL and Redis ---------------------------------------------------------
def start_services(args: argparse.Namespace, tmp: Path) -> list[Any]:
    """Start PostgreSQL/Redis when asked by name; rewrite args to their URLs."""
    started: list[Any] = []
    if args.storage not in ("postgresql", "postgres") and args.broadcast != "redis":
        return started
    from hexkit.web.services import start_postgres, start_redis

    if args.storage in ("postgresql", "postgres"):
        pg = start_postgres(tmp / "pg")
        started.append(pg)
        args.storage = pg.url
    if args.broadcast == "redis":
        rd = start_redis(tmp / "redis")
        started.append(rd)
        args.broadcast = rd.url
    return started


# -- the load generator ----------------------------------------------------------------------
@dataclass(eq=False)
class Player:
    seat: int
    url: str
    ws: Any = None
    ply: int = -1
    version: int = -1
    turn: int | None = None
    over: bool = False
    moves: list[dict[str, Any]] = field(default_factory=list)
    log: list[str] = field(default_factory=list)


@dataclass(eq=False)
class Table:
    """One game: its two players and the moves in flight."""

    id: str
    tokens: list[str]
    players: list[Player]
    sent: dict[int, float] = field(default_factory=dict)
    seen: dict[int, list[float | None]] = field(default_factory=dict)
    timer: asyncio.Task[None] | None = None


class Load:
    def __init__(self, args: argparse.Namespace, urls: list[str], rng: random.Random):
        self.args = args
        self.urls = urls
        self.rng = rng
        self.tables: list[Table] = []
        self.running = False
        self.anchor = False
        self.times: list[float] = []
        self.moves = 0
        self.errors: list[str] = []
        self.samples: dict[str, dict[str, Any]] = {}
        self.tasks: set[asyncio.Task[Any]] = set()
        self.finished: list[Table] = []
        self.folder = Path(tempfile.gettempdir())
        self.sync_ms = 0.0

    def error(self, what: str) -> None:
        self.errors.append(what)
        if len(self.errors) <= 5:
            print(f"web-load: error: {what}", file=sys.stderr, flush=True)

    # -- hexkit ----------------------------------------------------------------------------
    async def new_table(self, index: int) -> Table:
        base = self.urls[index % len(self.urls)]
        made = await asyncio.to_thread(http, "POST", base + "/api/games", {
            "game": "focus", "seats": ["human", "human"], "seed": self.rng.randrange(2**31)})
        other = self.urls[(index + 1) % len(self.urls)]
        joined = await asyncio.to_thread(http, "POST", f"{other}/api/games/{made['id']}/join",
                                         {"seat": 1})
        table = Table(made["id"], [made["token"], joined["token"]],
                      [Player(0, base), Player(1, other)])
        for player in table.players:
            await self.connect(table, player)
        return table

    async def connect(self, table: Table, player: Player) -> None:
        from websockets.asyncio.client import connect

        ws_url = player.url.replace("http://", "ws://") + f"/ws/games/{table.id}"
        player.ws = await connect(ws_url, max_size=2**23, open_timeout=60,
                                  ping_interval=None)
        await player.ws.send(json.dumps({"type": "hello", "protocol": 2,
                                         "tokens": [table.tokens[player.seat]]}))
        task = asyncio.get_running_loop().create_task(self.reader(table, player))
        self.tasks.add(task)

    def apply(self, player: Player, message: dict[str, Any]) -> bool:
        """Take a state or change message; True if it was one."""
        kind = message.get("type")
        if kind == "state":
            player.log = [e["move"] for e in message["log"]]
        elif kind == "change":
            if message.get("base") != player.version:
                self.error(f"a change for version {message.get('base')} reached a client "
                           f"at {player.version}")
            if "log" in message:
                start = message.get("log_from", 0)
                player.log = player.log[:start] + [e["move"] for e in message["log"]]
        elif kind == "moves":
            player.moves = message["moves"]
            return False
        elif kind == "error":
            self.error(f"the server said: {message.get('message')}")
            return False
        else:
            return False
        player.version = message.get("version", player.version)
        if "ply" in message:
            player.ply = message["ply"]
        if "turn" in message:
            player.turn = message["turn"]
        if "over" in message:
            player.over = message["over"]
        if "moves" in message:
            player.moves = message["moves"] or []
        return True

    async def reader(self, table: Table, player: Player) -> None:
        try:
            async for raw in player.ws:
                now = time.perf_counter()
                message = json.loads(raw)
                before = player.ply
                if not self.apply(player, message):
                    continue
                if player.ply != before:
                    self.arrived(table, player, now, raw, message)
                if player.over and table not in self.finished:
                    self.finished.append(table)
                    if self.running:
                        self.spawn(self.replace(table))
                self.maybe_move(table, player)
        except Exception as exc:  # a dropped connection
            if self.running or not isinstance(exc, asyncio.CancelledError):
                if not getattr(player, "closing", False):
                    self.error(f"game {table.id}: connection lost ({type(exc).__name__})")

    def arrived(self, table: Table, player: Player, now: float, raw: Any,
                message: dict[str, Any]) -> None:
        ply = player.ply
        seen = table.seen.setdefault(ply, [None, None])
        seen[player.seat] = now
        if message.get("type") == "change":
            kind = "to_move" if player.turn == player.seat else "others"
            if kind not in self.samples or self.rng.random() < 0.05:
                self.samples[kind] = message
        if None not in seen and ply in table.sent:
            sent = table.sent.pop(ply)
            self.times.append(max(s for s in seen if s is not None) - sent)
            self.moves += 1
            table.seen.pop(ply, None)

    def maybe_move(self, table: Table, player: Player) -> None:
        if not self.running or self.anchor or player.over or player.turn != player.seat:
            return
        if table.timer is not None and not table.timer.done():
            return
        if not player.moves:
            return
        ply = player.ply
        delay = self.rng.uniform(0.5, 1.5)

        async def later() -> None:
            await asyncio.sleep(delay)
            if not self.running or player.ply != ply or not player.moves:
                return
            move = self.rng.choice(player.moves)["text"]
            table.sent[ply + 1] = time.perf_counter()
            await player.ws.send(json.dumps({"type": "move", "token": table.tokens[player.seat],
                                             "move": move}))

        table.timer = self.spawn(later())

    def spawn(self, work: Any) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task

    async def replace(self, table: Table) -> None:
        index = self.tables.index(table)
        fresh = await self.new_table(index)
        self.tables[index] = fresh
        for player in fresh.players:
            self.maybe_move(fresh, player)

    async def setup(self) -> None:
        started = time.perf_counter()
        for i in range(self.args.games):
            self.tables.append(await self.new_table(i))
        print(f"web-load: {self.args.games} games made, {2 * self.args.games} clients "
              f"connected in {time.perf_counter() - started:.1f} s", flush=True)

    def lost(self) -> int:
        """Moves sent more than LOST_AFTER seconds ago and not seen by both."""
        now = time.perf_counter()
        count = 0
        for table in self.tables + self.finished:
            for ply, sent in list(table.sent.items()):
                if now - sent > LOST_AFTER:
                    count += 1
                    table.sent.pop(ply)
        return count

    async def hexkit_round(self, seconds: float) -> tuple[int, float]:
        self.anchor = False
        self.running = True
        moves_before, started = self.moves, time.perf_counter()
        for table in self.tables:
            for player in table.players:
                self.maybe_move(table, player)
        await asyncio.sleep(seconds / 2)
        # The disk as the server finds it: fdatasyncs amid the server's own.
        self.sync_ms = await asyncio.to_thread(fdatasync_ms, self.folder)
        await asyncio.sleep(max(0.0, seconds - (time.perf_counter() - started)))
        self.running = False
        elapsed = time.perf_counter() - started
        await asyncio.sleep(2.0)  # moves in flight arrive
        for _ in range(self.lost()):
            self.error("a move was not seen by both players within 10 s")
        return self.moves - moves_before, elapsed

    async def check_records(self) -> int:
        missing = 0
        for table in self.tables + self.finished:
            player = max(table.players, key=lambda p: p.ply)
            both = min(p.ply for p in table.players)
            try:
                record = await asyncio.to_thread(
                    http, "GET", f"{self.urls[0]}/api/games/{table.id}/record")
            except OSError as exc:
                self.error(f"game {table.id}: its record cannot be read: {exc}")
                missing += 1
                continue
            if record["moves"][:both] != player.log[:both] or len(record["moves"]) < both:
                self.error(f"game {table.id}: the record has {len(record['moves'])} moves, "
                           f"the players saw {both}")
                missing += 1
        return missing

    async def close(self) -> None:
        for table in self.tables + self.finished:
            for player in table.players:
                player.closing = True  # type: ignore[attr-defined]
                if player.ws is not None:
                    with contextlib.suppress(Exception):
                        await asyncio.wait_for(player.ws.close(), 2)
        for task in list(self.tasks):
            task.cancel()


async def anchor_round(args: argparse.Namespace, url: str, seconds: float,
                       rng: random.Random) -> tuple[list[float], int]:
    """N games against the anchor: the same pace, the same clients, the same sizes."""
    from websockets.asyncio.client import connect

    times: list[float] = []
    errors = 0
    running = True
    ws_url = url.replace("http://", "ws://")

    async def game(index: int) -> None:
        nonlocal errors
        sockets = [await connect(f"{ws_url}/ws/games/g{index}", max_size=2**23,
                                 open_timeout=60, ping_interval=None) for _ in range(2)]
        seen: dict[int, list[float | None]] = {}
        sent: dict[int, float] = {}
        plies = [0, 0]
        got_move = [asyncio.Event(), asyncio.Event()]

        async def read(i: int) -> None:
            async for raw in sockets[i]:
                message = json.loads(raw)
                ply = message["ply"]
                if ply <= plies[i] and ply:
                    continue
                plies[i] = ply
                both = seen.setdefault(ply, [None, None])
                both[i] = time.perf_counter()
                if None not in both and ply in sent:
                    times.append(max(s for s in both if s is not None) - sent.pop(ply))
                got_move[i].set()

        readers = [asyncio.get_running_loop().create_task(read(i)) for i in range(2)]
        try:
            ply = 0
            while running:
                mover = ply % 2
                deadline = time.monotonic() + LOST_AFTER
                while plies[mover] < ply:
                    try:
                        await asyncio.wait_for(got_move[mover].wait(),
                                               max(0.01, deadline - time.monotonic()))
                    except TimeoutError:
                        break
                    got_move[mover].clear()
                if plies[mover] < ply:
                    errors += 1
                    break
                await asyncio.sleep(rng.uniform(0.5, 1.5))
                if not running:
                    break
                ply += 1
                sent[ply] = time.perf_counter()
                await sockets[mover].send(json.dumps({"type": "move", "ply": ply,
                                                      "move": "x"}))
        finally:
            for r in readers:
                r.cancel()
            for s in sockets:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(s.close(), 2)

    tasks = [asyncio.get_running_loop().create_task(game(i)) for i in range(args.games)]
    await asyncio.sleep(seconds)
    running = False
    await asyncio.sleep(2.0)
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return times, errors


def start_hexkit(args: argparse.Namespace, folder: Path) -> list[tuple[subprocess.Popen[bytes],
                                                                          str]]:
    servers = []
    for k in range(args.processes):
        port = free_port()
        command = [sys.executable, "-m", "hexkit", "serve", "--port", str(port),
                   "--games-dir", str(folder / f"p{k}" if args.storage is None and
                                      args.processes == 1 else folder / "shared"),
                   "--games-per-client", "100000", "--sockets-per-client", "100000",
                   "--max-games", "100000", "--rate", "100000",
                   "--max-sockets", str(max(600, 2 * args.games + 100))]
        if args.storage:
            command += ["--storage", args.storage]
        if args.broadcast:
            command += ["--broadcast", args.broadcast]
        if not args.compression:
            command += ["--no-compression"]
        for option in ("loop", "ws"):
            if getattr(args, option) != "auto":
                command += [f"--{option}", getattr(args, option)]
        proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        url = f"http://127.0.0.1:{port}"
        wait_http(url + "/api/me", proc)
        servers.append((proc, url))
    return servers


def start_anchor(args: argparse.Namespace, samples: Path
                 ) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    proc = subprocess.Popen([sys.executable, __file__, "--anchor-serve", str(port),
                             str(samples), args.loop, args.ws, str(int(args.compression))],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return proc, url
        if proc.poll() is not None or time.monotonic() > deadline:
            raise SystemExit("web-load: the anchor did not start")
        time.sleep(0.1)


def stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


async def run(args: argparse.Namespace, tmp: Path) -> str:
    # The load generator's own garbage collector would stop every client at once, for
    # tens of milliseconds once its heap holds the games' moves and logs (hexkit's rounds
    # more than the anchor's): it runs between rounds only, never while moves are timed.
    gc.disable()
    rng = random.Random(args.seed)
    servers = start_hexkit(args, tmp)
    pids = [p.pid for p, _ in servers]
    load = Load(args, [u for _, u in servers], rng)
    load.folder = tmp
    anchor_times: list[float] = []
    anchor_errors = 0
    hexkit_seconds = 0.0
    cpu = system = anchor_cpu = 0.0
    anchor_moves = 0
    try:
        await load.setup()
        for r in range(args.rounds):
            before = sum(cpu_seconds(p) for p in pids)
            system_before = sum(cpu_times(p)[1] for p in pids)
            gc.collect()
            moves, elapsed = await load.hexkit_round(args.seconds)
            used = sum(cpu_seconds(p) for p in pids) - before
            cpu += used
            system += sum(cpu_times(p)[1] for p in pids) - system_before
            hexkit_seconds += elapsed
            part = sorted(load.times[-moves:]) if moves else [0.0]
            sync = load.sync_ms
            print(f"web-load: round {r + 1} hexkit: {moves} moves, median "
                  f"{statistics.median(part) * 1000:.1f} ms, p90 "
                  f"{part[int(0.9 * (len(part) - 1))] * 1000:.0f} ms, server CPU {used:.1f} s "
                  f"({used / max(1, moves) * 1000:.2f} ms a move), fdatasync {sync:.2f} ms, "
                  f"load average {os.getloadavg()[0]:.1f}", flush=True)
            samples = tmp / "samples.json"
            state = await asyncio.to_thread(http, "GET",
                                            f"{load.urls[0]}/api/games/{load.tables[0].id}")
            samples.write_text(json.dumps({"state": state, **{
                k: load.samples.get(k, state) for k in ("to_move", "others")}}))
            anchor, url = start_anchor(args, samples)
            gc.collect()
            anchor_before = cpu_seconds(anchor.pid)
            try:
                times, errors = await anchor_round(args, url, args.seconds, rng)
                anchor_used = cpu_seconds(anchor.pid) - anchor_before
            finally:
                stop(anchor)
            anchor_times += times
            anchor_errors += errors
            anchor_cpu += anchor_used
            anchor_moves += len(times)
            print(f"web-load: round {r + 1} anchor: {len(times)} moves, median "
                  f"{statistics.median(times or [0]) * 1000:.1f} ms, server CPU "
                  f"{anchor_used:.1f} s ({anchor_used / max(1, len(times)) * 1000:.1f} ms a "
                  f"move), load average {os.getloadavg()[0]:.1f}", flush=True)
        missing = await load.check_records()
        print(f"web-load: records checked: {len(load.tables) + len(load.finished)} games, "
              f"{missing} missing moves; hexkit server CPU {cpu:.1f} s for "
              f"{load.moves} moves ({cpu / max(1, load.moves) * 1000:.2f} ms a move, "
              f"{system / max(1, load.moves) * 1000:.1f} of it in the system); anchor "
              f"{anchor_cpu / max(1, anchor_moves) * 1000:.2f} ms a move", flush=True)
    finally:
        await load.close()
        for proc, _ in servers:
            stop(proc)
    times = sorted(load.times) or [0.0]
    median = statistics.median(times) * 1000
    p90 = times[int(0.9 * (len(times) - 1))] * 1000
    a_median = statistics.median(anchor_times or [0.0]) * 1000
    ratio = median / a_median if a_median else float("inf")
    errors = len(load.errors) + anchor_errors
    rate = load.moves / hexkit_seconds if hexkit_seconds else 0.0
    return (f"web-load: {args.games} games, hexkit median {median:.0f} ms p90 {p90:.0f} ms, "
            f"anchor median {a_median:.0f} ms, ratio {ratio:.1f}, moves/s {rate:.1f}, "
            f"errors {errors}")


def client_loop() -> Any:
    """The load generator's event loop: uvloop when installed (it then costs less of the
    CPU it shares with the servers; the same in hexkit's rounds and the anchor's)."""
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


def main() -> None:
    if len(sys.argv) == 7 and sys.argv[1] == "--anchor-serve":
        anchor_main(int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5],
                    sys.argv[6] == "1")
        return
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200, help="games at once (default 200)")
    ap.add_argument("--seconds", type=float, default=20.0,
                    help="seconds of each round (default 20)")
    ap.add_argument("--rounds", type=int, default=2,
                    help="rounds of hexkit and of the anchor, alternating (default 2)")
    ap.add_argument("--storage", default=None, metavar="URL",
                    help="hexkit serve --storage (postgresql: a throw-away server)")
    ap.add_argument("--broadcast", default=None, metavar="URL",
                    help="hexkit serve --broadcast (redis: a throw-away server)")
    ap.add_argument("--processes", type=int, default=1, help="hexkit serve processes")
    ap.add_argument("--no-compression", dest="compression", action="store_false",
                    help="no permessage-deflate (hexkit serve --no-compression; the anchor "
                         "alike)")
    ap.add_argument("--loop", default="auto", choices=("auto", "asyncio", "uvloop"),
                    help="the event loop of the servers (hexkit serve --loop; the anchor "
                         "alike; default auto: uvloop when installed)")
    ap.add_argument("--ws", default="auto",
                    choices=("auto", "websockets", "websockets-sansio", "wsproto"),
                    help="uvicorn's WebSocket implementation (hexkit serve --ws; the "
                         "anchor alike)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if args.games < 1 or args.processes < 1 or args.seconds <= 0 or args.rounds < 1:
        ap.error("--games, --processes, --seconds and --rounds are positive")
    with tempfile.TemporaryDirectory(prefix="web-load-") as folder:
        tmp = Path(folder)
        services = start_services(args, tmp)
        try:
            with asyncio.Runner(loop_factory=client_loop()) as runner:
                line = runner.run(run(args, tmp))
        finally:
            for service in services:
                service.stop()
            shutil.rmtree(tmp, ignore_errors=True)
    print(line, flush=True)


if __name__ == "__main__":
    main()
