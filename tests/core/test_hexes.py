from hypothesis import given
from hypothesis import strategies as st

from hexkit.geometry.hexes import DIRECTIONS, Hex, common_neighbours

coords = st.integers(-50, 50)
hexes = st.builds(Hex, coords, coords)


def test_neighbours_follow_the_course_ring_order():
    assert Hex(0, 0).neighbours() == (
        Hex(0, 1), Hex(1, 0), Hex(1, -1), Hex(0, -1), Hex(-1, 0), Hex(-1, 1)
    )


def test_distance_matches_the_hexaround_examples():
    assert Hex(0, 0).distance((1, 1)) == 2
    assert Hex(0, 0).distance((2, -1)) == 2
    assert Hex(0, 0).distance((1, -1)) == 1


def test_straight_line_test_matches_the_hexaround_examples():
    assert Hex(0, 0).in_line((0, 3))
    assert Hex(0, 0).in_line((3, -3))
    assert not Hex(0, 0).in_line((2, 2))


def test_gate_of_a_step_is_the_two_common_neighbours():
    assert set(common_neighbours((0, 0), (1, 0))) == {Hex(0, 1), Hex(1, -1)}


def test_line_between_hexes_lists_the_hexes_strictly_between():
    assert Hex(0, 0).line_to((0, 3)) == [Hex(0, 1), Hex(0, 2)]
    assert Hex(0, 0).line_to((1, 0)) == []


def test_cube_coordinates_are_q_r_s_and_round_trip():
    h = Hex.from_cube(7, -6, -1)
    assert h == Hex(7, -6) and h.s == -1
    assert h.cube() == (7, -6, -1)


def test_cube_coordinates_must_sum_to_zero():
    import pytest

    with pytest.raises(ValueError):
        Hex.from_cube(1, 1, 1)


@given(hexes, st.integers(0, 6))
def test_ring_has_six_times_radius_hexes_all_at_that_distance(centre, radius):
    ring = centre.ring(radius)
    assert len(ring) == (6 * radius if radius else 1)
    assert len(set(ring)) == len(ring)
    assert all(centre.distance(h) == radius for h in ring)


@given(hexes, hexes)
def test_distance_is_symmetric_and_zero_only_on_itself(a, b):
    assert a.distance(b) == b.distance(a)
    assert (a.distance(b) == 0) == (a == b)


@given(hexes, hexes)
def test_rotation_keeps_distances_and_six_turns_are_identity(a, b):
    assert a.rotate(1).distance(b.rotate(1)) == a.distance(b)
    assert a.rotate(6) == a
    assert a.rotate(2, centre=b).distance(b) == a.distance(b)


@given(hexes)
def test_each_direction_is_adjacent_to_the_next(h):
    for d in range(6):
        assert h.neighbour(d).distance(h.neighbour(d + 1)) == 1
    assert len(DIRECTIONS) == 6
