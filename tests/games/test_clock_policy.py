"""The clock policy (``games.services.clock``), case by case, without a database: the turn clock
never pauses; each seat has one bank for the whole match, spent by slow turns and absences; each
speed's numbers come from the settings."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from games.models import Table
from games.services.clock import (
    Clocks,
    Limits,
    SeatClock,
    bank_left_ms,
    next_clocks,
    speed_limits,
    turn_ran_out,
)

NOW = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
LIMITS = Limits(turn_seconds=45, bank_seconds=60, computer_delay_seconds=1)


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
            "a new turn for an absent player: the turn clock and the whole bank start together",
            Clocks(turn_deadline=None, seats=(HERE, AWAY)),
            1,
            True,
            Clocks(
                turn_deadline=at(45),
                seats=(HERE, SeatClock(connected=False, computer=False, bank_deadline=at(60))),
            ),
        ),
        (
            "the player to act leaves mid-turn: the turn clock keeps its deadline",
            Clocks(turn_deadline=at(20), seats=(AWAY, HERE)),
            0,
            False,
            Clocks(
                turn_deadline=at(20),
                seats=(SeatClock(connected=False, computer=False, bank_deadline=at(60)), HERE),
            ),
        ),
        (
            "back after 15 s: the drain stops, 15 s of the bank are used, the turn clock runs on",
            Clocks(
                turn_deadline=at(20),
                seats=(SeatClock(connected=True, computer=False, bank_deadline=at(45)), HERE),
            ),
            0,
            False,
            Clocks(
                turn_deadline=at(20),
                seats=(SeatClock(connected=True, computer=False, bank_used_ms=15_000), HERE),
            ),
        ),
        (
            "away again later: only what is left of the bank",
            Clocks(
                turn_deadline=at(30),
                seats=(SeatClock(connected=False, computer=False, bank_used_ms=50_000), HERE),
            ),
            0,
            False,
            Clocks(
                turn_deadline=at(30),
                seats=(
                    SeatClock(
                        connected=False,
                        computer=False,
                        bank_used_ms=50_000,
                        bank_deadline=at(10),
                    ),
                    HERE,
                ),
            ),
        ),
        (
            "an empty bank: the deadline is now (the sweep forfeits the seat)",
            Clocks(
                turn_deadline=None,
                seats=(SeatClock(connected=False, computer=False, bank_used_ms=60_000), HERE),
            ),
            0,
            True,
            Clocks(
                turn_deadline=at(45),
                seats=(
                    SeatClock(
                        connected=False,
                        computer=False,
                        bank_used_ms=60_000,
                        bank_deadline=NOW,
                    ),
                    HERE,
                ),
            ),
        ),
        (
            "an absent player whose turn passed: the drain stops, nothing counts down",
            Clocks(
                turn_deadline=at(5),
                seats=(SeatClock(connected=False, computer=False, bank_deadline=at(50)), HERE),
            ),
            1,
            True,
            Clocks(
                turn_deadline=at(45),
                seats=(SeatClock(connected=False, computer=False, bank_used_ms=10_000), HERE),
            ),
        ),
        (
            "a move made on the bank: the drain stops, what it took is used, a whole next turn",
            Clocks(
                turn_deadline=at(40),
                seats=(HERE, replace(HERE, bank_deadline=at(40), bank_used_ms=5_000)),
                turn_on_bank=True,
            ),
            0,
            True,
            Clocks(
                turn_deadline=at(45),
                seats=(HERE, replace(HERE, bank_used_ms=20_000)),
            ),
        ),
        (
            "the same seat to act again after its move on the bank (it led the next trick)",
            Clocks(
                turn_deadline=at(40),
                seats=(replace(HERE, bank_deadline=at(40)), HERE),
                turn_on_bank=True,
            ),
            0,
            True,
            Clocks(turn_deadline=at(45), seats=(replace(HERE, bank_used_ms=20_000), HERE)),
        ),
        (
            "on the bank, the player leaves: the bank drains on, once, to the same deadline",
            Clocks(
                turn_deadline=at(12),
                seats=(replace(AWAY, bank_deadline=at(12)), HERE),
                turn_on_bank=True,
            ),
            0,
            False,
            Clocks(
                turn_deadline=at(12),
                seats=(replace(AWAY, bank_deadline=at(12)), HERE),
                turn_on_bank=True,
            ),
        ),
        (
            "on the bank, a return does not stop the drain: the turn clock has run out",
            Clocks(
                turn_deadline=at(12),
                seats=(replace(HERE, bank_deadline=at(12)), HERE),
                turn_on_bank=True,
            ),
            0,
            False,
            Clocks(
                turn_deadline=at(12),
                seats=(replace(HERE, bank_deadline=at(12)), HERE),
                turn_on_bank=True,
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
                seats=(SeatClock(connected=False, computer=False, bank_deadline=at(40)), HERE),
            ),
            None,
            False,
            Clocks(
                turn_deadline=None,
                seats=(SeatClock(connected=False, computer=False, bank_used_ms=20_000), HERE),
            ),
        ),
    ],
    ids=lambda value: value if isinstance(value, str) else None,
)
def test_the_clock_policy(case, before, to_act, new_turn, after):
    assert next_clocks(before, to_act=to_act, new_turn=new_turn, now=NOW, limits=LIMITS) == after


def _with_connected(clocks: Clocks, connected: bool) -> Clocks:
    first = replace(clocks.seats[0], connected=connected)
    return replace(clocks, seats=(first, *clocks.seats[1:]))


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
    assert clocks.seats[0].bank_used_ms == 54_000
    assert clocks.seats[0].bank_deadline == moment + timedelta(seconds=6)


@pytest.mark.parametrize(
    ("case", "before", "after"),
    [
        (
            "a present player's clock runs out: the turn goes on to the whole bank",
            Clocks(turn_deadline=NOW, seats=(HERE, HERE)),
            Clocks(
                turn_deadline=at(60),
                seats=(replace(HERE, bank_deadline=at(60)), HERE),
                turn_on_bank=True,
            ),
        ),
        (
            "with part of the bank spent: only what is left",
            Clocks(turn_deadline=NOW, seats=(replace(HERE, bank_used_ms=45_000), HERE)),
            Clocks(
                turn_deadline=at(15),
                seats=(replace(HERE, bank_used_ms=45_000, bank_deadline=at(15)), HERE),
                turn_on_bank=True,
            ),
        ),
        (
            "an absent player (whose bank drains meanwhile): the automatic move, no waiting",
            Clocks(turn_deadline=NOW, seats=(replace(AWAY, bank_deadline=at(25)), HERE)),
            None,
        ),
        (
            "the bank is empty: the automatic move",
            Clocks(turn_deadline=NOW, seats=(replace(HERE, bank_used_ms=60_000), HERE)),
            None,
        ),
        (
            "the bank ran out on this turn: the automatic move, not a second bank",
            Clocks(
                turn_deadline=NOW,
                seats=(replace(HERE, bank_deadline=NOW), HERE),
                turn_on_bank=True,
            ),
            None,
        ),
        (
            "a computer's pause is over: its move",
            Clocks(turn_deadline=NOW, seats=(COMPUTER, HERE)),
            None,
        ),
    ],
    ids=lambda value: value if isinstance(value, str) else None,
)
def test_when_the_turn_clock_runs_out(case, before, after):
    assert turn_ran_out(before, to_act=0, now=NOW, limits=LIMITS) == after


def test_a_slow_player_spends_the_bank_once_per_match():
    """Thinking past the turn clock on every turn: the bank carries over, then the automatic
    move comes when the turn clock runs out."""
    clocks = next_clocks(
        Clocks(turn_deadline=None, seats=(HERE, HERE)),
        to_act=0,
        new_turn=True,
        now=NOW,
        limits=LIMITS,
    )
    moment = NOW
    for spent in (25, 25, 10):  # three turns, each past its turn clock by this much
        moment = clocks.turn_deadline
        clocks = turn_ran_out(clocks, to_act=0, now=moment, limits=LIMITS)
        assert clocks is not None and clocks.turn_on_bank
        moment += timedelta(seconds=spent)
        clocks = next_clocks(clocks, to_act=0, new_turn=True, now=moment, limits=LIMITS)
    assert clocks.seats[0].bank_used_ms == 60_000
    assert bank_left_ms(clocks.seats[0], moment, LIMITS) == 0
    assert turn_ran_out(clocks, to_act=0, now=clocks.turn_deadline, limits=LIMITS) is None


@pytest.mark.parametrize(
    ("speed", "settings_names", "turn", "bank"),
    [
        (Table.Speed.FAST, ("FAST_TURN_SECONDS", "FAST_BANK_SECONDS"), 12, 30),
        (Table.Speed.NORMAL, ("TURN_SECONDS", "BANK_SECONDS"), 30, 90),
        (Table.Speed.RELAXED, ("RELAXED_TURN_SECONDS", "RELAXED_BANK_SECONDS"), 75, 180),
        ("no such speed", ("TURN_SECONDS", "BANK_SECONDS"), 30, 90),
    ],
    ids=str,
)
def test_each_speed_reads_its_settings(settings, speed, settings_names, turn, bank):
    """The defaults are the issue's presets; a deploy changes them by setting, and a row older
    than speeds is Normal."""
    assert getattr(settings, settings_names[0]) == turn
    assert getattr(settings, settings_names[1]) == bank
    limits = speed_limits(speed)
    assert (limits.turn_seconds, limits.bank_seconds) == (turn, bank)
    setattr(settings, settings_names[0], turn + 1)
    setattr(settings, settings_names[1], bank + 2)
    limits = speed_limits(speed)
    assert (limits.turn_seconds, limits.bank_seconds) == (turn + 1, bank + 2)


@pytest.mark.parametrize("speed", list(Table.Speed), ids=str)
def test_every_speed_plays_by_the_same_policy(speed):
    """Rows for each preset: a turn gets its turn clock, then its bank, then the automatic
    move."""
    limits = speed_limits(speed)
    clocks = next_clocks(
        Clocks(turn_deadline=None, seats=(HERE, HERE)),
        to_act=1,
        new_turn=True,
        now=NOW,
        limits=limits,
    )
    assert clocks.turn_deadline == at(limits.turn_seconds)
    on_bank = turn_ran_out(clocks, to_act=1, now=clocks.turn_deadline, limits=limits)
    assert on_bank is not None
    assert on_bank.turn_deadline == at(limits.turn_seconds + limits.bank_seconds)
    assert turn_ran_out(on_bank, to_act=1, now=on_bank.turn_deadline, limits=limits) is None
