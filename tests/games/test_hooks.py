"""The hooks games offers the apps built on it (games/hooks.py): an app that names its own in
the settings (as a tournament app will) hears of every start, forfeit and end of a match exactly
once, whatever caused it, and a join check it names refuses a seat."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.services import user_deactivate
from core.errors import ServiceError
from games.models import Match, Seat, Table
from games.services import bots, moves, presence, rematch, tables
from games.services.matches import engine_state, match_cancel
from social.models import Forfeit
from tests.support import hooks
from tests.support.live import start_table
from tests.support.matches import every_seat_moves

pytestmark = pytest.mark.django_db


@pytest.fixture
def heard(settings):
    """What the recorder heard; social keeps its own forfeit hook beside it."""
    settings.GAMES_MATCH_STARTED = ["tests.support.hooks.started"]
    settings.GAMES_SEAT_FORFEITED = [
        *settings.GAMES_SEAT_FORFEITED,
        "tests.support.hooks.forfeited",
    ]
    settings.GAMES_MATCH_ENDED = ["tests.support.hooks.ended"]
    hooks.CALLS.clear()
    yield hooks.CALLS
    hooks.CALLS.clear()


def test_each_start_is_heard_once_however_the_seats_filled(heard, alice, bob, carol):
    joined = start_table("japanese_joker", [alice, bob])
    practice = bots.practice_start(player=carol, game="classic_joker", strength="easy")
    assert heard == [
        ("started", Match.objects.get(table=joined).pk, 2),
        ("started", Match.objects.get(table=practice).pk, 4),
    ]


def test_a_rematch_is_a_start_heard_once(heard, alice, bob):
    table = start_table("japanese_joker", [alice, bob])
    moves.match_leave(table_id=table.pk, player=alice)  # nobody had moved: aborted
    heard.clear()
    for player in (alice, bob, bob):  # the late acceptance changes nothing
        rematch.rematch_accept(table_id=table.pk, player=player)
    new = Table.objects.get(rematch_of=table)
    assert heard == [("started", Match.objects.get(table=new).pk, 2)]


def test_a_leave_is_one_forfeit_and_one_end(heard, alice, bob):
    table = start_table("japanese_joker", [alice, bob])
    match = every_seat_moves(table)
    heard.clear()
    moves.match_leave(table_id=table.pk, player=alice)
    with pytest.raises(ServiceError):
        moves.match_leave(table_id=table.pk, player=alice)
    assert heard == [("forfeited", match.pk, 0, "left"), ("ended", match.pk, "finished")]
    assert Forfeit.objects.get().reason == "left"  # social's hook beside it, once too


def test_the_sweeps_forfeit_of_an_absent_seat_is_heard_once(heard, alice, bob):
    table = start_table("japanese_joker", [alice, bob])  # no socket open: every seat is away
    match = every_seat_moves(table)
    waiting = engine_state(Match.objects.get(pk=match.pk)).to_act
    heard.clear()
    later = timezone.now() + timedelta(hours=1)
    assert presence.live_sweep(now=later)["forfeits"] == 1
    assert presence.live_sweep(now=later)["forfeits"] == 0
    assert heard == [("forfeited", match.pk, waiting, "absent"), ("ended", match.pk, "finished")]


def test_classic_joker_goes_on_after_each_forfeit_and_ends_once(heard, alice, bob, carol, dave):
    table = start_table("classic_joker", [alice, bob, carol, dave])
    match = every_seat_moves(table)
    heard.clear()
    for player in (bob, carol, dave, alice):  # the last person leaving ends it
        moves.match_leave(table_id=table.pk, player=player)
    assert heard == [
        ("forfeited", match.pk, 1, "left"),
        ("forfeited", match.pk, 2, "left"),
        ("forfeited", match.pk, 3, "left"),
        ("forfeited", match.pk, 0, "left"),
        ("ended", match.pk, "finished"),
    ]


def test_an_early_forfeit_and_an_admin_cancel_each_end_a_match_once(heard, alice, bob, carol, dave):
    early = Match.objects.get(table=start_table("japanese_joker", [alice, bob]))
    cancelled = Match.objects.get(table=start_table("japanese_joker", [carol, dave]))
    heard.clear()
    moves.match_leave(table_id=early.table_id, player=bob)  # before every seat moved: aborted
    assert match_cancel(match_id=cancelled.pk) and not match_cancel(match_id=cancelled.pk)
    assert heard == [
        ("forfeited", early.pk, 1, "left"),
        ("ended", early.pk, "aborted"),
        ("ended", cancelled.pk, "aborted"),
    ]


def test_a_deactivated_players_forfeit_is_heard_once(heard, alice, bob):
    table = start_table("japanese_joker", [alice, bob])
    match = every_seat_moves(table)
    heard.clear()
    user_deactivate(user=bob.user)
    user_deactivate(user=bob.user)
    assert heard == [("forfeited", match.pk, 1, "banned"), ("ended", match.pk, "finished")]


def test_a_join_check_named_in_the_settings_refuses_every_way_to_a_seat(settings, alice, bob):
    table = tables.table_create(
        creator=alice, game="japanese_joker", options={}, stake=0, visibility="public"
    )
    settings.GAMES_JOIN_CHECKS = ["tests.support.hooks.closed_for_a_tournament"]
    with pytest.raises(ServiceError, match="closed for the tournament") as refused:
        tables.table_join(player=bob, table_id=table.pk)
    assert refused.value.code == "closed"
    assert not Seat.objects.filter(player=bob).exists()
    with pytest.raises(ServiceError, match="closed for the tournament"):
        bots.practice_start(player=bob, game="japanese_joker", strength="easy")
