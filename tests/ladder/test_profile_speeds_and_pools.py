"""A profile's record at each speed and the player's favourite quick-play pools (issue 28 § 3,
"The ladder wakes up")."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone, translation

from accounts.models import Player
from games.catalog import seated_title
from games.models import Match, Seat, Table
from games.services import tables
from ladder import selectors
from tests.support.ladder import committed, forfeit
from tests.support.players import client_for

pytestmark = pytest.mark.django_db

JJ, CJ, JW = "japanese_joker", "classic_joker", "japanese_whist"
FINISHED, ABORTED = Match.Status.FINISHED, Match.Status.ABORTED


def ended(
    players: list[Player],
    *,
    game: str = JJ,
    speed: str = "normal",
    winners: tuple[int, ...] = (0,),
    forfeited: tuple[int, ...] = (),
    pool: bool = False,
    stake: int = 0,
    rated: bool = False,
    status: str = FINISHED,
    days_ago: float = 1,
) -> Match:
    """An ended match's rows as the services leave them (the profile only reads them):
    ``players`` sit in positions 0, 1, … in that order."""
    when = timezone.now() - timedelta(days=days_ago)
    table = Table.objects.create(
        game=game,
        speed=speed,
        stake=stake,
        rated=rated,
        visibility=Table.Visibility.POOL if pool else Table.Visibility.PUBLIC,
        creator=players[0],
        seats_total=len(players),
        status=Table.Status.FINISHED,
        ended_at=when,
    )
    for position, player in enumerate(players):
        Seat.objects.create(
            table=table,
            player=player,
            position=position,
            active=False,
            forfeited=position in forfeited,
        )
    aborted = status == ABORTED
    return Match.objects.create(
        table=table,
        game=game,
        speed=speed,
        seed="seed",
        seed_hash="hash",
        state={},
        status=status,
        result={
            "reason": "cancelled" if aborted else "finished",
            "winners": [] if aborted else list(winners),
            "forfeited": list(forfeited),
            "scores": [0] * len(players),
        },
        ended_at=when,
    )


def counts(html: str, speed: str) -> dict[str, int]:
    card = re.search(rf'<li class="speed-record" data-speed="{speed}">(.*?)</li>', html, re.S)
    assert card, speed
    return {key: int(value) for key, value in re.findall(r'data-count="(\w+)">(\d+)<', card[1])}


def pool_rows(html: str) -> list[tuple[str, str]]:
    """(pool id, the row's text) of each favourite pool, in the page's order."""
    return [
        (pool, " ".join(re.sub(r"<[^>]+>", " ", row).split()))
        for pool, row in re.findall(
            r'<li class="favourite-pool" data-pool="([^"]+)">(.*?)</li>', html, re.S
        )
    ]


# --- The record per speed ---------------------------------------------------------------------


@pytest.fixture
def speeds(alice, bob, carol, dave):
    """alice's finished matches: Fast, one won (played through the services) and one lost;
    Normal, two won, one left and lost, one classic Joker won with another seat; a Relaxed one
    aborted (not a finished match: not counted)."""
    table = committed(
        tables.table_create,
        creator=alice,
        game=JJ,
        options={},
        stake=0,
        visibility="public",
        rated=False,
        speed="fast",
    )
    committed(tables.table_join, player=bob, table_id=table.pk)
    played = forfeit(table, bob)
    assert played.status == FINISHED and played.speed == "fast"
    ended([alice, bob], speed="fast", winners=(1,))
    ended([bob, alice], speed="normal", winners=(1,))
    ended([alice, carol], speed="normal", winners=(0,))
    ended([alice, carol], speed="normal", winners=(1,), forfeited=(0,))
    ended([bob, carol, dave, alice], game=CJ, speed="normal", winners=(1, 3))  # winners[1]
    ended([alice, bob], speed="relaxed", status=ABORTED)
    return alice


def test_the_record_per_speed_counts_finished_matches_at_each_speed(speeds, bob):
    records = selectors.speed_records(player=speeds)
    assert [(r.speed, r.matches, r.wins, r.losses, r.forfeits) for r in records] == [
        ("fast", 2, 1, 1, 0),
        ("normal", 4, 3, 1, 1),
    ]
    whole = selectors.player_record(player=speeds)  # the same matches, summed
    assert sum(r.matches for r in records) == whole.matches == 6
    assert sum(r.wins for r in records) == whole.wins
    assert sum(r.forfeits for r in records) == whole.forfeits
    assert [(r.speed, r.wins, r.losses) for r in selectors.speed_records(player=bob)] == [
        ("fast", 1, 1),
        ("normal", 0, 2),
    ]


def test_the_record_per_speed_is_one_query(speeds, django_assert_num_queries):
    with django_assert_num_queries(1):
        selectors.speed_records(player=speeds)


def test_the_profile_shows_the_record_per_speed(speeds):
    html = Client().get("/players/alice/").content.decode()
    assert "By speed" in html
    assert counts(html, "fast") == {"matches": 2, "wins": 1, "losses": 1, "forfeits": 0}
    assert counts(html, "normal") == {"matches": 4, "wins": 3, "losses": 1, "forfeits": 1}
    assert 'class="speed-record" data-speed="relaxed"' not in html  # only the aborted one
    fast = re.search(r'data-speed="fast">(.*?)</li>', html, re.S)[1]
    assert ">Fast</span>" in fast and "Matches" in fast and "Lost by forfeit" in fast


def test_a_player_with_no_finished_match_has_no_record_per_speed(carol, dave):
    ended([carol, dave], status=ABORTED)
    assert selectors.speed_records(player=carol) == []
    html = Client().get("/players/carol/").content.decode()
    assert "By speed" not in html and "speed-record" not in html


# --- Favourite pools --------------------------------------------------------------------------


@pytest.fixture
def pooled(alice, bob, carol, dave):
    """alice's quick-play matches in five pools (and two that are no pool's)."""
    for days, winner in ((5, 0), (4, 1), (3, 0)):  # 3 played, 2 won
        ended([alice, bob], speed="fast", pool=True, winners=(winner,), days_ago=days)
    for days, winners in ((2, (0, 2)), (1, (1,))):  # 2 played, 1 won; the latest pool played
        ended(
            [alice, bob, carol, dave],
            game=CJ,
            stake=25,
            rated=True,
            pool=True,
            winners=winners,
            days_ago=days,
        )
    for days in (8, 7):  # 2 played, none won, longer ago: after the classic Joker pool
        ended([bob, alice], game=JW, speed="relaxed", pool=True, winners=(0,), days_ago=days)
    ended([alice, bob], speed="fast", rated=True, pool=True, days_ago=9)  # 1 played: 4th
    ended([alice, bob], speed="fast", pool=True, status=ABORTED)  # aborted: not counted
    for _ in range(5):  # tables made by hand, at the same game and speed: not quick play
        ended([alice, carol], speed="fast")
    return alice


def test_the_favourite_pools_are_the_three_most_played_with_their_wins(pooled, bob):
    favourites = selectors.favourite_pools(player=pooled)
    assert [(f.pool.id, f.played, f.wins) for f in favourites] == [
        ("japanese_joker/fast/0/casual", 3, 2),
        ("classic_joker/normal/25/rated", 2, 1),
        ("japanese_whist/relaxed/0/casual", 2, 0),
    ]
    assert favourites[1].game_title == "Classic Georgian Joker, 4 players"  # it has 3 and 2 too
    assert favourites[0].game_title == "Japanese Joker"  # always 2
    assert favourites[2].speed_title == "Relaxed"
    assert [(f.pool.id, f.played, f.wins) for f in selectors.favourite_pools(player=bob)][:2] == [
        ("japanese_joker/fast/0/casual", 3, 1),
        ("classic_joker/normal/25/rated", 2, 1),
    ]


def test_the_favourite_pools_are_one_query(pooled, django_assert_num_queries):
    with django_assert_num_queries(1):
        selectors.favourite_pools(player=pooled)


def test_the_profile_shows_the_favourite_pools(pooled):
    html = client_for(pooled).get("/players/alice/").content.decode()
    assert "Favourite pools" in html and "No quick-play match yet." not in html
    assert pool_rows(html) == [
        ("japanese_joker/fast/0/casual", "Japanese Joker Fast Casual Free 3 matches, 2 won"),
        (
            "classic_joker/normal/25/rated",
            "Classic Georgian Joker, 4 players Normal Rated ◎ 25 2 matches, 1 won",
        ),
        ("japanese_whist/relaxed/0/casual", "Japanese Whist Relaxed Casual Free 2 matches, 0 won"),
    ]


def test_a_player_with_no_quick_play_match_is_sent_to_play_now(alice, bob):
    ended([alice, bob], speed="fast")  # a table made by hand
    assert selectors.favourite_pools(player=alice) == []
    html = Client().get("/players/alice/").content.decode()
    note = re.search(r'<p class="muted" id="no-pools">(.*?)</p>', html, re.S)
    assert note and "No quick-play match yet." in note[1]
    assert re.search(r'<a href="/">Play now</a>', note[1])
    assert "favourite-pool" not in html


# --- In the reader's language -----------------------------------------------------------------


@pytest.mark.parametrize("language", ["ka", "ru"])
@pytest.mark.parametrize("how", ["cookie", "header"])
def test_the_speeds_and_pools_are_in_the_readers_language(pooled, language, how, settings):
    client = Client()
    if how == "cookie":
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
        html = client.get("/players/alice/").content.decode()
    else:
        html = client.get("/players/alice/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    with translation.override(language):
        game = seated_title(CJ, 4)
        speed = str(Table.Speed.NORMAL.label)
        rated = translation.gettext("Rated")
        matches = translation.gettext("Matches")
    assert not game.startswith("Classic Georgian Joker") and "players" not in game
    assert speed != "Normal" and rated != "Rated"
    pool, row = pool_rows(html)[1]
    assert pool == "classic_joker/normal/25/rated"
    assert row.startswith(f"{game} {speed} {rated} ◎ 25 2")
    assert "Classic Georgian Joker" not in html and ">Normal<" not in html
    fast = re.search(r'<li class="speed-record" data-speed="fast">(.*?)</li>', html, re.S)[1]
    assert matches in fast and "Matches" not in fast
    assert counts(html, "fast") == {"matches": 9, "wins": 8, "losses": 1, "forfeits": 0}
