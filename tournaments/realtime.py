"""What a tournament's sockets hear (docs/protocol.md § Tournament socket): its standings, one
frame per change of them (a table counted, a round paired, a player in or out, the end), never
one per move; at most one every ``TOURNAMENT_STANDINGS_SECONDS`` per tournament, counted in the
cache that every process shares, and what a pause held back said by a task when it ends (the
beat's tick catches a lost one)."""

from __future__ import annotations

import hashlib
import time
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import transaction

from accounts.models import Player
from core import realtime as core_realtime
from games.services.jobs import enqueue_on_commit

from . import scoring, selectors
from .models import Tournament

# A process that dies while it says a frame keeps the next one back this long at most.
SAYING_SECONDS = 10


def tournament_group(tournament_id: int) -> str:
    return f"tournament-{tournament_id}"


def _said_key(tournament_id: int) -> str:
    return f"tournaments.standings-said:{tournament_id}"


def standings_version(tournament: Tournament) -> str:
    """Changes whenever the standings may have: a result, an entrant in, out or paused, a
    round, the status; or the tables being played (a pairing), which the page lists too."""
    results = tournament.results.order_by("-pk").values_list("pk", flat=True).first() or 0
    tables = tournament.tables.order_by("-pk").values_list("pk", flat=True).first() or 0
    entrants = tournament.entrants.order_by("pk").values_list("pk", "paused", "withdrawn", "rank")
    # A digest, not hash(): the same in every process (Python 3.11 hashes None by its address,
    # and every entrant's rank is None until the end), so equal standings have equal versions
    # whichever process built the frame.
    digest = hashlib.blake2b(repr(list(entrants)).encode(), digest_size=8).hexdigest()
    return f"{tournament.status}:{tournament.round_number}:{results}:{tables}:{digest}"


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
    entrants = list(tournament.entrants.all())  # one read for the table and its flags
    table = selectors.standings(tournament, entrants)
    top = table[: settings.TOURNAMENT_STANDINGS_TOP]
    ids = [row.player for row in top]
    names = dict(Player.objects.filter(pk__in=ids).values_list("pk", "name"))
    flags = {e.player_id: (e.on_fire, e.paused, e.withdrawn) for e in entrants}
    return {
        "type": "standings",
        "tournament": tournament.pk,
        "status": tournament.status,
        "round": tournament.round_number,
        "ends_at": tournament.ends_at.isoformat() if tournament.ends_at else None,
        "players": len(table),
        "version": standings_version(tournament),
        "rows": [_row(standing, names, flags) for standing in top],
    }


def publish_standings(tournament_id: int) -> None:
    """After the commit of a change: the standings to the tournament's sockets now, or, within
    ``TOURNAMENT_STANDINGS_SECONDS`` of the last frame, when that pause ends."""
    transaction.on_commit(lambda: standings_say(tournament_id))


def publish_standings_later(tournament_id: int) -> None:
    """After the commit, ask for the standings to be said by a task (at once, or when the pause
    ends), not by this thread: an arena's pass, which pairs one batch after another, must not
    stop to build the frame."""
    transaction.on_commit(lambda: _hold(tournament_id, _pause_left(tournament_id)))


def _said_at_key(tournament_id: int) -> str:
    return f"tournaments.standings-said-at:{tournament_id}"


def _saying_key(tournament_id: int, said_at: float | None) -> str:
    return f"tournaments.standings-after:{tournament_id}:{said_at!r}"


def _held_key(tournament_id: int) -> str:
    return f"tournaments.standings-held:{tournament_id}"


def _pause_left(tournament_id: int, said_at: float | None = None) -> float:
    """Seconds until the next frame may go: the pause counts from the end of the last send, by
    the wall clock (the cache is shared by every process; its own expiry is in whole seconds)."""
    if said_at is None:
        said_at = cache.get(_said_at_key(tournament_id))
    if said_at is None:
        return 0.0
    return max(0.0, said_at + settings.TOURNAMENT_STANDINGS_SECONDS - time.time())


def _hold(tournament_id: int, wait: float) -> None:
    """One task per pause says what the pause held back, due when the pause ends; the key holds
    that due time, for the task to tell whether it runs early."""
    due = time.time() + wait
    if cache.add(_held_key(tournament_id), due, timeout=int(wait) + 60):
        enqueue_on_commit("tournaments.tasks.standings_held", tournament_id, countdown=wait)


def standings_say(tournament_id: int, *, force: bool = False) -> bool:
    """Say the standings now if they changed since they were last said. True if said.

    At most one frame per ``TOURNAMENT_STANDINGS_SECONDS`` per tournament, whichever process
    says it: a change within the pause is held for one task due when it ends (a change to an
    event that is not running, such as a second player entering in the same second, has no tick
    to say it). The process that says the frame after the one said at ``said_at`` is the one
    whose ``cache.add`` of that frame's key wins; the others hold. ``force`` (a held task that
    runs before its time) says without the pause: each socket keeps its own frames a pause
    apart (``consumers``)."""
    said_at = cache.get(_said_at_key(tournament_id))
    if not force and (wait := _pause_left(tournament_id, said_at)) > 0:
        _hold(tournament_id, wait)
        return False
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return False
    if cache.get(_said_key(tournament_id)) == standings_version(tournament):
        return False  # checked before the frame is built: the tick asks every two seconds
    reserved = cache.add(_saying_key(tournament_id, said_at), True, timeout=SAYING_SECONDS)
    if not reserved and not force:
        _hold(tournament_id, settings.TOURNAMENT_STANDINGS_SECONDS)  # another is saying it
        return False
    frame = standings_frame(tournament)
    core_realtime.send_now(
        tournament_group(tournament_id), {"type": "tournament.standings", "frame": frame}
    )
    # Only once it is sent: a send that failed (the process stopping, Redis gone a moment)
    # must leave the change to be said again, by the tick if nothing else.
    cache.set(_said_key(tournament_id), frame["version"], timeout=24 * 3600)
    cache.set(
        _said_at_key(tournament_id),
        time.time(),
        timeout=int(settings.TOURNAMENT_STANDINGS_SECONDS) + 60,
    )
    return True


def standings_held(tournament_id: int) -> bool:
    """The task a pause left: say what it held back (if anything changed, whatever else said
    since), or hold it again when another frame went meanwhile. A task that runs before its
    due time (Celery's eager mode, where a countdown is not waited for) says at once."""
    due = cache.get(_held_key(tournament_id))
    cache.delete(_held_key(tournament_id))
    return standings_say(tournament_id, force=due is not None and time.time() < due)
