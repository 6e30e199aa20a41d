"""What tournaments add to the games app's hooks (config/settings/play.py)."""

from __future__ import annotations

from games.models import Match, Seat
from games.services.jobs import enqueue_on_commit

from .models import TournamentTable


def match_ended(match: Match, seats: list[Seat]) -> None:
    """``GAMES_MATCH_ENDED``: a tournament's table is counted by a task after the commit (the
    beat's tick counts it if that task is lost)."""
    link_id = (
        TournamentTable.objects.filter(table_id=match.table_id).values_list("pk", flat=True).first()
    )
    if link_id is not None:
        enqueue_on_commit("tournaments.tasks.count_table", link_id)
