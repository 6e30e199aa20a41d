"""The beat's pass over every tournament (``TOURNAMENT_TICK_SECONDS``): start what is due, pair
the arenas' free players, count finished tables whose task was lost, pair the next Swiss round,
end what is over. Every step re-checks the database, so a tick that runs twice, runs in
two workers, or runs after a worker died mid-tournament does each thing once."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from django.conf import settings
from django.utils import timezone

from games.models import Match

from ..models import Schedule, Tournament, TournamentTable
from ..realtime import standings_say
from .creation import schedule_occurrence
from .running import arena_pass, swiss_next, table_count, tournament_finish, tournament_start

ARENA = Tournament.Format.ARENA


def schedule_slots(schedule: Schedule, now: datetime, ahead: timedelta) -> list[datetime]:
    """The schedule's slots from ``now`` to ``now + ahead``, in UTC: its local time of day on
    each day (or its weekday) in its own time zone, so "20:00 Tbilisi" stays 20:00 there."""
    zone = ZoneInfo(schedule.time_zone)
    first = now.astimezone(zone).date()
    found = []
    for offset in range(ahead.days + 2):
        day = first + timedelta(days=offset)
        if schedule.every == Schedule.Every.WEEK and day.weekday() != schedule.weekday:
            continue
        slot = datetime.combine(day, schedule.time_of_day, tzinfo=zone).astimezone(UTC)
        if now <= slot <= now + ahead:
            found.append(slot)
    return found


def schedules_fill(*, now: datetime | None = None) -> int:
    """Each active schedule's events for the next ``TOURNAMENT_SCHEDULE_AHEAD_HOURS``, once per
    slot (a unique constraint); the number made."""
    now = now or timezone.now()
    ahead = timedelta(hours=settings.TOURNAMENT_SCHEDULE_AHEAD_HOURS)
    made = 0
    for schedule in Schedule.objects.filter(active=True):
        slots = schedule_slots(schedule, now, ahead)
        filled = set(
            schedule.tournaments.filter(occurrence__in=slots).values_list("occurrence", flat=True)
        )
        for slot in slots:
            if slot not in filled:
                made += schedule_occurrence(schedule, slot) is not None
    return made


def tournaments_tick(*, now: datetime | None = None) -> dict[str, int]:
    now = now or timezone.now()
    counts = {"made": schedules_fill(now=now)}
    counts.update(started=0, counted=0, tables=0, rounds=0, finished=0)
    due = Tournament.objects.filter(status=Tournament.Status.SCHEDULED, starts_at__lte=now)
    for tournament_id in list(due.values_list("pk", flat=True)):
        counts["started"] += tournament_start(tournament_id=tournament_id, now=now)
    running = Tournament.objects.filter(status=Tournament.Status.RUNNING)
    formats = dict(running.values_list("pk", "format"))
    # An arena's free players first: they need no count (a burst of match ends once left them
    # waiting behind the counts this tick had taken over).
    for tournament_id in [pk for pk, format_ in formats.items() if format_ == ARENA]:
        counts["tables"] += len(arena_pass(tournament_id=tournament_id, now=now))
    # Tables whose own count task should have run by now (it was lost, or its worker died).
    over = TournamentTable.objects.filter(
        counted=False,
        tournament__status=Tournament.Status.RUNNING,
        table__ended_at__lt=now - timedelta(seconds=settings.TOURNAMENT_COUNT_GRACE_SECONDS),
    ).exclude(table__match__status=Match.Status.PLAYING)
    for link_id in list(over.values_list("pk", flat=True)):
        counts["counted"] += table_count(link_id=link_id, now=now)
    for tournament_id, format_ in formats.items():
        if format_ != ARENA:
            counts["rounds"] += swiss_next(tournament_id=tournament_id, now=now)
        counts["finished"] += tournament_finish(tournament_id=tournament_id, now=now)
        standings_say(tournament_id)  # what the pause after the last change held back
    return counts
