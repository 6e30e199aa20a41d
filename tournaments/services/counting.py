"""Counting a tournament table whose match is over (docs/tournaments.md § How it runs, 3): a
result row per player, and each player's run scored again in the order their matches ended.

A count may come late (its task lost and made by the tick after its grace, a worker killed): a
player's next match may be counted first. Arena points and the streak's doubling depend on what
came before, so each count scores the player's whole run again, in the order the matches
ended, and rewrites whatever it changes; the entrant's cached score and fire are that run.
Locks (docs/concurrency.md § Tournaments): the table's link row, the tournament's row only as
the key-share lock the new rows take, then the entrants, in id order.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from games.models import Match, Seat
from ladder import rating
from ladder.selectors import pool_ratings

from .. import scoring, selectors
from ..models import Entrant, Tournament, TournamentResult, TournamentTable
from ..realtime import publish_standings_later


def _places(match: Match, seats: list[Seat]) -> dict[int, int] | None:
    """Each player's place, or None for a match that did not count (aborted)."""
    result = match.result or {}
    if match.status != Match.Status.FINISHED or not result.get("winners"):
        return None
    places = rating.placements(
        seats=len(seats),
        winners=result["winners"],
        forfeited=result.get("forfeited", []),
        scores=result.get("scores") or [0] * len(seats),
    )
    return {seat.player_id: places[seat.position] for seat in seats}


def table_count(*, link_id: int, now: datetime | None = None) -> bool:
    """Count a tournament table whose match is over: a result row per player, the entrants'
    scores and streaks. Once: True only the first time. (An arena's players are paired again
    by a pass enqueued at the match's end, not after this.)"""
    now = now or timezone.now()
    with transaction.atomic():
        # The link's row alone (OF self), waited for. Locking the joined tournament's row too
        # met every pass (it holds that row FOR NO KEY UPDATE while it chooses), and SKIP
        # LOCKED then dropped the count to the tick 15 s later (issue 40). A second count of
        # the table waits for the first and then finds it counted.
        link = (
            TournamentTable.objects.select_for_update(of=("self",))
            .filter(pk=link_id, counted=False)
            .select_related("tournament")
            .first()
        )
        if link is None:
            return False
        match = Match.objects.filter(table_id=link.table_id).first()
        if match is not None and match.status == Match.Status.PLAYING:
            return False
        tournament = link.tournament
        seats = list(Seat.objects.filter(table_id=link.table_id).order_by("position"))
        places = _places(match, seats) if match is not None else None
        players = [seat.player_id for seat in seats]
        if places is not None:
            _record(tournament, link, places, ended_at=(match.ended_at if match else None) or now)
        link.counted = True
        link.save(update_fields=["counted"])
        publish_standings_later(tournament.pk)  # by a task: counts come in bursts
        tournament.entrants.filter(player_id__in=players).update(free_since=now)
    return True


def _record(
    tournament: Tournament, link: TournamentTable, places: dict[int, int], ended_at: datetime
) -> None:
    """The table's rows, then each of its players' runs scored again under their entrant's
    lock (their other counts wait for it, and each scores the rows committed before)."""
    outcomes = scoring.outcomes_from_places(places)
    ratings = pool_ratings(tournament.game, set(places))
    arena = tournament.format == Tournament.Format.ARENA
    # The rows first: naming the tournament, they take the key-share lock on its row before
    # the entrants' rows are locked, the order a join, a leave or a pause takes them in.
    TournamentResult.objects.bulk_create(
        TournamentResult(
            tournament=tournament,
            tournament_table=link,
            player_id=pid,
            round_number=link.round_number,
            place=outcome.place,
            tied=outcome.tied,
            seats=outcome.seats,
            # An arena's points and doubling are the run's, set just below.
            points=0 if arena else selectors.half_points(scoring.swiss_points(outcome)),
            opponents=[other for other in places if other != pid],
            opponent_ratings=[round(ratings[other]) for other in places if other != pid],
            ended_at=ended_at,
        )
        for pid, outcome in outcomes.items()
    )
    entrants = list(
        tournament.entrants.select_for_update().filter(player_id__in=list(places)).order_by("pk")
    )
    runs: dict[int, list[TournamentResult]] = defaultdict(list)
    for result in tournament.results.filter(player_id__in=list(places)):
        runs[result.player_id].append(result)
    for entrant in entrants:
        _score_run(entrant, sorted(runs[entrant.player_id], key=selectors.play_order), arena)


def _score_run(entrant: Entrant, results: list[TournamentResult], arena: bool) -> None:
    """A player's results in the order their matches ended: an arena's points and doubling
    rewritten where a match counted late changed them; the entrant's score and fire are the
    run's (a Swiss score is the sum of its rows, whatever their order)."""
    entrant.on_fire = False
    if arena:
        record = scoring.arena_record(selectors.outcome_of(result) for result in results)
        changed = []
        for result, match in zip(results, record.matches, strict=True):
            if (result.points, result.doubled) != (match.points, match.doubled):
                result.points, result.doubled = match.points, match.doubled
                changed.append(result)
        TournamentResult.objects.bulk_update(changed, ["points", "doubled"])
        entrant.on_fire = record.on_fire
    entrant.score = sum(result.points for result in results)
    entrant.save(update_fields=["score", "on_fire"])
