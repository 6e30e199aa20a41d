"""What tournaments add to the games app's hooks (config/settings/play.py)."""

from __future__ import annotations

import math
from datetime import datetime
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import Player
from core.errors import ServiceError
from games.models import Match, Seat, Table
from games.services.jobs import enqueue_on_commit

from .models import Entrant, Tournament, TournamentTable


def match_ended(match: Match, seats: list[Seat]) -> None:
    """``GAMES_MATCH_ENDED``: a tournament's table is counted by a task after the commit, and in
    an arena a pass pairs its players again at once, beside the count, not after it (the beat's
    tick does both if a task is lost)."""
    link = (
        TournamentTable.objects.filter(table_id=match.table_id)
        .values_list("pk", "tournament_id", "tournament__format")
        .first()
    )
    if link is not None:
        link_id, tournament_id, format_ = link
        enqueue_on_commit("tournaments.tasks.count_table", link_id)
        if format_ == Tournament.Format.ARENA:
            enqueue_on_commit("tournaments.tasks.arena_pass", tournament_id)


def seat_forfeited(
    match: Match, seats: list[Seat], seat: Seat, *, reason: str, now: datetime
) -> None:
    """``GAMES_SEAT_FORFEITED``: an arena player who did not come to their table, or stopped
    playing (``absent``, ``abandoned``), is paused, as lichess pauses a player who does not
    move, so the arena stops pairing them into matches they lose; they come back by pressing
    "Resume". Under the match lock; entrants are locked after it (docs/concurrency.md)."""
    if reason not in ("absent", "abandoned"):
        return
    Entrant.objects.filter(
        tournament__tables__table_id=match.table_id,
        tournament__format=Tournament.Format.ARENA,
        player_id=seat.player_id,
    ).update(paused=True)


def rematch_check(table: Table) -> None:
    """``GAMES_REMATCH_CHECKS``: an event's table has no rematch. Its players are the event's
    to seat (a rematch would sit them at a casual table of their own, and the arena would pass
    them by while it lasted)."""
    if TournamentTable.objects.filter(table=table).exists():
        raise ServiceError(
            gettext("A tournament’s match has no rematch: the tournament seats you again."),
            code="no_rematch",
        )


def table_page_context(player: Player | None, table: Table, seats: list[Seat]) -> dict[str, Any]:
    """``GAMES_TABLE_PAGE_CONTEXT``: at a tournament's table, the event, its time left (an arena)
    or round (Swiss), and the reader's place in it by points."""
    link = TournamentTable.objects.filter(table=table).select_related("tournament").first()
    if link is None:
        return {}
    tournament = link.tournament
    running = tournament.status == Tournament.Status.RUNNING
    note: dict[str, Any] = {
        "tournament": tournament,
        "minutes_left": None,
        "place": None,
        "next_match": False,
    }
    if tournament.ends_at is not None and running:
        left = (tournament.ends_at - timezone.now()).total_seconds()
        note["minutes_left"] = max(0, math.ceil(left / 60))
    entrant = None
    if player is not None:
        entrant = tournament.entrants.filter(player=player).first()
    if entrant is not None:
        note["place"] = 1 + tournament.entrants.filter(score__gt=entrant.score).count()
        # The reader is paired again when this match is over: the page will take them there.
        if tournament.format == Tournament.Format.ARENA:
            more_time = tournament.ends_at is not None and tournament.ends_at > timezone.now()
        else:
            more_time = tournament.round_number < (tournament.rounds or 1)
        note["next_match"] = running and more_time and not entrant.withdrawn
        note["paused"] = running and entrant.paused
    return {"tournament_note": note}
