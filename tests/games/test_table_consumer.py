"""The table socket at the edge: who may connect, what each one sees, and every kind of bad
input answered as docs/protocol.md says, with the match unchanged and other tables served."""

from __future__ import annotations

import asyncio
import json

import pytest
from channels.db import database_sync_to_async as sync_to_async  # closes its connections
from channels.testing import WebsocketCommunicator
from django.contrib.sessions.models import Session

from accounts.services import user_deactivate
from config.asgi import application
from games.models import Match, MatchEvent, Table
from games.services import tables
from tests.support.live import (
    ORIGIN,
    Closed,
    Sock,
    cookie_headers,
    settle,
    start_table,
)

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture
def jj_table(alice, bob):
    return start_table("japanese_joker", [alice, bob], options={"points": 11})


async def _open(table_id, player):
    return await Sock.open(table_id, await sync_to_async(cookie_headers)(player))


async def _pair(table, alice, bob):
    a, b = await _open(table.pk, alice), await _open(table.pk, bob)
    return {a.seat: a, b.seat: b}


@sync_to_async
def _match(table_id):
    return Match.objects.get(table_id=table_id)


async def _refused_code(path, headers):
    communicator = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await communicator.connect()
    assert connected  # accepted, then closed with a code the page can read
    output = await communicator.receive_output(5)
    assert output["type"] == "websocket.close"
    await communicator.send_input({"type": "websocket.disconnect", "code": output["code"]})
    await communicator.wait(5)
    return output["code"]


# --- Who connects, and what they see ------------------------------------------------------------


async def test_a_missing_table_and_a_friends_only_table_look_the_same_to_a_stranger(alice, eve):
    table = await sync_to_async(tables.table_create)(
        creator=alice, game="japanese_joker", options={}, stake=0, visibility="friends"
    )
    eve_headers = await sync_to_async(cookie_headers)(eve)
    assert await _refused_code(f"/ws/table/{table.pk}/", eve_headers) == 4004
    assert await _refused_code("/ws/table/999999/", eve_headers) == 4004
    assert await _refused_code(f"/ws/table/{table.pk}/", ORIGIN) == 4004


async def test_an_open_table_sends_a_state_without_a_view_until_the_match_starts(alice, bob):
    table = await sync_to_async(tables.table_create)(
        creator=alice, game="japanese_joker", options={}, stake=0, visibility="public"
    )
    sock = await _open(table.pk, alice)
    assert sock.state["status"] == "open" and sock.state["view"] is None
    await sync_to_async(tables.table_join)(player=bob, table_id=table.pk)
    started = await sock.until(lambda f: f["type"] == "state" and f["status"] == "playing")
    assert started["seat"] == 0 and "hand" in started["view"]
    await sock.close()


async def test_each_player_gets_their_own_view_and_a_spectator_the_face_up_one(
    jj_table, alice, bob, eve
):
    socks = await _pair(jj_table, alice, bob)
    watcher = await _open(jj_table.pk, eve)
    visitor = await Sock.open(jj_table.pk, ORIGIN)
    for seat, sock in socks.items():
        assert sock.state["seat"] == seat and sock.state["view"]["seat"] == seat
        assert len(sock.state["view"]["hand"]) == 3  # the first three cards (JJ-5)
    assert set(socks[0].state["view"]["hand"]).isdisjoint(socks[1].state["view"]["hand"])
    for spectator in (watcher, visitor):
        assert spectator.state["seat"] is None and "hand" not in spectator.state["view"]
    assert [s["name"] for s in watcher.state["seats"]] == ["alice", "bob"]
    for sock in (*socks.values(), watcher, visitor):
        await sock.close()


async def test_ping_answers_pong_with_the_version(jj_table, alice):
    sock = await _open(jj_table.pk, alice)
    await sock.send({"type": "ping"})
    pong = await sock.until(lambda f: f["type"] == "pong")
    assert pong["version"] == 0 and pong["server_time"]
    await sock.close()


async def test_a_pong_carries_the_matchs_current_version_to_either_seat(jj_table, alice, bob):
    """So a seat whose state was lost sees from its next pong that it is behind (protocol
    § Versions)."""
    socks = await _pair(jj_table, alice, bob)
    actor = socks[socks[0].state["view"]["to_act"]]
    assert (await actor.act(actor.state["view"]["legal"][0]))["type"] == "ack"
    for sock in socks.values():
        await sock.send({"type": "ping"})
        assert (await sock.until(lambda f: f["type"] == "pong"))["version"] == 1
        await sock.close()


# --- Moves: duplicates, staleness, races, illegal ------------------------------------------------


async def test_a_duplicate_action_id_is_applied_once_and_answered_with_the_state(
    jj_table, alice, bob
):
    socks = await _pair(jj_table, alice, bob)
    actor = socks[socks[0].state["view"]["to_act"]]
    action = actor.state["view"]["legal"][0]
    first = await actor.act(action, id="move-1")
    assert first == {"type": "ack", "id": "move-1", "version": 1, "duplicate": False}
    again = await actor.act(action, version=0, id="move-1")
    assert again["duplicate"] is True and again["version"] == 1
    snapshot = await actor.until(lambda f: f["type"] == "state")
    assert snapshot["version"] == 1
    assert await sync_to_async(MatchEvent.objects.filter(match__table=jj_table).count)() == 1
    for sock in socks.values():
        await sock.close()


async def test_a_stale_version_changes_nothing_and_gets_the_current_state(jj_table, alice, bob):
    socks = await _pair(jj_table, alice, bob)
    actor = socks[socks[0].state["view"]["to_act"]]
    await actor.act(actor.state["view"]["legal"][0])
    await settle(jj_table.pk, list(socks.values()))
    mover = socks[actor.state["view"]["to_act"]]
    error = await mover.act(mover.state["view"]["legal"][0], version=0)
    assert error["code"] == "stale"
    snapshot = await mover.until(lambda f: f["type"] == "state")
    assert snapshot["version"] == 1
    assert (await _match(jj_table.pk)).version == 1
    for sock in socks.values():
        await sock.close()


async def test_two_racing_actions_on_one_turn_apply_exactly_once(jj_table, alice, bob):
    socks = await _pair(jj_table, alice, bob)
    seat = socks[0].state["view"]["to_act"]
    player = alice if seat == 0 else bob
    second_tab = await _open(jj_table.pk, player)  # the same player in two tabs
    legal = socks[seat].state["view"]["legal"]
    tabs = [socks[seat], second_tab]
    for index, tab in enumerate(tabs):
        await tab.send({"type": "act", "version": 0, "id": f"race-{index}", "action": legal[index]})
    answers = [
        await tab.until(lambda f, i=i: f.get("id") == f"race-{i}") for i, tab in enumerate(tabs)
    ]
    assert sorted(a["type"] for a in answers) == ["ack", "error"]
    assert [a["code"] for a in answers if a["type"] == "error"] == ["stale"]
    match = await _match(jj_table.pk)
    assert match.version == 1
    for sock in (*socks.values(), second_tab):
        await sock.close()


async def test_an_illegal_action_gets_the_engines_reason(jj_table, alice, bob):
    socks = await _pair(jj_table, alice, bob)
    actor = socks[socks[0].state["view"]["to_act"]]
    error = await actor.act({"type": "play", "card": "AS"})  # the trump phase: no play yet
    assert error["type"] == "error" and error["code"] == "illegal" and error["message"]
    odd = await actor.act({"type": "trump", "suit": 7})
    assert odd["code"] == "illegal"
    assert (await _match(jj_table.pk)).version == 0
    for sock in socks.values():
        await sock.close()


async def test_reconnecting_mid_hand_resumes_the_same_hand_with_the_same_view(jj_table, alice, bob):
    socks = await _pair(jj_table, alice, bob)
    for _ in range(6):
        await settle(jj_table.pk, list(socks.values()))
        actor = socks[socks[0].state["view"]["to_act"]]
        await actor.act(actor.state["view"]["legal"][-1])
    await settle(jj_table.pk, list(socks.values()))
    before = socks[1].state
    await socks[1].close()
    again = await _open(jj_table.pk, bob)
    assert again.state["version"] == before["version"] == 6
    assert again.state["view"] == before["view"]
    assert again.state["view"]["hand_number"] == 1
    await again.close()
    await socks[0].close()


# --- Bad input ---------------------------------------------------------------------------------


async def test_bad_input_is_answered_as_documented_and_changes_nothing(
    jj_table, alice, bob, eve, carol, dave
):
    other = await sync_to_async(start_table)("japanese_joker", [carol, dave])
    socks = await _pair(jj_table, alice, bob)
    watcher = await _open(jj_table.pk, eve)
    waiting = socks[1 - socks[0].state["view"]["to_act"]]
    actor = socks[socks[0].state["view"]["to_act"]]
    legal = actor.state["view"]["legal"][0]

    async def answer(sock, frame):
        await sock.communicator.send_to(text_data=frame)
        return await sock.until(lambda f: f["type"] == "error")

    assert (await answer(actor, "{not json"))["code"] == "bad_json"
    assert (await answer(actor, "[1, 2]"))["code"] == "bad_json"
    assert (await answer(actor, '{"type": "dance"}'))["code"] == "bad_message"
    assert (await answer(actor, '{"type": "act", "version": 0}'))["code"] == "bad_message"
    # A move for another seat: the seat comes from the session, never from the message.
    for_other = {"type": "act", "version": 0, "id": "x1", "action": legal, "seat": 1}
    error = await answer(actor, json.dumps(for_other))
    assert error["code"] == "bad_message" and error["id"] == "x1"
    assert (await waiting.act(legal))["code"] == "not_your_turn"
    assert (await watcher.act(legal))["code"] == "not_seated"
    await watcher.send({"type": "leave"})
    assert (await watcher.until(lambda f: f["type"] == "error"))["code"] == "not_seated"
    wrong = {"type": "act", "version": 0, "id": "x2", "action": legal, "table": other.pk}
    assert (await answer(actor, json.dumps(wrong)))["code"] == "wrong_table"
    match = await _match(jj_table.pk)
    assert match.version == 0

    # The other table is served all along.
    carol_sock = await _open(other.pk, carol)
    dave_sock = await _open(other.pk, dave)
    them = {carol_sock.seat: carol_sock, dave_sock.seat: dave_sock}
    mover = them[carol_sock.state["view"]["to_act"]]
    assert (await mover.act(mover.state["view"]["legal"][0]))["type"] == "ack"
    for sock in (*socks.values(), watcher, carol_sock, dave_sock):
        await sock.close()


async def test_an_oversized_frame_is_refused_and_the_socket_closed_with_4009(jj_table, alice):
    sock = await _open(jj_table.pk, alice)
    await sock.communicator.send_to(text_data=json.dumps({"type": "sync", "pad": "x" * 5000}))
    error = await sock.until(lambda f: f["type"] == "error")
    assert error["code"] == "too_big"
    with pytest.raises(Closed) as closed:
        await sock.recv()
    assert closed.value.code == 4009
    assert (await _match(jj_table.pk)).version == 0


async def test_a_flood_closes_the_socket_with_4008(jj_table, alice, settings):
    settings.LIVE_RATE_BURST = 5
    settings.LIVE_RATE_PER_SECOND = 1
    sock = await _open(jj_table.pk, alice)
    for _ in range(8):
        await sock.send({"type": "ping"})
    with pytest.raises(Closed) as closed:
        await sock.until(lambda f: False)
    assert closed.value.code == 4008
    assert [f["code"] for f in sock.frames if f["type"] == "error"] == ["flood"]
    assert [f["type"] for f in sock.frames].count("pong") == 5


async def test_the_types_other_apps_serve_are_named_and_gone_when_no_app_serves_them(
    jj_table, alice, settings
):
    """Chat and reports are social's (``GAMES_TABLE_SOCKET_HANDLERS``): games stands alone."""
    sock = await _open(jj_table.pk, alice)
    await sock.send({"type": "dance"})
    refused = await sock.until(lambda f: f["type"] == "error")
    assert (
        "act, chat, entropy_commit, entropy_reveal, leave, ping, rematch, report, suggest, sync"
        in (refused["message"])
    )
    settings.GAMES_TABLE_SOCKET_HANDLERS = []
    await sock.send({"type": "chat", "phrase": "thanks"})
    refused = await sock.until(lambda f: f["type"] == "error")
    understood = "the table understands act, leave, ping, rematch, suggest, sync"
    assert refused["code"] == "bad_message" and understood in refused["message"]
    await sock.close()


async def test_repeated_garbage_closes_the_socket_with_4008(jj_table, alice, settings):
    settings.LIVE_MAX_BAD_MESSAGES = 3
    sock = await _open(jj_table.pk, alice)
    for _ in range(3):
        await sock.communicator.send_to(text_data="garbage")
    with pytest.raises(Closed) as closed:
        await sock.until(lambda f: False)
    assert closed.value.code == 4008
    codes = [f["code"] for f in sock.frames if f["type"] == "error"]
    assert codes == ["bad_json", "bad_json", "bad_json", "too_many_errors"]


async def test_a_logged_out_session_is_closed_with_4003(jj_table, alice, settings):
    settings.LIVE_HEARTBEAT_SECONDS = 0.05
    sock = await _open(jj_table.pk, alice)
    await sync_to_async(Session.objects.all().delete)()  # what logout does to the session
    with pytest.raises(Closed) as closed:
        await sock.until(lambda f: False, timeout=5)
    assert closed.value.code == 4003


async def test_a_deactivated_user_is_closed_with_4003(jj_table, alice, settings):
    settings.LIVE_HEARTBEAT_SECONDS = 0.05
    sock = await _open(jj_table.pk, alice)
    await sync_to_async(user_deactivate)(user=alice.user)
    with pytest.raises(Closed) as closed:
        await sock.until(lambda f: False, timeout=5)
    assert closed.value.code == 4003
    await asyncio.sleep(0)
    table = await sync_to_async(Table.objects.get)(pk=jj_table.pk)
    # A banned account's seats forfeit with it (issue 17): the two-player match is over,
    # aborted, as nobody had moved yet (docs/rules/README.md § 0.6).
    assert table.status == Table.Status.CANCELLED
