"""One game at the terminal: the read-eval-print loop of ``hexkit play``.

The session knows no game. It narrates what every move did from ``state.events()``,
teaches the game from ``game.describe()`` and ``state.move_help()``, lists moves (those
starting at a cell or a piece in hand through ``state.moves_from``), corrects mistyped
words against the words of the legal moves, shows that a bot is thinking, and keeps the
game saved (``--save FILE``, the ``save FILE`` word, or at a terminal the per-user games
folder) so that leaving it, by ``quit``, Ctrl-D or Ctrl-C, never loses it. Boards are shown
in colour through ``state.render_styled()`` when the terminal has it.
"""

from __future__ import annotations

import os
import shlex
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from hexkit.errors import HexkitError
from hexkit.files.records import GameRecord, load_record, save_record
from hexkit.game import Game, State
from hexkit.kit import events as ev
from hexkit.kit.gestures import Cell, Hand, Origin
from hexkit.kit.refusals import move_words, push_or_refusal
from hexkit.suggest import correct_line, split_words
from hexkit.terminal.console import (
    COLOUR_HINT,
    Console,
    InputDecodeError,
    Thinking,
    chunks,
    read_line,
)

#: At most this many legal moves are listed by ``moves`` (narrow the list with a cell).
LIST_LIMIT = 400

#: The session's own words: (usage, what it does). They win over a game's words of the
#: same name.
WORDS = (
    ("help", "what this game is, how to write moves, and these words"),
    ("moves [WHERE]", "the legal moves; WHERE: a cell or a piece in hand, or words of moves"),
    ("undo", "take back your last move (and the bots' replies)"),
    ("save [-f] FILE", "save the game to FILE, and keep it saved there after every move"),
    ("quit", "leave the game (Ctrl-D and Ctrl-C too); a saved game can be resumed"),
)
CORE_WORDS = ("help", "?", "moves", "undo", "save", "quit", "exit")


@dataclass
class Seat:
    """Who plays a seat: a human at the terminal (bot is None) or a bot."""

    spec: str
    bot: Any = None


@dataclass
class GameFile:
    """Where the game is saved (``path`` None: not saved), and its record.

    The record is rewritten atomically after every change. A new file is claimed with an
    exclusive create, so a file that appeared meanwhile is never replaced unasked."""

    record: GameRecord
    path: str | None = None
    #: The ``hexkit`` arguments that must come before ``play`` to find the game again
    #: (``--plugins-dir DIR``), for the resume command.
    prefix: list[str] = field(default_factory=list)
    #: A folder to keep the game in, under a new name, once a move is played and while it
    #: has no file of its own (``hexkit play`` at a terminal: the per-user games folder).
    keep_in: Path | None = None

    def write(self, state: State) -> None:
        """Save ``state`` to the file, if there is one (or keep it in :attr:`keep_in`
        once a move is played)."""
        if self.path is None and self.keep_in is not None and state.move_stack:
            folder, self.keep_in = self.keep_in, None  # one try: a failure is said once
            folder.mkdir(parents=True, exist_ok=True)
            self.start(str(self._new_name(folder, state)), state)
            return
        if self.path is not None:
            self.record.update(state)
            save_record(self.path, self.record, hold=True)  # one session per file

    def _new_name(self, folder: Path, state: State) -> Path:
        """``folder/GAME-YYYYMMDD-HHMMSS.json`` (``-2``, ``-3``... if taken)."""
        stem = f"{state.game.spec.name}-{time.strftime('%Y%m%d-%H%M%S')}"
        path, n = folder / f"{stem}.json", 1
        while os.path.lexists(path):
            n += 1
            path = folder / f"{stem}-{n}.json"
        return path

    def start(self, path: str, state: State, *, force: bool = False) -> None:
        """Save to ``path`` from now on (HexkitError if it names a file that exists, other
        than the one already in use, unless ``force``)."""
        check_save_path(path, force=force or same_file(path, self.path))
        claimed = False
        if not os.path.lexists(path):
            try:
                os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644))
                claimed = True
            except FileExistsError:
                raise HexkitError(f"{path} already exists (it appeared just now)") from None
        previous = self.path
        self.path = path
        try:
            self.write(state)
        except BaseException:
            self.path = previous
            if claimed:
                os.unlink(path)
            raise

    def resume_command(self) -> str:
        """The exact command that continues the game from the file."""
        return self.command("play", "--load")

    def command(self, *words: str) -> str:
        """``hexkit [--plugins-dir DIR] WORDS... FILE``, quoted for a shell."""
        assert self.path is not None
        return " ".join(shlex.quote(w) for w in ["hexkit", *self.prefix, *words, self.path])


def check_save_path(path: str, *, force: bool) -> None:
    """HexkitError (one line) if ``path`` cannot be a new save file: a NUL byte, a folder,
    a missing folder, or (unless ``force``) a file that exists, with what to do instead."""
    if "\0" in path:
        raise HexkitError("a file name cannot hold a NUL byte")
    if not path.strip():
        raise HexkitError("name the file to save to, e.g. save game.json")
    if os.path.isdir(path):
        raise HexkitError(f"{path} is a folder: name a file")
    folder = os.path.dirname(path) or "."
    if not os.path.isdir(folder):
        raise HexkitError(f"cannot save to {path}: there is no folder {folder}")
    if force or not os.path.lexists(path):
        return
    advice = "add --force to replace it"
    try:
        held = load_record(path)
    except (HexkitError, OSError):
        held = None
    if held is not None:
        if held.result is None:
            advice += f", or continue the game in it with: hexkit play --load {shlex.quote(path)}"
        else:
            advice += f" (it holds a finished game of {held.game or held.name})"
    raise HexkitError(f"{path} already exists: {advice}")


def same_file(a: str, b: str | None) -> bool:
    """True when the paths ``a`` and ``b`` name the same file (or would)."""
    if b is None:
        return False
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.abspath(a) == os.path.abspath(b)


class Leave(Exception):
    """The player leaves the game (``quit``, Ctrl-D, Ctrl-C)."""


class PlaySession:
    """The read-eval-print loop of one game.

    ``file`` keeps the game saved (its path may be None: not saved until ``save FILE``).
    ``loop()`` returns the exit status: 0 when the game ends or a player leaves it; 1 (130)
    when input that is not a terminal runs out (is interrupted) mid-game.
    """

    def __init__(self, game: Game, state: State, seats: list[Seat], stdin: IO[str] | None,
                 console: Console, file: GameFile, stderr: IO[str] | None = None):
        self.game = game
        self.state = state
        self.seats = seats
        self.stdin = stdin
        self.out = console
        self.file = file
        self.stderr = stderr or sys.stderr
        self.extra = {c.name.lower(): c for c in game.spec.console_commands
                      if c.name.lower() not in CORE_WORDS}
        self._hinted = False
        self._kept_note = ""

    # -- output --------------------------------------------------------------------------
    def say(self, text: str = "", role: str = "") -> None:
        self.out.say(text, role)

    def name(self, seat: int | None) -> str:
        """A player's name, coloured by seat when colour is on."""
        if seat is None or not 0 <= seat < len(self.state.players):
            return ""
        return self.out.player(seat, self.state.players[seat])

    # -- the loop ------------------------------------------------------------------------
    def loop(self) -> int:
        try:
            return self._loop()
        except (Leave, KeyboardInterrupt) as exc:
            how = "interrupt" if isinstance(exc, KeyboardInterrupt) else str(exc)
            return self.leave(how)

    def _loop(self) -> int:
        state = self.state
        show_board = True
        while True:
            if state.is_over():
                self.finish()
                return 0
            seat = state.current_player
            who = self.seats[seat] if seat < len(self.seats) else Seat("human")
            if who.bot is not None:
                self.bot_turn(seat, who)
                show_board = True
                continue
            if show_board:
                self.show_board()
                show_board = False
            if not self._hinted:
                self._hinted = True
                self.say(self.first_hint(), "hint")
            self.out.prompt(f"{self.name(seat)}> ")
            try:
                line = read_line(self.stdin) if self.stdin is not None else None
            except InputDecodeError as exc:
                self.say(str(exc), "refused")
                continue
            if line is None:
                return self.leave("eof")
            show_board = self.handle(line.strip())

    def bot_turn(self, seat: int, who: Seat) -> None:
        state = self.state
        label = f"{state.players[seat]} ({who.spec}) is thinking"
        with Thinking(self.out.stream, label) as thinking:
            reports = hasattr(who.bot, "progress")
            if reports:
                who.bot.progress = thinking.progress
            try:
                move = who.bot.choose(state)
            finally:
                if reports:
                    who.bot.progress = None
        text = str(move)
        state.push(move)
        self.autosave()
        esc = self.out.escape
        self.out.say(f"{self.name(seat)} ({esc(who.spec)}) plays {esc(text)}", marked=True)
        self.narrate()

    def autosave(self) -> None:
        """Save the game to its file, if it has one. A save that fails is said, and the game
        goes on in memory (the player can ``save`` it elsewhere). A game kept in the
        per-user folder says where, once, when its file is made."""
        file = self.file
        keeping = file.path is None and file.keep_in is not None
        where = file.path or file.keep_in
        try:
            file.write(self.state)
        except (HexkitError, OSError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
            self.say(f"could not save the game to {where}: {reason}; it goes on "
                     "(type 'save FILE' to keep it elsewhere)", "refused")
            return
        if keeping and file.path is not None:  # said after the move's narration
            self._kept_note = (f"(This game is kept in {file.path} as you play; "
                               f"{file.resume_command()} resumes it.)")

    def narrate(self) -> None:
        """What the last move did, one line per event (the end is said once, by finish).
        When a bot moves next, the board is not shown before it does: the move's note
        (:meth:`~hexkit.game.State.move_note`) comes first, so that every move's effect
        is told."""
        state = self.state
        if not state.is_over() and self._is_bot(state.current_player):
            note = state.move_note()
            if note:
                self.say(f"  {note}", "event")
        for event in state.events():
            if event.kind != ev.GAME_OVER:
                self.say(f"  {event.text}", f"event:{event.kind}")
        if self._kept_note:
            self.say(self._kept_note, "hint")
            self._kept_note = ""

    def finish(self) -> None:
        board = self.show_board()
        # The end is said once: some games' pictures already say it (Focus, HexAround).
        if not any(line.startswith("Game over") for line in board.splitlines()):
            self.say(self.result_line(), "result")
        if self.file.path is not None:
            self.say(f"The game is saved in {self.file.path} "
                     f"({self.file.command('replay')} shows it again).", "hint")

    def show_board(self, targets: Iterable[Cell] = ()) -> str:
        """Show the position (in colour when the terminal has it and the game marks its
        picture: owners, the last move, ``targets``); returns its plain text."""
        styled = self.state.render_styled(targets) if self.out.colour else None
        if styled is None:
            text = self.state.render()
            self.say(text)
            return text
        self.out.say_styled(styled, self.state.players)
        return str(styled)

    def result_line(self) -> str:
        from hexkit.game import result_text

        return result_text(self.state) or "Game over."

    # -- leaving -------------------------------------------------------------------------
    def where_saved(self) -> str:
        moves = len(self.state.move_stack)
        played = f"{moves} move{'s' if moves != 1 else ''} played"
        if self.file.path is None:
            return (f"The game was left unfinished ({played}) and is not saved\n"
                    "(type 'save FILE' before leaving to keep a game).")
        return (f"The game was left unfinished ({played}); it is saved in {self.file.path}.\n"
                f"Resume it with: {self.file.resume_command()}")

    def leave(self, how: str) -> int:
        """The game is left unfinished: ``quit``, or ``eof`` (Ctrl-D) or ``interrupt``
        (Ctrl-C). Saves it and says where it is and how to resume it.

        A player who leaves gets exit status 0. When the input is not a terminal (a script
        feeds the moves), running out of it or being interrupted abandons the game: one
        line on stderr and status 1 (end of input) or 130 (interrupted)."""
        if how != "quit":
            self.say()
        self.autosave()
        self.say(self.where_saved())
        if how == "quit" or self._at_terminal():
            return 0
        reason = "end of input" if how == "eof" else "interrupted"
        print(f"hexkit: {reason}: the game was abandoned unfinished", file=self.stderr)
        return 1 if how == "eof" else 130

    def may_leave(self) -> bool:
        """True if ``quit`` may leave now: the game is saved, nothing was played, or the
        input is a script; at a terminal, a player about to lose moves is asked first."""
        if self.file.path is not None or not self.state.move_stack or not self._at_terminal():
            return True
        self.out.prompt("This game is not saved and will be lost: leave anyway? [y/N] ")
        try:
            answer = read_line(self.stdin)
        except InputDecodeError:
            answer = ""
        if answer is None or answer.strip().lower() in ("y", "yes"):
            return True
        self.say("The game goes on ('save FILE' keeps it).", "hint")
        return False

    def _at_terminal(self) -> bool:
        from hexkit.terminal.console import is_terminal

        return self.stdin is not None and is_terminal(self.stdin)

    # -- one typed line ------------------------------------------------------------------
    def handle(self, line: str) -> bool:
        """Act on one typed line; True if the position changed (the board is shown)."""
        if "\0" in line:
            self.say("that line holds a NUL byte, which no move or word can; type it again",
                     "refused")
            return False
        word, _, rest = line.partition(" ")
        low, rest = word.lower(), rest.strip()
        if low == "":
            self.say(self.hint(), "hint")
            return False
        if low in ("help", "?"):
            self.show_help()
            return False
        if low == "moves":
            self.show_moves(rest)
            return False
        if low in ("quit", "exit"):
            if self.may_leave():
                raise Leave("quit")
            return False
        if low == "undo" and not rest:
            return self.undo()
        if low == "save":
            self.save(rest)
            return False
        if low in self.extra:
            self.run_extra(low, rest)
            return False
        return self.play(line)

    def play(self, line: str) -> bool:
        refused = push_or_refusal(
            self.state, line, extra_words=self.console_words(),
            hint=" (type 'help' to learn how, 'moves' for the legal ones)")
        if refused is not None:
            self.say(refused, "refused")
            return False
        self.autosave()
        self.narrate()
        return True

    def run_extra(self, word: str, rest: str) -> None:
        try:
            message = self.extra[word].run(self.state, rest)
        except (HexkitError, OSError) as exc:
            message = f"{word}: {exc}"
        if message:
            self.say(message)

    def undo(self) -> bool:
        """Pop back to this human's previous turn (bots' replies included)."""
        state = self.state
        if not state.move_stack:
            self.say("nothing to undo", "refused")
            return False
        taken = [str(state.pop())]
        # Keep undoing the bots' moves so that a human is to act again.
        while state.move_stack and self._is_bot(state.current_player):
            taken.append(str(state.pop()))
        self.autosave()
        self.say(f"took back: {', '.join(reversed(taken))}", "hint")
        return True

    def _is_bot(self, seat: int) -> bool:
        return seat < len(self.seats) and self.seats[seat].bot is not None

    def save(self, rest: str) -> None:
        force = False
        words = rest.split(None, 1)
        if words and words[0] in ("-f", "--force"):
            force, rest = True, words[1] if len(words) > 1 else ""
        path = rest.strip()
        if not path:
            if self.file.path is not None:
                self.say(f"the game is saved in {self.file.path} after every move")
            else:
                self.say("usage: save [-f] FILE (e.g. save game.json)", "refused")
            return
        try:
            self.file.start(path, self.state, force=force)
        except (HexkitError, OSError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
            self.say(f"not saved: {reason}", "refused")
            return
        self.say(f"saved in {path}, and kept up to date after every move; resume it later "
                 f"with: {self.file.resume_command()}")

    # -- teaching ------------------------------------------------------------------------
    def example(self) -> str:
        """A legal move of this position, as typed."""
        moves = self.state.legal_moves()
        return str(moves[0]) if moves else ""

    def first_hint(self) -> str:
        example = self.example()
        move = f"a move such as {example}" if example else "a move"
        return f"Type {move}, or: help, moves, undo, save FILE, quit."

    def hint(self) -> str:
        """Whose turn it is and the legal moves on one line (the rest: 'moves')."""
        moves = [str(m) for m in self.state.legal_moves()]
        count = f"{len(moves)} legal move{'s' if len(moves) != 1 else ''}"
        # Two lines at most: the moves that fit, then where the others are.
        room = 2 * max(40, self.out.width - 1)
        sep = ", " if any(" " in m for m in moves) else " "
        more = f" ... ('moves' lists all {len(moves)})"
        text = f"{self.state.players[self.state.current_player]} to play. {count}:"
        for i, m in enumerate(moves):
            last = i == len(moves) - 1
            if len(text) + len(sep) + len(m) + (0 if last else len(more)) > room:
                text += more
                break
            text += (" " if i == 0 else sep) + m
        import textwrap

        lines = textwrap.wrap(text, max(40, self.out.width - 1), break_on_hyphens=False)
        return "\n".join([*lines, "Type 'help' to learn the game and the words you can type."])

    def show_help(self) -> None:
        state = self.state
        self.say(str(self.game), "heading")
        rules = self.game.describe().strip() or self.game.spec.description
        self.say(rules)
        self.say()
        notation = state.move_help().strip()
        if notation and _mostly_within(notation, rules):
            self.say("How to write a move: as in the rules above.", "heading")
        else:
            self.say("How to write a move:", "heading")
            self.say(notation or "As listed by 'moves'.")
        example = self.example()
        if example:
            self.say(f"For example: {example} (legal now).")
        self.say()
        self.say("Words:", "heading")
        words = [*WORDS, *(_usage(c.name, c.help) for c in self.extra.values())]
        usage_width = max(len(u) for u, _ in words)
        for usage, what in words:
            self.say(f"  {usage:<{usage_width}}  {what}")
        shadowed = [c.name for c in self.game.spec.console_commands
                    if c.name.lower() in CORE_WORDS]
        if shadowed:
            self.say(f"  (the game's own {', '.join(shadowed)} gives way to hexkit's)", "hint")
        self.say()
        self.say(self.hint(), "hint")
        if self.out.wants_colour_hint():
            self.say(f"(For colour: {COLOUR_HINT.split(': ', 1)[1]})", "hint")

    def show_moves(self, where: str) -> None:
        state = self.state
        if where:
            origin = self.origin_named(where)
            if origin is not None:
                moves = state.moves_from(origin)
                what = f"from {where}"
            else:
                wanted = _tokens(where)
                moves = [m for m in state.legal_moves() if wanted <= _tokens(str(m))]
                what = f"with {where}"
            if not moves:
                self.say(f"no legal move {what}", "refused")
                return
        else:
            moves = list(state.legal_moves())
            what = ""
        if where and self.out.colour:  # where they go, on the board (the plain text is kept)
            gestures = (state.gesture(m) for m in moves)
            targets = {g.target for g in gestures if g is not None and g.target is not None}
            styled = state.render_styled(targets) if targets else None
            if styled is not None:
                self.out.say_styled(styled, state.players)
        texts = [str(m) for m in moves]
        count = f"{len(texts)} legal move{'s' if len(texts) != 1 else ''}"
        self.say(f"{count} {what}".rstrip() + ":")
        for line in chunks(texts[:LIST_LIMIT], max(40, self.out.width - 2)):
            self.say("  " + line)
        if len(texts) > LIST_LIMIT:
            self.say(f"  ... and {len(texts) - LIST_LIMIT} more ('moves WHERE' narrows the "
                     "list)", "hint")

    def origin_named(self, where: str) -> Origin | None:
        """The cell (by its label on the board, or its coordinates) or the piece in hand
        that ``where`` names, if any legal move's gesture starts there."""
        state = self.state
        moves = state.legal_moves()
        gestures = [state.gesture(m) for m in moves]
        origins = {g.origin for g in gestures if g is not None and g.origin is not None}
        if not origins:
            return None
        key = _cell_key(where)
        try:
            view = state.view()
        except NotImplementedError:
            view = None
        if view is not None:
            for cell in view.cells:
                if _cell_key(cell.label) == key or _cell_key(",".join(map(str, cell.at))) == key:
                    return cell.at
        seat = state.current_player
        for origin in origins:
            if isinstance(origin, Hand) and origin.seat == seat and origin.kind.lower() == \
                    where.lower():
                return origin
        if view is not None:
            for hand in view.hands:
                if hand.seat == seat and where.lower() in (hand.kind.lower(), hand.label.lower()):
                    return Hand(seat, hand.kind)
        return None

    def console_words(self) -> set[str]:
        """The words of this console beside the moves (help, undo, the game's own words)."""
        return {w for w in CORE_WORDS if w.isalpha()} | set(self.extra)

    def vocabulary(self) -> set[str]:
        """Words a player may mean: the console words and the words of the moves."""
        return move_words(self.state) | self.console_words()

    def did_you_mean(self, line: str) -> str | None:
        """The line with its mistyped words corrected, if any are."""
        return correct_line(line, self.vocabulary())


def _usage(name: str, text: str) -> tuple[str, str]:
    """A game's word as (usage, what it does): its help may start with its usage
    (``savefile [-f] FILE: save ...``), said then once."""
    usage, sep, what = text.partition(": ")
    if sep and usage.split()[:1] == [name] and what:
        return usage, what
    return name, text


def _mostly_within(text: str, whole: str) -> bool:
    """True when most lines of ``text`` are lines of ``whole`` too (a game whose rules
    already hold its notation: ``help`` then says it once)."""
    known = {line.strip() for line in whole.splitlines()}
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return sum(line in known for line in lines) * 2 >= len(lines)


def _tokens(text: str) -> set[str]:
    return {w.lower() for w in split_words(text)}


def _cell_key(text: str) -> str:
    """A cell's name for comparison: case and the separators between numbers ignored."""
    for ch in "()[]":
        text = text.replace(ch, " ")
    return ",".join(text.replace(",", " ").lower().split())
