"""Switching an account off is one service (``accounts.services.user_deactivate``), whatever
asks for it: the user admin's "Active" box or its action, a moderator's ban. The player's seat
is given up at an open table and forfeited in a running match, and every socket they hold
closes with 4003. No save of a user, a login's included, looks for it any more."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async as sync_to_async  # closes its connections
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from config.asgi import application
from games.models import Match, Seat, Table
from games.services import tables
from social.models import Forfeit
from social.services import moderation
from tests.support.live import Closed, Sock, cookie_headers, start_table
from tests.support.matches import every_seat_moves
from tests.support.players import untick_active_in_the_user_admin


def _moderator() -> Client:
    user = get_user_model().objects.create_superuser("moderator", "m@example.com", "pw-123456")
    client = Client()
    client.force_login(user)
    return client


def _open_table(creator, *others):
    table = tables.table_create(
        creator=creator, game="classic_joker", options={}, stake=0, visibility="public"
    )
    for player in others:
        tables.table_join(player=player, table_id=table.pk)
    return table


@pytest.mark.django_db
def test_the_user_admins_action_frees_an_open_seat_and_forfeits_a_running_one(
    alice, bob, carol, dave
):
    running = start_table("japanese_joker", [alice, bob])
    every_seat_moves(running)  # begun: the forfeit decides the match
    waiting = _open_table(carol, dave)
    users = [bob.user.pk, dave.user.pk]
    answer = _moderator().post(
        "/admin/auth/user/", {"action": "deactivate", "_selected_action": users}, follow=True
    )
    assert "Deactivated 2 account(s)." in answer.content.decode()
    assert not get_user_model().objects.filter(pk__in=users, is_active=True).exists()
    assert Seat.objects.get(table=running, player=bob).forfeited
    assert Match.objects.get(table=running).status == Match.Status.FINISHED
    assert Forfeit.objects.get(player=bob).reason == "banned"
    assert not Seat.objects.filter(player=dave).exists()
    assert Table.objects.get(pk=waiting.pk).status == Table.Status.OPEN  # carol still waits


@pytest.mark.django_db
def test_a_ban_frees_an_open_seat_and_forfeits_a_running_one(alice, bob, carol, dave):
    running = start_table("japanese_joker", [alice, bob])
    every_seat_moves(running)
    _open_table(carol, dave)
    moderation.account_ban(player=bob, reason="cheating")
    moderation.account_ban(player=dave, reason="spam")
    assert Seat.objects.get(table=running, player=bob).forfeited
    assert Match.objects.get(table=running).status == Match.Status.FINISHED
    assert not Seat.objects.filter(player=dave).exists()
    assert (
        not get_user_model()
        .objects.filter(pk__in=[bob.user.pk, dave.user.pk])
        .filter(is_active=True)
    )


@pytest.mark.django_db(transaction=True)
async def test_unticking_active_in_the_user_admin_closes_every_socket_with_4003(alice, bob):
    table = await sync_to_async(start_table)("japanese_joker", [alice, bob])
    mine = await Sock.open(table.pk, await sync_to_async(cookie_headers)(alice))
    theirs = await Sock.open(table.pk, await sync_to_async(cookie_headers)(bob))
    lobby = WebsocketCommunicator(
        application, "/ws/lobby/", headers=await sync_to_async(cookie_headers)(alice)
    )
    assert (await lobby.connect(timeout=10))[0]
    assert (await lobby.receive_json_from(timeout=5))["type"] == "lobby"
    moderator = await sync_to_async(_moderator)()
    await sync_to_async(untick_active_in_the_user_admin)(moderator, alice)
    with pytest.raises(Closed) as closed:
        await mine.until(lambda frame: False, timeout=2)
    assert closed.value.code == 4003
    lobby_closed = await lobby.receive_output(timeout=2)
    assert lobby_closed == {"type": "websocket.close", "code": 4003}
    over = await theirs.until(lambda frame: frame["type"] == "match_over")
    assert over["result"]["forfeited"] == [mine.seat]  # nobody had moved: aborted, alice's
    await theirs.close()


@pytest.mark.django_db
def test_a_login_reads_the_user_once_and_writes_it_once(alice):
    """The deactivation signal read the user row again on every save, so on every login."""
    with CaptureQueriesContext(connection) as login:
        answer = Client().post(
            "/accounts/login/", {"login": "alice", "password": "correct-horse-9"}
        )
    assert answer.status_code == 302
    user_rows = [q["sql"] for q in login.captured_queries if '"auth_user"' in q["sql"]]
    assert [sql.split()[0] for sql in user_rows] == ["SELECT", "UPDATE"]
    user = get_user_model().objects.get(pk=alice.user.pk)
    with CaptureQueriesContext(connection) as save:
        user.save()
    assert len(save.captured_queries) == 1
