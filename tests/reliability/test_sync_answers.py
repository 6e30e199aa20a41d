"""Issue 25, defect 4: a socket's ``sync`` is answered at most once every ``LIVE_SYNC_SECONDS``;
the syncs that come sooner share one answer when the interval ends (core/websocket.py); and a
table socket whose last state is already the match's version answers a sync with no snapshot,
only ``synced`` (issue 40 § 5: every sync is answered). Through the real consumer, database and
channel layer."""

from __future__ import annotations

import asyncio
import json

import pytest
from channels.db import database_sync_to_async as sync_to_async

from core import realtime
from games.models import Match
from games.rules import get_game
from games.services import move_rows, moves, presence
from tests.support.live import Sock, cookie_headers, start_table

pytestmark = [pytest.mark.django_db(transaction=True)]


async def _states_within(sock: Sock, seconds: float) -> int:
    states = 0
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while (left := end - loop.time()) > 0:
        if await sock.communicator.receive_nothing(timeout=min(left, 0.05)):
            continue
        if (await sock.recv())["type"] == "state":
            states += 1
    return states


async def test_ten_syncs_in_a_burst_cost_two_snapshots_and_none_is_left_unanswered(
    alice, bob, settings, fast_clients
):
    """Pass: ten syncs sent at once are answered by one state at once and one more a second
    later (not ten); a sync sent after a quiet second is answered at once again."""
    settings.LIVE_SYNC_SECONDS = 1.0
    table = await sync_to_async(start_table)("japanese_joker", [alice, bob])
    sock = await Sock.open(table.pk, await sync_to_async(cookie_headers)(alice))
    await sock.drain()
    for _ in range(10):
        await sock.send({"type": "sync"})
    assert await _states_within(sock, 0.5) == 1
    assert await _states_within(sock, 1.5) == 1  # the burst's one late answer
    await sock.send({"type": "sync"})
    assert await _states_within(sock, 0.5) == 1
    await sock.close()


async def test_the_lobby_answers_a_burst_of_syncs_the_same_way(alice, settings, fast_clients):
    """Pass: the lobby socket, too, answers a burst of syncs with one snapshot at once and one
    when the second ends."""
    from channels.testing import WebsocketCommunicator

    from config.asgi import application

    settings.LIVE_SYNC_SECONDS = 1.0
    headers = await sync_to_async(cookie_headers)(alice)
    lobby = WebsocketCommunicator(application, "/ws/lobby/", headers=headers)
    assert (await lobby.connect())[0]
    assert json.loads(await lobby.receive_from(timeout=5))["type"] == "lobby"
    for _ in range(10):
        await lobby.send_json_to({"type": "sync"})
    answers = []
    loop = asyncio.get_running_loop()
    end = loop.time() + 2.0
    while (left := end - loop.time()) > 0:
        if not await lobby.receive_nothing(timeout=min(left, 0.05)):
            answers.append(json.loads(await lobby.receive_from())["type"])
    assert answers == ["lobby", "lobby"]
    await lobby.disconnect()


@sync_to_async
def _move_nobody_hears(table_id: int, player) -> int:
    """A move whose frames are never published (as if the channel layer lost them)."""
    match = Match.objects.get(table_id=table_id)
    action = get_game(match.game).from_dict(match.state).legal_actions()[0]
    outcome, _unsent = realtime.collecting(moves.match_act)(
        table_id=table_id,
        player=player,
        version=match.version,
        action=action,
        client_action_id="lost-frames",
    )
    return outcome.version


async def test_a_sync_is_answered_after_a_lost_frame_and_not_when_the_state_is_current(
    alice, bob, settings, fast_clients
):
    """Pass: after a move whose frames never reached alice's socket, her sync brings the state
    of the new version; another sync a second later, her state being current, brings none."""
    settings.LIVE_SYNC_SECONDS = 1.0
    table = await sync_to_async(start_table)("japanese_joker", [alice, bob])
    sock = await Sock.open(table.pk, await sync_to_async(cookie_headers)(alice))
    await sock.drain()
    mover = alice if sock.state["view"]["to_act"] == sock.seat else bob
    version = await _move_nobody_hears(table.pk, mover)
    await sock.send({"type": "sync"})
    state = await sock.until(lambda frame: frame["type"] == "state")
    assert state["version"] == version >= 1
    await asyncio.sleep(1.1)
    await sock.send({"type": "sync"})
    assert await _states_within(sock, 1.5) == 0
    await sock.close()


async def test_a_sync_between_the_ack_and_the_state_of_ones_own_move_costs_no_snapshot(
    alice, bob, settings, fast_clients, monkeypatch
):
    """Pass (issue 32, floor 6): a client that syncs whenever its move's ack comes before the
    move's state gets that state once, and the sync costs neither a snapshot nor a database
    read; after a quiet second a sync with no gap brings nothing either."""
    settings.LIVE_SYNC_SECONDS = 1.0
    reads: list[str] = []
    for module, name in ((move_rows, "match_version"), (presence, "table_snapshot")):
        monkeypatch.setattr(module, name, _counted(getattr(module, name), name, reads))
    table = await sync_to_async(start_table)("japanese_joker", [alice, bob])
    mover = None
    for player in (alice, bob):
        sock = await Sock.open(table.pk, await sync_to_async(cookie_headers)(player))
        await sock.drain()
        if sock.state["view"]["to_act"] == sock.seat:
            mover = sock
            break
        await sock.close()
    assert mover is not None
    state = mover.state
    action = state["view"]["legal"][0]
    reads.clear()
    await mover.send({"type": "act", "version": state["version"], "id": "own-1", "action": action})
    await mover.send({"type": "sync"})
    frames = []
    loop = asyncio.get_running_loop()
    end = loop.time() + 1.5
    while (left := end - loop.time()) > 0:
        if not await mover.communicator.receive_nothing(timeout=min(left, 0.05)):
            frames.append(await mover.recv())
    states = [frame["version"] for frame in frames if frame["type"] == "state"]
    assert [f["type"] for f in frames if f["type"] == "ack"] == ["ack"]
    assert states == [state["version"] + 1], frames
    assert reads == []
    await mover.send({"type": "sync"})
    assert await _states_within(mover, 1.2) == 0
    await mover.close()


def _counted(function, name: str, calls: list[str]):
    def counted(*args, **kwargs):
        calls.append(name)
        return function(*args, **kwargs)

    return counted


async def test_every_sync_is_answered_as_a_client_waits_for_it(alice, bob, settings, fast_clients):
    """Pass (issue 40 § 5): a client written from docs/protocol.md § sync sends ``sync`` "in
    doubt" and waits for its answer. Holding the current state, it is answered ``synced`` with
    that version; right after its own move's ack, ``synced`` with the move's version, and that
    move's state arrives too; after a lost frame, the state it lacked. Never silence."""
    settings.LIVE_SYNC_SECONDS = 0.0
    table = await sync_to_async(start_table)("japanese_joker", [alice, bob])
    socks = {}
    for player in (alice, bob):
        socks[player.pk] = await Sock.open(table.pk, await sync_to_async(cookie_headers)(player))
        await socks[player.pk].drain()

    def answer(frame: dict) -> bool:
        return frame["type"] in ("state", "synced")

    mover = next(s for s in socks.values() if s.state["view"]["to_act"] == s.seat)
    held = mover.state["version"]
    action = mover.state["view"]["legal"][0]
    await mover.send({"type": "act", "version": held, "id": "doubt-1", "action": action})
    assert (await mover.until(lambda frame: frame["type"] == "ack"))["version"] == held + 1
    await mover.send({"type": "sync"})
    frames = [await mover.until(answer, timeout=5)]
    if frames[0]["type"] == "synced":  # the state of the move is on its way: it comes
        assert frames[0]["version"] == held + 1
        frames.append(await mover.until(lambda frame: frame["type"] == "state", timeout=5))
    assert frames[-1]["type"] == "state" and frames[-1]["version"] == held + 1

    watcher = next(s for s in socks.values() if s is not mover)
    await watcher.until_version(held + 1)
    for sock in socks.values():  # in doubt, with nothing missed: the version it holds
        await sock.drain()
        await sock.send({"type": "sync"})
        assert await sock.until(answer, timeout=5) == {"type": "synced", "version": held + 1}
    mover_player = alice if mover is socks[alice.pk] else bob
    if mover.state["view"]["to_act"] != mover.seat:
        mover_player = bob if mover_player is alice else alice
    lost = await _move_nobody_hears(table.pk, mover_player)
    await watcher.send({"type": "sync"})
    state = await watcher.until(answer, timeout=5)
    assert state["type"] == "state" and state["version"] == lost
    for sock in socks.values():
        await sock.close()
