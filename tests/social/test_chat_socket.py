"""Table chat through the real table socket: who hears whom, presets and free text, the limits,
blocks, reports, and a ban closing the banned player's sockets at once."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async as sync_to_async
from django.conf import settings
from django.utils import timezone

from accounts.models import Player
from games.models import Match
from games.services import matches
from social.models import ChatMessage, Report
from social.services import blocks, moderation
from tests.support.live import ORIGIN, Closed, Sock, cookie_headers, start_table

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture
def table(alice, bob):
    return start_table("japanese_joker", [alice, bob], options={"points": 11})


async def _open(table_id, player, language=None):
    headers = await sync_to_async(cookie_headers)(player)
    if language:
        headers = [*headers, (b"accept-language", language.encode())]
    return await Sock.open(table_id, headers)


def _guest_headers(guest_client):
    cookie = (
        f"{settings.SESSION_COOKIE_NAME}={guest_client.cookies[settings.SESSION_COOKIE_NAME].value}"
    )
    return [*ORIGIN, (b"cookie", cookie.encode())]


async def _chat(sock, **line):
    await sock.send({"type": "chat", **line})


async def _line(sock):
    return await sock.until(lambda f: f["type"] in ("chat", "error"))


async def _silent(sock):
    """Nothing more reaches this socket (the other sockets' frames have all been delivered)."""
    await asyncio.sleep(0.2)
    await sock.drain()


def _chat_texts(sock):
    return [f["text"] for f in sock.frames if f["type"] == "chat"] + [
        line["text"] for f in sock.frames if f["type"] == "chat_history" for line in f["messages"]
    ]


async def test_players_hear_each_other_and_the_rail_hears_them(table, alice, bob, eve):
    a, b, watcher = (
        await _open(table.pk, alice),
        await _open(table.pk, bob),
        await _open(table.pk, eve),
    )
    await _chat(a, phrase="good_luck")
    for sock in (a, b, watcher):
        line = await _line(sock)
        assert line["phrase"] == "good_luck" and line["text"] == "Good luck"
        assert line["from"] == {"id": alice.pk, "name": "alice", "seat": a.seat}
        assert line["channel"] == "players"
    await _chat(b, text="  <b>thanks</b> & good luck  ")
    line = await _line(a)
    assert line["text"] == "<b>thanks</b> & good luck" and line["phrase"] is None
    stored = await sync_to_async(list)(
        ChatMessage.objects.order_by("pk").values_list("text", "match_id")
    )
    match_id = await sync_to_async(lambda: Match.objects.get(table=table).pk)()
    assert stored == [("", match_id), ("<b>thanks</b> & good luck", match_id)]
    for sock in (a, b, watcher):
        await sock.close()


async def test_a_spectators_line_never_reaches_a_player_during_the_match(table, alice, bob, eve):
    a, b = await _open(table.pk, alice), await _open(table.pk, bob)
    watcher = await _open(table.pk, eve)
    await _chat(watcher, text="alice holds the joker")
    line = await _line(watcher)
    assert line["channel"] == "spectators" and line["from"]["seat"] is None
    await _silent(a)
    await _silent(b)
    # A player's socket opened later gets the history without it, a spectator's with it.
    late = await _open(table.pk, alice)
    late_watcher = await _open(table.pk, eve)
    await _silent(late)
    history = await late_watcher.until(lambda f: f["type"] == "chat_history")
    assert [m["text"] for m in history["messages"]] == ["alice holds the joker"]
    for sock in (a, b, late):
        assert "alice holds the joker" not in _chat_texts(sock)
    # Once the match is over the rail's lines are everyone's.
    match = await sync_to_async(Match.objects.get)(table=table)
    await sync_to_async(matches.match_cancel)(match_id=match.pk)
    history = await a.until(lambda f: f["type"] == "chat_history")
    assert [m["text"] for m in history["messages"]] == ["alice holds the joker"]
    await _chat(watcher, phrase="well_played")
    assert (await _line(b))["phrase"] == "well_played"
    for sock in (a, b, watcher, late, late_watcher):
        await sock.close()


async def test_a_phrase_reads_in_each_readers_language(table, alice, bob):
    a, b = await _open(table.pk, alice), await _open(table.pk, bob, language="ka")
    await _chat(a, phrase="thanks")
    assert (await _line(a))["text"] == "Thanks"
    line = await _line(b)
    assert line["phrase"] == "thanks" and line["text"] not in ("", "Thanks")
    await a.close()
    await b.close()


async def test_guests_send_phrases_only_and_visitors_nothing(alice, guest_client, guest):
    table = await sync_to_async(start_table)("japanese_joker", [alice, guest])
    sock = await Sock.open(table.pk, await sync_to_async(_guest_headers)(guest_client))
    await _chat(sock, phrase="sorry")
    assert (await _line(sock))["text"] == "Sorry"
    await _chat(sock, text="hello")
    error = await _line(sock)
    assert error["type"] == "error" and error["code"] == "chat_guest"
    visitor = await Sock.open(table.pk, ORIGIN)
    await _chat(visitor, phrase="sorry")
    error = await _line(visitor)
    assert error["code"] == "chat_anonymous"
    await sock.close()
    await visitor.close()


@pytest.mark.parametrize(
    "line, reason",
    [
        ({"text": "x" * 201}, "at most 200"),
        ({"text": "   "}, "empty"),
        ({"text": "bell\x07"}, "control"),
        ({"text": 5}, "must be text"),
        ({"phrase": "gg_ez"}, "must be one of"),
        ({"phrase": ["thanks"]}, "must be one of"),
        ({"text": "\ud800"}, "control"),
        ({"phrase": "thanks", "text": "thanks"}, "one of them"),
        ({}, "one of them"),
        ({"text": "hi", "html": "<b>"}, "does not take html"),
    ],
)
async def test_a_bad_chat_line_is_refused_at_the_edge(table, alice, line, reason):
    sock = await _open(table.pk, alice)
    await _chat(sock, **line)
    error = await _line(sock)
    assert error["type"] == "error" and error["code"] == "bad_message"
    assert reason in error["message"]
    assert await sync_to_async(ChatMessage.objects.count)() == 0
    await sock.close()


async def test_the_sixth_line_in_ten_seconds_is_refused(table, alice, settings):
    sock = await _open(table.pk, alice)
    for number in range(settings.CHAT_RATE_COUNT):
        await _chat(sock, text=f"line {number}")
        assert (await _line(sock))["type"] == "chat"
    await _chat(sock, phrase="sorry")
    error = await _line(sock)
    assert error["code"] == "chat_rate" and "5 messages in 10 seconds" in error["message"]
    await sock.close()


async def test_a_muted_player_cannot_chat_until_the_mute_ends(table, alice):
    until = timezone.now() + timedelta(hours=1)
    await sync_to_async(moderation.chat_mute)(player=alice, until=until, reason="spam")
    sock = await _open(table.pk, alice)
    await _chat(sock, phrase="thanks")
    error = await _line(sock)
    assert error["code"] == "chat_muted" and "muted your chat until" in error["message"]
    await sock.close()


async def test_a_blocked_players_lines_never_reach_the_blocker(table, alice, bob, eve):
    await sync_to_async(blocks.block_player)(blocker=alice, blocked_id=bob.pk)
    a, b, watcher = (
        await _open(table.pk, alice),
        await _open(table.pk, bob),
        await _open(table.pk, eve),
    )
    await _chat(b, text="you will lose")
    assert (await _line(b))["text"] == "you will lose"
    assert (await _line(watcher))["text"] == "you will lose"
    await _silent(a)
    late = await _open(table.pk, alice)  # nor through the history
    await _silent(late)
    assert "you will lose" not in _chat_texts(a) + _chat_texts(late)
    await _chat(a, phrase="good_luck")  # the blocker may still speak
    assert (await _line(b))["phrase"] == "good_luck"
    for sock in (a, b, watcher, late):
        await sock.close()


async def test_a_report_of_a_message_lands_with_the_match(table, alice, bob):
    a, b = await _open(table.pk, alice), await _open(table.pk, bob)
    await _chat(b, text="rude words")
    line = await _line(a)
    await a.send({"type": "report", "message": line["id"], "reason": "insults"})
    answer = await a.until(lambda f: f["type"] in ("reported", "error"))
    assert answer["type"] == "reported"
    report = await sync_to_async(Report.objects.select_related("match", "message").get)()
    assert (report.reporter_id, report.reported_id, report.reason) == (alice.pk, bob.pk, "insults")
    assert report.message.text == "rude words" and report.match.table_id == table.pk
    await a.send({"type": "report", "player": alice.pk})
    assert (await a.until(lambda f: f["type"] == "error"))["code"] == "self"
    await a.send({"type": "report", "player": 999999})
    assert (await a.until(lambda f: f["type"] == "error"))["code"] == "no_player"
    await a.close()
    await b.close()


async def test_a_ban_closes_the_players_sockets_within_two_seconds_and_forfeits_the_seat(
    table, alice, bob
):
    a, b = await _open(table.pk, alice), await _open(table.pk, bob)
    await sync_to_async(moderation.account_ban)(player=bob, reason="cheating")
    with pytest.raises(Closed) as closed:
        await b.until(lambda f: False, timeout=2)
    assert closed.value.code == 4003
    over = await a.until(lambda f: f["type"] == "match_over")
    assert over["result"]["forfeited"] == [b.seat]
    assert not await sync_to_async(lambda: Player.objects.get(pk=bob.pk).user.is_active)()
    await a.close()
