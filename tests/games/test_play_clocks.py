"""Time and absence (rules/README.md § 0.6): grace, turn clocks, forfeits, bots, the sweep,
the end of a match, admin cancel and the rematch, through the services, tasks and sockets."""

from __future__ import annotations

import asyncio
import random
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async as sync_to_async  # closes its connections
from django.utils import timezone

from accounts.models import CoinAccount
from accounts.selectors import coin_audit
from games import tasks
from games.models import Match, MatchEvent, Seat, Table, TableConnection
from games.services import play
from tests.games.test_live_support import (  # noqa: F401 (fixtures imported by name)
    Sock,
    cookie_headers,
    fast_clients,
    play_to_end,
    scan_hidden,
    settle,
    start_table,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fast_clients")]


async def _open(table_id, player):
    return await Sock.open(table_id, await sync_to_async(cookie_headers)(player))


@sync_to_async
def _match(table_id):
    return Match.objects.select_related("table").get(table_id=table_id)


@sync_to_async
def _seat(table_id, position):
    return Seat.objects.get(table_id=table_id, position=position)


@sync_to_async
def _events(table_id, kind):
    return list(MatchEvent.objects.filter(match__table_id=table_id, kind=kind))


def _balance(player):
    return CoinAccount.objects.get(player=player).balance


async def _jj(alice, bob, stake=0):
    table = await sync_to_async(start_table)(
        "japanese_joker", [alice, bob], options={"points": 11}, stake=stake
    )
    socks = {}
    for player in (alice, bob):
        sock = await _open(table.pk, player)
        socks[sock.seat] = sock
    return table, socks


# --- Grace ---------------------------------------------------------------------------------------


async def test_reconnecting_before_the_deadline_means_no_forfeit(alice, bob, settings):
    settings.ABSENCE_GRACE_SECONDS = 0.5
    table, socks = await _jj(alice, bob)
    waiting_seat = socks[0].state["view"]["to_act"]
    player = alice if waiting_seat == 0 else bob
    other = socks[1 - waiting_seat]
    await socks[waiting_seat].close()
    presence = await other.until(
        lambda f: f["type"] == "presence" and f["seats"][waiting_seat]["absence_deadline"]
    )
    assert presence["seats"][waiting_seat]["connected"] is False
    assert presence["clocks"]["turn_paused"] is True
    back = await _open(table.pk, player)
    await other.until(lambda f: f["type"] == "presence" and f["seats"][waiting_seat]["connected"])
    await asyncio.sleep(0.6)  # past the old deadline: the task and the sweep find nothing to do
    assert (
        await sync_to_async(tasks.forfeit_absent_seat)((await _match(table.pk)).pk, waiting_seat)
        is False
    )
    await sync_to_async(tasks.live_sweep)()
    match = await _match(table.pk)
    assert match.status == Match.Status.PLAYING and match.version == 0
    assert back.state["view"] == socks[waiting_seat].state["view"]
    for sock in (back, other):
        await sock.close()


async def test_after_the_deadline_the_seat_forfeits_exactly_once(alice, bob, settings):
    settings.ABSENCE_GRACE_SECONDS = 1
    table, socks = await _jj(alice, bob, stake=50)
    waiting_seat = socks[0].state["view"]["to_act"]
    other = socks[1 - waiting_seat]
    await socks[waiting_seat].close()
    await asyncio.sleep(1.2)
    match = await _match(table.pk)
    results = [
        await sync_to_async(tasks.forfeit_absent_seat)(match.pk, waiting_seat),
        await sync_to_async(tasks.forfeit_absent_seat)(match.pk, waiting_seat),
    ]
    swept = await sync_to_async(tasks.live_sweep)()
    assert results == [True, False] and swept["forfeits"] == 0
    assert len(await _events(table.pk, "forfeit")) == 1
    over = await other.until(lambda f: f["type"] == "match_over")
    assert over["result"]["reason"] == "forfeit"
    assert over["result"]["winners"] == [1 - waiting_seat]
    match = await _match(table.pk)
    assert match.status == Match.Status.FINISHED
    winner, loser = (alice, bob) if waiting_seat == 1 else (bob, alice)
    assert await sync_to_async(_balance)(winner) == 1050
    assert await sync_to_async(_balance)(loser) == 950
    assert (await sync_to_async(coin_audit)()).ok
    await other.close()


async def test_the_grace_clock_runs_only_while_the_table_waits_on_the_absent_seat(alice, bob):
    table, socks = await _jj(alice, bob)
    to_act = socks[0].state["view"]["to_act"]
    idle = 1 - to_act
    await socks[idle].close()
    mover = socks[to_act]
    presence = await mover.until(lambda f: f["type"] == "presence")
    assert presence["seats"][idle]["connected"] is False
    assert presence["seats"][idle]["absence_deadline"] is None  # not idle's turn: no countdown
    assert (await _seat(table.pk, idle)).absence_deadline is None
    while mover.state["view"]["to_act"] != idle:  # the trump, the lead: then idle's turn
        version = mover.version
        await mover.act(mover.state["view"]["legal"][0])
        await mover.until_version(version + 1)
    seat = await _seat(table.pk, idle)
    assert seat.absence_deadline is not None
    match = await _match(table.pk)
    assert match.turn_deadline is None and match.turn_remaining_ms == 45_000  # paused
    assert mover.state["seats"][idle]["absence_deadline"] == seat.absence_deadline.isoformat()
    await mover.close()


# --- Turn clock --------------------------------------------------------------------------------


@sync_to_async
def _expire_turn(table_id):
    """The clock runs out: the task for the current version runs at (and after) the deadline."""
    match = Match.objects.get(table_id=table_id)
    late = match.turn_deadline + timedelta(seconds=1)
    first = play.play_due_turn(match_id=match.pk, version=match.version, now=late)
    again = play.play_due_turn(match_id=match.pk, version=match.version, now=late)
    assert again is False
    return first


async def test_a_connected_player_who_does_not_act_gets_the_auto_move_and_three_abandon(alice, bob):
    table, socks = await _jj(alice, bob)
    idle = socks[0].state["view"]["to_act"]
    assert await _expire_turn(table.pk) is True  # the trump choice, made for them
    await settle(table.pk, list(socks.values()))
    assert [e.kind for e in await _events(table.pk, "timeout")] == ["timeout"]
    assert socks[idle].state["seats"][idle]["timeouts"] == 1
    # Play on with the other seat moving and the idle seat timing out each time.
    while (await _seat(table.pk, idle)).timeouts_in_row < 3:
        await settle(table.pk, list(socks.values()))
        to_act = socks[0].state["view"]["to_act"]
        if to_act == idle:
            await _expire_turn(table.pk)
        else:
            await socks[to_act].act(socks[to_act].state["view"]["legal"][0])
    match = await _match(table.pk)
    assert match.status == Match.Status.FINISHED
    assert match.result["reason"] == "forfeit" and match.result["winners"] == [1 - idle]
    forfeit = await _events(table.pk, "forfeit")
    assert [e.action for e in forfeit] == [{"reason": "abandoned"}]
    for sock in socks.values():
        await sock.close()


async def test_acting_yourself_resets_the_run_of_timeouts(alice, bob):
    table, socks = await _jj(alice, bob)
    await _expire_turn(table.pk)
    await settle(table.pk, list(socks.values()))
    mover = socks[socks[0].state["view"]["to_act"]]
    await mover.act(mover.state["view"]["legal"][0])
    await settle(table.pk, list(socks.values()))
    if mover.seat == (await _events(table.pk, "timeout"))[0].seat:
        assert (await _seat(table.pk, mover.seat)).timeouts_in_row == 0
    for sock in socks.values():
        await sock.close()


# --- Leaving, bots and the end -------------------------------------------------------------------


async def test_leave_in_a_two_player_game_ends_the_match_at_once(alice, bob):
    table, socks = await _jj(alice, bob, stake=25)
    await socks[0].send({"type": "leave"})
    ack = await socks[0].until(lambda f: f["type"] == "ack")
    assert ack["version"] == 1
    over = await socks[1].until(lambda f: f["type"] == "match_over")
    assert over["result"]["winners"] == [1] and over["result"]["winner_names"] == ["bob"]
    assert over["result"]["forfeited"] == [0]
    table = await sync_to_async(Table.objects.get)(pk=table.pk)
    assert table.status == Table.Status.FINISHED
    assert await sync_to_async(_balance)(bob) == 1025
    await socks[0].send({"type": "leave"})
    assert (await socks[0].until(lambda f: f["type"] == "error"))["code"] == "not_seated"
    for sock in socks.values():
        await sock.close()


async def test_in_classic_joker_a_bot_takes_the_leavers_seat_who_is_ranked_last_and_loses_the_stake(
    alice, bob, carol, dave, eve
):
    players = [alice, bob, carol, dave]
    table = await sync_to_async(start_table)(
        "classic_joker", players, options={"pulkas": "nines"}, stake=100
    )
    socks = {}
    for player in players:
        sock = await _open(table.pk, player)
        socks[sock.seat] = sock
    watcher = await _open(table.pk, eve)
    await socks[1].send({"type": "leave"})
    await socks[1].until(lambda f: f["type"] == "ack")
    seat = await _seat(table.pk, 1)
    assert seat.forfeited and seat.is_bot
    await play_to_end(table.pk, socks, [watcher], rng=random.Random(5))
    match = await _match(table.pk)
    assert match.status == Match.Status.FINISHED and match.result["reason"] == "finished"
    assert 1 not in match.result["winners"] and match.result["forfeited"] == [1]
    assert match.state["forfeited"] == [1]
    bot_moves = await _events(table.pk, "bot")
    assert bot_moves and {e.seat for e in bot_moves} == {1}
    # The leaver still watches their old seat, but is offered nothing to play.
    after = [f for f in socks[1].frames if f["type"] == "state" and f["view"]]
    assert any(f["view"]["to_act"] == 1 for f in after)
    assert all(f["view"]["legal"] == [] for f in after if f["seats"][1]["forfeited"])
    assert await sync_to_async(_balance)(bob) == 900
    assert (await sync_to_async(coin_audit)()).ok
    await scan_hidden(table.pk, [*socks.values(), watcher])
    for sock in (*socks.values(), watcher):
        await sock.close()


async def test_the_last_human_leaving_classic_joker_ends_it_ranked_by_score(
    alice, bob, carol, dave
):
    table = await sync_to_async(start_table)("classic_joker", [alice, bob, carol, dave])
    match = await _match(table.pk)
    for player in (alice, bob, carol, dave):
        await sync_to_async(play.match_leave)(table_id=table.pk, player=player)
    match = await _match(table.pk)
    assert match.status == Match.Status.FINISHED
    assert sorted(match.result["forfeited"]) == [0, 1, 2, 3]


# --- The sweep: sockets of a dead process ---------------------------------------------------------


async def test_the_sweep_expires_sockets_that_stopped_beating_and_starts_the_grace(alice, bob):
    table, socks = await _jj(alice, bob)
    to_act = socks[0].state["view"]["to_act"]
    # The socket's process died (kill -9): its row stays but stops beating.
    long_ago = timezone.now() - timedelta(minutes=5)
    await sync_to_async(TableConnection.objects.filter(table_id=table.pk, seat=to_act).update)(
        last_seen_at=long_ago
    )
    counts = await sync_to_async(play.live_sweep)()
    assert counts["connections"] == 1
    seat = await _seat(table.pk, to_act)
    assert seat.connected is False and seat.absence_deadline is not None
    # Its socket is alive after all (a long stall): the next beat registers it again.
    status = await sync_to_async(play.connection_heartbeat)(
        channel_name="gone-channel", user=None, session=None
    )
    assert status == "gone"
    for sock in socks.values():
        await sock.close()


# --- Admin cancel -------------------------------------------------------------------------------


async def test_an_admin_cancel_refunds_every_stake_and_tells_the_table(alice, bob):
    table, socks = await _jj(alice, bob, stake=100)
    assert await sync_to_async(_balance)(alice) == 900
    match = await _match(table.pk)
    assert await sync_to_async(play.match_cancel)(match_id=match.pk) is True
    assert await sync_to_async(play.match_cancel)(match_id=match.pk) is False
    over = await socks[0].until(lambda f: f["type"] == "match_over")
    assert over["result"]["reason"] == "cancelled"
    assert socks[0].state["status"] == "aborted"
    assert await sync_to_async(_balance)(alice) == 1000
    assert await sync_to_async(_balance)(bob) == 1000
    table = await sync_to_async(Table.objects.get)(pk=table.pk)
    assert table.status == Table.Status.CANCELLED
    assert (await sync_to_async(coin_audit)()).ok
    error = await socks[0].act({"type": "trump", "suit": "H"})
    assert error["code"] == "match_over"
    for sock in socks.values():
        await sock.close()


def test_the_admin_action_cancels_a_running_match(alice, bob, admin_client):
    table = start_table("japanese_joker", [alice, bob], stake=50)
    match = Match.objects.get(table=table)
    response = admin_client.post(
        "/admin/games/match/",
        {"action": "cancel_and_refund", "_selected_action": [match.pk]},
        follow=True,
    )
    assert response.status_code == 200
    match.refresh_from_db()
    assert match.status == Match.Status.ABORTED
    assert CoinAccount.objects.get(player=alice).balance == 1000


# --- Rematch -------------------------------------------------------------------------------------


async def test_a_rematch_opens_once_with_the_seats_rotated_when_both_accept(alice, bob):
    table, socks = await _jj(alice, bob, stake=25)
    await sync_to_async(play.match_leave)(table_id=table.pk, player=alice)
    await socks[0].send({"type": "rematch"})
    offer = await socks[1].until(lambda f: f["type"] == "rematch")
    assert offer["accepted"] == [0] and offer["needed"] == [0, 1] and offer["table"] is None
    await socks[1].send({"type": "rematch", "accept": True})
    offer = await socks[0].until(lambda f: f["type"] == "rematch" and f["table"])
    new = await sync_to_async(Table.objects.get)(pk=offer["table"])
    assert offer["url"] == f"/tables/{new.pk}/"
    assert new.rematch_of_id == table.pk and new.status == Table.Status.PLAYING
    assert (new.game, new.options, new.stake) == ("japanese_joker", table.options, 25)
    seats = await sync_to_async(
        lambda: {s.player_id: s.position for s in Seat.objects.filter(table=new)}
    )()
    assert seats == {alice.pk: 1, bob.pk: 0}
    # A late acceptance changes nothing: the rematch exists once.
    again = await sync_to_async(play.rematch_accept)(table_id=table.pk, player=bob)
    assert again["table"] == new.pk
    assert await sync_to_async(Table.objects.filter(rematch_of=table).count)() == 1
    for sock in socks.values():
        await sock.close()


# --- Lost tasks: the sweep plays what is overdue --------------------------------------------------


def test_the_sweep_plays_an_overdue_turn_clock_and_an_overdue_bot_turn_whose_tasks_were_lost(
    alice, bob, carol, dave, monkeypatch
):
    monkeypatch.setattr(play, "_schedule", lambda deadlines: None)  # every task is lost
    table = start_table("classic_joker", [alice, bob, carol, dave])
    match = Match.objects.get(table=table)
    first = play._state(match).to_act
    later = timezone.now() + timedelta(seconds=3600)
    assert play.live_sweep(now=later)["turns"] == 1  # the turn clock's auto-move
    assert [e.kind for e in MatchEvent.objects.filter(match=match)] == ["timeout"]
    match.refresh_from_db()
    to_act = play._state(match).to_act
    leaver = Seat.objects.get(table=table, position=to_act).player
    play.match_leave(table_id=table.pk, player=leaver)  # now a bot is to act, and its task lost
    match.refresh_from_db()
    assert play._state(match).to_act == to_act and match.turn_deadline is not None
    counts = play.live_sweep(now=later)
    assert counts["turns"] == 1
    kinds = [(e.kind, e.seat) for e in MatchEvent.objects.filter(match=match)]
    assert kinds == [("timeout", first), ("forfeit", to_act), ("bot", to_act)]
    assert play.live_sweep(now=later)["turns"] == 0  # the next seat's clock runs from the bot move
    assert play.live_sweep(now=later + timedelta(seconds=60))["turns"] == 1
