"""The geometry of a small line chart, drawn as inline SVG by a template (the rating history on a
profile, the review's expected standing on a match page).

Pure and server-side: the pages need no charting JavaScript. Points are spaced evenly in their
order, every line on the same vertical scale of round values (grid lines at a multiple of one of
``steps``, the smallest that needs at most ``MAX_LINES`` of them).
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
MAX_LINES = 5


@dataclass(frozen=True)
class Point:
    x: float
    y: float
    value: float
    label: str
    mark: str = ""  # a class for a point the chart calls out ("" for none)


@dataclass(frozen=True)
class GridLine:
    y: float
    value: int


@dataclass(frozen=True)
class Line:
    points: list[Point]

    @property
    def polyline(self) -> str:
        return " ".join(f"{point.x:.1f},{point.y:.1f}" for point in self.points)


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    left: int
    right_edge: int
    lines: list[Line]
    grid: list[GridLine]

    @property
    def points(self) -> list[Point]:
        """The first line's points (the one a reader follows)."""
        return self.lines[0].points

    @property
    def polyline(self) -> str:
        return self.lines[0].polyline


def line_chart(
    lines: Sequence[Sequence[float]],
    labels: Sequence[str],
    *,
    steps: Sequence[int],
    marks: Sequence[str] | None = None,
) -> Chart | None:
    """The chart of these lines (values oldest first, all as long as ``labels``); None when
    there is no point. ``labels[i]`` names point i for a reader (a tooltip and the accessible
    text) and ``marks[i]`` calls it out on the first line."""
    count = len(labels)
    if not count:
        return None
    if any(len(values) != count for values in lines) or (marks and len(marks) != count):
        raise ValueError("One label (and mark) per point of every line.")
    every = [value for values in lines for value in values]
    step = next(
        (s for s in steps if _span(every, s)[1] - _span(every, s)[0] <= s * (MAX_LINES - 1)),
        steps[-1],
    )
    low, high = _span(every, step)
    plot_width = WIDTH - LEFT - RIGHT
    plot_height = HEIGHT - TOP - BOTTOM

    def y_of(value: float) -> float:
        return TOP + plot_height * (high - value) / (high - low)

    def x_of(index: int) -> float:
        if count == 1:
            return LEFT + plot_width / 2
        return LEFT + plot_width * index / (count - 1)

    drawn = [
        Line(
            [
                Point(
                    x=x_of(i),
                    y=y_of(value),
                    value=value,
                    label=labels[i],
                    mark=marks[i] if marks and not number else "",
                )
                for i, value in enumerate(values)
            ]
        )
        for number, values in enumerate(lines)
    ]
    grid = [GridLine(y=y_of(v), value=v) for v in range(low, high + 1, step)]
    return Chart(
        width=WIDTH, height=HEIGHT, left=LEFT, right_edge=WIDTH - RIGHT, lines=drawn, grid=grid
    )


def _span(values: Sequence[float], step: int) -> tuple[int, int]:
    """The lowest and highest grid values around the data: at least one step apart."""
    low = math.floor(min(values) / step) * step
    high = math.ceil(max(values) / step) * step
    if high == low:
        low, high = low - step, high + step
    return low, high
