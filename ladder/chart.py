"""The rating-history chart on a profile: one point per rated match, in the order the matches
ended, on a scale of round rating values (``core.chart`` draws it)."""

from __future__ import annotations

from collections.abc import Sequence

from core.chart import Chart, line_chart

STEPS = (5, 10, 20, 25, 50, 100, 200, 250, 500, 1000)  # rating values between grid lines


def history_chart(values: Sequence[int], labels: Sequence[str]) -> Chart | None:
    """The chart of these ratings (after each match, oldest first); None without a match.

    ``labels[i]`` names point i for a reader (a tooltip and the accessible text)."""
    return line_chart([values], labels, steps=STEPS)
