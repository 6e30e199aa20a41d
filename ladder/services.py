"""Writes of the ladder: rate a finished match, sweep up the unrated, void, recompute.

Locking: every write locks the :class:`Rating` rows it may change, in id order, so the rating
task, the sweep, a void and a recomputation that touch the same players queue one after the
other and never deadlock. Whatever decides a write (already rated? voided?) is read again once
the locks are held, and the unique ``RatingChange(match, player)`` is the last guard: a match
changes each rating once, however many times and from however many workers it is rated.

The rating math is ``ladder.rating``; the result of a match is the games app's and is never
changed here.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from itertools import groupby
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone
from django.utils.translation import gettext

from core.errors import ServiceError
from games import realtime
from games.models import Match, Seat

from . import rating, selectors
from .models import MatchVoid, Rating, RatingChange

logger = logging.getLogger(__name__)

SWEEP_BATCH = 200  # matches per sweep; the next sweep takes the rest
# What a recomputation rewrites in a rating change (its match, player and place stand).
_RECOMPUTED = ["mu_before", "sigma_before", "mu_after", "sigma_after", "before", "after", "delta"]


# --- Which matches count ----------------------------------------------------------------------


def _seats(match: Match) -> list[Seat]:
    return list(
        Seat.objects.filter(table_id=match.table_id).select_related("player").order_by("position")
    )


def match_places(match: Match, seats: list[Seat]) -> list[int] | None:
    """Each seat's place if the match counts for the ladder, else None.

    It counts when it finished (an admin's cancel aborts it), has a winner, and its table is
    rated: chosen so, every seat a registered player's, no computer player but one that took
    over a forfeited seat (``Table.is_rated``)."""
    result = match.result or {}
    if match.status != Match.Status.FINISHED or not result.get("winners"):
        return None
    if len(seats) < 2 or not match.table.is_rated(seats):
        return None
    return rating.placements(
        seats=len(seats),
        winners=result["winners"],
        forfeited=result.get("forfeited", []),
        scores=result.get("scores") or [0] * len(seats),
    )


def _locked_ratings(player_ids: Iterable[int], game: str, *, create: bool) -> dict[int, Rating]:
    """The players' ratings in ``game``, their rows locked in id order. Inside a transaction."""
    ids = sorted(set(player_ids))
    if create:
        for player_id in ids:  # in id order, so two creators of the same rows wait, not deadlock
            Rating.objects.get_or_create(player_id=player_id, game=game)
    rows = Rating.objects.select_for_update().filter(player_id__in=ids, game=game).order_by("pk")
    return {row.player_id: row for row in rows}


# --- Rating a match ---------------------------------------------------------------------------


def match_rate(*, match_id: int) -> list[RatingChange]:
    """Rate a finished match once: the changes it made, or [] when it does not count or was
    rated (or voided) already. Tells everyone at the table after commit."""
    match = Match.objects.select_related("table").filter(pk=match_id).first()
    if match is None:
        return []
    seats = _seats(match)
    places = match_places(match, seats)
    if places is None:
        return []
    try:
        with transaction.atomic():
            ratings = _locked_ratings((s.player_id for s in seats), match.game, create=True)
            # Read again under the locks: another worker, the sweep or a void may just have
            # committed.
            if (
                RatingChange.objects.filter(match=match).exists()
                or MatchVoid.objects.filter(match=match).exists()
            ):
                return []
            before = [ratings[seat.player_id].skill for seat in seats]
            after = rating.rate(before, places)
            changes = RatingChange.objects.bulk_create(
                [
                    _change(
                        match,
                        player_id=seat.player_id,
                        seat=seat.position,
                        place=place,
                        old=old,
                        new=new,
                    )
                    for seat, place, old, new in zip(seats, places, before, after, strict=True)
                ]
            )
            for change in changes:
                _apply(ratings[change.player_id], change, match.ended_at)
            realtime.publish_on_commit(
                realtime.table_group(match.table_id),
                realtime.frame_event(rating_frame(match, seats, changes, ratings)),
            )
    except IntegrityError:
        # The claim (unique match + player): another run rated this match first.
        logger.info("Match %s was rated by another run.", match_id)
        return []
    logger.info("Match %s rated: %s", match_id, [(c.player_id, c.delta) for c in changes])
    return changes


def _change(
    match: Match, *, player_id: int, seat: int, place: int, old: rating.Skill, new: rating.Skill
) -> RatingChange:
    return RatingChange(
        match=match,
        player_id=player_id,
        game=match.game,
        seat=seat,
        place=place,
        mu_before=old.mu,
        sigma_before=old.sigma,
        mu_after=new.mu,
        sigma_after=new.sigma,
        before=old.display,
        after=new.display,
        delta=new.display - old.display,
    )


def _apply(row: Rating, change: RatingChange, ended_at: datetime | None) -> None:
    row.mu, row.sigma, row.display = change.mu_after, change.sigma_after, change.after
    row.matches += 1
    row.wins += int(change.won)
    if ended_at is not None and (row.last_played_at is None or ended_at > row.last_played_at):
        row.last_played_at = ended_at
    row.save(update_fields=["mu", "sigma", "display", "matches", "wins", "last_played_at"])


def rating_frame(
    match: Match, seats: list[Seat], changes: list[RatingChange], ratings: dict[int, Rating]
) -> dict[str, Any]:
    """The table socket's ``rating`` message (docs/protocol.md § rating)."""
    return {
        "type": "rating",
        "match": match.pk,
        "changes": selectors.changes_public(changes, seats, ratings),
    }


def matches_rate_unrated(*, now: datetime | None = None, limit: int = SWEEP_BATCH) -> int:
    """The sweep: rate every finished rated match its task left unrated (lost, or its worker
    killed mid-task) once it ended LADDER_SWEEP_AFTER_SECONDS ago. Returns how many it rated."""
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=settings.LADDER_SWEEP_AFTER_SECONDS)
    seats = Seat.objects.filter(table_id=OuterRef("table_id"))
    pending = (
        Match.objects.filter(status=Match.Status.FINISHED, table__rated=True, ended_at__lte=cutoff)
        .exclude(Exists(RatingChange.objects.filter(match=OuterRef("pk"))))
        .exclude(Exists(MatchVoid.objects.filter(match=OuterRef("pk"))))
        .exclude(Exists(seats.filter(player__user__isnull=True)))
        .exclude(Exists(seats.filter(is_bot=True, forfeited=False)))
        .order_by("ended_at", "pk")
        .values_list("pk", flat=True)[:limit]
    )
    return sum(1 for match_id in list(pending) if match_rate(match_id=match_id))


# --- Voiding and recomputing ------------------------------------------------------------------


def match_void(*, match_id: int, reason: str, voided_by: User | None = None) -> MatchVoid:
    """An admin voids a finished match: it never counts, and the ratings of its players are
    recomputed from their other matches. The result and the coins stand."""
    reason = (reason or "").strip()
    if not reason:
        raise ServiceError(gettext("Say why the match is voided."), code="void_reason")
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        raise ServiceError(gettext("There is no match #%(id)s.") % {"id": match_id}, code="void")
    if match.status != Match.Status.FINISHED:
        raise ServiceError(
            gettext("Only a finished match can be voided; a cancelled match is never rated."),
            code="void_not_finished",
        )
    player_ids = list(
        Seat.objects.filter(table_id=match.table_id).values_list("player_id", flat=True)
    )
    try:
        with transaction.atomic():
            ratings = _locked_ratings(player_ids, match.game, create=False)
            void = MatchVoid.objects.create(match=match, reason=reason, voided_by=voided_by)
            rated = set(
                RatingChange.objects.filter(match=match).values_list("player_id", flat=True)
            )
            _replay({pid: row for pid, row in ratings.items() if pid in rated}, match.game)
    except IntegrityError:
        raise ServiceError(
            gettext("Match #%(id)s is voided already.") % {"id": match_id}, code="void_twice"
        ) from None
    logger.info("Match %s voided: %s", match_id, reason)
    return void


@dataclass
class _Totals:
    """What a recompute counts for one player while it walks their matches in order."""

    matches: int = 0
    wins: int = 0
    last_played_at: datetime | None = None


def player_ratings_recompute(*, player_id: int) -> int:
    """Rebuild a player's ratings in every game from their matches (an admin's action).

    Returns how many of the player's rating changes were rewritten."""
    games = Rating.objects.filter(player_id=player_id).values_list("game", flat=True)
    rewritten = 0
    for game in sorted(set(games)):
        with transaction.atomic():
            rewritten += _replay(_locked_ratings([player_id], game, create=False), game)
    return rewritten


def _replay(ratings: dict[int, Rating], game: str) -> int:
    """Recompute these players' ratings from new, replaying their counted matches in the order
    they ended. Their opponents stay as they are: each opponent enters a replayed match with the
    rating recorded for it then (recomputing them too would rewrite the whole ladder). Locks
    held. Returns how many of these players' rating changes were rewritten."""
    if not ratings:
        return 0
    ids = set(ratings)
    played = RatingChange.objects.counted().filter(game=game, player_id__in=ids).values("match_id")
    # One query: every change of those matches, so the opponents' records are read at once.
    changes = list(
        RatingChange.objects.counted()
        .filter(match_id__in=played)
        .select_related("match")
        .order_by("match__ended_at", "match_id", "seat")
    )
    skill = {player_id: rating.NEW_SKILL for player_id in ids}
    totals = {player_id: _Totals() for player_id in ids}
    rewritten = 0
    for _match_id, group in groupby(changes, key=lambda change: change.match_id):
        rows = list(group)
        before = [
            skill[row.player_id]
            if row.player_id in ids
            else rating.Skill(mu=row.mu_before, sigma=row.sigma_before)
            for row in rows
        ]
        after = rating.rate(before, [row.place for row in rows])
        for row, old, new in zip(rows, before, after, strict=True):
            if row.player_id not in ids:
                continue
            skill[row.player_id] = new
            total = totals[row.player_id]
            total.matches += 1
            total.wins += int(row.won)
            total.last_played_at = row.match.ended_at
            fresh = _change(
                row.match, player_id=row.player_id, seat=row.seat, place=row.place, old=old, new=new
            )
            if any(getattr(row, name) != getattr(fresh, name) for name in _RECOMPUTED):
                for name in _RECOMPUTED:
                    setattr(row, name, getattr(fresh, name))
                row.save(update_fields=_RECOMPUTED)
                rewritten += 1
    for player_id, row in ratings.items():
        row.mu, row.sigma = skill[player_id].mu, skill[player_id].sigma
        row.display = skill[player_id].display
        row.matches = totals[player_id].matches
        row.wins = totals[player_id].wins
        row.last_played_at = totals[player_id].last_played_at
        row.save(update_fields=["mu", "sigma", "display", "matches", "wins", "last_played_at"])
    return rewritten
