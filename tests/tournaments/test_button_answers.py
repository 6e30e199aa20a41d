"""Issue 40 § 5 (5): a program that presses an event's buttons (join, leave, pause, resume, call
off) can tell whether it worked without reading the page: asked for JSON, each answers
``{"ok": true}`` or ``{"error": {"code", "message"}}`` with a status that fits. A browser still
gets the event's page and a message after a redirect, whatever happened (docs/tournaments.md
§ Pages)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games.services.passwords import PASSWORD_ATTEMPTS
from tests.support.players import client_for
from tournaments.models import Entrant, Tournament
from tournaments.services.creation import tournament_create
from tournaments.services.entries import tournament_join

pytestmark = pytest.mark.django_db

JSON = {"HTTP_ACCEPT": "application/json"}
BROWSER = {"HTTP_ACCEPT": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}


def event(**fields) -> Tournament:
    given = {
        "name": "Button arena",
        "game": "japanese_joker",
        "starts_at": timezone.now() + timedelta(hours=1),
        "duration_minutes": 30,
        **fields,
    }
    return tournament_create(**given)


def press(client: Client, tournament_id: int, button: str, **data: str):
    return client.post(f"/tournaments/{tournament_id}/{button}/", data, **JSON)


def refusal(answer) -> tuple[int, str]:
    assert answer["Content-Type"] == "application/json", answer.content[:200]
    error = answer.json()["error"]
    assert error["message"]
    return answer.status_code, error["code"]


def test_a_client_that_asks_for_json_is_told_each_button_worked(alice, bob):
    tournament = event()
    client = client_for(alice)
    for button in ("join", "join", "pause", "resume", "leave"):  # a second join changes nothing
        answer = press(client, tournament.pk, button)
        assert (answer.status_code, answer.json()) == (200, {"ok": True}), button
    assert not Entrant.objects.filter(player=alice).exists()  # left before the start
    assert press(client, tournament.pk, "join").json() == {"ok": True}
    assert Entrant.objects.filter(player=alice, tournament=tournament).exists()


def test_each_refusal_has_its_code_and_status(alice, bob, carol, guest_client):
    full = event(max_players=2)
    for player in (alice, bob):
        tournament_join(player=player, tournament_id=full.pk)
    assert refusal(press(client_for(carol), full.pk, "join")) == (409, "full")
    assert refusal(press(client_for(carol), full.pk, "leave")) == (409, "not_entered")
    assert refusal(press(guest_client, event().pk, "join")) == (403, "guest_tournament")
    assert refusal(press(Client(), event(rated=False).pk, "join")) == (403, "no_player")
    swiss = event(format=Tournament.Format.SWISS, rounds=3, duration_minutes=None)
    tournament_join(player=carol, tournament_id=swiss.pk)
    assert refusal(press(client_for(carol), swiss.pk, "pause")) == (409, "not_arena")
    assert not Entrant.objects.filter(player=carol, tournament=full).exists()


def test_a_hidden_or_missing_event_is_a_json_404(alice, eve):
    private = event(creator=alice, access=Tournament.Access.FRIENDS)
    assert refusal(press(client_for(eve), private.pk, "join")) == (404, "no_tournament")
    assert refusal(press(client_for(eve), 999999, "leave")) == (404, "no_tournament")
    assert not Entrant.objects.exists()


def test_wrong_passwords_are_403_then_429(alice, bob):
    locked = event(creator=alice, access=Tournament.Access.PASSWORD, password="secret")
    client = client_for(bob)
    for _ in range(PASSWORD_ATTEMPTS):
        assert refusal(press(client, locked.pk, "join", password="guess")) == (
            403,
            "wrong_password",
        )
    assert refusal(press(client, locked.pk, "join", password="secret")) == (429, "password_pause")
    assert refusal(press(client, locked.pk, "join", password="x" * 200)) == (403, "wrong_password")
    assert not Entrant.objects.filter(player=bob).exists()


def test_calling_off_answers_json_too(alice, bob):
    tournament = event(creator=alice, access=Tournament.Access.FRIENDS)
    tournament_join(player=alice, tournament_id=tournament.pk)
    assert refusal(press(client_for(bob), tournament.pk, "cancel")) == (404, "no_tournament")
    assert press(client_for(alice), tournament.pk, "cancel").json() == {"ok": True}
    assert refusal(press(client_for(alice), tournament.pk, "cancel"))[0] == 409  # not again
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.CANCELLED


def test_a_client_with_the_csrf_token_in_a_header_joins(alice):
    """As a program does it: the event's page for the csrftoken cookie, then the POST with the
    token in ``X-CSRFToken``; without it the POST is refused (403) whatever it asks for."""
    tournament = event()
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice.user)
    client.get(f"/tournaments/{tournament.pk}/")
    token = client.cookies["csrftoken"].value
    refused = client.post(f"/tournaments/{tournament.pk}/join/", **JSON)
    assert refused.status_code == 403 and not Entrant.objects.exists()
    answer = client.post(f"/tournaments/{tournament.pk}/join/", HTTP_X_CSRFTOKEN=token, **JSON)
    assert (answer.status_code, answer.json()) == (200, {"ok": True})
    assert Entrant.objects.filter(player=alice, tournament=tournament).exists()


def test_a_browser_still_gets_the_page_and_its_message(alice, bob, carol):
    full = event(max_players=2)
    done = client_for(alice).post(f"/tournaments/{full.pk}/join/", **BROWSER)
    assert done.status_code == 302 and done["Location"] == f"/tournaments/{full.pk}/"
    tournament_join(player=bob, tournament_id=full.pk)
    refused = client_for(carol).post(f"/tournaments/{full.pk}/join/", **BROWSER)
    assert refused.status_code == 302 and refused["Location"] == f"/tournaments/{full.pk}/"
    page = client_for(carol).post(f"/tournaments/{full.pk}/join/", follow=True, **BROWSER)
    assert "This tournament is full." in page.content.decode()
    # A client that names nothing (*/*) is a browser too: the page, not JSON.
    anything = client_for(carol).post(f"/tournaments/{full.pk}/join/", HTTP_ACCEPT="*/*")
    assert anything.status_code == 302
