"""Issue 41 § 2: a tournament's table said "5 minutes left" and kept saying it. The line now
counts down by the event's end, read against the server's clock."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.support.ladder import committed
from tests.support.players import make_player
from tournaments.models import Tournament
from tournaments.services.entries import tournament_join
from tournaments.services.running import tournament_start

from .people import PHONE, TOUCH_PHONE, Person
from .threads import on_a_thread

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _running_arena() -> Tournament:
    """Made and started by the services (on a thread: tests/e2e/threads.py)."""
    made: list[Tournament] = []

    def start() -> None:
        arena = Tournament.objects.create(
            name="Counting arena",
            game="japanese_joker",
            starts_at=timezone.now(),
            duration_minutes=30,
            options={"points": 11},
        )
        for name in ("mia", "noe"):
            tournament_join(player=make_player(name), tournament_id=arena.pk)
        committed(tournament_start, tournament_id=arena.pk)
        made.append(arena)

    on_a_thread(start)
    return made[0]


def test_the_minutes_left_count_down_on_a_tournament_table(browser, e2e_server):
    arena = _running_arena()
    Tournament.objects.filter(pk=arena.pk).update(ends_at=timezone.now() + timedelta(seconds=150))
    table = arena.tables.get().table

    watcher = Person(browser, e2e_server, "watcher", viewport=PHONE, device=TOUCH_PHONE)
    page = watcher.page
    try:
        page.clock.install()
        page.goto(f"/tables/{table.pk}/")
        left = page.locator(".tournament-note .minutes-left")
        assert left.inner_text() == "3 minutes left"
        page.clock.fast_forward("00:40")
        page.wait_for_function(
            "() => document.querySelector('.minutes-left').textContent === '2 minutes left'"
        )
        page.clock.fast_forward("01:00")
        page.wait_for_function(
            "() => document.querySelector('.minutes-left').textContent === '1 minute left'"
        )
        assert not watcher.errors, watcher.errors
    finally:
        watcher.context.close()
