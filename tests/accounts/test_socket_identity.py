"""Who a socket is, read once as it opens (accounts.sockets, core.websocket): the session the
site wrote reads back through the sockets' store, and its expiry comes with it."""

from __future__ import annotations

from django.contrib.sessions.models import Session
from django.test import Client

from accounts import services
from accounts.sockets import _identify
from core.websocket import SocketSessionMiddleware


def _socket_session(client: Client) -> object:
    """The session a socket opened with this browser's cookie would hold."""
    store = SocketSessionMiddleware(inner=None).store
    return store(client.cookies["sessionid"].value)


def test_a_guest_socket_finds_its_player_and_the_session_expiry_in_one_read(
    guest_client: Client, django_assert_num_queries
):
    session = _socket_session(guest_client)
    row = Session.objects.get(session_key=session.session_key)
    with django_assert_num_queries(2):  # the session row, then the player
        player, expiry = _identify(session)
    assert player is not None and player.pk == guest_client.session[services.SESSION_GUEST_KEY]
    assert expiry == row.expire_date


def test_a_logged_in_socket_reads_the_session_the_login_wrote(alice, client: Client):
    client.force_login(alice.user)
    player, expiry = _identify(_socket_session(client))
    assert player == alice
    assert expiry == Session.objects.get(session_key=client.session.session_key).expire_date


def test_a_socket_without_a_session_is_a_visitor(db):
    store = SocketSessionMiddleware(inner=None).store
    assert _identify(store(None)) == (None, None)
    assert _identify(store("no-such-session-key")) == (None, None)
