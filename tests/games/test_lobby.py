"""Lobby and tables: create, list, join, leave, cancel, invite, start and expire (issue 5)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts import services as account_services
from accounts.models import CoinAccount
from accounts.selectors import coin_audit, wallet_of
from core.errors import ServiceError
from games.forms import table_form_for
from games.models import Invitation, Match, Seat, Table
from games.rules import get_game
from games.selectors import visible_open_tables
from games.services import invitations, tables
from tests.support.players import client_for

pytestmark = pytest.mark.django_db


def befriend(first, second) -> None:
    request = account_services.friend_request_send(sender=first, username=second.name)
    account_services.friend_request_accept(player=second, request_id=request.pk)


def open_table(creator, game="japanese_joker", **kwargs) -> Table:
    params = {"options": {}, "stake": 0, "visibility": "public", "password": ""}
    params.update(kwargs)
    return tables.table_create(creator=creator, game=game, **params)


def snapshot() -> tuple:
    return (
        list(
            Table.objects.values_list(
                "pk", "status", "creator_id", "stood_up_for_stake_id"
            ).order_by("pk")
        ),
        list(
            Seat.objects.values_list("table_id", "position", "player_id", "active").order_by("pk")
        ),
        Match.objects.count(),
        list(CoinAccount.objects.values_list("pk", "balance").order_by("pk")),
    )


# --- The create form ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("japanese_joker", ["points"]),
        ("classic_joker", ["seats", "pulkas", "khishti", "premia", "moshla", "strict_joker"]),
        ("japanese_whist", ["variant", "points"]),
    ],
)
def test_each_game_form_offers_exactly_its_rules_options(game, options):
    fields = list(table_form_for(game).base_fields)
    assert fields == ["stake", "speed", "visibility", "password", "rated", *options]


def test_japanese_joker_points_default_to_21_and_offer_the_four_targets(alice):
    field = table_form_for("japanese_joker")().fields["points"]
    assert field.initial == "21"
    assert [value for value, _ in field.choices] == ["11", "15", "21", "31"]
    stakes = [value for value, _ in table_form_for("japanese_joker")().fields["stake"].choices]
    assert stakes == [0, 25, 50, 100, 250]


def test_create_through_the_page_seats_the_creator_with_parsed_options(alice):
    client = client_for(alice)
    response = client.post(
        "/tables/new/classic_joker/",
        {
            "stake": "25",
            "visibility": "public",
            "pulkas": "nines",
            "khishti": "-500",
            "premia": "True",
            "moshla": "False",
            "strict_joker": "True",
        },
    )
    table = Table.objects.get()
    assert response["Location"] == f"/tables/{table.pk}/"
    assert table.options == {
        "seats": 4,
        "pulkas": "nines",
        "khishti": -500,
        "premia": True,
        "moshla": False,
        "strict_joker": True,
    }
    assert (table.stake, table.seats_total, table.status) == (25, 4, "open")
    assert list(table.seats.values_list("position", "player__name")) == [(0, "alice")]


def test_a_whist_table_carries_the_spel_or_pass_game(alice):
    client_for(alice).post(
        "/tables/new/japanese_whist/",
        {"stake": "0", "visibility": "public", "variant": "spel_pass", "points": "7"},
    )
    assert Table.objects.get().options == {"variant": "spel_pass", "points": 7}


def test_password_tables_store_a_hash_and_never_show_the_password(alice):
    client = client_for(alice)
    client.post(
        "/tables/new/japanese_joker/",
        {"stake": "0", "visibility": "password", "password": "s3cret-pw", "points": "21"},
    )
    table = Table.objects.get()
    assert table.password_hash.startswith(("md5$", "pbkdf2_"))
    assert "s3cret-pw" not in table.password_hash
    assert "s3cret-pw" not in client.get(f"/tables/{table.pk}/").content.decode()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"visibility": "password", "password": "abc"}, "at least 4 characters"),
        ({"stake": "30"}, "Select a valid choice"),
        ({"points": "20"}, "Select a valid choice"),
        ({"visibility": "secret"}, "Select a valid choice"),
    ],
)
def test_bad_create_input_gets_a_clear_error_and_creates_nothing(alice, data, message):
    form = {"stake": "0", "visibility": "public", "password": "", "points": "21", **data}
    response = client_for(alice).post("/tables/new/japanese_joker/", form)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Table.objects.exists()


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"options": {"bogus": 1}}, "Unknown option"),
        ({"options": {"points": 20}}, "Points to play to must be one of 11, 15, 21, 31"),
        ({"options": {"points": "21"}}, "Points to play to must be one of"),
        ({"stake": 30}, r"The stake must be free or one of 25, 50, 100, 250 coins\."),
        ({"visibility": "password", "password": "abc"}, "at least 4 characters"),
        ({"visibility": "secret"}, r"Choose Public, Friends or Password\."),
        ({"game": "poker"}, "Unknown game"),
    ],
)
def test_bad_create_input_to_the_service_is_refused(alice, kwargs, message):
    game = kwargs.pop("game", "japanese_joker")
    before = snapshot()
    with pytest.raises(ServiceError, match=message):
        open_table(alice, game=game, **kwargs)
    assert snapshot() == before


def test_unknown_game_page_is_404(alice):
    assert client_for(alice).get("/tables/new/poker/").status_code == 404


def test_a_guest_may_open_free_tables_only(guest):
    with pytest.raises(ServiceError, match="Guests play free tables only"):
        open_table(guest, stake=25)
    with pytest.raises(ServiceError, match="Guests have no friends list"):
        open_table(guest, visibility="friends")
    assert open_table(guest).creator == guest


def test_a_player_holds_one_table_at_a_time(alice, bob):
    first = open_table(alice)
    with pytest.raises(ServiceError, match=f"already seated at table #{first.pk}"):
        open_table(alice, game="japanese_whist")
    other = open_table(bob)
    with pytest.raises(ServiceError, match="already seated"):
        tables.table_join(player=alice, table_id=other.pk)


def test_a_coin_table_needs_the_stake_in_the_wallet(alice, bob):
    set_to = wallet_of(alice)
    account_services.wallet_admin_adjust(
        wallet=set_to, amount=-990, reason="t", admin=None, key="t1"
    )
    with pytest.raises(ServiceError, match="stake is 25 coins and you have 10"):
        open_table(alice, stake=25)
    table = open_table(bob, stake=25)
    with pytest.raises(ServiceError, match="stake is 25 coins and you have 10"):
        tables.table_join(player=alice, table_id=table.pk)


# --- The lobby list ----------------------------------------------------------------------------


def test_lobby_lists_open_tables_with_what_a_player_needs(alice, bob):
    open_table(alice, options={"points": 15}, stake=50, visibility="password", password="pass1")
    page = client_for(bob).get("/")
    [entry] = page.context["tables"]
    assert entry["game_title"] == "Japanese Joker"
    assert entry["options"] == ["Points to play to: 15"]
    assert (entry["stake"], entry["seats_taken"], entry["seats_total"]) == (50, 1, 2)
    assert entry["creator"] == "alice" and entry["visibility"] == "password"
    html = page.content.decode()
    # An inline SVG that any browser draws, not an emoji that needs a colour font (issue 12).
    assert 'role="img" aria-label="Password table"><svg class="icon"' in html
    assert "🔒" not in html


def test_friends_only_tables_are_shown_only_to_the_creators_friends(alice, bob, carol):
    befriend(alice, bob)
    table = open_table(alice, visibility="friends")
    assert list(visible_open_tables(bob)) == [table]
    assert list(visible_open_tables(alice)) == [table]
    assert list(visible_open_tables(carol)) == []
    assert list(visible_open_tables(None)) == []
    assert client_for(carol).get(f"/tables/{table.pk}/").status_code == 404


def test_lobby_filters_by_game_and_stake(alice, bob, carol):
    open_table(alice, stake=25)
    open_table(bob, game="japanese_whist")
    open_table(carol, game="classic_joker", stake=25)
    client = client_for(alice)
    games = [t["game"] for t in client.get("/?game=japanese_whist").context["tables"]]
    assert games == ["japanese_whist"]
    stakes = sorted(t["game"] for t in client.get("/?stake=25").context["tables"])
    assert stakes == ["classic_joker", "japanese_joker"]
    assert len(client.get("/?stake=0").context["tables"]) == 1
    assert len(client.get("/?stake=abc").context["tables"]) == 3  # a bad filter is ignored


def test_started_and_cancelled_tables_leave_the_lobby(alice, bob, carol):
    started = open_table(alice)
    tables.table_join(player=bob, table_id=started.pk)
    cancelled = open_table(carol)
    tables.table_cancel(player=carol, table_id=cancelled.pk)
    assert list(visible_open_tables(None)) == []


# --- Join, leave, cancel -----------------------------------------------------------------------


def test_the_last_seat_starts_the_match_with_stakes_in_escrow(alice, bob):
    table = open_table(alice, stake=100)
    response = client_for(bob).post(f"/tables/{table.pk}/join/")
    assert response["Location"] == f"/tables/{table.pk}/"
    table.refresh_from_db()
    assert table.status == "playing" and table.started_at is not None
    match = Match.objects.get(table=table)
    state = get_game("japanese_joker").from_dict(match.state)
    assert state.phase == "trump"
    assert len(state.view(state.to_act)["hand"]) == 3  # the first three cards, dealt
    assert len(match.seed) == 71 and match.seed not in str(state.view(0))
    assert CoinAccount.objects.get(match_id=match.pk).balance == 200
    assert (wallet_of(alice).balance, wallet_of(bob).balance) == (900, 900)
    assert coin_audit().ok


def test_joining_refusals_change_nothing(alice, bob, carol, dave, guest):
    befriend(alice, bob)
    full = open_table(alice)
    tables.table_join(player=bob, table_id=full.pk)  # full and started
    friends_only = open_table(carol, visibility="friends")
    coin = open_table(dave, stake=25)
    before = snapshot()
    cases = [
        (guest, full.pk, "already started"),
        (guest, friends_only.pk, "for carol’s friends only"),
        (guest, coin.pk, "Guests play free tables only"),
        (guest, 99999, r"There is no such table\."),
    ]
    for player, table_id, message in cases:
        with pytest.raises(ServiceError, match=message):
            tables.table_join(player=player, table_id=table_id)
    assert snapshot() == before


def test_a_full_table_is_refused(alice, bob, carol, dave, eve):
    table = open_table(alice, game="classic_joker")
    tables.table_join(player=bob, table_id=table.pk)
    tables.table_join(player=carol, table_id=table.pk)
    tables.table_join(player=dave, table_id=table.pk)
    with pytest.raises(ServiceError, match="already started"):
        tables.table_join(player=eve, table_id=table.pk)


def test_cancelled_tables_cannot_be_joined(alice, bob):
    table = open_table(alice)
    tables.table_cancel(player=alice, table_id=table.pk)
    with pytest.raises(ServiceError, match=r"This table was cancelled\."):
        tables.table_join(player=bob, table_id=table.pk)


def test_password_is_checked_with_a_clear_error_and_rate_limited(alice, bob):
    table = open_table(alice, visibility="password", password="right-one")
    client = client_for(bob)
    response = client.post(f"/tables/{table.pk}/join/", {"password": "wrong"}, follow=True)
    assert "Wrong password for this table." in response.content.decode()
    for attempt in range(4):
        with pytest.raises(ServiceError, match="Wrong password"):
            tables.table_join(player=bob, table_id=table.pk, password=f"nope{attempt}")
    # After five wrong tries even the right password waits.
    with pytest.raises(ServiceError, match="Too many wrong passwords"):
        tables.table_join(player=bob, table_id=table.pk, password="right-one")
    assert table.seats.count() == 1


def test_the_right_password_seats_the_player(alice, bob):
    table = open_table(alice, visibility="password", password="right-one")
    tables.table_join(player=bob, table_id=table.pk, password="right-one")
    assert table.seats.count() == 2


def test_joining_twice_keeps_one_seat(alice, bob, carol):
    table = open_table(alice, game="classic_joker")
    first = tables.table_join(player=bob, table_id=table.pk)
    assert tables.table_join(player=bob, table_id=table.pk) == first
    assert table.seats.count() == 2


def test_leave_before_the_start_and_the_creator_role_passes_on(alice, bob, carol):
    table = open_table(alice, game="classic_joker")
    tables.table_join(player=bob, table_id=table.pk)
    response = client_for(alice).post(f"/tables/{table.pk}/leave/")
    assert response["Location"] == "/"
    table.refresh_from_db()
    assert table.creator == bob and table.status == "open"
    # Alice is free to sit elsewhere again.
    open_table(alice)
    tables.table_leave(player=bob, table_id=table.pk)
    table.refresh_from_db()
    assert table.status == "cancelled"


def test_leave_refusals(alice, bob, carol):
    table = open_table(alice)
    with pytest.raises(ServiceError, match=r"You are not seated at this table\."):
        tables.table_leave(player=carol, table_id=table.pk)
    tables.table_join(player=bob, table_id=table.pk)
    with pytest.raises(ServiceError, match="leaving now forfeits it"):
        tables.table_leave(player=bob, table_id=table.pk)


def test_only_the_creator_cancels_an_open_table(alice, bob):
    table = open_table(alice, game="classic_joker")
    tables.table_join(player=bob, table_id=table.pk)
    before = snapshot()
    response = client_for(bob).post(f"/tables/{table.pk}/cancel/", follow=True)
    assert "Only the table’s creator can cancel it." in response.content.decode()
    assert snapshot() == before
    client_for(alice).post(f"/tables/{table.pk}/cancel/")
    table.refresh_from_db()
    assert table.status == "cancelled"
    assert not Seat.objects.filter(table=table, active=True).exists()


def test_a_player_who_cannot_cover_the_stake_at_start_is_unseated_and_the_table_says_why(
    alice, bob
):
    table = open_table(alice, stake=250)
    # Alice's coins shrink after she sat down (an admin deduction, say).
    account_services.wallet_admin_adjust(
        wallet=wallet_of(alice), amount=-800, reason="x", admin=None, key="shrink"
    )
    tables.table_join(player=bob, table_id=table.pk)
    table.refresh_from_db()
    assert table.status == "open" and not Match.objects.exists()
    assert "alice could no longer cover the 250-coin stake" in table.notice
    assert list(table.seats.values_list("player__name", flat=True)) == ["bob"]
    assert (wallet_of(alice).balance, wallet_of(bob).balance) == (200, 1000)
    assert "could no longer cover" in client_for(bob).get(f"/tables/{table.pk}/").content.decode()
    # The notice is written when it is read, in the reader's language.
    in_georgian = client_for(bob)
    in_georgian.cookies["django_language"] = "ka"
    page = in_georgian.get(f"/tables/{table.pk}/").content.decode()
    assert "alice-ს 250 მონეტის ფსონისთვის" in page and "could no longer" not in page


# --- Invitations -------------------------------------------------------------------------------


def test_an_invited_friend_sits_at_a_password_table_without_the_password(alice, bob):
    befriend(alice, bob)
    table = open_table(alice, visibility="password", password="right-one")
    client_for(alice).post(f"/tables/{table.pk}/invite/", {"friend": bob.pk})
    assert Invitation.objects.filter(table=table, player=bob).exists()
    tables.table_join(player=bob, table_id=table.pk)
    table.refresh_from_db()
    assert table.status == "playing"


def test_an_invited_player_sees_and_joins_a_friends_only_table(alice, bob, carol):
    befriend(alice, bob)
    befriend(bob, carol)
    table = open_table(alice, game="classic_joker", visibility="friends")
    tables.table_join(player=bob, table_id=table.pk)
    assert table not in visible_open_tables(carol)
    invitations.table_invite(inviter=bob, table_id=table.pk, friend_id=carol.pk)
    assert table in visible_open_tables(carol)
    tables.table_join(player=carol, table_id=table.pk)


def test_invitation_refusals(alice, bob, carol, dave):
    befriend(alice, bob)
    table = open_table(alice)
    with pytest.raises(ServiceError, match=r"You can invite only your friends\."):
        invitations.table_invite(inviter=alice, table_id=table.pk, friend_id=carol.pk)
    with pytest.raises(ServiceError, match=r"Only players at the table can invite\."):
        invitations.table_invite(inviter=dave, table_id=table.pk, friend_id=bob.pk)
    response = client_for(alice).post(f"/tables/{table.pk}/invite/", {"friend": "x"}, follow=True)
    assert "Choose a friend to invite." in response.content.decode()
    assert not Invitation.objects.exists()


def test_the_waiting_room_lists_friends_to_invite(alice, bob, carol):
    befriend(alice, bob)
    table = open_table(alice)
    page = client_for(alice).get(f"/tables/{table.pk}/")
    assert [p.name for p in page.context["invitable"]] == ["bob"]


# --- Expiry ------------------------------------------------------------------------------------


def test_idle_open_tables_expire_after_30_minutes_and_the_task_can_run_twice(alice, bob):
    from games.tasks import expire_idle_tables

    idle = open_table(alice)
    fresh = open_table(bob)
    Table.objects.filter(pk=idle.pk).update(last_activity_at=timezone.now() - timedelta(minutes=31))
    Table.objects.filter(pk=fresh.pk).update(
        last_activity_at=timezone.now() - timedelta(minutes=29)
    )
    assert expire_idle_tables.delay().get() == 1
    assert expire_idle_tables.delay().get() == 0
    idle.refresh_from_db()
    fresh.refresh_from_db()
    assert (idle.status, fresh.status) == ("cancelled", "open")
    assert not Seat.objects.filter(table=idle, active=True).exists()
    open_table(alice)  # alice is free again


def test_the_create_form_links_the_rules_of_its_game(alice):
    page = client_for(alice).get("/tables/new/classic_joker/").content.decode()
    assert 'href="/help/classic_joker/"' in page
    assert 'href="/help/difference/"' in page
