"""The ladder's seasons (issue 29 § 4; docs/ladder.md § Seasons): calendar months in UTC, each
season's final standings kept once at its end by the beat, the next season opened, badges for
the top places, and ratings carried over unchanged. The pages are in test_seasons_pages.py."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import psycopg
import pytest
from django import db
from django.core.exceptions import ImproperlyConfigured
from django.db import connection
from django.db.models import F
from django.utils import timezone

from games.catalog import GAME_TITLES
from ladder import season_services, selectors, services, tasks
from ladder.models import Rating, RatingChange, Season, SeasonStanding
from tests.support.ladder import beats
from tests.support.players import make_player

pytestmark = pytest.mark.django_db

GAME = "japanese_joker"
MID_JULY = datetime(2025, 7, 14, 18, 30, tzinfo=UTC)
AUGUST = datetime(2025, 8, 1, tzinfo=UTC)
SEPTEMBER = datetime(2025, 9, 1, tzinfo=UTC)


def ranked(name: str, display: int, *, matches: int = 12, last_played: datetime | None = None):
    """A player with a rating in GAME as the rating services leave one (the close only reads
    it), last played the day before August by default."""
    player = make_player(name)
    Rating.objects.create(
        player=player,
        game=GAME,
        display=display,
        matches=matches,
        wins=matches // 3,
        last_played_at=last_played or AUGUST - timedelta(days=1),
    )
    return player


def july() -> Season:
    """Season 1 of every game, opened in the middle of July 2025: July is its month."""
    assert season_services.seasons_close(now=MID_JULY) == []
    return Season.objects.get(game=GAME, number=1)


def kept(season: Season) -> list[tuple[str, int | None, int, int, int, bool]]:
    return [
        (row.player.name, row.rank, row.display, row.matches, row.wins, row.badge)
        for row in SeasonStanding.objects.filter(season=season)
        .select_related("player")
        .order_by(F("rank").asc(nulls_last=True), "-display", "player__name")
    ]


# --- The calendar -----------------------------------------------------------------------------


def test_a_season_is_whole_calendar_months_in_utc(settings):
    tbilisi_new_year = datetime(2026, 1, 1, 2, 0, tzinfo=UTC) + timedelta(hours=-4)  # 31 Dec UTC
    assert season_services.month_start(tbilisi_new_year) == datetime(2025, 12, 1, tzinfo=UTC)
    assert season_services.months_after(datetime(2025, 12, 1, tzinfo=UTC), 1) == datetime(
        2026, 1, 1, tzinfo=UTC
    )
    assert season_services.months_after(datetime(2025, 11, 1, tzinfo=UTC), 14) == datetime(
        2027, 1, 1, tzinfo=UTC
    )
    july_first = datetime(2025, 7, 1, tzinfo=UTC)
    assert season_services.season_end(july_first, now=MID_JULY) == AUGUST
    settings.LADDER_SEASON_MONTHS = 3
    assert season_services.season_end(july_first, now=MID_JULY) == datetime(2025, 10, 1, tzinfo=UTC)


def test_the_first_run_opens_season_one_of_every_game_from_the_first_of_the_month():
    season = july()
    assert (season.starts_at, season.ends_at, season.closed_at) == (
        datetime(2025, 7, 1, tzinfo=UTC),
        AUGUST,
        None,
    )
    assert sorted(Season.objects.values_list("game", "number")) == sorted(
        (game, 1) for game in GAME_TITLES
    )
    assert season_services.seasons_close(now=MID_JULY + timedelta(days=10)) == []
    assert Season.objects.count() == len(GAME_TITLES)


def test_a_longer_season_setting_makes_longer_seasons(settings):
    settings.LADDER_SEASON_MONTHS = 3
    assert july().ends_at == datetime(2025, 10, 1, tzinfo=UTC)


def test_a_season_length_below_one_month_is_refused(settings):
    settings.LADDER_SEASON_MONTHS = 0
    with pytest.raises(ImproperlyConfigured, match="at least 1"):
        season_services.seasons_close(now=MID_JULY)


# --- The close ---------------------------------------------------------------------------------


def test_nothing_closes_before_the_end():
    season = july()
    ranked("ann", 1700)
    assert season_services.seasons_close(now=AUGUST - timedelta(seconds=1)) == []
    assert (
        season_services.season_close(season_id=season.pk, now=AUGUST - timedelta(seconds=1)) is None
    )
    season.refresh_from_db()
    assert season.closed_at is None and not SeasonStanding.objects.exists()


def test_the_close_keeps_the_leaderboard_as_it_stood_at_the_end_and_opens_the_next_season():
    season = july()
    ranked("ann", 1700)
    ranked("ben", 1650)
    ranked("cid", 1650)
    ranked("dan", 1600)
    ranked("newbie", 1900, matches=9)  # provisional: listed after the ranked, without a rank
    ranked("gone", 1800, last_played=AUGUST - timedelta(days=31))  # inactive at the end
    closing = AUGUST + timedelta(seconds=40)  # the beat's next run after midnight

    closed = season_services.seasons_close(now=closing)

    assert [s.pk for s in closed if s.game == GAME] == [season.pk]
    season.refresh_from_db()
    assert season.closed_at == closing
    board = selectors.leaderboard(game=GAME, now=AUGUST)
    assert kept(season) == [
        (row.player.name, row.rank, row.display, row.matches, row.wins, row.rank in (1, 2))
        for row in board
    ]
    assert [name for name, *_ in kept(season)] == ["ann", "ben", "cid", "dan", "newbie"]
    assert [rank for _name, rank, *_ in kept(season)] == [1, 2, 2, 4, None]
    following = Season.objects.get(game=GAME, closed_at__isnull=True)
    assert (following.number, following.starts_at, following.ends_at) == (2, AUGUST, SEPTEMBER)
    # Every game's season 1 closed at the same end; the others' standings are empty.
    assert Season.objects.filter(number=1, closed_at=closing).count() == len(GAME_TITLES)


def test_the_top_places_get_a_badge_ties_share_one_and_a_provisional_rating_never_does(settings):
    season = july()
    settings.LADDER_SEASON_BADGES = 3
    for name, display in [("ann", 1700), ("ben", 1650), ("cid", 1650), ("dan", 1640)]:
        ranked(name, display)
    ranked("newbie", 1900, matches=9)
    season_services.seasons_close(now=AUGUST)
    badges = {name: badge for name, _rank, _d, _m, _w, badge in kept(season)}
    assert badges == {"ann": True, "ben": True, "cid": True, "dan": False, "newbie": False}


def test_closing_again_changes_nothing(monkeypatch):
    season = july()
    ranked("ann", 1700)
    ranked("ben", 1650)
    assert len(season_services.seasons_close(now=AUGUST)) == len(GAME_TITLES)
    first = kept(season)

    assert season_services.seasons_close(now=AUGUST + timedelta(minutes=1)) == []
    assert (
        season_services.season_close(season_id=season.pk, now=AUGUST + timedelta(minutes=2)) is None
    )
    monkeypatch.setattr(season_services, "timezone", SimpleNamespace(now=lambda: AUGUST))
    assert tasks.close_seasons.delay().get() == 0  # the beat's task at the same moment

    season.refresh_from_db()
    assert season.closed_at == AUGUST
    assert kept(season) == first and SeasonStanding.objects.count() == 2
    assert list(Season.objects.filter(game=GAME).values_list("number", flat=True)) == [2, 1]


def test_a_close_the_beat_missed_for_months_opens_one_season_up_to_the_next_boundary():
    season = july()
    ranked("ann", 1700, last_played=datetime(2025, 10, 20, tzinfo=UTC))
    late = datetime(2025, 11, 3, 9, 0, tzinfo=UTC)
    assert [s.pk for s in season_services.seasons_close(now=late) if s.game == GAME] == [season.pk]
    following = Season.objects.get(game=GAME, number=2)
    assert (following.starts_at, following.ends_at) == (AUGUST, datetime(2025, 12, 1, tzinfo=UTC))
    assert following.closed_at is None


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_closes_at_the_same_moment_on_postgresql_keep_the_standings_once(monkeypatch):
    season = july()
    for index, display in enumerate([1700, 1650, 1600]):
        ranked(f"p{index}", display)
    real_leaderboard = selectors.leaderboard
    inside = threading.Event()

    def slow_leaderboard(**kwargs):
        # The first close holds its claim on the season row for a while: the others wait on
        # the row, then find it closed.
        inside.set()
        time.sleep(0.3)
        return real_leaderboard(**kwargs)

    monkeypatch.setattr(season_services.selectors, "leaderboard", slow_leaderboard)
    # The task reads the clock: the same moment as the other runs.
    monkeypatch.setattr(season_services, "timezone", SimpleNamespace(now=lambda: AUGUST))
    start = threading.Barrier(4)
    closed: list[int] = []

    def worker(run):
        try:
            start.wait()
            closed.append(run())
        finally:
            connection.close()

    runs = [
        lambda: len(season_services.seasons_close(now=AUGUST)),
        lambda: len(season_services.seasons_close(now=AUGUST)),
        lambda: int(season_services.season_close(season_id=season.pk, now=AUGUST) is not None),
        lambda: tasks.close_seasons.apply().get(),
    ]
    threads = [threading.Thread(target=worker, args=(run,)) for run in runs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert inside.is_set() and len(closed) == 4
    assert sum(closed) == len(GAME_TITLES)  # every game's season 1 closed by one run
    assert [row[:2] for row in kept(season)] == [("p0", 1), ("p1", 2), ("p2", 3)]
    assert Season.objects.filter(game=GAME).count() == 2
    assert Season.objects.filter(game=GAME, closed_at__isnull=True).count() == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_first_runs_at_the_same_moment_on_postgresql_open_one_season_per_game():
    start = threading.Barrier(4)

    def worker():
        try:
            start.wait()
            season_services.seasons_close(now=MID_JULY)
        finally:
            connection.close()

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sorted(Season.objects.values_list("game", "number")) == sorted(
        (game, 1) for game in GAME_TITLES
    )


def test_beat_runs_the_close_every_minute(settings):
    entry = settings.CELERY_BEAT_SCHEDULE["ladder-season"]
    assert entry == {"task": tasks.close_seasons.name, "schedule": 60.0}
    assert settings.LADDER_SEASON_CLOSE_SECONDS == 60


def test_the_task_ends_quietly_when_the_database_is_unavailable(monkeypatch, outages, caplog):
    def refused(**kwargs):
        error = db.OperationalError("connection refused")
        error.__cause__ = psycopg.OperationalError("connection failed: Connection refused")
        raise error

    monkeypatch.setattr(tasks.season_services, "seasons_close", refused)
    assert tasks.close_seasons.delay().get() is None
    assert [r.levelname for r in caplog.records if r.name == "core.outage"] == ["WARNING"]


# --- Ratings carry over unchanged -------------------------------------------------------------


def test_ratings_carry_over_unchanged_and_the_next_match_is_rated_from_them(alice, bob):
    season_services.seasons_close(now=timezone.now())
    season = Season.objects.get(game=GAME, number=1)
    beats(alice, bob)
    before = {
        row.player_id: (row.mu, row.sigma, row.display, row.matches, row.wins)
        for row in Rating.objects.filter(game=GAME)
    }
    season_services.seasons_close(now=season.ends_at)
    after = {
        row.player_id: (row.mu, row.sigma, row.display, row.matches, row.wins)
        for row in Rating.objects.filter(game=GAME)
    }
    assert after == before  # no reset of σ: the same skill, the same number shown

    second = beats(bob, alice)
    change = RatingChange.objects.get(match=second, player=alice)
    assert (change.mu_before, change.sigma_before, change.before) == (
        before[alice.pk][0],
        before[alice.pk][1],
        before[alice.pk][2],
    )
    # The history alone still gives every rating: a recomputation rewrites nothing.
    assert services.player_ratings_recompute(player_id=alice.pk) == 0
    assert services.player_ratings_recompute(player_id=bob.pk) == 0
