"""The seasons on the pages (issue 29 § 4; docs/ladder.md § Seasons): a season's final
standings at /ladder/<game>/season/<n>/, the current season and the past ones on the
leaderboard, the badges on a profile, and the admin's read-only lists."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from django.test import Client
from django.utils import translation

from ladder import season_services
from ladder.models import Rating, Season, SeasonStanding
from tests.support.players import make_player

pytestmark = pytest.mark.django_db

GAME = "japanese_joker"
MID_JULY = datetime(2025, 7, 14, 18, 30, tzinfo=UTC)
AUGUST = datetime(2025, 8, 1, tzinfo=UTC)
SEASON_1 = f"/ladder/{GAME}/season/1/"


def ranked(name: str, display: int, *, matches: int = 12) -> None:
    Rating.objects.create(
        player=make_player(name),
        game=GAME,
        display=display,
        matches=matches,
        wins=matches // 3,
        last_played_at=AUGUST - timedelta(days=1),
    )


@pytest.fixture
def july_closed() -> Season:
    """Season 1 (July 2025) closed with ann first, ben and cid sharing second, dan fourth and
    a provisional newbie; season 2 (August) open."""
    season_services.seasons_close(now=MID_JULY)
    for name, display in [("ann", 1712), ("ben", 1650), ("cid", 1650), ("dan", 1600)]:
        ranked(name, display)
    ranked("newbie", 1900, matches=9)
    season_services.seasons_close(now=AUGUST + timedelta(seconds=30))
    return Season.objects.get(game=GAME, number=1)


def rows(html: str) -> dict[str, list[str]]:
    """Each standings row's cells as text (tags dropped, spaces folded), by player."""
    found = {}
    for name, row in re.findall(r'<tr data-player="([^"]+)">(.*?)</tr>', html, re.S):
        cells = re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
        found[name] = [" ".join(re.sub(r"<[^>]+>", " ", cell).split()) for cell in cells]
    return found


# --- A season's page ---------------------------------------------------------------------------


def test_a_season_page_shows_its_final_standings_with_the_badges(july_closed):
    response = Client().get(SEASON_1)
    assert response.status_code == 200
    html = response.content.decode()
    assert "<h1>Japanese Joker, season 1</h1>" in html
    assert "From 1 July 2025, 00:00 to 1 August 2025, 00:00 UTC." in html
    standings = rows(html)
    assert list(standings) == ["ann", "ben", "cid", "dan", "newbie"]
    assert standings["ann"] == ["1", "ann", "1712", "12", "4"]
    assert standings["ben"] == ["2", "ben", "1650", "12", "4"]
    assert standings["cid"] == ["2", "cid", "1650", "12", "4"]  # a tie shares the badge
    assert standings["dan"] == ["4", "dan", "1600", "12", "4"]
    assert standings["newbie"] == ["—", "newbie provisional", "1900?", "9", "3"]
    assert html.count('role="img" aria-label="Season badge: place 1"') == 1
    assert html.count('role="img" aria-label="Season badge: place 2"') == 2
    assert '<a class="name" href="/players/ann/">ann</a>' in html


def test_a_season_page_keeps_the_standings_whatever_the_ratings_do_later(july_closed):
    Rating.objects.filter(player__name="dan").update(display=2000)
    Rating.objects.filter(player__name="ann").delete()
    standings = rows(Client().get(SEASON_1).content.decode())
    assert standings["ann"][:3] == ["1", "ann", "1712"]
    assert standings["dan"][:3] == ["4", "dan", "1600"]


def test_the_standings_are_paged_like_the_leaderboard(july_closed, settings):
    settings.LADDER_PAGE_SIZE = 2
    assert list(rows(Client().get(SEASON_1).content.decode())) == ["ann", "ben"]
    second = Client().get(SEASON_1, {"page": 3}).content.decode()
    assert list(rows(second)) == ["newbie"] and "Page 3 of 3" in second
    # A page that is not a number is the first; one past the end is the last.
    assert list(rows(Client().get(SEASON_1, {"page": "x"}).content.decode())) == ["ann", "ben"]
    assert list(rows(Client().get(SEASON_1, {"page": 99}).content.decode())) == ["newbie"]


def test_the_running_season_says_when_it_ends_instead_of_standings(july_closed):
    response = Client().get(f"/ladder/{GAME}/season/2/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "From 1 August 2025, 00:00 to 1 September 2025, 00:00 UTC." in html
    assert "This season is still under way" in html and rows(html) == {}


def test_a_season_nobody_was_ranked_in_says_so(july_closed):
    html = Client().get("/ladder/japanese_whist/season/1/").content.decode()
    assert "Nobody was on the leaderboard when this season ended." in html


@pytest.mark.parametrize(
    "path",
    [
        "/ladder/poker/season/1/",  # no such game
        f"/ladder/{GAME}/season/3/",  # not yet
        f"/ladder/{GAME}/season/0/",
        f"/ladder/{GAME}/season/-1/",
        f"/ladder/{GAME}/season/one/",
        f"/ladder/{GAME}/season/99999999999999999999999/",  # beyond any database integer
        f"/ladder/{GAME}/season/1.5/",
    ],
)
def test_an_unknown_game_or_season_is_not_found(july_closed, path):
    assert Client().get(path).status_code == 404


# --- The leaderboard and the profile ----------------------------------------------------------


def test_the_leaderboard_shows_the_current_season_and_links_the_past_ones(july_closed):
    html = Client().get(f"/ladder/{GAME}/").content.decode()
    now = re.search(r'<p class="season-now" data-season="2">(.*?)</p>', html, re.S)
    assert now and " ".join(re.sub(r"<[^>]+>", "", now[1]).split()) == (
        "Season 2 · ends 1 September 2025, 00:00 UTC"
    )
    assert "The ladder runs in seasons of a calendar month (UTC)" in html
    assert "places 1 to 3 get a badge on their profile, and ratings carry over unchanged" in html
    past = re.search(r'<nav class="past-seasons" aria-label="Past seasons">(.*?)</nav>', html, re.S)
    assert past and re.findall(r'<a href="([^"]+)">([^<]+)</a>', past[1]) == [
        (SEASON_1, "Season 1")
    ]


def test_a_leaderboard_before_the_first_season_has_no_season_line():
    html = Client().get(f"/ladder/{GAME}/").content.decode()
    assert "season-now" not in html and "past-seasons" not in html


def test_the_profile_shows_the_players_season_badges(july_closed):
    html = Client().get("/players/ben/").content.decode()
    section = re.search(
        r'<section aria-labelledby="season-badges-heading">(.*?)</section>', html, re.S
    )
    assert section and '<h2 id="season-badges-heading">Season badges</h2>' in section[1]
    badges = re.findall(r'<li data-season-badge="([^"]+)">(.*?)</li>', section[1], re.S)
    assert [key for key, _ in badges] == [f"{GAME}-1"]
    assert 'role="img" aria-label="Season badge: place 2"' in badges[0][1]
    assert 'class="medal place-2"' in badges[0][1]
    assert f'<a href="{SEASON_1}">Japanese Joker, season 1</a>' in badges[0][1]


def test_no_badge_section_for_a_player_outside_the_top_places(july_closed):
    for name in ("dan", "newbie"):
        html = Client().get(f"/players/{name}/").content.decode()
        assert "Season badges" not in html and "season-badges" not in html


def test_badges_of_several_seasons_come_latest_first(july_closed):
    season_2 = Season.objects.get(game=GAME, number=2)
    Rating.objects.filter(player__name="ann").update(
        last_played_at=datetime(2025, 8, 20, tzinfo=UTC)
    )
    season_services.seasons_close(now=season_2.ends_at)
    html = Client().get("/players/ann/").content.decode()
    assert re.findall(r'<li data-season-badge="([^"]+)">', html) == [f"{GAME}-2", f"{GAME}-1"]


@pytest.mark.parametrize("language", ["ka", "ru"])
def test_the_season_pages_are_in_the_readers_language(july_closed, language):
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    with translation.override(language):
        place = translation.gettext("Season badge: place %(rank)s") % {"rank": 1}
    assert place != "Season badge: place 1"
    pages = [SEASON_1, f"/ladder/{GAME}/season/2/", f"/ladder/{GAME}/", "/players/ann/"]
    for path in pages:
        html = client.get(path).content.decode()
        main = html.split('<main id="main" class="page">', 1)[1].split("</main>", 1)[0]
        text = re.sub(r"<[^>]+>", " ", main)
        names = {"ann", "ben", "cid", "dan", "newbie"}
        assert set(re.findall(r"[A-Za-z]{2,}", text)) - names == set(), path
    assert f'aria-label="{place}"' in html  # the profile's badge


# --- The admin ---------------------------------------------------------------------------------


def test_seasons_and_standings_are_read_only_in_the_admin(admin_client, july_closed):
    standing = SeasonStanding.objects.get(player__name="ann")
    assert admin_client.get("/admin/ladder/season/").status_code == 200
    listed = admin_client.get("/admin/ladder/seasonstanding/").content.decode()
    assert "ann" in listed and "1712" in listed
    assert admin_client.get("/admin/ladder/season/add/").status_code == 403
    page = admin_client.get(f"/admin/ladder/seasonstanding/{standing.pk}/change/")
    assert page.status_code == 200 and 'name="rank"' not in page.content.decode()
    admin_client.post(f"/admin/ladder/seasonstanding/{standing.pk}/change/", {"rank": 9})
    standing.refresh_from_db()
    assert standing.rank == 1
    assert admin_client.post(f"/admin/ladder/season/{july_closed.pk}/delete/").status_code == 403
