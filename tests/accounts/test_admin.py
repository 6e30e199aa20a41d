"""The admin pages an operator uses load, filter and search (issue 2, item 9)."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from accounts import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(alice, bob, guest) -> Client:
    services.friend_request_send(sender=alice, username="bob")
    admin = get_user_model().objects.create_superuser("boss", "boss@example.com", "pw-boss-123")
    client = Client()
    client.force_login(admin)
    return client


@pytest.mark.parametrize(
    "url",
    [
        "/admin/",
        "/admin/accounts/player/",
        "/admin/accounts/player/?kind=guest",
        "/admin/accounts/player/?kind=registered&q=ali",
        "/admin/accounts/friendrequest/",
        "/admin/accounts/friendrequest/?status__exact=pending&q=bob",
        "/admin/accounts/friendship/",
        "/admin/auth/user/",
    ],
)
def test_admin_lists_load(admin_client, url):
    assert admin_client.get(url).status_code == 200


def test_admin_player_filters_and_search_find_the_right_rows(admin_client, alice, guest):
    guests = admin_client.get("/admin/accounts/player/?kind=guest").context["cl"].result_list
    assert list(guests) == [guest]
    found = admin_client.get("/admin/accounts/player/?q=alice").context["cl"].result_list
    assert list(found) == [alice]


def test_admin_change_pages_load(admin_client, alice):
    assert admin_client.get(f"/admin/accounts/player/{alice.pk}/change/").status_code == 200


def test_non_staff_cannot_reach_the_admin(alice):
    from tests.support.players import client_for

    assert client_for(alice).get("/admin/accounts/player/").status_code == 302
