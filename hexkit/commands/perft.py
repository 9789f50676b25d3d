"""``hexkit perft GAME [-o key=value ...] DEPTH``: count the leaf positions of any game's
tree to each depth, timed (bulk counting at the last level; ``--divide`` splits the
count by first move). Each call into the game's code has a deadline (``--time-limit``):
a move generator that loops stops the count with one line naming the call and the moves
that led to it."""

from __future__ import annotations

import argparse
from types import FrameType

#: Default deadline of one call into the game's code (seconds).
DEFAULT_TIME_LIMIT = 10.0


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
    p.add_argument("--time-limit", type=float, default=DEFAULT_TIME_LIMIT, metavar="SECONDS",
                   help="deadline of each call into the game's code (legal_moves, push, pop; "
                        f"default {DEFAULT_TIME_LIMIT:g}; 0: none); a game's own fast counter "
                        "is one call and is not timed (--naive times each move)")


def run(args: argparse.Namespace) -> int:
    """Print ``perft(d) = count`` lines with times and nodes per second."""
    from hexkit.errors import OptionError
    from hexkit.loading.deadline import watch_calls
    from hexkit.tools import perft

    if args.depth < 1:
        raise OptionError(f"perft: DEPTH must be 1 or more, not {args.depth}")
    if args.time_limit < 0:
        raise OptionError("--time-limit must be 0 (none) or more seconds")
    # The calls that these functions make into the game are timed; a game's own counter,
    # called by perft(), is one long call by design.
    drivers = {_perft.__code__: True, perft.divide.__code__: True,
               perft._count.__code__: True, perft.perft.__code__: False,
               perft.perft_lines.__code__: False}
    with watch_calls(args.time_limit, drivers, _describe, "perft"):
        return _perft(args)


def _perft(args: argparse.Namespace) -> int:
    from hexkit import plugins
    from hexkit.errors import OptionError
    from hexkit.tools.perft import divide, perft_lines

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


def _describe(driver: FrameType, call: FrameType) -> str:
    """``push('a1-b1') after c3-c4 b2-b3`` for the call that ran out of time."""
    local = driver.f_locals
    argument = local.get("move", local.get("text")) if call.f_code.co_name == "push" else None
    name = f"{call.f_code.co_name}({str(argument)!r})" if argument is not None \
        else f"{call.f_code.co_name}()"
    stack = getattr(local.get("state"), "move_stack", None)
    if stack is None:
        return name
    played = " ".join(str(m) for m in stack)
    return f"{name} after {played}" if played else f"{name} from the start"
