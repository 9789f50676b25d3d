"""``grading.yaml``: what counts how much, what students see, how much is played.

::

    reference: focus                   # the default of --reference
    weights:                           # points per rule group (the kind's groups)
      movement: 30
      captures: 25
      reserve: 15
      winning: 30
    scenarios:                         # scenario files (beside grading.yaml) and their points
      course/focus.yaml: 10
    visibility:                        # Gradescope: visible, hidden, after_due_date,
      winning: after_due_date          #   after_published; default for the rest: visible
      default: visible
    trajectories: {random: 12, bot: 4, length: 200, seed: 0, bot_spec: "mcts:sims=12",
                   probes: 2, ends: 2}
    limits: {time: 120, call: 5, memory_mb: 1024}
    kind: {}                           # settings of the submission kind (see docs/grading.md)

Every key is optional; without the file each rule group of the kind gets its default
points, everything is visible, and 12 random and 4 bot-guided trajectories of up to 200
calls are played.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hexkit.errors import ConfigError
from hexkit.files.yamlfile import LineDict, load_yaml
from hexkit.suggest import hint

VISIBILITIES = ("visible", "hidden", "after_due_date", "after_published")
KEYS = ("reference", "weights", "scenarios", "visibility", "trajectories", "limits", "kind")
TRAJECTORY_KEYS = ("random", "bot", "length", "seed", "bot_spec", "probes", "ends")
LIMIT_KEYS = ("time", "call", "memory_mb")
#: Points of a scenario file given on the command line.
SCENARIO_POINTS = 10.0


@dataclass
class GradingConfig:
    """A parsed ``grading.yaml`` (or the defaults)."""

    reference: str | None = None
    weights: dict[str, float] | None = None
    scenarios: dict[str, tuple[Path, float]] = field(default_factory=dict)
    visibility: dict[str, str] = field(default_factory=dict)
    random: int = 12
    bot: int = 4
    length: int = 200
    seed: int = 0
    bot_spec: str | None = None  # None: the kind's (mcts:sims=12, or a cheaper one)
    probes: int = 2
    ends: int = 2
    time_limit: float | None = None
    call_limit: float | None = None
    memory_mb: int | None = None
    kind: dict[str, Any] = field(default_factory=dict)
    source: Path | None = None

    def visibility_of(self, test: str) -> str:
        """The Gradescope visibility of a test (a group name or ``scenarios: FILE``)."""
        return self.visibility.get(test, self.visibility.get("default", "visible"))

    def add_scenarios(self, path: Path, points: float = SCENARIO_POINTS) -> None:
        """A scenario file (or each file of a folder) counted as a test of its own."""
        files = sorted(p for p in path.rglob("*") if p.suffix.lower() in (".yaml", ".yml")) \
            if path.is_dir() else [path]
        if not files:
            raise ConfigError("no scenario files (.yaml) in this folder", path)
        for file in files:
            self.scenarios[file.name if file.name not in self.scenarios else str(file)] = (
                file, points)


def _check_keys(data: LineDict, allowed: tuple[str, ...], file: Path, what: str) -> None:
    for key in data:
        if key not in allowed:
            raise ConfigError(f"unknown {what} key {key!r}{hint(str(key), allowed)}", file,
                              data.line_of(key))


def _number(value: Any, file: Path, line: int, what: str, whole: bool = False,
            lowest: float = 0) -> Any:
    ok = isinstance(value, int | float) and not isinstance(value, bool)
    if whole:
        ok = ok and float(value).is_integer()
    if not ok or value < lowest:
        kind = "a whole number" if whole else "a number"
        raise ConfigError(f"{what} must be {kind} of at least {lowest:g}", file, line)
    return int(value) if whole else float(value)


def load_config(path: str | Path) -> GradingConfig:
    """Read ``grading.yaml``: ConfigError with file and line for anything wrong."""
    file = Path(path)
    data = load_yaml(file)
    config = GradingConfig(source=file)
    if data is None:
        return config
    if not isinstance(data, LineDict):
        raise ConfigError("grading.yaml must be a mapping (weights:, scenarios:, ...)", file, 1)
    _check_keys(data, KEYS, file, "grading.yaml")
    if "reference" in data:
        if not isinstance(data["reference"], str) or not data["reference"].strip():
            raise ConfigError("'reference' must be a game string", file,
                              data.line_of("reference"))
        config.reference = data["reference"].strip()
    weights = data.get("weights")
    if weights is not None:
        if not isinstance(weights, LineDict):
            raise ConfigError("'weights' maps rule groups to points", file,
                              data.line_of("weights"))
        config.weights = {str(k): _number(v, file, weights.line_of(k), f"weight of {k}")
                          for k, v in weights.items()}
    scenarios = data.get("scenarios")
    if scenarios is not None:
        if not isinstance(scenarios, LineDict):
            raise ConfigError("'scenarios' maps scenario files to points", file,
                              data.line_of("scenarios"))
        for name, points in scenarios.items():
            line = scenarios.line_of(name)
            target = (file.parent / str(name))
            if not target.exists():
                raise ConfigError(f"scenario file {name} does not exist", file, line)
            config.add_scenarios(target, _number(points, file, line, f"points of {name}"))
    visibility = data.get("visibility")
    if visibility is not None:
        if not isinstance(visibility, LineDict):
            raise ConfigError("'visibility' maps tests to visible, hidden, after_due_date "
                              "or after_published", file, data.line_of("visibility"))
        for name, value in visibility.items():
            if value not in VISIBILITIES:
                raise ConfigError(f"visibility of {name}: {value!r} is not one of "
                                  f"{', '.join(VISIBILITIES)}", file, visibility.line_of(name))
            config.visibility[str(name)] = str(value)
    plan = data.get("trajectories")
    if plan is not None:
        if not isinstance(plan, LineDict):
            raise ConfigError("'trajectories' is a mapping (random, bot, length, seed, "
                              "bot_spec, probes, ends)", file, data.line_of("trajectories"))
        _check_keys(plan, TRAJECTORY_KEYS, file, "trajectories")
        for key in ("random", "bot", "length", "seed", "probes", "ends"):
            if key in plan:
                lowest = 1 if key == "length" else 0
                setattr(config, key, _number(plan[key], file, plan.line_of(key), key,
                                             whole=True, lowest=lowest))
        if "bot_spec" in plan:
            if not isinstance(plan["bot_spec"], str):
                raise ConfigError("bot_spec must be a bot such as mcts:sims=12", file,
                                  plan.line_of("bot_spec"))
            config.bot_spec = plan["bot_spec"]
    limits = data.get("limits")
    if limits is not None:
        if not isinstance(limits, LineDict):
            raise ConfigError("'limits' is a mapping (time, call, memory_mb)", file,
                              data.line_of("limits"))
        _check_keys(limits, LIMIT_KEYS, file, "limits")
        if "time" in limits:
            config.time_limit = _number(limits["time"], file, limits.line_of("time"), "time",
                                        lowest=1)
        if "call" in limits:
            config.call_limit = _number(limits["call"], file, limits.line_of("call"), "call",
                                        lowest=0.05)
        if "memory_mb" in limits:
            config.memory_mb = _number(limits["memory_mb"], file, limits.line_of("memory_mb"),
                                       "memory_mb", whole=True, lowest=64)
    kind = data.get("kind")
    if kind is not None:
        if not isinstance(kind, LineDict):
            raise ConfigError("'kind' is a mapping of the kind's settings", file,
                              data.line_of("kind"))
        config.kind = {str(k): v for k, v in kind.items()}
    return config
