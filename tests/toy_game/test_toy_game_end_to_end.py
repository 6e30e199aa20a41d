"""Toy Tricks at the site, with nothing outside tests/toy_game naming it (issue 27 § 1's proof).

Through the real table socket two players play a match to its end while a spectator watches,
and no frame shows a card its reader may not know; computer players move at a table of it; the
match page and its replay answer with every card; the help page, the create form, the lobby row
and the table page (with its own renderer) come from the game's spec.
"""

from __future__ import annotations

import random

import pytest
from channels.db import database_sync_to_async as sync_to_async
from django.test import Client

from games.bots import easy
from games.models import Match, MatchEvent, Table
from games.rules import get_game
from games.services import bots as bot_services
from games.services import moves, tables
from tests.support.live import Sock, cookie_headers, play_to_end, scan_hidden, start_table
from tests.support.players import client_for

from .engine import NAME

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fast_clients")]


async def test_two_players_play_it_to_the_end_through_the_table_socket(alice, bob, eve):
    table = await sync_to_async(start_table)(NAME, [alice, bob], options={"points": 5})
    socks = {}
    for seat, player in enumerate((alice, bob)):
        socks[seat] = await Sock.open(table.pk, await sync_to_async(cookie_headers)(player))
    watcher = await Sock.open(table.pk, await sync_to_async(cookie_headers)(eve))
    assert socks[0].state["view"]["game"] == NAME and len(socks[0].state["view"]["hand"]) == 3
    moves_sent = await play_to_end(table.pk, socks, [watcher], rng=random.Random(27))
    everyone = [*socks.values(), watcher]
    for sock in everyone:
        await sock.until(lambda frame: frame["type"] == "match_over")
    assert await scan_hidden(table.pk, everyone) > moves_sent
    for sock in everyone:
        await sock.close()
    match = await sync_to_async(Match.objects.get)(table_id=table.pk)
    assert match.status == Match.Status.FINISHED and match.result["reason"] == "finished"
    assert max(match.result["scores"]) == 5  # TT-6: the first seat to the target


@pytest.mark.parametrize("strength", ["easy", "strong"])
def test_a_computer_player_moves_at_a_table_of_it(alice, strength):
    table = bot_services.practice_start(player=alice, game=NAME, strength=strength)
    for step in range(200):
        match = Match.objects.get(table=table)
        if match.status != Match.Status.PLAYING:
            break
        state = get_game(NAME).from_dict(match.state)
        assert state.to_act == 0, "the computer left the person waiting"
        moves.match_act(
            table_id=table.pk,
            player=alice,
            version=match.version,
            action=easy.choose(state.view(0)),
            client_action_id=f"m{step}",
        )
    assert match.status == Match.Status.FINISHED
    assert MatchEvent.objects.filter(match=match, kind="bot").exists()


def test_its_match_page_and_replay_answer_with_every_card(alice, bob):
    start_table(NAME, [alice, bob], options={"points": 3})
    match = Match.objects.get()
    rng = random.Random(3)
    while match.status == Match.Status.PLAYING:
        state = get_game(NAME).from_dict(match.state)
        seat = state.to_act
        moves.match_act(
            table_id=match.table_id,
            player=(alice, bob)[seat],
            version=match.version,
            action=rng.choice(state.legal_actions()),
            client_action_id=f"v{match.version}",
        )
        match.refresh_from_db()
    page = Client().get(f"/matches/{match.pk}/")
    assert page.status_code == 200 and "Toy Tricks" in page.content.decode()
    steps = Client().get(f"/matches/{match.pk}/replay/").json()["steps"]
    assert len(steps) == match.version + 1
    assert [len(hand) for hand in steps[0]["view"]["hands"]] == [3, 3]  # both hands, face up
    export = Client().get(f"/matches/{match.pk}/export/").json()
    assert len(export["deals"][0]["cards"]["undealt"]) == 6


@pytest.mark.parametrize("language", ["en", "ka"])
def test_its_help_page_is_its_own_template(client, language):
    client.cookies["django_language"] = language
    page = client.get(f"/help/{NAME}/").content.decode()
    assert "<h1>Rules of Toy Tricks</h1>" in page  # English: the only language it is written in
    assert '<article class="help-article" lang="en">' in page
    assert f'href="/help/{NAME}/" aria-current="page"' in page  # in the table of contents
    assert f'href="/help/{NAME}/"' in client.get("/help/").content.decode()


def test_the_lobby_lists_an_open_table_of_it_and_the_form_offers_its_options(alice, bob):
    form = client_for(alice).get(f"/tables/new/{NAME}/").content.decode()
    assert 'name="points"' in form and "Tricks to win" in form
    assert f'href="/help/{NAME}/"' in form
    tables.table_create(
        creator=alice, game=NAME, options={"points": 3}, stake=0, visibility="public"
    )
    lobby = client_for(bob).get("/")
    [entry] = lobby.context["tables"]
    assert entry["game_title"] == "Toy Tricks" and entry["options"] == ["Tricks to win: 3"]
    assert "Toy Tricks" in lobby.content.decode()
    georgian = client_for(bob)
    georgian.cookies["django_language"] = "ka"
    [entry] = georgian.get("/").context["tables"]  # its words come from its own catalogue
    assert entry["game_title"] == "სათამაშო ხელები" and entry["options"] == ["მოსაგები ხელები: 3"]


def test_the_table_page_loads_the_renderer_its_spec_names(alice, bob):
    table = start_table(NAME, [alice, bob])
    page = client_for(alice).get(f"/tables/{table.pk}/").content.decode()
    assert 'data-renderer="/static/toy_game/renderer.js"' in page
    script = Client().get("/static/toy_game/renderer.js")
    assert script.status_code == 200
    assert b"export default" in b"".join(script.streaming_content)
    assert Table.objects.get(pk=table.pk).status == Table.Status.PLAYING
