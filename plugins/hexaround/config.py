"""HexAround configurations: creature types, each player's stock and the rule options.

A configuration comes from a YAML file (hexkit's schema) or from the course's ``.hgc``
format (:mod:`hexaround.hgc`). Both readers produce a :class:`RawConfig` that keeps the line
of every item; :func:`validate` checks it against the rules document (Table 1 and the
course's configuration maker) and reports every problem of the file at once, one line each.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from hexaround.raw import RawConfig, RawCreature, RawPlayer  # noqa: F401  (shared with hgc)
from hexkit.errors import ConfigError, ConfigErrors
from hexkit.files.fileio import read_text_bounded
from hexkit.files.yamlfile import LineDict, LineList, load_yaml
from hexkit.suggest import closest

PLAYERS: tuple[str, str] = ("BLUE", "RED")
BUTTERFLY = "BUTTERFLY"

#: The four movement categories: every creature has exactly one.
CATEGORIES: tuple[str, ...] = ("WALKING", "RUNNING", "FLYING", "JUMPING")
#: The attributes a creature may add to its category.
ATTRIBUTES: tuple[str, ...] = ("INTRUDING", "TRAPPING", "SWAPPING", "KAMIKAZE", "HATCHING")
#: Every property a configuration may name.
PROPERTIES: tuple[str, ...] = ("QUEEN", *CATEGORIES, *ATTRIBUTES)

_IDENTIFIER = re.compile(r"[A-Za-z][A-Za-z0-9_]*\Z")
_NUMBER_WORDS = {2: "two", 3: "three", 4: "four"}


@dataclass(frozen=True)
class RuleOptions:
    """Rule options; the defaults follow the rules document (spec §3.4)."""

    #: Under the butterfly obligation, True: only the butterfly placement is valid;
    #: False (the course tests' reading): moves stay allowed.
    butterfly_deadline_blocks_moves: bool = True
    #: False: a kamikaze attacker is destroyed; True (the course tests): it stays on the hex.
    kamikaze_survives: bool = False
    #: Most creatures on one hex (``"unlimited"``: no limit, as in Hive).
    stack_limit: int | str = 2
    #: True: an INTRUDING creature without TRAPPING, SWAPPING, KAMIKAZE or HATCHING traps.
    intruding_traps_by_default: bool = False
    # -- the places where a relative of HexAround (Hive) reads the rules differently; the
    # -- defaults are HexAround's reading (docs/hexaround.md, "Rule options for relatives").
    #: ``touch``: a slide into an empty hex needs the hex to touch the colony and not both
    #: gate hexes occupied; ``one_gate``: exactly one of the two gate hexes occupied (Hive).
    slide_rule: str = "touch"
    #: ``after``: the colony must be one group after the action; ``during``: also while the
    #: mover is lifted, so a creature whose removal splits the colony cannot move (Hive).
    one_colony: str = "after"
    #: True: a step is blocked when both gate stacks are higher than the source and the
    #: destination stack (Hive's step at height); False: gates are occupied or not.
    gates_count_heights: bool = False
    #: ``in_line``: JUMPING lands on any hex in line within its distance; ``over_pieces``:
    #: over at least one creature onto the first empty hex (Hive's grasshopper).
    jump_landing: str = "in_line"
    #: ``trapping``: only a TRAPPING creature pins what is below it; ``any``: every creature
    #: under another one is pinned (Hive).
    pinned_under: str = "trapping"
    #: ``lose``: a player with no action loses; ``pass``: the player passes (Hive).
    no_action: str = "lose"
    #: True: no BUTTERFLY placement on a player's first turn (Hive's tournament opening).
    butterfly_not_first: bool = False
    #: False: no creature moves (and no ability is used) before its owner's BUTTERFLY is on
    #: the board (Hive).
    moves_before_butterfly: bool = True
    #: ``off``; ``moved``: the creature moved by the last action cannot move, be moved or use
    #: an ability on the next turn; ``moved_or_placed``: the same for a placed creature.
    freeze_last_moved: str = "off"

    @classmethod
    def names(cls) -> tuple[str, ...]:
        """The option names, in declaration order."""
        return tuple(f.name for f in fields(cls))

    def to_dict(self) -> dict[str, Any]:
        """The options as a plain dict."""
        return {name: getattr(self, name) for name in self.names()}


#: The rule options whose value is one of a few words, with the allowed words.
CHOICES: dict[str, tuple[str, ...]] = {
    "slide_rule": ("touch", "one_gate"),
    "one_colony": ("after", "during"),
    "jump_landing": ("in_line", "over_pieces"),
    "pinned_under": ("trapping", "any"),
    "no_action": ("lose", "pass"),
    "freeze_last_moved": ("off", "moved", "moved_or_placed"),
}


#: Largest values a configuration may hold. Far beyond play (a game has a few dozen
#: creatures), and far below what the compiled move generator's C integers hold, so a
#: hostile file is refused at load instead of overflowing there.
MAX_STACK_LIMIT = 64
MAX_DISTANCE = 1000
MAX_STOCK = 100
MAX_CREATURE_TYPES = 64


def option_problem(name: str, value: Any) -> str | None:
    """Why ``value`` is not valid for rule option ``name`` (None if it is valid)."""
    if name == "stack_limit":
        if value == "unlimited":
            return None
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            return f"rule stack_limit must be an integer >= 1, not {_show(value)}"
        if value > MAX_STACK_LIMIT:
            return f"rule stack_limit must be at most {MAX_STACK_LIMIT}, not {_show(value)}"
        return None
    choices = CHOICES.get(name)
    if choices is not None:
        if not isinstance(value, str) or value not in choices:
            return f"rule {name} must be one of {', '.join(choices)}, not {_show(value)}"
        return None
    if not isinstance(value, bool):
        return f"rule {name} must be true or false, not {_show(value)}"
    return None


@dataclass(frozen=True)
class CreatureType:
    """A kind of creature: its name (upper case), max distance and properties."""

    name: str
    max_distance: int
    properties: frozenset[str]
    #: The movement category when it is an extension's (:mod:`hexaround.hookspecs`).
    extension_category: str = ""

    @property
    def category(self) -> str:
        """The movement category (WALKING, RUNNING, FLYING, JUMPING or an extension's)."""
        if self.extension_category:
            return self.extension_category
        return next(c for c in CATEGORIES if c in self.properties)

    def effective_properties(self, rules: RuleOptions) -> frozenset[str]:
        """Properties including the ones implied by the rules: QUEEN for the butterfly and,
        with ``intruding_traps_by_default``, TRAPPING for a bare intruder."""
        props = set(self.properties)
        if self.name == BUTTERFLY:
            props.add("QUEEN")
        if (rules.intruding_traps_by_default and "INTRUDING" in props
                and not props & {"TRAPPING", "SWAPPING", "KAMIKAZE", "HATCHING"}):
            props.add("TRAPPING")
        return frozenset(props)

    def describe(self) -> str:
        """``CRAB 3 [WALKING]`` style summary."""
        props = " ".join([p for p in PROPERTIES if p in self.properties]
                         + sorted(p for p in self.properties if p not in PROPERTIES))
        return f"{self.name} {self.max_distance} [{props}]"


@dataclass(frozen=True)
class HexAroundConfig:
    """A validated configuration: creature types (in file order), stocks and rules."""

    creatures: tuple[CreatureType, ...]
    #: ``stocks[player][creature]`` = how many that player starts with (every type listed).
    stocks: dict[str, dict[str, int]]
    rules: RuleOptions = field(default_factory=RuleOptions)
    source: str = ""

    def creature(self, name: str) -> CreatureType | None:
        """The creature type of that name (any case), or None."""
        wanted = name.upper()
        for c in self.creatures:
            if c.name == wanted:
                return c
        return None

    def with_rules(self, **overrides: Any) -> HexAroundConfig:
        """A copy whose rule options are overridden (None values are ignored)."""
        given = {k: v for k, v in overrides.items() if v is not None}
        for key, value in given.items():
            if key not in RuleOptions.names():
                raise ConfigError(f"unknown rule option {key!r}")
            problem = option_problem(key, value)
            if problem:
                raise ConfigError(problem)
        return replace(self, rules=replace(self.rules, **given))


def _show(value: Any) -> str:
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "nothing"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return str(value)


def _name(value: Any) -> str | None:
    """The upper-case identifier, or None if ``value`` is not an identifier."""
    if isinstance(value, str) and _IDENTIFIER.match(value):
        return value.upper()
    return None


def _count_word(n: int) -> str:
    return _NUMBER_WORDS.get(n, str(n))


# -- validation ------------------------------------------------------------------------

def validate(raw: RawConfig, abilities: Mapping[str, bool] | None = None) -> HexAroundConfig:
    """Check a raw configuration; raise ConfigErrors listing every problem (by line).

    ``abilities`` maps the property names that extensions add to True for a movement
    category, False for an attribute (:meth:`hexaround.extensions.Extensions.kinds`)."""
    extra = dict(abilities or {})
    errors = list(raw.errors)
    if raw.structural:
        raise ConfigErrors(errors)

    def err(line: int | None, message: str) -> None:
        errors.append(ConfigError(message, raw.path, line))

    creatures: dict[str, CreatureType] = {}
    first_line: dict[str, int] = {}
    if not raw.has_creatures:
        err(raw.creatures_line, "no creatures are defined (a 'creatures' section is required)")
    for rc in raw.creatures:
        name = _name(rc.name)
        if name is not None and name in first_line:
            err(rc.line, f"creature {name} is defined twice (first on line {first_line[name]})")
            continue
        if name is not None:
            first_line[name] = rc.line
        ctype = _check_creature(rc, err, extra)
        if ctype is not None:
            creatures[ctype.name] = ctype
    if (raw.has_creatures and not raw.creatures_reported
            and not any(_name(rc.name) == BUTTERFLY for rc in raw.creatures)):
        err(raw.creatures_line, "no BUTTERFLY is defined (every game needs the butterfly)")

    defined = {n for n in (_name(rc.name) for rc in raw.creatures) if n is not None}
    stocks: dict[str, dict[str, int]] = {}
    player_line: dict[str, int] = {}
    if not raw.players and not raw.players_reported:
        err(raw.players_line, "no player is configured (expected BLUE and/or RED)")
    for rp in raw.players:
        pname = _name(rp.name)
        if pname not in PLAYERS:
            err(rp.line, f"unknown player {_show(rp.name) if pname is None else pname} "
                         f"(expected BLUE or RED)")
            continue
        if pname in player_line:
            err(rp.line, f"player {pname} is configured twice (first on line "
                         f"{player_line[pname]})")
            continue
        player_line[pname] = rp.line
        if rp.stock is not None:
            stocks[pname] = _check_stock(pname, rp, defined, err)

    rules = _check_rules(raw.rules, err)

    if errors:
        errors.sort(key=lambda e: e.line or 0)
        raise ConfigErrors(errors)
    if len(stocks) == 1:
        (only,) = stocks.values()
        for p in PLAYERS:
            stocks.setdefault(p, dict(only))
    ordered = {p: {c: stocks[p].get(c, 0) for c in creatures} for p in PLAYERS}
    return HexAroundConfig(tuple(creatures.values()), ordered, rules, raw.path)


def _check_creature(rc: RawCreature, err: Any,
                    added: Mapping[str, bool]) -> CreatureType | None:
    """The creature type ``rc`` defines, or None after reporting every problem through
    ``err``: its name, its distance, its properties, then what its kind requires."""
    name = _name(rc.name)
    if name is None:
        err(rc.line, f"creature name {_show(rc.name)} is not a name (letters, digits and _, "
                     f"starting with a letter)")
        return None
    distance = 1 if rc.max_distance is None else rc.max_distance
    ok = _check_distance(rc, name, distance, err)
    if rc.properties is None:
        return None
    if not rc.properties:
        err(rc.line, f"creature {name} has no properties (it needs a movement category)")
        return None
    props, listed = _read_properties(name, rc.properties, err, added)
    if name == BUTTERFLY:
        return _check_butterfly(rc, props, distance, err, ok and listed)
    return _check_mover(rc, name, props, distance, err, added, ok and listed)


def _check_distance(rc: RawCreature, name: str, distance: Any, err: Any) -> bool:
    """Whether ``distance`` is a max_distance (else reported)."""
    if isinstance(distance, bool) or not isinstance(distance, int) or distance < 1:
        problem = f"max_distance must be an integer >= 1, not {_show(distance)}"
    elif distance > MAX_DISTANCE:
        problem = f"max_distance must be at most {MAX_DISTANCE}, not {_show(distance)}"
    else:
        return True
    err(rc.distance_line or rc.line, f"creature {name}: {problem}")
    return False


def _read_properties(name: str, properties: Iterable[tuple[Any, int]], err: Any,
                     added: Mapping[str, bool]) -> tuple[list[str], bool]:
    """The known properties, each once, and whether every one listed was such."""
    props: list[str] = []
    ok = True
    for prop, line in properties:
        pname = _name(prop)
        if pname is None or (pname not in PROPERTIES and pname not in added):
            shown = _show(prop) if pname is None else pname
            err(line, f"creature {name}: unknown property {shown} "
                      f"(known: {', '.join([*PROPERTIES, *sorted(added)])})")
            ok = False
        elif pname in props:
            err(line, f"creature {name}: property {pname} is listed twice")
            ok = False
        else:
            props.append(pname)
    return props, ok


def _check_butterfly(rc: RawCreature, props: list[str], distance: Any, err: Any,
                     ok: bool) -> CreatureType | None:
    """The butterfly walks one step and is the queen, and nothing else."""
    extra = [p for p in props if p not in ("WALKING", "QUEEN")]
    if extra:
        err(rc.line, f"creature BUTTERFLY may have only WALKING and QUEEN, "
                     f"not {', '.join(extra)}")
        ok = False
    if "WALKING" not in props and not extra:
        err(rc.line, "creature BUTTERFLY must have WALKING")
        ok = False
    if isinstance(distance, int) and not isinstance(distance, bool) and distance > 1:
        err(rc.distance_line or rc.line,
            f"creature BUTTERFLY must have max_distance 1, not {distance}")
        ok = False
    return CreatureType(BUTTERFLY, 1, frozenset(props) | {"QUEEN"}) if ok else None


def _check_mover(rc: RawCreature, name: str, props: list[str], distance: int, err: Any,
                 added: Mapping[str, bool], ok: bool) -> CreatureType | None:
    """Any other creature: one movement category, not both TRAPPING and SWAPPING, and not
    the QUEEN."""
    cats = sorted(p for p in props if p in CATEGORIES or added.get(p))
    if not cats:
        known = [*CATEGORIES, *sorted(k for k, v in added.items() if v)]
        err(rc.line, f"creature {name} has no movement category "
                     f"(one of {', '.join(known)})")
        ok = False
    elif len(cats) > 1:
        err(rc.line, f"creature {name} has {_count_word(len(cats))} movement categories "
                     f"({', '.join(cats)})")
        ok = False
    if "TRAPPING" in props and "SWAPPING" in props:
        err(rc.line, f"creature {name} combines TRAPPING and SWAPPING, which exclude "
                     f"each other")
        ok = False
    if "QUEEN" in props:
        err(rc.line, f"creature {name} has QUEEN, which only the BUTTERFLY may have")
        ok = False
    if not ok:
        return None
    category = cats[0] if cats[0] not in CATEGORIES else ""
    return CreatureType(name, distance, frozenset(props), category)


def _check_stock(player: str, rp: RawPlayer, defined: set[str], err: Any) -> dict[str, int]:
    stock: dict[str, int] = {}
    seen: dict[str, int] = {}
    for cname, count, line in rp.stock or ():  # the caller skips a stock it could not read
        name = _name(cname)
        if name is None:
            err(line, f"player {player}: {_show(cname)} is not a creature name")
            continue
        if name in seen:
            err(line, f"player {player} lists {name} twice (first on line {seen[name]})")
            continue
        seen[name] = line
        if name not in defined:
            err(line, f"player {player}: creature {name} is not defined")
            continue
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            err(line, f"player {player}: the count of {name} must be an integer >= 0, "
                      f"not {_show(count)}")
            continue
        if count > MAX_STOCK:
            err(line, f"player {player}: the count of {name} must be at most {MAX_STOCK}, "
                      f"not {_show(count)}")
            continue
        stock[name] = count
    if BUTTERFLY in seen:
        n = stock.get(BUTTERFLY)
        if n is not None and n != 1:
            err(seen[BUTTERFLY], f"player {player} must have exactly one BUTTERFLY, not {n}")
    elif BUTTERFLY in defined:
        err(rp.line, f"player {player} has no BUTTERFLY (each player needs exactly one)")
    return stock


#: The options of the rules document (spec §3.4); the others are for relatives of HexAround.
DOCUMENT_OPTIONS = ("butterfly_deadline_blocks_moves", "kamikaze_survives", "stack_limit",
                    "intruding_traps_by_default")


def _unknown_rule(key: Any, known: Iterable[str]) -> str:
    """``unknown rule 'x'``, with the close name if there is one, else every known name
    (the rules document's first)."""
    close = closest(str(key), known)
    if close is not None:
        return f"unknown rule {_show(key)}; did you mean {close!r}?"
    others = sorted(set(known) - set(DOCUMENT_OPTIONS))
    return (f"unknown rule {_show(key)} (known: {', '.join(DOCUMENT_OPTIONS)}; "
            f"for relatives of HexAround: {', '.join(others)})")


def _check_rules(entries: list[tuple[Any, Any, int]], err: Any) -> RuleOptions:
    values: dict[str, Any] = {}
    known = RuleOptions.names()
    for key, value, line in entries:
        if not isinstance(key, str) or key.lower() not in known:
            # The relatives' options are documented in docs/hexaround.md.
            err(line, _unknown_rule(key, known))
            continue
        problem = option_problem(key.lower(), value)
        if problem:
            err(line, problem)
            continue
        values[key.lower()] = value
    return RuleOptions(**values)


# -- the YAML reader -------------------------------------------------------------------

_TOP_KEYS = ("creatures", "players", "rules")
_CREATURE_KEYS = ("max_distance", "properties")


def read_yaml(data: Any, path: str) -> RawConfig:
    """Turn parsed YAML (from :func:`hexkit.files.yamlfile.parse_yaml`) into a RawConfig."""
    raw = RawConfig(path)
    if not isinstance(data, LineDict):
        raw.error(getattr(data, "line", 1) or 1,
                  "the file must be a mapping with 'creatures' and 'players'")
        raw.structural = True
        return raw
    seen_top: set[str] = set()
    for key in data:
        low = key.lower() if isinstance(key, str) else None
        if low not in _TOP_KEYS:
            raw.error(data.line_of(key),
                      f"unknown key {_show(key)} (expected {', '.join(_TOP_KEYS)})")
            continue
        if low in seen_top:
            raw.error(data.line_of(key), f"key {low} appears twice")
            continue
        seen_top.add(low)
        value, line = data[key], data.line_of(key)
        if low == "creatures":
            raw.creatures_line = line
            _yaml_creatures(raw, value, line)
        elif low == "players":
            raw.players_line = line
            _yaml_players(raw, value, line)
        else:
            _yaml_rules(raw, value, line)
    raw.has_creatures = "creatures" in seen_top
    return raw


def _yaml_creatures(raw: RawConfig, value: Any, line: int) -> None:
    if not isinstance(value, LineDict):
        raw.error(line, "creatures must be a mapping of creature name to definition")
        raw.creatures_reported = True
        return
    for name in value:
        cline = value.line_of(name)
        spec = value[name]
        rc = RawCreature(name, cline)
        raw.creatures.append(rc)
        shown = _name(name) or _show(name)
        if not isinstance(spec, LineDict):
            raw.error(cline, f"creature {shown}: the definition must be a mapping such as "
                             f"{{max_distance: 2, properties: [WALKING]}}")
            continue
        for key in spec:
            if key not in _CREATURE_KEYS:
                raw.error(spec.line_of(key), f"creature {shown}: unknown key {_show(key)} "
                                             f"(expected max_distance, properties)")
        if "max_distance" in spec:
            rc.max_distance = spec["max_distance"]
            rc.distance_line = spec.line_of("max_distance")
        if "properties" not in spec:
            raw.error(cline, f"creature {shown} has no properties list")
            continue
        props = spec["properties"]
        pline = spec.line_of("properties")
        if not isinstance(props, LineList):
            raw.error(pline, f"creature {shown}: properties must be a list such as [WALKING]")
            continue
        rc.properties = [(p, props.lines[i]) for i, p in enumerate(props)]


def _yaml_players(raw: RawConfig, value: Any, line: int) -> None:
    if not isinstance(value, LineDict):
        raw.error(line, "players must be a mapping such as {BLUE: {BUTTERFLY: 1}}")
        raw.players_reported = True
        return
    for name in value:
        pline = value.line_of(name)
        stock = value[name]
        rp = RawPlayer(name, pline)
        if not isinstance(stock, LineDict):
            raw.error(pline, f"player {_name(name) or _show(name)}: the stock must be a "
                             f"mapping such as {{BUTTERFLY: 1, CRAB: 2}}")
            rp.stock = None
        else:
            rp.stock = [(c, stock[c], stock.line_of(c)) for c in stock]
        raw.players.append(rp)


def _yaml_rules(raw: RawConfig, value: Any, line: int) -> None:
    if value is None:
        return
    if not isinstance(value, LineDict):
        raw.error(line, "rules must be a mapping such as {stack_limit: 2}")
        return
    raw.rules = [(k, value[k], value.line_of(k)) for k in value]


# -- loading ---------------------------------------------------------------------------

def load_config(path: str | Path, abilities: Mapping[str, bool] | None = None) -> HexAroundConfig:
    """Read and validate a configuration file (``.yaml``, ``.yml`` or the course's ``.hgc``).

    Raises :class:`hexkit.ConfigError` (or ConfigErrors, one line per problem) naming the
    file and line of every problem.
    """
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix == ".hgc":
        from hexaround.hgc import read_hgc

        return validate(read_hgc(read_text_bounded(p), str(path)), abilities)
    if suffix in (".yaml", ".yml"):
        return validate(read_yaml(load_yaml(p), str(path)), abilities)
    raise ConfigError("unknown configuration format (expected .yaml, .yml or .hgc)", path)


def parse_config_text(text: str, path: str = "<input>", fmt: str = "yaml",
                      abilities: Mapping[str, bool] | None = None) -> HexAroundConfig:
    """Validate configuration text given directly (``fmt`` is ``yaml`` or ``hgc``)."""
    if fmt == "hgc":
        from hexaround.hgc import read_hgc

        return validate(read_hgc(text, path), abilities)
    from hexkit.files.yamlfile import parse_yaml

    return validate(read_yaml(parse_yaml(text, path), path), abilities)
