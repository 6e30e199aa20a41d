"""Computer players at a table: practice against the computer, seat fillers, and suggestions.

A computer sits under a pooled :class:`~games.models.ComputerPlayer` identity (no user, so never
rated and no wallet): its seat has ``is_bot`` and a ``bot_strength``. Tables with computers are
free and casual: a computer never sits at a table with a stake, and ``Table.is_rated`` counts a
table with a computer seat as casual. The computer's moves are the ``games.tasks.play_bot_turn``
task (``moves.play_bot_turn``); nothing here runs a bot inside a request or a lock: a
suggestion is claimed under the match lock and searched after, on the asking seat's own view.

Locking: as the lobby services, the table row first (``select_for_update``); a suggestion
locks the match row, as a move does.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import Player
from accounts.names import computer_name
from core.errors import ServiceError

from .. import bots
from ..models import ComputerPlayer, Match, Seat, Table
from .lobby import table_publish
from .matches import engine_state, locked_match, table_seats
from .tables import locked_table, require_open, table_create, table_start

STRENGTHS = bots.STRENGTHS


def _check_strength(strength: str) -> None:
    if strength not in STRENGTHS:
        raise ServiceError(
            gettext("Choose the computer's strength: easy or strong."), code="bad_strength"
        )


def computer_player() -> Player:
    """A computer identity with no active seat: a free one of the pool, or a new one.

    Its name has a space, which no person's name may have, so it never clashes with one."""
    free = (
        ComputerPlayer.objects.exclude(player__seats__active=True)
        .select_related("player")
        .order_by("pk")
        .first()
    )
    if free is not None:
        return free.player
    number = ComputerPlayer.objects.count() + 1
    while True:
        try:
            with transaction.atomic():
                player = Player.objects.create(name=computer_name(number))
                ComputerPlayer.objects.create(player=player)
                return player
        except IntegrityError:  # another table took this number a moment ago
            number += 1


def seat_computer(table: Table, position: int, strength: str) -> Seat:
    """Put a computer of ``strength`` in the free seat ``position``. Table lock held."""
    for _attempt in range(5):
        player = computer_player()
        try:
            with transaction.atomic():
                return Seat.objects.create(
                    table=table,
                    player=player,
                    position=position,
                    is_bot=True,
                    bot_strength=strength,
                )
        except IntegrityError:  # the one_active_seat index: that identity just sat elsewhere
            continue
    raise ServiceError(gettext("No computer player is free; try again."), code="busy")


def practice_start(
    *,
    player: Player,
    game: str,
    strength: str,
    options: dict[str, Any] | None = None,
    entropy_commitment: str = "",
) -> Table:
    """Play the computer at once: a free, casual table, every other seat a computer of
    ``strength``, the match started in the same transaction (no waiting room), or, when the
    player committed to a value for the deal, as soon as their page reveals it."""
    _check_strength(strength)
    with transaction.atomic():
        table = table_create(
            creator=player,
            game=game,
            options=options,
            stake=0,
            visibility=Table.Visibility.PUBLIC,
            rated=False,
            entropy_commitment=entropy_commitment,
        )
        table = locked_table(table.pk)
        for position in range(1, table.seats_total):
            seat_computer(table, position, strength)
        table_start(table)
        table_publish(table)
    return table


def seat_computer_add(*, player: Player, table_id: int, strength: str) -> Seat:
    """The creator puts a computer in the lowest empty seat before the start; the last seat
    filled starts the match, as a person's join does."""
    _check_strength(strength)
    with transaction.atomic():
        table = locked_table(table_id)
        _require_creator(table, player)
        require_open(table)
        if table.stake:
            raise ServiceError(
                gettext("Computer players sit at free tables only."), code="computer_stake"
            )
        taken = set(table.seats.values_list("position", flat=True))
        free = sorted(set(range(table.seats_total)) - taken)
        if not free:
            raise ServiceError(gettext("This table is full."), code="full")
        seat = seat_computer(table, free[0], strength)
        table.last_activity_at = timezone.now()
        table.save(update_fields=["last_activity_at"])
        if len(taken) + 1 == table.seats_total:
            table_start(table)
        table_publish(table)
    return seat


def seat_computer_remove(*, player: Player, table_id: int, position: int) -> None:
    """The creator takes a computer out of its seat before the start."""
    with transaction.atomic():
        table = locked_table(table_id)
        _require_creator(table, player)
        require_open(table)
        seat = Seat.objects.filter(table=table, position=position, is_bot=True).first()
        if seat is None:
            raise ServiceError(
                gettext("There is no computer player in that seat."), code="no_computer"
            )
        seat.delete()
        table.last_activity_at = timezone.now()
        table.save(update_fields=["last_activity_at"])
        table_publish(table)


def _require_creator(table: Table, player: Player) -> None:
    if table.creator_id != player.pk:
        raise ServiceError(
            gettext("Only the table’s creator can seat or remove a computer player."),
            code="not_creator",
        )


@dataclass(frozen=True)
class Hint:
    """A suggestion granted: the asking seat's view and the seed its search draws from."""

    version: int
    view: dict[str, Any]
    seed: str


def hint_claim(*, player: Player, table_id: int, version: int) -> Hint:
    """Grant this turn's one suggestion to the player whose turn it is.

    Only at a table with a computer player (a practice aid, never at a table of people), only
    on the player's own turn, once per turn. The search itself (:func:`hint_choose`) runs after,
    outside the lock and the database threads: it takes a few hundred milliseconds."""
    with transaction.atomic():
        # Lock: one suggestion per turn, even asked from two tabs at once.
        match = locked_match(table_id=table_id)
        if match is None or match.status != Match.Status.PLAYING:
            raise ServiceError(gettext("There is no match in play here."), code="not_playing")
        seats = table_seats(table_id)
        # A computer put there, not one that took over a forfeited seat: a table of people
        # (a rated one, say) stays a table of people.
        if not any(seat.is_bot and not seat.forfeited for seat in seats):
            raise ServiceError(
                gettext("Suggestions are given only at a table with a computer player."),
                code="no_computer",
            )
        mine = next((seat for seat in seats if seat.player_id == player.pk), None)
        if mine is None or mine.is_bot:
            raise ServiceError(gettext("Only the match’s players can ask."), code="not_seated")
        if version != match.version:
            raise ServiceError(gettext("The table moved on; ask again."), code="stale")
        state = engine_state(match)
        if state.to_act != mine.position:
            raise ServiceError(gettext("It is not your turn."), code="not_your_turn")
        if mine.hint_version == match.version:
            raise ServiceError(
                gettext("You have had this turn’s suggestion already."), code="hint_used"
            )
        mine.hint_version = match.version
        mine.save(update_fields=["hint_version"])
        return Hint(match.version, dict(state.view(mine.position)), f"{match.seed}:hint:{version}")


def hint_choose(hint: Hint) -> dict[str, Any]:
    """The strong bot's choice for the asking seat's own view (and nothing more)."""
    return bots.choose("strong", hint.view, random.Random(hint.seed))
