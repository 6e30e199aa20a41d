"""The clock policy of a running match, as a pure function (docs/protocol.md § Clocks).

- The **turn clock** gives the seat to act ``TURN_SECONDS`` for each turn, and it never pauses:
  not while the seat is away, not across a short return. When it runs out the server plays the
  automatic move (and the third in a row forfeits). A computer seat's "turn clock" is its short
  pause before it moves.
- The **absence bank** gives each seat ``ABSENCE_GRACE_SECONDS`` for the whole match. It drains
  only while the table waits on that seat (its turn) and none of its player's sockets is open;
  a return stops the drain and keeps what is left. An empty bank forfeits the seat.

So an absent player costs the table at most one turn clock per turn and one bank per match,
however often they come and go.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta


@dataclass(frozen=True)
class SeatClock:
    """What the policy needs of a seat."""

    connected: bool
    computer: bool  # forfeited to, or seated as, a computer player: never waited on
    absence_deadline: datetime | None = None
    absence_used_ms: int = 0


@dataclass(frozen=True)
class Clocks:
    turn_deadline: datetime | None
    seats: tuple[SeatClock, ...]


@dataclass(frozen=True)
class Limits:
    turn_seconds: float
    grace_seconds: float
    computer_delay_seconds: float


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
    grace_ms = int(limits.grace_seconds * 1000)
    seats = []
    for position, seat in enumerate(before.seats):
        waited_on = position == to_act and not seat.connected and not seat.computer
        if waited_on and seat.absence_deadline is None:
            left_ms = max(0, grace_ms - seat.absence_used_ms)
            seat = replace(seat, absence_deadline=now + timedelta(milliseconds=left_ms))
        elif not waited_on and seat.absence_deadline is not None:
            remaining_ms = (seat.absence_deadline - now) / timedelta(milliseconds=1)
            used_ms = min(grace_ms, max(0, grace_ms - int(remaining_ms)))
            seat = replace(seat, absence_deadline=None, absence_used_ms=used_ms)
        seats.append(seat)

    turn_deadline = None if new_turn or to_act is None else before.turn_deadline
    if to_act is not None and turn_deadline is None:
        seconds = limits.computer_delay_seconds if seats[to_act].computer else limits.turn_seconds
        turn_deadline = now + timedelta(seconds=seconds)
    return Clocks(turn_deadline=turn_deadline, seats=tuple(seats))
