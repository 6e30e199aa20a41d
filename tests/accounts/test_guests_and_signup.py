"""Sign up, log in, guests and the guest who signs up (issue 2, items 6–7)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client

from accounts import services
from accounts.models import Player
from accounts.services import players
from tests.support.players import client_for, make_player

pytestmark = pytest.mark.django_db

SIGNUP = {
    "username": "nino",
    "email": "nino@example.com",
    "password1": "tbilisi-joker-77",
    "password2": "tbilisi-joker-77",
}


def test_signup_creates_a_user_and_a_registered_player_and_logs_in():
    client = Client()
    response = client.post("/accounts/signup/", SIGNUP)
    assert response.status_code == 302
    player = Player.objects.get(name="nino")
    assert player.user.email == "nino@example.com"
    assert not player.is_guest
    page = client.get("/")
    assert page.context["player"] == player
    assert b"nino" in page.content


def test_signup_refuses_a_duplicate_username_and_a_guest_style_name(alice):
    client = Client()
    response = client.post("/accounts/signup/", {**SIGNUP, "username": "ALICE"})
    assert response.status_code == 200
    assert "username" in response.context["form"].errors
    response = client.post("/accounts/signup/", {**SIGNUP, "username": "guest-1234"})
    assert "kept for guests" in str(response.context["form"].errors["username"])
    assert get_user_model().objects.count() == 1


def test_login_by_username_and_by_email_and_logout(alice):
    client = Client()
    response = client.post("/accounts/login/", {"login": "alice", "password": "correct-horse-9"})
    assert response.status_code == 302
    assert client.get("/").context["player"] == alice
    client.post("/accounts/logout/")
    assert client.get("/").context["player"] is None
    response = client.post(
        "/accounts/login/", {"login": "alice@example.com", "password": "correct-horse-9"}
    )
    assert response.status_code == 302


def test_wrong_password_is_refused_with_a_message(alice):
    response = Client().post("/accounts/login/", {"login": "alice", "password": "nope"})
    assert response.status_code == 200
    assert response.context["form"].errors


def test_failed_logins_are_rate_limited(alice):
    client = Client()
    tries = [
        client.post("/accounts/login/", {"login": "alice", "password": f"wrong{i}"})
        for i in range(6)
    ]
    limited = "Too many failed login attempts. Try again later."
    # The key limit (5 per 5 minutes) holds back the sixth try.
    assert [limited in r.content.decode() for r in tries] == [False] * 5 + [True]
    # Even the right password is held back while the limit lasts.
    blocked = client.post("/accounts/login/", {"login": "alice", "password": "correct-horse-9"})
    assert limited in blocked.content.decode()
    assert client.get("/").context["player"] is None


def test_password_reset_sends_a_mail_with_a_working_link(alice):
    client = Client()
    response = client.post("/accounts/password/reset/", {"email": "alice@example.com"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    link = re.search(r"http://testserver(/accounts/password/reset/key/\S+)", mail.outbox[0].body)
    assert link
    form_page = client.get(link.group(1), follow=True)
    assert form_page.status_code == 200
    response = client.post(
        form_page.redirect_chain[-1][0] if form_page.redirect_chain else link.group(1),
        {"password1": "brand-new-pass-42", "password2": "brand-new-pass-42"},
    )
    assert response.status_code == 302
    alice.user.refresh_from_db()
    assert alice.user.check_password("brand-new-pass-42")


def test_play_as_guest_makes_a_readable_guest_bound_to_the_session(guest_client, guest):
    assert re.fullmatch(r"Guest-\d{4,}", guest.name)
    assert guest.is_guest
    assert guest_client.get("/").context["player"] == guest
    # Another browser is somebody else.
    assert Client().get("/").context["player"] is None


def test_play_as_guest_twice_keeps_the_same_guest(guest_client, guest):
    guest_client.post("/guest/")
    assert Player.objects.count() == 1


def test_guest_names_are_unique_even_when_the_first_choice_is_taken(monkeypatch, db):
    names = iter(["Guest-0001", "Guest-0001", "Guest-0002"])
    monkeypatch.setattr(players, "_guest_name", lambda digits: next(names))
    first = services.player_create_guest(session={})
    second = services.player_create_guest(session={})
    assert (first.name, second.name) == ("Guest-0001", "Guest-0002")


def test_a_guest_who_signs_up_keeps_their_player(guest_client, guest):
    response = guest_client.post("/accounts/signup/", SIGNUP)
    assert response.status_code == 302
    guest.refresh_from_db()
    assert guest.user is not None and guest.user.username == "nino"
    assert guest.name == "nino"
    assert Player.objects.count() == 1
    assert guest_client.get("/").context["player"] == guest


def test_a_guest_who_logs_into_an_existing_account_becomes_that_player(guest_client, guest):
    alice = make_player("alice")
    guest_client.post("/accounts/login/", {"login": "alice", "password": "correct-horse-9"})
    assert guest_client.get("/").context["player"] == alice
    guest.refresh_from_db()
    assert guest.is_guest  # the guest row is left alone, not merged into alice


def test_a_user_made_outside_signup_gets_a_player_on_first_visit(db):
    user = get_user_model().objects.create_superuser("root", "root@example.com", "pw-root-123")
    client = Client()
    client.force_login(user)
    assert client.get("/").context["player"].name == "root"


def test_a_deactivated_user_has_no_player_on_the_site(alice):
    client = client_for(alice)
    alice.user.is_active = False
    alice.user.save()
    assert client.get("/").context["player"] is None


def test_profile_page_shows_the_player_and_unknown_names_are_404(alice, guest):
    client = Client()
    response = client.get("/players/alice/")
    assert response.status_code == 200
    assert b"alice" in response.content
    assert client.get(f"/players/{guest.name}/").status_code == 200
    assert client.get("/players/nobody-here/").status_code == 404


def test_next_after_guest_start_must_stay_on_this_site(db):
    response = Client().post("/guest/", {"next": "https://evil.example/"})
    assert response["Location"] == "/"
    response = Client().post("/guest/", {"next": "/ladder/"})
    assert response["Location"] == "/ladder/"


def test_guest_start_is_post_only(db):
    assert Client().get("/guest/").status_code == 405
    assert Player.objects.count() == 0
