"""Cool-downs for quitters: three counted forfeits in the window keep a player from the tables
for 10 minutes, then an hour, then a day; they expire; casual matches and the forfeits a dead or
stopped server caused never count. Reputation: completion and recent forfeits."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from core.errors import ServiceError
from games.models import LiveServer, Seat
from games.services import moves, presence, rematch, tables
from social.models import Cooldown, Forfeit, ServerLapse
from social.selectors import low_completion, reputation
from tests.support.live import start_table
from tests.support.matches import every_seat_moves
from tests.support.pages import shown
from tests.support.players import client_for

pytestmark = pytest.mark.django_db


def _quit(leaver, other, *, rated=True, now=None):
    """One rated (or casual) match that ``leaver`` leaves once both have moved (a forfeit; an
    abort, before that, counts the same: tests/games/test_aborts.py)."""
    table = tables.table_create(
        creator=other, game="japanese_joker", options={}, stake=0, visibility="public", rated=rated
    )
    tables.table_join(player=leaver, table_id=table.pk)
    every_seat_moves(table)
    moves.match_leave(table_id=table.pk, player=leaver, now=now)
    return table


def _age(player, delta):
    """Let ``delta`` pass for the player's record (forfeits and cool-downs move into the past)."""
    for forfeit in Forfeit.objects.filter(player=player):
        forfeit.created_at -= delta
        forfeit.save(update_fields=["created_at"])
    for cooldown in Cooldown.objects.filter(player=player):
        cooldown.created_at -= delta
        cooldown.until -= delta
        cooldown.save(update_fields=["created_at", "until"])


def _may_not_sit(player, other):
    table = tables.table_create(
        creator=other, game="japanese_joker", options={}, stake=0, visibility="public"
    )
    with pytest.raises(ServiceError) as error:
        tables.table_join(player=player, table_id=table.pk)
    tables.table_cancel(player=other, table_id=table.pk)
    return error.value


def test_three_quits_in_a_day_escalate_ten_minutes_an_hour_a_day_and_expire(alice, bob):
    for _ in range(2):
        _quit(alice, bob)
    assert not Cooldown.objects.exists()
    _quit(alice, bob)
    first = Cooldown.objects.get()
    assert (first.level, first.quits) == (0, 3)
    assert abs((first.until - first.created_at) - timedelta(minutes=10)) < timedelta(seconds=1)
    error = _may_not_sit(alice, bob)
    assert error.code == "cooldown"
    assert "You left or abandoned 3 rated or stake matches within 24 hours" in str(error)
    assert first.until.strftime("%Y-%m-%d %H:%M UTC") in str(error)
    with pytest.raises(ServiceError, match="cannot take a seat until"):
        tables.table_create(
            creator=alice, game="japanese_joker", options={}, stake=0, visibility="public"
        )
    # The lobby says why and until when.
    assert "cannot take a seat until" in client_for(alice).get("/").content.decode()
    _age(alice, timedelta(minutes=11))  # expired
    assert "cannot take a seat until" not in client_for(alice).get("/").content.decode()
    for _ in range(3):
        _quit(alice, bob)
    second = Cooldown.objects.order_by("-created_at").first()
    assert second.level == 1 and second.until - second.created_at == timedelta(hours=1)
    _age(alice, timedelta(minutes=61))
    for _ in range(3):
        _quit(alice, bob)
    third = Cooldown.objects.order_by("-created_at").first()
    assert third.level == 2 and third.until - third.created_at == timedelta(days=1)
    _age(alice, timedelta(days=1, minutes=1))
    for _ in range(3):
        _quit(alice, bob)
    assert Cooldown.objects.order_by("-created_at").first().level == 2  # a day is the top step
    # Long enough without one, and the next cool-down starts from the first step again.
    _age(alice, timedelta(days=8))
    for _ in range(3):
        _quit(alice, bob)
    assert Cooldown.objects.order_by("-created_at").first().level == 0


def test_the_window_rolls_and_casual_matches_never_count(alice, bob, settings):
    _quit(alice, bob)
    _quit(alice, bob)
    _age(alice, timedelta(hours=25))  # out of the window
    _quit(alice, bob)
    for _ in range(3):
        _quit(alice, bob, rated=False)
    assert not Cooldown.objects.exists()
    assert Forfeit.objects.filter(player=alice, serious=False).count() == 3
    settings.COOLDOWN_QUITS = 2  # every number is a setting
    _quit(alice, bob)
    assert Cooldown.objects.get().quits == 2


def _absent_forfeit(leaver, other, *, by_server, settings):
    """A rated match whose seat to act forfeits from absence: its player's sockets went with a
    server that died (``by_server``) or the player closed them."""
    settings.TURN_SECONDS = 3600  # only the absence bank runs out here
    table = start_table("japanese_joker", [other, leaver])
    match = every_seat_moves(table)  # begun: the absence ends in a forfeit, not an abort
    now = timezone.now()
    for player in (other, leaver):
        presence.socket_connect(
            table_id=table.pk,
            player=player,
            channel_name=f"c{player.pk}-{table.pk}",
            server_name="web-1",
        )
    if by_server:  # kill -9: the heartbeat stops, the sweep takes the server's sockets away
        LiveServer.objects.filter(name="web-1").update(last_seen_at=now - timedelta(minutes=5))
        presence.live_sweep(now=now)
        presence.socket_connect(
            table_id=table.pk,
            player=other,
            channel_name=f"d{other.pk}-{table.pk}",
            server_name="web-2",
        )  # the other player's browser reconnects to the restarted site; the leaver does not
    else:
        presence.socket_disconnect(channel_name=f"c{leaver.pk}-{table.pk}", now=now)
    position = Seat.objects.get(table=table, player=leaver).position
    Seat.objects.filter(table=table).exclude(position=position).update(bank_deadline=None)
    # Whichever seat the table waits on, the leaver's absence bank is the one that runs out.
    Seat.objects.filter(table=table, position=position).update(bank_deadline=now)
    later = now + timedelta(hours=1)
    LiveServer.objects.update(last_seen_at=later)  # the servers up now beat on
    presence.live_sweep(now=later)
    LiveServer.objects.all().delete()
    return Forfeit.objects.get(player=leaver, match=match)


def test_a_forfeit_after_the_server_died_is_excused_and_never_counts(alice, bob, settings):
    for _ in range(3):
        forfeit = _absent_forfeit(alice, bob, by_server=True, settings=settings)
        assert forfeit.reason == "absent" and forfeit.serious and forfeit.excused
    assert not Cooldown.objects.exists()
    rep = reputation(alice)  # not held against the player either: those matches count for nobody
    assert (rep.started, rep.completed, rep.completion) == (0, 0, None)


def test_the_players_own_absence_counts(alice, bob, settings):
    for _ in range(3):
        forfeit = _absent_forfeit(alice, bob, by_server=False, settings=settings)
        assert forfeit.reason == "absent" and not forfeit.excused
    assert Cooldown.objects.get(player=alice).level == 0


def test_coming_back_after_the_crash_makes_a_later_absence_the_players_own(alice, bob):
    table = start_table("japanese_joker", [bob, alice])
    presence.socket_connect(table_id=table.pk, player=alice, channel_name="a1", server_name="w1")
    LiveServer.objects.update(last_seen_at=timezone.now() - timedelta(minutes=5))
    presence.live_sweep()
    assert ServerLapse.objects.filter(player=alice, table=table).exists()
    presence.socket_connect(table_id=table.pk, player=alice, channel_name="a2", server_name="w2")
    assert not ServerLapse.objects.exists()


def test_a_player_with_a_live_socket_elsewhere_has_no_lapse(alice, bob):
    table = start_table("japanese_joker", [bob, alice])
    presence.socket_connect(table_id=table.pk, player=alice, channel_name="a1", server_name="w1")
    presence.socket_connect(table_id=table.pk, player=alice, channel_name="a2", server_name="w2")
    LiveServer.objects.filter(name="w1").update(last_seen_at=timezone.now() - timedelta(minutes=5))
    presence.live_sweep()
    assert not ServerLapse.objects.exists()


def test_a_cool_down_also_refuses_the_rematch(alice, bob):
    for _ in range(3):
        table = _quit(alice, bob)
    with pytest.raises(ServiceError) as error:
        rematch.rematch_accept(table_id=table.pk, player=alice)
    assert error.value.code == "cooldown"


def test_reputation_counts_completion_and_recent_forfeits(alice, bob, carol, settings):
    assert reputation(alice).completion is None and not reputation(alice).low
    _quit(alice, bob)
    _quit(carol, alice, rated=False)  # alice finished this one (carol left)
    rep = reputation(alice)
    assert (rep.started, rep.completed, rep.recent_forfeits) == (2, 1, 1)
    assert rep.completion == 0.5
    assert not rep.low  # fewer than REPUTATION_MIN_MATCHES
    for _ in range(3):
        _quit(carol, alice)
    assert reputation(alice).completion == 0.8 and reputation(alice).low is False
    _quit(alice, bob)
    assert reputation(alice).low  # 4 of 6
    assert low_completion([alice.pk, bob.pk, carol.pk]) == {alice.pk, carol.pk}
    _age(alice, timedelta(days=31))
    assert reputation(alice).recent_forfeits == 0


def test_the_profile_and_the_waiting_room_show_it(alice, bob, carol, dave):
    for _ in range(3):
        _quit(alice, bob, rated=False)
    page = client_for(bob).get("/players/alice/").content.decode()
    assert "Completion" in page and 'data-reputation="completion">0%' in page
    assert 'data-reputation="forfeits">3' in page
    table = tables.table_create(
        creator=dave, game="classic_joker", options={}, stake=0, visibility="public"
    )
    tables.table_join(player=alice, table_id=table.pk)
    assert "often leaves" in client_for(carol).get(f"/tables/{table.pk}/").content.decode()
    assert "often leaves" not in shown(client_for(carol).get("/").content.decode())  # dave's
    tables.table_leave(player=alice, table_id=table.pk)
    tables.table_create(
        creator=alice, game="classic_joker", options={}, stake=0, visibility="public"
    )
    assert "often leaves" in shown(client_for(carol).get("/").content.decode())
