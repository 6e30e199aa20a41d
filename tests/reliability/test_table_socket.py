"""Holes an outside attack found in the table socket (issue 10), each proven closed through the
real consumer, database and channel layer. Each test's docstring states its pass criterion.

Run on PostgreSQL + Redis in CI (``REQUIRE_SERVICES=1``); the lock tests need PostgreSQL.
"""

from __future__ import annotations

import asyncio
import json
import threading

import pytest
from channels.db import database_sync_to_async as sync_to_async  # closes its connections
from django.conf import settings as django_settings
from django.db import connection, transaction
from django.test import Client

from accounts.models import CoinAccount
from accounts.services import wallet_admin_adjust
from games.models import Match, MatchEvent, Seat, Table
from games.rules import get_game
from games.services import tables
from tests.support.live import (
    ORIGIN,
    Closed,
    Sock,
    card_codes,
    cookie_headers,
    settle,
    start_table,
)

pytestmark = [pytest.mark.django_db(transaction=True)]


async def _open(table_id, player):
    return await Sock.open(table_id, await sync_to_async(cookie_headers)(player))


def _logged_in(player) -> tuple[Client, list[tuple[bytes, bytes]]]:
    """A browser logged in as the player, and the socket headers of its session."""
    client = Client()
    client.force_login(player.user)
    name = django_settings.SESSION_COOKIE_NAME
    cookie = f"{name}={client.cookies[name].value}"
    return client, [*ORIGIN, (b"cookie", cookie.encode())]


# --- 1. A socket's role follows its player -------------------------------------------------


async def test_a_socket_kept_open_after_standing_up_never_sees_the_next_players_cards(
    alice, bob, carol, dave, eve
):
    """Pass: alice's socket, opened as seat 1 and kept open after she stood up, receives only the
    spectator view once carol holds seat 1 and the match starts (no card of carol's hand in any
    frame, and its state says seat null); carol, who never opened the page, shows as absent."""
    table = await sync_to_async(tables.table_create)(
        creator=bob, game="classic_joker", options={}, stake=0, visibility="public"
    )
    await sync_to_async(tables.table_join)(player=alice, table_id=table.pk)
    kept = await _open(table.pk, alice)
    assert kept.state["seat"] == 1 and kept.state["status"] == "open"
    await sync_to_async(tables.table_leave)(player=alice, table_id=table.pk)
    await kept.until(lambda f: f["type"] == "state" and f["seat"] is None)
    await sync_to_async(tables.table_join)(player=carol, table_id=table.pk)  # seat 1 again
    await sync_to_async(tables.table_join)(player=dave, table_id=table.pk)
    await sync_to_async(tables.table_join)(player=eve, table_id=table.pk)
    started = await kept.until(lambda f: f["type"] == "state" and f["status"] == "playing")
    assert started["seat"] is None and "hand" not in started["view"]
    await asyncio.sleep(0.2)
    await kept.drain()
    seat_one = await sync_to_async(Seat.objects.get)(table_id=table.pk, position=1)
    assert seat_one.player_id == carol.pk and seat_one.connected is False
    carols_cards = await _match_hand(table.pk, 1)
    for frame in kept.frames:
        assert frame.get("seat") in (None, 1)
        if frame["type"] == "state" and frame["status"] == "playing":
            assert frame["seat"] is None
            assert not card_codes(frame) & carols_cards, frame
    await kept.close()


@sync_to_async
def _match_hand(table_id, position) -> set[str]:
    match = Match.objects.get(table_id=table_id)
    state = get_game(match.game).from_dict(match.state)
    return set(state.view(position)["hand"])


async def test_presence_counts_a_players_own_sockets_not_a_seat_numbers(
    alice, bob, carol, dave, eve
):
    """Pass: a socket alice opened as seat 1 before standing up does not make bob, who took
    seat 1, connected when the match starts; bob's own socket does."""
    table = await sync_to_async(tables.table_create)(
        creator=carol, game="classic_joker", options={}, stake=0, visibility="public"
    )
    await sync_to_async(tables.table_join)(player=alice, table_id=table.pk)
    kept = await _open(table.pk, alice)
    await sync_to_async(tables.table_leave)(player=alice, table_id=table.pk)
    await kept.until(lambda f: f["type"] == "state" and f["seat"] is None)
    for player in (bob, dave, eve):
        await sync_to_async(tables.table_join)(player=player, table_id=table.pk)
    seat = await sync_to_async(Seat.objects.get)(table_id=table.pk, position=1)
    assert seat.player_id == bob.pk and seat.connected is False
    bobs = await _open(table.pk, bob)
    seat = await sync_to_async(Seat.objects.get)(table_id=table.pk, position=1)
    assert seat.connected is True and bobs.seat == 1
    await bobs.close()
    seat = await sync_to_async(Seat.objects.get)(table_id=table.pk, position=1)
    assert seat.connected is False  # alice's socket is still open, and counts for nobody
    await kept.close()


async def test_a_player_unseated_for_lack_of_coins_keeps_only_a_spectators_socket(alice, bob):
    """Pass: when the last seat fills and alice can no longer cover the stake, she is unseated
    and her open socket turns spectator at once (its next state says seat null)."""
    table = await sync_to_async(tables.table_create)(
        creator=alice, game="japanese_joker", options={}, stake=250, visibility="public"
    )
    sock = await _open(table.pk, alice)
    assert sock.seat == 0

    @sync_to_async
    def spend_alices_coins():
        wallet = CoinAccount.objects.get(player=alice)
        wallet_admin_adjust(
            wallet=wallet, amount=-wallet.balance, reason="test", admin=None, key="broke"
        )

    await spend_alices_coins()
    await sync_to_async(tables.table_join)(player=bob, table_id=table.pk)
    table = await sync_to_async(Table.objects.get)(pk=table.pk)
    assert table.status == Table.Status.OPEN and table.stood_up_for_stake_id == alice.pk
    frame = await sock.until(lambda f: f["type"] == "state" and f["seat"] is None)
    assert frame["status"] == "open"
    await sock.close()


# --- 5. Sessions on an open socket ----------------------------------------------------------


async def test_an_act_right_after_logout_is_refused_and_the_socket_closes(alice, bob):
    """Pass: after alice logs out in her browser, her open socket is closed with 4003 within
    2 s, and a move it sends meanwhile is not applied."""
    table = await sync_to_async(start_table)("japanese_joker", [alice, bob])
    client, headers = await sync_to_async(_logged_in)(alice)
    sock = await Sock.open(table.pk, headers)
    bob_sock = await _open(table.pk, bob)
    await sync_to_async(client.post)("/accounts/logout/")
    with pytest.raises(Closed) as closed:
        if sock.state["view"]["to_act"] == sock.seat:
            await sock.act(sock.state["view"]["legal"][0])
        await sock.until(lambda f: False, timeout=2)
    assert closed.value.code == 4003
    assert await sync_to_async(MatchEvent.objects.filter(match__table_id=table.pk).count)() == 0
    await bob_sock.close()


async def test_a_socket_whose_session_expired_cannot_act(alice, bob, settings):
    """Pass: a move sent on a socket whose session has passed its expiry date (between two
    heartbeats) is refused and the socket closed with 4003; the match is unchanged."""
    settings.SESSION_COOKIE_AGE = 2  # the sessions below expire two seconds after login
    table = await sync_to_async(start_table)("japanese_joker", [alice, bob])
    socks = {}
    for player in (alice, bob):
        sock = await _open(table.pk, player)
        socks[sock.seat] = sock
    mover = socks[socks[0].state["view"]["to_act"]]
    await asyncio.sleep(2.1)
    with pytest.raises(Closed) as closed:
        await mover.act(mover.state["view"]["legal"][0])
    assert closed.value.code == 4003
    assert (await sync_to_async(Match.objects.get)(table_id=table.pk)).version == 0
    for sock in socks.values():
        await sock.close()


async def test_a_password_change_closes_the_players_sockets(alice, bob):
    """Pass: changing alice's password closes her open sockets with 4003 within 2 s."""
    table = await sync_to_async(start_table)("japanese_joker", [alice, bob])
    sock = await _open(table.pk, alice)

    @sync_to_async
    def change_password():
        alice.user.set_password("a-new-horse-battery-7")
        alice.user.save()

    await change_password()
    with pytest.raises(Closed) as closed:
        await sock.until(lambda f: False, timeout=2)
    assert closed.value.code == 4003


# --- 7. Hostile frames ----------------------------------------------------------------------------


@pytest.mark.parametrize("bad_id", ["nul\x00id", "\ud800", "tab\tid", "é"])
async def test_an_action_id_that_is_not_printable_ascii_is_refused_at_the_edge(alice, bob, bad_id):
    """Pass: an act whose id holds a NUL, a lone surrogate, a control or a non-ASCII character
    is answered with ``bad_message`` and never reaches the database; the socket stays open."""
    table = await sync_to_async(start_table)("japanese_joker", [alice, bob])
    sock = await _open(table.pk, alice)
    escaped = json.dumps(bad_id)  # NUL and a lone surrogate as JSON escapes them
    frame = '{"type": "act", "version": 0, "id": ID, "action": {"type": "trump", "suit": "H"}}'
    await sock.communicator.send_to(text_data=frame.replace("ID", escaped))
    error = await sock.until(lambda f: f["type"] == "error")
    assert error["code"] == "bad_message" and error["id"] is None
    await sock.send({"type": "ping"})
    assert (await sock.until(lambda f: f["type"] == "pong"))["version"] == 0
    await sock.close()


# --- 10. One slow lock stalls only its own table --------------------------------------------


@pytest.mark.postgres
async def test_a_table_whose_match_row_is_locked_does_not_hold_up_another_table(
    alice, bob, carol, dave
):
    """Pass: while table A's match row is locked by another transaction, table B's socket gets
    its ``sync`` answered and a move applied, before the lock on A is released."""
    table_a = await sync_to_async(start_table)("japanese_joker", [alice, bob])
    table_b = await sync_to_async(start_table)("japanese_joker", [carol, dave])
    socks_b = {}
    for player in (carol, dave):
        sock = await _open(table_b.pk, player)
        socks_b[sock.seat] = sock
    locked = threading.Event()
    release = threading.Event()

    def hold_lock():
        with transaction.atomic():
            list(Match.objects.select_for_update().filter(table_id=table_a.pk))
            locked.set()
            release.wait(timeout=10)
        connection.close()

    holder = threading.Thread(target=hold_lock)
    holder.start()
    try:
        assert await asyncio.get_running_loop().run_in_executor(None, locked.wait, 5)
        # A socket of table A registers: its database work waits on A's lock, in the pool.
        opening_a = asyncio.ensure_future(_open(table_a.pk, alice))
        await asyncio.sleep(0.2)
        assert not opening_a.done()
        mover = socks_b[socks_b[0].state["view"]["to_act"]]
        await mover.send({"type": "sync"})
        await mover.until(lambda f: f["type"] == "state")
        answer = await mover.act(mover.state["view"]["legal"][0])
        assert answer["type"] == "ack"
        assert not release.is_set()
    finally:
        release.set()
        holder.join()
    a_sock = await opening_a
    await settle(table_b.pk, list(socks_b.values()))
    for sock in [*socks_b.values(), a_sock]:
        await sock.close()
