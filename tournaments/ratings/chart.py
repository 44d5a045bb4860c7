"""A general's rating history as an inline SVG chart drawn on the server (no script, no style
attribute: the Content-Security-Policy forbids both): the rating as a line over the weeks, a band of
one deviation either side, the axes' labels. Plain arithmetic on (week, rating, deviation) triples,
so the coordinates are tested without a page; the template `partials/rating_history.html` draws them.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

WIDTH, HEIGHT = 360, 180
LEFT, RIGHT, TOP, BOTTOM = 44, 12, 10, 26  # room for the axes' labels


@dataclass(frozen=True)
class Tick:
    at: float  # x or y in the chart's coordinates
    label: str


@dataclass(frozen=True)
class Dot:
    x: float
    y: float
    label: str  # what a pointer's tooltip says


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    line: str  # the rating: an SVG path
    band: str  # rating +/- deviation: a closed SVG path
    dots: tuple[Dot, ...]
    y_ticks: tuple[Tick, ...]
    x_ticks: tuple[Tick, ...]
    plot_left: int
    plot_right: int
    plot_top: int
    plot_bottom: int


def week_label(day: date) -> str:
    return f"{day.day} {day:%b} {day.year}"


def _step(span: float) -> int:
    """A round distance between the rating axis's lines: about four lines over the span."""
    for step in (25, 50, 100, 200, 250, 500):
        if span / step <= 5:
            return step
    return 1000


def _number(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def rating_chart(points: Sequence[tuple[date, float, float]], width: int = WIDTH, height: int = HEIGHT) -> Chart | None:
    """The chart of (week, rating, deviation) points, oldest first; None without points."""
    if not points:
        return None
    left, right, top, bottom = LEFT, width - RIGHT, TOP, height - BOTTOM
    low = min(rating - deviation for _, rating, deviation in points)
    high = max(rating + deviation for _, rating, deviation in points)
    step = _step(high - low)
    low, high = math.floor(low / step) * step, math.ceil(high / step) * step
    if high == low:
        high = low + step
    first, last = points[0][0], points[-1][0]
    days = (last - first).days

    def x(day: date) -> float:
        if not days:
            return (left + right) / 2
        return left + (right - left) * (day - first).days / days

    def y(value: float) -> float:
        return bottom - (bottom - top) * (value - low) / (high - low)

    line = " ".join(f"{'M' if i == 0 else 'L'}{_number(x(day))},{_number(y(rating))}"
                    for i, (day, rating, _) in enumerate(points))
    upper = [f"{_number(x(day))},{_number(y(rating + deviation))}" for day, rating, deviation in points]
    lower = [f"{_number(x(day))},{_number(y(rating - deviation))}" for day, rating, deviation in reversed(points)]
    if len(points) == 1:  # one week: a short bar rather than a band of no width
        (day, rating, deviation), = points
        upper = [f"{_number(x(day) - 3)},{_number(y(rating + deviation))}",
                 f"{_number(x(day) + 3)},{_number(y(rating + deviation))}"]
        lower = [f"{_number(x(day) + 3)},{_number(y(rating - deviation))}",
                 f"{_number(x(day) - 3)},{_number(y(rating - deviation))}"]
    band = "M" + " L".join(upper + lower) + " Z"
    dots = tuple(Dot(x=round(x(day), 1), y=round(y(rating), 1),
                     label=f"Week of {week_label(day)}: {rating:.0f} ± {deviation:.0f}")
                 for day, rating, deviation in points)
    y_ticks = tuple(Tick(at=round(y(value), 1), label=str(value)) for value in range(int(low), int(high) + 1, step))
    x_ticks = (Tick(at=round(x(first), 1), label=week_label(first)),)
    if days:
        x_ticks += (Tick(at=round(x(last), 1), label=week_label(last)),)
    return Chart(width=width, height=height, line=line, band=band, dots=dots, y_ticks=y_ticks, x_ticks=x_ticks,
                 plot_left=left, plot_right=right, plot_top=top, plot_bottom=bottom)
