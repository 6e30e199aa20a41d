"""A tournament from its start to its prizes (docs/tournaments.md § Running).

Each step is safe to run twice and in several workers at once: the start and the end claim the
tournament by its status under the row lock, one arena pass runs at a time (a second one asked
for meanwhile makes the running one go round again), a table is counted once (its link row is
locked and marked: ``counting.py``), a result row is unique per table and player, and the
prizes are one ledger transaction with a key. Nothing is kept in memory between steps: a worker
that dies mid-tournament leaves the database as the next beat tick needs it.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.core.cache import cache
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import Player
from accounts.services import pool_balance, wallet_pool_pay, wallet_pool_refund
from core.errors import ServiceError
from games.models import Seat
from ladder.selectors import pool_ratings

from .. import pairing, scoring, selectors
from ..models import Tournament, TournamentResult
from ..realtime import publish_standings
from .counting import table_count as table_count  # the tasks and the tick count through here
from .entries import locked_tournament, pool_key
from .seating import SeatingUnderWay, seat_groups

PASS_LOCK_SECONDS = 60  # the longest a pass may run before another may start regardless


def _busy_players(player_ids: set[int]) -> set[int]:
    """Players who cannot sit now: seated anywhere on the site (a seat is active until its
    match ends). A player whose tournament match has ended is free before it is counted: the
    pass reads whom they just met from the table (``selectors.last_opponents``)."""
    return set(
        Seat.objects.filter(player_id__in=player_ids, active=True).values_list(
            "player_id", flat=True
        )
    )


# --- Start ----------------------------------------------------------------------------------------


def tournament_start(*, tournament_id: int, now: datetime | None = None) -> bool:
    """Start a tournament whose time has come; one with too few entrants is cancelled (every
    fee refunded). True if it started now."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        if tournament.status != Tournament.Status.SCHEDULED or tournament.starts_at > now:
            return False
        if len(selectors.active_entrants(tournament)) < selectors.seats_of(tournament):
            tournament_cancel(tournament_id=tournament.pk, now=now)
            return False
        tournament.status = Tournament.Status.RUNNING
        tournament.started_at = now
        if tournament.format == Tournament.Format.ARENA:
            tournament.ends_at = now + timedelta(minutes=tournament.duration_minutes or 60)
        tournament.save(update_fields=["status", "started_at", "ends_at"])
        tournament.entrants.update(free_since=now)
        if tournament.format == Tournament.Format.SWISS:
            _swiss_round(tournament, now)
        publish_standings(tournament.pk)
    if tournament.format == Tournament.Format.ARENA:
        arena_pass(tournament_id=tournament.pk, now=now)
    return True


def tournament_cancel(*, tournament_id: int, now: datetime | None = None) -> bool:
    """Call the event off before its end: every entry fee back, once."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
            return False
        tournament.status = Tournament.Status.CANCELLED
        tournament.ended_at = now
        tournament.save(update_fields=["status", "ended_at"])
        wallet_pool_refund(pool_key=pool_key(tournament), label=tournament.name)
    return True


def _call_off_refusal(
    tournament: Tournament, player: Player | None, staff: bool
) -> ServiceError | None:
    """Who may call an event off: staff any event before its end; a player only their own
    event and only before it starts (once it runs, the entrants play for its prizes)."""
    if staff:
        return None
    if player is None or tournament.creator_id != player.pk:
        return ServiceError(
            gettext("Only the organiser can call off this tournament."), code="not_yours"
        )
    if tournament.status != Tournament.Status.SCHEDULED:
        return ServiceError(
            gettext("A tournament that has started plays on to its end."), code="started"
        )
    return None


def may_call_off(tournament: Tournament, player: Player | None, staff: bool) -> bool:
    """Whether the event's page offers "Call off" (the same rule as the call itself)."""
    live = tournament.status in (Tournament.Status.SCHEDULED, Tournament.Status.RUNNING)
    return live and _call_off_refusal(tournament, player, staff) is None


def tournament_call_off(*, tournament_id: int, player: Player | None, staff: bool) -> bool:
    """Cancel from the event's page, for one who may. The check and the cancel hold the row's
    lock, so a start in between is seen."""
    with transaction.atomic():
        refusal = _call_off_refusal(locked_tournament(tournament_id), player, staff)
        if refusal is not None:
            raise refusal
        return tournament_cancel(tournament_id=tournament_id)


# --- Arena ----------------------------------------------------------------------------------------


def arena_pass(*, tournament_id: int, now: datetime | None = None) -> list[int]:
    """Pair the arena's free players (pairing.pair_arena); the tables made.

    One pass at a time per arena: a pass asked for while one runs leaves a note, and the
    running pass goes round once more for it, so players freed meanwhile are paired at once
    rather than at the next tick, and two passes never choose the same players (the row lock
    below still orders them should the cache be lost). It chooses again while the tables it
    chose are being made, and lets go once they are."""
    running, again = f"tournaments.pass:{tournament_id}", f"tournaments.pass-again:{tournament_id}"
    if not cache.add(running, True, timeout=PASS_LOCK_SECONDS):
        cache.set(again, True, timeout=PASS_LOCK_SECONDS)
        return []
    seating = SeatingUnderWay(tournament_id)
    try:
        while True:
            cache.delete(again)
            chosen = _arena_choose(tournament_id, now or timezone.now(), seating.players())
            if chosen is not None and chosen[1]:
                seating.start(*chosen)
            seating.wait(go_round=lambda: bool(cache.get(again)))
            if not seating.jobs and not cache.get(again):
                return seating.made
            now = None  # a new round: the time has moved on
    finally:
        try:
            seating.finish()
        finally:
            cache.delete(running)


def _arena_choose(
    tournament_id: int, now: datetime, being_seated: set[int]
) -> tuple[Tournament, list[tuple[int, ...]]] | None:
    """The groups to seat among the free players, but those whose tables are being made."""
    with transaction.atomic():
        # FOR NO KEY UPDATE, waited for: the rows that name the tournament (a count's results,
        # a chunk's table links) take a key-share lock on it, which this does not wait for;
        # another pass, a join or a leave holds it only for moments. (SKIP LOCKED here found it
        # "locked" by every count and seating under way, and dropped the pass.)
        tournament = (
            Tournament.objects.select_for_update(no_key=True)
            .filter(pk=tournament_id, status=Tournament.Status.RUNNING)
            .first()
        )
        if tournament is None or tournament.format != Tournament.Format.ARENA:
            return None
        if tournament.ends_at is not None and now >= tournament.ends_at:
            return None
        waiting = {
            entrant.player_id: entrant
            for entrant in tournament.entrants.filter(withdrawn=False, paused=False)
        }
        free = set(waiting) - being_seated - _busy_players(set(waiting) - being_seated)
        ratings = pool_ratings(tournament.game, free)
        # Never the same opponent twice in a row, unless nobody else is in the event at all:
        # then the rule would only leave the players waiting out the arena.
        seats = selectors.seats_of(tournament)
        alone = tournament.entrants.filter(withdrawn=False).count() <= seats
        last = {} if alone else selectors.last_opponents(tournament, free)
        groups = pairing.pair_arena(
            (
                pairing.ArenaPlayer(
                    id=pid,
                    score=waiting[pid].score,
                    rating=ratings[pid],
                    last_opponents=last.get(pid, frozenset()),
                    waiting_since=(waiting[pid].free_since or now).timestamp(),
                )
                for pid in free
            ),
            seats=seats,
        )
    # Seated after the lock is let go: a pass that pairs hundreds of players holds it only to
    # choose them. A pass running meanwhile may choose one of them again; the one-active-seat
    # index refuses the second table, and that group waits for the next pass.
    return tournament, groups


# --- Swiss ----------------------------------------------------------------------------------------


def _swiss_round(tournament: Tournament, now: datetime) -> None:
    """The next round: pairs or groups by score, byes to those sitting out. A player seated
    elsewhere on the site when the round is paired sits it out with no points. Lock held."""
    tournament.round_number += 1
    tournament.save(update_fields=["round_number"])
    entrants = {entrant.player_id: entrant for entrant in selectors.active_entrants(tournament)}
    present = set(entrants) - _busy_players(set(entrants))
    ratings = pool_ratings(tournament.game, present)
    met = selectors.everyone_met(tournament)
    seats = selectors.seats_of(tournament)
    paired = pairing.pair_swiss(
        (
            pairing.SwissPlayer(
                id=pid,
                score=entrants[pid].score / 2,
                rating=ratings[pid],
                opponents=met.get(pid, frozenset()),
                had_bye=entrants[pid].had_bye,
            )
            for pid in present
        ),
        seats=seats,
    )
    bye_points = selectors.half_points(scoring.swiss_bye_points(seats))
    for pid in paired.byes:
        TournamentResult.objects.create(
            tournament=tournament,
            player_id=pid,
            round_number=tournament.round_number,
            seats=seats,
            points=bye_points,
            ended_at=now,
        )
        entrant = entrants[pid]
        entrant.score += bye_points
        entrant.had_bye = True
        entrant.save(update_fields=["score", "had_bye"])
    seat_groups(tournament, list(paired.tables), round_number=tournament.round_number)


# --- The end --------------------------------------------------------------------------------------


def tournament_finish(*, tournament_id: int, now: datetime | None = None) -> bool:
    """End a tournament whose last matches are counted: final ranks, then the prizes paid from
    the pool by place (scoring.prize_payouts), once. True if it ended now."""
    now = now or timezone.now()
    with transaction.atomic():
        # A pass or a round holding the row: the next tick ends it (never waits for the lock).
        tournament = (
            Tournament.objects.select_for_update(skip_locked=True).filter(pk=tournament_id).first()
        )
        if tournament is None or tournament.status != Tournament.Status.RUNNING:
            return False
        if tournament.format == Tournament.Format.ARENA:
            if tournament.ends_at is None or now < tournament.ends_at:
                return False
        elif tournament.round_number < (tournament.rounds or 1):
            return False
        if tournament.tables.filter(counted=False).exists():
            return False  # a match still running at the end counts when it finishes
        entrants = {entrant.player_id: entrant for entrant in tournament.entrants.all()}
        table = selectors.standings(tournament, list(entrants.values()))
        prizes = scoring.prize_payouts(
            pool_balance(pool_key(tournament)),
            scoring.tied_groups(table),
            tournament.prize_shares or scoring.DEFAULT_PRIZE_SHARES,
        )
        for standing in table:
            entrant = entrants[standing.player]
            entrant.rank = standing.rank
            entrant.prize = prizes.get(standing.player, 0)
            entrant.score = selectors.score_of(standing)
            entrant.save(update_fields=["rank", "prize", "score"])
        wallet_pool_pay(
            pool_key=pool_key(tournament),
            prizes=[(entrants[pid].player, coins) for pid, coins in prizes.items() if coins],
            label=tournament.name,
        )
        tournament.status = Tournament.Status.FINISHED
        tournament.ended_at = tournament.prizes_paid_at = now
        tournament.save(update_fields=["status", "ended_at", "prizes_paid_at"])
        publish_standings(tournament.pk)
    return True


def swiss_next(*, tournament_id: int, now: datetime | None = None) -> bool:
    """Once every table of the round is counted: the next round, or the end. True if a round
    was paired."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        if (
            tournament.status != Tournament.Status.RUNNING
            or tournament.format != Tournament.Format.SWISS
            or tournament.tables.filter(counted=False).exists()
            or tournament.round_number >= (tournament.rounds or 1)
        ):
            return False
        _swiss_round(tournament, now)
    return True
