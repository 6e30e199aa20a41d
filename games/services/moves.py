"""Moves in a running match: a player's act, leaving, the turn clock, a computer's move and the
forfeit of a seat whose absence bank ran out. Each is one transaction under the match lock
(``matches.locked_match``) and re-checks its condition there, so running it twice changes
nothing the second time."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import Player
from core.errors import ServiceError

from .. import bots
from ..models import Match, MatchEvent, Seat
from ..rules import RulesError
from ..rules.automove import auto_action
from ..rules_text import rules_message
from .matches import (
    engine_state,
    forfeit_seat,
    locked_match,
    record_event,
    table_seats,
)
from .move_rows import AtTable, locked_match_and_seats
from .turns import turn_onto_bank


@dataclass(frozen=True)
class Outcome:
    """What a player's write produced: the version after it, and whether it was a resend."""

    version: int
    duplicate: bool = False


def _players_seat(seats: list[Seat], player: Player | None) -> Seat | None:
    return next((s for s in seats if player is not None and s.player_id == player.pk), None)


def _applied_before(match_id: int, seat: int, client_action_id: str) -> int | None:
    """The version an action id already produced at this seat, if it did (a resend)."""
    if not client_action_id:
        return None
    return (
        MatchEvent.objects.filter(match_id=match_id, seat=seat, client_action_id=client_action_id)
        .values_list("version", flat=True)
        .first()
    )


def _require_session(at_table: AtTable) -> None:
    """A socket acts for its session only while the session lives: a move sent a moment after
    logout, before the socket has heard of it, is refused here."""
    if not at_table.session_alive:
        raise ServiceError(gettext("Your session has ended; log in again."), code="session")


def match_act(
    *,
    table_id: int,
    player: Player | None,
    version: int,
    action: dict[str, Any],
    client_action_id: str,
    session_key: str | None = None,
    now: datetime | None = None,
) -> Outcome:
    """A player's move: checked against the session, the seat, the turn, the version and the
    rules.

    A resend of an applied move is found only when the move cannot apply (its version is old),
    so a fresh move costs no lookup; the event's unique constraint catches the rest."""
    now = now or timezone.now()
    seat: Seat | None = None
    try:
        with transaction.atomic():
            # Lock: one move at a time per table (the seats come with the lock).
            at_table = locked_match_and_seats(table_id, session_key=session_key, now=now)
            match, seats = at_table.match, at_table.seats
            if match is None:
                raise ServiceError(gettext("The match has not started yet."), code="no_match")
            _require_session(at_table)
            seat = _players_seat(seats, player)
            if seat is None:
                raise ServiceError(
                    gettext("You are watching this table; only its players move."),
                    code="not_seated",
                )
            state = engine_state(match)
            refusal = _refusal(match, state, seat, version)
            if refusal is not None:
                done = _applied_before(match.pk, seat.position, client_action_id)
                if done is not None:
                    return Outcome(version=done, duplicate=True)
                raise refusal
            try:
                new_state = state.apply(action)
            except RulesError as error:  # the engine is total: anything else is a bug
                raise ServiceError(rules_message(error), code="illegal") from None
            if seat.timeouts_in_row:
                seat.timeouts_in_row = 0  # acting yourself ends a run of timeouts
                seat.save(update_fields=["timeouts_in_row"])
            record_event(
                match,
                new_state,
                seats,
                seat=seat.position,
                kind="act",
                action=action,
                client_action_id=client_action_id,
                now=now,
            )
    except IntegrityError:
        # The same action id raced itself in (two tabs resending at once): applied once.
        match_id = Match.objects.filter(table_id=table_id).values_list("pk", flat=True).first()
        done = None
        if match_id is not None and seat is not None:
            done = _applied_before(match_id, seat.position, client_action_id)
        if done is None:
            raise
        return Outcome(version=done, duplicate=True)
    return Outcome(version=match.version)


def _refusal(match: Match, state: Any, seat: Seat, version: int) -> ServiceError | None:
    if match.status != Match.Status.PLAYING:
        return ServiceError(gettext("The match is over."), code="match_over")
    if seat.forfeited:
        return ServiceError(
            gettext("You forfeited this match; you can only watch."), code="not_seated"
        )
    if version != match.version:
        return ServiceError(
            gettext("The match is at version %(now)s, not %(sent)s: here is the state now.")
            % {"now": match.version, "sent": version},
            code="stale",
        )
    if state.to_act != seat.position:
        return ServiceError(gettext("It is not your turn."), code="not_your_turn")
    return None


def match_leave(
    *,
    table_id: int,
    player: Player | None,
    session_key: str | None = None,
    now: datetime | None = None,
) -> Outcome:
    """Leaving on purpose is an immediate forfeit."""
    now = now or timezone.now()
    with transaction.atomic():
        # Lock: a forfeit is a change of the match.
        at_table = locked_match_and_seats(table_id, session_key=session_key, now=now)
        match, seats = at_table.match, at_table.seats
        if match is None:
            raise ServiceError(gettext("The match has not started yet."), code="no_match")
        _require_session(at_table)
        seat = _players_seat(seats, player)
        if seat is None or seat.forfeited:
            raise ServiceError(
                gettext("You have no seat in this match to leave."), code="not_seated"
            )
        if match.status != Match.Status.PLAYING:
            raise ServiceError(gettext("The match is over."), code="match_over")
        forfeit_seat(match, engine_state(match), seats, seat, reason="left", now=now)
    return Outcome(version=match.version)


def play_due_turn(
    *, match_id: int, version: int, now: datetime | None = None, skip_locked: bool = False
) -> bool:
    """The turn clock ran out, or a computer seat's pause is over: the seat's turn goes on to
    its bank if it has some left, else the automatic move, once.

    Idempotent: it names the version the clock was armed for; any move since makes it a no-op
    (and a turn already on the bank is not put there again). The clocks run whether the seat is
    connected or not, so an absent player cannot stall the table. The third timeout in a row is
    abandonment (docs/rules/README.md § 0.6) and forfeits instead.
    """
    now = now or timezone.now()
    with transaction.atomic():
        # Lock: re-check the clock against concurrent moves.
        match = locked_match(pk=match_id, skip_locked=skip_locked)
        if match is None or match.status != Match.Status.PLAYING or match.version != version:
            return False
        if match.turn_deadline is None or match.turn_deadline > now:
            return False
        state = engine_state(match)
        if state.to_act is None:
            return False
        seats = table_seats(match.table_id)
        seat = seats[state.to_act]
        if seat.is_bot or seat.forfeited:
            _computer_move(match, state, seats, seat, now)
            return True
        if turn_onto_bank(match, state, seats, now):
            return True
        seat.timeouts_in_row += 1
        seat.save(update_fields=["timeouts_in_row"])
        if seat.timeouts_in_row >= settings.LIVE_TIMEOUTS_TO_ABANDON:
            forfeit_seat(match, state, seats, seat, reason="abandoned", now=now)
        else:
            action = auto_action(state)
            record_event(
                match,
                state.apply(action),
                seats,
                seat=seat.position,
                kind="timeout",
                action=action,
                now=now,
            )
    return True


def play_bot_turn(*, match_id: int, version: int, now: datetime | None = None) -> bool:
    """A computer seat's move, enqueued when its turn came (after its short pause).

    The bot chooses from its seat's view before the lock is taken (the strong bot searches for
    a few hundred milliseconds, and the table's sockets must not wait on that); under the lock
    the version is checked again, so a move that landed meanwhile makes this one a no-op."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None or match.status != Match.Status.PLAYING or match.version != version:
        return False
    state = engine_state(match)
    if state.to_act is None:
        return False
    seat = table_seats(match.table_id)[state.to_act]
    if not (seat.is_bot or seat.forfeited):
        return False
    action = _computer_action(match, state, seat)
    now = now or timezone.now()
    with transaction.atomic():
        locked = locked_match(pk=match_id)  # Lock: a move like any other.
        if locked is None or locked.status != Match.Status.PLAYING or locked.version != version:
            return False
        seats = table_seats(match.table_id)
        record_event(
            locked,
            engine_state(locked).apply(action),
            seats,
            seat=seat.position,
            kind="bot",
            action=action,
            now=now,
        )
    return True


def _computer_action(match: Match, state: Any, seat: Seat) -> dict[str, Any]:
    """The seat's computer chooses from the seat's view (seeded: a replay chooses the same)."""
    rng = random.Random(f"{match.seed}:{match.version}")
    return bots.choose(seat.bot_strength or "easy", state.view(seat.position), rng)


def _computer_move(match: Match, state: Any, seats: list[Seat], seat: Seat, now: datetime) -> None:
    action = _computer_action(match, state, seat)
    record_event(
        match, state.apply(action), seats, seat=seat.position, kind="bot", action=action, now=now
    )


def forfeit_absent_seat(
    *, match_id: int, seat: int, now: datetime | None = None, skip_locked: bool = False
) -> bool:
    """An absent seat the table waits on emptied its bank: forfeit it, exactly once."""
    now = now or timezone.now()
    with transaction.atomic():
        # Lock: re-check the deadline against a reconnect.
        match = locked_match(pk=match_id, skip_locked=skip_locked)
        if match is None or match.status != Match.Status.PLAYING:
            return False
        seats = table_seats(match.table_id)
        target = seats[seat]
        if (
            target.forfeited
            or target.connected
            or target.bank_deadline is None
            or target.bank_deadline > now
        ):
            return False
        forfeit_seat(match, engine_state(match), seats, target, reason="absent", now=now)
    return True
