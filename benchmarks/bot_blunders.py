"""Play games between two bots and check every move a bot made: did it miss a win in one,
or allow a loss in one that another move avoided? (issue 24: "bots that never miss a
one-move win or loss").

    python benchmarks/bot_blunders.py hexaround --p1 mcts:200 --p2 mcts --games 2
    python benchmarks/bot_blunders.py hexaround --p1 mcts:200 --p2 bot:medium --games 2

Each move is checked with the game's own tactical filter (its registered ``may_win``, the
one the bots use; ``--blind`` tries every reply instead, slower but independent of it).
For HexAround and Hive it also prints, after each of a bot's moves, how many of the six
hexes around that bot's butterfly (Queen) are taken when five or more are, and whether the
other player could then fill the last one. Exit status 1 if any bot blundered.
"""

from __future__ import annotations

import argparse
import sys
import time

import hexkit
from hexkit.bots import make_bot
from hexkit.bots.mcts import playout_policy
from hexkit.bots.tactics import Tactics
from hexkit.game import Move, State


def winning_replies(tactics: Tactics, state: State, move: Move) -> list[Move]:
    """The next player's wins in one after ``move`` (none if the game is over)."""
    state.push(move)
    try:
        if state.is_over():
            return []
        return tactics.winning_moves(state)
    finally:
        state.pop()


def crowding(state: State, seat: int) -> int | None:
    """Taken hexes around ``seat``'s butterfly or Queen (None if the game has none)."""
    engine = getattr(state, "engine", None)
    if engine is None or not hasattr(engine, "butterfly_at"):
        return None
    where = engine.butterfly_at(seat)
    return None if where is None else engine.crowding(where)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("game")
    parser.add_argument("--p1", default="mcts:200", help="player 1's bot (default mcts:200)")
    parser.add_argument("--p2", default="mcts", help="player 2's bot (default mcts)")
    parser.add_argument("--games", type=int, default=1, help="games (default 1); seats swap")
    parser.add_argument("--seed", type=int, default=1, help="first game's seed (default 1)")
    parser.add_argument("--max-moves", type=int, default=300, help="moves a game (default 300)")
    parser.add_argument("--blind", action="store_true",
                        help="check by trying every reply, not the game's may_win filter")
    args = parser.parse_args(argv)
    game = hexkit.load_game(args.game)
    tactics = Tactics(None if args.blind else playout_policy(game.name))
    blunders = 0
    for number in range(args.games):
        seed = args.seed + number
        specs = [args.p1, args.p2] if number % 2 == 0 else [args.p2, args.p1]
        bots = [make_bot(game, spec, seed * 10 + seat) for seat, spec in enumerate(specs)]
        state = game.new_state(seed=seed)
        cpu = [0.0, 0.0]
        moves = [0, 0]
        print(f"game {number + 1}: {specs[0]} (seat 1) v {specs[1]} (seat 2), seed {seed}")
        while not state.is_over() and len(state.move_stack) < args.max_moves:
            seat = state.current_player
            legal = list(state.legal_moves())
            started = time.process_time()
            move = bots[seat].choose(state)  # type: ignore[union-attr]
            cpu[seat] += time.process_time() - started
            moves[seat] += 1
            ply = len(state.move_stack) + 1
            wins = tactics.winning_moves(state, legal)
            if wins and move not in wins:
                blunders += 1
                print(f"  ply {ply}: {specs[seat]} played {move}, missing the win {wins[0]}")
            threat = winning_replies(tactics, state, move)
            if threat and not wins:
                safe = [m for m in legal if not winning_replies(tactics, state, m)]
                if safe:
                    blunders += 1
                    print(f"  ply {ply}: {specs[seat]} played {move}, allowing {threat[0]} "
                          f"(safe: {len(safe)} of {len(legal)} moves)")
            state.push(move)
            taken = crowding(state, seat)
            if taken is not None and taken >= 5 and not state.is_over():
                answer = tactics.winning_moves(state)
                print(f"  ply {ply}: after {specs[seat]}'s {move}, its butterfly has {taken} "
                      f"of 6 neighbours taken; the other player "
                      f"{'can' if answer else 'cannot'} fill the last one")
        outcome = state.outcome()
        winners = [specs[w] for w in outcome.winners] if outcome else []
        print(f"  result after {len(state.move_stack)} moves: "
              f"{', '.join(winners) + ' wins' if winners else 'draw or stopped'}"
              f"{' (' + outcome.reason + ')' if outcome and outcome.reason else ''}; CPU per "
              f"move: {specs[0]} {cpu[0] / max(1, moves[0]):.2f} s, "
              f"{specs[1]} {cpu[1] / max(1, moves[1]):.2f} s")
        sys.stdout.flush()
    print(f"{blunders} blunder(s) in one")
    return 1 if blunders else 0


if __name__ == "__main__":
    raise SystemExit(main())
