"""Live play: every write to a running match is one function here (DESIGN.md § Matches, § Time).

Locking policy. Everything that changes a match's live state (a move, an automatic or bot move,
a forfeit, presence, the clocks, the end, a rematch) first locks that match's row with
``select_for_update``: the match row is the one lock that serializes a table, and the seats of
the table are written only while it is held. Coins are moved after it (the wallet locks its
accounts in id order), never before, so the order is always match → wallets and two tables
never wait on each other.

After commit, and only then, each seat's own ``view(seat)`` goes to that seat's group and
``view(None)`` to the spectators (``games.realtime``); deadline tasks are enqueued after commit
too, and the sweep (:func:`live_sweep`) catches any that was lost. Every timed service re-checks
its condition under the lock, so running it twice changes nothing the second time.

The event log: ``act`` (a player's move), ``timeout`` (the turn clock's auto-move), ``bot``
(a computer player's move) hold an engine action; ``forfeit`` holds ``{"reason": …}`` and is
replayed with ``state.forfeit(seat)``; ``cancel`` ends a match an admin cancelled. The seed and
these events rebuild any match.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounts.errors import ServiceError
from accounts.models import Player
from accounts.services import wallet_refund, wallet_settle

from .. import bots, realtime
from ..models import Match, MatchEvent, Seat, Table, TableConnection
from ..rules import RulesError, get_game
from ..rules.automove import auto_action
from ..rules_text import rules_message
from ..selectors import may_see_table

logger = logging.getLogger(__name__)

FRAME = "table.frame"  # the one channel-layer message type the table consumer forwards


@dataclass(frozen=True)
class Outcome:
    """What a player's write produced: the version after it, and whether it was a resend."""

    version: int
    duplicate: bool = False


@dataclass(frozen=True)
class Connected:
    """A registered socket: its seat (None for a spectator) and its first snapshot."""

    seat: int | None
    frame: dict[str, Any]


# --- Loading under the lock -----------------------------------------------------------------------


def _locked_match(**lookup: Any) -> Match | None:
    # The lock that serializes everything at one table (module docstring). ``of=("self",)``
    # keeps PostgreSQL from also locking the joined table row, which lobby services lock.
    return (
        Match.objects.select_for_update(of=("self",))
        .select_related("table")
        .filter(**lookup)
        .first()
    )


def _seats(table_id: int) -> list[Seat]:
    return list(
        Seat.objects.filter(table_id=table_id).select_related("player").order_by("position")
    )


def _state(match: Match) -> Any:
    return get_game(match.game).from_dict(match.state)


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


# --- What clients see -----------------------------------------------------------------------------


def _seats_public(seats: list[Seat]) -> list[dict[str, Any]]:
    return [
        {
            "seat": seat.position,
            "name": seat.player.name,
            "connected": seat.connected,
            "absence_deadline": _iso(seat.absence_deadline),
            "forfeited": seat.forfeited,
            "bot": seat.is_bot,
            "timeouts": seat.timeouts_in_row,
        }
        for seat in seats
    ]


def _clocks(match: Match | None, state: Any, now: datetime) -> dict[str, Any]:
    playing = match is not None and match.status == Match.Status.PLAYING
    return {
        "server_time": now.isoformat(),
        "turn_seat": state.to_act if playing else None,
        "turn_deadline": _iso(match.turn_deadline) if playing else None,
        "turn_paused": bool(playing and match.turn_remaining_ms is not None),
        "turn_seconds": settings.TURN_SECONDS,
        "grace_seconds": settings.ABSENCE_GRACE_SECONDS,
    }


def _result_public(match: Match, seats: list[Seat]) -> dict[str, Any] | None:
    if match.status == Match.Status.PLAYING or match.result is None:
        return None
    names = {seat.position: seat.player.name for seat in seats}
    return {
        **match.result,
        "winner_names": [names[seat] for seat in match.result.get("winners", [])],
        # Provably fair: the seed is revealed once the match is over (rules/README.md § 0.4).
        "seed": match.seed,
        "seed_hash": match.seed_hash,
    }


def _rematch_public(match: Match, seats: list[Seat]) -> dict[str, Any] | None:
    if match.status == Match.Status.PLAYING:
        return None
    new_table = Table.objects.filter(rematch_of_id=match.table_id).values_list("pk", flat=True)
    new_id = new_table.first()
    return {
        "accepted": [seat.position for seat in seats if seat.wants_rematch],
        "needed": [seat.position for seat in seats if not seat.is_bot],
        "table": new_id,
        "url": None if new_id is None else f"/tables/{new_id}/",
    }


def _frame(
    table: Table,
    match: Match | None,
    state: Any,
    seats: list[Seat],
    seat: int | None,
    now: datetime,
) -> dict[str, Any]:
    """The ``state`` message for one audience: a seat, or the spectators (``seat`` None)."""
    if match is None:
        return {
            "type": "state",
            "table": table.pk,
            "match": None,
            "game": table.game,
            "status": "open" if table.status == Table.Status.OPEN else table.status,
            "version": 0,
            "seat": seat,
            "view": None,
            "seats": _seats_public(seats),
            "clocks": _clocks(None, None, now),
            "result": None,
            "rematch": None,
        }
    view = state.view(seat)  # the engine decides what this audience may see
    if seat is not None and any(s.position == seat and s.forfeited for s in seats):
        view["legal"] = []  # a computer plays this seat now; its old player only watches
    return {
        "type": "state",
        "table": table.pk,
        "match": match.pk,
        "game": match.game,
        "status": match.status,
        "version": match.version,
        "seat": seat,
        "view": view,
        "seats": _seats_public(seats),
        "clocks": _clocks(match, state, now),
        "result": _result_public(match, seats),
        "rematch": _rematch_public(match, seats),
    }


def _publish_state(
    table: Table, match: Match, state: Any, seats: list[Seat], now: datetime
) -> None:
    """Each seat its own view, the spectators theirs; all after commit."""
    for seat in seats:
        realtime.publish_on_commit(
            realtime.table_seat_group(table.pk, seat.position),
            {"type": FRAME, "frame": _frame(table, match, state, seats, seat.position, now)},
        )
    realtime.publish_on_commit(
        realtime.table_spectator_group(table.pk),
        {"type": FRAME, "frame": _frame(table, match, state, seats, None, now)},
    )


def _publish_all(table_id: int, frame: dict[str, Any]) -> None:
    """A message that is the same for every socket at the table (it names no card)."""
    realtime.publish_on_commit(realtime.table_group(table_id), {"type": FRAME, "frame": frame})


def _publish_presence(match: Match, state: Any, seats: list[Seat], now: datetime) -> None:
    _publish_all(
        match.table_id,
        {
            "type": "presence",
            "version": match.version,
            "seats": _seats_public(seats),
            "clocks": _clocks(match, state, now),
        },
    )


# --- Reads for the socket -------------------------------------------------------------------------


def table_access(*, table_id: int, player: Player | None) -> int | None:
    """The player's seat at the table, None for a spectator; ``no_table`` if they may not look.

    Not seeing and not existing give the same error, so a socket cannot probe for hidden tables.
    """
    table = Table.objects.filter(pk=table_id).select_related("creator").first()
    if table is None or not may_see_table(player, table):
        raise ServiceError(gettext("There is no such table."), code="no_table")
    if player is None:
        return None
    return (
        Seat.objects.filter(table=table, player=player).values_list("position", flat=True).first()
    )


def table_snapshot(
    *, table_id: int, seat: int | None, now: datetime | None = None
) -> dict[str, Any]:
    """A fresh ``state`` message for one audience (connect, ``sync``, after ``stale``)."""
    now = now or timezone.now()
    table = Table.objects.get(pk=table_id)
    match = Match.objects.filter(table_id=table_id).first()
    seats = _seats(table_id)
    state = _state(match) if match is not None else None
    return _frame(table, match, state, seats, seat, now)


# --- Clocks ---------------------------------------------------------------------------------------


Deadline = tuple[str, tuple[Any, ...], datetime]  # (task name, args, when)


def _schedule(deadlines: list[Deadline]) -> None:
    """Enqueue deadline tasks after commit (and after the frames they follow are published, so
    an eager task's newer frames go out after the older ones). The sweep is the safety net."""

    def enqueue() -> None:
        from .. import tasks

        for task_name, args, eta in deadlines:
            try:
                getattr(tasks, task_name).apply_async(args, eta=eta)
            except Exception:  # a broker hiccup must not break a move that already committed
                logger.exception(
                    "Could not enqueue %s%r; the sweep will catch it.", task_name, args
                )

    if deadlines:
        transaction.on_commit(enqueue)


def _arm_clocks(
    match: Match, state: Any, seats: list[Seat], now: datetime, *, new_turn: bool
) -> tuple[bool, list[Deadline]]:
    """Set the grace and turn clocks for who the table waits on now (README § 0.6).

    The grace clock runs only while the table waits on an absent seat; that seat's turn clock is
    paused meanwhile (its time left kept in ``turn_remaining_ms``). A bot seat moves after a
    short delay. Saves seats it changes; the caller saves the match and passes the deadlines it
    returns to :func:`_schedule` after publishing. Returns (anything changed, deadlines).
    """
    changed = False
    deadlines: list[Deadline] = []
    to_act = state.to_act if match.status == Match.Status.PLAYING else None
    grace = timedelta(seconds=settings.ABSENCE_GRACE_SECONDS)
    for seat in seats:
        waits = (
            seat.position == to_act
            and not seat.connected
            and not seat.forfeited
            and not seat.is_bot
        )
        if waits and seat.absence_deadline is None:
            seat.absence_deadline = now + grace
            seat.save(update_fields=["absence_deadline"])
            deadlines.append(("forfeit_absent_seat", (match.pk, seat.position), now + grace))
            changed = True
        elif not waits and seat.absence_deadline is not None:
            seat.absence_deadline = None
            seat.save(update_fields=["absence_deadline"])
            changed = True

    before = (match.turn_deadline, match.turn_remaining_ms)
    if new_turn:
        match.turn_deadline = None
        match.turn_remaining_ms = None
    if to_act is None:
        match.turn_deadline = None
        match.turn_remaining_ms = None
    else:
        actor = seats[to_act]
        if actor.is_bot or actor.forfeited:
            if match.turn_deadline is None:
                match.turn_deadline = now + timedelta(seconds=settings.LIVE_BOT_DELAY_SECONDS)
            match.turn_remaining_ms = None
        elif not actor.connected:
            if match.turn_deadline is not None:  # pause: keep what was left
                left = (match.turn_deadline - now).total_seconds()
                match.turn_remaining_ms = max(0, int(left * 1000))
                match.turn_deadline = None
            elif match.turn_remaining_ms is None:
                match.turn_remaining_ms = settings.TURN_SECONDS * 1000
        elif match.turn_deadline is None:
            left_ms = match.turn_remaining_ms
            seconds = settings.TURN_SECONDS if left_ms is None else left_ms / 1000
            match.turn_deadline = now + timedelta(seconds=seconds)
            match.turn_remaining_ms = None
    if (match.turn_deadline, match.turn_remaining_ms) != before:
        changed = True
        if match.turn_deadline is not None:
            deadlines.append(("play_due_turn", (match.pk, match.version), match.turn_deadline))
    return changed, deadlines


def match_started(match: Match) -> None:
    """The lobby's hook, inside its start transaction: arm the clocks, send the first views."""
    now = timezone.now()
    state = _state(match)
    seats = _seats(match.table_id)
    _, deadlines = _arm_clocks(match, state, seats, now, new_turn=True)
    match.save(update_fields=["turn_deadline", "turn_remaining_ms"])
    _publish_state(match.table, match, state, seats, now)
    _schedule(deadlines)


# --- Moves ----------------------------------------------------------------------------------------


def _record(
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
    """Append the event, store the new state, run the clocks or the end, publish. Lock held."""
    match.version += 1
    MatchEvent.objects.create(
        match=match,
        version=match.version,
        seat=seat,
        kind=kind,
        action=action,
        client_action_id=client_action_id,
    )
    match.state = state.to_dict()
    fields = ["state", "version", "turn_deadline", "turn_remaining_ms"]
    deadlines: list[Deadline] = []
    if state.is_over:
        fields += _finish(match, state, seats, reason=ended_by, now=now)
    else:
        _, deadlines = _arm_clocks(match, state, seats, now, new_turn=True)
    match.save(update_fields=fields)
    _publish_state(match.table, match, state, seats, now)
    if state.is_over:
        _publish_all(
            match.table_id,
            {
                "type": "match_over",
                "version": match.version,
                "result": _result_public(match, seats),
            },
        )
    _schedule(deadlines)


def match_act(
    *,
    table_id: int,
    player: Player | None,
    version: int,
    action: dict[str, Any],
    client_action_id: str,
    now: datetime | None = None,
) -> Outcome:
    """A player's move: checked against the seat, the turn, the version and the rules."""
    now = now or timezone.now()
    with transaction.atomic():
        match = _locked_match(table_id=table_id)  # Lock: one move at a time per table.
        if match is None:
            raise ServiceError(gettext("The match has not started yet."), code="no_match")
        seats = _seats(table_id)
        seat = next((s for s in seats if player is not None and s.player_id == player.pk), None)
        if seat is None:
            raise ServiceError(
                gettext("You are watching this table; only its players move."), code="not_seated"
            )
        if client_action_id:
            done = (
                MatchEvent.objects.filter(
                    match=match, seat=seat.position, client_action_id=client_action_id
                )
                .values_list("version", flat=True)
                .first()
            )
            if done is not None:
                return Outcome(version=done, duplicate=True)
        if match.status != Match.Status.PLAYING:
            raise ServiceError(gettext("The match is over."), code="match_over")
        if seat.forfeited:
            raise ServiceError(
                gettext("You forfeited this match; you can only watch."), code="not_seated"
            )
        if version != match.version:
            raise ServiceError(
                gettext("The match is at version %(now)s, not %(sent)s: here is the state now.")
                % {"now": match.version, "sent": version},
                code="stale",
            )
        state = _state(match)
        if state.to_act != seat.position:
            raise ServiceError(gettext("It is not your turn."), code="not_your_turn")
        try:
            new_state = state.apply(action)
        except RulesError as error:
            raise ServiceError(rules_message(error), code="illegal") from None
        except (TypeError, KeyError, AttributeError, IndexError) as error:
            # A malformed action the engine did not foresee; refuse it like an illegal one.
            logger.warning("Engine refused a malformed action %r: %r", action, error)
            raise ServiceError(gettext("That action is not understood."), code="illegal") from None
        if seat.timeouts_in_row:
            seat.timeouts_in_row = 0  # acting yourself ends a run of timeouts
            seat.save(update_fields=["timeouts_in_row"])
        _record(
            match,
            new_state,
            seats,
            seat=seat.position,
            kind="act",
            action=action,
            client_action_id=client_action_id,
            now=now,
        )
    return Outcome(version=match.version)


def play_due_turn(*, match_id: int, version: int, now: datetime | None = None) -> bool:
    """The turn clock ran out, or a bot seat is to act: play the automatic move, once.

    Idempotent: the task names the version it was armed for; any move since makes it a no-op.
    The third timeout in a row is abandonment (README § 0.6) and forfeits instead.
    """
    now = now or timezone.now()
    with transaction.atomic():
        match = _locked_match(pk=match_id)  # Lock: re-check the clock against concurrent moves.
        if match is None or match.status != Match.Status.PLAYING or match.version != version:
            return False
        state = _state(match)
        if state.to_act is None:
            return False
        seats = _seats(match.table_id)
        seat = seats[state.to_act]
        if seat.is_bot or seat.forfeited:
            action = bots.choose(state)
            _record(
                match,
                state.apply(action),
                seats,
                seat=seat.position,
                kind="bot",
                action=action,
                now=now,
            )
            return True
        if match.turn_deadline is None or match.turn_deadline > now:
            return False  # paused (the seat is absent) or not yet due
        seat.timeouts_in_row += 1
        seat.save(update_fields=["timeouts_in_row"])
        if seat.timeouts_in_row >= settings.LIVE_TIMEOUTS_TO_ABANDON:
            _forfeit(match, state, seats, seat, reason="abandoned", now=now)
        else:
            action = auto_action(state)
            _record(
                match,
                state.apply(action),
                seats,
                seat=seat.position,
                kind="timeout",
                action=action,
                now=now,
            )
    return True


# --- Forfeits -------------------------------------------------------------------------------------


def _forfeit(
    match: Match, state: Any, seats: list[Seat], seat: Seat, *, reason: str, now: datetime
) -> None:
    """README § 0.6: 2-player games end; classic Joker goes on with a bot in the seat."""
    new_state = state.forfeit(seat.position)
    seat.forfeited = True
    seat.absence_deadline = None
    seat.is_bot = not new_state.is_over  # only classic Joker plays on after a forfeit
    seat.save(update_fields=["forfeited", "absence_deadline", "is_bot"])
    _record(
        match,
        new_state,
        seats,
        seat=seat.position,
        kind="forfeit",
        action={"reason": reason},
        now=now,
        ended_by="forfeit",
    )


def match_leave(*, table_id: int, player: Player | None, now: datetime | None = None) -> Outcome:
    """Leaving on purpose is an immediate forfeit."""
    now = now or timezone.now()
    with transaction.atomic():
        match = _locked_match(table_id=table_id)  # Lock: a forfeit is a change of the match.
        if match is None:
            raise ServiceError(gettext("The match has not started yet."), code="no_match")
        seats = _seats(table_id)
        seat = next((s for s in seats if player is not None and s.player_id == player.pk), None)
        if seat is None or seat.forfeited:
            raise ServiceError(
                gettext("You have no seat in this match to leave."), code="not_seated"
            )
        if match.status != Match.Status.PLAYING:
            raise ServiceError(gettext("The match is over."), code="match_over")
        _forfeit(match, _state(match), seats, seat, reason="left", now=now)
    return Outcome(version=match.version)


def forfeit_absent_seat(*, match_id: int, seat: int, now: datetime | None = None) -> bool:
    """The grace ran out for an absent seat the table waits on: forfeit it, exactly once."""
    now = now or timezone.now()
    with transaction.atomic():
        match = _locked_match(pk=match_id)  # Lock: re-check the deadline against a reconnect.
        if match is None or match.status != Match.Status.PLAYING:
            return False
        seats = _seats(match.table_id)
        target = seats[seat]
        if (
            target.forfeited
            or target.connected
            or target.absence_deadline is None
            or target.absence_deadline > now
        ):
            return False
        _forfeit(match, _state(match), seats, target, reason="absent", now=now)
    return True


# --- The end --------------------------------------------------------------------------------------


def _finish(
    match: Match, state: Any, seats: list[Seat], *, reason: str, now: datetime
) -> list[str]:
    """Store the result, settle the stakes, free the seats and the table. Lock held.

    Returns the match fields it changed (the caller saves once).
    """
    winners = list(state.result or [])
    match.status = Match.Status.FINISHED
    match.result = {
        "reason": reason,
        "winners": winners,
        "forfeited": [seat.position for seat in seats if seat.forfeited],
        "scores": list(state.scores),
    }
    match.ended_at = now
    match.turn_deadline = None
    match.turn_remaining_ms = None
    table = match.table
    if table.stake and winners:
        # Same transaction as the final move: a match is never over without being paid.
        wallet_settle(match_id=match.pk, winners=[seats[w].player for w in winners])
    _free_table(table, seats, Table.Status.FINISHED, now)
    match_id = match.pk
    transaction.on_commit(lambda: announce_match_finished(match_id))
    return ["status", "result", "ended_at"]


def _free_table(table: Table, seats: list[Seat], status: str, now: datetime) -> None:
    Seat.objects.filter(table=table).update(active=False, absence_deadline=None)
    for seat in seats:
        seat.active = False
        seat.absence_deadline = None
    table.status = status
    table.ended_at = now
    table.save(update_fields=["status", "ended_at"])


def announce_match_finished(match_id: int) -> None:
    """THE hook for a finished match, run once after the commit that ended it.

    Ratings (``ladder``) hang off this later; today it records the fact.
    """
    logger.info("Match %s finished.", match_id)


def match_cancel(*, match_id: int, reason: str = "") -> bool:
    """An admin cancels a running match: it is aborted and every stake goes back."""
    now = timezone.now()
    with transaction.atomic():
        match = _locked_match(pk=match_id)  # Lock: no move may land after the cancel.
        if match is None or match.status != Match.Status.PLAYING:
            return False
        seats = _seats(match.table_id)
        match.version += 1
        MatchEvent.objects.create(
            match=match, version=match.version, kind="cancel", action={"reason": reason}
        )
        match.status = Match.Status.ABORTED
        match.result = {"reason": "cancelled", "winners": [], "forfeited": [], "scores": []}
        match.ended_at = now
        match.turn_deadline = None
        match.turn_remaining_ms = None
        match.save(
            update_fields=[
                "version",
                "status",
                "result",
                "ended_at",
                "turn_deadline",
                "turn_remaining_ms",
            ]
        )
        wallet_refund(match_id=match.pk)
        _free_table(match.table, seats, Table.Status.CANCELLED, now)
        state = _state(match)
        _publish_state(match.table, match, state, seats, now)
        _publish_all(
            match.table_id,
            {
                "type": "match_over",
                "version": match.version,
                "result": _result_public(match, seats),
            },
        )
    return True


# --- Presence -------------------------------------------------------------------------------------


def _refresh_presence(match: Match, seats: list[Seat], positions: set[int], now: datetime) -> None:
    """Recompute ``connected`` from fresh connection rows; re-arm clocks; publish. Lock held."""
    cutoff = now - timedelta(seconds=settings.LIVE_CONNECTION_STALE_SECONDS)
    live = set(
        TableConnection.objects.filter(
            table_id=match.table_id, seat__in=positions, last_seen_at__gte=cutoff
        ).values_list("seat", flat=True)
    )
    changed = False
    for seat in seats:
        if seat.position in positions and seat.connected != (seat.position in live):
            seat.connected = seat.position in live
            seat.save(update_fields=["connected"])
            changed = True
    if match.status != Match.Status.PLAYING:
        if changed:
            _publish_presence(match, None, seats, now)
        return
    state = _state(match)
    clocks_changed, deadlines = _arm_clocks(match, state, seats, now, new_turn=False)
    if clocks_changed:
        match.save(update_fields=["turn_deadline", "turn_remaining_ms"])
    if changed or clocks_changed:
        _publish_presence(match, state, seats, now)
    _schedule(deadlines)


def seat_connected(
    *,
    table_id: int,
    seat: int | None,
    player: Player | None,
    channel_name: str,
    now: datetime | None = None,
) -> Connected:
    """Register one socket (a row, see TableConnection) and return its first snapshot."""
    now = now or timezone.now()
    with transaction.atomic():
        # Lock: presence and clocks change together with moves, never between them.
        match = _locked_match(table_id=table_id)
        TableConnection.objects.update_or_create(
            channel_name=channel_name,
            defaults={"table_id": table_id, "seat": seat, "player": player, "last_seen_at": now},
        )
        seats = _seats(table_id)
        if match is not None and seat is not None:
            _refresh_presence(match, seats, {seat}, now)
        table = match.table if match is not None else Table.objects.get(pk=table_id)
        state = _state(match) if match is not None else None
        frame = _frame(table, match, state, seats, seat, now)
    return Connected(seat=seat, frame=frame)


def seat_disconnected(*, channel_name: str, now: datetime | None = None) -> None:
    """A socket closed: drop its row; its seat is absent if it was the last one."""
    now = now or timezone.now()
    row = TableConnection.objects.filter(channel_name=channel_name).first()
    if row is None:
        return
    with transaction.atomic():
        match = _locked_match(table_id=row.table_id)  # Lock: see seat_connected.
        TableConnection.objects.filter(pk=row.pk).delete()
        if match is not None and row.seat is not None:
            _refresh_presence(match, _seats(row.table_id), {row.seat}, now)


def connection_heartbeat(
    *, channel_name: str, user: Any = None, session: Any = None, now: datetime | None = None
) -> str:
    """Refresh a socket's row. ``"ok"``; ``"gone"`` if the sweep removed it (register again);
    ``"ended"`` if its session was logged out or its user deactivated (close with 4003)."""
    now = now or timezone.now()
    session_key = getattr(session, "session_key", None)
    if session_key and not session.exists(session_key):
        return "ended"
    if user is not None and getattr(user, "is_authenticated", False):
        active = get_user_model().objects.filter(pk=user.pk, is_active=True).exists()
        if not active:
            return "ended"
    updated = TableConnection.objects.filter(channel_name=channel_name).update(last_seen_at=now)
    return "ok" if updated else "gone"


# --- The sweep ------------------------------------------------------------------------------------


def live_sweep(*, now: datetime | None = None) -> dict[str, int]:
    """The safety net (beat, every few seconds): dead sockets, lost forfeits, lost turn clocks."""
    now = now or timezone.now()
    counts = {"connections": 0, "forfeits": 0, "turns": 0}
    cutoff = now - timedelta(seconds=settings.LIVE_CONNECTION_STALE_SECONDS)
    stale = list(
        TableConnection.objects.filter(last_seen_at__lt=cutoff).values_list(
            "pk", "table_id", "seat"
        )
    )
    touched: dict[int, set[int]] = {}
    for pk, table_id, seat in stale:
        # Claim by deleting: of two sweeps, only one counts a row.
        if TableConnection.objects.filter(pk=pk, last_seen_at__lt=cutoff).delete()[0]:
            counts["connections"] += 1
            if seat is not None:
                touched.setdefault(table_id, set()).add(seat)
    for table_id, positions in touched.items():
        with transaction.atomic():
            match = _locked_match(table_id=table_id)  # Lock: presence changes like a move.
            if match is not None:
                _refresh_presence(match, _seats(table_id), positions, now)
    overdue_seats = Seat.objects.filter(
        absence_deadline__lte=now, forfeited=False, table__match__status=Match.Status.PLAYING
    ).values_list("table__match__pk", "position")
    for match_id, position in list(overdue_seats):
        counts["forfeits"] += forfeit_absent_seat(match_id=match_id, seat=position, now=now)
    overdue_turns = Match.objects.filter(
        status=Match.Status.PLAYING, turn_deadline__lte=now
    ).values_list("pk", "version")
    for match_id, version in list(overdue_turns):
        counts["turns"] += play_due_turn(match_id=match_id, version=version, now=now)
    return counts


# --- Rematch --------------------------------------------------------------------------------------


def rematch_accept(*, table_id: int, player: Player | None, accept: bool = True) -> dict[str, Any]:
    """Accept (or withdraw) a rematch; the last acceptance opens the new table, once.

    Same game, options, stake and visibility; every player moves one seat on. The players a bot
    replaced are not asked. The new table starts at once when every seat is filled.
    """
    with transaction.atomic():
        # Lock: acceptances from every seat queue here, so the new table is made exactly once.
        match = _locked_match(table_id=table_id)
        if match is None or match.status == Match.Status.PLAYING:
            raise ServiceError(gettext("The match is still being played."), code="match_not_over")
        seats = _seats(table_id)
        seat = next((s for s in seats if player is not None and s.player_id == player.pk), None)
        if seat is None or seat.is_bot:
            raise ServiceError(
                gettext("Only the match’s players can ask for a rematch."), code="not_seated"
            )
        table = match.table
        if not Table.objects.filter(rematch_of=table).exists():
            if seat.wants_rematch != accept:
                seat.wants_rematch = accept
                seat.save(update_fields=["wants_rematch"])
            needed = [s for s in seats if not s.is_bot]
            if accept and all(s.wants_rematch for s in needed):
                _open_rematch(table, needed)
        offer = _rematch_public(match, seats)
        _publish_all(table_id, {"type": "rematch", **offer})
    return offer


def _open_rematch(table: Table, players: list[Seat]) -> Table:
    from .lobby import table_publish, table_start  # the lobby starts tables and tells the lobby

    for seat in players:
        busy = Seat.objects.filter(player_id=seat.player_id, active=True).first()
        if busy is not None:
            raise ServiceError(
                gettext("%(name)s is already seated at table #%(number)s.")
                % {"name": seat.player.name, "number": busy.table_id},
                code="already_seated",
            )
    creator = next(
        (s.player for s in players if s.player_id == table.creator_id), players[0].player
    )
    try:
        with transaction.atomic():
            new_table = Table.objects.create(
                game=table.game,
                options=table.options,
                stake=table.stake,
                visibility=table.visibility,
                password_hash=table.password_hash,
                creator=creator,
                seats_total=table.seats_total,
                rematch_of=table,
            )
            for seat in players:
                Seat.objects.create(
                    table=new_table,
                    player=seat.player,
                    position=(seat.position + 1) % table.seats_total,
                )
    except IntegrityError:  # one of them sat down elsewhere a moment ago
        raise ServiceError(
            gettext("A player sat down at another table."), code="already_seated"
        ) from None
    if len(players) == table.seats_total:
        table_start(new_table)
    table_publish(new_table)
    return new_table
