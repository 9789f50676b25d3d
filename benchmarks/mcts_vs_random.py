"""MCTS against the random bot, per game: wins, draws, losses and time per move.

    python benchmarks/mcts_vs_random.py focus              # 100 games, the game's default bot
    python benchmarks/mcts_vs_random.py hexaround
    python benchmarks/mcts_vs_random.py hexbaron
    python benchmarks/mcts_vs_random.py --games 20 --bot mcts:400 "focus(board=cross,players=4)"
    python benchmarks/mcts_vs_random.py                    # every built-in game in turn

MCTS is player 1 and random fills the other seats; seats rotate every game, so MCTS moves
first in half the games (a third or a quarter with more players). Game ``i`` starts from
``new_state(seed=S + i)`` and the bots' seeds derive from ``(S, i, player)``: a row is
reproducible on any machine, and the line printed under it is the same match through
``hexkit match``. A game may register a playout policy for MCTS through
``hexkit_register_playout_policies``; the ``policy`` column says whether one was used.

Columns: ``moves`` is the average game length (every player's moves; a Hex Baron move is one
command), ``stopped`` the games ended as draws at ``--max-moves``, ``ms/move`` the wall time
per move of either player (single process; with ``--jobs`` the CPU time is estimated as
wall time x jobs) and ``s/game`` the wall time per game.
"""

from __future__ import annotations

import argparse
import sys
import time

import hexkit
from hexkit import plugins
from hexkit.bots.mcts import playout_policy
from hexkit.errors import HexkitError
from hexkit.tournament.match import run_match

#: MCTS settings per game: strong with the game's registered evaluation, and few enough
#: simulations to play 100 games on one core in minutes.
DEFAULT_BOTS = {
    "focus": "mcts:100",
    "hexaround": "mcts:100",
    "hexbaron": "mcts:200",
    "hex": "mcts:300",
}
BUILT_IN = ("focus", "hexaround", "hexbaron")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("games", nargs="*", metavar="GAME",
                        help="games to measure, e.g. focus or 'focus(board=cross,players=4)' "
                             "(default: the built-in ones)")
    parser.add_argument("--games", dest="count", type=int, default=100, metavar="N",
                        help="games per row (default 100)")
    parser.add_argument("--seed", type=int, default=2024, help="match seed (default 2024)")
    parser.add_argument("--jobs", type=int, default=1, metavar="J",
                        help="play games in J processes (default 1)")
    parser.add_argument("--bot", default=None,
                        help="MCTS spec for every game, e.g. mcts:400 or mcts:sims=200,c=0.5 "
                             "(default: per game)")
    parser.add_argument("--max-moves", type=int, default=1000, metavar="N",
                        help="stop a game after N moves and count it as a draw (default 1000)")
    parser.add_argument("--plugins-dir", action="append", default=[], metavar="DIR",
                        help="also load plugin files from DIR (e.g. a playout policy to try)")
    args = parser.parse_args(argv)
    if args.plugins_dir:
        plugins.configure(args.plugins_dir)
    names = args.games or [g for g in BUILT_IN if g in hexkit.game_names()]
    print(f"{'game':<30} {'bot':<16} {'games':>5} {'wins':>5} {'draws':>5} {'losses':>6} "
          f"{'win %':>6} {'moves':>6} {'stopped':>7} {'ms/move':>8} {'s/game':>7} "
          f"{'policy':>6}")
    status = 0
    for name in names:
        try:
            game = hexkit.load_game(name)
            bot = args.bot or DEFAULT_BOTS.get(game.name, "mcts")
            seats = len(game.new_state(seed=0).players)
            specs = [bot] + ["random"] * (seats - 1)
            started = time.perf_counter()
            result = run_match(game, specs, args.count, seed=args.seed, jobs=args.jobs,
                               max_moves=args.max_moves)
        except HexkitError as exc:
            print(f"{name}: {exc}", file=sys.stderr)
            status = 1
            continue
        seconds = time.perf_counter() - started
        mcts = result.players[0]
        played = [g for g in result.games if not g.error]
        count = max(1, len(played))
        moves = sum(g.moves for g in played)
        stopped = sum(1 for g in played if g.unfinished)
        policy = "yes" if playout_policy(game.name) is not None else "no"
        print(f"{str(game):<30} {bot:<16} {len(played):>5} {mcts.wins:>5} {mcts.draws:>5} "
              f"{mcts.losses:>6} {100.0 * mcts.wins / count:>5.1f}% {moves / count:>6.1f} "
              f"{stopped:>7} {1000.0 * seconds * args.jobs / max(1, moves):>8.2f} "
              f"{seconds * args.jobs / count:>7.2f} {policy:>6}")
        others = " ".join(f"--p{p + 1} random" for p in range(1, seats))
        print(f"  = hexkit match '{game}' --p1 {bot} {others} --games {args.count} "
              f"--seed {args.seed} --max-moves {args.max_moves}")
        if result.errors:
            print(f"  {len(result.errors)} games failed; first: {result.errors[0].error}",
                  file=sys.stderr)
            status = 1
        sys.stdout.flush()
    return status


if __name__ == "__main__":
    raise SystemExit(main())
