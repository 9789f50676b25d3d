"""MCTS against the random bot, per game: win rate, draws, losses, time per move.

    python benchmarks/mcts_vs_random.py                    # 100 games of each built-in game
    python benchmarks/mcts_vs_random.py --games 20 --jobs 2 focus
    python benchmarks/mcts_vs_random.py --bot mcts:sims=400 hexbaron

Seats rotate every game (MCTS moves first in half the games); every game is reproducible
from the printed seed (``hexkit match GAME --p1 BOT --p2 random --seed S``). A game may
register a playout policy for MCTS through ``hexkit_register_playout_policies``; the table
says whether one was used.
"""

from __future__ import annotations

import argparse
import sys
import time

import hexkit
from hexkit import plugins
from hexkit.bots.mcts import playout_policy
from hexkit.match import run_match

#: MCTS settings per game: enough simulations to be strong, few enough to finish 100 games
#: on one core in minutes.
DEFAULT_BOTS = {
    "focus": "mcts:100",
    "hexaround": "mcts:100",
    "hexbaron": "mcts:200",
    "hex": "mcts:300",
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("games", nargs="*", help="games to measure (default: the built-in ones)")
    parser.add_argument("--games", dest="count", type=int, default=100, help="games per row")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--bot", default=None, help="bot spec for every game (default: per game)")
    parser.add_argument("--max-moves", type=int, default=1000)
    parser.add_argument("--plugins-dir", action="append", default=[], metavar="DIR",
                        help="also load plugin files from DIR (e.g. a playout policy to try)")
    args = parser.parse_args(argv)
    if args.plugins_dir:
        plugins.configure(args.plugins_dir)
    names = args.games or [g for g in ("focus", "hexaround", "hexbaron") if g in
                           hexkit.game_names()]
    print(f"{'game':<28} {'bot':<16} {'games':>5} {'wins':>5} {'draws':>5} {'losses':>6} "
          f"{'win %':>6} {'moves':>6} {'ms/move':>8} {'policy':>6}")
    for name in names:
        game = hexkit.load_game(name)
        bot = args.bot or DEFAULT_BOTS.get(game.name, "mcts")
        started = time.perf_counter()
        result = run_match(game, [bot, "random"], args.count, seed=args.seed, jobs=args.jobs,
                           max_moves=args.max_moves)
        seconds = time.perf_counter() - started
        mcts = result.players[0]
        played = [g for g in result.games if not g.error]
        moves = sum(g.moves for g in played)
        policy = "yes" if playout_policy(game.name) is not None else "no"
        print(f"{str(game):<28} {bot:<16} {len(played):>5} {mcts.wins:>5} {mcts.draws:>5} "
              f"{mcts.losses:>6} {100.0 * mcts.wins / max(1, len(played)):>5.1f}% "
              f"{moves / max(1, len(played)):>6.1f} "
              f"{1000.0 * seconds * args.jobs / max(1, moves):>8.2f} {policy:>6}")
        if result.errors:
            print(f"  {len(result.errors)} games failed; first: {result.errors[0].error}",
                  file=sys.stderr)
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
