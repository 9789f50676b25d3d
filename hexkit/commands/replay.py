"""``hexkit replay FILE``: a saved game move by move, every move re-checked by the rules,
with what each move did (its events)."""

from __future__ import annotations

import argparse


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``hexkit replay``."""
    parser.add_argument("file", help="a game record written by 'hexkit play --save'")
    parser.add_argument("--step", action="store_true",
                        help="wait for Enter after each move (q to stop)")
    parser.add_argument("--final", action="store_true",
                        help="list the moves and show only the final position")
    parser.add_argument("--move", type=int, default=None, metavar="N",
                        help="stop after move N (0 is the starting position)")


def run(args: argparse.Namespace) -> int:
    """Replay a record; every move is pushed through the rules again."""
    import sys

    from hexkit.errors import RecordError
    from hexkit.files.records import check_result, load_record, replay_steps
    from hexkit.kit.events import GAME_OVER

    out, stdin = sys.stdout, sys.stdin
    record = load_record(args.file)
    game = record.load_game()
    total = len(record.moves)
    if args.move is not None and not 0 <= args.move <= total:
        raise RecordError(f"{args.file}: move {args.move} is out of range: "
                          f"the record has {total} moves")
    limit = total if args.move is None else args.move
    seed = "" if record.seed is None else f", seed {record.seed}"
    print(f"{game}{seed}: {total} moves", file=out)
    state = None
    mover = ""
    picture = ""
    for number, text, state in replay_steps(record, game):
        if number:
            print(f"{number}. {mover}{text}", file=out)
            for event in state.events():
                if event.kind != GAME_OVER:  # the result is said once, at the end
                    print(f"   {event.text}", file=out)
        if not state.is_over():
            seat = state.current_player
            who = record.players[seat] if seat < len(record.players) else ""
            mover = f"{state.players[seat]}{f' ({who})' if who else ''}: "
        if not args.final or number == limit:
            picture = state.render()
            print(picture, file=out)
        if args.step and number < limit:
            out.write("-- Enter for the next move, q to stop -- ")
            out.flush()
            answer = stdin.readline()
            if not answer or answer.strip().lower() in ("q", "quit"):
                print(file=out)
                return 0
        if number == limit:
            break
    assert state is not None
    if limit == total:
        check_result(record, state)
        outcome = state.outcome()
        if any(line.startswith("Game over") for line in picture.splitlines()):
            pass  # the game's own picture already says how it ended
        elif outcome is None:
            print("The game is unfinished.", file=out)
        elif outcome.is_draw:
            print(f"Result: a draw ({outcome.reason}).", file=out)
        else:
            names = " and ".join(state.players[w] for w in outcome.winners)
            print(f"Result: {names} won ({outcome.reason}).", file=out)
    return 0
