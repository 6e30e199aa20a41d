"""The clock policy (``clock.py``) applied to a running match's rows, under its lock: the turn
clock, each seat's bank, and a computer seat's move enqueued when its turn comes."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import connections

from core import rows

from .. import frames
from ..models import Match, Seat
from .clock import Clocks, SeatClock, next_clocks, speed_limits, turn_ran_out
from .jobs import enqueue_on_commit
from .publishing import publish_to_table

BOT_TURN_TASK = "games.tasks.play_bot_turn"


def clocks_of(match: Match, seats: list[Seat]) -> Clocks:
    """The clock policy's view of the rows."""
    return Clocks(
        turn_deadline=match.turn_deadline,
        seats=tuple(
            SeatClock(
                connected=seat.connected,
                computer=seat.is_bot or seat.forfeited,
                bank_deadline=seat.bank_deadline,
                bank_used_ms=seat.bank_used_ms,
            )
            for seat in seats
        ),
        turn_on_bank=match.turn_on_bank,
    )


def clocks_save(match: Match, seats: list[Seat], before: Clocks, after: Clocks) -> None:
    """Write what the policy changed: the seats it touched, and the match's clock fields (the
    caller saves the match)."""
    for seat, old, new in zip(seats, before.seats, after.seats, strict=True):
        if new != old:
            seat.bank_deadline = new.bank_deadline
            seat.bank_used_ms = new.bank_used_ms
            rows.update(seat, ["bank_deadline", "bank_used_ms"], connections["default"])
    match.turn_deadline = after.turn_deadline
    match.turn_on_bank = after.turn_on_bank


def turn_onto_bank(match: Match, state: Any, seats: list[Seat], now: datetime) -> bool:
    """The seat to act let its turn clock run out: if it has bank left, its turn goes on to
    it (saved, and told to the table) and this returns True; False means the automatic move is
    due. Lock held."""
    before = clocks_of(match, seats)
    after = turn_ran_out(before, to_act=state.to_act, now=now, limits=speed_limits(match.speed))
    if after is None:
        return False
    clocks_save(match, seats, before, after)
    tell_presence(match, state, seats, now, saving=["turn_deadline", "turn_on_bank"])
    return True


def tell_presence(
    match: Match, state: Any, seats: list[Seat], now: datetime, *, saving: list[str]
) -> None:
    """Tell the table its seats and clocks without a move, saving the match's ``saving`` fields
    with the frame's number. Two such frames of one version may reach a socket in either order
    (each is published after its own commit); the number says which is newer. Lock held."""
    match.presence_version += 1
    rows.update(match, [*saving, "presence_version"], connections["default"])
    publish_to_table(match.table_id, frames.presence_frame(match, state, seats, now))


def arm_clocks(
    match: Match, state: Any, seats: list[Seat], now: datetime, *, new_turn: bool
) -> bool:
    """Apply the clock policy (``clock.next_clocks``) to the rows. Lock held.

    Saves the seats it changes and sets ``match.turn_deadline`` (the caller saves the match);
    a computer seat that is now to act gets its move enqueued. Returns whether anything changed.
    """
    changed, computer_due = clocks_armed(match, state, seats, now, new_turn=new_turn)
    if computer_due:
        computer_turn_enqueue(match)
    return changed


def clocks_armed(
    match: Match, state: Any, seats: list[Seat], now: datetime, *, new_turn: bool
) -> tuple[bool, bool]:
    """:func:`arm_clocks` for a match whose row is not written yet (its clocks go in with its
    insert): whether anything changed, and whether a computer seat's move is due, to enqueue
    once the row has its key (:func:`computer_turn_enqueue`)."""
    playing = match.status == Match.Status.PLAYING
    to_act = state.to_act if playing else None
    before = clocks_of(match, seats)
    limits = speed_limits(match.speed)
    after = next_clocks(before, to_act=to_act, new_turn=new_turn, now=now, limits=limits)
    clocks_save(match, seats, before, after)
    computer_due = (
        to_act is not None
        and after.seats[to_act].computer
        and (new_turn or before.turn_deadline is None)
    )
    return after != before, computer_due


def computer_turn_enqueue(match: Match) -> None:
    """The computer seat to act moves on a worker once this transaction commits."""
    enqueue_on_commit(
        BOT_TURN_TASK,
        match.pk,
        match.version,
        countdown=settings.BOT_MOVE_DELAY_SECONDS,  # a person can follow the trick
    )
