"""Computer players at the site: practice tables, seat fillers, forfeit takeovers, suggestions.

Celery runs eagerly here (config/settings/test.py) with no pause, so a computer's move is played
as soon as the commit that made it the computer's turn is done, through the same task and move
service the worker runs.
"""

from __future__ import annotations

import random

import pytest
from channels.db import database_sync_to_async as sync_to_async
from django.test import Client

from accounts.models import CoinAccount, CoinTransaction
from core.errors import ServiceError
from games.bots import easy
from games.models import ComputerPlayer, Match, MatchEvent, Seat, Table
from games.rules import get_game
from games.services import bots as bot_services
from games.services import moves, tables
from ladder.models import Rating, RatingChange
from tests.support.live import Sock, cookie_headers, start_table
from tests.support.matches import every_seat_moves
from tests.support.players import client_for

pytestmark = [pytest.mark.django_db(transaction=True)]


def state_of(table: Table):
    match = Match.objects.get(table=table)
    return match, get_game(match.game).from_dict(match.state)


def play_person_to_end(table: Table, person) -> Match:
    """The person plays the easy bot's move whenever it is their turn, the computers answer."""
    seat = Seat.objects.get(table=table, player=person).position
    for step in range(3000):
        match, state = state_of(table)
        if match.status != Match.Status.PLAYING:
            return match
        assert state.to_act == seat, "the computers left the person waiting"
        moves.match_act(
            table_id=table.pk,
            player=person,
            version=match.version,
            action=easy.choose(state.view(seat)),
            client_action_id=f"m{step}",
        )
    raise AssertionError("the match did not end")


def test_play_the_computer_starts_a_free_casual_table_at_once(alice):
    table = bot_services.practice_start(player=alice, game="japanese_joker", strength="strong")
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    assert table.stake == 0 and not table.rated
    seats = list(table.seats.order_by("position"))
    assert [seat.is_bot for seat in seats] == [False, True]
    assert seats[1].bot_strength == "strong"
    assert ComputerPlayer.objects.filter(player=seats[1].player).exists()
    assert seats[1].player.user_id is None
    assert not table.is_rated(seats)


def test_a_practice_match_finishes_with_no_rating_and_no_coin(alice, bob):
    Rating.objects.all().delete()
    table = bot_services.practice_start(
        player=alice, game="japanese_joker", strength="easy", options={"points": 11}
    )
    match = play_person_to_end(table, alice)
    assert match.status == Match.Status.FINISHED
    assert MatchEvent.objects.filter(match=match, kind="bot").exists()
    assert not RatingChange.objects.exists()
    assert not Rating.objects.filter(player=alice).exists() or all(
        r.matches == 0 for r in Rating.objects.filter(player=alice)
    )
    assert not CoinTransaction.objects.filter(match_id=match.pk).exists()
    computer = table.seats.get(position=1).player
    assert not CoinAccount.objects.filter(player=computer).exists()


def test_a_guest_can_play_the_computer_from_the_lobby(guest_client):
    page = guest_client.get("/")
    assert b"Play the computer" in page.content
    response = guest_client.post("/practice/japanese_whist/", {"strength": "easy"})
    assert response.status_code == 302
    table = Table.objects.get()
    assert response["Location"] == f"/tables/{table.pk}/"
    assert table.status == Table.Status.PLAYING and not table.rated


def test_a_bad_strength_or_game_is_refused(alice):
    client = client_for(alice)
    assert client.post("/practice/chess/", {"strength": "easy"}).status_code == 404
    client.post("/practice/japanese_joker/", {"strength": "godlike"})
    assert not Table.objects.exists()
    with pytest.raises(ServiceError):
        bot_services.practice_start(player=alice, game="japanese_joker", strength="godlike")


def test_the_creator_adds_and_removes_computers_in_the_waiting_room(alice, bob):
    table = tables.table_create(
        creator=alice, game="classic_joker", options={}, stake=0, visibility="public"
    )
    client = client_for(alice)
    client.post(f"/tables/{table.pk}/computer/", {"strength": "strong"})
    client.post(f"/tables/{table.pk}/computer/", {"strength": "easy"})
    seats = list(table.seats.order_by("position"))
    assert [(s.position, s.is_bot, s.bot_strength) for s in seats] == [
        (0, False, ""),
        (1, True, "strong"),
        (2, True, "easy"),
    ]
    page = client.get(f"/tables/{table.pk}/")
    assert page.content.count(b'class="badge bot"') == 2
    assert b"Add computer player" in page.content
    client.post(f"/tables/{table.pk}/computer/remove/", {"position": 1})
    assert list(table.seats.order_by("position").values_list("position", "is_bot")) == [
        (0, False),
        (2, True),
    ]
    with pytest.raises(ServiceError) as refused:
        bot_services.seat_computer_add(player=bob, table_id=table.pk, strength="easy")
    assert refused.value.code == "not_creator"
    with pytest.raises(ServiceError) as refused:
        bot_services.seat_computer_remove(player=alice, table_id=table.pk, position=0)
    assert refused.value.code == "no_computer"
    tables.table_join(player=bob, table_id=table.pk)  # bob takes the lowest free seat, 1
    bot_services.seat_computer_add(player=alice, table_id=table.pk, strength="easy")
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING  # the last seat filled started the match
    assert not table.is_rated(table.seats.all())


def test_computers_sit_at_free_tables_only(alice):
    table = tables.table_create(
        creator=alice, game="japanese_joker", options={}, stake=25, visibility="public"
    )
    with pytest.raises(ServiceError) as refused:
        bot_services.seat_computer_add(player=alice, table_id=table.pk, strength="easy")
    assert refused.value.code == "computer_stake"


def test_the_creator_leaving_a_table_of_computers_closes_it(alice):
    table = tables.table_create(
        creator=alice, game="classic_joker", options={}, stake=0, visibility="public"
    )
    bot_services.seat_computer_add(player=alice, table_id=table.pk, strength="easy")
    tables.table_leave(player=alice, table_id=table.pk)
    table.refresh_from_db()
    assert table.status == Table.Status.CANCELLED
    assert not Seat.objects.filter(table=table, active=True).exists()


@pytest.mark.slow
def test_a_computer_identity_is_reused_once_its_table_is_over(alice, bob):
    first = bot_services.practice_start(player=alice, game="japanese_joker", strength="easy")
    play_person_to_end(first, alice)
    second = bot_services.practice_start(player=bob, game="japanese_joker", strength="easy")
    assert second.seats.get(position=1).player == first.seats.get(position=1).player
    assert ComputerPlayer.objects.count() == 1


@pytest.mark.slow
def test_an_easy_computer_takes_a_forfeited_classic_seat_and_the_match_finishes(
    alice, bob, carol, dave
):
    table = start_table("classic_joker", [alice, bob, carol, dave], options={"pulkas": "short"})
    every_seat_moves(table)  # before that, leaving aborts the match (§ 0.6)
    moves.match_leave(table_id=table.pk, player=bob)
    seat = Seat.objects.get(table=table, player=bob)
    assert seat.forfeited and seat.is_bot and seat.bot_strength == "easy"
    rng = random.Random(5)
    for step in range(3000):
        match, state = state_of(table)
        if match.status != Match.Status.PLAYING:
            break
        actor = Seat.objects.get(table=table, position=state.to_act)
        assert not actor.is_bot, "a computer seat was left waiting"
        moves.match_act(
            table_id=table.pk,
            player=actor.player,
            version=match.version,
            action=rng.choice(state.legal_actions()),
            client_action_id=f"m{step}",
        )
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.result["forfeited"] == [seat.position]
    assert MatchEvent.objects.filter(match=match, kind="bot", seat=seat.position).exists()
    places = get_game("classic_joker").from_dict(match.state).view(None)["ranking"]
    assert places[seat.position] == 4


@pytest.mark.slow
def test_a_four_seat_classic_table_with_one_person_and_three_computers_reaches_the_sheet(alice):
    table = bot_services.practice_start(
        player=alice, game="classic_joker", strength="easy", options={"pulkas": "short"}
    )
    match = play_person_to_end(table, alice)
    state = get_game("classic_joker").from_dict(match.state)
    assert state.is_over
    assert len(state.view(0)["sheet"]["rows"]) == 8  # every deal of the short format


@pytest.mark.slow
def test_the_strong_computer_plays_its_seat_through_the_task(alice):
    table = bot_services.practice_start(
        player=alice, game="japanese_whist", strength="strong", options={"points": 5}
    )
    match = play_person_to_end(table, alice)
    assert MatchEvent.objects.filter(match=match, kind="bot", seat=1).count() > 10


# --- Suggest ----------------------------------------------------------------------------------


async def _open(table_id: int, player) -> Sock:
    return await Sock.open(table_id, await sync_to_async(cookie_headers)(player))


async def _my_turn(sock: Sock) -> dict:
    """The socket's state once it is its seat's turn (the snapshot may already say so)."""

    def mine(frame: dict) -> bool:
        view = frame.get("view")
        return frame.get("type") == "state" and bool(view) and view["to_act"] == view["seat"]

    if sock.state and mine(sock.state):
        return sock.state
    return await sock.until(mine)


async def test_suggest_answers_the_asking_socket_once_a_turn_with_a_legal_action(alice):
    table = await sync_to_async(bot_services.practice_start)(
        player=alice, game="japanese_joker", strength="easy"
    )
    sock = await _open(table.pk, alice)
    frame = await _my_turn(sock)
    await sock.send({"type": "suggest", "version": frame["version"]})
    answer = await sock.until(lambda f: f.get("type") in ("suggestion", "error"))
    assert answer["type"] == "suggestion", answer
    assert answer["version"] == frame["version"]
    assert answer["action"] in frame["view"]["legal"]
    await sock.send({"type": "suggest", "version": frame["version"]})
    again = await sock.until(lambda f: f.get("type") == "error")
    assert again["code"] == "hint_used"
    await sock.close()


async def test_suggest_is_refused_at_a_table_of_people(alice, bob):
    table = await sync_to_async(start_table)("japanese_joker", [alice, bob])
    socks = {}
    for player in (alice, bob):
        sock = await _open(table.pk, player)
        socks[sock.seat] = sock
    match = await sync_to_async(Match.objects.get)(table=table)
    state = get_game("japanese_joker").from_dict(match.state)
    actor = socks[state.to_act]
    await actor.send({"type": "suggest", "version": match.version})
    answer = await actor.until(lambda f: f.get("type") == "error")
    assert answer["code"] == "no_computer"
    for sock in socks.values():
        await sock.close()


@pytest.mark.parametrize(
    "message",
    [
        {"type": "suggest"},
        {"type": "suggest", "version": "1"},
        {"type": "suggest", "version": 1, "x": 1},
    ],
)
async def test_a_malformed_suggest_is_a_bad_message(alice, message):
    table = await sync_to_async(bot_services.practice_start)(
        player=alice, game="japanese_joker", strength="easy"
    )
    sock = await _open(table.pk, alice)
    await sock.send(message)
    answer = await sock.until(lambda f: f.get("type") == "error")
    assert answer["code"] == "bad_message"
    await sock.close()


def test_the_lobby_offers_play_the_computer_for_every_game(alice):
    page = client_for(alice).get("/")
    for game in ("japanese_joker", "classic_joker", "japanese_whist"):
        assert f'action="/practice/{game}/"'.encode() in page.content


def test_a_visitor_without_a_player_cannot_start_a_practice_table(db):
    response = Client().post("/practice/japanese_joker/", {"strength": "easy"})
    assert response.status_code == 302
    assert not Table.objects.exists()


@pytest.mark.slow
def test_a_practice_rematch_starts_at_once_with_the_same_computers(alice):
    from games.services import rematch

    table = bot_services.practice_start(
        player=alice, game="japanese_joker", strength="strong", options={"points": 11}
    )
    play_person_to_end(table, alice)
    offer = rematch.rematch_accept(table_id=table.pk, player=alice, accept=True)
    new = Table.objects.get(pk=offer["table"])
    assert new.status == Table.Status.PLAYING
    seats = list(new.seats.order_by("position"))
    assert [(s.is_bot, s.bot_strength) for s in seats] == [(True, "strong"), (False, "")]


def test_suggest_is_not_given_for_a_computer_that_took_over_a_forfeited_seat(
    alice, bob, carol, dave
):
    table = start_table("classic_joker", [alice, bob, carol, dave], options={"pulkas": "nines"})
    every_seat_moves(table)  # before that, leaving aborts the match (§ 0.6)
    moves.match_leave(table_id=table.pk, player=bob)
    match, state = state_of(table)
    actor = Seat.objects.get(table=table, position=state.to_act)
    with pytest.raises(ServiceError) as refused:
        bot_services.hint_claim(player=actor.player, table_id=table.pk, version=match.version)
    assert refused.value.code == "no_computer"
