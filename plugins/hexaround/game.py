"""HexAround through hexkit's generic game API: the Game (a configuration with its rule
options) and the State over the rules engine (the move types are in
:mod:`hexaround.notation`)."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from hexaround.colony import connected
from hexaround.config import PLAYERS, HexAroundConfig, RuleOptions, load_config
from hexaround.engine import BLUE_WON, DRAW, ONGOING, RED_WON, Engine, EngineStatePacking
from hexaround.extensions import EMPTY, Extensions, installed_extensions
from hexaround.hexgrid import coords_of, in_range, key_of
from hexaround.notation import INTEGER_WORD, NAME_WORD
from hexaround.notation import MOVE_HELP as MOVE_HELP
from hexaround.notation import HexAroundMove as HexAroundMove
from hexaround.notation import MoveCreature as MoveCreature
from hexaround.notation import PassTurn as PassTurn
from hexaround.notation import PlaceCreature as PlaceCreature
from hexaround.position import PASS
from hexkit.errors import ConfigError, IllegalMoveError, MoveParseError, OptionError, RecordError
from hexkit.files.configs import find_config, variant_names
from hexkit.game import Game, GameSpec, Move, Outcome, State, rng_from_json, rng_to_json
from hexkit.kit.actions import ActionSpace
from hexkit.kit.enginestate import ActionMap, ListedMovesPickling, ResultNames, game_memo
from hexkit.kit.events import GameEvent
from hexkit.kit.gestures import Gesture, Hand
from hexkit.kit.rng import KitRandom
from hexkit.kit.view import BoardView
from hexkit.render.text import StyledText

CONFIG_SUFFIXES = (".yaml", ".yml", ".hgc")
DEFAULT_VARIANT = "level3"


def resolve_config_path(name: str) -> Path:
    """A variant name (``level3``) or a file path to the configuration file."""
    text = name.strip()
    if not text:
        raise OptionError("option config: give a variant name or a configuration file")
    path = Path(text)
    looks_like_path = path.suffix.lower() in CONFIG_SUFFIXES or "/" in text or "\\" in text
    if not looks_like_path:
        found = find_config("hexaround", text, CONFIG_SUFFIXES)
        if found is not None:
            return found
        if path.is_file():
            return path
        known = ", ".join(variant_names("hexaround", CONFIG_SUFFIXES)) or "none installed"
        raise OptionError(f"option config: unknown hexaround variant {text!r} "
                          f"(variants: {known}; or give a .yaml, .yml or .hgc file)")
    if not path.is_file():
        raise OptionError(f"option config: no such configuration file {text!r}")
    return path


#: A move of HexAround.


class HexAroundGame(Game):
    """A HexAround variant: its configuration with the rule options applied."""

    def __init__(self, spec: GameSpec, options: Mapping[str, Any]):
        super().__init__(spec, options)
        source = options.get("config") or DEFAULT_VARIANT
        #: What installed extension plugins add (abilities, placement rules), collected once.
        self.extensions: Extensions = installed_extensions(spec.plugin_manager)
        config = load_config(resolve_config_path(str(source)), self.extensions.kinds())
        overrides = {k: options.get(k) for k in RuleOptions.names()}
        try:
            self.config: HexAroundConfig = config.with_rules(**overrides)
        except ConfigError as exc:
            raise OptionError(f"option {exc.problem}") from None

    @classmethod
    def from_config(cls, config: HexAroundConfig,
                    extensions: Extensions | None = None) -> HexAroundGame:
        """A game for an already loaded configuration (used by the course facade and by
        plugins built on HexAround); ``extensions`` are the abilities its creatures use."""
        from hexaround.plugin import SPEC

        game = cls.__new__(cls)
        Game.__init__(game, SPEC, {"config": config.source or "", **config.rules.to_dict()})
        game.config = config
        game.extensions = extensions or EMPTY
        return game

    def describe(self) -> str:
        """This variant in words: the aim, placing and moving, every creature's movement and
        abilities with the stock of each player, the rule options, the board drawing."""
        from hexaround.render import LEGEND
        from hexaround.rulebook import describe

        return describe(self.config, LEGEND)

    #: The adapters' bound (OpenSpiel's for Hive): a game still going is a draw there.
    max_plies = 500

    def make_action_space(self) -> ActionSpace:
        """Numbered by creature, reference creature and direction (hexaround.actions)."""
        from hexaround.actions import HexAroundActions

        return HexAroundActions(self)

    def new_state(self, seed: int | None = None) -> HexAroundState:
        """The empty board, Blue to act."""
        return HexAroundState(self, self.new_engine(), KitRandom(seed))

    def new_engine(self) -> Engine:
        """An engine at the start of a game: a copy of this game's template engine (made
        once; a copy costs less than a new engine, and pickles as its changes)."""
        template = self.__dict__.get("_template")
        if template is None:
            template = self._template = Engine(self.config, self.extensions)
        return template.start_copy()

    def _state_from_dict(self, data: Mapping[str, Any]) -> HexAroundState:
        """Rebuild a position saved by :meth:`HexAroundState.to_dict` (the core names the
        game in every error)."""
        engine = _engine_from_dict(self.new_engine(), data)
        return HexAroundState(self, engine, rng_from_json(data["rng"]))


def _engine_from_dict(engine: Engine, data: Mapping[str, Any]) -> Engine:
    """Set ``engine`` (a new one: the game's start, copied from its template, so that the
    state pickles as its changes from it) to :meth:`HexAroundState.to_dict` data, checking
    what the rules need: the counts, the hands, the board, then what must hold of the
    whole position."""
    actions = _read_actions(data)
    _read_hands(engine, data["hands"])
    for x, y, pieces in data["board"]:
        _read_stack(engine, x, y, pieces)
    engine.position.actions[:] = actions
    _find_butterflies(engine)
    if not connected(engine.occ):
        raise RecordError("the colony is not connected")
    engine.result = RESULTS.code(data.get("result", RESULTS.default))
    engine.reason = str(data.get("reason", ""))
    _read_frozen(engine, data.get("frozen"))
    if engine.result == ONGOING and not engine.has_action(engine.to_move):
        raise RecordError(f"{PLAYERS[engine.to_move]} cannot act, so the game should "
                          f"have ended")
    return engine


def _read_actions(data: Mapping[str, Any]) -> list[int]:
    actions = [int(a) for a in data["actions"]]
    if len(actions) != 2 or min(actions) < 0:
        raise RecordError("actions must be two counts >= 0")
    return actions


def _read_hands(engine: Engine, hands: Mapping[str, Any]) -> None:
    names = engine.kind_index
    for p, player in enumerate(PLAYERS):
        row = [0] * len(names)
        for name, n in hands[player].items():
            if name not in names or not isinstance(n, int) or n < 0:
                raise RecordError(f"bad hand entry {name!r}: {n!r} for {player}")
            row[names[name]] = n
        engine.position.hands[p] = row


def _read_stack(engine: Engine, x: Any, y: Any, pieces: Any) -> None:
    if not (isinstance(x, int) and isinstance(y, int) and in_range(x, y)):
        raise RecordError(f"bad hex ({x!r}, {y!r})")
    names = engine.kind_index
    codes = []
    for name, player in pieces:
        if name not in names or player not in PLAYERS:
            raise RecordError(f"bad creature {name!r} of {player!r} at ({x}, {y})")
        codes.append(names[name] * 2 + PLAYERS.index(player))
    if not codes or len(codes) > engine.stack_limit:
        raise RecordError(f"bad stack height {len(codes)} at ({x}, {y})")
    if key_of(x, y) in engine.stacks:
        raise RecordError(f"hex ({x}, {y}) is listed twice")
    engine.position.set_stack(key_of(x, y), codes)


def _find_butterflies(engine: Engine) -> None:
    """Where each butterfly is; one each at most, on the board and in hand together."""
    for key, stack in engine.stacks.items():
        for c in stack:
            if c >> 1 == engine.butterfly:
                if engine.bpos[c & 1] is not None:
                    raise RecordError(f"{PLAYERS[c & 1]} has two butterflies on the board")
                engine.position.bpos[c & 1] = key
    for p in (0, 1):
        total = engine.hands[p][engine.butterfly] + (engine.bpos[p] is not None)
        if total > 1:
            raise RecordError(f"{PLAYERS[p]} has more than one butterfly")


def _read_frozen(engine: Engine, frozen: Any) -> None:
    if frozen is None:
        return
    if (not isinstance(frozen, list) or len(frozen) != 2
            or not all(isinstance(c, int) for c in frozen)
            or key_of(*frozen) not in engine.stacks):
        raise RecordError(f"bad frozen hex {frozen!r}")
    engine.position.frozen = key_of(*frozen)


#: The words of a saved position's result.
RESULTS = ResultNames({ONGOING: "ONGOING", BLUE_WON: "BLUE_WON", RED_WON: "RED_WON",
                       DRAW: "DRAW"})


class HexAroundState(EngineStatePacking, ListedMovesPickling,
                     State[HexAroundGame, HexAroundMove]):
    """A HexAround position with its move stack."""

    def __init__(self, game: HexAroundGame, engine: Engine, rng: random.Random):
        super().__init__(game, rng)
        self.engine = engine
        #: The legal moves of the engine's current legal list (reused while it is).
        self._listed: ActionMap[tuple[int, int | None, int], HexAroundMove] | None = None
        #: Move object per engine action, shared by the states of this game (moves are
        #: immutable and do not depend on the position; bots and repeated games meet the
        #: same actions again).
        self._made = game_memo(game, "moves")

    # -- players -----------------------------------------------------------------------
    @property
    def players(self) -> tuple[str, ...]:
        """("BLUE", "RED")."""
        return PLAYERS

    @property
    def current_player(self) -> int:
        """0 for BLUE, 1 for RED."""
        return self.engine.to_move

    # -- moves -------------------------------------------------------------------------
    def legal_moves(self) -> Sequence[HexAroundMove]:
        """Every legal move; on the empty board the first placement is offered at (0, 0)
        only (any hex is allowed; they are all alike). The sequence makes each Move when it
        is looked at (:class:`hexkit.kit.enginestate.ActionMap`)."""
        actions = self.engine.legal_actions()
        listed = self._listed
        if listed is not None and listed.actions is actions:
            return listed
        # (The maker holds the creature names, not the state: a state holding its legal
        # list that held the state would be a reference cycle, freed only by the GC.)
        listed = self._listed = ActionMap(actions, partial(_make_move, self.engine.names),
                                          self._made)
        return listed

    def parse_move(self, text: str) -> HexAroundMove:
        """Read ``place NAME X Y`` or ``move NAME FX FY TX TY`` (case-insensitive)."""
        if not isinstance(text, str):
            raise MoveParseError("a move must be text such as 'place CRAB 0 1'")
        words = text.replace(",", " ").replace("(", " ").replace(")", " ").split()
        if not words:
            raise MoveParseError("empty move; type e.g. 'place CRAB 0 1' or "
                                 "'move CRAB 0 1 1 0'")
        verb = words[0].lower()
        if verb == "pass" and len(words) == 1:
            return PassTurn()
        if verb not in ("place", "move"):
            raise MoveParseError(f"a move starts with 'place' or 'move', not {words[0]!r}")
        want = 4 if verb == "place" else 6
        usage = "place CREATURE X Y" if verb == "place" else "move CREATURE FX FY TX TY"
        if len(words) != want:
            raise MoveParseError(f"expected '{usage}'")
        name = words[1]
        if not NAME_WORD.match(name):
            raise MoveParseError(f"{name!r} is not a creature name ('{usage}')")
        name = name.upper()
        if name not in self.engine.kind_index:
            name = self._by_code().get(name, name)  # the code the board shows (DUC)
        if name not in self.engine.kind_index:
            known = ", ".join(self.engine.names)
            raise MoveParseError(f"no creature {name} in this game (creatures: {known})")
        nums = words[2:]
        for w in nums:
            if not INTEGER_WORD.match(w):
                raise MoveParseError(f"{w!r} is not a coordinate ('{usage}')")
        v = [int(w) for w in nums]
        if verb == "place":
            return PlaceCreature(name, v[0], v[1])
        return MoveCreature(name, v[0], v[1], v[2], v[3])

    def _by_code(self) -> dict[str, str]:
        """Creature names by the code the text board shows for them (``DUC``: DUCK)."""
        from hexaround.render import creature_codes

        return {code: name for name, code in creature_codes(self.engine.names).items()}

    def action_of(self, move: Move) -> tuple[int, int | None, int]:
        """The engine action for a move (IllegalMoveError if it names unknown things)."""
        engine = self.engine
        if isinstance(move, PassTurn):
            return PASS
        coords: tuple[int, ...]
        if isinstance(move, PlaceCreature):
            coords = (move.x, move.y)
        elif isinstance(move, MoveCreature):
            coords = (move.from_x, move.from_y, move.to_x, move.to_y)
        else:
            raise IllegalMoveError(f"{move!r} is not a HexAround move")
        kind = engine.kind_index.get(str(move.creature).upper())
        if kind is None:
            raise IllegalMoveError(f"no creature {move.creature} in this game")
        if not all(isinstance(c, int) and not isinstance(c, bool) for c in coords):
            raise IllegalMoveError("coordinates must be integers")
        if not all(-(2**31) < c < 2**31 for c in coords):
            raise IllegalMoveError("coordinates must be 32-bit integers (as in the course's "
                                   "API)")
        if isinstance(move, PlaceCreature):
            return kind, None, key_of(move.x, move.y)
        return kind, key_of(move.from_x, move.from_y), key_of(move.to_x, move.to_y)

    def apply(self, move: Move) -> None:
        engine = self.engine
        listed = self._listed
        if listed is not None and listed.actions is engine.cache.legal:
            handed = listed.action_of(move)
            if handed is not None:  # handed out by this position's legal list
                engine.apply(handed)
                return
        action = self.action_of(move)
        if not engine.is_legal_fast(action):
            reason = engine.check(action)
            if reason is not None:
                raise IllegalMoveError(reason)
        engine.apply(action)

    def undo(self, move: Move) -> None:
        self.engine.undo()

    def events(self, ply: int = -1) -> tuple[GameEvent, ...]:
        """What action number ``ply`` did (see :meth:`hexkit.State.events`): kamikaze
        returns, swaps, stacks and trapped creatures, crowded or surrounded butterflies, a
        player who loses (:mod:`hexaround.narration`). Made when asked for, from copies of
        the positions, so that playouts pay nothing for narration."""
        from hexaround.narration import action_events

        found = super().events(ply)
        count = len(self.move_stack)
        index = ply + count if ply < 0 else ply
        if not 0 <= index < count:
            return found
        after: State = self
        if index < count - 1:
            after = self.copy()
            while len(after.move_stack) > index + 1:
                after.pop()
        before = after.copy()
        before.pop()
        return (*action_events(before, after), *found)

    # -- state -------------------------------------------------------------------------
    def copy_data(self, twin: State) -> None:
        """The copy gets its own engine. Moves are immutable and keyed by action, so copies
        (a bot makes one per simulation) share the objects already made."""
        assert isinstance(twin, HexAroundState)
        twin.engine = _copy_engine(self.engine)

    def is_over(self) -> bool:
        """True once a butterfly is surrounded or a player could not act."""
        return self.engine.result != ONGOING

    def outcome(self) -> Outcome | None:
        """Winner (0 BLUE, 1 RED) or a draw, with the reason."""
        winners = self.engine.winners()
        return None if winners is None else Outcome(winners, self.engine.reason)

    def to_dict(self) -> dict[str, Any]:
        """The board (bottom-first stacks), hands, action counts, result and rng."""
        e = self.engine
        board = []
        for key in sorted(e.stacks):
            x, y = coords_of(key)
            board.append([x, y, [[e.names[c >> 1], PLAYERS[c & 1]] for c in e.stacks[key]]])
        return {
            "board": board,
            "hands": {PLAYERS[p]: {n: e.hands[p][i] for i, n in enumerate(e.names)}
                      for p in (0, 1)},
            "actions": list(e.actions),
            "result": RESULTS.name(e.result),
            "reason": e.reason,
            "rng": rng_to_json(self.rng),
            **({"frozen": list(coords_of(e.frozen))} if e.frozen is not None else {}),
        }

    def render(self) -> str:
        """The board as text (see :mod:`hexaround.render`)."""
        from hexaround.render import render_text

        return render_text(self)

    def render_styled(self, targets: Iterable[tuple[int, int]] = ()) -> StyledText:
        """The text picture with owners, the last move and ``targets`` marked."""
        from hexaround.render import render_styled

        return render_styled(self, targets)

    def view(self) -> BoardView:
        """A game-neutral picture for renderers."""
        from hexaround.render import board_view

        return board_view(self)

    def move_help(self) -> str:
        """The move notation."""
        return MOVE_HELP

    def observation(self, seat: int | None = None) -> Any:
        """Numpy planes on the action space's window (hexaround.observation)."""
        from hexaround.observation import observe

        return observe(self, self.current_player if seat is None else seat)

    def gesture(self, move: Move) -> Gesture | None:
        """Where a move starts and ends for click-to-move: a placement starts at the
        creature in the hand of the player to act, a move at the creature's hex."""
        if isinstance(move, PlaceCreature):
            return Gesture(Hand(self.engine.to_move, move[0]), (move[1], move[2]), move[0])
        if isinstance(move, MoveCreature):
            return move.gesture()
        return None

    # -- queries used by the facade and renderers ------------------------------------------
    def stack_at(self, x: int, y: int) -> list[tuple[str, str]]:
        """(creature, player) pairs on hex (x, y), bottom first."""
        e = self.engine
        return [(e.names[c >> 1], PLAYERS[c & 1]) for c in e.stacks.get(key_of(x, y), ())]

    def last_hexes(self) -> Sequence[tuple[int, int]]:
        """Hexes touched by the last move (for highlighting)."""
        if not self.move_stack:
            return ()
        m = self.move_stack[-1]
        if isinstance(m, PlaceCreature):
            return ((m.x, m.y),)
        if isinstance(m, MoveCreature):
            return ((m.from_x, m.from_y), (m.to_x, m.to_y))
        return ()


def _copy_engine(engine: Engine) -> Engine:
    return engine.copy()


def _make_move(names: Sequence[str], action: tuple[int, int | None, int]) -> HexAroundMove:
    """The Move object for an engine action (kept for reuse), given the creature names."""
    kind, src, dst = action
    if kind < 0:
        return PassTurn()
    name = names[kind]
    tx, ty = coords_of(dst)
    if src is None:
        return PlaceCreature(name, tx, ty)
    fx, fy = coords_of(src)
    return MoveCreature(name, fx, fy, tx, ty)
