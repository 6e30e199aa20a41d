"""Moderation as services and in the admin: a report lands with the table's chat log, escaped;
a moderator mutes until a time or bans (the account is deactivated, the seat forfeits)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.template.loader import render_to_string
from django.utils import timezone

from core.errors import ServiceError
from games.models import Match, Seat, Table
from games.services import tables
from games.services.matches import match_cancel
from social.models import Report, Sanction
from social.selectors import match_chat
from social.services import blocks, chat, moderation
from tests.support.live import start_table
from tests.support.matches import every_seat_moves
from tests.support.players import client_for, untick_active_in_the_user_admin

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client):
    user = get_user_model().objects.create_superuser("moderator", "m@example.com", "pw-123456")
    client.force_login(user)
    return client


def test_a_report_of_a_player_carries_the_match_and_the_admin_shows_the_chat_log(
    alice, bob, admin_client
):
    table = start_table("japanese_joker", [alice, bob])
    chat.chat_send(table_id=table.pk, player=bob, text="<script>alert(1)</script>")
    chat.chat_send(table_id=table.pk, player=alice, phrase="sorry")
    report = moderation.report_create(reporter=alice, table_id=table.pk, player_id=bob.pk)
    again = moderation.report_create(reporter=alice, table_id=table.pk, player_id=bob.pk)
    assert again.pk == report.pk and report.match == Match.objects.get(table=table)
    listing = admin_client.get("/admin/social/report/").content.decode()
    assert "alice" in listing and "bob" in listing
    page = admin_client.get(f"/admin/social/report/{report.pk}/change/").content.decode()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "<script>alert(1)" not in page
    assert "Sorry" in page


def test_a_report_names_someone_at_the_table_and_not_oneself(alice, bob, carol):
    table = start_table("japanese_joker", [alice, bob])
    with pytest.raises(ServiceError, match="not at this table"):
        moderation.report_create(reporter=alice, table_id=table.pk, player_id=carol.pk)
    with pytest.raises(ServiceError, match="yourself"):
        moderation.report_create(reporter=alice, table_id=table.pk, player_id=alice.pk)
    with pytest.raises(ServiceError, match="log in"):
        moderation.report_create(reporter=None, table_id=table.pk, player_id=bob.pk)
    # A spectator who chatted may be reported too.
    chat.chat_send(table_id=table.pk, player=carol, text="hi")
    assert moderation.report_create(reporter=alice, table_id=table.pk, player_id=carol.pk)


def test_a_mute_ends_at_its_time(alice, bob):
    table = start_table("japanese_joker", [alice, bob])
    now = timezone.now()
    moderation.chat_mute(player=bob, until=now + timedelta(minutes=30))
    with pytest.raises(ServiceError) as error:
        chat.chat_send(table_id=table.pk, player=bob, phrase="thanks", now=now)
    assert error.value.code == "chat_muted"
    assert chat.chat_send(
        table_id=table.pk, player=bob, phrase="thanks", now=now + timedelta(minutes=31)
    )
    with pytest.raises(ServiceError, match="future"):
        moderation.chat_mute(player=bob, until=now - timedelta(minutes=1))


def test_the_admin_mutes_and_bans_from_a_report(alice, bob, admin_client):
    table = start_table("japanese_joker", [alice, bob])
    message = chat.chat_send(table_id=table.pk, player=bob, text="rude")
    report = moderation.report_create(reporter=alice, table_id=table.pk, message_id=message.pk)
    admin_client.post(
        "/admin/social/report/", {"action": "mute_for_a_day", "_selected_action": [report.pk]}
    )
    mute = Sanction.objects.get(kind="mute")
    assert mute.player == bob and mute.report == report and mute.by.username == "moderator"
    assert timedelta(hours=23) < mute.until - timezone.now() <= timedelta(days=1)
    report.refresh_from_db()
    assert report.status == Report.Status.RESOLVED
    admin_client.post(
        "/admin/social/report/", {"action": "ban_reported", "_selected_action": [report.pk]}
    )
    bob.user.refresh_from_db()
    assert not bob.user.is_active
    seat = Seat.objects.get(table=table, player=bob)
    # Nobody had moved yet: the ban's forfeit aborts the match (docs/rules/README.md § 0.6).
    assert seat.forfeited and Match.objects.get(table=table).status == Match.Status.ABORTED


def test_the_admin_adds_a_mute_until_a_time_and_refuses_one_in_the_past(bob, admin_client):
    until = (timezone.now() + timedelta(hours=2)).strftime("%Y-%m-%d %H:%M:%S")
    fields = {"player": bob.pk, "kind": "mute", "reason": "spam"}
    past = (timezone.now() - timedelta(hours=2)).strftime("%Y-%m-%d %H:%M:%S")
    response = admin_client.post(
        "/admin/social/sanction/add/",
        {**fields, "until_0": past[:10], "until_1": past[11:]},
    )
    assert response.status_code == 200 and not Sanction.objects.exists()
    response = admin_client.post(
        "/admin/social/sanction/add/", {**fields, "until_0": until[:10], "until_1": until[11:]}
    )
    assert response.status_code == 302
    assert Sanction.objects.get().until.strftime("%H:%M") == until[11:16]


def test_a_ban_frees_a_seat_at_an_open_table(alice, bob):
    table = tables.table_create(
        creator=alice, game="classic_joker", options={}, stake=0, visibility="public"
    )
    tables.table_join(player=bob, table_id=table.pk)
    moderation.account_ban(player=bob, reason="spam")
    assert not Seat.objects.filter(player=bob).exists()
    assert Table.objects.get(pk=table.pk).status == Table.Status.OPEN
    assert Sanction.objects.get().kind == Sanction.Kind.BAN


def test_the_replays_chat_has_both_channels_once_over_less_the_viewers_blocks(alice, bob, eve):
    table = start_table("japanese_joker", [alice, bob])
    match = Match.objects.get(table=table)
    chat.chat_send(table_id=table.pk, player=alice, phrase="good_luck")
    chat.chat_send(table_id=table.pk, player=eve, text="<i>go bob</i>")
    assert match_chat(match=match) == []  # still being played: the socket's business
    match_cancel(match_id=match.pk)
    match.refresh_from_db()
    lines = match_chat(match=match)
    assert [(line.name, line.channel, line.text) for line in lines] == [
        ("alice", "players", "Good luck"),
        ("eve", "spectators", "<i>go bob</i>"),
    ]
    blocks.block_player(blocker=bob, blocked_id=eve.pk)
    assert [line.name for line in match_chat(match=match, viewer=bob)] == ["alice"]
    html = render_to_string("social/_match_chat.html", {"chat_lines": lines})
    assert "&lt;i&gt;go bob&lt;/i&gt;" in html and "eve (watching)" in html
    # On the match's own page, through MATCH_PAGE_PANELS (games never imports social).
    page = client_for(alice).get(f"/matches/{match.pk}/").content.decode()
    assert 'id="match-chat"' in page and "&lt;i&gt;go bob&lt;/i&gt;" in page


def test_deactivating_the_user_in_the_user_admin_forfeits_the_seat_too(alice, bob, admin_client):
    table = start_table("japanese_joker", [alice, bob])
    every_seat_moves(table)  # the match has begun: a forfeit now ends it with a winner
    untick_active_in_the_user_admin(admin_client, bob)
    assert Seat.objects.get(table=table, player=bob).forfeited
    assert Match.objects.get(table=table).status == Match.Status.FINISHED
