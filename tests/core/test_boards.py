import pytest

from hexkit.boards import BoundedHexBoard, SquareBoard, UnboundedHexBoard
from hexkit.hexes import Hex
from hexkit.pieces import Piece

# Neighbour lists of the size-8 Hex Baron grid, from the spec's tile table.
SIZE8_NEIGHBOURS = {
    0: (4, 8), 1: (4, 5, 9), 7: (3, 11, 15), 9: (1, 4, 5, 12, 13, 17), 12: (4, 8, 9, 16, 17, 20),
    15: (7, 11, 19, 23), 16: (8, 12, 20, 24), 23: (15, 19, 27, 31), 24: (16, 20, 28),
    28: (20, 24, 25), 31: (23, 27),
}


def test_hexbaron_size_8_grid_has_32_tiles_with_the_spec_coordinates():
    board = BoundedHexBoard.hexbaron(8)
    assert len(board) == 32
    assert board.cells[0].cube() == (0, 0, 0)
    assert board.cells[5].cube() == (3, -2, -1)
    assert board.cells[23].cube() == (7, -6, -1)
    assert board.cells[31].cube() == (7, -7, 0)


@pytest.mark.parametrize("tile,expected", sorted(SIZE8_NEIGHBOURS.items()))
def test_hexbaron_size_8_neighbours_match_the_tile_table(tile, expected):
    assert BoundedHexBoard.hexbaron(8).neighbour_index[tile] == expected


@pytest.mark.parametrize("size,tiles", [(2, 2), (4, 8), (6, 18), (10, 50), (16, 128)])
def test_hexbaron_tile_count_is_half_the_size_squared(size, tiles):
    assert len(BoundedHexBoard.hexbaron(size)) == tiles


def test_hexbaron_neighbours_are_the_tiles_at_distance_one():
    board = BoundedHexBoard.hexbaron(12)
    for i, cell in enumerate(board.cells):
        expected = tuple(j for j, other in enumerate(board.cells) if cell.distance(other) == 1)
        assert board.neighbour_index[i] == expected


def test_hexbaron_interior_tiles_have_six_neighbours_and_the_ends_two():
    board = BoundedHexBoard.hexbaron(8)
    counts = [len(n) for n in board.neighbour_index]
    assert counts[0] == 2 and counts[-1] == 2
    assert counts.count(6) == 12


@pytest.mark.parametrize("size", [0, 3, 7, -2])
def test_hexbaron_layout_refuses_odd_or_tiny_sizes(size):
    with pytest.raises(ValueError, match="even size"):
        BoundedHexBoard.hexbaron(size)


def test_hexbaron_size_60_grid_builds_with_1800_tiles():
    board = BoundedHexBoard.hexbaron(60)
    assert len(board) == 1800
    assert all(1 <= len(n) <= 6 for n in board.neighbour_index)


def test_hexagon_board_of_radius_2_has_19_cells():
    board = BoundedHexBoard.hexagon(2)
    assert len(board) == 19
    assert len(board.neighbours(Hex(0, 0))) == 6


def test_unbounded_board_has_six_neighbours_everywhere_and_stores_stacks():
    board = UnboundedHexBoard()
    assert len(board.neighbours(Hex(1000, -1000))) == 6
    board.put(Hex(0, 0), Piece(0, "CRAB"))
    board.put(Hex(0, 0), Piece(1, "HORSE"))
    assert board.height(Hex(0, 0)) == 2
    assert board.top(Hex(0, 0)) == Piece(1, "HORSE")
    assert board.take(Hex(0, 0)) == [Piece(1, "HORSE")]
    assert board.cells == [Hex(0, 0)]
    assert board.bounds() == (0, 0, 0, 0)


def test_course_square_board_is_6x6_with_orthogonal_neighbours():
    board = SquareBoard.course()
    assert len(board) == 36
    assert len(board.neighbours((0, 0))) == 2
    assert len(board.neighbours((2, 3))) == 4
    assert board.distance((0, 0), (2, 3)) == 5


def test_cross_board_has_52_squares_without_three_at_each_corner():
    board = SquareBoard.cross()
    assert len(board) == 52
    removed = {(0, 0), (0, 1), (1, 0), (0, 6), (0, 7), (1, 7),
               (6, 0), (7, 0), (7, 1), (6, 7), (7, 7), (7, 6)}
    assert not any(sq in board for sq in removed)
    widths = [sum(1 for r, _ in board.cells if r == row) for row in range(8)]
    assert widths == [4, 6, 8, 8, 8, 8, 6, 4]


def test_cross_board_rays_stop_at_the_edge_of_the_shape():
    board = SquareBoard.cross()
    assert board.ray((1, 1), 0) == ()          # up from (1,1): (0,1) is removed
    assert board.ray((2, 0), 1)[-1] == (2, 7)  # right along a full row
    assert board.ray((0, 2), 2) == tuple((r, 2) for r in range(1, 8))


def test_square_board_stacks_keep_bottom_first_order():
    board = SquareBoard.course()
    board.put((0, 0), Piece(0, "R"))
    board.put((0, 0), Piece(1, "G"))
    assert board.stack((0, 0)) == [Piece(0, "R"), Piece(1, "G")]
    with pytest.raises(KeyError):
        board.put((9, 9), Piece(0, "R"))
