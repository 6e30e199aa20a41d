"""Issue 40 § 1 through the real consumer, database and channel layer: a player in a running event
is taken to each of their tables from any page. The tournament socket says "match_started" at
once when it opens while the reader's table is being played (a page opened just after the
pairing is not left behind), and in its follow mode carries only that news; every page of such
a player follows the event; a tournament's table offers the next match instead of a rematch (and
refuses one); and a pairing that reached none of the player's pages is not charged as a forfeit.
"""

from __future__ import annotations

import asyncio
import re
from datetime import timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async as sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from config.asgi import application
from games.models import Match, Seat, Table
from games.services.presence import live_sweep
from social.models import Forfeit
from tests.support.ladder import committed, forfeit
from tests.support.live import Sock, cookie_headers
from tests.support.pages import shown
from tests.support.players import client_for
from tournaments.models import Tournament
from tournaments.services.entries import tournament_join, tournament_leave
from tournaments.services.running import tournament_start

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fast_clients")]


def _arena(*players) -> Tournament:
    tournament = Tournament.objects.create(
        name="Following arena",
        game="japanese_joker",
        speed="fast",
        starts_at=timezone.now(),
        duration_minutes=30,
        options={"points": 11},
    )
    for player in players:
        tournament_join(player=player, tournament_id=tournament.pk)
    return tournament


def _started(*players) -> tuple[Tournament, Table]:
    tournament = _arena(*players)
    committed(tournament_start, tournament_id=tournament.pk)
    link = tournament.tables.select_related("table").get()
    return tournament, link.table


async def _open(path: str, player) -> WebsocketCommunicator:
    headers = await sync_to_async(cookie_headers)(player)
    communicator = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await communicator.connect(timeout=10)
    assert connected
    return communicator


async def _next(communicator: WebsocketCommunicator) -> dict[str, Any]:
    return await communicator.receive_json_from(timeout=10)


async def test_a_socket_opened_while_the_readers_match_is_played_sends_them_there(
    alice, bob, carol
):
    """Pass: alice, whose table was paired before her page opened, hears its match_started right
    after the first standings; in follow mode right after ``following``, with no standings;
    carol, only watching, hears no match_started."""
    tournament, table = await sync_to_async(_started)(alice, bob)
    url = f"/tables/{table.pk}/"
    page = await _open(f"/ws/tournament/{tournament.pk}/", alice)
    assert (await _next(page))["type"] == "standings"
    assert await _next(page) == {"type": "match_started", "table": table.pk, "url": url}
    await page.disconnect()

    follower = await _open(f"/ws/tournament/{tournament.pk}/?follow=1", alice)
    assert await _next(follower) == {"type": "following", "tournament": tournament.pk}
    assert await _next(follower) == {"type": "match_started", "table": table.pk, "url": url}
    assert await follower.receive_nothing(timeout=0.5)
    await follower.disconnect()

    watcher = await _open(f"/ws/tournament/{tournament.pk}/", carol)
    assert (await _next(watcher))["type"] == "standings"
    assert await watcher.receive_nothing(timeout=0.5)
    await watcher.disconnect()


async def test_following_carries_the_next_pairing_and_no_standings(alice, bob, carol):
    """Pass: a follow socket opened before the start hears its player's match_started when the
    event pairs them, and not the standings frames the start and the entries make."""
    tournament = await sync_to_async(_arena)(alice, bob)
    follower = await _open(f"/ws/tournament/{tournament.pk}/?follow=1", alice)
    assert (await _next(follower))["type"] == "following"
    await sync_to_async(tournament_join)(player=carol, tournament_id=tournament.pk)
    await sync_to_async(committed)(tournament_start, tournament_id=tournament.pk)
    started = await _next(follower)
    table_id = await sync_to_async(
        lambda: (
            Seat.objects.get(player=alice, table__tournament_link__tournament=tournament).table_id
        )
    )()
    assert started == {"type": "match_started", "table": table_id, "url": f"/tables/{table_id}/"}
    assert await follower.receive_nothing(timeout=1.5)  # no standings, however many were said
    await follower.disconnect()


async def test_a_seat_is_told_when_a_page_hears_of_it_or_its_table_opens(alice, bob):
    """Pass: the seats an event gives start untold; alice's is told once her follow socket passed
    on the match_started, bob's once he opened the table."""
    tournament, table = await sync_to_async(_started)(alice, bob)

    def told() -> dict[int, bool]:
        return dict(Seat.objects.filter(table=table).values_list("player_id", "told"))

    assert await sync_to_async(told)() == {alice.pk: False, bob.pk: False}
    follower = await _open(f"/ws/tournament/{tournament.pk}/?follow=1", alice)
    await _next(follower)
    assert (await _next(follower))["type"] == "match_started"
    # The socket notes it just after passing the frame on: the row, within a deadline.
    deadline = asyncio.get_running_loop().time() + 10
    while not (seen := await sync_to_async(told)())[alice.pk]:
        assert asyncio.get_running_loop().time() < deadline, f"alice's seat still untold: {seen}"
        await asyncio.sleep(0.02)
    assert seen == {alice.pk: True, bob.pk: False}
    await follower.disconnect()
    sock = await Sock.open(table.pk, await sync_to_async(cookie_headers)(bob))
    assert await sync_to_async(told)() == {alice.pk: True, bob.pk: True}
    await sock.close()


def _absent_forfeits(tournament: Tournament, table: Table) -> list[Forfeit]:
    """Nobody opens the table: the sweep, an hour on, forfeits whoever's bank ran out first."""
    committed(live_sweep, now=timezone.now() + timedelta(hours=1))
    assert Match.objects.get(table=table).status != Match.Status.PLAYING
    forfeits = list(Forfeit.objects.filter(match__table=table))
    assert forfeits and all(f.reason == "absent" and f.serious for f in forfeits)
    return forfeits


def test_a_pairing_no_page_heard_of_is_not_charged_but_pauses(alice, bob):
    """Pass: with no page of theirs open, the players' absence forfeits are excused (no
    cool-down, no reputation), and the arena pauses them all the same."""
    tournament, table = _started(alice, bob)
    forfeits = _absent_forfeits(tournament, table)
    assert all(f.excused for f in forfeits)
    assert all(tournament.entrants.get(player_id=f.player_id).paused for f in forfeits), (
        "the arena pauses a player who did not come"
    )


async def test_a_pairing_a_page_heard_of_is_the_players_own_absence(alice, bob):
    """Pass: once their pages heard of the pairing, staying away is their own forfeit."""
    tournament, table = await sync_to_async(_started)(alice, bob)
    for player in (alice, bob):
        follower = await _open(f"/ws/tournament/{tournament.pk}/?follow=1", player)
        await _next(follower)
        assert (await _next(follower))["type"] == "match_started"
        await follower.disconnect()
    forfeits = await sync_to_async(_absent_forfeits)(tournament, table)
    assert not any(f.excused for f in forfeits)


async def test_a_tournament_table_refuses_a_rematch(alice, bob):
    """Pass: after a tournament's match, ``rematch`` on the table socket is refused with
    ``no_rematch`` and no table is opened."""
    _tournament, table = await sync_to_async(_started)(alice, bob)
    sock = await Sock.open(table.pk, await sync_to_async(cookie_headers)(alice))
    await sync_to_async(forfeit)(table, bob)
    await sock.until(lambda frame: frame["type"] == "match_over")
    await sock.send({"type": "rematch", "accept": True})
    refused = await sock.until(lambda frame: frame["type"] == "error")
    assert refused["code"] == "no_rematch"
    assert not await sync_to_async(Table.objects.filter(rematch_of=table).exists)()
    await sock.close()


def _follows(html: str) -> str | None:
    found = re.search(r'data-follow-tournament="(\d+)"', html)
    return found[1] if found else None


def test_every_page_of_a_player_in_a_running_event_follows_it(alice, bob, carol):
    """Pass: while alice is in the running arena, the ladder, her table and the lobby follow it;
    the event's own page does not (its socket does that); carol's pages do not; once alice
    left the event, hers no longer do."""
    tournament, table = _started(alice, bob)
    mine = client_for(alice)
    for path in ("/ladder/", f"/tables/{table.pk}/", "/", "/help/"):
        assert _follows(mine.get(path).content.decode()) == str(tournament.pk), path
    event_page = mine.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert _follows(event_page) is None and "tournament_live.js" in event_page
    assert _follows(client_for(carol).get("/ladder/").content.decode()) is None
    tournament_leave(player=alice, tournament_id=tournament.pk)
    assert _follows(mine.get("/ladder/").content.decode()) is None


def test_a_tournament_table_says_the_next_match_comes_by_itself(alice, bob):
    """Pass: the table page of an event's match gives the result dialog "Next match…" and the
    way back to the event (no rematch); the event's page tells an entrant their matches open by
    themselves and offers "Play" at their own table."""
    tournament, table = _started(alice, bob)
    mine = client_for(alice)
    page = shown(mine.get(f"/tables/{table.pk}/").content.decode())
    after = re.search(r'<div id="match-after"[^>]*>', page)
    assert after is not None
    assert f'data-href="/tournaments/{tournament.pk}/"' in after[0]
    assert 'data-label="Back to the tournament"' in after[0]
    assert 'data-rematch="no"' in after[0] and 'data-waiting="Next match…"' in after[0]
    event_page = shown(mine.get(f"/tournaments/{tournament.pk}/").content.decode())
    assert "Your matches open by themselves" in event_page
    entry = re.search(
        rf'<li class="playing-entry" data-table="{table.pk}" data-mine>.*?</li>', event_page, re.S
    )
    assert entry is not None and ">Play<" in entry[0] and "Watch" not in entry[0]
