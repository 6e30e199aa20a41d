"""The ASGI stack end to end: origin, session, auth and the channel layer (issue 2, item 5)."""

from __future__ import annotations

import pytest
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from config.asgi import application

pytestmark = [pytest.mark.django_db(transaction=True)]

ORIGIN = [(b"origin", b"http://localhost"), (b"host", b"localhost")]


def _cookie_headers(client: Client) -> list[tuple[bytes, bytes]]:
    cookie = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
    return [*ORIGIN, (b"cookie", cookie.encode())]


async def _ping(headers, payload="hello"):
    communicator = WebsocketCommunicator(application, "/ws/ping/", headers=headers)
    connected, _ = await communicator.connect()
    assert connected
    await communicator.send_json_to({"type": "ping", "payload": payload})
    reply = await communicator.receive_json_from(timeout=5)
    await communicator.disconnect()
    return reply


async def test_ping_round_trip_for_a_visitor():
    assert await _ping(ORIGIN) == {"type": "pong", "payload": "hello", "player": None}


async def test_ping_knows_the_guest_from_the_session_cookie():
    from asgiref.sync import sync_to_async

    client = Client()
    await sync_to_async(client.post)("/guest/")
    reply = await _ping(_cookie_headers(client))
    assert reply["player"].startswith("Guest-")


async def test_ping_knows_a_logged_in_user():
    from asgiref.sync import sync_to_async

    from tests.support.players import make_player

    alice = await sync_to_async(make_player)("alice")
    client = Client()
    await sync_to_async(client.force_login)(alice.user)
    reply = await _ping(_cookie_headers(client))
    assert reply["player"] == "alice"


async def test_a_foreign_origin_is_refused():
    communicator = WebsocketCommunicator(
        application,
        "/ws/ping/",
        headers=[(b"origin", b"https://evil.example"), (b"host", b"localhost")],
    )
    connected, _ = await communicator.connect()
    assert not connected


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ("not json", "bad_json"),
        ('{"type": "dance"}', "bad_message"),
        ("[1, 2]", "bad_json"),
        ('{"type": "ping", "payload": 5}', "bad_payload"),
    ],
)
async def test_bad_messages_get_an_error_and_the_socket_stays_open(frame, code):
    communicator = WebsocketCommunicator(application, "/ws/ping/", headers=ORIGIN)
    await communicator.connect()
    await communicator.send_to(text_data=frame)
    error = await communicator.receive_json_from(timeout=5)
    assert error["type"] == "error" and error["code"] == code and error["message"]
    await communicator.send_json_to({"type": "ping"})
    assert (await communicator.receive_json_from(timeout=5))["type"] == "pong"
    await communicator.disconnect()


@pytest.mark.redis
async def test_the_round_trip_goes_through_redis_when_redis_url_is_set():
    from channels_redis.core import RedisChannelLayer

    assert isinstance(get_channel_layer(), RedisChannelLayer)
    assert (await _ping(ORIGIN, payload="via redis"))["payload"] == "via redis"


@pytest.mark.redis
async def test_an_idle_socket_waits_on_redis_longer_than_a_blocking_read_without_an_error():
    """Nothing to read for 7 s is not an error: the layer's 5-second blocking reads must not
    outlast the Redis client's socket timeout (redis-py 8 defaults it to 5 s)."""
    import asyncio

    from core.layers import RedisLayer

    # A layer of its own, with the site's settings: a receive cancelled by the timeout leaves
    # state behind in the layer, which the shared one must not carry into the next test.
    layer = RedisLayer(**settings.CHANNEL_LAYERS["default"]["CONFIG"])
    try:
        with pytest.raises(asyncio.TimeoutError):  # ours, not redis.exceptions.TimeoutError
            await asyncio.wait_for(layer.receive("idle-test"), timeout=layer.brpop_timeout + 2)
    finally:
        await layer.close_pools()


@pytest.mark.redis
async def test_the_site_layer_reads_every_message_of_a_process_inbox_in_order_and_keeps_none():
    """core.layers.RedisLayer reads with one blocking pop a message: every socket of a process
    gets its messages, each once, in the order sent, and nothing is left behind on Redis (the
    library's backup queue is gone)."""
    import asyncio

    from core.layers import RedisLayer

    layer = RedisLayer(**settings.CHANNEL_LAYERS["default"]["CONFIG"])
    try:
        first, second = await layer.new_channel(), await layer.new_channel()
        await layer.group_add("inbox-order", first)
        await layer.group_add("inbox-order", second)
        for number in range(30):
            await layer.group_send("inbox-order", {"type": "n", "n": number})
        for channel in (first, second):
            got = [(await asyncio.wait_for(layer.receive(channel), 5))["n"] for _ in range(30)]
            assert got == list(range(30))
        connection = layer.connection(0)
        inbox = layer.prefix + first.split("!")[0] + "!"
        assert await connection.zcard(inbox) == 0
        assert not await connection.exists(inbox + "$inflight")
        for channel in (first, second):
            await layer.group_discard("inbox-order", channel)
    finally:
        await layer.close_pools()
