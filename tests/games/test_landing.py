"""What a newcomer sees first (issue 12, § 2): the landing page's ways in, the matches being
played to watch and the open tables, each listed by the lobby's one visibility rule; and a
create-table form that offers a guest only what a guest may open."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from core.errors import ServiceError
from games.models import Table
from games.services import tables
from tests.games.test_lobby import befriend, open_table
from tests.support.pages import shown
from tests.support.players import client_for

pytestmark = pytest.mark.django_db


def playing(creator, opponent, **kwargs) -> Table:
    table = open_table(creator, **kwargs)
    tables.table_join(player=opponent, table_id=table.pk, password=kwargs.get("password", ""))
    table.refresh_from_db()
    assert table.status == "playing"
    return table


def watch_links(html: str) -> list[str]:
    listed = html.split('id="being-played"', 1)
    if len(listed) == 1:
        return []
    return re.findall(r'<a class="button small secondary" href="(/tables/\d+/)"', listed[1])


def test_a_visitor_sees_what_the_site_is_and_three_ways_in(db):
    html = Client().get("/").content.decode()
    hero = html.split('class="hero"', 1)[1].split("</section>", 1)[0]
    assert "Georgian trick-taking games, live in your browser" in hero
    # The same light button for each way in, so none disappears into the green banner.
    assert re.findall(r'class="button light"[^>]*>([^<]+)<', hero) == [
        "Play as guest",
        "Sign up",
        "Log in",
    ]
    assert 'action="/guest/"' in hero


def test_matches_being_played_are_listed_to_watch_by_the_lobbys_rule(alice, bob, carol, dave, eve):
    befriend(carol, dave)
    befriend(carol, eve)
    public = playing(alice, bob)
    friends_only = playing(carol, dave, visibility="friends")
    still_open = open_table(eve)

    stranger = Client().get("/").content.decode()
    assert watch_links(stranger) == [f"/tables/{public.pk}/"]
    assert watch_links(client_for(bob).get("/").content.decode()) == [f"/tables/{public.pk}/"]
    # eve is carol's friend: she may watch carol's friends-only match, as the lobby would list it.
    friend = client_for(eve).get("/").content.decode()
    assert watch_links(friend) == [f"/tables/{friends_only.pk}/", f"/tables/{public.pk}/"]
    # The open table is in the open list, not among the matches.
    assert f'data-table-id="{still_open.pk}"' in stranger
    assert f'data-table-id="{public.pk}"' not in stranger
    # Names are drawn in elements that cut them short instead of widening the page.
    assert '<span class="name">alice</span>' in stranger


def test_a_password_match_is_listed_like_a_password_table_and_the_page_opens_for_watching(
    alice, bob
):
    table = playing(alice, bob, visibility="password", password="secret1")
    html = Client().get("/").content.decode()
    assert watch_links(html) == [f"/tables/{table.pk}/"]
    assert Client().get(f"/tables/{table.pk}/").status_code == 200


def test_with_nothing_played_the_landing_says_so(db):
    html = Client().get("/").content.decode()
    assert "No match is being played right now." in html
    assert watch_links(html) == []


def test_a_guest_is_offered_neither_stakes_nor_friends_only(guest_client, alice):
    form = guest_client.get("/tables/new/japanese_joker/").content.decode()
    assert '<select name="stake"' not in form
    assert '<input type="hidden" name="stake" value="0"' in form
    assert "Guests play free tables. Sign up to play for Domino Coin." in form
    assert 'value="friends"' not in form
    assert 'value="public"' in form and 'value="password"' in form
    registered = client_for(alice).get("/tables/new/japanese_joker/").content.decode()
    assert '<select name="stake"' in registered and 'value="friends"' in registered


@pytest.mark.parametrize(
    ("sent", "refusal"),
    [
        ({"stake": "25", "visibility": "public"}, "Guests play free tables only"),
        ({"stake": "0", "visibility": "friends"}, "Guests have no friends list"),
    ],
)
def test_the_server_still_refuses_a_guest_what_the_form_does_not_offer(guest_client, sent, refusal):
    data = {"points": "21", "password": "", **sent}
    response = guest_client.post("/tables/new/japanese_joker/", data)
    assert response.status_code == 400
    assert refusal in response.content.decode()
    assert not Table.objects.exists()


def test_quick_play_is_not_a_visibility_anyone_may_choose(guest_client, alice):
    """Issue 41: "Quick play" was offered in every form, and the table it made was never
    listed, could not be joined, and left its creator alone with an empty felt."""
    for client in (guest_client, client_for(alice)):
        form = client.get("/tables/new/japanese_joker/").content.decode()
        assert 'value="pool"' not in form
        assert "Quick play" not in shown(form.split("<form", 1)[1].split("</form>", 1)[0])
        response = client.post(
            "/tables/new/japanese_joker/",
            {"points": "21", "stake": "0", "visibility": "pool", "password": ""},
        )
        assert response.status_code == 400
        assert "Select a valid choice. pool is not one of the available choices." in (
            response.content.decode()
        )
    with pytest.raises(ServiceError) as refused:
        tables.table_create(
            creator=alice, game="japanese_joker", options={}, stake=0, visibility="pool"
        )
    assert refused.value.code == "bad_visibility"
    assert not Table.objects.exists()


def test_a_guest_is_told_in_the_lobby_that_coin_tables_need_an_account(guest_client, alice):
    open_table(alice, stake=25)
    html = guest_client.get("/").content.decode()
    assert 'data-guest="yes"' in html  # the lobby script says the same of tables it draws
    assert (
        '◎ 25</span><span class="guest-note" data-when="guest_coins"> (sign up to play for coins)'
        in shown(html)
    )
    assert "sign up to play for coins" not in shown(client_for(alice).get("/").content.decode())
