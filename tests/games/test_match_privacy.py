"""While a match runs, no page and no socket shows its seed or a card its reader may not know;
every seat's frames carry the seed's commitment from the first one, and the end reveals the seed.
"""

from __future__ import annotations

import json
import random

import pytest
from channels.db import database_sync_to_async as sync_to_async
from django.contrib.auth import get_user_model
from django.test import Client

from games.models import Match
from games.rules import game_spec, get_game
from tests.support.live import (
    Sock,
    card_codes,
    cookie_headers,
    play_to_end,
    scan_hidden,
    start_table,
)
from tests.support.players import client_for, make_player

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fast_clients")]

GAMES = [
    ("japanese_joker", {"points": 11}),
    ("japanese_whist", {"points": 5}),
    ("classic_joker", {}),
    ("classic_joker", {"seats": 3, "pulkas": "short"}),  # CJ-29: the undealt cards hidden too
    ("classic_joker", {"seats": 2, "khishti": 0}),
]


def _pages(match: Match, viewer_name: str | None) -> list[str]:
    return [
        f"/tables/{match.table_id}/",
        "/matches/",
        f"/matches/?game={match.game}",
        f"/matches/{match.pk}/",
        f"/matches/{match.pk}/replay/",
        f"/matches/{match.pk}/export/",
        f"/matches/{match.pk}/?step=3",
        "/matches/?player=alice",
        "/players/alice/",
        f"/ladder/matches/{match.pk}/ratings/",
        "/",
    ]


@sync_to_async
def scan_pages(table_id: int, readers: dict[int | None, list[Client]]) -> int:
    """Every page a seat or an onlooker may open while the match runs: no seed, no hidden card."""
    match = Match.objects.get(table_id=table_id)
    state = get_game(match.game).from_dict(match.state)
    scanned = 0
    for seat, clients in readers.items():
        hidden = state.hidden_cards(seat)
        for client in clients:
            for url in _pages(match, None):
                response = client.get(url, follow=True)
                text = response.content.decode()
                assert match.seed not in text, (seat, url)
                leaked = card_codes(text) & hidden
                assert not leaked, f"seat {seat} saw {sorted(leaked)} on {url}"
                scanned += 1
    return scanned


@sync_to_async
def admin_client() -> Client:
    user = get_user_model().objects.create_superuser("root", "root@example.com", "pw-123456-x")
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.slow
@pytest.mark.parametrize(
    ("game", "options"), GAMES, ids=[g + str(o.get("seats", "")) for g, o in GAMES]
)
async def test_no_page_or_socket_shows_the_seed_or_a_hidden_card_of_a_running_match(game, options):
    seats = game_spec(game).seat_count(options)
    names = ["alice", "bob", "carol", "dave"][:seats]
    players = [await sync_to_async(make_player)(name) for name in names]
    eve = await sync_to_async(make_player)("eve")
    table = await sync_to_async(start_table)(game, players, options=options)
    socks = {
        n: await Sock.open(table.pk, await sync_to_async(cookie_headers)(p))
        for n, p in enumerate(players)
    }
    watcher = await Sock.open(table.pk, await sync_to_async(cookie_headers)(eve))
    visitor = await Sock.open(table.pk, await sync_to_async(cookie_headers)(None))
    await play_to_end(
        table.pk, socks, [watcher, visitor], rng=random.Random(6), stop=lambda n: n >= 30
    )
    match = await sync_to_async(Match.objects.get)(table_id=table.pk)
    assert match.status == Match.Status.PLAYING

    everyone = [*socks.values(), watcher, visitor]
    assert await scan_hidden(table.pk, everyone) > 30 * len(everyone)
    for sock in everyone:
        states = [f for f in sock.frames if f["type"] == "state"]
        assert states and all(f["seed_hash"] == match.seed_hash for f in states)
        assert all(match.seed not in json.dumps(f) for f in sock.frames)

    readers: dict[int | None, list[Client]] = {
        n: [await sync_to_async(client_for)(p)] for n, p in enumerate(players)
    }
    readers[None] = [
        await sync_to_async(client_for)(eve),
        Client(),
        await admin_client(),
    ]
    assert await scan_pages(table.pk, readers) == len(_pages(match, None)) * (seats + 3)
    admin_page = await sync_to_async(readers[None][2].get)(f"/admin/games/match/{match.pk}/change/")
    text = admin_page.content.decode()
    assert admin_page.status_code == 200 and match.seed_hash in text
    assert match.seed not in text
    assert not card_codes(text) & get_game(game).from_dict(match.state).hidden_cards(None)
    for sock in everyone:
        await sock.close()


@pytest.mark.slow
async def test_the_end_reveals_the_seed_on_the_socket_and_the_match_page():
    alice, bob = [await sync_to_async(make_player)(name) for name in ("alice", "bob")]
    table = await sync_to_async(start_table)("japanese_joker", [alice, bob], options={"points": 11})
    socks = {
        0: await Sock.open(table.pk, await sync_to_async(cookie_headers)(alice)),
        1: await Sock.open(table.pk, await sync_to_async(cookie_headers)(bob)),
    }
    await play_to_end(table.pk, socks, rng=random.Random(2))
    match = await sync_to_async(Match.objects.get)(table_id=table.pk)
    assert socks[0].state["result"]["seed"] == match.seed  # the final state frame
    ended = [f for f in socks[1].frames if f["type"] == "match_over"]
    over = ended[0] if ended else await socks[1].until(lambda f: f["type"] == "match_over")
    assert over["result"]["seed"] == match.seed
    page = await sync_to_async(Client().get)(f"/matches/{match.pk}/")
    assert page.status_code == 200 and match.seed in page.content.decode()
    for sock in socks.values():
        await sock.close()
