"""``hexkit grade`` kind ``hexaround-java``: a WPI CS4233 HexAround project in Java (a folder
or zip as the course asks it handed in), graded against ``--reference
'hexaround(config=...)'`` through the course's own interface.

The project is compiled with the machine's JDK and driven by hexkit's Java driver
(:mod:`hexkit.grading.hexaround_java`) in one JVM with the sandbox's limits, working folder
and clean environment; every game starts with ``HexAroundGameBuilder.buildGameManager`` on
the variant's ``.hgc`` file, then ``placeCreature`` / ``moveCreature``. Only the name of each
answer's result is compared (OK, MOVE_ERROR, BLUE_WON, RED_WON, DRAW); the message is shown
in a counterexample, never compared.

Trajectories are games played on the reference: legal actions (random, steered at the
butterflies so that games end, or the MCTS bot's), with plausible requests the rules refuse
mixed in: placements next to or near the colony, moves within a creature's reach or one
hex more, onto other creatures, of creatures held under a stack or hemmed in.
"""

from __future__ import annotations

import random
import shutil
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any, cast

from hexaround.config import HexAroundConfig
from hexaround.game import DEFAULT_VARIANT, PlaceCreature, resolve_config_path
from hexaround.hexgrid import coords_of
from hexaround.manager import GameManager
from hexkit import plugins
from hexkit.errors import OptionError
from hexkit.grading.hexaround_java import (
    JAVA_OPTIONS,
    CompiledProject,
    HexAroundJava,
    JavaProjectError,
    compile_project,
    is_hexaround_project,
)
from hexkit.grading.kind import (
    Kind,
    LoadFailure,
    Observation,
    Plan,
    Run,
    Session,
    Trajectory,
    plan_bot,
)
from hexkit.grading.sandbox import Budget, Limits, _limiter, clean_environment

#: The creatures the course's configuration grammar (and CreatureName enum) knows.
COURSE_CREATURES = ("BUTTERFLY", "CRAB", "DOVE", "DUCK", "GRASSHOPPER", "HORSE",
                    "HUMMINGBIRD", "RABBIT", "SPIDER", "TURTLE")
WEIGHTS = {"placement": 30.0, "movement": 45.0, "winning": 25.0}
ENDS = ("BLUE_WON", "RED_WON", "DRAW")
NEIGHBOURS = ((0, 1), (1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1))
Call = list[Any]


class HexAroundJavaKind(Kind):
    """WPI CS4233 HexAround projects in Java."""

    name = "hexaround-java"
    title = "WPI CS4233 HexAround (Java)"

    def recognise(self, path: Path) -> bool:
        return is_hexaround_project(path)

    def check_reference(self, reference: str) -> None:
        reference_config(reference)

    def open(self, path: Path, reference: str, limits: Limits, budget: Budget,
             options: Mapping[str, Any]) -> HexAroundJavaSession:
        return HexAroundJavaSession(path, reference, limits, budget)


def reference_config(reference: str) -> tuple[HexAroundConfig, Path]:
    """The reference's configuration (rule options applied) and its file."""
    base, options = plugins.parse_game_string(reference)
    if base != "hexaround":
        raise OptionError(f"a Java HexAround project is graded against hexaround, not {base}")
    game = plugins.load_game(reference)
    config = cast(HexAroundConfig, game.config)  # type: ignore[attr-defined]
    foreign = [c.name for c in config.creatures if c.name not in COURSE_CREATURES]
    if foreign:
        raise OptionError(f"the course's .hgc files know only the creatures "
                          f"{', '.join(COURSE_CREATURES)}; this variant has "
                          f"{', '.join(foreign)}")
    return config, resolve_config_path(str(options.get("config") or DEFAULT_VARIANT))


def hgc_text(config: HexAroundConfig) -> str:
    """The variant's creatures and hands in the course's .hgc format (which has no rules
    section: the rule options stay the reference's)."""
    lines = ["CREATURES:"]
    for c in config.creatures:
        props = " ".join(sorted(p.lower() for p in c.properties))
        lines.append(f"    {c.name.lower()} {c.max_distance} [{props}]")
    lines.append("PLAYERS:")
    for player, stock in config.stocks.items():
        lines.append(f"    {player} " + ", ".join(f"{n.lower()} {k}" for n, k in stock.items()))
    return "\n".join(lines) + "\n"


# ---- trajectories ---------------------------------------------------------------------------

def answer(gm: GameManager, call: Call) -> tuple[str, str]:
    """One course call on the reference: (result name, message)."""
    if call[0] == "place":
        r = gm.place_creature(call[1], call[2], call[3])
    else:
        r = gm.move_creature(call[1], call[2], call[3], call[4], call[5])
    return r.move_result.name, r.message


def _near(x: int, y: int) -> list[tuple[int, int]]:
    return [(x + dx, y + dy) for dx, dy in NEIGHBOURS]


def probe(gm: GameManager, rng: random.Random) -> Call | None:
    """A plausible request, often one the rules refuse: a placement next to the colony (or
    two hexes out), or a move of one's own creature within its reach (or one more), half of
    the time onto another creature, and often of a creature held under another one or
    hemmed in."""
    engine = gm.state.engine
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
        return ["place", rng.choice(names), x, y]
    mine = [(x, y) for x, y in occupied
            if any(owner == me for _, owner in gm.stack_at(x, y))]
    if not mine:
        return None
    fx, fy = rng.choice(mine)
    names = sorted({n for n, owner in gm.stack_at(fx, fy) if owner == me})
    held = [(x, y, n) for x, y in mine for n, owner in gm.stack_at(x, y)[:-1] if owner == me]
    held += [(x, y, n) for x, y in mine if all(gm.is_occupied(*h) for h in _near(x, y))
             for n, owner in gm.stack_at(x, y)[-1:] if owner == me]
    if held and rng.random() < 0.5:
        fx, fy, name = rng.choice(held)
    else:
        name = rng.choice(names)
    creature = gm.config.creature(name)
    reach = min((creature.max_distance if creature else 1) + 1, 6)
    crowded = [(x, y) for x, y in occupied if (x, y) != (fx, fy)
               and max(abs(x - fx), abs(y - fy), abs(x - fx + y - fy)) <= reach]
    if crowded and rng.random() < 0.5:
        tx, ty = rng.choice(crowded)  # onto a creature: attacks, swaps, climbs
        return ["move", name, fx, fy, tx, ty]
    dx, dy = rng.randint(-reach, reach), rng.randint(-reach, reach)
    if abs(dx + dy) > reach or (dx, dy) == (0, 0):
        dx, dy = rng.choice(NEIGHBOURS)
    return ["move", name, fx, fy, fx + dx, fy + dy]


def _butterflies(gm: GameManager) -> list[tuple[int, int]]:
    out = []
    for k in gm.state.engine.occ:
        x, y = coords_of(k)
        if any(n == "BUTTERFLY" for n, _ in gm.stack_at(x, y)):
            out.append((x, y))
    return out


def play_script(gm: GameManager, rng: random.Random, length: int, probes: float = 0.35,
                bots: list[Any] | None = None) -> list[Call]:
    """Calls of one game on ``gm`` (played as they are made): legal actions, random (a third
    of them steered at the butterflies, so that games end) or the ``bots``' choice, with
    refused requests (:func:`probe`) in a share ``probes``; after the end, one more
    request (every request is then MOVE_ERROR)."""
    calls: list[Call] = []
    while len(calls) < length:
        if gm.is_over():
            calls.append(probe(gm, rng) or ["place", "BUTTERFLY", 0, 0])
            break
        c: Call | None = probe(gm, rng) if rng.random() < probes else None
        if c is None and bots is not None:
            move = bots[gm.state.current_player].choose(gm.state)
            c = ["place" if isinstance(move, PlaceCreature) else "move", *move]
        if c is None:
            legal: list[Call] = [
                ["place" if isinstance(m, PlaceCreature) else "move", *cast(Call, m)]
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
        answer(gm, c)
    return calls


# ---- the session ----------------------------------------------------------------------------

#: What the student's code may do in the JVM (Java's security manager, JDK 17 to 23): read
#: any file, write only in its own folder, no programs, no network. hexkit's driver (the
#: tools folder) may do anything; a call into the student's code has the student's rights.
POLICY = """\
grant codeBase "{tools}" {{
    permission java.security.AllPermission;
}};
grant {{
    permission java.io.FilePermission "<<ALL FILES>>", "read";
    permission java.io.FilePermission "{run}", "read,write,delete";
    permission java.io.FilePermission "{run}${{/}}-", "read,write,delete";
    permission java.util.PropertyPermission "*", "read,write";
    permission java.lang.RuntimePermission "exitVM.*";
    permission java.lang.RuntimePermission "getenv.*";
    permission java.lang.RuntimePermission "getClassLoader";
    permission java.lang.RuntimePermission "createClassLoader";
    permission java.lang.RuntimePermission "setContextClassLoader";
    permission java.lang.RuntimePermission "accessDeclaredMembers";
    permission java.lang.RuntimePermission "accessClassInPackage.*";
    permission java.lang.RuntimePermission "getProtectionDomain";
    permission java.lang.RuntimePermission "modifyThread";
    permission java.lang.RuntimePermission "modifyThreadGroup";
    permission java.lang.RuntimePermission "readFileDescriptor";
    permission java.lang.RuntimePermission "writeFileDescriptor";
    permission java.lang.RuntimePermission "getStackTrace";
    permission java.lang.RuntimePermission "localeServiceProvider";
    permission java.lang.reflect.ReflectPermission "suppressAccessChecks";
    permission java.util.logging.LoggingPermission "control";
}};
"""


def _java_release(java: str) -> int:
    """The feature release of the JDK that ``java`` belongs to (0 if unknown)."""
    import os
    import re

    home = Path(os.path.realpath(java)).parents[1]
    try:
        text = (home / "release").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return 0
    found = re.search(r'JAVA_VERSION="(?:1\.)?(\d+)', text)
    return int(found.group(1)) if found else 0


def confined(project: CompiledProject, run: Path, work: Path) -> tuple[str, ...]:
    """The JVM's options: hexkit's, and where the JDK has a security manager (17 to 23),
    a policy that keeps the student's code from writing outside ``run``."""
    from hexkit.grading.java.compiler import jdk

    release = _java_release(jdk()[1])
    options = (*JAVA_OPTIONS, f"-Djava.io.tmpdir={run}")
    if not 17 <= release <= 23:
        return options
    policy = work / "student.policy"
    policy.write_text(POLICY.format(tools=project.tools.resolve().as_uri() + "/-",
                                    run=str(run.resolve())), encoding="utf-8")
    return (*options, "-Djava.security.manager", f"-Djava.security.policy=={policy}")

class HexAroundJavaSession(Session):
    """A Java HexAround project against hexkit's HexAround."""

    weights = WEIGHTS
    groups = tuple(WEIGHTS)

    def __init__(self, path: Path, reference: str, limits: Limits, budget: Budget):
        self.config, source = reference_config(reference)
        self.path = path
        self.limits = limits
        self.budget = budget
        self.work = Path(tempfile.mkdtemp(prefix="hexkit-grade-java-"))
        self.config_file = self.work / "configuration.hgc"
        if source.suffix.lower() == ".hgc":
            shutil.copyfile(source, self.config_file)
        else:
            self.config_file.write_text(hgc_text(self.config), encoding="utf-8")
        self.java: HexAroundJava | None = None

    def load(self) -> dict[str, Any]:
        """Compile the project (once, cached) and start its JVM; LoadFailure if either
        fails."""
        if self.java is None:
            try:
                project = compile_project(self.path)
                run = self.work / "run"
                run.mkdir()
                self.java = HexAroundJava(project, cwd=run, env=clean_environment(run),
                                          preexec_fn=_limiter(self.limits),
                                          call_timeout=self.limits.call_limit,
                                          start_timeout=self.limits.start_limit,
                                          java_options=confined(project, run, self.work))
                self.java.start()
            except (JavaProjectError, OSError) as exc:
                raise LoadFailure(str(exc)) from None
        return {"builder": self.java.builder}

    def reference(self) -> GameManager:
        return GameManager(self.config)

    def trajectories(self, plan: Plan) -> list[Trajectory]:
        out = []
        for i in range(plan.random):
            rng = random.Random(plan.seed * 1000 + i)
            out.append(Trajectory(f"random game {i + 1}", "random", {},
                                  play_script(self.reference(), rng, plan.length)))
        for i in range(plan.bot):
            gm = self.reference()
            seed = plan.seed * 1000 + 500 + i
            bots = [plan_bot(gm.game, plan.bot_spec, seed + s) for s in (0, 1)]
            out.append(Trajectory(f"bot game {i + 1}", "bot", {}, play_script(
                gm, random.Random(seed), plan.length, probes=0.2, bots=bots)))
        return out

    def expected(self, trajectory: Trajectory, detail: bool = False) -> list[Observation]:
        gm = self.reference()
        out = []
        for call in trajectory.calls:
            result, message = answer(gm, call)
            out.append({"result": result, "_message": message})
        return out

    def actual(self, trajectory: Trajectory, detail: bool = False) -> Run:
        self.load()
        java = self.java
        assert java is not None
        try:
            built = java.build(self.config_file)
        except JavaProjectError as exc:  # a JVM that cannot start again
            return Run([], str(exc))
        if built[0] in ("TIMEOUT", "CRASHED"):
            return Run([], f"buildGameManager: {built[1]}")
        if built[0] != "OK":
            return Run([], f"buildGameManager failed: {built[0]}: {built[1]}")
        out: list[Observation] = []
        for call in trajectory.calls:
            if self.budget.spent():
                return Run(out, f"the submission's time limit ({self.budget.seconds:g} s) "
                                "ran out")
            if call[0] == "place":
                result, message = java.place(call[1], call[2], call[3])
            else:
                result, message = java.move(call[1], call[2], call[3], call[4], call[5])
            if result in ("TIMEOUT", "CRASHED"):
                return Run(out, message)
            out.append({"result": result, "_message": message})
        return Run(out)

    def passive(self, trajectory: Trajectory, expected: list[Observation]) -> list[bool]:
        return [obs.get("result") == "MOVE_ERROR" for obs in expected]

    def classify(self, trajectory: Trajectory, index: int, expected: Observation | None,
                 actual: Observation | None) -> str:
        results = {(expected or {}).get("result"), (actual or {}).get("result")}
        if results & set(ENDS):
            return "winning"
        call = trajectory.calls[index] if index < len(trajectory.calls) else ["place"]
        return "placement" if call[0] == "place" else "movement"

    def explain(self, trajectory: Trajectory, index: int, expected: Observation | None,
                actual: Observation | None, failure: str | None) -> list[str]:
        lines = ["The calls, in Java (each with the reference's answer):",
                 f'  gm = HexAroundGameBuilder.buildGameManager("{self.config_file.name}");']
        gm = self.reference()
        for i, call in enumerate(trajectory.calls[: index + 1]):
            result, message = answer(gm, call)
            args = ", ".join(str(v) for v in call[2:])
            method = "placeCreature" if call[0] == "place" else "moveCreature"
            text = f"  gm.{method}(CreatureName.{call[1]}, {args});"
            note = f"{result} ({message})" if result == "MOVE_ERROR" else result
            lines.append(f"{text:<62} // {note if i < index else '<- here they disagree'}")
        if failure:
            lines.append(f"The submission stopped answering at this call: {failure}")
            return lines
        for label, seen in (("expected", expected), ("got", actual)):
            seen = seen or {}
            said = seen.get("_message")
            lines.append(f"  {label + ':':<10}{seen.get('result')}"
                         + (f" ({said})" if said else ""))
        lines.append("The variant (" + self.config_file.name + "):")
        lines += ["  " + line for line in self.config_file.read_text(
            encoding="utf-8", errors="replace").splitlines() if line.strip()][:40]
        return lines

    def picture(self, trajectory: Trajectory, index: int) -> str | None:
        from hexkit.render import render_state_svg

        gm = self.reference()
        for call in trajectory.calls[:index]:
            answer(gm, call)
        return render_state_svg(gm.state, title="the reference's position before the call")

    def close(self) -> None:
        if self.java is not None:
            self.java.close()
            self.java = None
        shutil.rmtree(self.work, ignore_errors=True)
