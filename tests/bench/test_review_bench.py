"""bench/review.py: every kind is reviewed on the same hands of each seed (the same deals), and
the review's cost is printed."""

from __future__ import annotations

import re

from bench import review


def test_every_kind_is_reviewed_over_the_same_hands_and_the_cost_is_printed(capsys):
    review.report(matches=2, worlds=2, strong_worlds=1, cost_matches=1)
    out = capsys.readouterr().out
    common = re.search(r"on 2 seeds, (\d+) hands every kind played", out)
    assert common, out
    for kind in ("random", "easy", "strong"):
        line = re.search(
            rf"review of {kind}: \d+ marks \(\d+ mistakes, \d+ blunders\) in (\d+) hands", out
        )
        assert line and line.group(1) == common.group(1), out
    cost = re.search(r"2 seats, CPU per seat mean ([\d.]+) s", out)
    assert cost and float(cost.group(1)) > 0, out
