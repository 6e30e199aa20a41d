"""core/chart.py: the lines of a chart share one scale of round values, points spaced evenly."""

from __future__ import annotations

import pytest

from core.chart import BOTTOM, HEIGHT, TOP, line_chart

STEPS = (1, 2, 5, 10)


def test_every_line_shares_the_scale_and_the_grid_is_round():
    chart = line_chart([[0, 3, -2], [1, 7, 4]], ["a", "b", "c"], steps=STEPS)
    assert chart is not None
    values = [line.value for line in chart.grid]
    assert values == [-5, 0, 5, 10]  # the smallest step with at most five lines around -2…7
    top, bottom = chart.grid[-1].y, chart.grid[0].y
    assert (top, bottom) == (TOP, HEIGHT - BOTTOM)
    taken, best = chart.lines
    assert taken.points[1].y > best.points[1].y  # 3 is drawn below 7
    assert [p.x for p in taken.points] == [p.x for p in best.points]
    assert taken.points[0].x == chart.left and taken.points[-1].x == chart.right_edge


def test_marks_call_out_points_of_the_first_line_only():
    chart = line_chart([[1, 2], [2, 2]], ["a", "b"], steps=STEPS, marks=["", "blunder"])
    assert chart is not None
    assert [p.mark for p in chart.points] == ["", "blunder"]
    assert [p.mark for p in chart.lines[1].points] == ["", ""]


def test_one_point_is_centred_and_no_point_is_no_chart():
    chart = line_chart([[4]], ["only"], steps=STEPS)
    assert chart is not None and chart.points[0].x == (chart.left + chart.right_edge) / 2
    assert [line.value for line in chart.grid] == [3, 4, 5]
    assert line_chart([[]], [], steps=STEPS) is None
    with pytest.raises(ValueError):
        line_chart([[1, 2], [1]], ["a", "b"], steps=STEPS)
