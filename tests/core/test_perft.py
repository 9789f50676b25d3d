"""Perft for every game: bulk counts equal a naive walk of every leaf, the position is left
as it was, and ``hexkit perft`` prints them."""

from __future__ import annotations

import pytest

import hexkit
from hexkit.tools.perft import divide, perft, perft_lines

from .conftest import PLUGIN_FILES, run_hexkit


def naive_count(state, depth: int) -> int:
    """Leaves of the tree, every one visited (no bulk counting, no game's own counter)."""
    if depth == 0:
        return 1
    total = 0
    for move in list(state.legal_moves()):
        state.push(move)
        total += naive_count(state, depth - 1)
        state.pop()
    return total


# Depths that stay well under a second each.
GAMES = [("hexbaron", {}, 3), ("hexaround", {}, 3), ("hexaround", {"config": "level3"}, 2),
         ("focus", {}, 2), ("focus", {"board": "cross", "players": 4}, 2)]


@pytest.mark.parametrize(("name", "options", "depth"), GAMES,
                         ids=[f"{n}{o or ''}" for n, o, _ in GAMES])
def test_bulk_perft_equals_a_naive_count_of_every_leaf(name, options, depth):
    state = hexkit.load_game(name, **options).new_state(seed=3)
    for d in range(depth + 1):
        assert perft(state, d) == naive_count(state, d), f"{name} depth {d}"


@pytest.mark.parametrize(("name", "options", "depth"), GAMES[:3],
                         ids=[f"{n}{o or ''}" for n, o, _ in GAMES[:3]])
def test_perft_leaves_the_position_exactly_as_it_was(name, options, depth):
    state = hexkit.load_game(name, **options).new_state(seed=5)
    for move in state.legal_moves()[:1]:
        state.push(move)
    before, picture = state.to_dict(), state.render()
    perft(state, depth)
    divide(state, depth)
    assert state.to_dict() == before and state.render() == picture


def test_divide_splits_the_count_by_first_move_in_legal_move_order():
    state = hexkit.load_game("hexaround").new_state(seed=1)
    rows = divide(state, 3)
    assert [text for text, _ in rows] == [str(m) for m in state.legal_moves()]
    assert sum(count for _, count in rows) == perft(state, 3)


def test_mid_game_positions_count_the_same_both_ways():
    state = hexkit.load_game("hexbaron").new_state(seed=9)
    for _ in range(6):
        state.push(state.legal_moves()[0])
    assert perft(state, 2) == naive_count(state, 2)


def test_finished_games_are_leaves_with_no_children(tictactoe_registry):
    # Tic-tac-toe's known counts: 9, 72, 504, 3024, 15120, then 54720 once the 1440
    # games won on the fifth move stop growing.
    game = tictactoe_registry.load_game("tictactoe")
    state = game.new_state(seed=0)
    assert [line.nodes for line in perft_lines(state, 6)] == [9, 72, 504, 3024, 15120, 54720]


class _FastCountingState:
    """A state offering a ``perft`` method of its own, as a fast game does (Hive), and
    the generic API by delegation."""

    def __init__(self, state):
        self.state, self.calls = state, 0

    def perft(self, depth: int) -> int:
        self.calls += 1
        return naive_count(self.state, depth)

    def legal_moves(self):
        return self.state.legal_moves()

    def push(self, move) -> None:
        self.state.push(move)

    def pop(self):
        return self.state.pop()


def test_a_games_own_counter_is_used_unless_naive_is_asked():
    fast = _FastCountingState(hexkit.load_game("hexaround").new_state(seed=0))
    assert perft(fast, 2) == 216 and fast.calls == 1  # type: ignore[arg-type]
    assert perft(fast, 2, naive=True) == 216 and fast.calls == 1  # type: ignore[arg-type]
    # divide plays each first move, then counts below it with the game's counter.
    assert sum(n for _, n in divide(fast, 2)) == 216 and fast.calls == 7  # type: ignore[arg-type]


def test_negative_depth_is_refused():
    state = hexkit.load_game("focus").new_state(seed=0)
    with pytest.raises(ValueError, match="0 or more"):
        perft(state, -1)


def test_perft_command_prints_each_depth_with_its_speed():
    r = run_hexkit("perft", "hexaround", "3")
    assert r.returncode == 0, r.stderr
    lines = [x for x in r.stdout.splitlines() if x.startswith("perft(")]
    assert [x.split(" = ")[1].split()[0] for x in lines] == ["6", "216", "4,674"]


def test_perft_command_divides_and_takes_options_and_moves():
    r = run_hexkit("--plugins-dir", str(PLUGIN_FILES), "perft", "tictactoe", "2",
                   "--divide", "--moves", "c1")
    assert r.returncode == 0, r.stderr
    assert "1 moves played" in r.stdout
    assert r.stdout.rstrip().endswith("perft(2) = 56 (8 moves)")


def test_perft_command_says_what_is_wrong_in_one_line():
    bad_move = run_hexkit("perft", "focus", "2", "--moves", "zz")
    assert bad_move.returncode == 1 and "--moves: move 1 'zz'" in bad_move.stderr
    bad_depth = run_hexkit("perft", "focus", "0")
    assert bad_depth.returncode == 1 and "DEPTH must be 1 or more" in bad_depth.stderr
    bad_option = run_hexkit("perft", "focus", "-o", "players=9", "1")
    assert bad_option.returncode == 1
    for r in (bad_move, bad_depth, bad_option):
        assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1
