"""An arena of Hive games between two Universal Hive Protocol engines: by default hexkit's
``hive`` bot (``hexkit uhp``) against nokamute (one thread), the same time a move,
alternating colours, refereed by hexkit's rules with threefold repetition as a draw and a
ply cap (a draw too). Prints each game and the first engine's score with its 95 % interval.

    python benchmarks/hive_arena.py [--games 40] [--time 1] [--game-type Base+MLP]
        [--max-plies 300] [--a "CMD"] [--b "CMD"] [--log games.jsonl]

``--a`` and ``--b`` are engine commands (default: ``hexkit uhp`` from this environment and
nokamute ``--num-threads=1 uhp``, built with ``../shared/tools/nokamute/build.sh`` if
missing, or found at ``$NOKAMUTE``). Either may be followed by UHP commands to send after
start-up, separated by ``;;`` (``--a "hexkit uhp;;options set Level 3"``).

Sub-second times are sent exactly (``bestmove time 00:00:00.200``; an engine that reads only
whole seconds there, as nokamute, is sent ``bestmove seconds 0.2``). Every move is checked
against hexkit's legal moves as it is played; an illegal answer loses the game. Each game is
appended to ``--log`` as it ends (nothing is lost if the run is stopped).

The interval: each game scores 1, 1/2 or 0; the score's 95 % interval is Wilson's for that
share of the points over the games played (it does not collapse at 0 % or 100 %).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
try:
    import hive.uhp_client  # noqa: F401  (installed with hexkit)
except ImportError:  # run from a checkout without the install
    sys.path.insert(0, str(ROOT / "plugins"))

from hive.uhp_client import UhpEngine, UhpEngineError  # noqa: E402

import hexkit  # noqa: E402

NOKAMUTE_BUILD = ROOT.parent / "shared" / "tools" / "nokamute" / "build.sh"
NOKAMUTE_DEFAULT = Path("/work/build/nokamute/nokamute/target/release/nokamute")


def hexkit_command() -> str:
    """``hexkit uhp`` from this Python's environment."""
    exe = Path(sys.executable).with_name("hexkit")
    found = str(exe) if exe.exists() else shutil.which("hexkit") or "hexkit"
    return f"{shlex.quote(found)} uhp"


def nokamute_command() -> str:
    """nokamute, one thread, as a UHP engine (built outside the repository if missing)."""
    path = Path(os.environ.get("NOKAMUTE", NOKAMUTE_DEFAULT))
    if not path.exists():
        if not NOKAMUTE_BUILD.exists():
            raise SystemExit(f"nokamute is not at {path} and its build script is not at "
                             f"{NOKAMUTE_BUILD}: set NOKAMUTE=/path/to/nokamute")
        print(f"building nokamute with {NOKAMUTE_BUILD} ...", file=sys.stderr)
        out = subprocess.run(["bash", str(NOKAMUTE_BUILD)], capture_output=True, text=True,
                             check=True).stdout.strip().splitlines()
        path = Path(out[-1])
    return f"{shlex.quote(str(path))} --num-threads=1 uhp"


class Player:
    """One engine of the arena: its process and the commands sent after start-up."""

    def __init__(self, spec: str):
        command, *setup = [part.strip() for part in spec.split(";;")]
        self.spec = spec
        self.command = command
        self.setup = [s for s in setup if s]
        self.engine = self._start()
        self.name = self.engine.name
        #: Wall-clock seconds of every bestmove answer.
        self.times: list[float] = []
        #: This engine's own budget (time, depth), if not the arena's.
        self.budget: tuple[float | None, int | None] | None = None

    def _start(self) -> UhpEngine:
        engine = UhpEngine(self.command, timeout=120.0)
        for line in self.setup:
            engine.ask(line)
        return engine

    def restart(self) -> None:
        """A fresh process (after a failure its answers can no longer be trusted to
        belong to the command just sent)."""
        self.engine.close()
        self.engine = self._start()

    def close(self) -> None:
        self.engine.close()


def final(state: object) -> tuple[str, str]:
    """(GameStateString, reason) of a finished game; a game still going is a draw."""
    outcome = state.outcome()  # type: ignore[attr-defined]
    if outcome is None:
        return "Draw", "unfinished"
    if not outcome.winners:
        return "Draw", outcome.reason
    return ("WhiteWins" if outcome.winners == (0,) else "BlackWins"), outcome.reason


def play_game(white: Player, black: Player, game_type: str, seconds: float | None,
              depth: int | None, max_plies: int) -> dict[str, object]:
    """One game refereed by hexkit (repetition rule on): its moves, result and reason."""
    letters = game_type.partition("+")[2]
    state = hexkit.load_game("hive", expansions=letters or "none",
                             repetition_draw=True).new_state(seed=0)
    for player in (white, black):
        try:
            player.engine.ask_line(f"newgame {game_type}")
        except UhpEngineError as e:
            raise SystemExit(f"hive_arena: {player.name} cannot start a game: {e}") from None
    moves: list[str] = []
    result, reason = "Draw", f"{max_plies} plies without a result"
    while len(moves) < max_plies:
        if state.is_over():
            result, reason = final(state)
            break
        mover = (white, black)[state.current_player]
        began = time.perf_counter()
        try:
            answer = mover.engine.bestmove(*(mover.budget or (seconds, depth)))
        except UhpEngineError as e:
            result = "BlackWins" if mover is white else "WhiteWins"
            reason = f"{mover.name} failed: {e}"
            mover.restart()
            break
        mover.times.append(time.perf_counter() - began)
        move = next((m for m in state.legal_moves() if str(m) == answer), None)
        if move is None:
            try:
                parsed = state.parse_move(answer)
                move = next((m for m in state.legal_moves() if m == parsed), None)
            except ValueError:
                move = None
        if move is None:
            result = "BlackWins" if mover is white else "WhiteWins"
            reason = f"{mover.name} played {answer!r}, which is not legal"
            mover.restart()
            break
        state.push(move)
        moves.append(str(move))
        for player in (white, black):
            try:
                player.engine.ask_line(f"play {move}")
            except UhpEngineError as e:
                # An engine that ends the game by its own rule (nokamute's repetition)
                # before hexkit's referee does: the game stops as hexkit scores it.
                result = final(state)[0]
                reason = f"{player.name} refused {move}: {e}"
                player.restart()
                return {"moves": moves, "result": result, "reason": reason}
    else:
        if state.is_over():
            result, reason = final(state)
    return {"moves": moves, "result": result, "reason": reason}


def interval(points: list[float]) -> tuple[float, float, float]:
    """Mean score and its 95 % Wilson interval (draws count half a point; the interval of
    a score with n games, as if each point were a coin: it stays sensible at 0 % and
    100 %, where the normal approximation collapses to a point)."""
    n = len(points)
    mean = sum(points) / n
    z = 1.96
    centre = (mean + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(mean * (1 - mean) / n + z * z / (4 * n * n))
    return mean, max(0.0, centre - half), min(1.0, centre + half)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=40)
    p.add_argument("--time", type=float, default=1.0, help="seconds a move (default 1)")
    p.add_argument("--depth", type=int, default=None,
                   help="search depth a move instead of a time")
    p.add_argument("--b-depth", type=int, default=None,
                   help="the second engine searches this depth instead (to compare "
                        "evaluations at a fixed depth)")
    p.add_argument("--game-type", default="Base+MLP")
    p.add_argument("--max-plies", type=int, default=300, help="plies before a draw")
    p.add_argument("--a", default=None, help="first engine (default: hexkit uhp)")
    p.add_argument("--b", default=None, help="second engine (default: nokamute, one thread)")
    p.add_argument("--log", default=None, help="append each game here as a JSON line")
    args = p.parse_args(argv)
    if args.games < 1 or args.time <= 0 or args.max_plies < 1:
        p.error("--games, --time and --max-plies must be positive")
    a = Player(args.a or hexkit_command())
    b = Player(args.b or nokamute_command())
    budget = f"depth {args.depth}" if args.depth else f"{args.time:g} s a move"
    if args.b_depth:
        b.budget = (None, args.b_depth)
        budget += f" (the second engine: depth {args.b_depth})"
    print(f"{a.name} against {b.name}, {args.game_type}, {budget}, {args.games} games, "
          f"{args.max_plies}-ply cap, threefold repetition a draw", flush=True)
    points: list[float] = []
    seen: set[tuple[str, ...]] = set()
    try:
        for index in range(args.games):
            a_white = index % 2 == 0
            white, black = (a, b) if a_white else (b, a)
            game = play_game(white, black, args.game_type,
                             None if args.depth else args.time, args.depth, args.max_plies)
            result = str(game["result"])
            got = 0.5 if result == "Draw" else float((result == "WhiteWins") == a_white)
            points.append(got)
            seen.add(tuple(game["moves"]))  # type: ignore[arg-type]
            mean, low, high = interval(points)
            print(f"game {index + 1:2}: {a.name} {'White' if a_white else 'Black'}, "
                  f"{result} after {len(game['moves'])} plies ({game['reason']}), "  # type: ignore[arg-type]
                  f"{a.name} scores {got:g}; so far {sum(points):g}/{len(points)} "
                  f"= {100 * mean:.1f}% [{100 * low:.1f}, {100 * high:.1f}]", flush=True)
            if args.log:
                with open(args.log, "a", encoding="utf-8") as f:
                    f.write(json.dumps({"game": index + 1, "a": a.spec, "b": b.spec,
                                        "a_white": a_white, "budget": budget,
                                        "game_type": args.game_type, "points": got,
                                        **game}) + "\n")
    except KeyboardInterrupt:
        print("stopped", flush=True)
    finally:
        a.close()
        b.close()
    if not points:
        return 1
    mean, low, high = interval(points)
    wins = sum(1 for x in points if x == 1)
    draws = sum(1 for x in points if x == 0.5)
    print(f"{a.name}: {sum(points):g} / {len(points)} points = {100 * mean:.1f}% "
          f"(95% interval {100 * low:.1f}-{100 * high:.1f}%; {wins} won, {draws} drawn, "
          f"{len(points) - wins - draws} lost) against {b.name}, {budget}, {args.game_type}")
    for player in (a, b):
        if player.times:
            print(f"{player.name}: bestmove took {sum(player.times) / len(player.times):.3f} s "
                  f"on average, {max(player.times):.3f} s at most (wall clock)")
    print(f"{len(seen)} different games of {len(points)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
