"""Hex Baron through hexkit's generic game API: :class:`HexBaronGame` and
:class:`HexBaronState`.

A turn is three commands, each one move of the API, executed as it is pushed (so later
commands see the resources and board left by earlier ones). A command that is refused raises
IllegalMoveError, changes nothing and does **not** use up one of the three; ``pass`` uses one
up doing nothing (it is always legal, so an unfinished game always has a legal move). After
the third command the turn passes and crowded pieces are destroyed.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from hexbaron import narration, rulebook, rules
from hexbaron import render as pictures
from hexbaron.catalogue import FUEL, Catalogue
from hexbaron.extensions import build_catalogue
from hexbaron.layout import grid_tables
from hexbaron.notation import Command, parse_command
from hexbaron.position import Position
from hexbaron.rules import COMMANDS_PER_TURN
from hexbaron.setup import (
    PlayerSetup,
    Setup,
    generated_setup,
    load_data_file,
    load_yaml_setup,
    name_problem,
    size_problem,
    tile_count,
)
from hexkit.errors import ConfigError, IllegalMoveError, OptionError, RecordError
from hexkit.files.configs import looks_like_path, resolve_variant
from hexkit.game import Game, GameSpec, Outcome, State, rng_from_json, rng_to_json
from hexkit.kit.actions import ActionSpace
from hexkit.kit.gestures import Gesture
from hexkit.kit.pieces import Piece
from hexkit.kit.rng import KitRandom
from hexkit.kit.statepickle import history, journal_entries
from hexkit.kit.undo import Journal
from hexkit.kit.view import BoardView
from hexkit.render.text import StyledText

#: ``tie_rule`` values: the preliminary material's (a tie is a draw) and the skeleton's.
TIE_DRAW = "draw"
TIE_PLAYER_TWO = "player_two"
STATE_FORMAT = "hexbaron/1"


class HexBaronGame(Game):
    """Hex Baron with its options fixed: the catalogue (built-ins plus extensions) and the
    set-up every new state starts from. Built once; states share it.

    Extensions come from the plugin manager of the registry that registered the spec (the
    process-wide one for a spec made by hand); ``catalogue`` and ``setup`` replace what the
    options say (the classic console's plain catalogue and its own set-up)."""

    def __init__(self, spec: GameSpec, options: Mapping[str, Any], *,
                 catalogue: Catalogue | None = None, setup: Setup | None = None):
        super().__init__(spec, options)
        if catalogue is None:
            extensions = str(self.options.get("extensions", "all"))
            pm = spec.plugin_manager
            if pm is None and extensions != "none":
                from hexkit.plugins import plugin_manager

                pm = plugin_manager()
            catalogue = build_catalogue(pm, extensions)
        self.catalogue = catalogue
        self.tie_rule: str = self.options.get("tie_rule", TIE_DRAW)
        self.max_turns: int = int(self.options.get("max_turns", 0))
        if self.max_turns < 0:
            raise OptionError("option max_turns: must be 0 (no limit) or more")
        self.show_ids: bool = bool(self.options.get("show_ids", True))
        self.setup = setup if setup is not None else self._resolve_setup()

    def _resolve_setup(self) -> Setup:
        setup = find_setup(str(self.options.get("setup", "default")), self.catalogue)
        size = int(self.options.get("size", 0))
        if size and size != setup.size:
            problem = size_problem(size)
            if problem:
                raise OptionError(f"option size: {problem}")
            setup = generated_setup(size, setup.players)
        names = (self.options.get("p1_name") or None, self.options.get("p2_name") or None)
        for seat, name in enumerate(names):
            if name is not None and name_problem(name):
                raise OptionError(f"option p{seat + 1}_name: {name_problem(name)}")
        if any(names):
            setup = setup.renamed(names)
        if setup.players[0].name == setup.players[1].name:
            raise OptionError(f"both players are called {setup.players[0].name!r}: give one "
                              "another name with -o p1_name=... or -o p2_name=...")
        return setup

    def new_state(self, seed: int | None = None) -> HexBaronState:
        """The set-up's starting position; ``seed`` seeds the dig generator."""
        return HexBaronState(self, self.setup, KitRandom(seed))

    def _state_from_dict(self, data: Mapping[str, Any]) -> HexBaronState:
        """Rebuild a state from :meth:`HexBaronState.to_dict` output."""
        if data.get("format") != STATE_FORMAT:
            raise RecordError(f"not a Hex Baron position (format {data.get('format')!r}, "
                              f"expected {STATE_FORMAT!r})")
        size = int(data["size"])
        if size_problem(size):
            raise RecordError(f"Hex Baron position: {size_problem(size)}")
        n = tile_count(size)
        terrain = [str(t) for t in data["terrain"]]
        if len(terrain) != n:
            raise RecordError(f"Hex Baron position: {len(terrain)} terrain entries for {n} tiles")
        for t in terrain:
            if t not in self.catalogue.terrains:
                raise RecordError(f"Hex Baron position: unknown terrain {t!r}")
        pieces: dict[int, tuple[int, str]] = {}
        for tile, seat, kind in data["pieces"]:
            tile, seat, kind = int(tile), int(seat), str(kind)
            if not 0 <= tile < n or seat not in (0, 1) or kind not in self.catalogue.pieces \
                    or tile in pieces:
                raise RecordError(f"Hex Baron position: bad piece {[tile, seat, kind]!r}")
            pieces[tile] = (seat, kind)
        players = []
        for p in data["players"]:
            resources = {str(k): int(v) for k, v in p["resources"].items()}
            for name in resources:
                if name not in self.catalogue.resources:
                    raise RecordError(f"Hex Baron position: unknown resource {name!r}")
            players.append(PlayerSetup(str(p["name"]), int(p["vps"]), resources))
        if len(players) != 2:
            raise RecordError("Hex Baron position: there must be two players")
        to_move, command = int(data["to_move"]), int(data["command"])
        t1, t2 = (int(t) for t in data["turns"])
        if to_move not in (0, 1) or not 0 <= command < COMMANDS_PER_TURN or t1 - t2 != to_move:
            raise RecordError("Hex Baron position: inconsistent turn (to_move, command, turns)")
        lost = data["baron_lost"]
        if not isinstance(lost, bool):
            raise RecordError("Hex Baron position: baron_lost must be true or false")
        setup = Setup(size, terrain, pieces, players, to_move, command, (t1, t2), lost)
        return HexBaronState(self, setup, rng_from_json(data["rng"]))

    @property
    def max_plies(self) -> int:  # type: ignore[override]
        """The adapters' bound: the turn limit's commands, or 200 turns each."""
        return COMMANDS_PER_TURN * 2 * (self.max_turns or 200)

    def make_action_space(self) -> ActionSpace:
        """Each command verb over the tiles of the grid (hexbaron.actions)."""
        from hexbaron.actions import HexBaronActions

        return HexBaronActions(self)

    def describe(self) -> str:
        """Every piece kind (costs, movement, what it does), every command, the terrains and
        how the grid is drawn, for this game's catalogue (extensions included)."""
        return rulebook.describe(self.catalogue, self.tie_rule == TIE_PLAYER_TWO, self.max_turns)


def find_setup(value: str, catalogue: Catalogue) -> Setup:
    """The set-up named by the ``setup`` option: a shipped variant (``configs/hexbaron``) or
    a set-up registered by an extension, by name; or a file (``.yaml``/``.yml``: a YAML
    set-up; anything else, e.g. ``game1.txt``: an AQA data file)."""
    text = value.strip()
    path = Path(text)
    if text and (looks_like_path(text) or "." in path.name):
        return _setup_file(path, catalogue)
    found = resolve_variant("hexbaron", text, option="setup", what="set-up",
                            also_known=catalogue.setups, unknown="no set-up called {name!r}")
    if found is None:
        return load_yaml_setup(str(catalogue.setups[text.lower()]), catalogue)
    return _setup_file(found, catalogue)


def _setup_file(path: Path, catalogue: Catalogue) -> Setup:
    if path.is_dir():
        raise ConfigError("is not a file", path)
    if not path.is_file():
        raise ConfigError("no such file", path)
    if path.suffix.lower() in (".yaml", ".yml"):
        return load_yaml_setup(path, catalogue, playable=True)
    return load_data_file(path, catalogue, playable=True)


#: The attributes of a :class:`Position` (a position with others pickles attribute by
#: attribute).
_POSITION_NAMES = frozenset({
    "catalogue", "types", "size", "neighbours", "cubes", "n", "terrain", "pieces", "owned",
    "names", "vps", "resources", "rng", "seat", "command", "turns", "baron_lost", "journal",
    "events"})
#: Those of an unpickled position before its journal is made (with the state's histories).
_POSITION_NAMES_LAZY = _POSITION_NAMES - {"journal"}
#: Per seat, kind -> the piece made for it by unpickling (a piece is an immutable value).
_PIECES: tuple[dict[str, Piece], dict[str, Piece]] = ({}, {})


class HexBaronState(State[HexBaronGame, Command]):
    """A Hex Baron position with its move stack. The rules live in the command types
    (``hexbaron.rules``) and :class:`~hexbaron.position.Position`, the text of a command
    in ``hexbaron.notation``, what a turn did in ``hexbaron.narration``; this class adds
    the turn structure, the end of the game, the generic API and the pictures.

    The position's journal is the state's: push and pop roll it back (the kit's undo)."""

    def __init__(self, game: HexBaronGame, setup: Setup, rng: random.Random):
        super().__init__(game, rng)
        self.catalogue = game.catalogue
        pieces: list[Piece | None] = [None] * setup.tile_count
        for tile, (seat, kind) in setup.pieces.items():
            pieces[tile] = Piece(seat, kind)
        self.pos = Position(
            game.catalogue, setup.size, list(setup.terrain), pieces,
            [p.name for p in setup.players], [p.vps for p in setup.players],
            [dict(p.resources) for p in setup.players], rng, setup.to_move, setup.command,
            setup.turns, setup.baron_lost,
        )
        self.journal = self.pos.journal
        #: What each pushed command did (for the status line), parallel to move_stack:
        #: (mover's seat, command, what happened).
        self.notes: list[tuple[int, Command, str]] = []

    # -- players -----------------------------------------------------------------------
    @property
    def players(self) -> tuple[str, ...]:
        """The players' names (Player One first)."""
        return tuple(self.pos.names)

    @property
    def current_player(self) -> int:
        """The seat giving commands: 0 for Player One, 1 for Player Two."""
        return self.pos.seat

    # -- moves -------------------------------------------------------------------------
    def legal_moves(self) -> list[Command]:
        """Every command that would be carried out now (``pass`` included) until the end."""
        if self.is_over():
            return []
        return rules.legal_commands(self.pos)

    def parse_move(self, text: str) -> Command:
        """Read a command: the verb (any case) and its arguments separated by spaces, with
        tile numbers in decimal digits: ``move 0 4``, ``upgrade less 8``, ``pass``."""
        return parse_command(text, self.catalogue)

    def check(self, move: Command) -> str | None:
        """None if ``move`` would be carried out now, else the reason it is refused."""
        if not isinstance(move, Command):
            return f"{move!r} is not a Hex Baron command"
        if self.is_over():
            return "the game is over"
        return rules.refusal(self.pos, move)

    def apply(self, move: Command) -> None:
        reason = self.check(move)
        if reason is not None:
            raise IllegalMoveError(reason)
        pos = self.pos
        found = pos.events
        found.clear()
        mover = pos.seat
        fuel = pos.resources[mover].get(FUEL, 0)
        note = self.catalogue.commands[move.verb].apply(pos, move.args)
        narration.fuel_ran_out(pos, mover, fuel)
        if pos.command + 1 < COMMANDS_PER_TURN:
            pos.journal.set("command", pos.command + 1)
        else:
            note += "\n" + self._end_turn()
        if found:
            for event in found:
                self.emit(event.kind, event.text, event.seat, event.cells, **event.data)
            found.clear()
        self.notes.append((mover, move, note))

    def _end_turn(self) -> str:
        """The turn passes (hexbaron.rules) and what it destroyed is told (its events and
        note, hexbaron.narration)."""
        mover = self.pos.seat
        doomed, first_baron = rules.end_turn(self.pos)
        return narration.turn_ended(self.pos, mover, doomed, first_baron)

    def undo(self, move: Command) -> None:
        self.notes.pop()

    def move_note(self, ply: int = -1) -> str:
        """What command number ``ply`` did, as the grid's ``Last:`` line says it (its cost,
        and at the end of a turn what was destroyed)."""
        self.need_history()
        notes = self.notes
        index = ply + len(notes) if ply < 0 else ply
        if len(notes) != len(self.move_stack) or not 0 <= index < len(notes):
            return ""
        return notes[index][2].replace("\n", "; ")

    # -- gestures ----------------------------------------------------------------------
    def gesture(self, move: Command) -> Gesture | None:
        """Where a command starts and ends, in the view's cells (axial ``(x, z)`` of the
        tiles): the acting piece's tile to the target tile (``move 0 4``; ``dig 5`` and
        ``upgrade less 8`` start and end on their tile, so the two upgrades of a serf share
        one click pair and a user interface offers a choice), a new serf from the supply
        (``Hand(seat, "Serf")``) to its tile for ``spawn``, none for ``pass``."""
        ctype = self.catalogue.commands.get(move.verb) if isinstance(move, Command) else None
        if ctype is None:
            return None
        return ctype.gesture(self.pos, move.args)

    # -- state -------------------------------------------------------------------------
    def copy_data(self, twin: State) -> None:
        """The copy gets its own position (journal included, so it can undo too)."""
        assert isinstance(twin, HexBaronState)
        twin.pos = self.pos.copy(twin.rng)
        twin.journal = twin.pos.journal
        twin.notes = list(self.notes)

    # -- the compact pickle (hexkit.kit.statepickle: the position flat, the commands as
    # action numbers, the journal and notes made again by replaying them when needed) --
    _kit_histories = ("notes",)
    _kit_last_kept = ("notes",)
    _kit_packed_names = ("catalogue", "pos")

    def _kit_pack(self) -> tuple[Any, ...] | None:
        """The position as tuples of small values: the tiles holding pieces (each seat's,
        in the order of its set) with their kinds, terrain, players and turn (None for a
        position of another shape: an extension's attributes, events not handed on)."""
        pos = self.pos
        data = pos.__dict__
        keys = data.keys()
        if ((keys != _POSITION_NAMES and keys != _POSITION_NAMES_LAZY) or pos.events
                or pos.rng is not self.rng or self.catalogue is not self.game.catalogue
                or pos.catalogue is not self.catalogue):
            return None
        pieces = pos.pieces
        mine, theirs = tuple(pos.owned[0]), tuple(pos.owned[1])
        return (pos.size, tuple(pos.terrain), mine, theirs,
                tuple([pieces[t].kind for t in mine]),  # type: ignore[union-attr]
                tuple([pieces[t].kind for t in theirs]),  # type: ignore[union-attr]
                tuple(pos.names), tuple(pos.vps), tuple(pos.resources), pos.seat,
                pos.command, tuple(pos.turns), pos.baron_lost, pieces.count(None))

    def _kit_unpack(self, packed: tuple[Any, ...]) -> None:
        """The position :meth:`_kit_pack` gave, on a state made without ``__init__`` (its
        ``rng`` set; the journal comes with the histories)."""
        (size, terrain, mine, theirs, my_kinds, their_kinds, names, vps, resources, seat,
         command, turns, baron_lost, _empty) = packed
        catalogue = self.game.catalogue
        pos = Position.__new__(Position)
        data = pos.__dict__
        data["catalogue"] = catalogue
        data["types"] = catalogue.pieces
        data["size"] = size
        data["neighbours"], data["cubes"] = grid_tables(size)
        data["n"] = n = len(data["neighbours"])
        data["terrain"] = list(terrain)
        pieces: list[Piece | None] = [None] * n
        for owner, tiles, kinds in ((0, mine, my_kinds), (1, theirs, their_kinds)):
            made = _PIECES[owner]
            for tile, kind in zip(tiles, kinds, strict=True):
                piece = made.get(kind)
                if piece is None:
                    piece = made[kind] = Piece(owner, kind)
                pieces[tile] = piece
        data["pieces"] = pieces
        data["owned"] = (set(mine), set(theirs))
        data["names"] = list(names)
        data["vps"] = list(vps)
        data["resources"] = list(resources)
        data["rng"] = self.rng
        data["seat"] = seat
        data["command"] = command
        data["turns"] = list(turns)
        data["baron_lost"] = baron_lost
        data["events"] = []
        self.__dict__["catalogue"] = catalogue
        self.__dict__["pos"] = pos

    def _kit_canonical(self, packed: tuple[Any, ...]) -> tuple[Any, ...]:
        """A packed position with each seat's pieces in tile order (a set's order follows
        its history, which a replay does not repeat)."""
        mine = sorted(zip(packed[2], packed[4], strict=True))
        theirs = sorted(zip(packed[3], packed[5], strict=True))
        return (*packed[:2], mine, theirs, *packed[6:])

    def _kit_histories_made(self, replay: State | None) -> None:
        """The journal is the position's."""
        journal = self.journal
        journal.owner = self.pos
        self.pos.journal = journal

    #: Position attributes a pickle leaves out: the game's catalogue and the grid's tables
    #: (made again from the game and the board size), the state's generator and journal.
    _NOT_PICKLED = ("catalogue", "types", "neighbours", "cubes", "rng", "journal")

    def __getstate__(self) -> dict[str, Any]:
        """The kit's data, the position without what the game gives again, its journal
        and the notes as histories (hexkit.kit.statepickle.History)."""
        data = super().__getstate__()
        data["pos"] = {k: v for k, v in vars(self.pos).items() if k not in self._NOT_PICKLED}
        data["journal"] = journal_entries(self.pos.journal)
        data["notes"] = history(self.notes)
        return data

    def __setstate__(self, data: Mapping[str, Any]) -> None:
        values = dict(data)
        fields, entries = values.pop("pos"), values.pop("journal")
        super().__setstate__(values)
        pos = Position.__new__(Position)
        pos.__dict__.update(fields)
        pos.catalogue = self.game.catalogue
        pos.types = pos.catalogue.pieces
        pos.neighbours, pos.cubes = grid_tables(pos.size)
        pos.rng = self.rng
        pos.journal = self.journal = Journal(pos, entries)
        self.pos = pos

    def is_over(self) -> bool:
        """True after Player Two's turn once a baron has been destroyed (so both players
        have had as many turns), or when the turn limit is reached."""
        pos = self.pos
        if pos.seat != 0 or pos.command != 0:
            return False
        if pos.baron_lost:
            return True
        limit = self.game.max_turns
        return bool(limit) and pos.turns[1] >= limit

    def outcome(self) -> Outcome | None:
        """Most VPs wins; a tie is a draw (or Player Two's win with ``tie_rule=player_two``)."""
        if not self.is_over():
            return None
        v1, v2 = self.pos.vps
        why = "a baron was destroyed" if self.pos.baron_lost else \
            f"the turn limit ({self.game.max_turns}) was reached"
        score = f"{v1} VPs to {v2}"
        if v1 > v2:
            return Outcome((0,), f"{why}; {score}")
        if v2 > v1:
            return Outcome((1,), f"{why}; {score}")
        if self.game.tie_rule == TIE_PLAYER_TWO:
            return Outcome((1,), f"{why}; {score}: a tie, won by Player Two (classic rule)")
        return Outcome((), f"{why}; {score}")

    def to_dict(self) -> dict[str, Any]:
        """The position as JSON-safe data (dig generator included)."""
        pos = self.pos
        return {
            "format": STATE_FORMAT,
            "size": pos.size,
            "terrain": list(pos.terrain),
            "pieces": [[t, p.owner, p.kind] for t, p in enumerate(pos.pieces) if p is not None],
            "players": [
                {"name": pos.names[s], "vps": pos.vps[s], "resources": dict(pos.resources[s])}
                for s in (0, 1)
            ],
            "to_move": pos.seat,
            "command": pos.command,
            "turns": list(pos.turns),
            "baron_lost": pos.baron_lost,
            "rng": rng_to_json(pos.rng),
        }

    def to_setup(self) -> Setup:
        """The position as a set-up (what ``save`` writes; the dig generator is not part
        of it)."""
        pos = self.pos
        players = [PlayerSetup(pos.names[s], pos.vps[s], dict(pos.resources[s])) for s in (0, 1)]
        pieces = {t: (p.owner, p.kind) for t, p in enumerate(pos.pieces) if p is not None}
        return Setup(pos.size, list(pos.terrain), pieces, players, pos.seat, pos.command,
                     (pos.turns[0], pos.turns[1]), pos.baron_lost)

    # -- pictures ----------------------------------------------------------------------
    def grid_lines(self, show_ids: bool | None = None) -> list[str]:
        """The grid drawing, with tile numbers in each hex unless ``show_ids`` is False
        (default: the game's ``show_ids`` option)."""
        return pictures.grid_lines(self, self.game.show_ids if show_ids is None else show_ids)

    def render(self) -> str:
        """The grid (with tile numbers unless ``show_ids=false``), the players' VPs and
        resources, what the last command did, and whose command it is."""
        return pictures.render_text(self)

    def render_styled(self, targets: Iterable[tuple[int, int]] = ()) -> StyledText:
        """The text picture with owners, the last command and ``targets`` marked."""
        return pictures.render_styled(self, targets)

    def view(self) -> BoardView:
        """The grid for renderers: flat-topped hexes at axial (x, z), tile numbers as
        labels, the serfs in supply as each player's hand."""
        return pictures.board_view(self)

    def observation(self, seat: int | None = None) -> Any:
        """Numpy planes of pieces, terrain and resources (hexbaron.observation)."""
        from hexbaron.observation import observe

        return observe(self, self.current_player if seat is None else seat)

    def move_help(self) -> str:
        """The commands, their costs and the piece rules (from the catalogue, so extension
        commands and pieces are included)."""
        return rulebook.move_help(self.catalogue)
