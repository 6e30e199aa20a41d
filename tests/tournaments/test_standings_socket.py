"""The tournament socket (issue 29 § 3): a watcher gets the standings on connect and a new
frame when a table is counted (not one per move); a friends-only event's standings stay with
those who may see it; the socket takes nothing but ping."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async as sync_to_async
from channels.testing import WebsocketCommunicator
from django.core.cache import cache
from django.utils import timezone

from config.asgi import application
from games.models import Seat
from tests.support.ladder import committed, forfeit
from tests.support.live import cookie_headers
from tournaments.models import Tournament
from tournaments.realtime import standings_frame
from tournaments.services.entries import tournament_join
from tournaments.services.running import tournament_start

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fast_clients")]


def _arena(**fields) -> Tournament:
    given = {
        "name": "Socket arena",
        "game": "japanese_joker",
        "starts_at": timezone.now(),
        "duration_minutes": 30,
        "options": {"points": 11},
    }
    return Tournament.objects.create(**{**given, **fields})


async def _open(tournament_id: int, player) -> WebsocketCommunicator:
    headers = await sync_to_async(cookie_headers)(player)
    communicator = WebsocketCommunicator(
        application, f"/ws/tournament/{tournament_id}/", headers=headers
    )
    connected, _ = await communicator.connect(timeout=10)
    assert connected
    return communicator


async def _next(communicator: WebsocketCommunicator) -> dict[str, Any]:
    return await communicator.receive_json_from(timeout=10)


def _now(tournament: Tournament) -> dict[str, Any]:
    return standings_frame(Tournament.objects.get(pk=tournament.pk))


def _play_first_table(tournament: Tournament) -> None:
    link = tournament.tables.select_related("table").first()
    seats = list(Seat.objects.filter(table=link.table).select_related("player"))
    forfeit(link.table, seats[1].player)


async def test_a_watcher_hears_the_standings_when_a_table_is_counted(alice, bob, carol):
    tournament = await sync_to_async(_arena)()
    for player in (alice, bob):
        await sync_to_async(tournament_join)(player=player, tournament_id=tournament.pk)
    player = await _open(tournament.pk, alice)
    assert (await _next(player))["status"] == "scheduled"
    await sync_to_async(committed)(tournament_start, tournament_id=tournament.pk)
    started = await _next(player)
    while started["type"] == "standings":  # the start's standings may come first
        started = await _next(player)
    assert started["type"] == "match_started"
    link = await sync_to_async(tournament.tables.get)()
    assert started["url"] == f"/tables/{link.table_id}/"
    await player.disconnect()
    watcher = await _open(tournament.pk, carol)
    first = await _next(watcher)
    assert first["type"] == "standings" and first["status"] == "running"
    assert sorted(row["score"] for row in first["rows"]) == [0, 0]
    await sync_to_async(cache.clear)()  # no pause left from the start's frame
    await sync_to_async(_play_first_table)(tournament)
    frame = await _next(watcher)
    assert frame["type"] == "standings" and frame["version"] != first["version"]
    assert [row["score"] for row in frame["rows"]] == [2, 0]
    assert frame["rows"][0]["results"] == [[2, False]]
    # The two, alone in the event, are paired again at once: the page hears of the new table
    # too, in that frame (the pause after the count held both) or the next, a pause later.
    assert await sync_to_async(tournament.tables.count)() == 2
    latest = (await sync_to_async(_now)(tournament))["version"]
    while frame["version"] != latest:
        frame = await _next(watcher)
    await watcher.send_json_to({"type": "act"})
    assert (await _next(watcher))["type"] == "error"
    await watcher.send_json_to({"type": "ping"})
    assert (await _next(watcher))["type"] == "pong"
    await watcher.disconnect()


async def test_a_friends_only_event_is_not_shown_to_a_stranger(alice, bob):
    tournament = await sync_to_async(_arena)(
        access=Tournament.Access.FRIENDS,
        creator=alice,
        starts_at=timezone.now() + timedelta(hours=1),
    )
    stranger = await _open(tournament.pk, bob)
    assert (await stranger.receive_output(timeout=10))["code"] == 4004
    organiser = await _open(tournament.pk, alice)
    assert (await _next(organiser))["status"] == "scheduled"
    await organiser.disconnect()
