"""A match's life: start, every recorded event, the clocks, the end and an admin's cancel.

Locking (docs/concurrency.md): everything that changes a running match locks its row first
(:func:`locked_match`); the seats of its table are written only while that lock is held, and
coins move after it (the wallet locks its accounts in id order). Whatever a change publishes is
sent after commit (``games.realtime``), each seat's own view to the player who holds the seat.

The event log: ``act`` (a player's move), ``timeout`` (the turn clock's automatic move), ``bot``
(a computer player's move) hold an engine action; ``forfeit`` holds ``{"reason": …}`` and is
replayed with ``state.forfeit(seat)``; ``cancel`` ends a match an admin cancelled, ``abort`` one a
seat forfeited before every seat had moved (its ``{"reason": …}`` is the forfeit's). The seed and
these events rebuild any match.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import connections, transaction
from django.utils import timezone

from accounts.services import stake_outcome, wallet_refund, wallet_settle
from core import rows

from .. import frames, hooks
from ..models import Match, MatchEvent, Seat, Table
from ..rules import State, get_game
from .jobs import enqueue_on_commit
from .move_rows import present_players
from .publishing import publish_state, publish_to_table
from .turns import arm_clocks, clocks_armed, computer_turn_enqueue

logger = logging.getLogger(__name__)

MOVE_FIELDS = ("state", "version", "turn_deadline", "turn_on_bank")  # what a move changes


# --- Loading under the lock -----------------------------------------------------------------------


def locked_match(*, skip_locked: bool = False, **lookup: Any) -> Match | None:
    """The match, its row locked: the one lock that serializes everything at one table.

    ``of=("self",)`` keeps PostgreSQL from also locking the joined table row, which the table
    services lock. ``skip_locked`` is for sweeps: a match busy with a move is left for later."""
    return (
        Match.objects.select_for_update(of=("self",), skip_locked=skip_locked)
        .select_related("table")
        .filter(**lookup)
        .first()
    )


def table_seats(table_id: int) -> list[Seat]:
    return list(
        Seat.objects.filter(table_id=table_id).select_related("player").order_by("position")
    )


def engine_state(match: Match) -> State:
    return get_game(match.game).from_dict(match.state)


def refresh_connected(
    match: Match, seats: list[Seat], now: datetime, *, live: set[int | None] | None = None
) -> bool:
    """Recompute who is here from the live sockets at the table (of servers that still beat):
    each seat's ``connected``, and whether anyone without a seat watches. Saves the seats that
    changed (the caller saves ``match.watched``); returns whether a seat changed. Lock held.
    ``live``: the players present, as the caller holding the lock just read them."""
    if live is None:
        live = present_players(match.table_id, since=now - connection_stale())
    seated = {seat.player_id for seat in seats}
    match.watched = bool(live - seated)
    changed = False
    for seat in seats:
        connected = seat.player_id in live
        if seat.connected != connected:
            seat.connected = connected
            rows.update(seat, ["connected"], connections["default"])
            changed = True
    return changed


def connection_stale() -> timedelta:
    """How long a server process may go without beating before its sockets are not counted."""
    return timedelta(seconds=settings.LIVE_CONNECTION_STALE_SECONDS)


# --- Start ----------------------------------------------------------------------------------------


def match_prepared(
    match: Match,
    state: State,
    seats: list[Seat],
    now: datetime,
    *,
    present: set[int | None] | None = None,
) -> bool:
    """The table service's start, before the match's row is written: who is here (``present``:
    as the caller holding the lock just read it) and the first clocks, which go in with the
    match's insert. Returns whether a computer seat moves first. Lock held.

    Presence starts from the sockets the players really have open at the table."""
    refresh_connected(match, seats, now, live=present)
    return clocks_armed(match, state, seats, now, new_turn=True)[1]


def match_started(
    match: Match, state: State, seats: list[Seat], now: datetime, *, computer_first: bool
) -> None:
    """The table service's start, once the match's row is written: send the views.

    No seat changes hands at the start, so the sockets need not look their roles up again: each
    seat's view goes to its player's sockets, which tells them their seat
    (``TableConsumer.table_frame``)."""
    if computer_first:
        computer_turn_enqueue(match)
    publish_state(match, state, seats, now)
    hooks.match_started(match, seats)


# --- Recording an event ---------------------------------------------------------------------------


def record_event(
    match: Match,
    state: Any,
    seats: list[Seat],
    *,
    seat: int | None,
    kind: str,
    action: dict[str, Any],
    client_action_id: str = "",
    now: datetime,
    ended_by: str = "finished",
) -> None:
    """Append the event, store the new state, run the clocks or the end, publish. Lock held.

    The event's unique constraints are the last guard against a move applied twice."""
    match.version += 1
    connection = connections["default"]
    event = MatchEvent(
        match=match,
        version=match.version,
        seat=seat,
        kind=kind,
        action=action,
        client_action_id=client_action_id,
    )
    match.state = state.to_dict()
    if state.is_over:
        rows.insert(event, connection)
        ended = _finish(match, state, seats, reason=ended_by, now=now)
        match.save(update_fields=[*MOVE_FIELDS, *ended])
    else:
        arm_clocks(match, state, seats, now, new_turn=True)
        # Every move writes these two rows: a statement written once (``core.rows``), not
        # compiled, and on PostgreSQL one round trip for both.
        rows.insert_and_update(event, match, MOVE_FIELDS, connection)
    publish_state(match, state, seats, now)
    if state.is_over:
        publish_to_table(match.table_id, frames.match_over_frame(match, seats))
        hooks.match_ended(match, seats)
        # Enqueued after the frames: a hook's own message (the ladder's rating) follows the end
        # even when the task runs at once (eagerly, in tests).
        for task_name in settings.MATCH_FINISHED_TASKS:
            enqueue_on_commit(task_name, match.pk)


def every_seat_moved(match: Match, seats: list[Seat]) -> bool:
    """Each seat has made a move of its own (its person's ``act``, or its computer's): until then
    nobody has begun the match, and a forfeit aborts it (docs/rules/README.md § 0.6). An automatic
    move is not the seat's own: a seat that never acted has not begun."""
    own = MatchEvent.objects.filter(match=match, kind__in=("act", "bot")).order_by()
    moved = set(own.values_list("seat", flat=True).distinct())
    return all(seat.position in moved for seat in seats)


def forfeit_seat(
    match: Match, state: Any, seats: list[Seat], seat: Seat, *, reason: str, now: datetime
) -> None:
    """2-player games end; classic Joker goes on with a computer in the seat (docs/rules/README.md
    § 0.6). Before every seat has moved the match is aborted instead. Either way the forfeit is
    the player's, told once to ``GAMES_SEAT_FORFEITED`` (social's cool-downs and reputation)."""
    begun = every_seat_moved(match, seats)
    new_state = state.forfeit(seat.position)
    seat.forfeited = True
    seat.bank_deadline = None
    seat.is_bot = begun and not new_state.is_over  # only classic Joker plays on after a forfeit
    seat.bot_strength = "easy" if seat.is_bot else seat.bot_strength
    seat.save(update_fields=["forfeited", "bank_deadline", "is_bot", "bot_strength"])
    hooks.seat_forfeited(match, seats, seat, reason=reason, now=now)
    if not begun:
        _abort(match, seats, seat=seat.position, reason=reason, now=now)
        return
    record_event(
        match,
        new_state,
        seats,
        seat=seat.position,
        kind="forfeit",
        action={"reason": reason},
        now=now,
        ended_by="forfeit",
    )


# --- The end --------------------------------------------------------------------------------------


def _finish(
    match: Match, state: Any, seats: list[Seat], *, reason: str, now: datetime
) -> list[str]:
    """Store the result, settle the stakes, free the seats and the table. Lock held.

    Returns the match fields it changed (the caller saves once)."""
    winners = list(state.result or [])
    forfeited = [seat.position for seat in seats if seat.forfeited]
    match.status = Match.Status.FINISHED
    match.result = {
        "reason": reason,
        "winners": winners,
        "forfeited": forfeited,
        "scores": list(state.scores),
    }
    if forfeited:
        match.result["forfeit_reasons"] = _forfeit_reasons(match)
    match.ended_at = now
    match.turn_deadline = None
    match.turn_on_bank = False
    table = match.table
    if table.stake:
        # For the end-of-match screen: what the settlement below pays, seat by seat.
        match.result["coins"] = stake_outcome(stake=table.stake, seats=len(seats), winners=winners)
    if table.stake and winners:
        # Same transaction as the final move: a match is never over without being paid.
        wallet_settle(match_id=match.pk, winners=[seats[w].player for w in winners])
    _free_table(table, seats, Table.Status.FINISHED, now)
    match_id = match.pk
    transaction.on_commit(lambda: logger.info("Match %s finished.", match_id))
    return ["status", "result", "ended_at"]


def _forfeit_reasons(match: Match) -> dict[str, str]:
    """Why each forfeited seat forfeited, by seat (JSON keys are strings): the end screen says
    "left" only of a player who left, and "three turns in a row played by the clock" of one
    who abandoned (docs/protocol.md § Match end and rematch)."""
    events = MatchEvent.objects.filter(match=match, kind="forfeit").values_list("seat", "action")
    return {str(seat): (action or {}).get("reason", "") for seat, action in events}


def _free_table(table: Table, seats: list[Seat], status: str, now: datetime) -> None:
    Seat.objects.filter(table=table).update(active=False, bank_deadline=None)
    for seat in seats:
        seat.active = False
        seat.bank_deadline = None
    table.status = status
    table.ended_at = now
    table.save(update_fields=["status", "ended_at"])


def match_cancel(*, match_id: int, reason: str = "") -> bool:
    """An admin cancels a running match: it is aborted and every stake goes back."""
    with transaction.atomic():
        match = locked_match(pk=match_id)  # Lock: no move may land after the cancel.
        if match is None or match.status != Match.Status.PLAYING:
            return False
        _abort(match, table_seats(match.table_id), seat=None, reason=reason, now=timezone.now())
    return True


def _abort(match: Match, seats: list[Seat], seat: int | None, reason: str, now: datetime) -> None:
    """End the match with no result: no winner, nothing rated, every stake back. Lock held.

    ``seat`` None: an admin's ``cancel``; else an ``abort``, the seat having forfeited before
    every seat had moved (docs/protocol.md § Match end and rematch)."""
    kind = "cancel" if seat is None else "abort"
    match.version += 1
    MatchEvent.objects.create(
        match=match, version=match.version, seat=seat, kind=kind, action={"reason": reason}
    )
    match.status = Match.Status.ABORTED
    match.result = {
        "reason": "cancelled" if seat is None else "aborted",
        "winners": [],
        "forfeited": [] if seat is None else [seat],
        "scores": [],
    }
    if seat is not None:
        match.result["forfeit_reasons"] = {str(seat): reason}
    if match.table.stake:
        match.result["coins"] = [0] * len(seats)  # every stake goes back
    match.ended_at = now
    match.turn_deadline = None
    match.turn_on_bank = False
    match.save(
        update_fields=["version", "status", "result", "ended_at", "turn_deadline", "turn_on_bank"]
    )
    wallet_refund(match_id=match.pk)
    _free_table(match.table, seats, Table.Status.CANCELLED, now)
    publish_state(match, engine_state(match), seats, now)
    publish_to_table(match.table_id, frames.match_over_frame(match, seats))
    hooks.match_ended(match, seats)
