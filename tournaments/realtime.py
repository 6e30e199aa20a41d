"""What a tournament's sockets hear (docs/protocol.md § Tournament socket): its standings, one
frame per change of them (a table counted, a round paired, a player in or out, the end), never
one per move; at most one every ``TOURNAMENT_STANDINGS_SECONDS``, the beat's tick sending what
that pause held back."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import transaction

from accounts.models import Player
from core import realtime as core_realtime
from games.services.jobs import enqueue_on_commit

from . import scoring, selectors
from .models import Tournament


def tournament_group(tournament_id: int) -> str:
    return f"tournament-{tournament_id}"


def _said_key(tournament_id: int) -> str:
    return f"tournaments.standings-said:{tournament_id}"


def _pause_key(tournament_id: int) -> str:
    return f"tournaments.standings-pause:{tournament_id}"


def _version(tournament: Tournament) -> str:
    """Changes whenever the standings may have: a result, an entrant in, out or paused, a
    round, the status; or the tables being played (a pairing), which the page lists too."""
    results = tournament.results.order_by("-pk").values_list("pk", flat=True).first() or 0
    tables = tournament.tables.order_by("-pk").values_list("pk", flat=True).first() or 0
    entrants = tournament.entrants.order_by("pk").values_list("pk", "paused", "withdrawn", "rank")
    return (
        f"{tournament.status}:{tournament.round_number}:{results}:{tables}:{hash(tuple(entrants))}"
    )


def _row(
    standing: scoring.ArenaStanding | scoring.SwissStanding,
    names: dict[int, str],
    flags: dict[int, tuple[bool, bool, bool]],
) -> dict[str, Any]:
    on_fire, paused, withdrawn = flags.get(standing.player, (False, False, False))
    row: dict[str, Any] = {
        "rank": standing.rank,
        "player": names.get(standing.player, ""),
        "on_fire": on_fire,
        "paused": paused,
        "withdrawn": withdrawn,
    }
    if isinstance(standing, scoring.ArenaStanding):
        row["score"] = standing.record.total
        row["results"] = [[match.points, match.doubled] for match in standing.record.matches]
        row["performance"] = standing.performance
    else:
        row["score"] = float(standing.points)
        row["buchholz"] = float(standing.buchholz)
        row["sonneborn_berger"] = float(standing.sonneborn_berger)
    return row


def standings_frame(tournament: Tournament) -> dict[str, Any]:
    """The ``standings`` frame: the top ``TOURNAMENT_STANDINGS_TOP`` rows (the page lists the
    rest), with what each row's tiebreaks used."""
    table = selectors.standings(tournament)
    top = table[: settings.TOURNAMENT_STANDINGS_TOP]
    ids = [row.player for row in top]
    names = dict(Player.objects.filter(pk__in=ids).values_list("pk", "name"))
    flags = {
        player: (on_fire, paused, withdrawn)
        for player, on_fire, paused, withdrawn in tournament.entrants.filter(
            player_id__in=ids
        ).values_list("player_id", "on_fire", "paused", "withdrawn")
    }
    return {
        "type": "standings",
        "tournament": tournament.pk,
        "status": tournament.status,
        "round": tournament.round_number,
        "ends_at": tournament.ends_at.isoformat() if tournament.ends_at else None,
        "players": len(table),
        "version": _version(tournament),
        "rows": [_row(standing, names, flags) for standing in top],
    }


def publish_standings(tournament_id: int) -> None:
    """After the commit of a change: the standings to the tournament's sockets, unless they
    were said less than ``TOURNAMENT_STANDINGS_SECONDS`` ago (the tick says them then)."""
    transaction.on_commit(lambda: standings_say(tournament_id))


def publish_standings_later(tournament_id: int) -> None:
    """After the commit, ask for the standings to be said by a task (within a pause), not by
    this thread: an arena's pass, which pairs one batch after another, must not stop to build
    the frame."""
    transaction.on_commit(lambda: _hold(tournament_id))


def _hold(tournament_id: int) -> None:
    pause = settings.TOURNAMENT_STANDINGS_SECONDS
    if cache.add(_held_key(tournament_id), True, timeout=pause + 60):
        enqueue_on_commit("tournaments.tasks.standings_held", tournament_id, countdown=pause)


def _held_key(tournament_id: int) -> str:
    return f"tournaments.standings-held:{tournament_id}"


def standings_say(tournament_id: int, *, force: bool = False) -> bool:
    """Say the standings now if they changed since they were last said. True if said.

    A change within the pause is said when the pause ends, by one task per pause (a change to
    an event that is not running, such as a second player entering in the same second, has no
    tick to say it)."""
    pause = settings.TOURNAMENT_STANDINGS_SECONDS
    if not force and not cache.add(_pause_key(tournament_id), True, timeout=pause):
        _hold(tournament_id)
        return False
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return False
    if cache.get(_said_key(tournament_id)) == _version(tournament):
        return False  # checked before the frame is built: the tick asks every two seconds
    frame = standings_frame(tournament)
    cache.set(_said_key(tournament_id), frame["version"], timeout=24 * 3600)
    core_realtime.send_now(
        tournament_group(tournament_id), {"type": "tournament.standings", "frame": frame}
    )
    return True


def standings_held(tournament_id: int) -> bool:
    """The task a pause left: say what it held back (if anything changed, whatever else said
    since)."""
    cache.delete(_held_key(tournament_id))
    return standings_say(tournament_id, force=True)
