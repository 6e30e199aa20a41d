"""Seating a tournament's groups (an arena's pass, a Swiss round): a new started table for
each, in chunks of a few tables to a transaction, an arena's chunks on threads of the worker
(docs/performance.md § Arena)."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from functools import cache as cache_function

from django.conf import settings
from django.db import connection, transaction

from accounts.models import Player
from core import realtime
from games.services.paired_tables import table_for_players

from ..models import Tournament, TournamentTable
from ..realtime import publish_standings_later

SEAT_CHUNK = 8  # the most tables made in one transaction
NOTE_POLL_SECONDS = 0.05  # how often a pass waiting on its seating looks for a note to go round


def seat_groups(
    tournament: Tournament, groups: list[tuple[int, ...]], round_number: int
) -> list[int]:
    """A started table for each group; a group one of whom sat down elsewhere meanwhile is
    skipped (they are paired again on the next pass)."""
    chunks = _chunks(tournament, groups)
    if transaction.get_connection().in_atomic_block or not _parallel():
        # A Swiss round's tables are made in its own transaction, one after another.
        made = [table for chunk in chunks for table in _seat_chunk(tournament, chunk, round_number)]
    else:
        # An arena's pass: a few tables to a transaction, a few transactions at once. Their
        # players hear of their matches after one commit and one trip to the channel layer,
        # not after the whole pass; and a table's dozen statements wait on the database (most
        # of all on a busy machine), so the chunks' waits overlap rather than add up.
        jobs = [
            _seaters().submit(_seat_chunk_apart, tournament, chunk, round_number)
            for chunk in chunks
        ]
        made = [table for job in jobs for table in job.result()]
    if made:
        publish_standings_later(tournament.pk)  # the event's page lists the tables being played
    return made


class SeatingUnderWay:
    """An arena pass's tables being made on the seating threads while the pass chooses again
    (a burst of match ends paired in rounds that each waited for their tables kept players
    freed meanwhile waiting a round and a half). Until its table is committed, a chosen player
    is left out of the next choice."""

    def __init__(self, tournament_id: int) -> None:
        self.tournament_id = tournament_id
        self.jobs: dict[Future[list[int]], frozenset[int]] = {}
        self.made: list[int] = []

    def players(self) -> set[int]:
        return set().union(*self.jobs.values())

    def start(self, tournament: Tournament, groups: list[tuple[int, ...]]) -> None:
        if not _parallel():
            self.made += seat_groups(tournament, groups, round_number=0)
            return
        for chunk in _chunks(tournament, groups):
            job = _seaters().submit(_seat_chunk_apart, tournament, chunk, 0)
            self.jobs[job] = frozenset(player.pk for group in chunk for player in group)

    def wait(self, go_round: Callable[[], bool]) -> None:
        """Until the pass is asked to go round again, or every table is made."""
        while self.jobs and not go_round():
            done, _ = wait(self.jobs, timeout=NOTE_POLL_SECONDS, return_when=FIRST_COMPLETED)
            self._collect(done)

    def finish(self) -> None:
        """Every table made before the pass lets go (the next may choose these players)."""
        self._collect(wait(self.jobs).done)

    def _collect(self, done: set[Future[list[int]]]) -> None:
        made = [table for job in done for table in job.result()]
        for job in done:
            del self.jobs[job]
        if made:
            self.made += made
            publish_standings_later(self.tournament_id)


def _chunks(tournament: Tournament, groups: list[tuple[int, ...]]) -> list[list[list[Player]]]:
    """As many chunks as threads for a small pass (a few tables each, so that they all start at
    once), chunks of at most SEAT_CHUNK for a large one."""
    players = {
        entrant.player_id: entrant.player
        for entrant in tournament.entrants.filter(
            player_id__in=[pid for group in groups for pid in group]
        ).select_related("player")
    }
    size = max(1, min(SEAT_CHUNK, -(-len(groups) // settings.TOURNAMENT_SEAT_THREADS)))
    return [
        [[players[pid] for pid in group] for group in groups[start : start + size]]
        for start in range(0, len(groups), size)
    ]


def _parallel() -> bool:
    """SQLite (the embedded default) takes one writer at a time: no point in threads there."""
    return settings.TOURNAMENT_SEAT_THREADS > 1 and connection.vendor != "sqlite"


@cache_function
def _seaters() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(settings.TOURNAMENT_SEAT_THREADS, thread_name_prefix="arena-seat")


def _seat_chunk_apart(
    tournament: Tournament, groups: list[list[Player]], round_number: int
) -> list[int]:
    """A chunk in a seating thread, on a connection of its own for the job (closed after it,
    as a task's is, so no idle session outlives the pass), its messages sent in one trip."""
    try:
        tables, messages = realtime.collecting(_seat_chunk)(tournament, groups, round_number)
    finally:
        connection.close()
    realtime.send_batch(messages)
    return tables


def _seat_chunk(tournament: Tournament, groups: list[list[Player]], round_number: int) -> list[int]:
    with transaction.atomic():
        return [
            table_id
            for table_id in (_seat_group(tournament, group, round_number) for group in groups)
            if table_id is not None
        ]


def _seat_group(tournament: Tournament, players: list[Player], round_number: int) -> int | None:
    """One table (in a savepoint of its own: a player seated elsewhere meanwhile undoes only
    this one) and its link to the tournament."""
    table = table_for_players(
        game=tournament.game,
        players=players,
        speed=tournament.speed,
        rated=tournament.rated,
        options=tournament.options,
    )
    if table is None:
        return None
    TournamentTable.objects.create(tournament=tournament, table=table, round_number=round_number)
    return table.pk
