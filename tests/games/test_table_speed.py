"""A table's speed (issue 28 § 1): chosen when the table is opened, shown and filtered in the
lobby (the page and its socket), kept by a rematch, and the clocks of its match."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async as sync_to_async  # closes its connections
from channels.testing import WebsocketCommunicator

from config.asgi import application
from core.errors import ServiceError
from games.models import Match, Seat, Table
from games.services import moves, rematch, tables
from games.services.lobby import lobby_entry
from tests.support.live import ORIGIN, Sock, cookie_headers, start_table
from tests.support.players import client_for

SPEEDS = {"fast": (12, 30), "normal": (30, 90), "relaxed": (75, 180)}


@pytest.fixture(autouse=True)
def _preset_clocks(settings):
    """The presets' documented numbers, whatever the environment says (an operator may change
    them; what is tested here is that each table reads its own)."""
    settings.FAST_TURN_SECONDS, settings.FAST_BANK_SECONDS = SPEEDS["fast"]
    settings.TURN_SECONDS, settings.BANK_SECONDS = SPEEDS["normal"]
    settings.RELAXED_TURN_SECONDS, settings.RELAXED_BANK_SECONDS = SPEEDS["relaxed"]


def open_table(creator, *, game: str = "japanese_joker", **kwargs) -> Table:
    params = {"options": {}, "stake": 0, "visibility": "public"}
    params.update(kwargs)
    return tables.table_create(creator=creator, game=game, **params)


def create_post(speed: str | None) -> dict[str, str]:
    data = {"stake": "0", "visibility": "public", "points": "21"}
    if speed is not None:
        data["speed"] = speed
    return data


# --- Opening a table -----------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_create_form_offers_each_speed_with_its_clocks_and_normal_first_chosen(alice):
    page = client_for(alice).get("/tables/new/japanese_joker/")
    html = page.content.decode()
    assert page.status_code == 200
    assert "Fast · 12 s + 30 s bank" in html
    assert "Normal · 30 s + 90 s bank" in html
    assert "Relaxed · 75 s + 180 s bank" in html
    assert 'type="radio" name="speed" value="normal" id="id_speed_1" checked' in html
    form = page.context["form"]
    assert form.fields["speed"].initial == "normal"
    assert [value for value, _ in form.fields["speed"].choices] == ["fast", "normal", "relaxed"]


@pytest.mark.django_db
@pytest.mark.parametrize("speed", list(SPEEDS))
def test_a_table_opened_through_the_page_keeps_the_speed_chosen(alice, speed):
    response = client_for(alice).post("/tables/new/japanese_joker/", create_post(speed))
    table = Table.objects.get()
    assert response["Location"] == f"/tables/{table.pk}/"
    assert table.speed == speed
    page = client_for(alice).get(response["Location"]).content.decode()
    turn, bank = SPEEDS[speed]
    assert f"{turn} s + {bank} s bank" in page  # the table's header names it


@pytest.mark.django_db
def test_a_form_posted_without_a_speed_opens_a_normal_table(alice):
    client_for(alice).post("/tables/new/japanese_joker/", create_post(None))
    assert Table.objects.get().speed == "normal"


@pytest.mark.django_db
def test_a_bad_speed_through_the_page_is_refused_with_a_message_and_nothing_is_made(alice):
    response = client_for(alice).post("/tables/new/japanese_joker/", create_post("ludicrous"))
    assert response.status_code == 400
    errors = response.context["form"].errors["speed"]
    assert errors and "ludicrous" in errors[0]  # "Select a valid choice. ludicrous is not …"
    assert "ludicrous is not one of the available choices" in response.content.decode()
    assert not Table.objects.exists() and not Seat.objects.exists()


@pytest.mark.django_db
def test_the_service_refuses_a_bad_speed_with_its_own_words_and_makes_nothing(alice):
    with pytest.raises(ServiceError) as refused:
        open_table(alice, speed="ludicrous")
    assert refused.value.code == "bad_speed"
    assert str(refused.value) == "Choose Fast, Normal or Relaxed."
    assert not Table.objects.exists() and not Seat.objects.exists()


@pytest.mark.django_db
def test_callers_that_name_no_speed_open_a_normal_table_and_a_match_takes_its_tables(
    alice, bob, carol
):
    assert open_table(alice).speed == "normal"  # practice, scripts, the bench
    table = start_table("japanese_joker", [bob, carol], speed="relaxed")
    assert Match.objects.get(table=table).speed == "relaxed"


# --- The lobby -----------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_lobby_entry_carries_the_speed_its_name_and_its_clocks(alice):
    entry = lobby_entry(open_table(alice, speed="fast"))
    assert entry["speed"] == "fast"
    assert entry["speed_title"] == "Fast"
    assert entry["speed_clocks"] == "12 s + 30 s bank"


@pytest.mark.django_db
def test_the_lobby_page_shows_each_tables_speed_and_filters_by_it(alice, bob, carol):
    open_table(alice, speed="fast")
    open_table(bob, speed="relaxed", game="japanese_whist")
    open_table(carol, speed="fast", game="classic_joker", stake=25)
    client = client_for(alice)

    fast = client.get("/?speed=fast")
    assert sorted(t["game"] for t in fast.context["tables"]) == ["classic_joker", "japanese_joker"]
    assert fast.context["table_count"] == 2
    html = fast.content.decode()
    assert 'data-speed="fast" title="12 s + 30 s bank">Fast</span>' in html
    assert '<option value="fast" selected>Fast</option>' in html  # the filter shows its choice

    relaxed = client.get("/?speed=relaxed").context["tables"]
    assert [(t["game"], t["speed"]) for t in relaxed] == [("japanese_whist", "relaxed")]
    assert client.get("/?speed=normal").context["tables"] == []
    # With the other filters, and a bad value ignored like theirs: the whole lobby.
    both = client.get("/?speed=fast&stake=25").context["tables"]
    assert [t["game"] for t in both] == ["classic_joker"]
    assert len(client.get("/?speed=ludicrous").context["tables"]) == 3
    assert len(client.get("/").context["tables"]) == 3


@pytest.mark.django_db
def test_the_lobby_pages_next_link_keeps_the_speed(alice, bob, carol, settings):
    settings.LOBBY_PAGE_SIZE = 1
    older = open_table(alice, speed="fast")
    open_table(bob, speed="normal")
    newer = open_table(carol, speed="fast")
    first = client_for(alice).get("/?speed=fast")
    assert [t["id"] for t in first.context["tables"]] == [newer.pk]
    query = first.context["more_query"]
    assert "speed=fast" in query
    second = client_for(alice).get(f"/?{query}")
    assert [t["id"] for t in second.context["tables"]] == [older.pk]


async def _lobby(path: str, headers) -> WebsocketCommunicator:
    socket = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await socket.connect()
    assert connected
    return socket


async def _next(socket: WebsocketCommunicator, kind: str, table_id: int) -> dict:
    for _ in range(20):
        message = await socket.receive_json_from(timeout=5)
        about = message["table"]["id"] if message["type"] == "table" else message.get("id")
        if message["type"] == kind and about == table_id:
            return message
    raise AssertionError(f"no {kind} for table {table_id}")


@pytest.mark.django_db(transaction=True)
async def test_the_lobby_socket_filters_by_speed_and_pages_within_it(alice, bob, carol, settings):
    settings.LOBBY_PAGE_SIZE = 1
    older = await sync_to_async(open_table)(alice, speed="relaxed")
    await sync_to_async(open_table)(bob, speed="fast")
    newer = await sync_to_async(open_table)(carol, speed="relaxed")

    socket = await _lobby("/ws/lobby/?speed=relaxed", ORIGIN)
    snapshot = await socket.receive_json_from(timeout=10)
    assert snapshot["type"] == "lobby"
    assert [t["id"] for t in snapshot["tables"]] == [newer.pk]
    assert snapshot["count"] == 2 and snapshot["more"] is True
    assert snapshot["tables"][0]["speed"] == "relaxed"
    assert snapshot["tables"][0]["speed_clocks"] == "75 s + 180 s bank"
    await socket.send_json_to({"type": "more", "before": newer.pk})
    page = await socket.receive_json_from(timeout=10)
    assert page["type"] == "tables" and [t["id"] for t in page["tables"]] == [older.pk]
    assert page["more"] is False
    await socket.disconnect()

    # With the game filter beside it; a nonsense speed is ignored like a nonsense stake.
    socket = await _lobby("/ws/lobby/?game=japanese_joker&speed=fast", ORIGIN)
    assert (await socket.receive_json_from(timeout=10))["count"] == 1
    await socket.disconnect()
    socket = await _lobby("/ws/lobby/?speed=warp", ORIGIN)
    assert (await socket.receive_json_from(timeout=10))["count"] == 3
    await socket.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_live_lobby_events_carry_the_speed_in_the_readers_language(alice, bob, dave):
    """A published entry is shared by every lobby socket: each reader gets the speed's words in
    its own language, and a table's removal names its speed so a filtered page can count it."""
    english = await _lobby("/ws/lobby/?speed=fast", ORIGIN)
    await english.receive_json_from(timeout=10)
    headers = await sync_to_async(cookie_headers)(dave)
    russian_headers = [
        (name, value + b"; django_language=ru" if name == b"cookie" else value)
        for name, value in headers
    ]
    russian = await _lobby("/ws/lobby/", russian_headers)
    await russian.receive_json_from(timeout=10)

    table = await sync_to_async(open_table)(alice, speed="fast")
    seen = (await _next(english, "table", table.pk))["table"]
    assert (seen["speed"], seen["speed_title"], seen["speed_clocks"]) == (
        "fast",
        "Fast",
        "12 s + 30 s bank",
    )
    seen_ru = (await _next(russian, "table", table.pk))["table"]
    assert (seen_ru["speed"], seen_ru["speed_title"]) == ("fast", "Быстрая")
    assert seen_ru["speed_clocks"] == "12 с + запас 30 с"

    await sync_to_async(tables.table_join)(player=bob, table_id=table.pk)
    gone = await _next(english, "table_removed", table.pk)
    assert (gone["status"], gone["speed"]) == ("playing", "fast")
    for socket in (english, russian):
        await socket.disconnect()


# --- The match -----------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_rematch_keeps_the_speed(alice, bob):
    table = start_table("japanese_joker", [alice, bob], speed="fast")
    moves.match_leave(table_id=table.pk, player=alice)  # nobody had moved: aborted, over
    for player in (alice, bob):
        rematch.rematch_accept(table_id=table.pk, player=player)
    new = Table.objects.get(rematch_of=table)
    assert new.speed == "fast"
    assert new.status == Table.Status.PLAYING
    assert Match.objects.get(table=new).speed == "fast"


@pytest.mark.django_db(transaction=True)
async def test_a_fast_tables_match_starts_with_fast_clocks_and_every_bank_whole(alice, bob):
    """Both players have the table open when it starts, so nobody is absent: every bank is
    whole and still, and the clocks are the Fast preset's."""
    table = await sync_to_async(open_table)(alice, speed="fast")
    socks = [
        await Sock.open(table.pk, await sync_to_async(cookie_headers)(player))
        for player in (alice, bob)
    ]
    assert socks[0].state["clocks"]["speed"] == "fast"  # the open table's frame says it too
    # bob watches until he sits down: the last seat taken starts the match.
    await sync_to_async(tables.table_join)(player=bob, table_id=table.pk)
    for sock in socks:
        started = await sock.until(lambda f: f["type"] == "state" and f["status"] == "playing")
        clocks = started["clocks"]
        assert (clocks["speed"], clocks["turn_seconds"], clocks["bank_seconds"]) == ("fast", 12, 30)
        assert clocks["turn_on_bank"] is False and clocks["turn_deadline"]
        assert [seat["bank_ms"] for seat in started["seats"]] == [30_000, 30_000]
        assert [seat["bank_deadline"] for seat in started["seats"]] == [None, None]
    for sock in socks:
        await sock.close()
