"""Item 12 (and issue 12's name rule): every stored name keeps every page working; new names
are 3–24 letters of any script, digits, ``_`` or ``-``, wherever a name is made.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from accounts.models import Player
from accounts.services import player_for_user
from tests.support.players import client_for

pytestmark = pytest.mark.django_db

SIGNUP = {
    "email": "new@example.com",
    "password1": "tbilisi-joker-77",
    "password2": "tbilisi-joker-77",
}


def _legacy_player(name: str) -> Player:
    """A player whose name was stored before today's rule (by an old admin form, say)."""
    user = get_user_model().objects.create_user(username=name, password="correct-horse-9")
    return player_for_user(user=user)


@pytest.mark.parametrize("name", ["sla/sh", "a" * 40, "dot.ted@name", "with space", "q?#%"])
def test_a_stored_name_of_any_shape_keeps_every_page_working(name):
    """Pass: logged in as a player with that stored name, the home, friends, wallet and
    ladder pages answer 200, and the player's profile opens at the URL the pages link to."""
    player = _legacy_player(name)
    client = client_for(player)
    for url in ("/", "/friends/", "/wallet/", "/ladder/"):
        assert client.get(url).status_code == 200, url
    from django.urls import reverse

    profile = client.get(reverse("profile", args=[name]))
    assert profile.status_code == 200
    assert profile.context["shown"] == player


@pytest.mark.parametrize(
    "username",
    ["ab", "a" * 25, "sla/sh", "dot.ted", "with space", "at@sign", "plus+sign", "emoji🙂"],
)
def test_sign_up_refuses_a_name_outside_the_rule(username):
    """Pass: the form comes back with an error on the username and nobody is created."""
    response = Client().post("/accounts/signup/", {**SIGNUP, "username": username})
    assert response.status_code == 200
    assert response.context["form"].errors.get("username")
    assert not get_user_model().objects.filter(username=username).exists()


@pytest.mark.parametrize("username", ["nino_99", "ნინო", "Иван-1", "abc", "a" * 24])
def test_sign_up_accepts_letters_of_any_script_digits_underscore_and_hyphen(username):
    """Pass: the sign-up goes through and the player carries the name."""
    response = Client().post("/accounts/signup/", {**SIGNUP, "username": username})
    assert response.status_code == 302, response.context["form"].errors
    assert Player.objects.filter(name=username).exists()


def _admin_client() -> Client:
    admin = get_user_model().objects.create_superuser("root", "root@example.com", "pw-root-123")
    client = Client()
    client.force_login(admin)
    return client


@pytest.mark.parametrize("name", ["sla/sh", "x", "a" * 25])
def test_the_admin_cannot_give_a_player_a_name_outside_the_rule(name):
    """Pass: the player change form shows an error on the name and the name is unchanged."""
    player = _legacy_player("nino")
    response = _admin_client().post(
        f"/admin/accounts/player/{player.pk}/change/", {"name": name, "user": player.user_id}
    )
    assert response.status_code == 200
    assert response.context["adminform"].form.errors.get("name")
    player.refresh_from_db()
    assert player.name == "nino"


def test_the_admin_keeps_an_existing_long_name_when_it_saves_the_player():
    """Pass: saving a legacy player without touching the name works."""
    player = _legacy_player("a" * 40)
    response = _admin_client().post(
        f"/admin/accounts/player/{player.pk}/change/", {"name": "a" * 40, "user": player.user_id}
    )
    assert response.status_code == 302


@pytest.mark.parametrize("username", ["bad/name", "dot.ted", "a" * 25, "xy"])
def test_the_user_admin_cannot_make_a_username_outside_the_rule(username):
    """Pass: adding a user with such a name is refused with an error on the username."""
    response = _admin_client().post(
        "/admin/auth/user/add/",
        {
            "username": username,
            "password1": "pw-long-enough-7",
            "password2": "pw-long-enough-7",
            "usable_password": "true",
        },
    )
    assert response.status_code == 200
    assert response.context["adminform"].form.errors.get("username")
    assert not get_user_model().objects.filter(username=username).exists()


def test_a_guests_generated_name_follows_the_rule(guest):
    """Pass: the name a guest is given is valid under the same rule as everyone's."""
    from accounts.validators import validate_player_name

    validate_player_name(guest.name)
