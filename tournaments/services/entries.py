"""Joining and leaving a tournament (docs/tournaments.md § Entering).

Every change to who is in a tournament locks the tournament's row first, so a join and the
start (or two joins for the last place) are served one after the other. An entry fee moves into
the tournament's prize pool in the same transaction as the entry, and back out when the player
leaves before the start; once the event has started, a fee stays in the pool.
"""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.hashers import check_password
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from accounts.models import Friendship, Player
from accounts.selectors import wallet_balance
from accounts.services import wallet_pool_enter, wallet_pool_refund_entry
from core.errors import ServiceError
from games import hooks as games_hooks
from games.services.passwords import (
    PASSWORD_ATTEMPTS,
    PASSWORD_ATTEMPTS_PER_TABLE,
    count_failure,
)

from ..models import Entrant, Tournament
from ..realtime import publish_standings


def pool_key(tournament: Tournament) -> str:
    """The name of the tournament's prize pool in the ledger."""
    return f"tournament:{tournament.pk}"


def entry_name(entrant: Entrant) -> str:
    """One entry's name within the pool: a player who leaves before the start and comes back
    pays (and is refunded) as a new entry."""
    return f"{entrant.player_id}:{int(entrant.joined_at.timestamp() * 1000)}"


def locked_tournament(tournament_id: int) -> Tournament:
    """The tournament's row, locked: every change to its entrants and its status starts here."""
    tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if tournament is None:
        raise ServiceError(gettext("There is no such tournament."), code="no_tournament")
    return tournament


def _check_may_enter(tournament: Tournament, player: Player, password: str) -> None:
    if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
        raise ServiceError(gettext("This tournament is over."), code="over")
    if (
        tournament.status == Tournament.Status.RUNNING
        and tournament.format == Tournament.Format.SWISS
    ):
        raise ServiceError(
            gettext("This Swiss tournament has started; entries are closed."), code="started"
        )
    if player.is_guest and (tournament.rated or tournament.entry_fee):
        raise ServiceError(
            gettext("Guests play in free casual tournaments only. Sign up to enter this one."),
            code="guest_tournament",
        )
    if tournament.rated:
        games_hooks.join_checks(player)  # social: a quitter's cool-down keeps them out
    if player.pk == tournament.creator_id:
        return
    if (
        tournament.access == Tournament.Access.FRIENDS
        and not Friendship.objects.filter(player=tournament.creator, friend=player).exists()
    ):
        raise ServiceError(
            gettext("Only the organiser's friends can enter this tournament."),
            code="friends_only",
        )
    if tournament.access == Tournament.Access.PASSWORD:
        _check_password(tournament, player, password)


def _check_can_pay(tournament: Tournament, player: Player) -> None:
    """The fee, said to the player who cannot pay it in their own words (the wallet's own
    refusal, which still guards a balance spent meanwhile, names its owner in the third
    person)."""
    balance = wallet_balance(player)
    if tournament.entry_fee and balance < tournament.entry_fee:
        raise ServiceError(
            ngettext(
                "The entry fee is %(fee)s coin and you have %(balance)s.",
                "The entry fee is %(fee)s coins and you have %(balance)s.",
                tournament.entry_fee,
            )
            % {"fee": tournament.entry_fee, "balance": balance},
            code="insufficient_coins",
        )


def _check_password(tournament: Tournament, player: Player, password: str) -> None:
    """A password event's password, within a guess budget per player and for the event, as a
    password table's (games.services.passwords): it cannot be guessed faster than that."""
    budgets = [
        (f"tournament-password:{tournament.pk}:player:{player.pk}", PASSWORD_ATTEMPTS),
        (f"tournament-password:{tournament.pk}:all", PASSWORD_ATTEMPTS_PER_TABLE),
    ]
    if any((cache.get(key) or 0) >= most for key, most in budgets):
        raise ServiceError(
            gettext("Too many wrong passwords; try again in a few minutes."),
            code="password_pause",
        )
    if not (password and check_password(password, tournament.password_hash)):
        for key, _most in budgets:
            count_failure(key)
        raise ServiceError(gettext("Wrong tournament password."), code="wrong_password")


def tournament_join(
    *, player: Player, tournament_id: int, password: str = "", now: datetime | None = None
) -> Entrant:
    """Enter (or come back to) a tournament; the entry fee goes into its prize pool."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        entrant = Entrant.objects.filter(tournament=tournament, player=player).first()
        if entrant is not None and not entrant.withdrawn:
            return entrant  # already in: a second click changes nothing
        _check_may_enter(tournament, player, password)
        if entrant is None:
            if tournament.entrants.filter(withdrawn=False).count() >= tournament.max_players:
                raise ServiceError(gettext("This tournament is full."), code="full")
            _check_can_pay(tournament, player)
            entrant = Entrant.objects.create(
                tournament=tournament, player=player, joined_at=now, free_since=now
            )
            wallet_pool_enter(
                pool_key=pool_key(tournament),
                player=player,
                amount=tournament.entry_fee,
                entry=entry_name(entrant),
                label=tournament.name,
            )
        else:  # back in a running arena, after leaving it: the fee was kept, not paid again
            entrant.withdrawn = False
            entrant.paused = False
            entrant.free_since = now
            entrant.save(update_fields=["withdrawn", "paused", "free_since"])
        publish_standings(tournament.pk)
    return entrant


def tournament_leave(*, player: Player, tournament_id: int) -> bool:
    """Leave: before the start the entry goes and its fee comes back; once started the player
    stops being paired (their results stay, the fee stays in the pool). False if not in."""
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        entrant = Entrant.objects.filter(
            tournament=tournament, player=player, withdrawn=False
        ).first()
        if entrant is None:
            return False
        if tournament.status == Tournament.Status.SCHEDULED:
            wallet_pool_refund_entry(
                pool_key=pool_key(tournament),
                player=player,
                entry=entry_name(entrant),
                label=tournament.name,
            )
            entrant.delete()
        else:
            entrant.withdrawn = True
            entrant.save(update_fields=["withdrawn"])
        publish_standings(tournament.pk)
    return True


def tournament_pause(*, player: Player, tournament_id: int, paused: bool) -> bool:
    """An arena player takes a break (not paired until they come back) or comes back."""
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        if tournament.format != Tournament.Format.ARENA:
            raise ServiceError(
                gettext("Only an arena can be paused; a Swiss round waits for no one."),
                code="not_arena",
            )
        changed = Entrant.objects.filter(
            tournament=tournament, player=player, withdrawn=False
        ).update(paused=paused, free_since=timezone.now())
        publish_standings(tournament.pk)
    return bool(changed)
