"""The Java HexAround test corpus: a pristine project, its planted-bug copies and scripts.

``pristine/`` is a HexAround project in the shape of the course's starting code (packages
``hexaround.game``, ``hexaround.config``; ``HexAroundGameBuilder.buildGameManager``), written
for hexkit's tests. ``mutants.yaml`` lists realistic rule bugs, each a small text patch of
it applied at test time, and the script (configuration and seed) that exposes it.

A *script* is a list of course calls, ``("place", creature, x, y)`` or ``("move",
creature, fx, fy, tx, ty)``, generated from hexkit's own facade (the reference) by the
grader's generator: legal actions (random, or steered to an ending) and, before them,
requests chosen from the rules that the reference refuses (a bug that accepts too much
shows only on those).
"""

from __future__ import annotations

import random
import shutil
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import yaml
from hexaround import grading
from hexaround.config import HexAroundConfig, load_config
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
    return grading.hgc_text(config)


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
    goal: str | None = None  # the script's steering (hexaround.probes.GOALS), if any


def load_mutants() -> list[Mutant]:
    data = yaml.safe_load(MUTANTS.read_text(encoding="utf-8"))
    return [Mutant(m["id"], m["rule"], m["file"],
                   tuple((r["old"], r["new"]) for r in m["replace"]),
                   m["exposed_by"]["config"], int(m["exposed_by"]["seed"]),
                   m["exposed_by"].get("goal"))
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


def script(config_path: Path, seed: int, length: int = 80, probes: float = 0.35,
           reference: Reference | None = None, goal: str | None = None) -> list[Call]:
    """A seeded script for a configuration, generated by playing the reference (the
    grader's own generator, :func:`hexaround.grading.play_script`), steered to ``goal``
    (one of :data:`hexaround.probes.GOALS`) if given."""
    ref = reference or Reference()
    ref.build(config_path)
    assert ref.gm is not None
    return [tuple(c) for c in grading.play_script(ref.gm, random.Random(seed), length, probes,
                                                  goal=goal)]


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
