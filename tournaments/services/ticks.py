"""The beat's pass over every tournament (``TOURNAMENT_TICK_SECONDS``): start what is due,
count finished tables whose task was lost, pair the arenas' free players, pair the next Swiss
round, end what is over. Every step re-checks the database, so a tick that runs twice, runs in
two workers, or runs after a worker died mid-tournament does each thing once."""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone

from games.models import Match

from ..models import Tournament, TournamentTable
from .running import arena_pass, swiss_next, table_count, tournament_finish, tournament_start


def tournaments_tick(*, now: datetime | None = None) -> dict[str, int]:
    now = now or timezone.now()
    counts = {"started": 0, "counted": 0, "tables": 0, "rounds": 0, "finished": 0}
    due = Tournament.objects.filter(status=Tournament.Status.SCHEDULED, starts_at__lte=now)
    for tournament_id in list(due.values_list("pk", flat=True)):
        counts["started"] += tournament_start(tournament_id=tournament_id, now=now)
    over = TournamentTable.objects.filter(
        counted=False, tournament__status=Tournament.Status.RUNNING
    ).exclude(table__match__status=Match.Status.PLAYING)
    for link_id in list(over.values_list("pk", flat=True)):
        counts["counted"] += table_count(link_id=link_id, now=now)
    running = Tournament.objects.filter(status=Tournament.Status.RUNNING)
    for tournament_id, format_ in list(running.values_list("pk", "format")):
        if format_ == Tournament.Format.ARENA:
            counts["tables"] += len(arena_pass(tournament_id=tournament_id, now=now))
        else:
            counts["rounds"] += swiss_next(tournament_id=tournament_id, now=now)
        counts["finished"] += tournament_finish(tournament_id=tournament_id, now=now)
    return counts
