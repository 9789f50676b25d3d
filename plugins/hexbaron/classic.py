"""The classic console: the AQA skeleton program, byte for byte on standard output.

``hexkit play hexbaron --classic --seed N`` runs :func:`run_classic`. It has the skeleton's
menu, prompts, grid, messages and quirks (see ``specs/hexbaron.md`` §4-§11): exact menu
choices, commands lower-cased and split on single spaces, numbers read with Python's
``int()``, every refused or invalid command using up one of the three, ties won by Player
Two, and the skeleton's forgiving file loader. The rules themselves are hexbaron's one rules
core (:class:`hexbaron.game.HexBaronState` with the built-in catalogue and the classic tie
rule); this module only adds the skeleton's input handling and texts.

Where the skeleton crashes (end of input at a prompt, an odd grid size at the first grid
display), one line goes to standard error and the exit status is 1; standard output up to
that point is what the skeleton prints.
"""

from __future__ import annotations

import os
import random
import stat
from typing import IO

from hexbaron.catalogue import FIELD, FUEL, LUMBER, SUPPLY
from hexbaron.game import TIE_PLAYER_TWO, HexBaronGame, HexBaronState
from hexbaron.notation import Command
from hexbaron.render import classic_grid
from hexbaron.rules import builtin_catalogue
from hexbaron.setup import PlayerSetup, Setup, load_yaml_setup
from hexkit.errors import ConfigError, IllegalMoveError
from hexkit.files.configs import find_config
from hexkit.files.fileio import MAX_DATA_BYTES
from hexkit.game import Game
from hexkit.kit.pieces import Piece

MENU = "1. Default game\n2. Load game\nQ. Quit\n\nEnter your choice: "
LOAD_PROMPT = "Enter the name of the file to load: "
COMMAND_PROMPT = "Enter command: "
CONTINUE_PROMPT = "Press Enter to continue..."
#: Larger grids would take the skeleton hours to set up; hexkit stops with a message.
MAX_CLASSIC_SIZE = 400
#: Piece type names the skeleton's loader knows (anything else becomes a serf).
_LOADER_TYPES = {"Baron": "Baron", "LESS": "LESS", "PBDS": "PBDS"}
PASS = Command("pass")


class _Stop(Exception):
    """Where the skeleton would crash: the one line for standard error."""


class _NotLoaded(Exception):
    """The skeleton's loader would fail (it prints 'File not loaded')."""


def classic_command(line: str) -> Command | None:
    """The skeleton's ``CheckCommandIsValid`` on an already lower-cased line: the command,
    or None for ``Invalid command``. Numbers go through ``int()``, as in the skeleton."""
    items = line.split(" ")
    verb = items[0]
    if verb == "move" and len(items) == 3:
        start, end = _int(items[1]), _int(items[2])
        if start is not None and end is not None:
            return Command("move", (start, end))
    elif verb in ("dig", "saw", "spawn") and len(items) == 2:
        tile = _int(items[1])
        if tile is not None:
            return Command(verb, (tile,))
    elif verb == "upgrade" and len(items) == 3 and items[1].upper() in ("LESS", "PBDS"):
        tile = _int(items[2])
        if tile is not None:
            return Command("upgrade", (items[1], tile))
    return None


def _int(text: str) -> int | None:
    try:
        return int(text)
    except ValueError:
        return None


def load_classic_file(name: str) -> Setup:
    """The skeleton's ``LoadGame`` file reading (any failure raises an exception, which
    the console reports as ``File not loaded``). The set-up's ``extra["declared_size"]``
    keeps the size written in the file; an odd size builds the tiles of the size below."""
    info = os.stat(name)  # a missing file raises, which the console reports as usual
    if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_DATA_BYTES:
        # /dev/zero has no line end: readline() would fill the memory; a FIFO would block.
        raise _NotLoaded("not a regular file of reasonable size")
    with open(name) as f:  # the locale's encoding and universal newlines, as the skeleton
        players = []
        for _ in range(2):
            items = f.readline().rstrip().split(",")
            players.append(PlayerSetup(items[0], int(items[1]), {
                FUEL: int(items[2]), LUMBER: int(items[3]), SUPPLY: int(items[4])}))
        size = int(f.readline().rstrip())
        if size > MAX_CLASSIC_SIZE:
            raise _Stop(f"grid size {size} is too large for hexkit's classic console "
                        f"(at most {MAX_CLASSIC_SIZE})")
        tiles = 2 * (size // 2) ** 2 if size >= 2 else 0
        terrain = f.readline().rstrip().split(",")
        if len(terrain) > tiles:
            raise _NotLoaded("more terrain entries than tiles")
        terrain += [FIELD] * (tiles - len(terrain))
        pieces: dict[int, tuple[int, str]] = {}
        line = f.readline().rstrip()
        while line != "":
            items = line.split(",")
            seat = 0 if items[0] == "1" else 1
            kind = _LOADER_TYPES.get(items[1], "Serf")
            location = int(items[2])
            if not -tiles <= location < tiles:
                raise _NotLoaded("piece location out of range")
            pieces[location % tiles] = (seat, kind)
            line = f.readline().rstrip()
    board_size = size - size % 2
    return Setup(board_size, terrain, pieces, players, source=name,
                 extra={"declared_size": size})


class ClassicConsole:
    """One run of the skeleton program on the given streams."""

    def __init__(self, game: Game, seed: int | None, stdin: IO[str], stdout: IO[str]):
        # One generator for the whole run, as the skeleton's module-level one.
        self.rng = random.Random(seed)
        self.stdin = stdin
        self.stdout = stdout
        self.spec = game.spec
        self._game: HexBaronGame | None = None
        self._default: Setup | None = None
        self._marks: dict[Piece | None, str] = {}

    # -- input and output --------------------------------------------------------------
    def write(self, text: str) -> None:
        self.stdout.write(text)

    def ask(self, prompt: str, where: str) -> str:
        """The skeleton's ``input(prompt)``: the line without its line feed."""
        self.write(prompt)
        self.stdout.flush()
        try:
            line = self.stdin.readline()
        except UnicodeDecodeError:
            raise _Stop(f"standard input is not valid text at the {where}") from None
        if not line:
            raise _Stop(f"end of input at the {where} (the AQA program stops with EOFError "
                        "here)")
        return line[:-1] if line.endswith("\n") else line

    # -- the program -------------------------------------------------------------------
    def run(self) -> int:
        """The skeleton's ``Main``: the menu until ``Q``."""
        while True:
            choice = self.ask(MENU, "menu prompt")
            if choice == "1":
                self.play(self.default_setup())
            elif choice == "2":
                setup = self.load()
                if setup is not None:
                    self.play(setup)
            elif choice == "Q":
                return 0

    def game(self) -> HexBaronGame:
        """The classic rules: built-in pieces and commands only, ties to Player Two."""
        if self._game is None:
            options = self.spec.resolve({"tie_rule": TIE_PLAYER_TWO, "extensions": "none"})
            self._game = HexBaronGame(self.spec, options, catalogue=builtin_catalogue(),
                                      setup=self.default_setup())
            # Each piece's letter in the grid, looked up once: the grid is drawn every turn.
            self._marks = {None: " "}
            for ptype in self._game.catalogue.pieces.values():
                self._marks[Piece(0, ptype.name)] = ptype.letter
                self._marks[Piece(1, ptype.name)] = ptype.letter.lower()
        return self._game

    def default_setup(self) -> Setup:
        """The default game's set-up, read once per run (the skeleton builds it in code;
        reading and checking the YAML file for every game took most of a session's time).
        States copy what they change, so the one set-up serves every game."""
        if self._default is None:
            self._default = self._read_default_setup()
        return self._default

    def _read_default_setup(self) -> Setup:
        path = find_config("hexbaron", "default")
        if path is None:
            raise _Stop("the default game's set-up (configs/hexbaron/default.yaml) is missing")
        try:
            return load_yaml_setup(path, builtin_catalogue())
        except ConfigError as exc:
            raise _Stop(f"cannot read the default game: {exc}") from None

    def load(self) -> Setup | None:
        """The skeleton's ``LoadGame``: any problem prints ``File not loaded``."""
        name = self.ask(LOAD_PROMPT, "file name prompt")
        try:
            return load_classic_file(name)
        except (_NotLoaded, OSError, ValueError, IndexError):
            self.write("File not loaded\n")
            return None

    def state_lines(self, state: HexBaronState) -> str:
        return (f"Player One current state - {state_text(state, 0)}\n"
                f"Player Two current state - {state_text(state, 1)}\n")

    def grid(self, state: HexBaronState, declared_size: int) -> str:
        if declared_size % 2:
            raise _Stop(f"the grid size {declared_size} is odd: the AQA program crashes "
                        "drawing this grid (IndexError)")
        pos = state.pos
        marks = self._marks
        cells = [t + marks[p] for t, p in zip(pos.terrain, pos.pieces, strict=True)]
        return classic_grid(pos.size, cells)

    def play(self, setup: Setup) -> None:
        """The skeleton's ``PlayGame``."""
        declared = int(setup.extra.get("declared_size", setup.size))
        state = HexBaronState(self.game(), setup, self.rng)
        names = state.players
        self.write(self.state_lines(state))
        while not state.is_over():
            self.write(self.grid(state, declared) + "\n")
            self.write(f"{names[state.current_player]} state your three commands, pressing "
                       "enter after each one.\n")
            lines = [self.ask(COMMAND_PROMPT, "command prompt").lower() for _ in range(3)]
            for line in lines:
                self.write(self.execute(state, line) + "\n")
            self.write(self.state_lines(state))
            self.ask(CONTINUE_PROMPT, "'Press Enter to continue...' prompt")
        self.write(self.grid(state, declared) + "\n")
        outcome = state.outcome()
        assert outcome is not None
        self.write(f"\n{names[0]} final state: {state_text(state, 0)}\n"
                   f"\n{names[1]} final state: {state_text(state, 1)}\n"
                   f"\n{names[outcome.winners[0]]} is the winner!\n")

    def execute(self, state: HexBaronState, line: str) -> str:
        """One command: its message; a command that is not carried out uses up its slot."""
        command = classic_command(line)
        if command is None:
            state.push(PASS)
            return "Invalid command"
        try:
            state.push(command)
        except IllegalMoveError:  # refused and rolled back: it uses up its slot
            state.push(PASS)
            return state.catalogue.commands[command.verb].classic_failure
        return "Command executed"


def state_text(state: HexBaronState, seat: int) -> str:
    """The skeleton's ``GetStateString``."""
    pos = state.pos
    res = pos.resources[seat]
    return (f"VPs: {pos.vps[seat]}   Pieces in supply: {res[SUPPLY]}   Lumber: {res[LUMBER]}"
            f"   Fuel: {res[FUEL]}")


def run_classic(game: Game, *, seed: int | None, stdin: IO[str], stdout: IO[str],
                stderr: IO[str]) -> int:
    """Run the classic console; returns the exit status (0 after ``Q``, 1 where the
    skeleton would crash, with one line on ``stderr``)."""
    if os.linesep != "\n":
        # The skeleton's Linux behaviour on every platform: "\n" out, input lines as read.
        for stream in (stdin, stdout):
            reconfigure = getattr(stream, "reconfigure", None)
            if reconfigure is not None:
                reconfigure(newline="\n")
    console = ClassicConsole(game, seed, stdin, stdout)
    try:
        return console.run()
    except _Stop as exc:
        stdout.flush()
        print(f"hexbaron (classic): {exc}", file=stderr)
        return 1
    except UnicodeEncodeError as exc:
        stdout.flush()
        print(f"hexbaron (classic): cannot write {exc.object[exc.start:exc.end]!r} to "
              f"standard output ({exc.encoding})", file=stderr)
        return 1
