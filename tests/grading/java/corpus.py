"""The Java HexAround test corpus: a pristine project, its planted-bug copies and scripts.

``pristine/`` is a HexAround project in the shape of the course's starting code (packages
``hexaround.game``, ``hexaround.config``; ``HexAroundGameBuilder.buildGameManager``), written
for hexkit's tests. ``mutants.yaml`` lists realistic rule bugs, each a small text patch of
it applied at test time, and the script (configuration and seed) that exposes it.

A *script* is a list of course calls, ``("place", creature, x, y)`` or ``("move",
creature, fx, fy, tx, ty)``, generated from hexkit's own facade (the reference): mostly
legal actions, some steered at the butterflies (games end), and some plausible requests the
reference refuses (a bug that accepts too much shows only on those).
"""

from __future__ import annotations

import random
import shutil
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, cast

import yaml
from hexaround.config import HexAroundConfig, load_config
from hexaround.game import PlaceCreature
from hexaround.hexgrid import coords_of
from hexaround.manager import GameManager, build_game_manager

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
PRISTINE = HERE / "pristine"
MUTANTS = HERE / "mutants.yaml"
#: The course's variants as hexkit ships them (YAML); written as .hgc for the Java side.
COURSE_CONFIGS = ("level1", "level2", "level3", "submission1", "submission2",
                  "first-configuration", "b23-sample")
#: hexkit's own variant with every attribute, in the course's creature names.
EVERYTHING = HERE / "configs" / "everything.hgc"

Call = tuple[Any, ...]
Answer = tuple[str, str]
NEIGHBOURS = ((0, 1), (1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1))


class Player(Protocol):
    """Something that answers the course's calls: hexkit's facade or a Java project."""

    def build(self, config_path: str | Path) -> Answer: ...
    def place(self, creature: str, x: int, y: int) -> Answer: ...
    def move(self, creature: str, from_x: int, from_y: int, to_x: int,
             to_y: int) -> Answer: ...


def hgc_text(config: HexAroundConfig) -> str:
    """The configuration in the course's .hgc format (no rules section: defaults only)."""
    if config.rules != type(config.rules)():
        raise ValueError(".hgc has no rules section; this configuration changes the rules")
    lines = ["CREATURES:"]
    for c in config.creatures:
        props = " ".join(sorted(p.lower() for p in c.properties))
        lines.append(f"    {c.name.lower()} {c.max_distance} [{props}]")
    lines.append("PLAYERS:")
    for player, stock in config.stocks.items():
        entries = [f"{name.lower()} {n}" for name, n in stock.items()]
        lines.append(f"    {player} " + ", ".join(entries))
    return "\n".join(lines) + "\n"


def write_configs(folder: Path) -> dict[str, Path]:
    """The course's variants and the everything variant as .hgc files in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    out: dict[str, Path] = {}
    for name in COURSE_CONFIGS:
        config = load_config(ROOT / "configs" / "hexaround" / f"{name}.yaml")
        path = folder / f"{name}.hgc"
        path.write_text(hgc_text(config), encoding="utf-8")
        out[name] = path
    out["everything"] = folder / EVERYTHING.name
    shutil.copyfile(EVERYTHING, out["everything"])
    return out


# ---- mutants -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Mutant:
    """One planted rule bug: text replacements in one file of the pristine project."""

    id: str
    rule: str
    file: str
    replace: tuple[tuple[str, str], ...]
    config: str
    seed: int


def load_mutants() -> list[Mutant]:
    data = yaml.safe_load(MUTANTS.read_text(encoding="utf-8"))
    return [Mutant(m["id"], m["rule"], m["file"],
                   tuple((r["old"], r["new"]) for r in m["replace"]),
                   m["exposed_by"]["config"], int(m["exposed_by"]["seed"]))
            for m in data["mutants"]]


def make_project(folder: Path, mutant: Mutant | None = None) -> Path:
    """A copy of the pristine project in ``folder`` with the mutant's patch applied."""
    target = folder / (mutant.id if mutant else "pristine")
    shutil.copytree(PRISTINE, target)
    if mutant is not None:
        path = target / mutant.file
        text = path.read_text(encoding="utf-8")
        for old, new in mutant.replace:
            if text.count(old) != 1:
                raise ValueError(f"{mutant.id}: {old!r} occurs {text.count(old)} times in "
                                 f"{mutant.file}")
            text = text.replace(old, new)
        path.write_text(text, encoding="utf-8")
    return target


# ---- scripts -------------------------------------------------------------------------------

class Reference:
    """hexkit's facade answering the course's calls (the names of its results)."""

    def __init__(self, **rules: Any) -> None:
        self.gm: GameManager | None = None
        #: Rule options over the file's (e.g. the course tests' readings).
        self.rules = rules

    def build(self, config_path: str | Path) -> Answer:
        self.gm = build_game_manager(config_path, **self.rules)
        return ("OK", "hexaround.manager.GameManager")

    def place(self, creature: str, x: int, y: int) -> Answer:
        assert self.gm is not None
        r = self.gm.place_creature(creature, x, y)
        return (r.move_result.name, r.message)

    def move(self, creature: str, from_x: int, from_y: int, to_x: int, to_y: int) -> Answer:
        assert self.gm is not None
        r = self.gm.move_creature(creature, from_x, from_y, to_x, to_y)
        return (r.move_result.name, r.message)


def call(player: Player, c: Call) -> Answer:
    """Send one scripted call."""
    if c[0] == "place":
        return player.place(c[1], c[2], c[3])
    return player.move(c[1], c[2], c[3], c[4], c[5])


def _near(x: int, y: int) -> list[tuple[int, int]]:
    return [(x + dx, y + dy) for dx, dy in NEIGHBOURS]


def _probe(gm: GameManager, rng: random.Random) -> Call | None:
    """A plausible request, often one the rules refuse: a placement next to the colony (or
    two hexes out), or
    a move of one's own creature to a hex within its reach (or one more), half of the time
    onto another creature."""
    state = gm.state
    engine = state.engine
    occupied = sorted(coords_of(k) for k in engine.occ)
    me = gm.player_to_act
    if not occupied:
        return None
    if rng.random() < 0.4:
        names = [n for n in engine.names if gm.in_hand(me, n)]
        if not names:
            return None
        x, y = rng.choice(_near(*rng.choice(occupied)))
        if rng.random() < 0.3:
            x, y = rng.choice(_near(x, y))  # two hexes out: off the colony, or not
        return ("place", rng.choice(names), x, y)
    mine = [(x, y) for x, y in occupied
            if any(owner == me for _, owner in gm.stack_at(x, y))]
    if not mine:
        return None
    fx, fy = rng.choice(mine)
    names = sorted({n for n, owner in gm.stack_at(fx, fy) if owner == me})
    # Creatures held down or hemmed in: under another creature, or surrounded.
    stuck = [(x, y, n) for x, y in mine for n, owner in gm.stack_at(x, y)[:-1] if owner == me]
    stuck += [(x, y, n) for x, y in mine if all(gm.is_occupied(*h) for h in _near(x, y))
              for n, owner in gm.stack_at(x, y)[-1:] if owner == me]
    if stuck and rng.random() < 0.5:
        fx, fy, name = rng.choice(stuck)
    else:
        name = rng.choice(names)
    reach = gm.config.creature(name).max_distance + 1  # type: ignore[union-attr]
    reach = min(reach, 6)
    crowded = [(x, y) for x, y in occupied if (x, y) != (fx, fy)
               and max(abs(x - fx), abs(y - fy), abs(x - fx + y - fy)) <= reach]
    if crowded and rng.random() < 0.5:
        tx, ty = rng.choice(crowded)  # onto a creature: attacks, swaps, climbs
        return ("move", name, fx, fy, tx, ty)
    dx, dy = rng.randint(-reach, reach), rng.randint(-reach, reach)
    if abs(dx + dy) > reach or (dx, dy) == (0, 0):
        dx, dy = rng.choice(NEIGHBOURS)
    return ("move", name, fx, fy, fx + dx, fy + dy)


def _butterflies(gm: GameManager) -> list[tuple[int, int]]:
    out = []
    for k in gm.state.engine.occ:
        x, y = coords_of(k)
        if any(n == "BUTTERFLY" for n, _ in gm.stack_at(x, y)):
            out.append((x, y))
    return out


def script(config_path: Path, seed: int, length: int = 80, probes: float = 0.35,
           reference: Reference | None = None) -> list[Call]:
    """A seeded script for a configuration, generated by playing the reference."""
    rng = random.Random(seed)
    ref = reference or Reference()
    ref.build(config_path)
    gm = ref.gm
    assert gm is not None
    calls: list[Call] = []
    while len(calls) < length:
        if gm.is_over():
            calls.append(_probe(gm, rng) or ("place", "BUTTERFLY", 0, 0))
            break
        c: Call | None = None
        if rng.random() < probes:
            c = _probe(gm, rng)
        if c is None:
            legal: list[Call] = [
                ("place" if isinstance(m, PlaceCreature) else "move", *cast(Call, m))
                for m in gm.state.legal_moves()]
            if not legal:
                break
            places = [m for m in legal if m[0] == "place"]
            moves = [m for m in legal if m[0] == "move"]
            around = {h for b in _butterflies(gm) for h in _near(*b)}
            near_b = [m for m in legal if (m[-2], m[-1]) in around]
            r = rng.random()
            if near_b and r < 0.3:
                c = rng.choice(near_b)
            elif moves and (not places or r < 0.65):
                c = rng.choice(moves)
            else:
                c = rng.choice(places)
        calls.append(c)
        call(ref, c)
    return calls


def play(player: Player, config_path: Path, calls: Iterable[Call]) -> list[Answer]:
    """Build a game and send every call; the answers, build first."""
    answers = [player.build(config_path)]
    answers += [call(player, c) for c in calls]
    return answers


@dataclass(frozen=True)
class Difference:
    """The first call whose result differs: its index, the call and both answers."""

    index: int
    call: Call
    expected: Answer
    actual: Answer


def first_difference(player: Player, config_path: Path, calls: Sequence[Call],
                     reference: Reference | None = None) -> Difference | None:
    """Play the script on the reference and on ``player`` side by side; the first call
    whose result names differ (the messages are free), or None."""
    ref = reference or Reference()
    ref.build(config_path)
    built = player.build(config_path)
    if built[0] != "OK":
        return Difference(0, ("build", str(config_path)), ("OK", ""), built)
    for i, c in enumerate(calls, 1):
        expected = call(ref, c)
        actual = call(player, c)
        if expected[0] != actual[0]:
            return Difference(i, c, expected, actual)
    return None
