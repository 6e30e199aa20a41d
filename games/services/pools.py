"""Quick play: a player joins pools, the pairing seats them, and the match starts when everyone
has arrived (docs/protocol.md § Quick play).

A pool is a game at a speed, a stake and rated or casual. A player waits with one ticket in as
many pools as they like; the pairing of one pool takes the tickets it seats with ``FOR UPDATE …
SKIP LOCKED`` and marks them with a conditional update, so that pairings running at once, in
any process, never seat a player twice (docs/concurrency.md § Quick play). A paired table waits
``POOL_CONNECT_SECONDS`` for its players to open it; no coin moves until the match starts, and a
table nobody completed is called off: those who came go back to the head of their pools.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, connections, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import Player
from accounts.selectors import wallet_of
from core import realtime as core_realtime
from core import rows
from core.errors import ServiceError
from core.rows import Columns, prepared_cursor, split

from .. import hooks, realtime, selectors
from ..catalog import Pool, pool_named, pools
from ..models import PoolEntry, PoolTicket, Seat, Table
from ..rules import get_game
from .bots import STRENGTHS, seat_computer
from .pairing import Gap, Waiting, pair
from .pool_tables import pool_table_call_off

COUNTS_KEY = "games.pools.counts"  # the counts the lobbies were last told
COUNTS_PAUSE_KEY = "games.pools.counts-pause"  # set while the counts were said too recently


# --- Joining and leaving --------------------------------------------------------------------------


def _lock_player(player: Player) -> None:
    """One player's joins and leaves, one at a time (two tabs at once): the player's row, in
    the mode that does not stop a seat being inserted for them (``FOR NO KEY UPDATE``), so a
    pairing seating them meanwhile never waits on it."""
    Player.objects.select_for_update(no_key=True).filter(pk=player.pk).exists()


def _check_may_wait(player: Player, chosen: list[Pool]) -> None:
    if player.is_guest and any(pool.stake or pool.rated for pool in chosen):
        raise ServiceError(
            gettext("Guests play in free casual pools only. Sign up to play rated or for coins."),
            code="guest_pool",
        )
    if any(pool.rated or pool.stake for pool in chosen):
        hooks.join_checks(player)  # social: a quitter's cool-down keeps them out
    seated = Seat.objects.filter(player=player, active=True).values_list("table_id", flat=True)
    if (table_id := seated.first()) is not None:
        raise ServiceError(
            gettext(
                "You are already seated at table #%(number)s. Leave it (or finish the match) first."
            )
            % {"number": table_id},
            code="already_seated",
        )
    top_stake = max(pool.stake for pool in chosen)
    if top_stake:
        wallet = wallet_of(player)
        balance = wallet.balance if wallet else 0
        if balance < top_stake:
            raise ServiceError(
                gettext("A %(stake)s-coin pool needs %(stake)s coins; you have %(balance)s.")
                % {"stake": top_stake, "balance": balance},
                code="insufficient_coins",
            )


def pool_join(
    *,
    player: Player,
    pool_ids: list[Any],
    fill_after_seconds: Any = None,
    bot_strength: Any = "easy",
    now: datetime | None = None,
) -> PoolTicket:
    """Wait in these pools (they replace the ones the player waited in). A player already
    waiting keeps their place in the queue."""
    now = now or timezone.now()
    if not isinstance(pool_ids, list) or not 0 < len(pool_ids) <= len(pools()):
        raise ServiceError(gettext("Choose at least one pool."), code="bad_pool")
    chosen = list({pool.id: pool for pool in map(pool_named, pool_ids)}.values())
    if fill_after_seconds is not None and fill_after_seconds not in settings.POOL_FILL_SECONDS:
        allowed = ", ".join(str(seconds) for seconds in settings.POOL_FILL_SECONDS)
        raise ServiceError(
            gettext("Computers may fill the table after %(allowed)s seconds, or never.")
            % {"allowed": allowed},
            code="bad_fill",
        )
    if bot_strength not in STRENGTHS:
        raise ServiceError(
            gettext("Choose the computer's strength: easy or strong."), code="bad_strength"
        )
    with transaction.atomic():
        _lock_player(player)
        # Paired first: the seat the check below would find is the one waiting for them.
        ticket = PoolTicket.objects.select_for_update().filter(player=player).first()
        if ticket is not None and ticket.table_id is not None:
            raise ServiceError(
                gettext("You have been paired: your table is waiting for you."), code="paired"
            )
        _check_may_wait(player, chosen)
        if ticket is None:
            ticket = PoolTicket(player=player, joined_at=now)
        ticket.fill_after_seconds = fill_after_seconds
        ticket.bot_strength = bot_strength
        ticket.save()
        ticket.entries.all().delete()
        ratings: dict[str, dict[int, float]] = {}
        for pool in chosen:
            if pool.game not in ratings:
                ratings[pool.game] = hooks.player_ratings(pool.game, {player.pk})
        PoolEntry.objects.bulk_create(
            PoolEntry(
                ticket=ticket,
                game=pool.game,
                speed=pool.speed,
                stake=pool.stake,
                rated=pool.rated,
                seats=pool.seats,
                rating=ratings[pool.game].get(player.pk, 0.0),
            )
            for pool in chosen
        )
    return ticket


def pool_enter(
    *,
    player: Player,
    pool_ids: list[Any],
    fill_after_seconds: Any = None,
    bot_strength: Any = "easy",
) -> dict[str, Any] | None:
    """What the lobby's "Play now" does: wait in these pools, and pair in them at once rather
    than at the beat's next pass. Returns the player's ticket as the lobby shows it."""
    pool_join(
        player=player,
        pool_ids=pool_ids,
        fill_after_seconds=fill_after_seconds,
        bot_strength=bot_strength,
    )
    for pool in dict.fromkeys(map(pool_named, pool_ids)):  # the join checked every name
        pool_pair(pool)
    public = selectors.pool_ticket_public(player)
    _tell_other_pages(player, public)
    return public


def _tell_other_pages(player: Player, ticket: dict[str, Any] | None) -> None:
    """The player's other lobby pages (another tab) show what they now wait for."""
    core_realtime.publish_on_commit(
        realtime.player_group(player.pk), {"type": "player.pool_ticket", "ticket": ticket}
    )


def pool_leave(*, player: Player, now: datetime | None = None) -> bool:
    """Stop waiting. A player paired but not yet at the table leaves it too: the table is
    called off and the others go back to the head of their pools. False if not waiting."""
    now = now or timezone.now()
    with transaction.atomic():
        _lock_player(player)
        ticket = PoolTicket.objects.select_for_update().filter(player=player).first()
        if ticket is None:
            return False
        table_id = ticket.table_id
        ticket.delete()
        _tell_other_pages(player, None)
    if table_id is not None:
        pool_table_call_off(table_id, now=now, leaving={player.pk})
    return True


# --- Pairing --------------------------------------------------------------------------------------


def _gap() -> Gap:
    return Gap(
        start=settings.POOL_GAP_START,
        per_second=settings.POOL_GAP_PER_SECOND,
        most=settings.POOL_GAP_MOST,
    )


_candidate_statements: dict[str, tuple[str, Columns[PoolTicket]]] = {}


def _candidate_statement(connection: BaseDatabaseWrapper) -> tuple[str, Columns[PoolTicket]]:
    """The pairing's read of one pool: the oldest tickets still waiting in it, with their
    rating there, each ticket locked unless another pass holds it (then skipped, never waited
    for: docs/concurrency.md § Quick play). Written once per connection (``core.rows``): every
    "Play now" runs it, and compiling it with the ORM was the largest cost of a join (make
    bench, py-spy)."""
    if connection.alias in _candidate_statements:
        return _candidate_statements[connection.alias]
    quote = connection.ops.quote_name
    tickets = Columns(PoolTicket, "t", connection)

    def column(model: type[PoolEntry] | type[PoolTicket], name: str) -> str:
        field = model._meta.get_field(name)
        assert isinstance(field, Field) and field.column
        return quote(field.column)

    lock = ""
    features = connection.features
    if features.has_select_for_update_skip_locked and features.has_select_for_update_of:
        lock = " FOR UPDATE OF t SKIP LOCKED"
    sql = (
        f"SELECT {tickets.sql}, e.{column(PoolEntry, 'rating')} "
        f"FROM {quote(PoolEntry._meta.db_table)} e "
        f"JOIN {quote(PoolTicket._meta.db_table)} t "
        f"ON t.{quote(PoolTicket._meta.pk.column)} = e.{column(PoolEntry, 'ticket')} "
        f"WHERE e.{column(PoolEntry, 'game')} = %s AND e.{column(PoolEntry, 'speed')} = %s "
        f"AND e.{column(PoolEntry, 'stake')} = %s AND e.{column(PoolEntry, 'rated')} = %s "
        f"AND e.{column(PoolEntry, 'seats')} = %s "
        f"AND t.{column(PoolTicket, 'table')} IS NULL "
        f"ORDER BY t.{column(PoolTicket, 'joined_at')}, t.{quote(PoolTicket._meta.pk.column)} "
        f"LIMIT %s{lock}"
    )
    _candidate_statements[connection.alias] = (sql, tickets)
    return sql, tickets


def _candidates(pool: Pool) -> list[tuple[PoolTicket, float]]:
    """The tickets one pass may seat, oldest first, with their rating: in the pass's transaction."""
    connection = connections["default"]
    sql, tickets = _candidate_statement(connection)
    where: list[Any] = [pool.game, pool.speed, pool.stake, pool.rated, pool.seats]
    with prepared_cursor(connection) as cursor:
        cursor.execute(sql, [*where, settings.POOL_BATCH])
        rows = cursor.fetchall()
    return [(ticket, rating) for ticket, rating in (split(row, [tickets]) for row in rows)]


def pool_pair(pool: Pool, *, now: datetime | None = None) -> list[int]:
    """Seat who can be seated in one pool now; the ids of the tables made."""
    now = now or timezone.now()
    made: list[int] = []
    with transaction.atomic():
        candidates = _candidates(pool)  # Lock: the tickets this pass may seat.
        if not candidates:
            return made
        by_ticket = {ticket.pk: ticket for ticket, _rating in candidates}
        apart = hooks.players_apart({ticket.player_id for ticket in by_ticket.values()})
        waiting = [
            Waiting(
                ticket=ticket.pk,
                player=ticket.player_id,
                rating=rating,
                joined_at=ticket.joined_at,
                fill_after_seconds=ticket.fill_after_seconds,
                avoids=frozenset(apart.get(ticket.player_id, ())),
            )
            for ticket, rating in candidates
        ]
        for group in pair(waiting, seats=pool.seats, gap=_gap(), now=now, casual=not pool.rated):
            table = _seat_group(pool, [by_ticket[t] for t in group.tickets], now)
            if table is not None:
                made.append(table.pk)
    return made


def _seat_group(pool: Pool, tickets: list[PoolTicket], now: datetime) -> Table | None:
    """One table for one group (the seats no ticket fills go to computers), in a savepoint: a
    player who sat down elsewhere meanwhile leaves the pool and the others stay for the next
    pass."""
    try:
        with transaction.atomic():
            engine = get_game(pool.game)
            table = Table(
                game=pool.game,
                options=engine.parse_options(pool.table_options()),
                stake=pool.stake,
                speed=pool.speed,
                visibility=Table.Visibility.POOL,
                creator_id=tickets[0].player_id,
                seats_total=pool.seats,
                rated=pool.rated,
            )
            positions = list(range(pool.seats))
            random.SystemRandom().shuffle(positions)
            seats = [
                Seat(player_id=ticket.player_id, position=position)
                for ticket, position in zip(tickets, positions, strict=False)
            ]
            rows.insert_with_children(table, seats, connections["default"])
            for position in positions[len(tickets) :]:
                seat_computer(table, position, tickets[0].bot_strength)
            # Claim: only tickets still waiting (a leave or another pass may have taken one).
            claimed = PoolTicket.objects.filter(
                pk__in=[t.pk for t in tickets], table__isnull=True
            ).update(table=table, paired_at=now)
            if claimed != len(tickets):
                raise IntegrityError("a ticket was taken meanwhile")
    except IntegrityError:
        seated = Seat.objects.filter(
            player_id__in=[t.player_id for t in tickets], active=True
        ).values_list("player_id", flat=True)
        PoolTicket.objects.filter(player_id__in=list(seated)).delete()
        return None
    for ticket in tickets:
        core_realtime.publish_on_commit(
            realtime.player_group(ticket.player_id),
            {"type": "player.paired", "table": table.pk, "url": f"/tables/{table.pk}/"},
        )
    return table


def pools_sweep(*, now: datetime | None = None) -> dict[str, int]:
    """The beat's pass (every ``POOL_SWEEP_SECONDS``): pair every pool with someone waiting
    (ranges widen and fill times pass with time alone), and call off the tables whose players
    did not all arrive in time. Safe to run twice, or in two processes at once."""
    now = now or timezone.now()
    counts = {"tables": 0, "called_off": 0}
    waiting = (
        PoolEntry.objects.filter(ticket__table__isnull=True)
        .values_list("game", "speed", "stake", "rated", "seats")
        .distinct()
    )
    for row in list(waiting):
        counts["tables"] += len(pool_pair(Pool(*row), now=now))
    late = now - timedelta(seconds=settings.POOL_CONNECT_SECONDS)
    for table_id in list(
        Table.objects.filter(
            visibility=Table.Visibility.POOL, status=Table.Status.OPEN, created_at__lt=late
        ).values_list("pk", flat=True)
    ):
        pool_table_call_off(table_id, now=now)
        counts["called_off"] += 1
    pool_counts_publish()
    return counts


def pool_counts_publish() -> None:
    """Every lobby hears how many wait and play in each pool, when that changed since the last
    time it was said (a quiet site sends nothing), and at most every ``POOL_COUNTS_SECONDS``:
    on a busy site the counts change every pass, and a thousand lobbies each hearing it every
    second cost more than the pairing."""
    if not cache.add(COUNTS_PAUSE_KEY, True, timeout=settings.POOL_COUNTS_SECONDS):
        return
    counts = selectors.pool_counts()
    if cache.get(COUNTS_KEY) == counts:
        return
    cache.set(COUNTS_KEY, counts, timeout=None)
    core_realtime.send_now(realtime.LOBBY_GROUP, {"type": "lobby.pools", "counts": counts})
