"""bench/move_cost.py: the move service alone, through the real service and database, and its
figures printed. Nothing here is timed: the figures are the bench's to report."""

from __future__ import annotations

import pytest

from bench import move_cost
from games.models import Match

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_the_move_cost_bench_plays_real_moves_and_measures_each_part():
    figures = move_cost.measure(tables=2, rounds=2)
    assert figures["moves"] == 4  # two tables, two measured rounds after the warm-up one
    assert figures["service_ms"] > 0 and figures["round_trip_ms"] > 0
    assert figures["engine_ms"] >= 0
    # Each table's match went three moves on (the warm-up and the measured rounds).
    assert sorted(Match.objects.values_list("version", flat=True)) == [3, 3]
