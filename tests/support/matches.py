"""Whole matches played through the services (no sockets), for the history and replay tests."""

from __future__ import annotations

import random
from datetime import timedelta

from django.utils import timezone

from accounts.models import Player
from games.models import Match, MatchEvent, Seat, Table
from games.services import moves, tables
from games.services.matches import engine_state


def start(game: str, players: list[Player], *, options=None, visibility: str = "public") -> Table:
    table = tables.table_create(
        creator=players[0], game=game, options=options or {}, stake=0, visibility=visibility
    )
    for player in players[1:]:
        tables.table_join(player=player, table_id=table.pk)
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    return table


def play_out(
    table: Table,
    rng: random.Random,
    *,
    forfeit: tuple[int, int] | None = None,
    timeouts: int = 0,
    max_moves: int = 5000,
    stop_after: int | None = None,
) -> Match:
    """Random legal moves until the match ends (or after ``stop_after`` moves).

    ``forfeit=(move, seat)``: that seat leaves at that move (a computer plays it on in classic
    Joker); ``timeouts``: that many turn clocks run out along the way, spread over the match."""
    match = Match.objects.get(table=table)
    for count in range(max_moves):
        match.refresh_from_db()
        if match.status != Match.Status.PLAYING or count == stop_after:
            return match
        seats = list(Seat.objects.filter(table=table).select_related("player").order_by("position"))
        if forfeit is not None and count == forfeit[0]:
            moves.match_leave(table_id=table.pk, player=seats[forfeit[1]].player)
            continue
        state = engine_state(match)
        seat = seats[state.to_act]
        if seat.is_bot or seat.forfeited:
            assert moves.play_bot_turn(match_id=match.pk, version=match.version)
        elif timeouts and count % 37 == 5:
            timeouts -= 1
            later = timezone.now() + timedelta(days=1)
            assert moves.play_due_turn(match_id=match.pk, version=match.version, now=later)
        else:
            moves.match_act(
                table_id=table.pk,
                player=seat.player,
                version=match.version,
                action=rng.choice(state.legal_actions()),
                client_action_id=f"m{count}",
            )
    raise AssertionError("the match did not end")


def every_seat_moves(table: Table, rng: random.Random | None = None) -> Match:
    """Random legal moves until each seat has made a move of its own (a person's ``act``, a
    computer's ``bot``): from then on a seat that leaves forfeits, where before it the match is
    aborted (docs/rules/README.md § 0.6)."""
    rng = rng or random.Random(0)
    while True:
        match = Match.objects.get(table=table)
        seats = list(Seat.objects.filter(table=table).select_related("player").order_by("position"))
        moved = set(
            MatchEvent.objects.filter(match=match, kind__in=("act", "bot")).values_list(
                "seat", flat=True
            )
        )
        if match.status != Match.Status.PLAYING or len(moved) == len(seats):
            return match
        state = engine_state(match)
        seat = seats[state.to_act]
        if seat.is_bot:
            assert moves.play_bot_turn(match_id=match.pk, version=match.version)
            continue
        moves.match_act(
            table_id=table.pk,
            player=seat.player,
            version=match.version,
            action=rng.choice(state.legal_actions()),
            client_action_id=f"opening-{match.version}",
        )
