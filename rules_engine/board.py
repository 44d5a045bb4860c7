"""Battlefield geometry: zone names, neighbour tables and facings, precomputed once per board size.

Zones are numbered `(row - 1) * width + column` (0-based column), so "a1" is 0. Facings are
0..3 for N, E, S, W; turning by one step is a 90 degree rotation.
"""
from __future__ import annotations

import re
from functools import lru_cache

FACINGS = ("N", "E", "S", "W")
FACING_INDEX = {name: index for index, name in enumerate(FACINGS)}
_DELTAS = ((0, 1), (1, 0), (0, -1), (-1, 0))
MAX_SIDE = 26
DEFAULT_SIDE = 7  # R109: a board side the log leaves out
ZONE_PATTERN = re.compile(r"^([a-z])([1-9][0-9]?)$")
NO_ZONE = -1
_TURN_STEPS = (0, 1, 2, 1)


def turn_cost(facing_from: int, facing_to: int) -> int:
    """90 degree steps between two facings: 1 for a quarter turn, 2 for a reversal."""
    return _TURN_STEPS[(facing_to - facing_from) % 4]


class Board:
    """Immutable geometry of one `width` x `height` battlefield; share it, never copy it."""

    __slots__ = ("width", "height", "size", "names", "index", "neighbours", "adjacent", "on_edge",
                 "rows", "columns", "deployment_rows", "home_rows")

    def __init__(self, width: int, height: int):
        if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE):
            raise ValueError(f"board sides must be 1..{MAX_SIDE}")
        self.width = width
        self.height = height
        self.size = width * height
        self.rows = tuple(zone // width + 1 for zone in range(self.size))
        self.columns = tuple(zone % width for zone in range(self.size))
        self.names = tuple(f"{chr(97 + self.columns[z])}{self.rows[z]}" for z in range(self.size))
        self.index = {name: zone for zone, name in enumerate(self.names)}
        neighbours = []
        for zone in range(self.size):
            column, row = self.columns[zone], self.rows[zone] - 1
            around = []
            for dx, dy in _DELTAS:
                x, y = column + dx, row + dy
                around.append(y * width + x if 0 <= x < width and 0 <= y < height else NO_ZONE)
            neighbours.append(tuple(around))
        self.neighbours = tuple(neighbours)
        self.adjacent = tuple(tuple(z for z in around if z != NO_ZONE) for around in neighbours)
        self.on_edge = tuple(NO_ZONE in around for around in neighbours)
        depth = (height - 1) // 2
        # Player-1's rows are 1..depth, Player-2's the `depth` rows nearest row `height`.
        self.deployment_rows = (frozenset(range(1, depth + 1)),
                                frozenset(range(height - depth + 1, height + 1)))
        self.home_rows = (1, height)

    def zone(self, name: str) -> int | None:
        """The zone numbered by `name`, or None when it is not on this battlefield."""
        return self.index.get(name)

    def direction(self, from_zone: int, to_zone: int) -> int | None:
        """The facing that leads from one zone to an adjacent one."""
        around = self.neighbours[from_zone]
        for facing in range(4):
            if around[facing] == to_zone:
                return facing
        return None

    def zones_in_row(self, row: int) -> range:
        start = (row - 1) * self.width
        return range(start, start + self.width)

    def __repr__(self) -> str:
        return f"Board({self.width} x {self.height})"


@lru_cache(maxsize=64)
def board_for(width: int, height: int) -> Board:
    return Board(width, height)


def is_zone_name(text: str) -> bool:
    return bool(ZONE_PATTERN.match(text))
