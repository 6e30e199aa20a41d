"""A blocked player cannot reach the blocker by any path: invitation, friend request, a seat at
their table (hidden in the lobby, refused on join), nor chat (tests/social/test_chat_socket.py);
the blocker sees a warning at a table where a blocked player already sits."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async as sync_to_async
from channels.testing import WebsocketCommunicator

from accounts.models import FriendRequest, Friendship
from accounts.services import friend_request_accept, friend_request_send
from config.asgi import application
from core.errors import ServiceError
from games import access, selectors
from games.services import invitations, tables
from social.models import Block
from social.services import blocks
from tests.support.live import cookie_headers
from tests.support.players import client_for

pytestmark = pytest.mark.django_db


def _befriend(first, second):
    request = friend_request_send(sender=first, username=second.name)
    friend_request_accept(player=second, request_id=request.pk)


def test_a_block_ends_the_friendship_and_the_open_requests(alice, bob, carol):
    _befriend(alice, bob)
    friend_request_send(sender=carol, username="alice")
    blocks.block_player(blocker=alice, blocked_id=bob.pk)
    blocks.block_player(blocker=alice, blocked_id=bob.pk)  # twice is once
    blocks.block_player(blocker=alice, blocked_id=carol.pk)
    assert not Friendship.objects.filter(player__in=[alice, bob]).exists()
    assert not FriendRequest.objects.filter(status=FriendRequest.Status.PENDING).exists()
    assert Block.objects.filter(blocker=alice).count() == 2


def test_a_blocked_player_cannot_send_the_blocker_a_friend_request(alice, bob):
    blocks.block_player(blocker=alice, blocked_id=bob.pk)
    with pytest.raises(ServiceError, match="alice is not taking requests from you") as error:
        friend_request_send(sender=bob, username="alice")
    assert error.value.code == "blocked"
    with pytest.raises(ServiceError, match="unblock them first"):
        friend_request_send(sender=alice, username="bob")
    blocks.unblock_player(blocker=alice, blocked_id=bob.pk)
    assert friend_request_send(sender=bob, username="alice").pk


def test_a_blocked_player_cannot_invite_the_blocker(alice, bob, carol):
    """Even while still friends (a block made after the friendship was checked is no excuse)."""
    _befriend(alice, bob)
    table = tables.table_create(
        creator=bob,
        game="japanese_joker",
        options={},
        stake=0,
        visibility="password",
        password="secret-1",
    )
    invitation = invitations.table_invite(inviter=bob, table_id=table.pk, friend_id=alice.pk)
    blocks.block_player(blocker=alice, blocked_id=bob.pk)
    assert not type(invitation).objects.filter(pk=invitation.pk).exists()  # withdrawn
    Friendship.objects.bulk_create(
        [Friendship(player=alice, friend=bob), Friendship(player=bob, friend=alice)]
    )
    with pytest.raises(ServiceError) as error:
        invitations.table_invite(inviter=bob, table_id=table.pk, friend_id=alice.pk)
    assert error.value.code == "blocked"


def test_the_blockers_table_is_hidden_from_the_blocked_and_refuses_their_seat(
    alice, bob, carol, dave
):
    table = tables.table_create(
        creator=alice, game="classic_joker", options={}, stake=0, visibility="public"
    )
    blocks.block_player(blocker=alice, blocked_id=bob.pk)
    assert table not in selectors.visible_open_tables(bob)
    assert table in selectors.visible_open_tables(carol)
    assert not access.may_see(bob, table)
    with pytest.raises(ServiceError, match="This table is not available") as error:
        tables.table_join(player=bob, table_id=table.pk)
    assert error.value.code == "not_available"
    # The blocker sitting down at someone else's table closes that one to the blocked too.
    other = tables.table_create(
        creator=carol, game="classic_joker", options={}, stake=0, visibility="public"
    )
    assert other in selectors.visible_open_tables(bob)
    tables.table_join(player=alice, table_id=table.pk)  # already seated: no change
    tables.table_leave(player=alice, table_id=table.pk)
    tables.table_join(player=alice, table_id=other.pk)
    assert other not in selectors.visible_open_tables(bob)
    with pytest.raises(ServiceError, match="not available"):
        tables.table_join(player=bob, table_id=other.pk)
    tables.table_join(player=dave, table_id=other.pk)  # anyone else may


def test_the_lobby_page_hides_it_and_the_table_page_says_there_is_none(alice, bob):
    table = tables.table_create(
        creator=alice, game="japanese_joker", options={}, stake=0, visibility="public"
    )
    blocks.block_player(blocker=alice, blocked_id=bob.pk)
    page = client_for(bob).get("/")
    assert f"/tables/{table.pk}/" not in page.content.decode()
    assert client_for(bob).get(f"/tables/{table.pk}/").status_code == 404


def test_a_blocked_player_already_seated_shows_the_blocker_a_warning(alice, bob):
    table = tables.table_create(
        creator=bob, game="classic_joker", options={}, stake=0, visibility="public"
    )
    blocks.block_player(blocker=alice, blocked_id=bob.pk)
    page = client_for(alice).get(f"/tables/{table.pk}/").content.decode()
    assert "You blocked bob" in page
    assert "You blocked" not in client_for(bob).get(f"/tables/{table.pk}/").content.decode()


def test_the_friends_page_lists_blocks_and_blocks_and_unblocks(alice, bob):
    client = client_for(alice)
    response = client.post("/friends/block/", {"name": "bob"}, follow=True)
    assert Block.objects.filter(blocker=alice, blocked=bob).exists()
    assert "bob" in response.content.decode() and "Unblock" in response.content.decode()
    response = client.post(f"/friends/blocks/{bob.pk}/remove/", follow=True)
    assert not Block.objects.exists()
    assert client.post("/friends/block/", {"name": "nobody"}, follow=True).status_code == 200
    assert not Block.objects.exists()


@pytest.mark.django_db(transaction=True)
async def test_a_lobby_socket_of_the_blocked_never_hears_of_the_blockers_table(alice, bob, carol):
    await sync_to_async(blocks.block_player)(blocker=alice, blocked_id=bob.pk)
    lobbies = {}
    for player in (bob, carol):
        headers = await sync_to_async(cookie_headers)(player)
        lobby = WebsocketCommunicator(application, "/ws/lobby/", headers=headers)
        assert (await lobby.connect())[0]
        assert (await lobby.receive_json_from(5))["type"] == "lobby"
        lobbies[player.name] = lobby
    table = await sync_to_async(tables.table_create)(
        creator=alice, game="japanese_joker", options={}, stake=0, visibility="public"
    )
    heard = await lobbies["carol"].receive_json_from(5)
    assert heard["type"] == "table" and heard["table"]["id"] == table.pk
    removed = await lobbies["bob"].receive_json_from(5)
    assert removed["type"] == "table_removed" and removed["id"] == table.pk
    for lobby in lobbies.values():
        await lobby.disconnect()


def test_a_profile_has_a_block_button_that_turns_into_unblock(alice, bob):
    client = client_for(alice)
    assert "Block bob" in client.get("/players/bob/").content.decode()
    client.post("/friends/block/", {"player": bob.pk})
    page = client.get("/players/bob/").content.decode()
    assert "Unblock bob" in page and "Block bob" not in page.replace("Unblock bob", "")
    assert "Block" not in client.get("/players/alice/").content.decode().split("Ratings")[0]
