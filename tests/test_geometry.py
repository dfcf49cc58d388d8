"""Golden tests for engine.geometry (R10.1, R10.3, R14.2, R21.9, R21.17).

Every picture below was worked out by hand from the rule text, not produced by the code:
'o' is the origin, '#' a field in range (or reachable), '.' a field that is not. Range from an
offset (dx, dy), with ax = |dx|, ay = |dy|: ax + ay//2 if ax > ay, else ay + ax//2 (R10.1 read
as in R21.17).
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from engine.board import Board, Field, Terrain, Victory, VictoryKind
from engine.geometry import Geometry, distance, in_range
from tests.rules import rules

# -- helpers -----------------------------------------------------------------------------------

_TERRAIN = {
    ".": Terrain.PLAIN,
    "S": Terrain.PLAIN,
    "~": Terrain.DEEP_WATER,
    "X": Terrain.BLOCKED,
    "^": Terrain.HIGH_GROUND,
}


def _rows(picture: str) -> list[str]:
    return [line.strip() for line in picture.strip().splitlines()]


def board_from(picture: str) -> Board:
    rows = _rows(picture)
    width = len(rows[0])
    assert all(len(row) == width for row in rows)
    fields = tuple(Field(terrain=_TERRAIN[c]) for row in rows for c in row)
    return Board("test", width, len(rows), fields, Victory(VictoryKind.VIP))


def open_board(width: int, height: int) -> Board:
    return board_from("\n".join("." * width for _ in range(height)))


def marked(picture: str, mark: str = "#") -> set[tuple[int, int]]:
    return {(x, y) for y, row in enumerate(_rows(picture)) for x, c in enumerate(row) if c == mark}


def origin_of(picture: str, mark: str = "o") -> tuple[int, int]:
    (only,) = marked(picture, mark)
    return only


def coords(geo: Geometry, fields: object) -> set[tuple[int, int]]:
    assert isinstance(fields, (tuple, dict, set, list))
    return {geo.coords[i] for i in fields}


GEO9 = Geometry(open_board(9, 9))


# -- R10.1 range tables, 9x9 board -------------------------------------------------------------

CENTRE = {
    1: """
        .........
        .........
        .........
        ...###...
        ...#o#...
        ...###...
        .........
        .........
        .........
    """,
    2: """
        .........
        .........
        ...###...
        ..#####..
        ..##o##..
        ..#####..
        ...###...
        .........
        .........
    """,
    3: """
        .........
        ...###...
        ..#####..
        .#######.
        .###o###.
        .#######.
        ..#####..
        ...###...
        .........
    """,
    4: """
        ...###...
        .#######.
        .#######.
        #########
        ####o####
        #########
        .#######.
        .#######.
        ...###...
    """,
}

CORNER = {
    1: """
        o#.......
        ##.......
        .........
        .........
        .........
        .........
        .........
        .........
        .........
    """,
    2: """
        o##......
        ###......
        ##.......
        .........
        .........
        .........
        .........
        .........
        .........
    """,
    3: """
        o###.....
        ####.....
        ###......
        ##.......
        .........
        .........
        .........
        .........
        .........
    """,
    4: """
        o####....
        #####....
        ####.....
        ####.....
        ##.......
        .........
        .........
        .........
        .........
    """,
}

EDGE = {
    1: """
        .........
        .........
        .........
        ##.......
        o#.......
        ##.......
        .........
        .........
        .........
    """,
    2: """
        .........
        .........
        ##.......
        ###......
        o##......
        ###......
        ##.......
        .........
        .........
    """,
    3: """
        .........
        ##.......
        ###......
        ####.....
        o###.....
        ####.....
        ###......
        ##.......
        .........
    """,
    4: """
        ##.......
        ####.....
        ####.....
        #####....
        o####....
        #####....
        ####.....
        ####.....
        ##.......
    """,
}

TABLES = [
    (name, r, picture)
    for name, table in (("centre", CENTRE), ("corner", CORNER), ("edge", EDGE))
    for r, picture in table.items()
]


@rules("R10.1")
@pytest.mark.parametrize(("name", "r", "picture"), TABLES, ids=[f"{n}-r{r}" for n, r, _ in TABLES])
def test_range_tables_9x9(name: str, r: int, picture: str) -> None:
    ox, oy = origin_of(picture)
    assert (name, (ox, oy)) in {("centre", (4, 4)), ("corner", (0, 0)), ("edge", (0, 4))}
    expected = marked(picture)
    origin = GEO9.index(ox, oy)
    assert origin is not None
    got = GEO9.in_range_fields(origin, r)
    assert coords(GEO9, got) == expected
    assert list(got) == sorted(got) and origin not in got
    assert GEO9.in_range_fields(origin, r) == got
    # The scalar functions agree with the picture on every field of the board.
    for x, y in GEO9.coords:
        if (x, y) == (ox, oy):
            continue
        dx, dy = x - ox, y - oy
        assert in_range(dx, dy, r) == ((x, y) in expected), (dx, dy, r)
        j = GEO9.index(x, y)
        assert j is not None
        assert (GEO9.dist(origin, j) <= r) == ((x, y) in expected)
        assert GEO9.within(origin, j, r) == ((x, y) in expected)


@rules("R10.1")
def test_centre_counts() -> None:
    centre = GEO9.index(4, 4)
    assert centre == 40
    assert [len(GEO9.in_range_fields(centre, r)) for r in range(5)] == [0, 8, 20, 36, 60]


@rules("R10.1")
def test_distance_values() -> None:
    # (dx, dy) -> range distance, by hand.
    table = {
        (0, 0): 0,
        (1, 0): 1,
        (1, 1): 1,
        (2, 1): 2,
        (2, 2): 3,
        (3, 1): 3,
        (3, 2): 4,
        (3, 3): 4,
        (4, 4): 6,
        (5, 0): 5,
        (5, 3): 6,
        (1, 5): 5,
        (2, 5): 6,
    }
    for (dx, dy), d in table.items():
        for sx in (1, -1):
            for sy in (1, -1):
                assert distance(sx * dx, sy * dy) == d
                assert distance(sy * dy, sx * dx) == d
                assert in_range(sx * dx, sy * dy, d)
                assert not in_range(sx * dx, sy * dy, d - 1)


@rules("R21.17")
def test_symmetric_reading() -> None:
    # The signed reading of "x > y" would put (-3, 0) in range 1; R21.17 rules it out.
    assert not in_range(-3, 0, 1)
    assert not in_range(-3, 0, 2)
    assert in_range(3, 0, 3) and in_range(-3, 0, 3)
    assert not in_range(0, -3, 1) and in_range(0, -3, 3)
    assert distance(-3, 0) == distance(3, 0) == 3
    assert distance(-2, 1) == distance(2, -1) == distance(-1, -2) == 2
    for dx in range(-6, 7):
        for dy in range(-6, 7):
            d = distance(dx, dy)
            for ex, ey in ((-dx, dy), (dx, -dy), (-dx, -dy), (dy, dx), (-dy, -dx)):
                assert distance(ex, ey) == d
            for r in range(8):
                assert in_range(dx, dy, r) == (d <= r)


@rules("R10.1")
def test_adjacent_is_range_1_with_diagonals() -> None:
    assert in_range(1, 1, 1) and in_range(-1, 1, 1) and not in_range(2, 0, 1)
    centre = 40
    assert GEO9.adjacent(centre) == (30, 31, 32, 39, 41, 48, 49, 50)
    assert GEO9.adjacent(0) == (1, 9, 10)
    assert GEO9.adjacent(36) == (27, 28, 37, 45, 46)  # edge field (0, 4)
    assert GEO9.adjacent(80) == (70, 71, 79)
    for i in range(GEO9.size):
        assert GEO9.adjacent(i) == GEO9.in_range_fields(i, 1)


@rules("R10.1")
def test_in_range_fields_cached_and_empty_for_r0() -> None:
    geo = Geometry(open_board(9, 9))
    assert geo.in_range_fields(40, 0) == ()
    assert geo.in_range_fields(40, -1) == ()
    first = geo.in_range_fields(40, 3)
    assert geo.in_range_fields(40, 3) is first


def test_coordinates_on_a_non_square_board() -> None:
    geo = Geometry(open_board(5, 3))
    assert (geo.width, geo.height, geo.size) == (5, 3, 15)
    assert geo.coords[7] == (2, 1) and geo.xs[7] == 2 and geo.ys[7] == 1
    assert geo.index(4, 2) == 14
    assert geo.index(5, 0) is None and geo.index(0, 3) is None and geo.index(-1, 0) is None
    # (0, 0) to (4, 2): dx=4, dy=2 -> 4 + 1 = 5.
    assert geo.dist(0, 14) == geo.dist(14, 0) == 5
    assert geo.distances_from(0)[14] == 5


# -- R10.3 movement ----------------------------------------------------------------------------

OPEN7 = Geometry(open_board(7, 7))
ALL_OPEN = [True] * 49

OPEN_MOVE = {
    2: """
        o##....
        ###....
        ##.....
        .......
        .......
        .......
        .......
    """,
    3: """
        o###...
        ####...
        ###....
        ##.....
        .......
        .......
        .......
    """,
}


@rules("R10.3")
@pytest.mark.parametrize("move", [2, 3])
def test_every_second_diagonal_step_costs_two(move: int) -> None:
    got = OPEN7.reach(0, move, ALL_OPEN)
    assert coords(OPEN7, got) == marked(OPEN_MOVE[move])


@rules("R10.3")
def test_diagonal_examples() -> None:
    move2 = OPEN7.reach(0, 2, ALL_OPEN)
    move3 = OPEN7.reach(0, 3, ALL_OPEN)
    i21, i22, i33 = 1 * 7 + 2, 2 * 7 + 2, 3 * 7 + 3
    assert i22 not in move2  # diagonal + diagonal = 1 + 2 = 3 > 2
    assert i21 in move2  # diagonal 1 + orthogonal 1 = 2
    # Cheapest paths to (2, 1): (1,0)->(2,1) and (1,1)->(2,1); the smaller tuple wins.
    assert move2[i21] == (1, 9)
    # (2, 2) costs 3 as (1,1)->(2,2) = 1 + 2, or as (1,0)->(1,1)->(2,2) = 1 + 1 + 1; both are
    # cheapest and (1, 8, 16) < (8, 16), so the three-step path is the one returned.
    assert i22 in move3 and move3[i22] == (1, 8, 16)
    assert OPEN7.path_cost(0, (8, 16)) == OPEN7.path_cost(0, (1, 8, 16)) == 3
    assert i33 not in move3  # 1 + 2 + 1 = 4 > 3
    assert i33 in OPEN7.reach(0, 4, ALL_OPEN)


@rules("R10.3")
def test_diagonal_count_runs_over_the_whole_move() -> None:
    # Orthogonal steps between diagonals do not reset the count.
    start = 0
    assert OPEN7.path_cost(start, [8]) == 1
    assert OPEN7.path_cost(start, [8, 16]) == 3
    assert OPEN7.path_cost(start, [8, 15, 23]) == 4  # diag 1, orth 1, diag 2
    assert OPEN7.path_cost(start, [8, 15, 23, 31]) == 5  # ... diag 2, then diag 1
    assert OPEN7.path_cost(start, [8, 16, 24]) == 4  # 1 + 2 + 1
    with pytest.raises(ValueError):
        OPEN7.path_cost(start, [2])


ROOM = """
    .......
    .~~~~~.
    .X...X.
    .X.S.X.
    .X...X.
    .XXX.X.
    .......
"""
ROOM_BOARD = board_from(ROOM)
ROOM_GEO = Geometry(ROOM_BOARD)
ROOM_START = 3 * 7 + 3

WALKER_REACH = {
    2: """
        .......
        .~~~~~.
        .X###X.
        .X#S#X.
        .X###X.
        .XXX#X.
        .......
    """,
    # (4,6) via (3,4)->(4,5)->(4,6) = 1 + 1 + 1; (3,6) and (5,6) would need a second diagonal
    # (cost 2) after (4,5) was reached diagonally at cost 2, or come from (4,5) at cost 3.
    3: """
        .......
        .~~~~~.
        .X###X.
        .X#S#X.
        .X###X.
        .XXX#X.
        ....#..
    """,
}

# Deep water passable (only blocked fields stop the unit), move 3: the water row opens up.
# (1,1): two diagonals 1 + 2 = 3; (5,1) likewise; (2,0)/(3,0)/(4,0): orth, orth, step = 3;
# (1,0), (5,0), (6,1): range distance 4 already; (0,2) only behind (1,1), reached at cost 3.
WADER_REACH_3 = """
    ..###..
    .#####.
    .X###X.
    .X#S#X.
    .X###X.
    .XXX#X.
    ....#..
"""


def _walker(board: Board) -> list[bool]:
    return [f.terrain is Terrain.PLAIN or f.terrain is Terrain.HIGH_GROUND for f in board.fields]


@rules("R10.3")
@pytest.mark.parametrize("move", [2, 3])
def test_reach_room_with_water_and_blocked(move: int) -> None:
    passable = _walker(ROOM_BOARD)
    got = ROOM_GEO.reach(ROOM_START, move, passable)
    assert coords(ROOM_GEO, got) == marked(WALKER_REACH[move])
    # A predicate gives the same answer as a precomputed sequence.
    pred: Callable[[int], bool] = passable.__getitem__
    assert ROOM_GEO.reach(ROOM_START, move, pred) == got


@rules("R10.3")
def test_reach_room_deep_water_passable() -> None:
    def wader(i: int) -> bool:
        return ROOM_BOARD.fields[i].terrain is not Terrain.BLOCKED

    got = ROOM_GEO.reach(ROOM_START, 3, wader)
    assert coords(ROOM_GEO, got) == marked(WADER_REACH_3)


@rules("R10.3")
def test_paths_are_cheapest_and_lexicographically_smallest() -> None:
    got = ROOM_GEO.reach(ROOM_START, 3, _walker(ROOM_BOARD))
    # The exit (4,5) = 39: (3,4)=31 then diagonal, or (4,4)=32 then orthogonal; both cost 2.
    assert got[39] == (31, 39)
    assert got[46] == (31, 39, 46)
    # Neighbours of the start are reached in one step.
    for j in ROOM_GEO.adjacent(ROOM_START):
        assert got[j] == (j,)
    assert ROOM_START not in got
    for dest, path in got.items():
        assert path[-1] == dest
        assert ROOM_GEO.path_cost(ROOM_START, path) <= 3
    costs = [ROOM_GEO.path_cost(ROOM_START, p) for p in got.values()]
    assert costs == sorted(costs)


@rules("R10.3")
def test_no_move_or_boxed_in() -> None:
    assert ROOM_GEO.reach(ROOM_START, 0, _walker(ROOM_BOARD)) == {}
    assert OPEN7.reach(24, 5, [i == 24 for i in range(49)]) == {}
    # The start field itself need not be passable.
    assert OPEN7.reach(0, 1, [i != 0 for i in range(49)]) == {1: (1,), 7: (7,), 8: (8,)}


@rules("R10.3")
@pytest.mark.parametrize("start", [0, 3, 24, 45])
def test_open_board_cost_equals_range_distance(start: int) -> None:
    for move in range(1, 7):
        got = OPEN7.reach(start, move, ALL_OPEN)
        assert set(got) == set(OPEN7.in_range_fields(start, move))
        for dest, path in got.items():
            assert OPEN7.path_cost(start, path) == OPEN7.dist(start, dest)


def _brute_force(
    geo: Geometry, start: int, move: int, passable: list[bool]
) -> dict[int, tuple[int, tuple[int, ...]]]:
    """Every simple walk with cost <= move; per destination the smallest (cost, path)."""
    best: dict[int, tuple[int, tuple[int, ...]]] = {}

    def walk(field: int, cost: int, parity: int, path: tuple[int, ...]) -> None:
        fx, fy = geo.coords[field]
        for nxt in geo.adjacent(field):
            if nxt == start or nxt in path or not passable[nxt]:
                continue
            nx, ny = geo.coords[nxt]
            diagonal = nx != fx and ny != fy
            ncost = cost + (1 + parity if diagonal else 1)
            if ncost > move:
                continue
            npath = (*path, nxt)
            if nxt not in best or (ncost, npath) < best[nxt]:
                best[nxt] = (ncost, npath)
            walk(nxt, ncost, parity ^ 1 if diagonal else parity, npath)

    walk(start, 0, 0, ())
    return best


@rules("R10.3")
def test_matches_brute_force_on_random_maps() -> None:
    rng = random.Random(20240610)
    for _ in range(150):
        width, height = rng.randint(3, 7), rng.randint(3, 7)
        geo = Geometry(open_board(width, height))
        passable = [rng.random() < 0.75 for _ in range(geo.size)]
        start = rng.randrange(geo.size)
        move = rng.randint(1, 4)
        got = geo.reach(start, move, passable)
        expected = _brute_force(geo, start, move, passable)
        assert got == {dest: path for dest, (_, path) in expected.items()}


# -- R14.2 / R21.9 push lines ------------------------------------------------------------------


def _i(x: int, y: int) -> int:
    i = GEO9.index(x, y)
    assert i is not None
    return i


@rules("R21.9")
def test_push_straight() -> None:
    assert GEO9.push_step(_i(4, 4), _i(5, 4)) == _i(6, 4)
    assert GEO9.push_step(_i(4, 4), _i(4, 2)) == _i(4, 1)
    assert GEO9.push_step(_i(2, 4), _i(4, 4)) == _i(5, 4)  # from further away, same line


@rules("R21.9")
def test_push_diagonal() -> None:
    assert GEO9.push_step(_i(4, 4), _i(5, 5)) == _i(6, 6)
    assert GEO9.push_step(_i(4, 4), _i(3, 5)) == _i(2, 6)


@rules("R21.9")
def test_push_off_axis() -> None:
    # dx=2, dy=1: the step is (sign 2, sign 1) = (1, 1).
    assert GEO9.push_step(_i(0, 0), _i(2, 1)) == _i(3, 2)
    # Push 2: the second step is again taken from the origin: (3,2)-(0,0) -> (1,1).
    assert GEO9.push_step(_i(0, 0), _i(3, 2)) == _i(4, 3)
    assert GEO9.push_step(_i(4, 4), _i(2, 5)) == _i(1, 6)  # dx=-2, dy=1 -> (-1, 1)


@rules("R21.9")
def test_push_edge_stops() -> None:
    assert GEO9.push_step(_i(4, 4), _i(8, 4)) is None
    assert GEO9.push_step(_i(4, 4), _i(4, 0)) is None
    assert GEO9.push_step(_i(7, 4), _i(8, 5)) is None  # diagonal off the right edge
    assert GEO9.push_step(_i(0, 1), _i(1, 0)) is None  # (1, -1) leaves the top edge
    assert GEO9.push_step(_i(4, 4), _i(4, 4)) is None
