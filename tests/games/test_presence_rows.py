"""Who is at a table as a socket opens and closes (games.services.presence), read by the
statements written once (move_rows.present_players, core.rows.update): a seat turns present with
its player's first socket and absent with the last, anyone else's socket (a visitor's too)
marks the match watched, a server taken for dead no longer counts, and each change of presence
is numbered so that a client can tell the newer of two frames that arrive out of order."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from core.errors import ServiceError
from games.models import LiveServer, Match, Seat
from games.services import presence
from tests.support.live import published, start_table

pytestmark = pytest.mark.django_db


def _open(table, player, name, server="web-1"):
    return presence.socket_connect(
        table_id=table.pk, player=player, channel_name=name, server_name=server
    )


def _present(table) -> dict[int, bool]:
    return dict(Seat.objects.filter(table=table).values_list("player_id", "connected"))


def test_seats_turn_present_and_absent_with_their_players_sockets(alice, bob):
    table = start_table("japanese_joker", [alice, bob])
    assert _open(table, alice, "a1").seat is not None
    _open(table, alice, "a2")
    assert _present(table) == {alice.pk: True, bob.pk: False}
    presence.socket_disconnect(channel_name="a1")
    assert _present(table)[alice.pk]  # her second tab is still open
    presence.socket_disconnect(channel_name="a2")
    assert _present(table) == {alice.pk: False, bob.pk: False}


def test_a_visitor_or_another_player_watching_marks_the_match_watched(alice, bob, carol):
    table = start_table("japanese_joker", [alice, bob])
    _open(table, alice, "a1")
    assert not Match.objects.get(table=table).watched
    snapshot = _open(table, None, "visitor")
    assert snapshot.seat is None and "hand" not in snapshot.frame["view"]
    assert Match.objects.get(table=table).watched
    presence.socket_disconnect(channel_name="visitor")
    assert not Match.objects.get(table=table).watched
    _open(table, carol, "c1")
    assert Match.objects.get(table=table).watched


def test_sockets_of_a_server_that_stopped_beating_do_not_count(alice, bob):
    table = start_table("japanese_joker", [alice, bob])
    _open(table, alice, "a1", server="web-1")
    LiveServer.objects.filter(name="web-1").update(
        last_seen_at=timezone.now() - timedelta(minutes=5)
    )
    _open(table, bob, "b1", server="web-2")  # recomputed: alice's only socket is on web-1
    assert _present(table) == {alice.pk: False, bob.pk: True}


def test_a_process_makes_its_heartbeat_row_with_its_first_socket_and_again_after_a_sweep(
    alice, bob
):
    table = start_table("japanese_joker", [alice, bob])
    _open(table, alice, "a1", server="web-9")
    first = LiveServer.objects.get(name="web-9")
    assert list(first.connections.values_list("channel_name", flat=True)) == ["a1"]
    LiveServer.objects.filter(name="web-9").delete()  # the sweep took it for dead, sockets too
    assert _present(table)[alice.pk]  # not recomputed until a socket or the sweep looks again
    _open(table, alice, "a2", server="web-9")
    again = LiveServer.objects.get(name="web-9")
    assert again.pk != first.pk
    assert list(again.connections.values_list("channel_name", flat=True)) == ["a2"]
    assert _present(table) == {alice.pk: True, bob.pk: False}


def test_a_socket_makes_its_process_row_fresh_when_its_heartbeat_had_stopped(alice, bob, settings):
    """All of a process's sockets had closed, so its heartbeat stopped: the next socket beats
    for it, or the sweep would take the process for dead before its heartbeat starts again
    (and delete this socket's row with it)."""
    table = start_table("japanese_joker", [alice, bob])
    _open(table, alice, "a1", server="web-1")
    quiet = timezone.now() - timedelta(seconds=settings.LIVE_HEARTBEAT_SECONDS + 5)
    LiveServer.objects.filter(name="web-1").update(last_seen_at=quiet)
    _open(table, bob, "b1", server="web-1")
    assert LiveServer.objects.get(name="web-1").last_seen_at > quiet + timedelta(seconds=5)
    assert (
        presence.live_sweep(
            now=timezone.now() + timedelta(seconds=settings.LIVE_CONNECTION_STALE_SECONDS - 1)
        )["servers"]
        == 0
    )
    assert _present(table) == {alice.pk: True, bob.pk: True}


def test_a_stalled_process_counts_its_other_sockets_once_its_next_socket_beats_for_it(
    alice, bob, settings
):
    """Its beat was older than the sweep's cutoff: the sockets it still holds count again from
    the beat the new socket writes."""
    table = start_table("japanese_joker", [alice, bob])
    _open(table, alice, "a1", server="web-1")
    stalled = timezone.now() - timedelta(seconds=settings.LIVE_CONNECTION_STALE_SECONDS + 5)
    LiveServer.objects.filter(name="web-1").update(last_seen_at=stalled)
    _open(table, bob, "b1", server="web-1")
    assert _present(table) == {alice.pk: True, bob.pk: True}


def test_a_fresh_process_row_is_left_alone_by_its_sockets(alice, bob):
    """A storm of sockets does not queue on the one row: only an old beat is written again."""
    table = start_table("japanese_joker", [alice, bob])
    _open(table, alice, "a1", server="web-1")
    beat = LiveServer.objects.get(name="web-1").last_seen_at
    _open(table, bob, "b1", server="web-1")
    assert LiveServer.objects.get(name="web-1").last_seen_at == beat


def test_a_socket_for_a_table_that_does_not_exist_is_refused(alice):
    with pytest.raises(ServiceError) as refused:
        presence.socket_connect(
            table_id=10**9, player=alice, channel_name="x1", server_name="web-1"
        )
    assert refused.value.code == "no_table"


def _presence_frames(callbacks) -> list[dict]:
    """The presence frames the commit's callbacks publish, collected instead of sent."""
    frames = [json.loads(message["text"]) for _group, message in published(callbacks)]
    return [frame for frame in frames if frame["type"] == "presence"]


def test_a_reload_numbers_its_absence_and_return_in_the_order_they_committed(
    alice, bob, django_capture_on_commit_callbacks
):
    """A page reloaded: its old socket's close (absent) and its new socket's open (present)
    publish a frame each, from two sockets, at one match version. Whichever reaches a client
    last, the numbers say which is newer, and the new socket's snapshot carries the number of
    the presence it shows (docs/protocol.md § presence)."""
    table = start_table("japanese_joker", [alice, bob])
    _open(table, alice, "a1")
    _open(table, bob, "b1")
    with django_capture_on_commit_callbacks() as closing:
        presence.socket_disconnect(channel_name="a1")
    with django_capture_on_commit_callbacks() as opening:
        snapshot = _open(table, alice, "a2")
    (gone,) = _presence_frames(closing)
    (back,) = _presence_frames(opening)
    assert gone["version"] == back["version"] == snapshot.frame["version"]
    assert not gone["seats"][0]["connected"] and back["seats"][0]["connected"]
    assert gone["presence_version"] < back["presence_version"]
    assert snapshot.frame["presence_version"] == back["presence_version"]
    assert snapshot.frame["seats"][0]["connected"]
    assert Match.objects.get(table=table).presence_version == back["presence_version"]


def test_a_socket_that_changes_nothing_publishes_nothing_and_keeps_the_number(
    alice, bob, django_capture_on_commit_callbacks
):
    table = start_table("japanese_joker", [alice, bob])
    _open(table, alice, "a1")
    number = Match.objects.get(table=table).presence_version
    with django_capture_on_commit_callbacks() as opening:
        snapshot = _open(table, alice, "a2")  # a second tab: she was already here
    assert _presence_frames(opening) == []
    assert snapshot.frame["presence_version"] == number
    assert Match.objects.get(table=table).presence_version == number


def test_a_match_row_written_without_the_number_starts_at_zero(alice, bob, carol, dave):
    """A release's migration runs while the previous release's processes still serve: they
    start matches with no ``presence_version`` in their INSERT, and the database fills it in."""
    start_table("japanese_joker", [alice, bob])
    old = Match.objects.get(table=start_table("japanese_joker", [carol, dave]))
    columns = ", ".join(
        connection.ops.quote_name(field.column)
        for field in Match._meta.concrete_fields
        if field.name != "presence_version"
    )
    table = connection.ops.quote_name(Match._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"CREATE TEMPORARY TABLE before_release AS SELECT * FROM {table} WHERE id = %s",
            [old.pk],
        )
        Match.objects.filter(pk=old.pk).delete()
        cursor.execute(f"INSERT INTO {table} ({columns}) SELECT {columns} FROM before_release")
    assert Match.objects.get(pk=old.pk).presence_version == 0
