"""Tables made for players someone else put together (a tournament's pairing): seated and
started in one transaction, with no waiting room."""

from __future__ import annotations

import secrets
from typing import Any

from django.db import IntegrityError, connections, transaction

from accounts.models import Player
from core import rows

from ..models import Seat, Table
from ..rules import get_game
from .tables import table_start


def table_for_players(
    *, game: str, players: list[Player], speed: str, rated: bool, options: dict[str, Any]
) -> Table | None:
    """A free table for players someone else put together (a tournament's pairing), seated in a
    random order and started at once: the clocks run from the start, so a player who does not
    come loses the match by the ordinary absence rules. None, and nothing written, when one of
    them sat down elsewhere meanwhile (the one-active-seat index)."""
    engine = get_game(game)
    seats = engine.seat_count(options)
    if len(players) != seats:
        raise ValueError(f"{game} with {options} seats {seats}, not {len(players)}")
    positions = list(range(seats))
    secrets.SystemRandom().shuffle(positions)
    try:
        with transaction.atomic():
            table = Table(
                game=game,
                options=engine.parse_options(options),
                stake=0,
                speed=speed,
                visibility=Table.Visibility.PUBLIC,
                creator=players[0],
                seats_total=seats,
                rated=rated,
            )
            # Nobody can have a socket at a table made this instant: the seats start away, and
            # the start need not look at the live sockets. Nor has anyone been told of it yet
            # (``seat_told``).
            made = [
                Seat(player=player, position=position, connected=False, told=False)
                for player, position in zip(players, positions, strict=True)
            ]
            rows.insert_with_children(table, made, connections["default"])
            made.sort(key=lambda seat: seat.position)
            table_start(table, seats=made, present=set())
    except IntegrityError:
        return None
    return table


def seat_told(*, table_id: int, player_id: int) -> None:
    """One of the player's sockets was told that their paired table started: from now on an
    absence there is theirs. (Until then it is not: a player with no page open to hear of the
    pairing did not choose to miss the match.)"""
    Seat.objects.filter(table_id=table_id, player_id=player_id, told=False).update(told=True)
