"""Board geometry: range, distance, adjacency, movement and push lines (R10, R14, R21.9, R21.17).

Pure and I/O-free; on the engine's hot path, so everything a board allows is precomputed once
in `Geometry(board)` and kept as plain ints, lists and tuples. Fields are named by their index
`y * width + x` (see `engine.board`); offsets (dx, dy) are "target minus origin".

Range (R10.1, read with R21.17): with ax = |dx| and ay = |dy|, an offset is in range r when
`ax + ay // 2 <= r` if ax > ay, else `ay + ax // 2 <= r` -- every second diagonal step counts
double. The *range distance* is the smallest such r. Adjacent means in range 1, which is the
8-neighbourhood (a diagonal neighbour has distance 1 + 0 // 2 = 1).

Movement (R10.3): steps go to adjacent fields (R10.2); an orthogonal step costs 1; the diagonal
steps of one move cost 1, 2, 1, 2, ... in turn. On an open board the cheapest move to a field
therefore costs exactly its range distance.

Not handled here, by design: which fields are *available* to a unit (R9.5) and where it may
*end* a move (free field vs crew stack, R12.9) -- callers pass a `passable` predicate and filter
destinations; the +1 range of high ground (R12.12) -- callers ask for `in_range_fields(i, r + 1)`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeAlias

from engine.board import Board

__all__ = ["Geometry", "Passable", "distance", "geometry_of", "in_range"]

Passable: TypeAlias = Callable[[int], bool] | Sequence[bool]
"""Which fields a moving unit may step on: a predicate on field indices, or a sequence of
booleans indexed by field (e.g. a list built once per unit kind and board)."""


def in_range(dx: int, dy: int, r: int) -> bool:
    """Whether offset (dx, dy) lies within range `r` of its origin (R10.1 read as in R21.17)."""
    ax = dx if dx >= 0 else -dx
    ay = dy if dy >= 0 else -dy
    if ax > ay:
        return ax + (ay >> 1) <= r
    return ay + (ax >> 1) <= r


def distance(dx: int, dy: int) -> int:
    """Range distance of offset (dx, dy): the smallest r with `in_range(dx, dy, r)`.

    Used for "nearest"/"farthest" in the AI behaviours (R20) and for the distance d at which a
    stack deals its damage (R12.7, R12.11).
    """
    ax = dx if dx >= 0 else -dx
    ay = dy if dy >= 0 else -dy
    if ax > ay:
        return ax + (ay >> 1)
    return ay + (ax >> 1)


class Geometry:
    """Precomputed geometry of one board; build once per `Board` and share it.

    Attributes (read-only by convention):
      width, height, size -- board dimensions and field count.
      xs, ys              -- per field index its x and its y.
      coords              -- per field index its (x, y).
      neighbours          -- per field index its adjacent fields (range 1), ascending.
      grants_actions      -- whether a field grants free actions (R9.3): most boards have
                             none, and legal actions need not look for them then.
    """

    __slots__ = (
        "width",
        "height",
        "size",
        "xs",
        "ys",
        "coords",
        "neighbours",
        "grants_actions",
        "_dist",
        "_moves",
        "_range_cache",
    )

    def __init__(self, board: Board) -> None:
        width, height = board.width, board.height
        if width <= 0 or height <= 0:
            raise ValueError(f"board {board.name!r} has no fields ({width}x{height})")
        if len(board.fields) != width * height:
            raise ValueError(
                f"board {board.name!r}: {len(board.fields)} fields for {width}x{height}"
            )
        self.width: int = width
        self.height: int = height
        size = width * height
        self.size: int = size
        self.xs: tuple[int, ...] = tuple(i % width for i in range(size))
        self.ys: tuple[int, ...] = tuple(i // width for i in range(size))
        self.coords: tuple[tuple[int, int], ...] = tuple(
            (i % width, i // width) for i in range(size)
        )
        # Range distance between every pair of fields: one list lookup pair per query, about
        # twice as fast as computing it inline from the coordinates (size**2 ints: 10k for a
        # 10x10 board, 160k for 20x20).
        xs, ys = self.xs, self.ys
        dist: list[list[int]] = []
        for a in range(size):
            ax0, ay0 = xs[a], ys[a]
            dist.append([distance(xs[b] - ax0, ys[b] - ay0) for b in range(size)])
        self._dist: list[list[int]] = dist
        # Per field its steps: (neighbour, is_diagonal), neighbours ascending.
        steps: list[tuple[tuple[int, bool], ...]] = []
        for i in range(size):
            x, y = xs[i], ys[i]
            row: list[tuple[int, bool]] = []
            for ny in (y - 1, y, y + 1):
                if not 0 <= ny < height:
                    continue
                for nx in (x - 1, x, x + 1):
                    if (nx, ny) != (x, y) and 0 <= nx < width:
                        row.append((ny * width + nx, nx != x and ny != y))
            steps.append(tuple(row))
        # The same steps per search state `2 * field + parity` (see `reach`), neighbours still
        # ascending: (neighbour, the step's cost, the state it leads to).
        self._moves: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(
            tuple(
                (j, 1 + parity, 2 * j + 1 - parity) if diagonal else (j, 1, 2 * j + parity)
                for j, diagonal in steps[state >> 1]
            )
            for state in range(2 * size)
            for parity in (state & 1,)
        )
        self.neighbours: tuple[tuple[int, ...], ...] = tuple(
            tuple(j for j, _ in row) for row in steps
        )
        self.grants_actions: bool = any(f.actions for f in board.fields)
        self._range_cache: dict[tuple[int, int], tuple[int, ...]] = {}

    # -- coordinates ---------------------------------------------------------------------------

    def index(self, x: int, y: int) -> int | None:
        """Field index of (x, y), or None when off the board."""
        if 0 <= x < self.width and 0 <= y < self.height:
            return y * self.width + x
        return None

    # -- range ---------------------------------------------------------------------------------

    def dist(self, a: int, b: int) -> int:
        """Range distance between fields `a` and `b` (R10.1); 0 when a == b."""
        return self._dist[a][b]

    def distances_from(self, a: int) -> list[int]:
        """Range distance from `a` to every field, indexed by field. Do not mutate."""
        return self._dist[a]

    def within(self, a: int, b: int, r: int) -> bool:
        """Whether field `b` is in range `r` of field `a` (a field is in range 0 of itself)."""
        return self._dist[a][b] <= r

    def in_range_fields(self, i: int, r: int) -> tuple[int, ...]:
        """All fields in range `r` of field `i`, excluding `i` itself, ascending (cached)."""
        key = (i, r)
        hit = self._range_cache.get(key)
        if hit is not None:
            return hit
        row = self._dist[i]
        if r <= 0:
            result: tuple[int, ...] = ()
        else:
            # Everything in range r lies within the (2r+1)-square; scan only that, row by row,
            # which keeps the result ascending.
            x, y, w = self.xs[i], self.ys[i], self.width
            x0, x1 = max(0, x - r), min(w - 1, x + r)
            found: list[int] = []
            for ny in range(max(0, y - r), min(self.height - 1, y + r) + 1):
                base = ny * w
                for j in range(base + x0, base + x1 + 1):
                    if j != i and row[j] <= r:
                        found.append(j)
            result = tuple(found)
        self._range_cache[key] = result
        return result

    def adjacent(self, i: int) -> tuple[int, ...]:
        """The fields adjacent to `i` (range 1, R10.1): the 8-neighbourhood, ascending."""
        return self.neighbours[i]

    # -- movement ------------------------------------------------------------------------------

    def reach(self, start: int, move: int, passable: Passable) -> dict[int, tuple[int, ...]]:
        """Every field a unit on `start` with movement `move` can step to, with a cheapest path.

        R10.3: each step goes to an adjacent field, which must be passable; orthogonal steps cost
        1; the diagonal steps of the move cost 1, 2, 1, 2, ... in turn; the total is at most
        `move`. The search runs over (field, parity of diagonal steps so far), bucketed by cost.

        Returns {destination: path}, `start` excluded, the path excluding `start` and ending at
        the destination. Every passable reachable field is listed; which of them the unit may
        end on (free field, crew stack) is the caller's business. Among the cheapest paths the
        lexicographically smallest tuple of field indices is returned, so results are
        reproducible. The dict lists destinations in order of increasing cost.

        A state is 2 * field + parity; parity 1 means the next diagonal step costs 2. Costs are
        small ints, so instead of a heap keep one bucket per cost, {state: smallest path}.
        Processing the buckets in cost order finalises each state with its cheapest path, and
        among those the lexicographically smallest (prefixes of such paths are themselves
        cheapest-then-smallest, so keeping only the best path per state is exact); each field
        takes its cheapest state's path (the smaller path on a tie).
        """
        if move <= 0:
            return {}
        ok: Sequence[bool] | _Checked = _Checked(passable) if callable(passable) else passable
        moves = self._moves
        done: set[int] = {2 * start, 2 * start + 1}
        buckets: list[dict[int, tuple[int, ...]]] = [{} for _ in range(move + 1)]
        buckets[0][2 * start] = ()
        result: dict[int, tuple[int, ...]] = {}
        result_cost: dict[int, int] = {}
        for cost in range(move + 1):
            bucket = buckets[cost]
            for state, path in bucket.items():
                if cost:
                    if state in done:
                        continue
                    field = state >> 1
                    seen = result_cost.get(field)
                    if seen is None:
                        result[field] = path
                        result_cost[field] = cost
                    elif seen == cost and path < result[field]:
                        result[field] = path
                    if cost == move:
                        continue  # every step costs at least 1
                for nxt, step, nstate in moves[state]:
                    ncost = cost + step
                    if ncost > move or nstate in done or not ok[nxt]:
                        continue
                    candidate = path + (nxt,)  # noqa: RUF005 - twice as fast as (*path, nxt)
                    target = buckets[ncost]
                    old = target.get(nstate)
                    if old is None or candidate < old:
                        target[nstate] = candidate
            done.update(bucket)
        return result

    def path_cost(self, start: int, path: Sequence[int]) -> int:
        """Movement cost of walking `path` from `start` (R10.3); steps must be adjacent."""
        cost = 0
        parity = 0
        prev = start
        width = self.width
        for f in path:
            dx = f % width - prev % width
            dy = f // width - prev // width
            if (dx == 0 and dy == 0) or not (-1 <= dx <= 1 and -1 <= dy <= 1):
                raise ValueError(f"{prev} -> {f} is not a step")
            if dx and dy:
                cost += 1 + parity
                parity ^= 1
            else:
                cost += 1
            prev = f
        return cost

    # -- push ----------------------------------------------------------------------------------

    def push_step(self, origin: int, current: int) -> int | None:
        """The field a permanent on `current` is pushed onto, away from `origin` (R14.2, R21.9).

        One step of (sign dx, sign dy) with (dx, dy) = current - origin. None when the step
        would leave the board (the edge stops the push without damage) or origin == current.
        Repeat with the new field for Push X; blocking and destruction (R14.3, R14.4) are the
        caller's business.
        """
        xs, ys = self.xs, self.ys
        cx, cy = xs[current], ys[current]
        dx = cx - xs[origin]
        dy = cy - ys[origin]
        nx = cx + (dx > 0) - (dx < 0)
        ny = cy + (dy > 0) - (dy < 0)
        if (dx == 0 and dy == 0) or not (0 <= nx < self.width and 0 <= ny < self.height):
            return None
        return ny * self.width + nx


def geometry_of(board: Board) -> Geometry:
    """The geometry of `board`, one per board content: the configs of an A/B's two sides, or
    of a job unpickled again, share it and the answers kept for it (`behaviours._REACH`)."""
    geo = _GEOMETRIES.get(board)
    if geo is None:
        if len(_GEOMETRIES) >= KEPT_GEOMETRIES:
            del _GEOMETRIES[next(iter(_GEOMETRIES))]
        geo = _GEOMETRIES[board] = Geometry(board)
    return geo


KEPT_GEOMETRIES = 16
"""Boards whose geometry is kept, the oldest dropped first, so a fuzz run's thousands of boards
do not all stay in memory (a plain bounded table: a compiled Geometry has no weak references,
docs/compiled.md)."""
_GEOMETRIES: dict[Board, Geometry] = {}
"""The geometries in use by their boards, in the order they were built."""


class _Checked(dict[int, bool]):
    """A passable predicate asked at most once per field, indexed like a sequence."""

    __slots__ = ("passable",)

    def __init__(self, passable: Callable[[int], bool]) -> None:
        super().__init__()
        self.passable = passable

    def __missing__(self, field: int) -> bool:
        good = self[field] = bool(self.passable(field))
        return good
