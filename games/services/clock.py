"""The clock policy of a running match, as pure functions (docs/protocol.md § Clocks).

Each table has a speed (Fast, Normal, Relaxed): a **turn clock** for every turn and a **bank**
for each seat for the whole match, as lichess's increment and BGA's time bank give.

- The turn clock gives the seat to act ``turn_seconds`` for each turn and never pauses. When it
  runs out a present player's turn goes on to their bank (``turn_ran_out``); when the bank is
  empty too, or the player is away, the server plays the automatic move (and the third in a row
  forfeits). A computer seat's "turn clock" is its short pause before it moves.
- The bank drains while the table waits on the seat and either its turn clock has run out or
  none of its player's sockets is open (an absence drains it from the first second of the turn,
  alongside the turn clock). A move or a return stops the drain and keeps what is left. An
  absent seat whose bank is empty forfeits.

So a turn lasts at most one turn clock plus what is left of the bank, and coming and going costs
a seat at most one bank per match, however often it happens.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from django.conf import settings

# Each speed's settings: (turn clock, bank), read when a clock is armed so that a deploy (or a
# test) changes them without a restart of the code that reads them.
SPEED_SETTINGS = {
    "fast": ("FAST_TURN_SECONDS", "FAST_BANK_SECONDS"),
    "normal": ("TURN_SECONDS", "BANK_SECONDS"),
    "relaxed": ("RELAXED_TURN_SECONDS", "RELAXED_BANK_SECONDS"),
}


@dataclass(frozen=True)
class SeatClock:
    """What the policy needs of a seat."""

    connected: bool
    computer: bool  # forfeited to, or seated as, a computer player: never waited on
    bank_deadline: datetime | None = None  # set while the bank drains: when it runs out
    bank_used_ms: int = 0


@dataclass(frozen=True)
class Clocks:
    turn_deadline: datetime | None
    seats: tuple[SeatClock, ...]
    turn_on_bank: bool = False  # the seat to act let its turn clock run out


@dataclass(frozen=True)
class Limits:
    turn_seconds: float
    bank_seconds: float
    computer_delay_seconds: float


def speed_limits(speed: str) -> Limits:
    """A speed's limits from the settings; an unknown speed (a row older than speeds) is
    Normal."""
    turn, bank = SPEED_SETTINGS.get(speed, SPEED_SETTINGS["normal"])
    return Limits(
        turn_seconds=float(getattr(settings, turn)),
        bank_seconds=float(getattr(settings, bank)),
        computer_delay_seconds=float(settings.BOT_MOVE_DELAY_SECONDS),
    )


def bank_left_ms(seat: SeatClock, now: datetime, limits: Limits) -> int:
    """What is left of the seat's bank at ``now``, draining or not."""
    if seat.bank_deadline is not None:
        return max(0, int((seat.bank_deadline - now) / timedelta(milliseconds=1)))
    return max(0, int(limits.bank_seconds * 1000) - seat.bank_used_ms)


def next_clocks(
    before: Clocks,
    *,
    to_act: int | None,
    new_turn: bool,
    now: datetime,
    limits: Limits,
) -> Clocks:
    """The clocks after a move (``new_turn``), a change of presence, or the start of a match.

    ``to_act`` is None when nobody is to act (the match is over)."""
    bank_ms = int(limits.bank_seconds * 1000)
    on_bank = before.turn_on_bank and not new_turn and to_act is not None
    seats = []
    for position, seat in enumerate(before.seats):
        waited_on = position == to_act and not seat.computer
        draining = waited_on and (on_bank or not seat.connected)
        if draining and seat.bank_deadline is None:
            left_ms = bank_left_ms(seat, now, limits)
            seat = replace(seat, bank_deadline=now + timedelta(milliseconds=left_ms))
        elif not draining and seat.bank_deadline is not None:
            used_ms = bank_ms - bank_left_ms(seat, now, limits)
            seat = replace(seat, bank_deadline=None, bank_used_ms=min(bank_ms, max(0, used_ms)))
        seats.append(seat)

    turn_deadline = None if new_turn or to_act is None else before.turn_deadline
    if to_act is not None and turn_deadline is None:
        seconds = limits.computer_delay_seconds if seats[to_act].computer else limits.turn_seconds
        turn_deadline = now + timedelta(seconds=seconds)
    return Clocks(turn_deadline=turn_deadline, seats=tuple(seats), turn_on_bank=on_bank)


def turn_ran_out(before: Clocks, *, to_act: int, now: datetime, limits: Limits) -> Clocks | None:
    """The seat to act let its turn clock run out: a present player's turn goes on to their
    bank. None means the automatic move is due: the bank is empty or already spent on this
    turn, the seat is a computer's, or its player is away (the table does not wait past the
    turn clock for someone who is not there; their bank drains on their turns all the same)."""
    seat = before.seats[to_act]
    if seat.computer or before.turn_on_bank or not seat.connected:
        return None
    left_ms = bank_left_ms(seat, now, limits)
    if left_ms <= 0:
        return None
    deadline = seat.bank_deadline or now + timedelta(milliseconds=left_ms)
    seats = list(before.seats)
    seats[to_act] = replace(seat, bank_deadline=deadline)
    return Clocks(turn_deadline=deadline, seats=tuple(seats), turn_on_bank=True)
