"""Matches that start where a test needs them: from an explicit deal, or a few moves into a
seeded one, instead of playing a whole match through sockets to reach one situation.

The table is made and filled through the table service (so stakes, seats and clocks are what
play sets up); only the engine state is then replaced. A match made from a deal is therefore
not replayable from its seed: keep whole-match tests for the replay and for end-to-end proofs.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from django.db import transaction

from accounts.models import Player
from games.models import Match
from games.rules import get_game
from tests.support.live import start_table


def match_at(
    game: str,
    players: list[Player],
    *,
    deal: Mapping[str, Any] | None = None,
    moves: int = 0,
    options: Mapping[str, Any] | None = None,
    stake: int = 0,
    seed: int = 0,
) -> Match:
    """A started match whose state is ``deal`` (an engine ``from_deal`` deal) when given, then
    ``moves`` random legal actions further on (chosen by ``seed``)."""
    table = start_table(game, players, options=dict(options or {}), stake=stake)
    engine = get_game(game)
    rng = random.Random(seed)
    with transaction.atomic():
        match = Match.objects.select_for_update().get(table=table)
        match.table = table  # so async tests can read it without a query
        if deal:
            state = engine.from_deal(dict(deal), match.options)
        else:
            state = engine.from_dict(match.state)
        for _ in range(moves):
            state = state.apply(rng.choice(state.legal_actions()))
        if deal or moves:
            stored = state.to_dict()
            stored["seed"] = match.state["seed"]  # later deals come from the match's own seed
            match.state = stored
            match.version += 1
            match.save(update_fields=["state", "version"])
    return match
