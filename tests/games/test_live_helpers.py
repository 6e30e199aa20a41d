"""The live-play helpers keep their own promises (tests/support/live.py)."""

from __future__ import annotations

import random

import pytest
from channels.db import database_sync_to_async as sync_to_async

from games.models import Match
from tests.support.live import Sock, card_codes, cookie_headers, play_to_end, replay, start_table

pytestmark = [pytest.mark.django_db(transaction=True)]


def test_card_codes_finds_codes_in_values_keys_and_sentences_but_not_in_seeds():
    frame = {"hand": ["QH", "X1"], "message": "You hold TS.", "seed": "8d9c2f", "t": "12:00:00"}
    assert card_codes(frame) == {"QH", "X1", "TS"}


async def test_a_replay_from_seed_and_events_rebuilds_the_stored_state(alice, bob):
    table = await sync_to_async(start_table)("japanese_joker", [alice, bob], options={"points": 11})
    socks = {
        0: await Sock.open(table.pk, await sync_to_async(cookie_headers)(alice)),
        1: await Sock.open(table.pk, await sync_to_async(cookie_headers)(bob)),
    }
    await play_to_end(table.pk, socks, rng=random.Random(3), max_moves=30, stop=lambda n: n >= 25)
    match = await sync_to_async(Match.objects.get)(table_id=table.pk)
    states = await sync_to_async(replay)(match)
    assert states[match.version].to_dict() == match.state
    for sock in socks.values():
        await sock.close()
