"""The games admin pages an operator uses load, filter and search; match state is read-only."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from accounts.models import Player
from games.models import Match, MatchEvent, Seat, Table
from games.rules import get_game
from games.services import tables

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(alice, bob, carol) -> Client:
    table = tables.table_create(
        creator=alice,
        game="japanese_joker",
        options={},
        stake=25,
        visibility="password",
        password="secret-1",
    )
    tables.table_join(player=bob, table_id=table.pk, password="secret-1")
    tables.table_create(
        creator=carol, game="classic_joker", options={}, stake=0, visibility="public"
    )
    admin = get_user_model().objects.create_superuser("boss", "boss@example.com", "pw-boss-123")
    client = Client()
    client.force_login(admin)
    return client


@pytest.mark.parametrize(
    "url",
    [
        "/admin/games/table/",
        "/admin/games/table/?status__exact=open&game__exact=classic_joker",
        "/admin/games/table/?q=alice",
        "/admin/games/seat/?active__exact=1",
        "/admin/games/invitation/",
        "/admin/games/match/?status__exact=playing",
        "/admin/games/matchevent/",
    ],
)
def test_games_admin_lists_load(admin_client, url):
    assert admin_client.get(url).status_code == 200


def test_admin_search_and_filters_find_the_right_tables(admin_client):
    open_tables = admin_client.get("/admin/games/table/?status__exact=open").context["cl"]
    assert [t.game for t in open_tables.result_list] == ["classic_joker"]
    found = admin_client.get("/admin/games/table/?q=bob").context["cl"].result_list
    assert [t.game for t in found] == ["japanese_joker"]


def test_admin_match_page_hides_the_seed_and_cannot_edit_the_state(admin_client):
    match = Match.objects.get()
    page = admin_client.get(f"/admin/games/match/{match.pk}/change/")
    assert page.status_code == 200
    content = page.content.decode()
    assert match.seed not in content
    # While the match runs the admin sees what a spectator sees: no hidden card.
    hidden = get_game(match.game).from_dict(match.state).hidden_cards(None)
    assert hidden and not any(f"&quot;{card}&quot;" in content for card in hidden)
    before = (match.state, match.version)
    admin_client.post(f"/admin/games/match/{match.pk}/change/", {"version": "99", "state": "{}"})
    match.refresh_from_db()
    assert (match.state, match.version) == before
    assert (
        admin_client.get(f"/admin/games/table/{Table.objects.first().pk}/change/").status_code
        == 200
    )
    # The event log is append-only for admins too: nobody adds an event by hand.
    assert admin_client.get("/admin/games/matchevent/add/").status_code == 403
    assert not MatchEvent.objects.exists()


def test_seats_are_read_only_in_the_admin(admin_client):
    """Who holds a seat changes only through the services, which re-tell every open socket what
    it may see; an admin editing a seat by hand would skip that."""
    seat = Seat.objects.filter(table__status="playing").first()
    assert admin_client.get(f"/admin/games/seat/{seat.pk}/change/").status_code == 200
    carol = Player.objects.get(name="carol")
    admin_client.post(f"/admin/games/seat/{seat.pk}/change/", {"player": carol.pk, "position": 0})
    seat.refresh_from_db()
    assert seat.player.name != "carol"
    assert admin_client.get("/admin/games/seat/add/").status_code == 403
