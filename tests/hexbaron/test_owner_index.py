"""Each player's tiles are indexed (so large grids are not scanned for every command), and
the index follows every change: moves, spawns, destruction, undo and copies."""

from __future__ import annotations

import random

from .conftest import plain_game


def scanned(state, seat):
    return {t for t, p in enumerate(state.pos.pieces) if p is not None and p.owner == seat}


def agrees(state) -> bool:
    return all(state.pos.owned[s] == scanned(state, s) for s in (0, 1))


def test_the_owner_index_follows_play_undo_and_copies_on_a_large_grid():
    state = plain_game(size=20).new_state(5)
    chooser = random.Random(5)
    for step in range(400):
        if state.is_over():
            break
        moves = state.legal_moves()
        state.push(moves[chooser.randrange(len(moves))])
        assert agrees(state)
        if step % 5 == 4:
            state.pop()
            assert agrees(state)
        if step % 17 == 0:
            twin = state.copy()
            twin.push(twin.legal_moves()[0])
            assert agrees(twin) and agrees(state)
    while state.move_stack:
        state.pop()
        assert agrees(state)


def test_a_players_tiles_are_listed_in_tile_order():
    state = plain_game().new_state(0)
    assert state.pos.own_tiles(0) == [0, 8] and state.pos.own_tiles(1) == [23, 31]
    state.push("move 8 12")
    assert state.pos.own_tiles() == [0, 12]
