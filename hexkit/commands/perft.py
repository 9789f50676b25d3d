"""``hexkit perft GAME [-o key=value ...] DEPTH``: count the leaf positions of any game's
tree to each depth, timed (bulk counting at the last level; ``--divide`` splits the
count by first move)."""

from __future__ import annotations

import argparse


def configure(p: argparse.ArgumentParser) -> None:
    """Arguments of ``hexkit perft``."""
    p.add_argument("game", help="game name, e.g. hive or 'focus(board=cross)'")
    p.add_argument("depth", type=int, help="count to this depth (1 or more)")
    p.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE",
                   help="a game option (repeatable), e.g. -o expansions=none")
    p.add_argument("--seed", type=int, default=0,
                   help="seed of the starting position, for games with randomness (default 0)")
    p.add_argument("--moves", default="", metavar="'M1;M2;...'",
                   help="play these moves (separated by ';') first, and count from there")
    p.add_argument("--divide", action="store_true",
                   help="the count at DEPTH for each first move, then the total")
    p.add_argument("--naive", action="store_true",
                   help="walk every leaf with push/pop even where the game counts faster")


def run(args: argparse.Namespace) -> int:
    """Print ``perft(d) = count`` lines with times and nodes per second."""
    from hexkit import plugins
    from hexkit.errors import OptionError
    from hexkit.perft import divide, perft_lines

    if args.depth < 1:
        raise OptionError(f"perft: DEPTH must be 1 or more, not {args.depth}")
    reg = plugins.registry()
    name, inline = plugins.parse_game_string(args.game)
    game = reg.load_game(name, **{**inline, **plugins.parse_option_pairs(args.option)})
    state = game.new_state(seed=args.seed)
    for number, text in enumerate(t.strip() for t in args.moves.split(";")):
        if text:
            try:
                state.push(text)
            except ValueError as e:
                raise OptionError(f"--moves: move {number + 1} {text!r}: {e}") from None
    print(f"{game}, {len(state.move_stack)} moves played: perft to depth {args.depth}",
          flush=True)
    if args.divide:
        rows = divide(state, args.depth, naive=args.naive)
        width = max((len(text) for text, _ in rows), default=0)
        for text, count in rows:
            print(f"  {text:<{width}}  {count:,}")
        print(f"perft({args.depth}) = {sum(c for _, c in rows):,} "
              f"({len(rows)} moves)")
        return 0
    for line in perft_lines(state, args.depth, naive=args.naive):
        rate = f"{line.nodes_per_second:,.0f} nodes/s" if line.seconds >= 0.001 else "-"
        print(f"perft({line.depth}) = {line.nodes:,}  {line.seconds:.3f} s  {rate}",
              flush=True)
    return 0
