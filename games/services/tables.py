"""Tables before play: create, join, leave, cancel, invite and start.

Locking policy: a change to a table locks its row first (``select_for_update``), so two
players racing for the last seat are served one after the other and the match starts once.
A player holds at most one active seat; the partial unique index ``one_active_seat`` is the
final guard when one player races themselves from two tabs.
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Any

from django.contrib.auth.hashers import make_password
from django.db import IntegrityError, connections, transaction
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from accounts.models import Player
from accounts.selectors import wallet_of
from accounts.services import InsufficientCoins, Stake, wallet_stake
from core import rows
from core.errors import ServiceError

from .. import access, hooks, realtime
from ..catalog import GAME_TITLES, STAKES
from ..models import Match, Seat, Table
from ..rules import RulesError, get_game
from ..rules_text import rules_message
from .entropy import checked_commitment, deal_seed, entropy_reset, reveals_pending
from .lobby import table_publish
from .matches import match_prepared, match_started, table_seats
from .passwords import MIN_PASSWORD_LENGTH, password_check

_STARTED = ["status", "started_at", "entropy_secret"]  # a table's fields its start writes

# --- Checks shared by create and join ---------------------------------------------------------


def _check_can_sit(player: Player, table_stake: int) -> None:
    if table_stake and player.is_guest:
        raise ServiceError(
            gettext("Guests play free tables only. Sign up to play for Domino Coin."),
            code="guest_coins",
        )
    hooks.join_checks(player)  # social: a quitter's cool-down (issue 17)
    current = Seat.objects.filter(player=player, active=True).select_related("table").first()
    if current is not None:
        raise ServiceError(
            gettext(
                "You are already seated at table #%(number)s. Leave it (or finish the match) first."
            )
            % {"number": current.table_id},
            code="already_seated",
        )
    if table_stake:
        wallet = wallet_of(player)
        balance = wallet.balance if wallet else 0
        if balance < table_stake:
            raise ServiceError(
                ngettext(
                    "This table’s stake is %(stake)s coin and you have %(balance)s.",
                    "This table’s stake is %(stake)s coins and you have %(balance)s.",
                    table_stake,
                )
                % {"stake": table_stake, "balance": balance},
                code="insufficient_coins",
            )


def _sit(table: Table, player: Player, position: int, commitment: str = "") -> Seat:
    try:
        with transaction.atomic():
            return Seat.objects.create(
                table=table, player=player, position=position, entropy_commitment=commitment
            )
    except IntegrityError:
        # The partial unique index: the same player sat down elsewhere a moment ago.
        raise ServiceError(
            gettext("You are already seated at another table."), code="already_seated"
        ) from None


# --- Create ------------------------------------------------------------------------------------


def table_create(
    *,
    creator: Player,
    game: str,
    options: dict[str, Any] | None,
    stake: int,
    visibility: str,
    password: str = "",
    rated: bool = True,
    speed: str = Table.Speed.NORMAL,
    entropy_commitment: str = "",
) -> Table:
    """Open a table with the creator in the first seat. A guest's table is always casual.

    ``speed`` picks the match's clocks (``clock.speed_limits``); callers that predate speeds
    (practice, scripts) open a Normal table."""
    if game not in GAME_TITLES:
        raise ServiceError(gettext("Unknown game %(game)r.") % {"game": game}, code="unknown_game")
    engine = get_game(game)
    try:
        parsed = engine.parse_options(options or {})
    except RulesError as error:
        raise ServiceError(rules_message(error), code="bad_options") from None
    if stake not in STAKES:
        allowed = ", ".join(str(s) for s in STAKES if s)
        raise ServiceError(
            # The noun follows the last number of the list ("25, 50, 100, 250 coins").
            ngettext(
                "The stake must be free or one of %(allowed)s coin.",
                "The stake must be free or one of %(allowed)s coins.",
                STAKES[-1],
            )
            % {"allowed": allowed},
            code="bad_stake",
        )
    if visibility not in access.CHOOSABLE_VISIBILITIES:
        raise ServiceError(gettext("Choose Public, Friends or Password."), code="bad_visibility")
    if speed not in Table.Speed.values:
        raise ServiceError(gettext("Choose Fast, Normal or Relaxed."), code="bad_speed")
    password_hash = ""
    if visibility == Table.Visibility.PASSWORD:
        if len(password or "") < MIN_PASSWORD_LENGTH:
            raise ServiceError(
                ngettext(
                    "A password table needs a password of at least %(count)s character.",
                    "A password table needs a password of at least %(count)s characters.",
                    MIN_PASSWORD_LENGTH,
                )
                % {"count": MIN_PASSWORD_LENGTH},
                code="short_password",
            )
        password_hash = make_password(password)
    commitment = checked_commitment(entropy_commitment)
    if visibility == Table.Visibility.FRIENDS and creator.is_guest:
        raise ServiceError(
            gettext("Guests have no friends list; choose Public or Password."), code="guest_friends"
        )
    with transaction.atomic():
        _check_can_sit(creator, stake)
        table = Table.objects.create(
            game=game,
            options=parsed,
            stake=stake,
            speed=speed,
            visibility=visibility,
            password_hash=password_hash,
            creator=creator,
            seats_total=engine.seat_count(parsed),
            rated=rated and not creator.is_guest,
        )
        _sit(table, creator, 0, commitment)
        table_publish(table)
    return table


# --- Join, leave, cancel ----------------------------------------------------------------------


def locked_table(table_id: int) -> Table:
    """The table row, locked: every change to a table starts here (docs/concurrency.md)."""
    table = Table.objects.select_for_update().filter(pk=table_id).first()
    if table is None:
        raise ServiceError(gettext("There is no such table."), code="no_table")
    return table


def require_open(table: Table) -> None:
    """Only an open table (waiting for players) may change its seats or invitations."""
    if table.status == Table.Status.PLAYING:
        raise ServiceError(gettext("This table’s match has already started."), code="started")
    if table.status == Table.Status.CANCELLED:
        raise ServiceError(gettext("This table was cancelled."), code="cancelled")
    if table.status == Table.Status.FINISHED:
        raise ServiceError(gettext("This table’s match is over."), code="finished")


def _check_access(table: Table, player: Player, password: str, client_ip: str | None) -> None:
    if access.is_invited(player, table):
        return  # an invitation opens friends-only and password tables alike
    if table.visibility == Table.Visibility.FRIENDS and not access.is_creators_friend(
        player, table
    ):
        raise ServiceError(
            gettext("This table is for %(name)s’s friends only.") % {"name": table.creator.name},
            code="friends_only",
        )
    if table.visibility == Table.Visibility.PASSWORD:
        password_check(table, player, password, client_ip)


def table_join(
    *,
    player: Player,
    table_id: int,
    password: str = "",
    client_ip: str | None = None,
    entropy_commitment: str = "",
) -> Seat:
    """Take the lowest free seat; the last seat starts the match in the same transaction.

    ``client_ip`` is the requesting browser's address (behind a proxy, as the trusted-proxy
    settings read it): wrong passwords are counted per address too.
    """
    with transaction.atomic():
        table = locked_table(table_id)
        existing = Seat.objects.filter(table=table, player=player).first()
        if existing is not None and table.status == Table.Status.OPEN:
            return existing
        require_open(table)
        taken = set(table.seats.values_list("position", flat=True))
        if len(taken) >= table.seats_total or table.visibility == Table.Visibility.POOL:
            # A quick-play table seats those the pairing chose, and nobody else.
            raise ServiceError(gettext("This table is full."), code="full")
        if table.stake and player.is_guest:
            raise ServiceError(
                gettext("Guests play free tables only. Sign up to play for Domino Coin."),
                code="guest_coins",
            )
        access.require_available(player, table)  # hidden from them by a block
        _check_access(table, player, password, client_ip)
        _check_can_sit(player, table.stake)
        position = min(set(range(table.seats_total)) - taken)
        seat = _sit(table, player, position, checked_commitment(entropy_commitment))
        table.last_activity_at = timezone.now()
        table.stood_up_for_stake = None
        table.save(update_fields=["last_activity_at", "stood_up_for_stake"])
        if len(taken) + 1 == table.seats_total:
            table_start(table)
        table_publish(table)
    return seat


def table_leave(*, player: Player, table_id: int) -> None:
    """Stand up before the match starts; the creator's role passes on, an empty table closes."""
    with transaction.atomic():
        table = locked_table(table_id)
        seat = Seat.objects.filter(table=table, player=player).first()
        if seat is None:
            raise ServiceError(gettext("You are not seated at this table."), code="not_seated")
        if table.status == Table.Status.PLAYING:
            raise ServiceError(
                gettext(
                    "The match has started: leaving now forfeits it. Use Leave on the table page."
                ),
                code="started",
            )
        require_open(table)
        if table.visibility == Table.Visibility.POOL:
            raise ServiceError(
                gettext(
                    "Quick play: to stop waiting, press “Leave the queue” under Play now in the "
                    "lobby."
                ),
                code="pool_table",
            )
        seat.delete()
        entropy_reset(table)
        remaining = list(
            table.seats.filter(is_bot=False).select_related("player").order_by("position")
        )
        if not remaining:  # nobody left, or computers only: the table closes
            _close(table, Table.Status.CANCELLED)
        elif table.creator_id == player.pk:
            table.creator = remaining[0].player
            table.save(update_fields=["creator"])
        table_publish(table)


def table_cancel(*, player: Player, table_id: int) -> None:
    with transaction.atomic():
        table = locked_table(table_id)
        if table.creator_id != player.pk:
            raise ServiceError(
                gettext("Only the table’s creator can cancel it."), code="not_creator"
            )
        require_open(table)
        _close(table, Table.Status.CANCELLED)
        table_publish(table)


def _close(table: Table, status: str) -> None:
    table.status = status
    table.ended_at = timezone.now()
    table.save(update_fields=["status", "ended_at"])
    table.seats.update(active=False)


# --- Start -------------------------------------------------------------------------------------


def table_start(
    table: Table,
    now: datetime | None = None,
    *,
    seats: list[Seat] | None = None,
    present: set[int | None] | None = None,
) -> Match | None:
    """Deal the first hand from the server's secret and the seats' values (``entropy``), take
    every stake, all or nothing (``seats``, ``present``: as the caller holding the lock read
    them). None while a seat that committed is still to reveal, or when a player can no longer
    cover the stake."""
    seats = seats if seats is not None else table_seats(table.pk)
    if reveals_pending(table, now, seats=seats):
        return None
    seed, entropy = deal_seed(table, seats)
    state = get_game(table.game).new_match(table.options, seed)
    match = Match(
        table=table,
        game=table.game,
        options=table.options,
        speed=table.speed,
        seed=seed,
        seed_hash=hashlib.sha256(seed.encode()).hexdigest(),
        entropy=entropy,
        state=state.to_dict(),
    )
    moment, was = timezone.now(), (table.status, table.started_at, table.entropy_secret)
    try:
        with transaction.atomic():
            computer_first = match_prepared(match, state, seats, moment, present=present)
            table.status, table.started_at = Table.Status.PLAYING, moment
            table.entropy_secret = ""  # the match's entropy holds it now, secret until the end
            # The match with its clocks and the table's start: one statement on PostgreSQL.
            rows.insert_and_update(match, table, _STARTED, connections["default"])
            if table.stake:
                stakes = [Stake(seat.position, seat.player, table.stake) for seat in seats]
                wallet_stake(match_id=match.pk, stakes=stakes)
    except InsufficientCoins as error:
        # The table stays open: the player who can no longer cover the stake stands up.
        table.status, table.started_at, table.entropy_secret = was
        table.stood_up_for_stake = error.player
        Seat.objects.filter(table=table, player=error.player).delete()
        table.save(update_fields=["stood_up_for_stake"])
        return None
    for seat in seats:
        realtime.publish_on_commit(
            realtime.player_group(seat.player_id),
            {"type": "player.match_started", "table": table.pk, "url": f"/tables/{table.pk}/"},
        )
    match_started(match, state, seats, moment, computer_first=computer_first)
    return match
