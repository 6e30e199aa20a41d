"""Matches played to their end through the real services, for the ladder's tests.

Each service call here runs what its commit would run (the rating task among it, eager in
tests), also inside a test's transaction: ``committed`` hands the on-commit callbacks over.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, TypeVar

from django.test import TestCase

from accounts.models import Player
from games.models import Match, Seat, Table
from games.services import moves, tables
from games.services.matches import engine_state, table_seats
from tests.support.matches import every_seat_moves

T = TypeVar("T")


def committed(service: Callable[..., T], **kwargs: Any) -> T:
    """Call a service and run its on-commit work, as its commit would."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        return service(**kwargs)


def open_table(game: str, players: list[Player], *, rated: bool = True, **options) -> Table:
    """A table whose match has started: the first player opens it, the others join."""
    table = committed(
        tables.table_create,
        creator=players[0],
        game=game,
        options=options,
        stake=0,
        visibility="public",
        rated=rated,
    )
    for player in players[1:]:
        committed(tables.table_join, player=player, table_id=table.pk)
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    return table


def forfeit(table: Table, leaver: Player) -> Match:
    """Every seat makes a move (before that, leaving aborts the match: docs/rules/README.md
    § 0.6), then the leaver walks out: a forfeit; in the two-player games that ends it."""
    every_seat_moves(table)
    committed(moves.match_leave, table_id=table.pk, player=leaver)
    return Match.objects.get(table=table)


def beats(winner: Player, loser: Player, game: str = "japanese_joker", **kwargs) -> Match:
    """A finished two-player match the winner won (the loser left)."""
    match = forfeit(open_table(game, [winner, loser], **kwargs), loser)
    assert match.status == Match.Status.FINISHED
    return match


def play_to_the_end(
    table: Table, rng: random.Random, *, leaver: Player | None = None, leave_after: int = 0
) -> Match:
    """Random legal moves for every person until the match ends; ``leaver`` walks out after
    ``leave_after`` moves and a computer plays their seat from then on."""
    played = 0
    while True:
        match = Match.objects.get(table=table)
        if match.status != Match.Status.PLAYING:
            return match
        seats = table_seats(table.pk)
        if leaver is not None and played >= leave_after:
            committed(moves.match_leave, table_id=table.pk, player=leaver)
            leaver = None
            continue
        state = engine_state(match)
        seat: Seat = seats[state.to_act]
        if seat.is_bot or seat.forfeited:
            committed(moves.play_bot_turn, match_id=match.pk, version=match.version)
            continue
        committed(
            moves.match_act,
            table_id=table.pk,
            player=seat.player,
            version=match.version,
            action=rng.choice(state.legal_actions()),
            client_action_id=f"move-{match.version}",
        )
        played += 1
