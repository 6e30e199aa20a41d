"""The lobby under real concurrency and over the real channel layer (issue 5, acceptance)."""

from __future__ import annotations

import threading

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.db import connection
from django.test import Client

from config.asgi import application
from core.errors import ServiceError
from games.models import Match, Seat, Table
from games.services import invitations, tables
from tests.support.players import make_player

ORIGIN = [(b"origin", b"http://localhost"), (b"host", b"localhost")]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_ten_players_race_for_the_last_seat_one_wins_and_the_match_starts_once():
    creator = make_player("alice")
    racers = [make_player(f"racer{i}") for i in range(10)]
    table = tables.table_create(
        creator=creator, game="japanese_joker", options={}, stake=25, visibility="public"
    )
    barrier = threading.Barrier(len(racers))
    outcomes: list[str] = []

    def race(player) -> None:
        try:
            barrier.wait()
            tables.table_join(player=player, table_id=table.pk)
            outcomes.append("seated")
        except ServiceError as error:
            outcomes.append(error.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=race, args=(p,)) for p in racers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert outcomes.count("seated") == 1
    assert set(outcomes) == {"seated", "started"}
    assert Seat.objects.filter(table=table).count() == 2
    assert Match.objects.filter(table=table).count() == 1
    table.refresh_from_db()
    assert table.status == "playing"


async def _receive_until(communicator, wanted: str, table_id: int):
    for _ in range(20):
        message = await communicator.receive_json_from(timeout=5)
        about = (
            message.get("table", {}).get("id") if message["type"] == "table" else message.get("id")
        )
        if message["type"] == wanted and about == table_id:
            return message
    raise AssertionError(f"no {wanted} for table {table_id}")


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
async def test_a_second_client_sees_a_table_appear_fill_and_disappear():
    players = [
        await sync_to_async(make_player)(name) for name in ("alice", "bob", "carol", "dave", "eve")
    ]
    eve = players[-1]
    client = Client()
    await sync_to_async(client.force_login)(eve.user)
    cookie = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
    watcher = WebsocketCommunicator(
        application, "/ws/lobby/", headers=[*ORIGIN, (b"cookie", cookie.encode())]
    )
    connected, _ = await watcher.connect()
    assert connected
    first = await watcher.receive_json_from(timeout=5)
    assert first["type"] == "lobby" and first["tables"] == []

    table = await sync_to_async(tables.table_create)(
        creator=players[0], game="classic_joker", options={}, stake=0, visibility="public"
    )
    appeared = await _receive_until(watcher, "table", table.pk)
    assert appeared["table"]["seats_taken"] == 1 and appeared["table"]["players"] == ["alice"]

    await sync_to_async(tables.table_join)(player=players[1], table_id=table.pk)
    filling = await _receive_until(watcher, "table", table.pk)
    assert filling["table"]["seats_taken"] == 2

    await sync_to_async(tables.table_join)(player=players[2], table_id=table.pk)
    await _receive_until(watcher, "table", table.pk)
    await sync_to_async(tables.table_join)(player=players[3], table_id=table.pk)
    gone = await _receive_until(watcher, "table_removed", table.pk)
    assert gone["status"] == "playing"

    # A reconnecting client gets the same picture from its snapshot.
    again = WebsocketCommunicator(application, "/ws/lobby/", headers=ORIGIN)
    await again.connect()
    assert (await again.receive_json_from(timeout=5))["tables"] == []
    await again.disconnect()
    await watcher.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_seated_players_are_told_their_match_started_and_invitations_arrive():
    from accounts import services as account_services

    alice = await sync_to_async(make_player)("alice")
    bob = await sync_to_async(make_player)("bob")

    def befriend():
        request = account_services.friend_request_send(sender=alice, username="bob")
        account_services.friend_request_accept(player=bob, request_id=request.pk)

    await sync_to_async(befriend)()
    client = Client()
    await sync_to_async(client.force_login)(alice.user)
    cookie = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
    socket = WebsocketCommunicator(
        application, "/ws/lobby/", headers=[*ORIGIN, (b"cookie", cookie.encode())]
    )
    await socket.connect()
    await socket.receive_json_from(timeout=5)  # the snapshot

    bob_client = Client()
    await sync_to_async(bob_client.force_login)(bob.user)
    bob_cookie = (
        f"{settings.SESSION_COOKIE_NAME}={bob_client.cookies[settings.SESSION_COOKIE_NAME].value}"
    )
    bob_cookie += "; django_language=ru"  # bob reads the site in Russian, alice in English
    bob_socket = WebsocketCommunicator(
        application, "/ws/lobby/", headers=[*ORIGIN, (b"cookie", bob_cookie.encode())]
    )
    await bob_socket.connect()
    snapshot = await bob_socket.receive_json_from(timeout=5)
    assert [f["name"] for f in snapshot["friends_online"]] == ["alice"]

    table = await sync_to_async(tables.table_create)(
        creator=alice, game="japanese_joker", options={}, stake=0, visibility="friends"
    )
    await sync_to_async(invitations.table_invite)(
        inviter=alice, table_id=table.pk, friend_id=bob.pk
    )
    invitation = None
    for _ in range(5):
        message = await bob_socket.receive_json_from(timeout=5)
        if message["type"] == "invitation":
            invitation = message
            break
    assert invitation == {
        "type": "invitation",
        "table": table.pk,
        "game": "japanese_joker",
        "game_title": "Японский джокер",
        "stake": 0,
        "from": "alice",
        "url": f"/tables/{table.pk}/",
    }

    await sync_to_async(tables.table_join)(player=bob, table_id=table.pk)
    started = None
    for _ in range(6):
        message = await socket.receive_json_from(timeout=5)
        if message["type"] == "match_started":
            started = message
            break
    assert started == {"type": "match_started", "table": table.pk, "url": f"/tables/{table.pk}/"}
    assert await sync_to_async(lambda: Table.objects.get(pk=table.pk).status)() == "playing"

    await socket.send_json_to({"type": "dance"})
    reply = await socket.receive_json_from(timeout=5)
    while reply["type"] != "error":  # the lobby's own news about the table may come first
        reply = await socket.receive_json_from(timeout=5)
    assert reply == {
        "type": "error",
        "code": "bad_message",
        "message": (
            'The lobby understands {"type": "ping"}, {"type": "sync"} and'
            ' {"type": "more", "before": 12}.'
        ),
        "id": None,
    }
    await bob_socket.send_json_to({"type": "dance"})
    reply = await bob_socket.receive_json_from(timeout=5)
    while reply["type"] != "error":
        reply = await bob_socket.receive_json_from(timeout=5)
    assert reply["code"] == "bad_message" and reply["message"].startswith("Лобби понимает")
    await bob_socket.send_json_to(["not", "an", "object"])
    reply = await bob_socket.receive_json_from(timeout=5)
    while reply["type"] != "error":
        reply = await bob_socket.receive_json_from(timeout=5)
    assert reply == {
        "type": "error",
        "code": "bad_json",
        "message": "Сообщение — это JSON-объект с полем 'type'.",
        "id": None,
    }
    await socket.disconnect()
    await bob_socket.disconnect()
