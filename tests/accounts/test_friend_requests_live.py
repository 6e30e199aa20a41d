"""A friend request reaches the receiver's open pages at once: a toast and the navigation's
count (issue 12, § 2), through the real lobby consumer and channel layer."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from accounts import services
from accounts.models import FriendRequest
from config.asgi import application
from core.errors import ServiceError
from tests.support.players import make_player

ORIGIN = [(b"origin", b"http://localhost"), (b"host", b"localhost")]

pytestmark = pytest.mark.django_db(transaction=True)


def _client(player) -> Client:
    client = Client()
    client.force_login(player.user)
    return client


async def _lobby_socket(client: Client) -> WebsocketCommunicator:
    cookie = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
    socket = WebsocketCommunicator(
        application, "/ws/lobby/", headers=[*ORIGIN, (b"cookie", cookie.encode())]
    )
    connected, _ = await socket.connect()
    assert connected
    assert (await socket.receive_json_from(timeout=5))["type"] == "lobby"
    return socket


async def _next_of(socket: WebsocketCommunicator, kind: str) -> dict:
    for _ in range(10):
        message = await socket.receive_json_from(timeout=5)
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind} message")


async def test_a_request_arrives_with_the_count_and_a_cancel_or_an_answer_lowers_it():
    alice, bob, carol = [
        await sync_to_async(make_player)(name) for name in ("alice", "bob", "carol")
    ]
    bob_socket = await _lobby_socket(await sync_to_async(_client)(bob))

    alice_client = await sync_to_async(_client)(alice)
    response = await sync_to_async(alice_client.post)("/friends/", {"username": "bob"})
    assert response.status_code == 302
    assert await _next_of(bob_socket, "friend_requests") == {
        "type": "friend_requests",
        "pending": 1,
        "sender": "alice",
    }

    await sync_to_async(services.friend_request_send)(sender=carol, username="bob")
    assert (await _next_of(bob_socket, "friend_requests"))["pending"] == 2

    # alice thinks better of it: bob's count drops, with no toast (no sender).
    pending = await sync_to_async(
        lambda: FriendRequest.objects.get(from_player=alice, to_player=bob)
    )()
    await sync_to_async(services.friend_request_cancel)(player=alice, request_id=pending.pk)
    assert await _next_of(bob_socket, "friend_requests") == {
        "type": "friend_requests",
        "pending": 1,
        "sender": None,
    }
    # bob answers carol's on the friends page: his other open pages count none left.
    from_carol = await sync_to_async(lambda: FriendRequest.objects.get(from_player=carol).pk)()
    bob_client = await sync_to_async(_client)(bob)
    await sync_to_async(bob_client.post)(f"/friends/requests/{from_carol}/accept/")
    assert (await _next_of(bob_socket, "friend_requests"))["pending"] == 0
    await bob_socket.disconnect()


async def test_only_the_receiver_hears_of_a_request_and_a_refused_one_sends_nothing():
    alice, bob, carol = [
        await sync_to_async(make_player)(name) for name in ("alice", "bob", "carol")
    ]
    bob_socket = await _lobby_socket(await sync_to_async(_client)(bob))
    carol_socket = await _lobby_socket(await sync_to_async(_client)(carol))
    await sync_to_async(services.friend_request_send)(sender=alice, username="bob")
    assert (await _next_of(bob_socket, "friend_requests"))["pending"] == 1
    # A duplicate is refused inside the transaction: nothing is published for it.
    with pytest.raises(ServiceError, match="already sent bob"):
        await sync_to_async(services.friend_request_send)(sender=alice, username="bob")
    assert await bob_socket.receive_nothing(timeout=0.5)
    assert await carol_socket.receive_nothing(timeout=0.1)
    await bob_socket.disconnect()
    await carol_socket.disconnect()


def test_the_navigation_counts_the_requests_waiting(alice, bob, carol):
    services.friend_request_send(sender=alice, username="bob")
    services.friend_request_send(sender=carol, username="bob")
    page = _client(bob).get("/ladder/").content.decode()
    assert 'id="nav-friend-requests">' in page  # shown: no "hidden"
    assert '<span class="nav-count-number">2</span>' in page
    quiet = _client(alice).get("/ladder/").content.decode()
    assert 'id="nav-friend-requests" hidden>' in quiet
