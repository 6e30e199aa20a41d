"""The ladder's pages: /ladder/, the leaderboards, the profile and its chart, a match's ratings
for the table page, and the Rated option of a new table."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import Player
from games.models import Match, Table
from games.services import tables
from ladder import services
from ladder.models import Rating
from tests.support.ladder import beats, committed, forfeit, open_table
from tests.support.players import client_for, make_player

pytestmark = pytest.mark.django_db

GAME = "japanese_joker"


def ranked(name: str, display: int, *, matches: int = 12, days_ago: float = 1, game=GAME):
    """A player with a settled rating, for the leaderboard's rules (rows as the services
    leave them: the leaderboards only read them)."""
    player = make_player(name)
    Rating.objects.create(
        player=player,
        game=game,
        display=display,
        matches=matches,
        wins=matches // 2,
        last_played_at=timezone.now() - timedelta(days=days_ago),
    )
    return player


def board_names(response) -> list[str]:
    return re.findall(r'<tr[^>]*data-player="([^"]+)"', response.content.decode())


# --- Leaderboards -----------------------------------------------------------------------------


def board_row(response, name: str) -> str:
    return re.search(
        rf'<tr[^>]*data-player="{name}">(.*?)</tr>', response.content.decode(), re.S
    ).group(1)


def test_the_leaderboard_ranks_settled_players_then_lists_provisional_ones_unranked(db):
    ranked("ann", 1700)
    ranked("ben", 1650)
    ranked("cid", 1650)
    ranked("dan", 1600)
    ranked("newbie", 1900, matches=9)  # provisional: listed after the ranked, however high
    ranked("fresh", 1550, matches=1)
    ranked("gone", 1800, days_ago=31)  # inactive
    banned = ranked("banned", 1750)
    banned.user.is_active = False
    banned.user.save()
    response = Client().get(f"/ladder/{GAME}/")
    assert response.status_code == 200
    assert board_names(response) == ["ann", "ben", "cid", "dan", "newbie", "fresh"]
    ranks = [row.rank for row in response.context["page"]]
    assert ranks == [1, 2, 2, 4, None, None]
    text = response.content.decode()
    assert "50%" in text  # the win rate
    assert "provisional" in text  # the rules are on the page
    newbie = board_row(response, "newbie")
    assert re.search(r'<td class="num">—</td>', newbie)  # no rank
    badge = re.search(r'<span class="badge provisional" title="([^"]+)">provisional</span>', newbie)
    assert badge and "Fewer than 10 rated matches in this game" in badge.group(1)
    assert "1900?" in newbie
    assert "provisional" not in board_row(response, "ann")


def test_a_young_site_has_a_ladder_from_its_first_rated_match(alice, bob):
    beats(alice, bob)
    page = Client().get("/ladder/").content.decode()
    top = page[page.index('id="ladder-japanese_joker"') : page.index('id="ladder-classic_joker"')]
    assert re.findall(r'class="name" href="/players/(\w+)/"', top) == ["alice", "bob"]
    assert top.count('class="badge provisional"') == 2
    assert "Nobody" not in top
    board = Client().get(f"/ladder/{GAME}/")
    assert board_names(board) == ["alice", "bob"]
    assert 'class="badge provisional"' in board_row(board, "alice")


def test_the_viewers_own_rank_shows_even_off_the_page(db, settings):
    settings.LADDER_PAGE_SIZE = 2
    for index, name in enumerate(["ann", "ben", "cid", "dan"]):
        ranked(name, 1800 - 10 * index)
    me = ranked("me", 1500)
    response = client_for(me).get(f"/ladder/{GAME}/")
    assert board_names(response) == ["ann", "ben"]
    assert "You are ranked #5 with 1500." in response.content.decode()
    page3 = client_for(me).get(f"/ladder/{GAME}/?page=3")
    assert board_names(page3) == ["me"]
    assert 'class="me"' in page3.content.decode()


def test_a_provisional_or_inactive_viewer_is_told_why_they_are_not_ranked(db):
    ranked("ann", 1700)
    fresh = ranked("fresh", 1560, matches=4)
    idle = ranked("idle", 1620, days_ago=40)
    text = client_for(fresh).get(f"/ladder/{GAME}/").content.decode()
    assert "Your rating: 1560?, provisional: 6 more rated matches to be ranked." in text
    text = client_for(idle).get(f"/ladder/{GAME}/").content.decode()
    assert "Your rating: 1620; play a rated match to be ranked again." in text
    assert board_names(client_for(idle).get(f"/ladder/{GAME}/")) == ["ann", "fresh"]


def test_searching_a_username_finds_their_row_with_their_true_rank(db):
    for index, name in enumerate(["ann", "ben", "carol", "caroline", "dan"]):
        ranked(name, 1800 - 10 * index)
    response = Client().get(f"/ladder/{GAME}/", {"q": "CAROL"})
    assert board_names(response) == ["carol", "caroline"]
    assert [row.rank for row in response.context["page"]] == [3, 4]
    empty = Client().get(f"/ladder/{GAME}/", {"q": "zed"})
    assert "No player on this leaderboard has a name containing “zed”." in empty.content.decode()


def test_the_ladder_page_shows_the_top_ten_of_each_game(db):
    for index in range(12):
        ranked(f"p{index:02}", 2000 - index)
    ranked("whister", 1600, game="japanese_whist")
    response = Client().get("/ladder/")
    assert response.status_code == 200
    tops = {game["key"]: game["top"] for game in response.context["games"]}
    assert [r.player.name for r in tops[GAME]] == [f"p{i:02}" for i in range(10)]
    assert [r.player.name for r in tops["japanese_whist"]] == ["whister"]
    assert tops["classic_joker"] == []
    text = response.content.decode()
    classic = text[
        text.index('id="ladder-classic_joker"') : text.index('id="ladder-japanese_whist"')
    ]
    assert "Nobody has played a rated match of this game in the last 30 days." in classic


def test_an_unknown_game_has_no_leaderboard(db):
    assert Client().get("/ladder/chess/").status_code == 404


# --- The profile ------------------------------------------------------------------------------


def test_the_profile_draws_one_chart_point_per_rated_match(alice, bob, carol):
    beats(alice, bob)
    beats(bob, alice)
    beats(alice, carol)
    voided = beats(carol, alice)
    services.match_void(match_id=voided.pk, reason="test")
    beats(alice, bob, game="japanese_whist")
    html = Client().get("/players/alice/").content.decode()
    section = html[
        html.index('id="rating-japanese_joker"') : html.index('id="rating-classic_joker"')
    ]
    assert section.count("<circle") == 3  # the voided match is not drawn
    assert section.count("<polyline") == 1
    assert "<svg" in section and "rated matches" in section
    whist = html[html.index('id="rating-japanese_whist"') :]
    assert whist[: whist.index("</section>")].count("<circle") == 1
    classic = html[html.index('id="rating-classic_joker"') :]
    assert "<svg" not in classic[: classic.index("</section>")]
    assert "<script" not in html.split("<main", 1)[1].split("</main>", 1)[0]  # no charting JS


def test_the_profile_shows_rank_record_and_recent_matches_with_rating_changes(
    alice, bob, carol, settings
):
    settings.LADDER_PROVISIONAL_MATCHES = 2
    first = beats(alice, bob)
    beats(alice, carol)
    beats(alice, bob, rated=False)
    html = Client().get("/players/alice/").content.decode()
    standing = html[html.index('id="rating-japanese_joker"') :]
    assert "rank #1" in standing[: standing.index("</section>")]
    record = {
        key: int(value) if value.isdigit() else value
        for key, value in re.findall(r'data-record="(\w+)">([^<]+)<', html)
    }
    assert record == {"matches": 3, "wins": 3, "losses": 0, "forfeits": 0}
    bob_html = Client().get("/players/bob/").content.decode()
    assert re.findall(r'data-record="(\w+)">([^<]+)<', bob_html)[3] == ("forfeits", "2")
    row = re.search(rf'<tr data-match="{first.pk}">(.*?)</tr>', bob_html, re.S).group(1)
    change = first.rating_changes.get(player=bob)
    assert "alice" in row and "lost" in row
    assert f"1500 → {change.after} (−{-change.delta})" in row
    casual = re.findall(r"<tr data-match=\"\d+\">.*?</tr>", bob_html, re.S)[0]
    assert "casual" in casual  # the newest first: the casual match


def test_a_four_player_match_on_the_profile_shows_the_place(alice, bob, carol, dave):
    table = open_table("classic_joker", [alice, bob, carol, dave])
    for leaver in (alice, bob, carol, dave):
        forfeit(table, leaver)
    html = Client().get("/players/alice/").content.decode()
    assert re.search(r"place \d of 4", html)


def test_the_profile_keeps_friends_and_the_add_friend_button(alice, bob):
    text = client_for(alice).get("/players/bob/").content.decode()
    assert "Add friend" in text and "Friends" in text
    assert Client().get("/players/nobody-here/").status_code == 404


def test_a_guest_has_an_unrated_profile_while_their_session_can_live(guest_client, guest, settings):
    text = Client().get(f"/players/{guest.name}/").content.decode()
    assert "Guests are not rated." in text and 'class="rating-chart"' not in text
    long_ago = timezone.now() - timedelta(seconds=settings.SESSION_COOKIE_AGE + 60)
    Player.objects.filter(pk=guest.pk).update(created_at=long_ago, last_seen_at=long_ago)
    assert Client().get(f"/players/{guest.name}/").status_code == 404
    assert guest_client.get(f"/players/{guest.name}/").status_code == 200  # their own page


# --- A match's ratings for the table page -----------------------------------------------------


def test_a_matchs_ratings_for_the_table_page(alice, bob, carol, settings):
    rated = beats(alice, bob)
    answer = Client().get(f"/ladder/matches/{rated.pk}/ratings/").json()
    assert answer["status"] == "rated"
    assert [(c["name"], c["before"], c["provisional"]) for c in answer["changes"]] == [
        ("alice", 1500, True),
        ("bob", 1500, True),
    ]
    casual = beats(alice, carol, rated=False)
    assert Client().get(f"/ladder/matches/{casual.pk}/ratings/").json()["status"] == "casual"
    settings.MATCH_FINISHED_TASKS = []
    pending = beats(bob, carol)
    assert Client().get(f"/ladder/matches/{pending.pk}/ratings/").json() == {
        "match": pending.pk,
        "status": "pending",
        "changes": [],
    }
    services.match_void(match_id=rated.pk, reason="test")
    assert Client().get(f"/ladder/matches/{rated.pk}/ratings/").json()["status"] == "voided"


def test_a_friends_only_matchs_ratings_are_hidden_from_strangers(alice, bob, eve):
    from accounts.services import friend_request_accept, friend_request_send

    request = friend_request_send(sender=alice, username="bob")
    friend_request_accept(player=bob, request_id=request.pk)
    table = committed(
        tables.table_create,
        creator=alice,
        game=GAME,
        options={},
        stake=0,
        visibility="friends",
    )
    committed(tables.table_join, player=bob, table_id=table.pk)
    match = forfeit(table, bob)
    assert client_for(eve).get(f"/ladder/matches/{match.pk}/ratings/").status_code == 404
    assert client_for(bob).get(f"/ladder/matches/{match.pk}/ratings/").status_code == 200


# --- The Rated option ---------------------------------------------------------------------------


def test_a_new_table_is_rated_unless_unticked_and_the_lobby_and_table_say_so(alice, bob):
    client = client_for(alice)
    form = client.get(f"/tables/new/{GAME}/").content.decode()
    assert re.search(r'<input type="checkbox" name="rated"[^>]*checked', form)
    ticked = {"stake": 0, "visibility": "public", "points": 21, "rated": "on"}
    response = client.post(f"/tables/new/{GAME}/", ticked)
    table = Table.objects.get()
    assert response.status_code == 302 and table.rated
    lobby_html = client_for(bob).get("/").content.decode()
    assert 'class="badge rated"' in lobby_html
    assert 'id="table-rated">Rated<' in client.get(f"/tables/{table.pk}/").content.decode()
    committed(tables.table_cancel, player=alice, table_id=table.pk)

    client.post(f"/tables/new/{GAME}/", {"stake": 0, "visibility": "public", "points": 21})
    casual = Table.objects.exclude(pk=table.pk).get()
    assert not casual.rated
    assert 'id="table-rated">Casual<' in client.get(f"/tables/{casual.pk}/").content.decode()


def test_a_guest_is_told_their_table_is_casual_and_it_is(guest_client):
    form = guest_client.get(f"/tables/new/{GAME}/").content.decode()
    assert "A guest’s table is never rated." in form
    guest_client.post(
        f"/tables/new/{GAME}/", {"stake": 0, "visibility": "public", "points": 21, "rated": "on"}
    )
    assert not Table.objects.get().rated


def test_a_rematch_keeps_the_table_rated(alice, bob):
    from games.services.rematch import rematch_accept

    first = beats(alice, bob)
    for player in (alice, bob):
        committed(rematch_accept, table_id=first.table_id, player=player)
    again = Table.objects.get(rematch_of_id=first.table_id)
    assert again.rated
    assert Match.objects.filter(table=again).exists()


@pytest.mark.parametrize("language", ["ka", "ru"])
def test_the_ladder_pages_are_translated(alice, bob, language, settings):
    settings.LADDER_PROVISIONAL_MATCHES = 1
    beats(alice, bob)
    beats(alice, bob, rated=False)
    client = client_for(bob)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    for path in ("/ladder/", f"/ladder/{GAME}/", "/players/alice/", "/players/bob/"):
        html = client.get(path).content.decode()
        main = html.split('<main id="main" class="page">', 1)[1].split("</main>", 1)[0]
        text = re.sub(r"<[^>]+>", " ", re.sub(r"<svg.*?</svg>", " ", main, flags=re.S))
        words = set(re.findall(r"[A-Za-z]{2,}", text)) - {"alice", "bob"}
        assert words == set(), (path, words)
