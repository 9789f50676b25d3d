"""Reader for the course's ``.hgc`` configuration format (hand-written, with line numbers).

Grammar (the course's ANTLR grammar, read case-insensitively)::

    file      := 'CREATURES' ':' creature* 'PLAYERS' ':' player*
    creature  := NAME INT? '[' NAME+ ']'
    player    := NAME entry (',' entry)*
    entry     := NAME INT

Block comments ``/* ... */`` nest; whitespace is ignored. After a syntax error the reader
skips to the next line and goes on, so one run reports every problem of the file.
"""

from __future__ import annotations

from dataclasses import dataclass

from hexaround.raw import RawConfig, RawCreature, RawPlayer

#: Longest number a ``.hgc`` file may hold, in digits.
MAX_DIGITS = 18


@dataclass(frozen=True)
class Token:
    """One token: kind is NAME, INT, or the punctuation itself (':', '[', ']', ',')."""

    kind: str
    text: str
    line: int


def tokenize(text: str, raw: RawConfig) -> list[Token]:
    """Split ``.hgc`` text into tokens, recording lexical errors in ``raw``."""
    tokens: list[Token] = []
    i, n, line = 0, len(text), 1
    while i < n:
        ch = text[i]
        if ch == "\n":
            line += 1
            i += 1
        elif ch.isspace():
            i += 1
        elif text.startswith("/*", i):
            start_line, depth = line, 1
            i += 2
            while i < n and depth:
                if text.startswith("/*", i):
                    depth += 1
                    i += 2
                elif text.startswith("*/", i):
                    depth -= 1
                    i += 2
                else:
                    if text[i] == "\n":
                        line += 1
                    i += 1
            if depth:
                raw.error(start_line, "comment '/*' is never closed")
                raw.truncated = True
        elif text.startswith("*/", i):
            raw.error(line, "'*/' without an opening '/*'")
            i += 2
        elif ch.isascii() and (ch.isalpha() or ch == "_"):
            j = i + 1
            while j < n and text[j].isascii() and (text[j].isalnum() or text[j] == "_"):
                j += 1
            tokens.append(Token("NAME", text[i:j], line))
            i = j
        elif ch.isascii() and ch.isdigit():
            j = i + 1
            while j < n and text[j].isascii() and text[j].isdigit():
                j += 1
            if j - i > MAX_DIGITS:
                # Never converted: Python refuses ints of thousands of digits, and no limit
                # of the game needs more than a few.
                raw.error(line, f"a number with {j - i} digits is too long (at most "
                                f"{MAX_DIGITS})")
                tokens.append(Token("INT", "9" * MAX_DIGITS, line))
            else:
                tokens.append(Token("INT", text[i:j], line))
            i = j
        elif ch in ":[],":
            tokens.append(Token(ch, ch, line))
            i += 1
        else:
            raw.error(line, f"unexpected character {ch!r}")
            i += 1
    return tokens


class _Parser:
    def __init__(self, tokens: list[Token], raw: RawConfig):
        self.tokens = tokens
        self.raw = raw
        self.pos = 0

    def peek(self, ahead: int = 0) -> Token | None:
        k = self.pos + ahead
        return self.tokens[k] if k < len(self.tokens) else None

    def is_keyword(self, word: str, ahead: int = 0) -> bool:
        tok = self.peek(ahead)
        return tok is not None and tok.kind == "NAME" and tok.text.upper() == word

    def last_line(self) -> int:
        return self.tokens[-1].line if self.tokens else 1

    def error(self, line: int, message: str) -> None:
        """Record a syntax error, unless it only echoes a comment that swallowed the rest."""
        if self.raw.truncated and "end of the file" in message:
            return
        self.raw.error(line, message)

    def fail(self, tok: Token | None, message: str) -> None:
        """Record a syntax error and skip to the first token of a later line."""
        line = tok.line if tok is not None else self.last_line()
        self.error(line, message)
        while self.pos < len(self.tokens) and self.tokens[self.pos].line <= line:
            self.pos += 1

    def section(self, word: str) -> bool:
        tok = self.peek()
        if tok is None or not self.is_keyword(word):
            found = f"'{tok.text}'" if tok is not None else "the end of the file"
            self.error(tok.line if tok else self.last_line(),
                       f"expected '{word}:' but found {found}")
            return False
        self.pos += 1
        colon = self.peek()
        if colon is None or colon.kind != ":":
            self.error(tok.line, f"expected ':' after {word}")
        else:
            self.pos += 1
        return True

    def parse(self) -> None:
        raw = self.raw
        if not self.section("CREATURES"):
            raw.structural = True
            return
        raw.creatures_line = self.tokens[self.pos - 1].line if self.pos else 1
        while self.peek() is not None and not (
            self.is_keyword("PLAYERS") and (after := self.peek(1)) is not None
            and after.kind == ":"
        ):
            self.creature()
        players = self.peek()
        if players is None:
            self.error(self.last_line(), "expected 'PLAYERS:' but found the end of the file")
            raw.players_reported = True
            return
        raw.players_line = players.line
        self.section("PLAYERS")
        while self.peek() is not None:
            self.player()

    def creature(self) -> None:
        name = self.peek()
        if name is None:
            return
        if name.kind != "NAME":
            self.fail(name, f"expected a creature name but found '{name.text.upper()}'")
            return
        self.pos += 1
        rc = RawCreature(name.text, name.line)
        tok = self.peek()
        if tok is not None and tok.kind == "INT":
            rc.max_distance = int(tok.text)
            rc.distance_line = tok.line
            self.pos += 1
            tok = self.peek()
        if tok is None or tok.kind != "[":
            found = f"'{tok.text}'" if tok is not None else "the end of the file"
            self.fail(tok or name, f"creature {name.text.upper()}: expected '[' and a list of "
                                   f"properties but found {found}")
            return
        self.pos += 1
        props: list[tuple[object, int]] = []
        while True:
            tok = self.peek()
            if tok is None:
                self.fail(None, f"creature {name.text.upper()}: the property list is not closed "
                                f"with ']'")
                return
            if tok.kind == "]":
                self.pos += 1
                break
            nxt = self.peek(1)
            starts_next = tok.kind == "NAME" and nxt is not None and (
                (tok.text.upper() == "PLAYERS" and nxt.kind == ":")
                or (tok.line > name.line and nxt.kind in ("[", "INT")))
            if starts_next:
                # The next definition or section begins: this list was never closed.
                self.error(name.line, f"creature {name.text.upper()}: the property list is not "
                                      f"closed with ']'")
                break
            if tok.kind != "NAME":
                self.fail(tok, f"creature {name.text.upper()}: expected a property but found "
                               f"'{tok.text}'")
                return
            props.append((tok.text, tok.line))
            self.pos += 1
        rc.properties = props
        self.raw.creatures.append(rc)

    def player(self) -> None:
        name = self.peek()
        assert name is not None
        if name.kind != "NAME":
            self.fail(name, f"expected a player name (BLUE or RED) but found '{name.text.upper()}'")
            return
        self.pos += 1
        rp = RawPlayer(name.text, name.line)
        self.raw.players.append(rp)
        stock = rp.stock
        assert stock is not None
        while True:
            cname = self.peek()
            if cname is None or cname.kind != "NAME":
                found = f"'{cname.text}'" if cname is not None else "the end of the file"
                self.fail(cname or name, f"player {name.text.upper()}: expected a creature "
                                         f"name and count but found {found}")
                return
            count = self.peek(1)
            if count is None or count.kind != "INT":
                found = f"'{count.text}'" if count is not None else "the end of the file"
                self.fail(count or cname, f"player {name.text.upper()}: expected the count of "
                                          f"{cname.text.upper()} but found {found}")
                return
            stock.append((cname.text, int(count.text), cname.line))
            self.pos += 2
            sep = self.peek()
            if sep is None:
                return
            if sep.kind == ",":
                self.pos += 1
                continue
            if sep.kind == "NAME" and (nxt := self.peek(1)) is not None and nxt.kind == "INT":
                # "crab 3" right after an entry: a missing comma, not a new player.
                self.error(count.line, f"player {name.text.upper()}: missing ',' after "
                                       f"'{cname.text.upper()} {count.text}'")
                continue
            return


def read_hgc(text: str, path: str) -> RawConfig:
    """Parse ``.hgc`` text into a RawConfig (syntax errors recorded, not raised)."""
    raw = RawConfig(path)
    tokens = tokenize(text, raw)
    _Parser(tokens, raw).parse()
    return raw
