"""The event's page while players enter (issue 40 § 3): on PostgreSQL, four threads enter
players through the real entry service while the page is fetched again and again, as in the
24-player runs where 4 of 24 page views answered 500 (a player who entered between two reads of
the entrants was in the standings but not in the page's own list). Every answer is the page."""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from django.test import Client

from tests.support.players import make_player
from tournaments.models import Entrant, Tournament
from tournaments.services.entries import tournament_join

from .test_pages import event

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

PLAYERS = 80
AT_A_TIME = 4


@pytest.mark.parametrize("format_", [Tournament.Format.ARENA, Tournament.Format.SWISS])
def test_the_event_page_answers_while_players_enter_four_at_a_time(format_):
    fields = {"format": format_, "rounds": 3, "duration_minutes": None}
    tournament = event(**(fields if format_ == Tournament.Format.SWISS else {}))
    players = [make_player(f"enters{n:03d}") for n in range(PLAYERS)]
    failures: list[BaseException] = []

    def enter(chunk) -> None:
        try:
            for player in chunk:
                tournament_join(player=player, tournament_id=tournament.pk)
        except BaseException as error:
            failures.append(error)
        finally:
            connection.close()

    entering = [
        threading.Thread(target=enter, args=(players[n::AT_A_TIME],)) for n in range(AT_A_TIME)
    ]
    page = Client(raise_request_exception=False)
    answers: list[int] = []
    for thread in entering:
        thread.start()
    try:
        while any(thread.is_alive() for thread in entering):
            answers.append(page.get(f"/tournaments/{tournament.pk}/").status_code)
    finally:
        for thread in entering:
            thread.join(60)
    assert not failures, failures
    assert Entrant.objects.filter(tournament=tournament).count() == PLAYERS
    assert len(answers) >= 10, "the page was read while the players entered"
    assert [status for status in answers if status != 200] == [], answers
    final = page.get(f"/tournaments/{tournament.pk}/")
    assert final.status_code == 200
    assert all(player.name in final.content.decode() for player in players)
