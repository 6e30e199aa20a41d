"""What tournaments add to the games app's hooks (config/settings/play.py)."""

from __future__ import annotations

from datetime import datetime

from games.models import Match, Seat
from games.services.jobs import enqueue_on_commit

from .models import Entrant, Tournament, TournamentTable


def match_ended(match: Match, seats: list[Seat]) -> None:
    """``GAMES_MATCH_ENDED``: a tournament's table is counted by a task after the commit (the
    beat's tick counts it if that task is lost)."""
    link_id = (
        TournamentTable.objects.filter(table_id=match.table_id).values_list("pk", flat=True).first()
    )
    if link_id is not None:
        enqueue_on_commit("tournaments.tasks.count_table", link_id)


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
