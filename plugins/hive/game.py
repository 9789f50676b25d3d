"""Hive through hexkit's generic game API: the Game (game type and options), the move type
(a UHP MoveString) and the State over :class:`hive.engine.HiveEngine`."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from operator import itemgetter
from typing import Any

from hexaround.colony import connected
from hexaround.engine import EngineStatePacking
from hexaround.hexgrid import coords_of, in_range, key_of

from hexkit.errors import IllegalMoveError, MoveParseError, RecordError
from hexkit.game import Game, GameSpec, Move, Outcome, State, rng_from_json, rng_to_json
from hexkit.kit.actions import ActionSpace
from hexkit.kit.enginestate import (
    ActionMap,
    ListedMovesPickling,
    ResultNames,
    TupleMove,
    game_memo,
)
from hexkit.kit.gestures import Gesture, Hand
from hexkit.kit.rng import KitRandom
from hexkit.kit.statepickle import VALUE_BLOCKS, History, history
from hexkit.kit.view import BoardView
from hexkit.render.text import StyledText
from hive import notation
from hive.engine import BLACK_WON, DRAW, LETTERS, ONGOING, PASS, WHITE_WON, HiveEngine
from hive.rulebook import MOVE_HELP
from hive.rules import BEETLE, MOSQUITO

PLAYERS: tuple[str, str] = ("White", "Black")
#: A HiveMove's MoveString (its one value).
_TEXT = itemgetter(0)

Action = tuple[int, "int | None", int]


class HiveMove(TupleMove):
    """A move: its UHP MoveString (canonical when made by the game in a position)."""

    __slots__ = ()

    def __new__(cls, text: str) -> HiveMove:
        return tuple.__new__(cls, (text,))

    @property
    def text(self) -> str:
        """The MoveString."""
        return self[0]

    def __str__(self) -> str:
        return self[0]

    def __repr__(self) -> str:
        return f"HiveMove({self[0]!r})"


class HiveGame(Game):
    """Hive with the chosen expansions and repetition rule."""

    def __init__(self, spec: GameSpec, options: Mapping[str, Any]):
        super().__init__(spec, options)
        #: The expansion letters in play (``""`` to ``"MLP"``).
        self.expansions = notation.expansions_of(str(options.get("expansions", "MLP")))
        self.repetition_draw = bool(options.get("repetition_draw", False))

    @property
    def game_type(self) -> str:
        """The UHP GameTypeString, e.g. ``Base+MLP``."""
        return notation.game_type_string(self.expansions)

    def new_engine(self) -> HiveEngine:
        """An engine at the start of a game of this type."""
        template = self.__dict__.get("_template")
        if template is None:
            template = self._template = HiveEngine(self.expansions, self.repetition_draw)
        return template.start_copy()

    #: The adapters' bound, OpenSpiel's: a game still going is a draw there.
    max_plies = 500

    def make_action_space(self) -> ActionSpace:
        """OpenSpiel's numbers: tile, reference tile, direction (hive.actions)."""
        from hive.actions import HiveActions

        return HiveActions()

    def new_state(self, seed: int | None = None) -> HiveState:
        """The empty board, White to play."""
        return HiveState(self, self.new_engine(), KitRandom(seed), [])

    def state_from_game_string(self, text: str, seed: int | None = None) -> HiveState:
        """The position a UHP GameString (or GameTypeString) describes, its moves pushed
        (so they can be popped); its game type must be this game's. NotationError, one
        line, for a bad header, a bad move or a header that disagrees with the moves."""
        parts = notation.split_game_string(text)
        if parts.expansions != self.expansions:
            raise notation.NotationError(
                f"the game string is {notation.game_type_string(parts.expansions)} but this "
                f"game is {self.game_type}")
        state = self.new_state(seed)
        for i, move in enumerate(parts.moves, 1):
            try:
                state.push(move)
            except (MoveParseError, IllegalMoveError) as exc:
                raise notation.NotationError(f"move {i} {move[:40]!r}: {exc}") from None
        notation.check_header(state.engine, parts)
        return state

    def _state_from_dict(self, data: Mapping[str, Any]) -> HiveState:
        engine = _engine_from_dict(self, data)
        moves = data.get("moves", [])
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise RecordError("not a hive position: 'moves' must be a list of MoveStrings")
        return HiveState(self, engine, rng_from_json(data["rng"]), list(moves))

    def describe(self) -> str:
        """The rules of this game type in words (``hexkit rules hive``)."""
        from hive.rulebook import describe

        return describe(self)


#: The words of a saved position's result (UHP's GameStateString words).
RESULTS = ResultNames({ONGOING: "InProgress", WHITE_WON: "WhiteWins",
                       BLACK_WON: "BlackWins", DRAW: "Draw"})


def _engine_from_dict(game: HiveGame, data: Mapping[str, Any]) -> HiveEngine:
    """Rebuild an engine from :meth:`HiveState.to_dict` data, checking what the rules need:
    the counts, the board, then what must hold of the whole position."""
    if data.get("game_type") != game.game_type:
        raise RecordError(f"not a {game.game_type} position (game_type "
                          f"{data.get('game_type')!r})")
    engine = game.new_engine()
    actions = _read_actions(data["actions"])
    for cell in data["board"]:
        q, r, names = cell
        _read_stack(engine, game.game_type, q, r, names)
    if not connected(engine.occ):
        raise RecordError("the hive is not connected")
    _check_placed(engine, actions)
    engine.position.actions[:] = actions
    _read_last(engine, data.get("last"))
    engine.result = RESULTS.code(data.get("result", RESULTS.default))
    engine.reason = str(data.get("reason", ""))
    if engine.repetition_draw:
        _read_repetitions(engine, data.get("repetitions", []))
    return engine


def _read_actions(actions: Any) -> list[int]:
    if (not isinstance(actions, list) or len(actions) != 2
            or not all(isinstance(a, int) and not isinstance(a, bool) and a >= 0
                       for a in actions)
            or actions[1] not in (actions[0], actions[0] - 1)):
        raise RecordError("actions must be White's and Black's counts, equal or White one "
                          "ahead")
    return actions


#: The pieces that may stand on another piece.
_CLIMBERS = (BEETLE, MOSQUITO)


def _read_stack(engine: HiveEngine, game_type: str, q: Any, r: Any, names: Any) -> None:
    if not (isinstance(q, int) and isinstance(r, int) and in_range(q, r)):
        raise RecordError(f"bad hex ({q!r}, {r!r})")
    if not isinstance(names, list) or not names:
        raise RecordError(f"hex ({q}, {r}) has no pieces")
    key = key_of(q, r)
    if key in engine.stacks:
        raise RecordError(f"hex ({q}, {r}) is listed twice")
    position = engine.position
    codes = []
    for i, name in enumerate(names):
        code = engine.code_of.get(name) if isinstance(name, str) else None
        if code is None:
            raise RecordError(f"no piece {name!r} in {game_type}")
        if code in engine.where:
            raise RecordError(f"{name} is on the board twice")
        if i and engine.code_type[code] not in _CLIMBERS:
            raise RecordError(f"{name} cannot be on top of another piece at ({q}, {r})")
        codes.append(code)
        engine.where[code] = key
        position.hands[code & 1][code >> 1] = 0
        if code < 2:
            position.bpos[code] = key
    position.set_stack(key, codes)


def _check_placed(engine: HiveEngine, actions: list[int]) -> None:
    """No more pieces on the board than turns played; the Queen down by the fourth."""
    for p in (0, 1):
        placed = sum(1 for c in engine.where if c & 1 == p)
        if placed > actions[p]:
            raise RecordError(f"{PLAYERS[p]} has {placed} pieces on the board after "
                              f"{actions[p]} turns")
        if actions[p] >= 4 and engine.bpos[p] is None:
            raise RecordError(f"{PLAYERS[p]}'s Queen Bee is not on the board after "
                              f"{actions[p]} turns")


def _read_last(engine: HiveEngine, last: Any) -> None:
    if last is None:
        return
    code = engine.code_of.get(last) if isinstance(last, str) else None
    if code is None or code not in engine.where:
        raise RecordError(f"the last moved piece {last!r} is not on the board")
    engine.last = code


def _read_repetitions(engine: HiveEngine, seen: Any) -> None:
    for item in seen:
        key, count = item
        if not isinstance(key, str) or not isinstance(count, int) or count < 1:
            raise RecordError("bad repetition entry")
        engine.seen[key] = count


class HiveState(EngineStatePacking, ListedMovesPickling, State[HiveGame, HiveMove]):
    """A Hive position with its move stack."""

    _kit_packed_names = ("engine", "_made", "move_strings")
    _kit_transient = ("_listed", "_picture")  # (the picture kept until the position changes)

    def _kit_pack(self) -> tuple[Any, ...] | None:
        """The engine's pack and the moves' texts as the engine wrote them: None when they
        are the moves' own texts (as they are but for a move pushed in another spelling
        of the same MoveString), made again from the moves when unpickled."""
        packed = super()._kit_pack()
        if packed is None:
            return None
        texts = self.move_strings
        try:
            derived = texts == list(map(_TEXT, self.move_stack))
        except (TypeError, IndexError, KeyError):  # (a move of another kind on the stack)
            derived = False
        if derived:
            return packed, None
        # (Long lists of texts as a history: blocks written and read once per process.)
        return packed, history(texts) if len(texts) >= VALUE_BLOCKS else tuple(texts)

    def _kit_unpack(self, packed: tuple[Any, ...]) -> None:
        """The engine and the moves' texts (those of the moves: made once the moves are
        read, by :meth:`_kit_histories_made`)."""
        super()._kit_unpack(packed[0])
        if packed[1] is not None:
            self.move_strings = list(packed[1])

    def _kit_histories_made(self, replay: Any) -> None:
        """The engine's histories; on unpickling, the moves' texts where the pack left
        them to the moves."""
        super()._kit_histories_made(replay)
        if replay is None and "move_strings" not in self.__dict__:
            self.move_strings = list(map(_TEXT, self.move_stack))

    def _kit_canonical(self, packed: tuple[Any, ...]) -> tuple[Any, ...]:
        """The engine's canonical pack and the texts."""
        texts = packed[1]
        if texts is None:
            texts = map(_TEXT, self.move_stack)
        elif type(texts) is History:
            texts = texts.entries
        return super()._kit_canonical(packed[0]), tuple(texts)

    def _kit_records(self) -> list[Any] | None:
        """Hive's engine history: one entry per action, shared by copies."""
        return self.engine.history

    def __init__(self, game: HiveGame, engine: HiveEngine, rng: random.Random,
                 moves: list[str]):
        super().__init__(game, rng)
        self.engine = engine
        #: Every MoveString played since the start of the game (for the GameString).
        self.move_strings = moves
        #: The moves of the engine's current legal list (reused while it is).
        self._listed: ActionMap[Action, HiveMove] | None = None
        #: HiveMove per MoveString, shared by the states of this game (moves are immutable).
        self._made = game_memo(game, "moves")

    @property
    def players(self) -> tuple[str, ...]:
        """("White", "Black")."""
        return PLAYERS

    @property
    def current_player(self) -> int:
        """0 for White, 1 for Black."""
        return self.engine.to_move

    # -- moves -------------------------------------------------------------------------
    def legal_moves(self) -> ActionMap[Action, HiveMove]:
        """Every legal move as canonical MoveStrings (``pass`` alone when nothing else is
        legal; empty once the game is over). The sequence makes each Move when it is looked
        at (:class:`hexkit.kit.enginestate.ActionMap`)."""
        return self._legal_map()

    def _legal_map(self) -> ActionMap[Action, HiveMove]:
        """The engine's legal list with its MoveStrings, made once per position."""
        engine = self.engine
        actions = engine.legal_actions()
        listed = self._listed
        if listed is None or listed.actions is not actions:
            listed = self._listed = ActionMap(actions, HiveMove, self._made,
                                              engine.move_strings(actions))
        return listed

    def parse_move(self, text: str) -> HiveMove:
        """Read a MoveString; a destination that names a hex in this position is given in
        canonical form (``wA1 bQ/`` may come back as ``wA1 -bS1``)."""
        parsed = notation.parse_move_string(text)
        try:
            action = notation.resolve(self.engine, parsed)
        except IllegalMoveError:
            return HiveMove(str(parsed))
        move = HiveMove(notation.move_string(self.engine, action))
        # An illegal move keeps the player's words, so that its refusal names the hex as
        # they did (another reference to the same hex would puzzle them).
        legal = self._legal_map().action_for_key(move.text) is not None
        return move if legal else HiveMove(str(parsed))

    def action_of(self, move: Move | str) -> tuple[int, int | None, int]:
        """The engine action of a move in this position (IllegalMoveError if it names
        nothing here; legality is not checked)."""
        if isinstance(move, HiveMove):
            text = move.text
        elif isinstance(move, str):
            text = move
        else:
            raise IllegalMoveError(f"{move!r} is not a Hive move")
        try:
            return notation.resolve(self.engine, notation.parse_move_string(text))
        except MoveParseError as exc:
            raise IllegalMoveError(str(exc)) from None

    def apply(self, move: Move) -> None:
        engine = self.engine
        listed = self._legal_map()
        action = listed.action_of(move)
        if action is None and isinstance(move, HiveMove):
            action = listed.action_for_key(move.text)
        if action is not None:
            text = move.text  # type: ignore[attr-defined]
        else:
            action = self.action_of(move)
            if not engine.is_legal_fast(action):
                typed = str(move).partition(" ")[2]
                raise IllegalMoveError(notation.why_illegal(engine, action, typed))
            text = notation.move_string(engine, action)
        self._emit_events(action, text)
        engine.apply(action)
        self.move_strings.append(text)

    def undo(self, move: Move) -> None:
        self.engine.undo()
        self.move_strings.pop()

    def _emit_events(self, action: tuple[int, int | None, int], text: str) -> None:
        from hive.narration import emit_events

        emit_events(self.engine, self.emit, action, text)

    # -- the position ------------------------------------------------------------------
    def copy_data(self, twin: State) -> None:
        """The copy gets its own engine (stacks are replaced, never changed in place)."""
        assert isinstance(twin, HiveState)
        t = self.engine.clone()
        twin.engine = t
        twin._listed = None
        twin.move_strings = list(self.move_strings)

    def is_over(self) -> bool:
        """True once a Queen is surrounded (or a repetition ended the game)."""
        return self.engine.result != ONGOING

    def outcome(self) -> Outcome | None:
        """White (0) or Black (1) wins, or a draw, with the reason."""
        winners = self.engine.winners()
        return None if winners is None else Outcome(winners, self.engine.reason)

    def to_dict(self) -> dict[str, Any]:
        """The position: game type, stacks (bottom first), turn counts, the piece moved
        last, the result, the moves played (for the GameString) and the random state."""
        e = self.engine
        board = []
        for key in sorted(e.stacks, key=coords_of):
            q, r = coords_of(key)
            board.append([q, r, [e.code_name[c] for c in e.stacks[key]]])
        data: dict[str, Any] = {
            "game_type": notation.game_type_string(e),
            "board": board,
            "actions": list(e.actions),
            "last": e.code_name[e.last] if e.last >= 0 else None,
            "result": RESULTS.name(e.result),
            "reason": e.reason,
            "moves": list(self.move_strings),
            "rng": rng_to_json(self.rng),
        }
        if e.repetition_draw:
            data["repetitions"] = [[k, n] for k, n in sorted(e.seen.items())]
        return data

    def perft(self, depth: int) -> int:
        """Leaf positions of the game tree ``depth`` moves deep (bulk counting at the last
        level), on the engine (:meth:`hive.engine.HiveEngine.perft`: in C where the
        compiled generator is built): the same numbers as pushing every legal move."""
        return self.engine.perft(depth)

    def game_string(self) -> str:
        """The UHP GameString of this game: ``Base+MLP;InProgress;Black[3];wS1;...``."""
        return notation.game_string(self.engine, self.move_strings)

    # -- pictures and pointing ---------------------------------------------------------
    def render(self) -> str:
        """The hive as text (see :mod:`hive.render`); kept until the position changes."""
        from hive.render import render_text

        history = self.engine.history
        mark = (len(history), history[-1] if history else None)
        cached = self.__dict__.get("_picture")
        if cached is not None and cached[0][0] == mark[0] and cached[0][1] is mark[1]:
            return cached[1]
        text = render_text(self)
        self._picture = (mark, text)
        return text

    def render_styled(self, targets: Iterable[tuple[int, int]] = ()) -> StyledText:
        """The text picture with colours, the last action and ``targets`` marked."""
        from hive.render import render_styled

        return render_styled(self, targets)

    def view(self) -> BoardView:
        """The hive for renderers: stacks with bug names, hands, the hexes a move may
        reach."""
        from hive.render import board_view

        return board_view(self)

    def move_help(self) -> str:
        """How moves are written."""
        return MOVE_HELP

    def observation(self, seat: int | None = None) -> Any:
        """Numpy planes on a window centred on the hive (hive.observation)."""
        from hive.observation import observe

        return observe(self, self.current_player if seat is None else seat)

    def gesture(self, move: Move) -> Gesture | None:
        """Placements start in the hand (kind: the bug letter), moves and throws at the
        moved piece's hex; ``pass`` has no gesture."""
        try:
            code, src, dst = self.action_of(move)
        except IllegalMoveError:
            return None
        if code < 0:
            return None
        kind = LETTERS[self.engine.code_type[code]]
        target = coords_of(dst)
        if src is None:
            return Gesture(Hand(code & 1, kind), target, kind)
        return Gesture(coords_of(src), target, kind)

    def last_hexes(self) -> tuple[tuple[int, int], ...]:
        """Hexes the last action touched (for highlighting)."""
        history = self.engine.history
        if not history:
            return ()
        code, src, dst = history[-1][0]
        if code < 0:
            return ()
        if src is None:
            return (coords_of(dst),)
        return (coords_of(src), coords_of(dst))


__all__ = ["MOVE_HELP", "PASS", "PLAYERS", "HiveGame", "HiveMove", "HiveState"]
