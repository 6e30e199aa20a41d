"""Reads of the ladder: leaderboards, a player's standing, history, record and recent matches.

Who is on a leaderboard: a registered player (account active) with a rated match in the game
whose last one ended within LADDER_ACTIVE_DAYS, so a young site has a ladder from its first rated
match. Who is ranked: those of them with at least LADDER_PROVISIONAL_MATCHES rated matches; a rank
is 1 + the number of ranked players rated strictly higher, so equal ratings share a rank. The
others are provisional: listed after every ranked player, without a rank (issue 26).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import reduce
from operator import or_
from typing import Any

from django.conf import settings
from django.db.models import (
    Case,
    Count,
    F,
    Max,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
)
from django.db.models.functions import Coalesce
from django.utils import timezone

from accounts.models import Player
from games import access
from games.catalog import GAME_TITLES, Pool, seated_title
from games.models import Match, Seat, Table
from games.rules import game_specs

from . import rating
from .models import MatchVoid, Rating, RatingChange

TOP_COUNT = 10  # players per game on /ladder/
RECENT_COUNT = 10  # matches on a profile
FAVOURITE_POOLS = 3  # pools on a profile


def _listed(now: datetime) -> Q:
    return Q(
        matches__gte=1,
        last_played_at__gte=now - timedelta(days=settings.LADDER_ACTIVE_DAYS),
        player__user__is_active=True,
    )


def _established() -> Q:
    return Q(matches__gte=settings.LADDER_PROVISIONAL_MATCHES)


def _eligible(now: datetime) -> Q:
    return _listed(now) & _established()


def leaderboard(*, game: str, now: datetime | None = None, search: str = "") -> QuerySet[Rating]:
    """The players listed in ``game``: the ranked best first, each with ``rank``, then the
    provisional ones best first, ``rank`` None; ``search`` keeps those whose name contains it
    (a rank is still the rank among everyone)."""
    now = now or timezone.now()
    ratings = ranked(Rating.objects.filter(_listed(now), game=game), now=now)
    if search:
        ratings = ratings.filter(player__name__icontains=search)
    return ratings.select_related("player").order_by(
        F("rank").asc(nulls_last=True), "-display", "player__name"
    )


def ranked(ratings: QuerySet[Rating], *, now: datetime) -> QuerySet[Any]:
    """Annotate ``rank``: 1 + the ranked players of the same game rated strictly higher; None
    for a provisional rating, which has no rank."""
    higher = (
        Rating.objects.filter(
            _eligible(now), game=OuterRef("game"), display__gt=OuterRef("display")
        )
        .order_by()
        .values("game")
        .annotate(count=Count("pk"))
        .values("count")
    )
    rank = Coalesce(Subquery(higher), Value(0)) + 1
    return ratings.annotate(rank=Case(When(_established(), then=rank), default=None))


def ladder_tops(*, now: datetime | None = None) -> dict[str, list[Rating]]:
    """The first TOP_COUNT of every game's leaderboard, for /ladder/."""
    now = now or timezone.now()
    return {game: list(leaderboard(game=game, now=now)[:TOP_COUNT]) for game in GAME_TITLES}


@dataclass(frozen=True)
class Standing:
    """Where a player stands in one game: the rating, and the rank or why there is none."""

    game: str
    rating: Rating | None
    rank: int | None
    # None when ranked; else "unrated" (no rated match), "provisional" or "inactive".
    unranked_because: str | None

    @property
    def title(self) -> str:
        return str(GAME_TITLES[self.game])

    @property
    def matches_to_go(self) -> int:
        played = self.rating.matches if self.rating else 0
        return max(settings.LADDER_PROVISIONAL_MATCHES - played, 0)


def standing(*, player: Player, game: str, now: datetime | None = None) -> Standing:
    now = now or timezone.now()
    row = Rating.objects.filter(player=player, game=game).first()
    if row is None or row.matches == 0:
        return Standing(game=game, rating=None, rank=None, unranked_because="unrated")
    if row.provisional:
        return Standing(game=game, rating=row, rank=None, unranked_because="provisional")
    ranked_row = ranked(Rating.objects.filter(_eligible(now), pk=row.pk), now=now).first()
    if ranked_row is None:
        return Standing(game=game, rating=row, rank=None, unranked_because="inactive")
    return Standing(game=game, rating=row, rank=ranked_row.rank, unranked_because=None)


def standings(*, player: Player, now: datetime | None = None) -> list[Standing]:
    now = now or timezone.now()
    return [standing(player=player, game=game, now=now) for game in GAME_TITLES]


def rating_history(*, player: Player, game: str) -> list[RatingChange]:
    """The player's counted rating changes in ``game``, oldest first: one per rated match."""
    return list(
        RatingChange.objects.counted()
        .filter(player=player, game=game)
        .select_related("match")
        .order_by("match__ended_at", "match_id")
    )


# --- The record and recent matches (rated or not) ----------------------------------------------


@dataclass(frozen=True)
class Record:
    matches: int
    wins: int
    losses: int
    forfeits: int  # finished matches lost by forfeit (completion is social's reputation)


def _finished_seats(player: Player) -> QuerySet[Seat]:
    return Seat.objects.filter(player=player, table__match__status=Match.Status.FINISHED)


def player_record(*, player: Player) -> Record:
    """Every finished match the player sat in, rated or casual (cancelled ones are not)."""
    rows = _finished_seats(player).values_list("position", "forfeited", "table__match__result")
    matches = wins = forfeits = 0
    for position, forfeited, result in rows:
        matches += 1
        wins += int(position in (result or {}).get("winners", []))
        forfeits += int(forfeited)
    return Record(matches=matches, wins=wins, losses=matches - wins, forfeits=forfeits)


def _won() -> Q:
    """The seat is among its match's winners: ``result["winners"]`` holds its position. Index
    lookups, which SQLite and PostgreSQL both run (as ``games.history``'s result filter)."""
    seats = range(max(spec.seats for spec in game_specs()))
    return reduce(
        or_,
        (
            Q(position=seat, **{f"table__match__result__winners__{index}": seat})
            for seat in seats
            for index in seats
        ),
    )


@dataclass(frozen=True)
class SpeedRecord(Record):
    speed: str

    @property
    def title(self) -> str:
        return str(Table.Speed(self.speed).label)


def speed_records(*, player: Player) -> list[SpeedRecord]:
    """The record at each speed the player finished a match at, fastest first (one query)."""
    rows = {
        row["speed"]: row
        for row in _finished_seats(player)
        .values(speed=F("table__match__speed"))
        .annotate(matches=Count("pk"), wins=Count("pk", filter=_won()))
        .annotate(forfeits=Count("pk", filter=Q(forfeited=True)))
        .order_by()
    }
    return [
        SpeedRecord(**row, losses=row["matches"] - row["wins"])
        for speed in Table.Speed.values
        if (row := rows.get(speed))
    ]


@dataclass(frozen=True)
class PoolRecord:
    pool: Pool
    played: int
    wins: int

    @property
    def game_title(self) -> str:
        return seated_title(self.pool.game, self.pool.seats)

    @property
    def speed_title(self) -> str:
        return str(Table.Speed(self.pool.speed).label)


def favourite_pools(*, player: Player, limit: int = FAVOURITE_POOLS) -> list[PoolRecord]:
    """The pools of the player's finished quick-play matches, most played first (the latest
    played first among equals), with the wins in each (one query)."""
    rows = (
        _finished_seats(player)
        .filter(table__visibility=Table.Visibility.POOL)
        .values(
            game=F("table__game"),
            speed=F("table__speed"),
            stake=F("table__stake"),
            rated=F("table__rated"),
            seats=F("table__seats_total"),
        )
        .annotate(played=Count("pk"), wins=Count("pk", filter=_won()))
        .annotate(last=Max("table__match__ended_at"))
        .order_by("-played", F("last").desc(nulls_last=True), "game", "speed", "stake")
    )
    return [
        PoolRecord(
            Pool(row["game"], row["speed"], row["stake"], row["rated"], row["seats"]),
            row["played"],
            row["wins"],
        )
        for row in rows[:limit]
    ]


@dataclass(frozen=True)
class RecentMatch:
    match: Match
    game_title: str
    opponents: list[dict[str, Any]]  # {"name", "bot", "guest"}
    won: bool
    place: int
    seats: int
    forfeited: bool
    rated: bool
    voided: bool
    change: RatingChange | None


def recent_matches(
    *, player: Player, viewer: Player | None, limit: int = RECENT_COUNT
) -> list[RecentMatch]:
    """The player's latest finished matches that ``viewer`` may see (a friends-only table's
    only to who could see the table): opponents, result and the rating change."""
    mine = list(
        _finished_seats(player)
        .filter(table__in=Table.objects.filter(access.visible_to(viewer)))
        .select_related("table__match")
        .order_by("-table__match__ended_at")[:limit]
    )
    tables = [seat.table_id for seat in mine]
    everyone: dict[int, list[Seat]] = {}
    for seat in (
        Seat.objects.filter(table_id__in=tables).select_related("player").order_by("position")
    ):
        everyone.setdefault(seat.table_id, []).append(seat)
    match_ids = [seat.table.match.pk for seat in mine]
    changes = {
        change.match_id: change
        for change in RatingChange.objects.filter(player=player, match_id__in=match_ids)
    }
    voided = set(
        MatchVoid.objects.filter(match_id__in=match_ids).values_list("match_id", flat=True)
    )
    recent = []
    for seat in mine:
        match = seat.table.match
        seats = everyone[seat.table_id]
        result = match.result or {}
        winners = result.get("winners") or []
        places = (
            rating.placements(
                seats=len(seats),
                winners=winners,
                forfeited=result.get("forfeited", []),
                scores=result.get("scores") or [0] * len(seats),
            )
            if winners
            else [0] * len(seats)  # no winner recorded: no place to show
        )
        recent.append(
            RecentMatch(
                match=match,
                game_title=str(GAME_TITLES.get(match.game, match.game)),
                opponents=[
                    {"name": s.player.name, "bot": s.is_bot, "guest": s.player.is_guest}
                    for s in seats
                    if s.pk != seat.pk
                ],
                won=seat.position in winners,
                place=places[seat.position],
                seats=len(seats),
                forfeited=seat.forfeited,
                rated=match.pk in changes,
                voided=match.pk in voided,
                change=changes.get(match.pk),
            )
        )
    return recent


def match_ratings(*, match: Match) -> dict[str, Any]:
    """Whether a match moved ratings and how, for the table page after a reload."""
    seats = list(
        Seat.objects.filter(table_id=match.table_id).select_related("player").order_by("position")
    )
    changes = list(RatingChange.objects.filter(match=match).order_by("seat"))
    if MatchVoid.objects.filter(match=match).exists():
        status = "voided"
    elif changes:
        status = "rated"
    elif match.status == Match.Status.FINISHED and match.table.is_rated(seats):
        status = "pending"
    else:
        status = "casual"
    if status != "rated":
        return {"match": match.pk, "status": status, "changes": []}
    ratings = {
        row.player_id: row
        for row in Rating.objects.filter(
            player_id__in=[change.player_id for change in changes], game=match.game
        )
    }
    return {"match": match.pk, "status": status, "changes": changes_public(changes, seats, ratings)}


def changes_public(
    changes: list[RatingChange], seats: list[Seat], ratings: dict[int, Rating]
) -> list[dict[str, Any]]:
    """A match's rating changes as the table page shows them (docs/protocol.md § rating).

    Ratings are public (the leaderboards show them), so everyone at the table gets them all."""
    names = {seat.position: seat.player.name for seat in seats}
    return [
        {
            "seat": change.seat,
            "name": names[change.seat],
            "before": change.before,
            "after": change.after,
            "delta": change.delta,
            "provisional": ratings[change.player_id].provisional,
        }
        for change in sorted(changes, key=lambda change: change.seat)
    ]


def pool_ratings(game: str, player_ids: set[int]) -> dict[int, float]:
    """Quick play pairs by the displayed rating (``GAMES_PLAYER_RATINGS``); a player with no
    rating yet in ``game`` has a newcomer's."""
    ratings = dict.fromkeys(player_ids, float(rating.NEW_SKILL.display))
    found = Rating.objects.filter(game=game, player_id__in=player_ids)
    ratings.update(
        (player_id, float(display))
        for player_id, display in found.values_list("player_id", "display")
    )
    return ratings
