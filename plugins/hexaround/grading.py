"""``hexkit grade`` kind ``hexaround-java``: a WPI CS4233 HexAround project in Java (a folder
or zip as the course asks it handed in), graded against ``--reference
'hexaround(config=...)'`` through the course's own interface.

The project is compiled with the machine's JDK and driven by hexkit's Java driver
(:mod:`hexkit.grading.hexaround_java`) in one JVM with the sandbox's limits, working folder
and clean environment; every game starts with ``HexAroundGameBuilder.buildGameManager`` on
the variant's ``.hgc`` file, then ``placeCreature`` / ``moveCreature``. Only the name of each
answer's result is compared (OK, MOVE_ERROR, BLUE_WON, RED_WON, DRAW); the message is shown
in a counterexample, never compared.

Trajectories are games played on the reference (random, by the bot, or steered on purpose
to each ending: a surround of either butterfly, both at once, a player left without an
action), and before each action requests chosen from the rules that a correct game refuses
(:mod:`hexaround.probes`: placements away from the colony or next to the enemy, moves one
hex short of or past a creature's distance, across open space, through a shut gate...).
The course's manager has no undo, so an ending met on the way is probed by a trajectory of
its own: the calls up to it, the ending action, then requests of every kind after the end.
A difference is reported under the rule it touches (:meth:`HexAroundJavaSession.classify`).
"""

from __future__ import annotations

import random
import re
import shutil
import tempfile
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from hexaround import probes
from hexaround.config import PLAYERS, HexAroundConfig
from hexaround.engine import Engine
from hexaround.game import DEFAULT_VARIANT, resolve_config_path
from hexaround.hexgrid import OFFSETS, coords_of
from hexaround.manager import GameManager
from hexkit import plugins
from hexkit.errors import OptionError
from hexkit.grading.hexaround_java import (
    DRIVER_RESULTS,
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
#: Colours, creature names and numbers in the reference's messages (a rule's own words
#: are the rest).
_NAMES_AND_NUMBERS = re.compile(r"\b[A-Z][A-Z_]+\b|-?\d+")
#: The driver's answers when the JVM stopped answering (the game is lost with it).
LOST = ("TIMEOUT", "CRASHED", "OUT_OF_MEMORY")
#: The JVM's heap (in JAVA_OPTIONS), named when a submission exhausts it.
JAVA_HEAP = next(o.removeprefix("-Xmx") for o in JAVA_OPTIONS if o.startswith("-Xmx")
                 ).upper().replace("M", " MiB").replace("G", " GiB")
#: The kinds of ending of :func:`probes.ending_actions`.
ENDINGS = ("BLUE_WON", "RED_WON", "draw", "stuck")
Call = list[Any]
Action = probes.Action
#: Actions in one game at most (a HexAround game that has not ended by then rarely will).
MAX_ACTIONS = 120
#: Actions of a game steered to an ending.
STEERED_ACTIONS = 80
#: Branches kept per kind of ending (the shortest).
BRANCHES = 3
#: The random games whose opening requests (every placement rule) are played.
OPENING_GAMES = 4
#: The bot of the bot-guided games unless grading.yaml names one: MCTS without its tactics
#: layer, whose checks for a win in one cost seconds a move once the board is full (the
#: steered games reach the endings instead).
JAVA_BOT = "mcts:sims=12,tactics=off"
#: Games tried per kind of surround for an ending with a creature left to place.
READY_ATTEMPTS = 8
#: The branches of a game: its endings, and rare positions a request is made in.
BRANCH_NAMES = {"BLUE_WON": "ending with RED's butterfly surrounded",
                "RED_WON": "ending with BLUE's butterfly surrounded",
                "draw": "ending with both butterflies surrounded",
                "stuck": "ending with a player left without a legal action",
                "hemmed": "then a flyer hemmed in asked to fly",
                "returned": "then a kamikaze victim placed again by its owner"}


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


@dataclass
class Game:
    """One played game of a trajectory plan: its calls, and the branches that leave it at
    an ending (the calls up to there, the ending action, then requests after the end)."""

    calls: list[Call]
    branches: list[tuple[str, list[Call]]]
    #: Requests refused at the opening, each in a trajectory of its own: (the rule probed,
    #: the calls so far, the request, then the action the game played there).
    openings: list[tuple[str, list[Call]]]


@dataclass
class History:
    """What the special moves of a replay did: the creatures a kamikaze attack sent back to
    a hand (player, creature), how many attacks and climbs onto a creature it accepted."""

    returned: set[tuple[str, str]]
    attacks: int = 0
    climbs: int = 0


def replay(gm: GameManager, calls: list[Call]) -> tuple[GameManager, History]:
    """Play ``calls`` on ``gm``, noting the kamikaze attacks and climbs it accepts."""
    history = History(set())
    for call in calls:
        victim = None
        props: frozenset[str] = frozenset()
        if call[0] == "move" and not gm.is_over():
            target = gm.stack_at(call[4], call[5])
            mover = gm.config.creature(str(call[1]))
            if target and mover is not None:
                victim, props = target[-1], mover.properties
        result, _message = answer(gm, call)
        if victim is None or result == "MOVE_ERROR":
            continue
        if "KAMIKAZE" in props:
            history.attacks += 1
            history.returned.add((victim[1], victim[0]))
        elif "SWAPPING" not in props:
            history.climbs += 1
    return gm, history


def _choose(engine: Engine, rng: random.Random, legal: list[Action]) -> Action:
    """A random legal action: a quarter of the time one with a rare rule path
    (:func:`probes.interest`), a third next to a butterfly (so that games end), else moves
    and placements alike."""
    r = rng.random()
    if r < 0.25:
        scored = [(probes.interest(engine, a), a) for a in legal]
        rare = [a for score, a in scored if score >= 3] or [a for score, a in scored if score]
        if rare:
            return rng.choice(rare)
    if r < 0.6:
        around = {b + o for b in engine.bpos if b is not None for o in OFFSETS}
        near_b = [a for a in legal if a[2] in around]
        if near_b:
            return rng.choice(near_b)
    places = [a for a in legal if a[1] is None]
    moves = [a for a in legal if a[1] is not None]
    if moves and (not places or rng.random() < 0.65):
        return rng.choice(moves)
    return rng.choice(places)


def play_game(gm: GameManager, rng: random.Random, length: int, *, probing: int = 2,
              bots: list[Any] | None = None, goal: str | None = None,
              keep: int | None = None, inline_opening: bool = False) -> Game:
    """A game played on ``gm`` (as it is made), with the requests that probe the rules.

    At each colour's first two placements (the opening), if ``probing``, every rule of
    placement is probed and a course creature the variant lacks is placed, each request in
    a trajectory of its own (:attr:`Game.openings`; in the game itself with
    ``inline_opening``), so that a submission that gets one of them wrong still plays the
    game on; after the opening, before each action, up to ``probing`` requests the
    reference refuses, each for another rule (:func:`probes.refused_probes`). Then the
    action: the ``bots``' choice, the steering of ``goal`` (:data:`probes.GOALS`; ``keep``:
    the player that keeps a creature to place after the end, :func:`probes.seek`), or
    random (:func:`_choose`). Where a legal action would end the game in a way not yet seen
    in this game, a branch leaves it there: the calls so far, that action, then requests
    after the end (:func:`probes.after_end_probes`); and where one would hem in a flyer of
    the next player, or send one of its creatures back to its hand by a kamikaze attack
    (first time only), a branch plays it, then asks that flyer to fly, or has that
    creature placed again (:func:`probes.hemming`, :func:`probes.kamikaze_return`). The
    game's own end is followed by the requests after the end.
    ``length`` bounds the actions."""
    engine = gm.state.engine
    calls: list[Call] = []
    branches: list[tuple[str, list[Call]]] = []
    openings: list[tuple[str, list[Call]]] = []
    used: dict[str, int] = {}
    seen: set[str] = set()
    actions = 0
    while actions < length:
        if gm.is_over():
            calls += probes.after_end_probes(engine, rng)
            break
        p = engine.to_move
        opening = engine.actions[p] < 2 and probing > 0
        count = len(probes.PLACEMENT_RULES) if opening else probing
        found = [(rule, probes.call_of(engine, refused))
                 for rule, refused in probes.refused_probes(engine, rng, count, used)]
        if opening:
            found += [("place a creature the variant lacks", c) for c in _undefined(gm, rng)]
        if opening and not inline_opening:
            placement = ("first", "second")[engine.actions[p]]
            pending = [(f"{rule} at {PLAYERS[p]}'s {placement} placement", c)
                       for rule, c in found]
        else:
            pending = []
            for _rule, c in found:
                calls.append(c)
                answer(gm, c)
        for what, endings in probes.ending_actions(engine).items():
            if f"{what} ready" in seen:
                continue
            ending = endings[0]
            engine.apply(ending)
            try:
                # Could the player to act place a creature, were the game going on?
                ready = any(a[1] is None for a in engine.generate(engine.to_move))
                if what in seen and not ready:
                    continue
                # (choices of its own: a branch leaves the game as it would be without it)
                after = probes.after_end_probes(engine, random.Random(len(calls)))
            finally:
                engine.undo()
            seen.update([what, f"{what} ready"] if ready else [what])
            branches.append((f"{what} ready" if ready else what,
                             [*calls, probes.call_of(engine, ending), *after]))
        rare = {"hemmed": None if "hemmed" in seen else probes.hemming(
                    engine, random.Random(len(calls))),
                "returned": None if "returned" in seen else probes.kamikaze_return(engine)}
        for what, found_here in rare.items():
            if found_here is not None:
                seen.add(what)
                branches.append((what, [*calls, *(probes.call_of(engine, a)
                                                  for a in found_here)]))
        legal = engine.legal_actions()
        if not legal:
            break
        if goal is not None:
            action = probes.seek(engine, goal, rng, legal, keep)
        elif bots is not None:
            move = bots[engine.to_move].choose(gm.state)
            action = gm.state.action_of(move)
        else:
            action = _choose(engine, rng, legal)
        c = probes.call_of(engine, action)
        openings += [(what, [*calls, refused, c]) for what, refused in pending]
        calls.append(c)
        answer(gm, c)
        actions += 1
    return Game(calls, branches, openings)


def _undefined(gm: GameManager, rng: random.Random) -> list[Call]:
    """A placement of a course creature this variant does not define, on a hex where a
    creature of the variant could go (MOVE_ERROR), if the course knows such a creature."""
    engine = gm.state.engine
    missing = [n for n in COURSE_CREATURES if gm.config.creature(n) is None]
    spots = engine.placement_hexes(engine.to_move) or [0]
    if not missing:
        return []
    return [["place", rng.choice(missing), *coords_of(rng.choice(spots))]]


def play_script(gm: GameManager, rng: random.Random, length: int, probes: float = 0.35,
                bots: list[Any] | None = None, goal: str | None = None) -> list[Call]:
    """The calls of one probed game (:func:`play_game`, without its branches): about
    ``length`` calls, with ``probes`` as the share of refused requests, steered to
    ``goal`` if given."""
    actions = max(1, round(length * (1 - probes)))
    probing = max(1, round(probes / max(1e-9, 1 - probes)))
    return play_game(gm, rng, actions, probing=probing, bots=bots, goal=goal,
                     inline_opening=True).calls


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
        """Random games probed at every step (``plan.probes`` refused requests), bot games
        and games steered to each ending (:data:`probes.GOALS`) without probes (so that a
        refusal the submission gets wrong, which parts its game from the reference's at
        once, hides no bug of movement or winning), then the branches that leave any of
        them at an ending, the shortest :data:`BRANCHES` of each kind."""
        games: list[tuple[str, str, Game]] = []
        length = min(plan.length, MAX_ACTIONS)
        for i in range(plan.random):
            rng = random.Random(plan.seed * 1000 + i)
            games.append((f"random game {i + 1}", "random", play_game(
                self.reference(), rng, length, probing=plan.probes)))
        for i in range(plan.bot):
            gm = self.reference()
            seed = plan.seed * 1000 + 500 + i
            bots = [plan_bot(gm.game, plan.bot_for(JAVA_BOT), seed + s) for s in (0, 1)]
            games.append((f"bot game {i + 1}", "bot", play_game(
                gm, random.Random(seed), length, probing=0,
                bots=bots)))
        for g, goal in enumerate(probes.GOALS):
            for i in range(plan.ends):
                rng = random.Random(plan.seed * 1000 + 700 + 10 * g + i)
                games.append((f"game steered to {goal} {i + 1}", "steered", play_game(
                    self.reference(), rng, min(length, STEERED_ACTIONS),
                    probing=0, goal=goal)))
        if plan.ends and not any(what.endswith(" ready") for _name, _source, game in games
                                 for what, _calls in game.branches):
            # No ending met had a creature left to place (a variant of few creatures):
            # games steered to a surround that leaves the victim one, to act after the end.
            for goal, victim in (("surround RED", 1), ("surround BLUE", 0)):
                for attempt in range(READY_ATTEMPTS):  # the first game that gets there
                    rng = random.Random(plan.seed * 1000 + 900 + 10 * victim + attempt)
                    gm = self.reference()
                    game = play_game(gm, rng, min(length, STEERED_ACTIONS), probing=0,
                                     goal=goal, keep=victim)
                    if gm.is_over():
                        games.append((f"game steered to {goal}, {PLAYERS[victim]} keeping a "
                                      "creature to place", "steered", game))
                        break
        out = [Trajectory(name, source, {}, game.calls) for name, source, game in games]
        for name, _source, game in games[:OPENING_GAMES]:
            out += [Trajectory(f"{name}: {what}", "probe", {}, calls)
                    for what, calls in game.openings]
        # Per kind, the shortest branches, and the shortest ending after which the player
        # to act could still place a creature (a game that takes placements after its end
        # shows it there only).
        branches: dict[str, list[tuple[int, bool, str, list[Call]]]] = {}
        for name, _source, game in games:
            for what, calls in game.branches:
                kind, ready = what.removesuffix(" ready"), what.endswith(" ready")
                branches.setdefault(kind, []).append((len(calls), ready, name, calls))
        for what, found in sorted(branches.items()):
            found.sort(key=lambda f: f[0])
            kept = found[:BRANCHES]
            if not any(ready for _size, ready, _name, _calls in kept):
                kept += [f for f in found if f[1]][:1]
            for _size, _ready, name, calls in kept:
                out.append(Trajectory(f"{name}, {BRANCH_NAMES.get(what, what)}",
                                      "ending" if what in ENDINGS else "probe", {}, calls))
        return out

    def expected(self, trajectory: Trajectory, detail: bool = False) -> list[Observation]:
        gm = self.reference()
        out = []
        for call in trajectory.calls:
            result, message = answer(gm, call)
            out.append({"result": result, "_message": message})
        return out

    def actual(self, trajectory: Trajectory, detail: bool = False) -> Run:
        if self.stopped:
            return Run([], self.stopped)
        self.load()
        java = self.java
        assert java is not None
        try:
            built = java.build(self.config_file)
        except JavaProjectError as exc:  # a JVM that cannot start again
            return Run([], str(exc))
        if built[0] in LOST:
            return Run([], self._lost(built, "buildGameManager: "))
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
            if result in LOST:
                return Run(out, self._lost((result, message)))
            out.append({"result": result, "_message": message})
        return Run(out)

    def _lost(self, lost: tuple[str, str], prefix: str = "") -> str:
        """Why the JVM stopped answering; once it ran out of memory, the submission is
        played no further (each game would exhaust it again, at a JVM's start each)."""
        result, message = lost
        if result == "OUT_OF_MEMORY":
            self.stopped = (f"{message} (its heap: {JAVA_HEAP}); the submission was "
                            "played no further")
        return prefix + message

    def skippable(self, trajectory: Trajectory, index: int, expected: Observation,
                  actual: Observation) -> bool:
        """A request the reference refused (the course's calls answer nothing else, so
        nothing showed the games parted before it)."""
        return expected.get("result") == "MOVE_ERROR"

    def signature(self, trajectory: Trajectory, index: int, expected: Observation,
                  actual: Observation) -> Hashable:
        """The two results, and the rule the reference's message names (its words without
        the colours, creatures and numbers): a placement and a move refused by the same
        rule (the butterfly's deadline) are one bug, not two."""
        rule = _NAMES_AND_NUMBERS.sub("#", str(expected.get("_message") or ""))
        return (expected.get("result"), rule, actual.get("result"))

    def in_step(self, expected: Observation, actual: Observation) -> bool:
        """Both ended the game (with other results): the requests after the end are still
        compared."""
        return expected.get("result") in ENDS and actual.get("result") in ENDS

    def broke(self, actual: Observation) -> bool:
        """An exception, null or an unreadable response is no answer at all: the student's
        game is in an unknown state after it."""
        return str(actual.get("result")) in DRIVER_RESULTS

    def passive(self, trajectory: Trajectory, expected: list[Observation]) -> list[bool]:
        return [obs.get("result") == "MOVE_ERROR" for obs in expected]

    def classify(self, trajectory: Trajectory, index: int, expected: Observation | None,
                 actual: Observation | None) -> str:
        """The rule a difference touches, where a student would look for it.

        Any call once the game is over is ``winning`` (requests after the end), and so is
        an action both sides accepted but ended differently (a surround, a draw, a stuck
        player). An action one side refused is a question of its legality: ``movement``
        for a move, ``placement`` for a placement, unless it hinges on a movement rule:
        the placed creature came back to its hand by a kamikaze attack, or the reference
        reading a movement rule the other way (:meth:`_readings`: the kamikaze attacker
        surviving, a higher stack limit) answers this call as the submission did."""
        if index >= len(trajectory.calls):
            return "movement"
        calls = trajectory.calls
        gm, history = replay(self.reference(), calls[:index])
        if gm.is_over():
            return "winning"
        call = calls[index]
        want = (expected or {}).get("result")
        got = (actual or {}).get("result")
        for option, value in self._readings(history).items():
            other, _ = replay(GameManager(self.config.with_rules(**{option: value})),
                              calls[:index])
            if not other.is_over() and answer(other, call)[0] == got:
                return "movement"
        if want != "MOVE_ERROR" and got != "MOVE_ERROR" and {want, got} & set(ENDS):
            return "winning"
        if call[0] == "move":
            return "movement"
        if (gm.player_to_act, str(call[1]).upper()) in history.returned:
            return "movement"
        return "placement"

    def _readings(self, history: History) -> dict[str, Any]:
        """The other readings of the movement rules that the calls so far could show."""
        rules = self.config.rules
        out: dict[str, Any] = {}
        if history.attacks:
            out["kamikaze_survives"] = not rules.kamikaze_survives
        if history.climbs and isinstance(rules.stack_limit, int):
            out["stack_limit"] = rules.stack_limit + 1
        return out

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
