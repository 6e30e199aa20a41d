"""Making a tournament from the site (issue 29 § 2): a registered player's private event through
its page, within the limits; staff making the site's own events there as in the admin; guests
and strangers refused; calling an event off, with every fee back, by the one who may."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.utils import timezone

from accounts.models import CoinAccount
from accounts.selectors import coin_audit
from core.errors import ServiceError
from tests.support.pages import shown
from tests.support.players import client_for, make_player
from tournaments.models import Entrant, Tournament
from tournaments.services.creation import tournament_create
from tournaments.services.entries import tournament_join
from tournaments.services.running import tournament_start

pytestmark = pytest.mark.django_db(transaction=True)

GAME = "japanese_joker"
NEW = f"/tournaments/new/{GAME}/"


def filled(**changes) -> dict[str, str]:
    """The form as a person leaves it after typing a name: every other field its default."""
    form = {
        "name": "Friday friends",
        "format": "arena",
        "duration_minutes": "30",
        "rounds": "5",
        "starts_in": "60",
        "speed": "fast",
        "rated": "on",
        "entry_fee": "0",
        "prize_shares": "50, 30, 20",
        "access": "friends",
        "password": "",
        "max_players": "16",
        "points": "11",
    }
    form.update(changes)
    return {key: value for key, value in form.items() if value is not None}


def balance(player) -> int:
    return CoinAccount.objects.get(player=player).balance


def test_a_player_makes_a_friends_only_arena_with_a_shorter_match(alice):
    browser = client_for(alice)
    page = browser.get(NEW)
    assert page.status_code == 200
    text = page.content.decode()
    # A player's own event is private: "Public" is not offered.
    assert 'value="friends"' in text and 'value="password"' in text
    assert 'value="public"' not in text

    before = timezone.now()
    answer = browser.post(NEW, filled())
    assert answer.status_code == 302
    tournament = Tournament.objects.get()
    assert answer["Location"] == f"/tournaments/{tournament.pk}/"
    assert (tournament.name, tournament.creator_id) == ("Friday friends", alice.pk)
    assert tournament.access == Tournament.Access.FRIENDS
    assert (tournament.format, tournament.duration_minutes, tournament.rounds) == (
        "arena",
        30,
        None,
    )
    assert tournament.options["points"] == 11
    assert tournament.max_players == 16
    assert before + timedelta(minutes=59) < tournament.starts_at < before + timedelta(minutes=61)
    # The organiser sees it on the list and on its page.
    assert "Friday friends" in shown(browser.get("/tournaments/").content.decode())
    assert browser.get(answer["Location"]).status_code == 200


def test_a_swiss_event_with_a_password_keeps_its_rounds_and_not_its_length(alice, bob):
    browser = client_for(alice)
    answer = browser.post(
        NEW, filled(format="swiss", rounds="4", access="password", password="open-sesame")
    )
    assert answer.status_code == 302
    tournament = Tournament.objects.get()
    assert (tournament.format, tournament.rounds, tournament.duration_minutes) == ("swiss", 4, None)
    # The password works for another player, and a wrong one does not.
    stranger = client_for(bob)
    stranger.post(f"/tournaments/{tournament.pk}/join/", {"password": "wrong"})
    assert not Entrant.objects.filter(player=bob).exists()
    stranger.post(f"/tournaments/{tournament.pk}/join/", {"password": "open-sesame"})
    assert Entrant.objects.filter(player=bob, tournament=tournament).exists()


@pytest.mark.parametrize(
    ("changes", "error"),
    [
        ({"access": "public"}, "Select a valid choice"),
        ({"prize_shares": "half, rest"}, "Write whole numbers"),
        ({"prize_shares": "20, 30"}, "none above the one before it"),
        ({"duration_minutes": "2"}, "An arena lasts 5 to 240 minutes."),
        ({"format": "swiss", "rounds": "99"}, "A Swiss event has 1 to 15 rounds."),
        ({"access": "password", "password": "abc"}, "at least 4 characters"),
        ({"max_players": "500"}, "A tournament takes 2 to 64 players."),
        ({"entry_fee": "5000"}, "The entry fee is 0 to 1000 coins."),
        ({"starts_in": "7"}, "Select a valid choice"),
        ({"name": ""}, "This field is required."),
        ({"points": "12345"}, "Select a valid choice"),
    ],
)
def test_bad_input_is_explained_and_makes_nothing(alice, changes, error):
    answer = client_for(alice).post(NEW, filled(**changes))
    assert answer.status_code == 400
    assert error in shown(answer.content.decode())
    assert not Tournament.objects.exists()


def test_a_player_has_at_most_two_events_to_come(alice):
    browser = client_for(alice)
    for name in ("One", "Two"):
        assert browser.post(NEW, filled(name=name)).status_code == 302
    answer = browser.post(NEW, filled(name="Three"))
    assert answer.status_code == 400
    assert "You have 2 tournaments to come already" in shown(answer.content.decode())
    assert Tournament.objects.count() == 2


def test_guests_and_strangers_are_sent_to_sign_up_or_log_in(guest_client):
    page = guest_client.get(NEW)
    assert page.status_code == 200
    assert "to organise one, sign up" in shown(page.content.decode())
    assert 'id="organise-form"' not in page.content.decode()
    guest_client.post(NEW, filled())
    anonymous = Client()
    answer = anonymous.get(NEW)
    assert answer.status_code == 302 and answer["Location"].startswith("/accounts/login/")
    anonymous.post(NEW, filled())
    assert not Tournament.objects.exists()
    assert Client().get("/tournaments/new/chess/").status_code == 404


def staff_member(name: str):
    player = make_player(name)
    user = player.user
    user.is_staff = True
    user.save()
    user.user_permissions.add(
        *Permission.objects.filter(codename__in=["add_tournament", "change_tournament"])
    )
    return player


def test_staff_make_a_public_site_event_beyond_a_players_limits(alice):
    staff = staff_member("director")
    browser = client_for(staff)
    assert "Make a site event" in shown(browser.get("/tournaments/").content.decode())
    assert 'value="public"' in browser.get(NEW).content.decode()
    answer = browser.post(
        NEW, filled(name="Daily arena", access="public", max_players="500", entry_fee="100")
    )
    assert answer.status_code == 302
    tournament = Tournament.objects.get()
    assert (tournament.creator_id, tournament.access, tournament.max_players) == (
        None,
        "public",
        500,
    )
    # Everyone sees it, a player without the permission is offered only a private event.
    assert "Daily arena" in shown(client_for(alice).get("/tournaments/").content.decode())
    assert "Organise a tournament for your friends" in shown(
        client_for(alice).get("/tournaments/").content.decode()
    )


def test_the_organiser_calls_off_before_the_start_and_every_fee_comes_back(alice, bob, carol):
    browser = client_for(alice)
    browser.post(NEW, filled(access="password", password="cup-cup", entry_fee="100"))
    tournament = Tournament.objects.get()
    for player in (bob, carol):
        tournament_join(player=player, tournament_id=tournament.pk, password="cup-cup")
    assert balance(bob) == balance(carol) == 900

    # Only the organiser is offered the button, and another player's post changes nothing.
    assert (
        'id="call-off"'
        not in client_for(bob).get(f"/tournaments/{tournament.pk}/").content.decode()
    )
    refused = client_for(bob).post(f"/tournaments/{tournament.pk}/cancel/", follow=True)
    assert "Only the organiser can call off this tournament." in shown(refused.content.decode())
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.SCHEDULED

    page = browser.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert 'id="call-off"' in page
    done = browser.post(f"/tournaments/{tournament.pk}/cancel/", follow=True)
    assert "every entry fee is back" in shown(done.content.decode())
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.CANCELLED
    assert balance(bob) == balance(carol) == 1000
    assert coin_audit().ok


def test_once_started_only_staff_may_call_it_off(alice, bob):
    client_for(alice).post(NEW, filled(access="password", password="cup-cup"))
    tournament = Tournament.objects.get()
    for player in (alice, bob):
        tournament_join(player=player, tournament_id=tournament.pk, password="cup-cup")
    Tournament.objects.filter(pk=tournament.pk).update(starts_at=timezone.now())
    tournament_start(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING

    refused = client_for(alice).post(f"/tournaments/{tournament.pk}/cancel/", follow=True)
    assert "A tournament that has started plays on to its end." in shown(refused.content.decode())
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING

    staff = client_for(staff_member("director"))
    assert 'id="call-off"' in staff.get(f"/tournaments/{tournament.pk}/").content.decode()
    staff.post(f"/tournaments/{tournament.pk}/cancel/")
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.CANCELLED


def test_a_friends_only_event_needs_an_organiser(alice):
    staff = staff_member("director")
    client_for(staff).post(NEW, filled(name="Staff friends", access="friends"))
    # Staff's own friends-only event is theirs: its friends are the organiser's.
    assert Tournament.objects.get().creator_id == staff.pk
    # Made without an organiser (as the admin's form would), it is refused in words.
    with pytest.raises(ServiceError, match="needs one"):
        tournament_create(
            name="Nobody's friends",
            game=GAME,
            starts_at=timezone.now() + timedelta(hours=1),
            duration_minutes=30,
            access=Tournament.Access.FRIENDS,
        )
    assert Tournament.objects.count() == 1


def test_every_refusal_is_said_at_its_field_and_what_was_typed_stays(alice):
    """Issue 41: the form said one refusal at a time, at the top, and emptied the password."""
    CoinAccount.objects.filter(player=alice).update(balance=50)
    answer = client_for(alice).post(
        NEW,
        filled(
            name="Saturday cup",
            access="password",
            password="cup-cup",
            entry_fee="100",
            max_players="500",
            prize_shares="20, 30",
        ),
    )
    assert answer.status_code == 400
    page = answer.content.decode()
    said = {
        "id_entry_fee": "The entry fee is more than your 50 coins",
        "id_max_players": "A tournament takes 2 to 64 players.",
        "id_prize_shares": "none above the one before it",
    }
    for field, words in said.items():
        at = page.index(f'id="{field}"')
        beside = page[at : page.index("</div>", at)]
        assert words in shown(beside), (field, shown(beside))
    assert 'role="alert">' not in page.split("<form", 1)[1].split('class="field', 1)[0]
    assert 'value="Saturday cup"' in page and 'value="cup-cup"' in page
    assert not Tournament.objects.exists()

    short = client_for(alice).post(NEW, filled(access="password", password="abc"))
    assert "at least 4 characters" in shown(short.content.decode())
    assert 'value="abc"' not in short.content.decode()  # a refused password is typed again
