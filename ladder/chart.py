"""The geometry of a rating-history chart, drawn as inline SVG by the profile template.

Pure and server-side: the page needs no charting JavaScript. One point per rated match, spaced
evenly in the order the matches ended, on a vertical scale of round rating values.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

WIDTH = 480
HEIGHT = 180
LEFT = 48  # room for the scale's labels
RIGHT = 12
TOP = 12
BOTTOM = 12
STEPS = (5, 10, 20, 25, 50, 100, 200, 250, 500, 1000)  # rating values between grid lines
MAX_LINES = 5


@dataclass(frozen=True)
class Point:
    x: float
    y: float
    value: int
    label: str


@dataclass(frozen=True)
class GridLine:
    y: float
    value: int


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    left: int
    right_edge: int
    points: list[Point]
    grid: list[GridLine]

    @property
    def polyline(self) -> str:
        return " ".join(f"{point.x:.1f},{point.y:.1f}" for point in self.points)


def history_chart(values: Sequence[int], labels: Sequence[str]) -> Chart | None:
    """The chart of these ratings (after each match, oldest first); None without a match.

    ``labels[i]`` names point i for a reader (a tooltip and the accessible text)."""
    if not values:
        return None
    if len(labels) != len(values):
        raise ValueError("One label per point.")
    step = next(
        (s for s in STEPS if _span(values, s)[1] - _span(values, s)[0] <= s * (MAX_LINES - 1)),
        STEPS[-1],
    )
    low, high = _span(values, step)
    plot_width = WIDTH - LEFT - RIGHT
    plot_height = HEIGHT - TOP - BOTTOM

    def y_of(value: float) -> float:
        return TOP + plot_height * (high - value) / (high - low)

    def x_of(index: int) -> float:
        if len(values) == 1:
            return LEFT + plot_width / 2
        return LEFT + plot_width * index / (len(values) - 1)

    points = [
        Point(x=x_of(i), y=y_of(value), value=value, label=label)
        for i, (value, label) in enumerate(zip(values, labels, strict=True))
    ]
    grid = [GridLine(y=y_of(v), value=v) for v in range(low, high + 1, step)]
    return Chart(
        width=WIDTH, height=HEIGHT, left=LEFT, right_edge=WIDTH - RIGHT, points=points, grid=grid
    )


def _span(values: Sequence[int], step: int) -> tuple[int, int]:
    """The lowest and highest grid values around the data: at least one step apart."""
    low = math.floor(min(values) / step) * step
    high = math.ceil(max(values) / step) * step
    if high == low:
        low, high = low - step, high + step
    return low, high
