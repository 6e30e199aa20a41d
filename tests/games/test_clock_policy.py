"""The clock policy (``games.services.clock.next_clocks``), case by case, without a database:
the turn clock never pauses, and absence is one bank per seat for the whole match."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from games.services.clock import Clocks, Limits, SeatClock, next_clocks

NOW = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
LIMITS = Limits(turn_seconds=45, grace_seconds=60, computer_delay_seconds=1)


def at(seconds: float) -> datetime:
    return NOW + timedelta(seconds=seconds)


HERE = SeatClock(connected=True, computer=False)
AWAY = SeatClock(connected=False, computer=False)
COMPUTER = SeatClock(connected=False, computer=True)


@pytest.mark.parametrize(
    ("case", "before", "to_act", "new_turn", "after"),
    [
        (
            "a new turn for a present player: a full turn clock, no absence",
            Clocks(turn_deadline=at(-3), seats=(HERE, HERE)),
            1,
            True,
            Clocks(turn_deadline=at(45), seats=(HERE, HERE)),
        ),
        (
            "a new turn for an absent player: the turn clock and the whole bank start",
            Clocks(turn_deadline=None, seats=(HERE, AWAY)),
            1,
            True,
            Clocks(
                turn_deadline=at(45),
                seats=(HERE, SeatClock(connected=False, computer=False, absence_deadline=at(60))),
            ),
        ),
        (
            "the player to act leaves mid-turn: the turn clock keeps its deadline",
            Clocks(turn_deadline=at(20), seats=(AWAY, HERE)),
            0,
            False,
            Clocks(
                turn_deadline=at(20),
                seats=(SeatClock(connected=False, computer=False, absence_deadline=at(60)), HERE),
            ),
        ),
        (
            "back after 15 s: the drain stops, 15 s of the bank are used, the turn clock runs on",
            Clocks(
                turn_deadline=at(20),
                seats=(SeatClock(connected=True, computer=False, absence_deadline=at(45)), HERE),
            ),
            0,
            False,
            Clocks(
                turn_deadline=at(20),
                seats=(SeatClock(connected=True, computer=False, absence_used_ms=15_000), HERE),
            ),
        ),
        (
            "away again later: only what is left of the bank",
            Clocks(
                turn_deadline=at(30),
                seats=(SeatClock(connected=False, computer=False, absence_used_ms=50_000), HERE),
            ),
            0,
            False,
            Clocks(
                turn_deadline=at(30),
                seats=(
                    SeatClock(
                        connected=False,
                        computer=False,
                        absence_used_ms=50_000,
                        absence_deadline=at(10),
                    ),
                    HERE,
                ),
            ),
        ),
        (
            "an empty bank: the deadline is now (the sweep forfeits the seat)",
            Clocks(
                turn_deadline=None,
                seats=(SeatClock(connected=False, computer=False, absence_used_ms=60_000), HERE),
            ),
            0,
            True,
            Clocks(
                turn_deadline=at(45),
                seats=(
                    SeatClock(
                        connected=False,
                        computer=False,
                        absence_used_ms=60_000,
                        absence_deadline=NOW,
                    ),
                    HERE,
                ),
            ),
        ),
        (
            "an absent player whose turn passed: the drain stops, nothing counts down",
            Clocks(
                turn_deadline=at(5),
                seats=(SeatClock(connected=False, computer=False, absence_deadline=at(50)), HERE),
            ),
            1,
            True,
            Clocks(
                turn_deadline=at(45),
                seats=(SeatClock(connected=False, computer=False, absence_used_ms=10_000), HERE),
            ),
        ),
        (
            "a computer seat to act: its short pause, never an absence",
            Clocks(turn_deadline=None, seats=(HERE, COMPUTER, HERE, HERE)),
            1,
            True,
            Clocks(turn_deadline=at(1), seats=(HERE, COMPUTER, HERE, HERE)),
        ),
        (
            "the match is over: no clock at all",
            Clocks(
                turn_deadline=at(30),
                seats=(SeatClock(connected=False, computer=False, absence_deadline=at(40)), HERE),
            ),
            None,
            False,
            Clocks(
                turn_deadline=None,
                seats=(SeatClock(connected=False, computer=False, absence_used_ms=20_000), HERE),
            ),
        ),
    ],
    ids=lambda value: value if isinstance(value, str) else None,
)
def test_the_clock_policy(case, before, to_act, new_turn, after):
    assert next_clocks(before, to_act=to_act, new_turn=new_turn, now=NOW, limits=LIMITS) == after


def _with_connected(clocks: Clocks, connected: bool) -> Clocks:
    first = replace(clocks.seats[0], connected=connected)
    return Clocks(turn_deadline=clocks.turn_deadline, seats=(first, *clocks.seats[1:]))


def test_coming_and_going_cannot_outlast_the_bank():
    """The attack: away most of each turn, back for a moment, again and again. Each return
    keeps only what is left, so the absences add up to one bank for the whole match."""
    clocks = next_clocks(
        Clocks(turn_deadline=None, seats=(AWAY, HERE)),
        to_act=0,
        new_turn=True,
        now=NOW,
        limits=LIMITS,
    )
    moment = NOW
    for _ in range(6):  # away 9 s, back for 1 s
        moment += timedelta(seconds=9)
        clocks = next_clocks(
            _with_connected(clocks, True), to_act=0, new_turn=False, now=moment, limits=LIMITS
        )
        moment += timedelta(seconds=1)
        clocks = next_clocks(
            _with_connected(clocks, False), to_act=0, new_turn=False, now=moment, limits=LIMITS
        )
    assert clocks.seats[0].absence_used_ms == 54_000
    assert clocks.seats[0].absence_deadline == moment + timedelta(seconds=6)
