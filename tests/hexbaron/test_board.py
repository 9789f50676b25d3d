"""The grid: tile numbering, x/y/z coordinates, neighbours, sizes; and the default game."""

from __future__ import annotations

import pytest
from hexbaron.catalogue import BOG, FIELD, FOREST
from hexbaron.layout import grid_tables, hex_of, tile_cubes
from hexbaron.setup import tile_count

from .conftest import plain_game

# Spec §2.3: index -> (x, y, z, neighbours) of the size-8 grid.
SIZE_8 = {
    0: (0, 0, 0, [4, 8]), 1: (2, -1, -1, [4, 5, 9]), 2: (4, -2, -2, [5, 6, 10]),
    3: (6, -3, -3, [6, 7, 11]), 4: (1, -1, 0, [0, 1, 8, 9, 12]),
    5: (3, -2, -1, [1, 2, 9, 10, 13]), 6: (5, -3, -2, [2, 3, 10, 11, 14]),
    7: (7, -4, -3, [3, 11, 15]), 8: (0, -1, 1, [0, 4, 12, 16]),
    9: (2, -2, 0, [1, 4, 5, 12, 13, 17]), 10: (4, -3, -1, [2, 5, 6, 13, 14, 18]),
    11: (6, -4, -2, [3, 6, 7, 14, 15, 19]), 12: (1, -2, 1, [4, 8, 9, 16, 17, 20]),
    13: (3, -3, 0, [5, 9, 10, 17, 18, 21]), 14: (5, -4, -1, [6, 10, 11, 18, 19, 22]),
    15: (7, -5, -2, [7, 11, 19, 23]), 16: (0, -2, 2, [8, 12, 20, 24]),
    17: (2, -3, 1, [9, 12, 13, 20, 21, 25]), 18: (4, -4, 0, [10, 13, 14, 21, 22, 26]),
    19: (6, -5, -1, [11, 14, 15, 22, 23, 27]), 20: (1, -3, 2, [12, 16, 17, 24, 25, 28]),
    21: (3, -4, 1, [13, 17, 18, 25, 26, 29]), 22: (5, -5, 0, [14, 18, 19, 26, 27, 30]),
    23: (7, -6, -1, [15, 19, 27, 31]), 24: (0, -3, 3, [16, 20, 28]),
    25: (2, -4, 2, [17, 20, 21, 28, 29]), 26: (4, -5, 1, [18, 21, 22, 29, 30]),
    27: (6, -6, 0, [19, 22, 23, 30, 31]), 28: (1, -4, 3, [20, 24, 25]),
    29: (3, -5, 2, [21, 25, 26]), 30: (5, -6, 1, [22, 26, 27]), 31: (7, -7, 0, [23, 27]),
}


def spec_neighbours(size: int, i: int) -> list[int]:
    """Spec §2.2's neighbour formula in index terms."""
    h = size // 2
    j = i % size
    cand = [i - size, i + size, i - h, i + h]
    if j < h:
        if j > 0:
            cand += [i - h - 1, i + h - 1]
    elif j - h < h - 1:
        cand += [i - h + 1, i + h + 1]
    return sorted(c for c in cand if 0 <= c < size * size // 2)


@pytest.mark.parametrize("size, tiles", [(2, 2), (4, 8), (6, 18), (8, 32), (10, 50),
                                         (12, 72), (14, 98), (16, 128), (60, 1800)])
def test_grid_of_even_size_n_has_n_squared_over_two_tiles(size, tiles):
    neighbours, cubes = grid_tables(size)
    assert tile_count(size) == tiles
    assert len(neighbours) == len(cubes) == tiles


def test_size_8_tiles_have_the_coordinates_and_neighbours_of_the_spec_table():
    neighbours, cubes = grid_tables(8)
    for i, (x, y, z, near) in SIZE_8.items():
        assert cubes[i] == (x, y, z)
        assert list(neighbours[i]) == near


@pytest.mark.parametrize("size", [2, 4, 6, 8, 10, 14, 20])
def test_neighbours_are_exactly_the_tiles_at_distance_one(size):
    neighbours, cubes = grid_tables(size)
    for i, a in enumerate(cubes):
        assert sum(a) == 0
        brute = [j for j, b in enumerate(cubes)
                 if max(abs(a[0] - b[0]), abs(a[1] - b[1]), abs(a[2] - b[2])) == 1]
        assert list(neighbours[i]) == brute


@pytest.mark.parametrize("size", [4, 8, 12, 60])
def test_neighbours_follow_the_specs_index_formula(size):
    neighbours, _ = grid_tables(size)
    assert all(list(neighbours[i]) == spec_neighbours(size, i) for i in range(len(neighbours)))


@pytest.mark.parametrize("size", [6, 8, 60])
def test_first_and_last_tiles_have_two_neighbours_and_interior_tiles_six(size):
    neighbours, _ = grid_tables(size)
    assert len(neighbours[0]) == len(neighbours[-1]) == 2
    h = size // 2
    interior = size + 1  # second even row, second tile
    assert len(neighbours[interior]) == 6
    assert max(len(n) for n in neighbours) == 6
    assert len(neighbours[size + h]) == 6  # second odd row, first tile


@pytest.mark.parametrize("size", [0, 3, 7, -2])
def test_the_layout_refuses_odd_or_tiny_sizes(size):
    with pytest.raises(ValueError, match="even size"):
        tile_cubes(size)


def test_a_tile_labelled_x_y_z_is_the_axial_hex_x_z():
    hexes = [hex_of(c) for c in tile_cubes(8)]
    assert hexes[5] == (3, -1) and hexes[5].s == -2
    assert hexes[31] == (7, 0)
    for a, ca in zip(hexes, tile_cubes(8), strict=True):
        for b, cb in zip(hexes, tile_cubes(8), strict=True):
            assert a.distance(b) == max(abs(ca[k] - cb[k]) for k in range(3))


def test_rows_alternate_even_and_odd_x_half_a_hex_apart():
    _, cubes = grid_tables(8)
    assert [c[0] for c in cubes[:8]] == [0, 2, 4, 6, 1, 3, 5, 7]
    assert [c[0] for c in cubes[8:16]] == [0, 2, 4, 6, 1, 3, 5, 7]


def test_default_game_matches_the_skeletons_set_up():
    state = plain_game().new_state(0)
    pos = state.pos
    forest = {1, 2, 11, 12, 18, 19, 20, 21, 28, 30}
    bog = {4, 5, 9, 22, 23, 24, 25, 26}
    assert pos.size == 8
    assert pos.terrain == [FOREST if i in forest else BOG if i in bog else FIELD
                           for i in range(32)]
    pieces = {t: (p.owner, p.kind) for t, p in enumerate(pos.pieces) if p}
    assert pieces == {0: (0, "Baron"), 8: (0, "Serf"), 31: (1, "Baron"), 23: (1, "Serf")}
    assert pos.names == ["Player One", "Player Two"]
    assert pos.vps == [0, 1]
    assert pos.resources == [{"fuel": 10, "lumber": 10, "supply": 5}] * 2
    assert state.current_player == 0 and pos.command == 0


def test_default_game_draws_as_the_skeleton_without_tile_numbers():
    state = plain_game(show_ids=False).new_state(0)
    assert state.grid_lines() == [
        "  __    __    __    __",
        " / B\\__/# \\__/# \\__/  \\__",
        " \\__/~ \\__/~ \\__/  \\__/  \\",
        " / S\\__/~ \\__/  \\__/# \\__/",
        " \\__/# \\__/  \\__/  \\__/  \\",
        " /  \\__/  \\__/# \\__/# \\__/",
        " \\__/# \\__/# \\__/~ \\__/~s\\",
        " /~ \\__/~ \\__/~ \\__/  \\__/",
        " \\__/# \\__/  \\__/# \\__/ b\\",
        "    \\__/  \\__/  \\__/  \\__/",
    ]


def test_grid_with_tile_numbers_puts_each_number_in_its_hex():
    lines = plain_game().new_state(0).grid_lines()
    assert lines[1] == " / B 0\\____/#  1\\____/#  2\\____/   3\\____"
    assert lines[2] == " \\____/~  4\\____/~  5\\____/   6\\____/   7\\"
    assert lines[8] == " \\____/# 28\\____/  29\\____/# 30\\____/ b31\\"
