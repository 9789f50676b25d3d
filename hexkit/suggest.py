""""Did you mean ...?": the closest known word to a mistyped one, for names (games, bots,
commands) and for the words of a line typed at the game prompt.

A line is corrected word by word against a vocabulary the caller gathers without knowing
the game (the words of the legal moves' notation, the kinds of pieces in hand, the console
words): words holding digits are coordinates or counts and are left as typed.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:
    from collections.abc import Iterable

#: How alike two words must be to be offered (difflib's ratio).
CUTOFF = 0.6


def closest(word: str, known: Iterable[str], cutoff: float = CUTOFF) -> str | None:
    """The known word closest to ``word`` (ignoring case), or None if none is close."""
    import difflib

    by_lower: dict[str, str] = {}
    for k in known:
        by_lower.setdefault(k.lower(), k)
    found = difflib.get_close_matches(word.lower(), list(by_lower), n=1, cutoff=cutoff)
    return by_lower[found[0]] if found else None


def hint(word: str, known: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` with the known word closest to ``word``, or "" if none is
    close: the tail of a one-line error about an unknown name or key."""
    found = closest(word, known)
    return f" (did you mean '{found}'?)" if found is not None else ""


def words_of(texts: Iterable[str]) -> set[str]:
    """The words (letters only, two or more) in ``texts``, split at spaces and at the
    punctuation of move notations (``-``, ``:``, ``,``, parentheses)."""
    out: set[str] = set()
    for text in texts:
        for word in split_words(text):
            if len(word) >= 2 and word.isalpha():
                out.add(word)
    return out


def correct_line(line: str, vocabulary: Iterable[str]) -> str | None:
    """``line`` with each unknown word replaced by the closest word of ``vocabulary``, or
    None when no word needed (or found) a correction. Only whole words made of letters are
    corrected; the rest of the line is kept as typed."""
    known = {w.lower(): w for w in vocabulary}
    words = line.split()
    changed = False
    for i, word in enumerate(words):
        if not word.isalpha() or len(word) < 2 or word.lower() in known:
            continue
        better = closest(word, known.values())
        if better is not None:
            words[i] = better
            changed = True
    return " ".join(words) if changed else None


def split_words(text: str) -> list[str]:
    """``text`` split at spaces and at the punctuation of move notations."""
    for ch in "-:,()[]/":
        text = text.replace(ch, " ")
    return text.split()
