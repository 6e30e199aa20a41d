"""Time and absence (docs/rules/README.md § 0.6): the absence bank, turn clocks, forfeits, bots, the
sweep, the end of a match, admin cancel and the rematch, through the services, tasks and
sockets."""

from __future__ import annotations

import asyncio
import logging
import random
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async as sync_to_async  # closes its connections
from django.utils import timezone

from accounts.models import CoinAccount
from accounts.selectors import coin_audit
from games import tasks
from games.models import LiveServer, Match, MatchEvent, Seat, Table
from games.services import matches, moves, presence, rematch, turns
from tests.support.live import (
    Sock,
    cookie_headers,
    play_to_end,
    scan_hidden,
    settle,
    start_table,
)
from tests.support.matches import every_seat_moves

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


async def _begin(table, socks):
    """Every seat makes a move of its own: from then on a forfeit is one, not an abort (§ 0.6)."""
    await sync_to_async(every_seat_moves)(table)
    await settle(table.pk, list(socks.values()))


# --- Grace ---------------------------------------------------------------------------------------


async def test_reconnecting_before_the_deadline_means_no_forfeit(alice, bob, settings):
    settings.BANK_SECONDS = 0.5
    table, socks = await _jj(alice, bob)
    waiting_seat = socks[0].state["view"]["to_act"]
    player = alice if waiting_seat == 0 else bob
    other = socks[1 - waiting_seat]
    await socks[waiting_seat].close()
    presence = await other.until(
        lambda f: f["type"] == "presence" and f["seats"][waiting_seat]["absence_deadline"]
    )
    assert presence["seats"][waiting_seat]["connected"] is False
    back = await _open(table.pk, player)
    await other.until(lambda f: f["type"] == "presence" and f["seats"][waiting_seat]["connected"])
    await asyncio.sleep(0.6)  # past the old deadline: a forfeit and the sweep find nothing to do
    match_id = (await _match(table.pk)).pk
    assert (
        await sync_to_async(moves.forfeit_absent_seat)(match_id=match_id, seat=waiting_seat)
        is False
    )
    await sync_to_async(tasks.live_sweep)()
    match = await _match(table.pk)
    assert match.status == Match.Status.PLAYING and match.version == 0
    assert back.state["view"] == socks[waiting_seat].state["view"]
    for sock in (back, other):
        await sock.close()


async def test_after_the_deadline_the_seat_forfeits_exactly_once(alice, bob, settings):
    settings.BANK_SECONDS = 1
    table, socks = await _jj(alice, bob, stake=50)
    await _begin(table, socks)
    waiting_seat = socks[0].state["view"]["to_act"]
    other = socks[1 - waiting_seat]
    await socks[waiting_seat].close()
    await asyncio.sleep(1.2)
    match = await _match(table.pk)
    forfeit = sync_to_async(moves.forfeit_absent_seat)
    results = [
        await forfeit(match_id=match.pk, seat=waiting_seat),
        await forfeit(match_id=match.pk, seat=waiting_seat),
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


async def test_the_absence_bank_drains_only_while_the_table_waits_on_the_absent_seat(alice, bob):
    table, socks = await _jj(alice, bob)
    to_act = socks[0].state["view"]["to_act"]
    idle = 1 - to_act
    await socks[idle].close()
    mover = socks[to_act]
    presence = await mover.until(
        lambda f: f["type"] == "presence" and not f["seats"][idle]["connected"]
    )
    assert presence["seats"][idle]["absence_deadline"] is None  # not idle's turn: no countdown
    assert (await _seat(table.pk, idle)).bank_deadline is None
    while mover.state["view"]["to_act"] != idle:  # the trump, the lead: then idle's turn
        version = mover.version
        await mover.act(mover.state["view"]["legal"][0])
        await mover.until_version(version + 1)
    seat = await _seat(table.pk, idle)
    assert seat.bank_deadline is not None and seat.bank_used_ms == 0  # the whole bank
    match = await _match(table.pk)
    assert match.turn_deadline is not None  # the turn clock runs on while idle is away
    assert mover.state["seats"][idle]["absence_deadline"] == seat.bank_deadline.isoformat()
    await mover.close()


async def test_short_returns_cannot_stall_a_match_the_bank_keeps_what_each_absence_used(
    alice, bob, settings
):
    """Away, back, away again: the second absence gets what is left of the bank, not a fresh
    grace, and the turn clock does not restart across the return."""
    settings.BANK_SECONDS = 60
    table, socks = await _jj(alice, bob)
    waiting = socks[0].state["view"]["to_act"]
    player = alice if waiting == 0 else bob
    turn_deadline = (await _match(table.pk)).turn_deadline
    await socks[waiting].close()
    await socks[1 - waiting].until(
        lambda f: f["type"] == "presence" and f["seats"][waiting]["absence_deadline"]
    )
    first = (await _seat(table.pk, waiting)).bank_deadline
    await asyncio.sleep(2)
    back = await _open(table.pk, player)
    seat = await _seat(table.pk, waiting)
    assert seat.bank_deadline is None and seat.bank_used_ms >= 1900
    assert (await _match(table.pk)).turn_deadline == turn_deadline  # no fresh turn clock
    await back.close()
    await socks[1 - waiting].until(
        lambda f: f["type"] == "presence" and f["seats"][waiting]["absence_deadline"]
    )
    second = (await _seat(table.pk, waiting)).bank_deadline
    # The second deadline is where the first one was, give or take the short time back: the two
    # seconds spent away the first time are gone from the bank (a fresh grace would add them).
    assert 0 <= (second - first).total_seconds() < 1.5
    await socks[1 - waiting].close()


async def test_an_absent_players_turn_ends_in_an_automatic_move_and_repeated_in_a_forfeit(
    alice, bob, settings
):
    """Away on their turn: no bank for the turn (the table does not wait for someone who is not
    there), the automatic move when the turn clock runs out, while the bank drains."""
    settings.BANK_SECONDS = 3600  # the bank outlasts the test: only the turn clock acts
    table, socks = await _jj(alice, bob)
    await _begin(table, socks)
    idle = socks[0].state["view"]["to_act"]
    await socks[idle].close()
    other = socks[1 - idle]
    frame = await other.until(
        lambda f: f["type"] == "presence" and not f["seats"][idle]["connected"]
    )
    assert frame["seats"][idle]["absence_deadline"] == frame["seats"][idle]["bank_deadline"]
    before = await _match(table.pk)
    assert await _expire_turn(table.pk) is True  # away, and the clock still plays for them
    assert [e.kind for e in await _events(table.pk, "timeout")] == ["timeout"]
    assert (await _match(table.pk)).version == before.version + 1  # no bank: the move at once
    while (await _match(table.pk)).status == Match.Status.PLAYING:
        await settle(table.pk, [other])
        if other.state["view"]["to_act"] == idle:
            await _expire_turn(table.pk)
        else:
            await other.act(other.state["view"]["legal"][0])
    match = await _match(table.pk)
    assert match.result["reason"] == "forfeit" and match.result["winners"] == [1 - idle]
    assert [e.action for e in await _events(table.pk, "forfeit")] == [{"reason": "abandoned"}]
    await other.close()


# --- Turn clock --------------------------------------------------------------------------------


@sync_to_async
def _expire_turn(table_id):
    """The clock runs out: the turn clock, then what is left of the seat's bank. The task for
    the current version runs at (and after) each deadline; each deadline acts once."""
    match = Match.objects.get(table_id=table_id)
    while True:
        late = match.turn_deadline + timedelta(seconds=1)
        first = moves.play_due_turn(match_id=match.pk, version=match.version, now=late)
        again = moves.play_due_turn(match_id=match.pk, version=match.version, now=late)
        assert again is False
        after = Match.objects.get(pk=match.pk)
        if not first or after.version != match.version:
            return first
        assert after.turn_on_bank and after.turn_deadline > match.turn_deadline
        match = after


async def test_a_connected_player_who_does_not_act_gets_the_auto_move_and_three_abandon(alice, bob):
    table, socks = await _jj(alice, bob)
    await _begin(table, socks)
    idle = socks[0].state["view"]["to_act"]
    assert await _expire_turn(table.pk) is True  # a card, played for them
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
    # Why, told to the table (issue 41: the page said "left" of a player who never left), and
    # the number that forfeits, which the page warns of one before.
    for sock in socks.values():
        await settle(table.pk, [sock])
        assert sock.state["result"]["forfeit_reasons"] == {str(idle): "abandoned"}
        assert sock.state["clocks"]["timeouts_to_forfeit"] == 3
    for sock in socks.values():
        await sock.close()


async def test_a_slow_player_spends_the_bank_the_table_sees_it_and_keeps_what_is_left(alice, bob):
    """Past the turn clock a present player's turn goes on to their bank: every socket hears
    it (``turn_on_bank``, the seat's ``bank_deadline``); a move made on the bank keeps what is
    left for later turns, and the next turn gets a whole turn clock."""
    table, socks = await _jj(alice, bob)
    await _begin(table, socks)
    match = await _match(table.pk)
    thinker = socks[0].state["view"]["to_act"]
    assert match.speed == Table.Speed.NORMAL  # 30 s a turn, a bank of 90 s
    # (a seat whose socket opened after the start paid its bank for the moment it was away)
    used_ms = (await _seat(table.pk, thinker)).bank_used_ms
    assert socks[0].state["seats"][thinker]["bank_ms"] == 90_000 - used_ms
    # The turn clock ran out a moment ago (the socket's move below is made at the real time).
    late = timezone.now()
    await sync_to_async(Match.objects.filter(pk=match.pk).update)(
        turn_deadline=late - timedelta(milliseconds=1)
    )
    assert await sync_to_async(moves.play_due_turn)(
        match_id=match.pk, version=match.version, now=late
    )
    for sock in socks.values():
        frame = await sock.until(lambda f: f["type"] == "presence" and f["clocks"]["turn_on_bank"])
        assert frame["seats"][thinker]["bank_deadline"] == frame["clocks"]["turn_deadline"]
        assert frame["seats"][thinker]["absence_deadline"] is None  # here, only slow
    on_bank = await _match(table.pk)
    assert on_bank.version == match.version
    assert on_bank.turn_deadline == late + timedelta(milliseconds=90_000 - used_ms)
    await socks[thinker].act(socks[thinker].state["view"]["legal"][0])
    await settle(table.pk, list(socks.values()))
    seat = await _seat(table.pk, thinker)
    assert seat.bank_deadline is None and used_ms < seat.bank_used_ms < 90_000
    assert seat.timeouts_in_row == 0 and await _events(table.pk, "timeout") == []
    after = await _match(table.pk)
    assert not after.turn_on_bank
    state = socks[thinker].state
    assert state["clocks"]["turn_on_bank"] is False
    assert state["seats"][thinker]["bank_ms"] == 90_000 - seat.bank_used_ms
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
    await _begin(table, socks)
    version = socks[0].version
    await socks[0].send({"type": "leave"})
    ack = await socks[0].until(lambda f: f["type"] == "ack")
    assert ack["version"] == version + 1
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


@pytest.mark.slow
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
    await _begin(table, socks)
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
    await sync_to_async(every_seat_moves)(table)
    for player in (alice, bob, carol, dave):
        await sync_to_async(moves.match_leave)(table_id=table.pk, player=player)
    match = await _match(table.pk)
    assert match.status == Match.Status.FINISHED
    assert sorted(match.result["forfeited"]) == [0, 1, 2, 3]


# --- The sweep: sockets of a dead process ---------------------------------------------------------


async def test_the_sweep_removes_a_server_that_stopped_beating_with_its_sockets(alice, bob, caplog):
    table, socks = await _jj(alice, bob)
    to_act = socks[0].state["view"]["to_act"]
    # The process died (kill -9): its heartbeat row stays but stops beating.
    long_ago = timezone.now() - timedelta(minutes=5)
    server = await sync_to_async(LiveServer.objects.get)()
    await sync_to_async(LiveServer.objects.filter(pk=server.pk).update)(last_seen_at=long_ago)
    with caplog.at_level(logging.WARNING, logger="games.services.presence"):
        counts = await sync_to_async(presence.live_sweep)()
    assert counts["servers"] == 1
    # One line for the operator, naming the process and what it took down with it.
    (line,) = [r.getMessage() for r in caplog.records if r.name == "games.services.presence"]
    assert server.name in line and "its 2 table sockets are taken for gone" in line
    seats = [await _seat(table.pk, position) for position in (0, 1)]
    assert [seat.connected for seat in seats] == [False, False]
    assert seats[to_act].bank_deadline is not None
    # The process was alive after all (a long stall): its next beat finds its row gone and its
    # sockets register again.
    assert await sync_to_async(presence.server_beat)(server_name=server.name) is False
    for sock in socks.values():
        await sock.close()


def test_a_process_whose_sockets_had_all_closed_is_alive_again_with_its_next_socket(alice, bob):
    """Found by make bench: a process beats only while it holds sockets, so after a quiet spell
    its row is old; a socket that opens then makes it fresh, and the sweep leaves it (and the
    socket's presence) alone instead of failing the socket on a deleted server."""
    table = start_table("japanese_joker", [alice, bob])
    quiet = timezone.now() - timedelta(minutes=5)
    LiveServer.objects.create(name="a-quiet-process", last_seen_at=quiet)
    presence.socket_connect(
        table_id=table.pk,
        player=alice,
        channel_name="specific.quiet!1",
        server_name="a-quiet-process",
    )
    assert presence.live_sweep()["servers"] == 0
    assert LiveServer.objects.get(name="a-quiet-process").last_seen_at > quiet
    assert Seat.objects.get(table=table, player=alice).connected


# --- Admin cancel -------------------------------------------------------------------------------


async def test_an_admin_cancel_refunds_every_stake_and_tells_the_table(alice, bob):
    table, socks = await _jj(alice, bob, stake=100)
    assert await sync_to_async(_balance)(alice) == 900
    match = await _match(table.pk)
    assert await sync_to_async(matches.match_cancel)(match_id=match.pk) is True
    assert await sync_to_async(matches.match_cancel)(match_id=match.pk) is False
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
    await sync_to_async(moves.match_leave)(table_id=table.pk, player=alice)
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
    again = await sync_to_async(rematch.rematch_accept)(table_id=table.pk, player=bob)
    assert again["table"] == new.pk
    assert await sync_to_async(Table.objects.filter(rematch_of=table).count)() == 1
    for sock in socks.values():
        await sock.close()


# --- Lost tasks: the sweep plays what is overdue --------------------------------------------------


def test_the_sweep_plays_an_overdue_turn_clock_and_an_overdue_bot_turn_whose_tasks_were_lost(
    alice, bob, carol, dave, monkeypatch, settings
):
    settings.BANK_SECONDS = 86_400  # nobody opened the page; only the clocks act here
    monkeypatch.setattr(turns, "enqueue_on_commit", lambda *a, **k: None)  # every task is lost
    table = start_table("classic_joker", [alice, bob, carol, dave])
    match = every_seat_moves(table)  # the bids: from then on a leaver's seat goes to a computer
    opening = match.version
    first = matches.engine_state(match).to_act
    later = timezone.now() + timedelta(seconds=3600)
    assert presence.live_sweep(now=later)["turns"] == 1  # the turn clock's auto-move
    events = MatchEvent.objects.filter(match=match, version__gt=opening)
    assert [e.kind for e in events] == ["timeout"]
    match.refresh_from_db()
    to_act = matches.engine_state(match).to_act
    leaver = Seat.objects.get(table=table, position=to_act).player
    moves.match_leave(table_id=table.pk, player=leaver)  # now a bot is to act, and its task lost
    match.refresh_from_db()
    assert matches.engine_state(match).to_act == to_act and match.turn_deadline is not None
    counts = presence.live_sweep(now=later)
    assert counts["turns"] == 1
    kinds = [(e.kind, e.seat) for e in events.all()]
    assert kinds == [("timeout", first), ("forfeit", to_act), ("bot", to_act)]
    assert (
        presence.live_sweep(now=later)["turns"] == 0
    )  # the next seat's clock runs from the bot move
    assert presence.live_sweep(now=later + timedelta(seconds=60))["turns"] == 1
