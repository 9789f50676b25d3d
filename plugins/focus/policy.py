"""Focus's help for the MCTS bot: an evaluation of unfinished playouts.

Random playouts of Focus run for hundreds of moves, so the bot plays a few random moves
(the policy's depth, registered in :mod:`focus.plugin`) and then scores the position by
material instead of finishing the game:

* captures decide the course game (the first to ``captures_to_win``), and a piece in
  reserve is half a capture (it can be entered anywhere, on top of any stack);
* in the real game (``win=last_mover``) a player is out with no stack on top and no reserve,
  so stacks on top count as much as reserve pieces, and captures (the others' lost pieces)
  count half.

Each seat's reward is its share of an even split shifted by how far its score is from the
mean score of the players still in; a player who is out gets nothing.
"""

from __future__ import annotations

from focus.game import FocusState
from focus.notation import StackMove
from hexkit.game import Move


def evaluate(state: FocusState) -> list[float]:
    """Per-seat rewards in 0..1 for an unfinished position (see the module docstring)."""
    rules = state.rules
    n = rules.players
    seats = [s for s in range(n) if state.is_active(s)]
    rewards = [0.0] * n
    if not seats:
        return rewards
    if rules.win_by_captures:
        scores = {s: state.captured(s) + 0.5 * state.reserve(s) for s in seats}
        mean = sum(scores.values()) / len(seats)
        even = 1.0 / len(seats)
        # Between two players a lead of all the captures needed scores 0.75: never
        # saturated before the win, so a leading bot still plays to finish.
        scale = 2.0 * rules.captures_to_win
        for s in seats:
            rewards[s] = min(1.0, max(0.0, even + (scores[s] - mean) / scale))
        return rewards
    # Shares, not differences: a big lead must still leave room to finish the game (a
    # player with one stack left is not yet out).
    scores = {s: state.controls(s) + state.reserve(s) for s in seats}
    total = sum(scores.values())
    if not total:
        return [1.0 / len(seats) if s in scores else 0.0 for s in range(n)]
    for s in seats:
        rewards[s] = scores[s] / total
    return rewards


def may_win(state: FocusState) -> list[Move] | None:
    """For the bots' tactical layer, the moves that might win at once: where captures win,
    exactly the moves that capture the pieces still needed (counted without playing them:
    the pieces pushed out from under the landing stack that are not the mover's); None
    ("any move might win: try them") when the last player able to move wins and one other
    player is left with no reserve and at most one stack on top."""
    rules = state.rules
    me = state.current_player
    others = [s for s in range(rules.players) if s != me and state.is_active(s)]
    if rules.drop_stuck and len(others) == 1 and not state.reserve(others[0]) and \
            state.controls(others[0]) <= 1:
        return None
    if not rules.win_by_captures:
        return []
    need = rules.captures_to_win - state.captured(me)
    limit = rules.max_height
    if need > limit:
        return []  # a move captures at most max_height pieces
    index = rules.index
    stacks = [state.stack(i) for i in range(rules.size)]
    found: list[Move] = []
    for move in state.legal_moves():
        if isinstance(move, StackMove):
            count = move.count
        else:
            count = 1
        dst = stacks[index[move.to]]
        excess = len(dst) + count - limit
        if excess >= need and excess - dst[:excess].count(me) >= need:
            found.append(move)
    return found
