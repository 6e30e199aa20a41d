"""The ASGI stack end to end: origin, session, auth and the channel layer (issue 2, item 5)."""

from __future__ import annotations

import time

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


@pytest.mark.slow
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


@pytest.mark.redis
async def test_waiting_sockets_share_one_reader_and_a_closed_socket_keeps_nothing():
    """core.layers.RedisLayer: hundreds of sockets waiting on the layer cost one reader task, not
    tasks of their own; what arrives while a socket is busy with its previous message waits for
    it in order; a socket that closed (its receive cancelled) gets nothing kept for it."""
    import asyncio

    from core.layers import RedisLayer

    layer = RedisLayer(**settings.CHANNEL_LAYERS["default"]["CONFIG"])
    try:
        tasks_before = len(asyncio.all_tasks())
        channels = [await layer.new_channel() for _ in range(300)]
        for channel in channels:
            await layer.group_add("one-reader", channel)
        waiting = [asyncio.ensure_future(layer.receive(channel)) for channel in channels]
        # Each receive is a task, and the first starts the one reader: wait for them all to run.
        deadline = time.monotonic() + 10
        while len(asyncio.all_tasks()) - tasks_before < len(channels) + 1:
            assert time.monotonic() < deadline, (
                f"waited for {len(channels) + 1} tasks (the receives and the reader), saw "
                f"{len(asyncio.all_tasks()) - tasks_before}"
            )
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.05)  # a window in which no further task may start
        assert len(asyncio.all_tasks()) - tasks_before == len(channels) + 1  # + the reader

        await layer.group_send("one-reader", {"type": "n", "n": 0})
        assert [(await asyncio.wait_for(task, 5))["n"] for task in waiting] == [0] * 300

        busy, closed = channels[0], channels[1]
        closing = asyncio.ensure_future(layer.receive(closed))
        await asyncio.sleep(0.1)
        closing.cancel()
        with pytest.raises(asyncio.CancelledError):
            await closing
        for number in (1, 2, 3):
            await layer.send(busy, {"type": "n", "n": number})
            await layer.send(closed, {"type": "n", "n": number})
        # Another socket waiting keeps the reader going while `busy` is not reading.
        other = asyncio.ensure_future(layer.receive(channels[2]))
        await layer.send(channels[2], {"type": "n", "n": 9})
        assert (await asyncio.wait_for(other, 5))["n"] == 9
        assert [(await asyncio.wait_for(layer.receive(busy), 5))["n"] for _ in range(3)] == [
            1,
            2,
            3,
        ]
        assert closed not in layer._pending and closed not in layer._live
        for channel in channels:
            await layer.group_discard("one-reader", channel)
    finally:
        await layer.close_pools()


@pytest.mark.redis
async def test_one_move_reaches_every_group_in_one_batch_and_its_own_process_without_redis():
    """core.layers.RedisLayer.group_send_many: the messages of a move, to several groups, reach
    another process's members in their order from one batch in its inbox; the sending process's
    own members have them at once, through nothing on Redis; a member that left gets nothing."""
    import asyncio

    from core.layers import RedisLayer

    config = settings.CHANNEL_LAYERS["default"]["CONFIG"]
    sender, other = RedisLayer(**config), RedisLayer(**config)  # two server processes
    try:
        here = await sender.new_channel()
        there, gone = await other.new_channel(), await other.new_channel()
        for layer, channel, group in [
            (sender, here, "seat-0"),
            (other, there, "seat-1"),
            (other, there, "table"),
            (sender, here, "table"),
            (other, gone, "seat-1"),
        ]:
            await layer.group_add(group, channel)
        await other.group_discard("seat-1", gone)
        # Both processes wait on their sockets, as Daphne's sockets do.
        waiting_here = asyncio.ensure_future(sender.receive(here))
        waiting_there = asyncio.ensure_future(other.receive(there))
        waiting_gone = asyncio.ensure_future(other.receive(gone))
        await asyncio.sleep(0.1)

        await sender.group_send_many(
            [("seat-0", {"type": "n", "n": 0}), ("seat-1", {"type": "n", "n": 1})]
            + [("table", {"type": "n", "n": n}) for n in (2, 3)]
        )
        await asyncio.sleep(0)  # one turn of the loop: its socket's task wakes, no more
        assert waiting_here.done()  # handed over before the send returned, not read back
        own_inbox = sender.prefix + sender.non_local_name(here)
        assert await sender.connection(0).zcard(own_inbox) == 0
        got_here = [(await asyncio.wait_for(waiting_here, 5))["n"]]
        got_here += [(await asyncio.wait_for(sender.receive(here), 5))["n"] for _ in range(2)]
        assert got_here == [0, 2, 3]
        got_there = [(await asyncio.wait_for(waiting_there, 5))["n"]]
        got_there += [(await asyncio.wait_for(other.receive(there), 5))["n"] for _ in range(2)]
        assert got_there == [1, 2, 3]
        await asyncio.sleep(0.2)
        assert not waiting_gone.done()  # it left seat-1 before the move
        waiting_gone.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting_gone
        assert gone not in other._groups_of  # a closed socket is forgotten by its groups too
        for layer, channel, group in [
            (sender, here, "seat-0"),
            (other, there, "seat-1"),
            (other, there, "table"),
            (sender, here, "table"),
        ]:
            await layer.group_discard(group, channel)
    finally:
        await sender.close_pools()
        await other.close_pools()


@pytest.mark.redis
async def test_a_socket_joins_and_leaves_its_groups_in_one_trip_each():
    """core.layers.RedisLayer.group_add_many / group_discard_many, as a table socket opens and
    closes (three or four groups): another process reaches it through each group; once it left
    them, Redis holds it in none and a message to them reaches nothing."""
    import asyncio

    from core.layers import RedisLayer
    from core.websocket import GroupsMixin

    config = settings.CHANNEL_LAYERS["default"]["CONFIG"]
    here, other = RedisLayer(**config), RedisLayer(**config)
    groups = ["table-7", "table-7-spectators", "table-7-player-3", "sockets-3"]
    try:
        socket = GroupsMixin()
        socket.channel_layer, socket.channel_name = here, await here.new_channel()
        trips = 0
        redis = here.connection(0)

        def counted(method):
            def call(*args, **kwargs):
                nonlocal trips
                trips += 1
                return method(*args, **kwargs)

            return call

        redis.pipeline, redis.eval = counted(redis.pipeline), counted(redis.eval)
        await socket.join(*groups)
        await socket.join(groups[0])  # joined already: nothing sent
        assert trips == 1
        for number, group in enumerate(groups):
            await other.group_send(group, {"type": "n", "n": number})
        got = [(await asyncio.wait_for(here.receive(socket.channel_name), 5))["n"] for _ in groups]
        assert got == [0, 1, 2, 3]
        await socket.leave_all()
        assert trips == 2 and not socket.groups_joined
        for group in groups:
            members = await here.connection(0).zrange(here._group_key(group), 0, -1)
            assert socket.channel_name.encode() not in members
        waiting = asyncio.ensure_future(here.receive(socket.channel_name))
        await other.group_send(groups[0], {"type": "n", "n": 9})
        await asyncio.sleep(0.3)
        assert not waiting.done()
        waiting.cancel()
    finally:
        await here.close_pools()
        await other.close_pools()
