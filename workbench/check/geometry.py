"""The referee's own reading of range and movement (R10.1, R10.2, R10.3, R21.17).

Written from RULES.md, not taken from `engine.geometry`: a second implementation is the point of
a referee. Fields are (x, y) pairs; `Grid` turns the board's field indices into them.
"""

from __future__ import annotations

from collections.abc import Callable


def in_range(dx: int, dy: int, r: int) -> bool:
    """R10.1 with R21.17: |x| > |y| -> |x| + floor(|y|/2) <= r, else |y| + floor(|x|/2) <= r."""
    ax, ay = abs(dx), abs(dy)
    if ax > ay:
        return ax + ay // 2 <= r
    return ay + ax // 2 <= r


def distance(dx: int, dy: int) -> int:
    """The smallest r with `in_range(dx, dy, r)` (every radius below it is tried)."""
    r = 0
    while not in_range(dx, dy, r):
        r += 1
    return r


class Grid:
    """A board's fields as coordinates, with distances kept once computed."""

    __slots__ = ("_dist", "height", "width")

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height
        self._dist: dict[tuple[int, int], int] = {}

    def xy(self, field: int) -> tuple[int, int]:
        return field % self.width, field // self.width

    def field(self, x: int, y: int) -> int:
        return y * self.width + x

    def on_board(self, x: int, y: int) -> bool:
        return 0 <= x < self.width and 0 <= y < self.height

    def dist(self, a: int, b: int) -> int:
        """Range distance between two fields (R10.1)."""
        key = (a, b) if a <= b else (b, a)
        d = self._dist.get(key)
        if d is None:
            d = self._dist[key] = distance(
                b % self.width - a % self.width, b // self.width - a // self.width
            )
        return d

    def adjacent(self, a: int, b: int) -> bool:
        """R10.1: adjacent means in range 1 (and not the same field)."""
        return a != b and self.dist(a, b) <= 1

    def neighbours(self, a: int) -> list[int]:
        x, y = self.xy(a)
        return [
            self.field(nx, ny)
            for ny in (y - 1, y, y + 1)
            for nx in (x - 1, x, x + 1)
            if (nx, ny) != (x, y) and self.on_board(nx, ny)
        ]

    def path_cost(self, start: int, path: list[int]) -> int | None:
        """R10.3: orthogonal steps cost 1, the move's diagonal steps 1, 2, 1, 2 ... in turn;
        None if a step is not to an adjacent field (R10.2)."""
        cost, diagonals, here = 0, 0, start
        for f in path:
            if not self.adjacent(here, f):
                return None
            if f % self.width != here % self.width and f // self.width != here // self.width:
                diagonals += 1
                cost += 2 if diagonals % 2 == 0 else 1
            else:
                cost += 1
            here = f
        return cost

    def cheapest(
        self, start: int, goal: int, passable: Callable[[int], bool], limit: int
    ) -> int | None:
        """The cheapest R10.3 cost from `start` to `goal` within `limit`, stepping only on
        passable fields on the way (the goal itself is the caller's to judge); None if out of
        reach. States are (field, diagonal steps so far are odd), taken in order of cost."""
        best: dict[tuple[int, int], int] = {(start, 0): 0}
        buckets: list[list[tuple[int, int]]] = [[] for _ in range(limit + 3)]
        buckets[0].append((start, 0))
        found: int | None = None
        for cost in range(limit + 1):
            if found is not None and found <= cost:
                break
            for here, odd in buckets[cost]:
                if best[(here, odd)] != cost:
                    continue
                hx, hy = self.xy(here)
                for f in self.neighbours(here):
                    diagonal = f % self.width != hx and f // self.width != hy
                    new = cost + (2 if diagonal and odd else 1)
                    if new > limit:
                        continue
                    if f == goal:
                        found = new if found is None else min(found, new)
                        continue
                    state = (f, odd ^ 1 if diagonal else odd)
                    if best.get(state, limit + 1) <= new or not passable(f):
                        continue
                    best[state] = new
                    buckets[new].append(state)
        return found
