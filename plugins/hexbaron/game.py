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
import textwrap
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pluggy

from hexbaron.catalogue import FUEL, LUMBER, SUPPLY, Catalogue
from hexbaron.commands import Command
from hexbaron.extensions import build_catalogue
from hexbaron.grid import numbered_cells, tile_number_map, wide_grid
from hexbaron.position import Position
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
from hexkit.configs import find_config, variant_names
from hexkit.errors import (
    ConfigError,
    IllegalMoveError,
    MoveParseError,
    OptionError,
    RecordError,
)
from hexkit.game import Game, GameSpec, Outcome, State, rng_from_json, rng_to_json
from hexkit.pieces import Piece
from hexkit.view import BoardView, CellView, PieceView

COMMANDS_PER_TURN = 3
#: ``tie_rule`` values: the preliminary material's (a tie is a draw) and the skeleton's.
TIE_DRAW = "draw"
TIE_PLAYER_TWO = "player_two"
STATE_FORMAT = "hexbaron/1"


class HexBaronGame(Game):
    """Hex Baron with its options fixed: the catalogue (built-ins plus extensions) and the
    set-up every new state starts from. Built once; states share it."""

    def __init__(self, spec: GameSpec, options: Mapping[str, Any],
                 pm: pluggy.PluginManager | None = None, *, catalogue: Catalogue | None = None,
                 setup: Setup | None = None):
        super().__init__(spec, options)
        if catalogue is None:
            if pm is None and self.options.get("extensions", "all") != "none":
                from hexkit.plugins import plugin_manager

                pm = plugin_manager()
            catalogue = build_catalogue(pm, str(self.options.get("extensions", "all")))
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
        return HexBaronState(self, self.setup, random.Random(seed))

    def state_from_dict(self, data: Mapping[str, Any]) -> HexBaronState:
        """Rebuild a state from :meth:`HexBaronState.to_dict` output."""
        try:
            setup, rng = self._setup_from_dict(data)
        except RecordError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise RecordError(f"not a Hex Baron position: {type(exc).__name__}: {exc}") from None
        return HexBaronState(self, setup, rng)

    def _setup_from_dict(self, data: Mapping[str, Any]) -> tuple[Setup, random.Random]:
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
        return setup, rng_from_json(data["rng"])


def find_setup(value: str, catalogue: Catalogue) -> Setup:
    """The set-up named by the ``setup`` option: a shipped variant (``configs/hexbaron``), a
    set-up registered by an extension, or a file (``.yaml``/``.yml``: a YAML set-up;
    anything else: an AQA data file)."""
    value = value.strip()
    if not value:
        raise OptionError("option setup: give a set-up name or a file")
    shipped = find_config("hexbaron", value)
    if shipped is not None:
        return load_yaml_setup(shipped, catalogue)
    registered = catalogue.setups.get(value.lower())
    if registered is not None:
        return load_yaml_setup(str(registered), catalogue)
    path = Path(value)
    if path.is_file():
        if path.suffix.lower() in (".yaml", ".yml"):
            return load_yaml_setup(path, catalogue)
        return load_data_file(path, catalogue)
    if path.exists():
        raise ConfigError("is not a file", value)
    known = sorted({*variant_names("hexbaron"), *catalogue.setups})
    looks_like_file = "." in path.name or len(path.parts) > 1
    if looks_like_file:
        raise ConfigError("no such file", value)
    raise OptionError(f"option setup: no set-up called {value!r} (known: {', '.join(known)}; "
                      "or give a file: a .yaml set-up or an AQA data file)")


class HexBaronState(State):
    """A Hex Baron position with its move stack. The rules live in the command types
    (``hexbaron.commands``) and :class:`~hexbaron.position.Position`; this class adds the
    turn structure, the end of the game and the generic API."""

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
        self._marks: list[int] = []
        #: What each pushed command did (for the status line), parallel to move_stack.
        self.notes: list[str] = []

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
        pos = self.pos
        return [
            Command(verb, args)
            for verb, ctype in self.catalogue.commands.items()
            for args in ctype.legal(pos)
        ]

    def parse_move(self, text: str) -> Command:
        """Read a command: the verb (any case) and its arguments separated by spaces, with
        tile numbers in decimal digits: ``move 0 4``, ``upgrade less 8``, ``pass``."""
        if not isinstance(text, str):
            raise MoveParseError(f"a command is text, not {type(text).__name__}")
        words = text.split()
        if not words:
            raise MoveParseError("empty command")
        verb = words[0].lower()
        ctype = self.catalogue.commands.get(verb)
        if ctype is None:
            verbs = ", ".join(self.catalogue.commands)
            shown = words[0] if len(words[0]) <= 20 else words[0][:20] + "..."
            raise MoveParseError(f"unknown command {shown!r} (commands: {verbs})")
        return Command(verb, ctype.parse(words[1:], self.catalogue))

    def check(self, move: Command) -> str | None:
        """None if ``move`` would be carried out now, else the reason it is refused."""
        if not isinstance(move, Command):
            return f"{move!r} is not a Hex Baron command"
        if self.is_over():
            return "the game is over"
        ctype = self.catalogue.commands.get(move.verb)
        if ctype is None:
            return f"unknown command {move.verb!r}"
        try:
            return ctype.check(self.pos, move.args)
        except (TypeError, ValueError, IndexError):
            return f"malformed command {move!r}"

    def apply(self, move: Command) -> None:  # type: ignore[override]
        reason = self.check(move)
        if reason is not None:
            raise IllegalMoveError(reason)
        pos = self.pos
        mark = len(pos.journal)
        mover = pos.names[pos.seat]
        try:
            note = self.catalogue.commands[move.verb].apply(pos, move.args)
            if pos.command + 1 < COMMANDS_PER_TURN:
                pos.set_turn(pos.seat, pos.command + 1, pos.turns, pos.baron_lost)
            else:
                note += "\n" + self._end_turn()
        except BaseException:
            pos.rollback(mark)
            raise
        self._marks.append(mark)
        self.notes.append(f"{mover}: {move}: {note}")

    def _end_turn(self) -> str:
        """The turn passes, crowded pieces are destroyed and score, and the game-over flag
        is set if a baron went."""
        pos = self.pos
        mover = pos.seat
        turns = list(pos.turns)
        turns[mover] += 1
        doomed, baron = pos.destroy_crowded()
        pos.set_turn(1 - mover, 0, turns, pos.baron_lost or baron)
        if not doomed:
            return f"end of {pos.names[mover]}'s turn: nothing destroyed"
        gains = [0, 0]
        shown = []
        for tile, p in doomed:
            ptype = self.catalogue.pieces[p.kind]
            gains[1 - p.owner] += ptype.vp_value
            letter = ptype.letter if p.owner == 0 else ptype.letter.lower()
            shown.append(f"{letter}{tile}")
        scores = ", ".join(f"{pos.names[s]} +{g} VPs" for s, g in enumerate(gains) if g)
        return (f"end of {pos.names[mover]}'s turn: destroyed {' '.join(shown)} "
                f"({scores})")

    def undo(self, move: Command) -> None:  # type: ignore[override]
        self.pos.rollback(self._marks.pop())
        self.notes.pop()

    # -- state -------------------------------------------------------------------------
    def copy_data(self, twin: State) -> None:
        """The copy gets its own position (journal included, so it can undo too)."""
        assert isinstance(twin, HexBaronState)
        twin.pos = self.pos.copy()
        twin.rng = twin.pos.rng
        twin._marks = list(self._marks)
        twin.notes = list(self.notes)

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
    def letters(self) -> list[str]:
        """Each tile's piece letter (upper case Player One, lower case Player Two) or ' '."""
        types = self.catalogue.pieces
        out = []
        for p in self.pos.pieces:
            if p is None:
                out.append(" ")
            else:
                letter = types[p.kind].letter
                out.append(letter if p.owner == 0 else letter.lower())
        return out

    def grid_lines(self, show_ids: bool | None = None) -> list[str]:
        """The grid drawing, with tile numbers in each hex unless ``show_ids`` is False."""
        pos = self.pos
        letters = self.letters()
        if self.game.show_ids if show_ids is None else show_ids:
            cells, width = numbered_cells(pos.terrain, letters)
        else:
            cells = [(t[:1] or " ") + letter for t, letter in zip(pos.terrain, letters,
                                                                    strict=True)]
            width = 2
        return wide_grid(pos.size, cells, width)

    def tile_map(self) -> str:
        """Only the tile numbers, laid out as on the grid."""
        return "\n".join(tile_number_map(self.pos.size, self.pos.n))

    def status_lines(self) -> list[str]:
        """One line per player: VPs and resources."""
        pos = self.pos
        extra = [r for r in self.catalogue.resources.values()
                 if r.name not in (FUEL, LUMBER, SUPPLY)]
        width = max(len(n) for n in pos.names)
        lines = []
        for s in (0, 1):
            res = pos.resources[s]
            parts = [f"VPs {pos.vps[s]}", f"fuel {res.get(FUEL, 0)}",
                     f"lumber {res.get(LUMBER, 0)}", f"pieces in supply {res.get(SUPPLY, 0)}"]
            parts += [f"{r.label.lower()} {res.get(r.name, 0)}" for r in extra]
            lines.append(f"{pos.names[s]:<{width}}  " + "   ".join(parts))
        return lines

    def turn_line(self) -> str:
        """Whose command it is, or the final VPs once the game is over."""
        pos = self.pos
        if self.is_over():
            return f"Final VPs: {pos.names[0]} {pos.vps[0]}, {pos.names[1]} {pos.vps[1]}."
        turn = pos.turns[pos.seat] + 1
        last = " (the last turn)" if pos.baron_lost else ""
        return (f"{pos.names[pos.seat]} to give command {pos.command + 1} of "
                f"{COMMANDS_PER_TURN}, turn {turn}{last}.")

    def render(self) -> str:
        """The grid (with tile numbers unless ``show_ids=false``), the players' VPs and
        resources, what the last command did, and whose command it is."""
        lines = self.grid_lines()
        lines.append("")
        lines += self.status_lines()
        if self.notes:
            lines.append("Last: " + self.notes[-1].replace("\n", "; "))
        lines.append(self.turn_line())
        return "\n".join(lines)

    def view(self) -> BoardView:
        """The grid for renderers: flat-topped hexes at axial (x, z), tile numbers as labels."""
        pos = self.pos
        terrains = self.catalogue.terrains
        letters = self.letters()
        last = set(self.move_stack[-1].tiles()) if self.move_stack else set()
        cells = []
        highlight = []
        for tile, (x, _y, z) in enumerate(pos.cubes):
            t = terrains.get(pos.terrain[tile])
            p = pos.pieces[tile]
            pieces = () if p is None else (PieceView(p.owner, letters[tile]),)
            cells.append(CellView((x, z), str(tile), t.name if t else pos.terrain[tile], pieces))
            if tile in last:
                highlight.append((x, z))
        return BoardView(
            topology="hex", cells=tuple(cells), players=self.players, orientation="flat",
            highlight=tuple(highlight),
            caption=(*self.status_lines(), self.turn_line()),
            terrain_colours=tuple((t.name, t.colour) for t in terrains.values()),
        )

    def move_help(self) -> str:
        """The commands, their costs and the piece rules (from the catalogue, so extension
        commands and pieces are included)."""
        cmds = list(self.catalogue.commands.values())
        width = max(len(c.syntax or c.verb) for c in cmds)
        out = ["Each turn you give three commands; each is carried out at once, in order.",
               "A refused command changes nothing and does not count: type another.",
               "Commands:"]
        for c in cmds:
            out += textwrap.wrap(c.help, 76, initial_indent=f"  {(c.syntax or c.verb):<{width}}  ",
                                 subsequent_indent=" " * (width + 4))
        out.append("Pieces (upper case: Player One, lower case: Player Two):")
        for p in self.catalogue.pieces.values():
            made = ""
            if p.upgrade_word:
                costs = ", ".join(f"{a} {r}" for r, a in p.upgrade_cost.items()) or "free"
                sources = " or ".join(s.lower() for s in p.upgrade_from)
                made = f"; made with 'upgrade {p.upgrade_word}' from a {sources} ({costs})"
            vps = f"{p.vp_value} VP{'s' if p.vp_value != 1 else ''}"
            text = (f"{p.name}: {p.help}; destroyed with {p.destroy_at} or more occupied "
                    f"neighbours, giving the opponent {vps}{made}")
            out += textwrap.wrap(text, 76, initial_indent=f"  {p.letter}  ",
                                 subsequent_indent="     ")
        out.append("Terrain: " + ", ".join(
            f"'{t.symbol}' {t.name}" for t in self.catalogue.terrains.values()))
        out += textwrap.wrap(
            "Pieces are destroyed at the end of every turn (anyone's pieces count as "
            "neighbours). Once a baron is destroyed the game ends when both players have had "
            "the same number of turns; the most VPs wins.", 78)
        return "\n".join(out)
