"""Check HexAround's extension hooks against Hive's reference engine.

Replays the MzingaCpp reference positions (tests/hive/data/reference_positions.json, made by
benchmarks/hive_reference_positions.py) through HexAround's engine with Hive's rule options
and the Ladybug/Pillbug/Mosquito abilities of tests/hexaround/hivelike.py, and compares the
legal moves as (piece, destination) sets. Exit status 1 if any position differs.

    python benchmarks/hexaround_hive_reference.py [reference_positions.json]
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = ROOT / "tests" / "hive" / "data" / "reference_positions.json"

#: Hive letter -> the creature types (one per numbered piece) and their definition.
KINDS = {"Q": ["BUTTERFLY"], "S": ["S1", "S2"], "B": ["B1", "B2"], "G": ["G1", "G2", "G3"],
         "A": ["A1", "A2", "A3"], "M": ["M"], "L": ["L"], "P": ["P"]}
DEFINITIONS = {"Q": (1, "WALKING, QUEEN"), "S": (3, "RUNNING"), "B": (1, "WALKING, INTRUDING"),
               "G": (1000, "JUMPING"), "A": (1000, "WALKING"), "M": (1, "COPYING"),
               "L": (1, "LADYBUG"), "P": (1, "WALKING, THROWING")}
#: Separator after the reference piece / before it -> axial offset (spec hive.md §6).
AFTER = {"-": (1, 0), "/": (1, -1), "\\": (0, 1)}
BEFORE = {"-": (-1, 0), "/": (-1, 1), "\\": (0, -1)}


def main() -> int:
    sys.path.insert(0, str(ROOT))
    from hexaround.config import parse_config_text
    from hexaround.engine import Engine
    from hexaround.extensions import Extensions, PlacementRule
    from hexaround.hexgrid import coords_of, key_of
    from hexaround.position import PASS

    from tests.hexaround.hivelike import EXTENSIONS, HIVE_RULES, one_of_a_kind_first

    # Number order applies to every game type here (the test scopes it to the mosquito).
    ext = Extensions(EXTENSIONS.abilities, (PlacementRule("number order", one_of_a_kind_first),))
    source = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT
    if not source.is_file():
        print(f"no reference positions at {source} (give the file as the argument)")
        return 2

    def config(game_type: str) -> Any:
        letters = "QSBGA" + (game_type.split("+")[1] if "+" in game_type else "")
        lines = ["creatures:"]
        stock = []
        for letter in letters:
            distance, props = DEFINITIONS[letter]
            for name in KINDS[letter]:
                lines.append(f"  {name}: {{max_distance: {distance}, properties: [{props}]}}")
                stock.append(f"{name}: 1")
        lines += ["players:", "  BLUE: {" + ", ".join(stock) + "}", "rules:"]
        lines += [f"  {k}: {v}" for k, v in HIVE_RULES.items()]
        return parse_config_text("\n".join(lines) + "\n", abilities=ext.kinds())

    def code_of(e: Engine, piece: str) -> int:
        body = piece[1:]
        return e.kind_index["BUTTERFLY" if body == "Q" else body] * 2 + (piece[0] == "b")

    def piece_of(e: Engine, code: int) -> str:
        name = e.names[code >> 1]
        return "wb"[code & 1] + ("Q" if name == "BUTTERFLY" else name)

    def where(e: Engine, piece: str) -> int:
        code = code_of(e, piece)
        return next(k for k, s in e.stacks.items() if code in s)

    def destination(e: Engine, text: str) -> tuple[str, int]:
        piece, *rest = text.split()
        if not rest:
            return piece, 0
        ref = rest[0]
        if ref[0] in BEFORE:
            (dx, dy), ref = BEFORE[ref[0]], ref[1:]
        elif ref[-1] in AFTER:
            (dx, dy), ref = AFTER[ref[-1]], ref[:-1]
        else:
            dx = dy = 0
        x, y = coords_of(where(e, ref))
        return piece, key_of(x + dx, y + dy)

    def action_of(e: Engine, text: str) -> tuple[int, int | None, int]:
        if text == "pass":
            return PASS
        piece, dst = destination(e, text)
        on_board = any(code_of(e, piece) in s for s in e.stacks.values())
        return code_of(e, piece) >> 1, where(e, piece) if on_board else None, dst

    def listed(e: Engine) -> set[tuple[str, int | None]]:
        out: set[tuple[str, int | None]] = set()
        for k, s, d in e.legal_actions():
            if k < 0:
                out.add(("pass", None))
            else:
                code = k * 2 + e.to_move if s is None else e.stacks[s][-1]
                out.add((piece_of(e, code), d))
        return out

    started = time.perf_counter()
    positions = json.loads(source.read_text())["positions"]
    configs: dict[str, Any] = {}
    bad = 0
    for i, pos in enumerate(positions):
        game_type, _, _, *moves = pos["game_string"].split(";")
        if game_type not in configs:
            configs[game_type] = config(game_type)
        e = Engine(configs[game_type], ext)
        for text in moves:
            e.apply(action_of(e, text))
        theirs = {("pass", None) if m == "pass" else destination(e, m)
                  for m in pos["valid_moves"]}
        mine = listed(e)
        if mine != theirs:
            bad += 1
            print(f"{i} {pos['game_string'][:160]}")
            for label, diff in (("missing", theirs - mine), ("extra", mine - theirs)):
                shown = sorted((p, coords_of(d) if d is not None else None) for p, d in diff)
                print(f"  {label}: {shown[:8]}")
    elapsed = time.perf_counter() - started
    print(f"positions {len(positions)}, differing {bad}, {elapsed:.1f} s")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
