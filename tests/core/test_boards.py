import pytest

from hexkit.geometry.boards import Board, BoundedHexBoard, SquareBoard
from hexkit.geometry.hexes import Hex

#: A plus-shaped mask: the 3x3 centre of a 5x5 grid and one square out on each side.
PLUS = [(r, c) for r in range(1, 4) for c in range(1, 4)] + [(0, 2), (2, 0), (2, 4), (4, 2)]


def test_hexagon_board_of_radius_2_has_19_cells():
    board = BoundedHexBoard.hexagon(2)
    assert len(board) == 19
    assert len(board.neighbours(Hex(0, 0))) == 6


def test_rhombus_board_numbers_its_cells_row_by_row():
    board = BoundedHexBoard.rhombus(4, 3)
    assert len(board) == 12
    assert board.index[Hex(2, 1)] == 1 * 4 + 2
    assert board.neighbour_index[0] == (1, 4)


def test_a_bounded_hex_board_refuses_a_cell_listed_twice():
    with pytest.raises(ValueError, match="twice"):
        BoundedHexBoard([Hex(0, 0), Hex(0, 0)])


def test_neighbour_tables_list_the_cells_at_distance_one():
    board = BoundedHexBoard.hexagon(3)
    for i, cell in enumerate(board.cells):
        expected = tuple(j for j, other in enumerate(board.cells) if cell.distance(other) == 1)
        assert board.neighbour_index[i] == expected


def test_full_square_board_is_rows_by_cols_with_orthogonal_neighbours():
    board = SquareBoard(6, 6)
    assert len(board) == 36
    assert len(board.neighbours((0, 0))) == 2
    assert len(board.neighbours((2, 3))) == 4
    assert board.distance((0, 0), (2, 3)) == 5


def test_a_masked_square_board_keeps_only_its_squares_in_row_major_order():
    board = SquareBoard(5, 5, PLUS)
    assert len(board) == 13
    assert (0, 0) not in board and (0, 2) in board
    assert list(board.cells) == sorted(PLUS)


def test_rays_stop_at_the_edge_of_the_shape():
    board = SquareBoard(5, 5, PLUS)
    assert board.ray((1, 1), 0) == ()          # up from (1,1): (0,1) is removed
    assert board.ray((2, 0), 1) == ((2, 1), (2, 2), (2, 3), (2, 4))
    assert board.ray((0, 2), 2) == tuple((r, 2) for r in range(1, 5))


def test_a_mask_square_outside_the_grid_is_refused():
    with pytest.raises(ValueError, match="outside a 3x3 grid"):
        SquareBoard(3, 3, [(0, 0), (3, 0)])


def test_both_topologies_follow_the_board_protocol():
    assert isinstance(BoundedHexBoard.hexagon(1), Board)
    assert isinstance(SquareBoard(2, 2), Board)
