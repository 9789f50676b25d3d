"""``hexkit render FILE.json [--move N] -o board.svg``: a saved game's position as SVG."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from hexkit.errors import RecordError
from hexkit.files.fileio import write_text_atomic
from hexkit.files.records import load_record, replay
from hexkit.render import render_state_svg


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``hexkit render``."""
    parser.add_argument("file", help="a game record written by 'hexkit play --save'")
    parser.add_argument("--move", type=int, default=None, metavar="N",
                        help="draw the position after move N (0: the start; default: the end)")
    parser.add_argument("-o", "--output", default="-", metavar="FILE",
                        help="where to write the SVG (default: standard output)")
    parser.add_argument("--size", type=float, default=30.0,
                        help="cell size in pixels (a hexagon's radius; default 30)")


def run(args: argparse.Namespace) -> int:
    """Replay the record (re-checking every move) up to the move and write the picture."""
    if args.output != "-":
        refuse_to_overwrite_a_record(args.file, args.output)
    record = load_record(args.file)
    if not 4 <= args.size <= 400:
        raise RecordError(f"--size {args.size:g} is outside 4..400")
    game = record.load_game()
    total = len(record.moves)
    if args.move is not None and not 0 <= args.move <= total:
        raise RecordError(
            f"{args.file}: move {args.move} is out of range: the record has {total} moves"
        )
    state = replay(record, args.move, game=game)
    shown = total if args.move is None else args.move
    title = f"{game} after move {shown}" if shown else f"{game}: start"
    svg = render_state_svg(state, cell_size=args.size, title=title)
    if args.output == "-":
        sys.stdout.write(svg)
    else:
        write_text_atomic(Path(args.output), svg)
    return 0


def refuse_to_overwrite_a_record(record_path: str, output: str) -> None:
    """RecordError if writing the picture to ``output`` would replace a game record (the
    record being drawn, or any other)."""
    out = Path(output)
    try:
        same = out.exists() and out.samefile(record_path)
    except OSError:
        same = False
    if same:
        raise RecordError(f"{output}: is the record being drawn; give another file for the "
                          "picture (-o board.svg)")
    if out.is_file():
        try:
            with open(out, "rb") as fh:
                head = fh.read(512)
        except OSError:
            return
        if b'"hexkit-record"' in head:
            raise RecordError(f"{output}: is a game record; it is not replaced by a picture "
                              "(give another file, e.g. -o board.svg)")
