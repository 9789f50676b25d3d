"""Tactics before search: decisive and anti-decisive moves, for any game, through the generic
API (Teytaud & Teytaud 2010, "On the huge benefit of decisive moves in Monte-Carlo Tree
Search algorithms").

* A **decisive** move ends the game at once with its mover among the winners: a bot that has
  one plays it.
* An **anti-decisive** move leaves the next player (another seat) without a decisive move:
  a bot that has one never plays anything else, so it never allows a loss in one when a
  move avoids it.

Both are found by playing moves on the state and taking them back (``push``/``pop``), so
they hold for every plugin game, for two to four seats. Trying every reply to every move
is slow where there are a hundred of each (HexAround, Hive), so a game may register
``may_win`` in its :class:`~hexkit.bots.policy.PlayoutPolicy`: the moves that *might* win
at once, e.g. those onto the last free hex around a Queen; only those are played to check.
Without it, the replies tried at the root are capped at :data:`ROOT_TRIES` (a move whose
replies are beyond the cap counts as safe). A game's ``shortlist`` adds its own tactics
beyond one move (Hex Baron's three-command turns).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from hexkit.bots.policy import PlayoutPolicy, function
from hexkit.errors import HexkitError
from hexkit.game import Move, State

#: Replies tried at the root, at most, by a game that names no ``may_win`` moves.
ROOT_TRIES = 20_000


def wins_for(state: State, seat: int) -> bool:
    """True if the game is over and ``seat`` is among its winners, but not everyone is."""
    outcome = state.outcome()
    if outcome is None or seat not in outcome.winners:
        return False
    return len(outcome.winners) < len(state.players)


class Tactics:
    """The tactical layer of a game: built once per bot from the game's policy."""

    def __init__(self, policy: PlayoutPolicy | None = None, *, root_tries: int = ROOT_TRIES):
        self.may_win = function(policy.may_win) if policy is not None else None
        quick = function(policy.quick_win) if policy is not None else None
        #: True when the root's moves are narrowed by ``quick_win`` and the move to play
        #: must be confirmed (:meth:`confirm`).
        self.needs_confirm = quick is not None and self.may_win is not None
        #: What searches and playouts check at every node (the cheap filter).
        self.quick_win = quick if quick is not None else self.may_win
        self.shortlist = function(policy.shortlist) if policy is not None else None
        self.root_tries = root_tries
        #: Moves played to check them by the last :meth:`root_moves` (for benchmarks).
        self.tried = 0

    @property
    def cheap(self) -> bool:
        """True when the game names the moves that might win (so checking every position
        of a search is affordable)."""
        return self.may_win is not None

    def _candidates(self, state: State, legal: Sequence[Move] | None,
                    quick: bool = False) -> Iterable[Move]:
        filter_ = self.quick_win if quick else self.may_win
        if filter_ is not None:
            found = filter_(state)
            if found is not None:
                return found
        return legal if legal is not None else state.legal_moves()

    def _no_win_possible(self, state: State, quick: bool = False) -> bool:
        filter_ = self.quick_win if quick else self.may_win
        if filter_ is None:
            return False
        found = filter_(state)
        return found is not None and not found

    def winning_moves(self, state: State, legal: Sequence[Move] | None = None, *,
                      first: bool = False, limit: int | None = None,
                      candidates: Iterable[Move] | None = None) -> list[Move]:
        """The decisive moves of the player to act (the first one only with ``first``)
        among ``candidates`` (default: those the game names, else every legal move).
        ``limit`` bounds the moves played to check (the rest are not tried)."""
        mover = state.current_player
        found = []
        if candidates is None:
            candidates = self._candidates(state, legal)
        for move in candidates:
            if limit is not None:
                if limit <= 0:
                    break
                limit -= 1
            self.tried += 1
            try:
                state.push(move)
            except HexkitError:
                continue  # a may_win filter named a move that is not legal here
            try:
                won = wins_for(state, mover)
            finally:
                state.pop()
            if won:
                found.append(move)
                if first:
                    break
        return found

    def winning_move(self, state: State) -> Move | None:
        """A decisive move of the player to act, or None."""
        found = self.winning_moves(state, first=True)
        return found[0] if found else None

    def named_win(self, state: State) -> Move | None:
        """A decisive move among those the game's ``quick_win`` (else ``may_win``) names, or
        None (also when it names none, or cannot tell: searches and playouts never try every
        move)."""
        if self.quick_win is None:
            return None
        found = self.quick_win(state)
        if not found:
            return None
        wins = self.winning_moves(state, first=True, candidates=found)
        return wins[0] if wins else None

    def safe_moves(self, state: State, moves: Sequence[Move], *,
                   quick: bool = False) -> list[Move]:
        """The anti-decisive moves among ``moves``: those after which the next player (if
        another seat) has no decisive move. Empty if every move allows a loss in one. With
        ``quick``, only the next player's wins that ``quick_win`` names are looked for."""
        mover = state.current_player
        budget = None if self.cheap else self.root_tries
        safe = []
        for move in moves:
            state.push(move)
            try:
                # The game's filter first: where it names no possible win, the position
                # need not even be asked whether it is over (HexAround's is_over lists the
                # next player's moves).
                if state.current_player == mover or self._no_win_possible(state, quick) or \
                        state.is_over():
                    safe.append(move)
                    continue
                if budget is not None and budget <= 0:
                    safe.append(move)  # beyond the cap: not checked
                    continue
                before = self.tried
                candidates = self._candidates(state, None, quick) if quick else None
                if not self.winning_moves(state, first=True, limit=budget,
                                          candidates=candidates):
                    safe.append(move)
                if budget is not None:
                    budget -= self.tried - before
            finally:
                state.pop()
        return safe

    def root_moves(self, state: State, legal: Sequence[Move]) -> tuple[list[Move], bool]:
        """The moves a bot should choose among, and whether the first one wins at once: the
        decisive moves if there are any; else the game's shortlist, less the moves that
        allow a loss in one (all of the shortlist if none avoids it)."""
        return self.root_candidates(state, legal, quick=False)

    def root_candidates(self, state: State, legal: Sequence[Move], *,
                        quick: bool = True) -> tuple[list[Move], bool]:
        """As :meth:`root_moves`, but where the game has a ``quick_win`` (and ``quick``)
        the losses in one are looked for by it only: the move chosen among these must then
        pass :meth:`confirm` (a bot tries its next best while one fails). The decisive moves
        are always those ``may_win`` names."""
        quick = quick and self.needs_confirm
        self.tried = 0
        wins = self.winning_moves(state, legal)
        if wins:
            return wins, True
        moves = list(legal)
        if self.shortlist is not None:
            known = set(moves)
            listed = [m for m in self.shortlist(state, moves) if m in known]
            if listed:
                moves = listed
        safe = self.safe_moves(state, moves, quick=quick)
        return (safe or moves), False

    def confirm(self, state: State, move: Move) -> bool:
        """True if ``move`` leaves the next player no decisive move among those ``may_win``
        names (always True where there is no ``quick_win``: :meth:`root_candidates` then
        checked it already)."""
        if not self.needs_confirm:
            return True
        return bool(self.safe_moves(state, [move]))

    def first_confirmed(self, state: State, ranked: Sequence[Move]) -> Move:
        """The first of ``ranked`` (a search's moves, best first) that :meth:`confirm`
        passes, else the first: the costly check is made for the move about to be played
        only, and for the next best while one fails."""
        if self.needs_confirm:
            for move in ranked:
                if self.confirm(state, move):
                    return move
        return ranked[0]


def root_pick(tactics: Tactics | None, state: State, legal: list[Move],
              rng: random.Random) -> tuple[list[Move], Move | None]:
    """What a searching bot does first at the root: the moves to search (``legal`` itself
    without tactics, else :meth:`Tactics.root_candidates`) and, when some move wins at
    once, the one to play (a choice among the wins by ``rng``), else None."""
    if tactics is None:
        return legal, None
    moves, winning = tactics.root_candidates(state, legal)
    return moves, (moves[rng.randrange(len(moves))] if winning else None)
