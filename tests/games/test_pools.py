"""Quick play through its services (issue 28 § 2): joining and leaving pools, who may wait
where, the pairing seating a table, the match starting when the last player arrives, a table
called off when someone does not, and computers filling casual tables for those who asked."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import CoinAccount, CoinTransaction, Player
from accounts.selectors import coin_audit
from core.errors import ServiceError
from games import selectors
from games.models import LiveServer, Match, PoolEntry, PoolTicket, Seat, Table, TableConnection
from games.rules import game_specs
from games.services import pool_tables, pools, tables
from social.models import Block, Cooldown
from tests.support.ladder import committed

pytestmark = pytest.mark.django_db

JJ_RATED_25 = "japanese_joker/fast/25/rated"
JJ_CASUAL_FREE = "japanese_joker/normal/0/casual"
CJ_CASUAL_FREE = "classic_joker/normal/0/casual"
CJ3_CASUAL_FREE = "classic_joker/normal/0/casual/3"
CJ2_CASUAL_FREE = "classic_joker/normal/0/casual/2"


def _balance(player: Player) -> int:
    return CoinAccount.objects.get(player=player).balance


def _arrive(table_id: int, player: Player) -> bool:
    """``player`` opens the table: a socket's row, then what the socket's registration calls."""
    server, _ = LiveServer.objects.get_or_create(
        name="test-server", defaults={"last_seen_at": timezone.now()}
    )
    TableConnection.objects.create(
        channel_name=f"chan-{table_id}-{player.pk}", server=server, table_id=table_id, player=player
    )
    return committed(pool_tables.pool_table_arrived, table_id=table_id)


def _pair(pool_id: str, now=None) -> list[int]:
    return committed(pools.pool_pair, pool=pools.pool_named(pool_id), now=now)


def test_every_game_seat_count_speed_stake_and_kind_is_a_pool():
    ids = {pool.id for pool in pools.pools()}
    seat_counts = sum(len(spec.seat_choices) for spec in game_specs())  # the toy game's too
    assert seat_counts == len(game_specs()) + 2  # classic Joker at 3 and 2 besides 4
    assert len(ids) == seat_counts * 3 * 3 * 2
    assert {JJ_RATED_25, JJ_CASUAL_FREE, CJ_CASUAL_FREE, CJ3_CASUAL_FREE, CJ2_CASUAL_FREE} <= ids
    assert pools.pool_named(CJ_CASUAL_FREE).seats == 4  # its id is the one it always had
    assert pools.pool_named(CJ3_CASUAL_FREE).seats == 3
    assert pools.pool_named(JJ_CASUAL_FREE).seats == 2
    for not_a_pool in (f"{CJ_CASUAL_FREE}/4", f"{JJ_CASUAL_FREE}/2", f"{CJ_CASUAL_FREE}/5"):
        with pytest.raises(ServiceError):
            pools.pool_named(not_a_pool)


def test_each_seat_count_is_its_own_pool_and_seats_a_table_of_that_size(alice, bob, carol):
    pools.pool_join(player=alice, pool_ids=[CJ3_CASUAL_FREE, CJ2_CASUAL_FREE])
    pools.pool_join(player=bob, pool_ids=[CJ3_CASUAL_FREE, CJ_CASUAL_FREE])
    pools.pool_join(player=carol, pool_ids=[CJ3_CASUAL_FREE])
    assert selectors.pool_ticket_public(alice)["pools"] == [CJ3_CASUAL_FREE, CJ2_CASUAL_FREE]
    counts = selectors.pool_counts()
    assert counts[CJ3_CASUAL_FREE]["waiting"] == 3
    assert counts[CJ2_CASUAL_FREE]["waiting"] == 1 and counts[CJ_CASUAL_FREE]["waiting"] == 1
    assert _pair(CJ2_CASUAL_FREE) == [] and _pair(CJ_CASUAL_FREE) == []  # one each: nobody
    [table_id] = _pair(CJ3_CASUAL_FREE)
    table = Table.objects.get(pk=table_id)
    assert (table.seats_total, table.options["seats"]) == (3, 3)
    seats = Seat.objects.filter(table=table)
    assert sorted(s.position for s in seats) == [0, 1, 2]
    assert {s.player_id for s in seats} == {alice.pk, bob.pk, carol.pk}
    for player in (alice, bob):
        assert not _arrive(table_id, player)
    assert _arrive(table_id, carol)
    match = Match.objects.get(table=table)
    assert match.options["seats"] == 3 and len(match.state["scores"]) == 3
    assert selectors.pool_counts()[CJ3_CASUAL_FREE] == {"waiting": 0, "playing": 3}


def test_computers_fill_a_two_seat_classic_table(alice):
    pools.pool_join(player=alice, pool_ids=[CJ2_CASUAL_FREE], fill_after_seconds=10)
    [table_id] = _pair(CJ2_CASUAL_FREE, now=timezone.now() + timedelta(seconds=11))
    table = Table.objects.get(pk=table_id)
    assert (table.seats_total, table.options["seats"]) == (2, 2)
    assert sorted(s.is_bot for s in Seat.objects.filter(table=table)) == [False, True]
    assert _arrive(table_id, alice)
    assert Match.objects.get(table=table).status == Match.Status.PLAYING


@pytest.mark.parametrize(
    ("pool_ids", "more", "code"),
    [
        (["poker/fast/0/casual"], {}, "bad_pool"),
        ([], {}, "bad_pool"),
        ("japanese_joker/fast/0/casual", {}, "bad_pool"),  # not a list
        ([JJ_CASUAL_FREE], {"fill_after_seconds": 7}, "bad_fill"),
        ([JJ_CASUAL_FREE], {"bot_strength": "godlike"}, "bad_strength"),
    ],
)
def test_a_bad_pool_request_is_refused_in_words_and_changes_nothing(alice, pool_ids, more, code):
    with pytest.raises(ServiceError) as refused:
        pools.pool_join(player=alice, pool_ids=pool_ids, **more)
    assert refused.value.code == code and str(refused.value)
    assert not PoolTicket.objects.exists()


def test_a_guest_waits_only_in_free_casual_pools(guest):
    for pool_id in (
        JJ_RATED_25,
        "japanese_joker/normal/0/rated",
        "japanese_joker/normal/25/casual",
    ):
        with pytest.raises(ServiceError) as refused:
            pools.pool_join(player=guest, pool_ids=[JJ_CASUAL_FREE, pool_id])
        assert refused.value.code == "guest_pool"
    pools.pool_join(player=guest, pool_ids=[JJ_CASUAL_FREE, CJ_CASUAL_FREE])
    assert PoolEntry.objects.filter(ticket__player=guest).count() == 2


def test_a_cooldown_keeps_a_player_out_of_rated_and_stake_pools_not_casual_ones(alice):
    now = timezone.now()
    Cooldown.objects.create(
        player=alice, level=0, quits=3, created_at=now, until=now + timedelta(minutes=10)
    )
    with pytest.raises(ServiceError) as refused:
        pools.pool_join(player=alice, pool_ids=[JJ_RATED_25])
    assert refused.value.code == "cooldown"
    pools.pool_join(player=alice, pool_ids=[JJ_CASUAL_FREE])


def test_a_player_at_a_table_or_short_of_the_stake_cannot_wait(alice, bob):
    committed(
        tables.table_create,
        creator=alice,
        game="japanese_joker",
        options={},
        stake=0,
        visibility="public",
    )
    with pytest.raises(ServiceError) as refused:
        pools.pool_join(player=alice, pool_ids=[JJ_CASUAL_FREE])
    assert refused.value.code == "already_seated"
    CoinAccount.objects.filter(player=bob).update(balance=10)
    with pytest.raises(ServiceError) as refused:
        pools.pool_join(player=bob, pool_ids=[JJ_RATED_25])
    assert refused.value.code == "insufficient_coins"


def test_two_players_are_paired_and_the_match_starts_when_both_have_arrived(alice, bob):
    before = (_balance(alice), _balance(bob))
    pools.pool_join(player=alice, pool_ids=[JJ_RATED_25, JJ_CASUAL_FREE])
    pools.pool_join(player=bob, pool_ids=[JJ_RATED_25])
    assert _pair(JJ_CASUAL_FREE) == []  # bob does not wait there
    [table_id] = _pair(JJ_RATED_25)
    table = Table.objects.get(pk=table_id)
    assert (table.visibility, table.status, table.speed, table.stake, table.rated) == (
        Table.Visibility.POOL,
        Table.Status.OPEN,
        "fast",
        25,
        True,
    )
    assert {s.player_id for s in Seat.objects.filter(table=table)} == {alice.pk, bob.pk}
    assert set(PoolTicket.objects.values_list("table_id", flat=True)) == {table_id}
    assert _pair(JJ_RATED_25) == [] and _pair(JJ_CASUAL_FREE) == []  # nobody twice
    with pytest.raises(ServiceError) as refused:  # the seat waiting for her is not "elsewhere"
        pools.pool_join(player=alice, pool_ids=[JJ_CASUAL_FREE])
    assert refused.value.code == "paired"
    assert not _arrive(table_id, alice)
    assert (_balance(alice), _balance(bob)) == before  # no coin moves before the start
    assert _arrive(table_id, bob)
    match = Match.objects.get(table=table)
    assert match.status == Match.Status.PLAYING and match.speed == "fast"
    assert (_balance(alice), _balance(bob)) == (before[0] - 25, before[1] - 25)
    assert not PoolTicket.objects.exists()
    assert coin_audit().ok


def test_a_block_keeps_two_players_apart(alice, bob, carol):
    Block.objects.create(blocker=bob, blocked=alice)
    for player in (alice, bob):
        pools.pool_join(player=player, pool_ids=[JJ_CASUAL_FREE])
    assert _pair(JJ_CASUAL_FREE) == []
    pools.pool_join(player=carol, pool_ids=[JJ_CASUAL_FREE])
    [table_id] = _pair(JJ_CASUAL_FREE)
    seated = set(Seat.objects.filter(table_id=table_id).values_list("player_id", flat=True))
    assert seated == {alice.pk, carol.pk}  # the oldest first, with one she may meet


def test_a_no_show_is_dropped_and_the_one_who_came_is_back_at_the_head(alice, bob, carol):
    pools.pool_join(player=alice, pool_ids=[JJ_RATED_25])
    pools.pool_join(player=bob, pool_ids=[JJ_RATED_25])
    joined_at = PoolTicket.objects.get(player=alice).joined_at
    [table_id] = _pair(JJ_RATED_25)
    _arrive(table_id, alice)
    balances = (_balance(alice), _balance(bob))
    entries = CoinTransaction.objects.count()
    late = timezone.now() + timedelta(seconds=16)
    counts = committed(pools.pools_sweep, now=late)
    assert counts["called_off"] == 1
    assert Table.objects.get(pk=table_id).status == Table.Status.CANCELLED
    assert not Seat.objects.filter(table_id=table_id, active=True).exists()
    ticket = PoolTicket.objects.get(player=alice)
    assert ticket.table_id is None and ticket.joined_at == joined_at  # first in the queue
    assert not PoolTicket.objects.filter(player=bob).exists()  # bob is out of the pool
    assert (
        _balance(alice),
        _balance(bob),
    ) == balances and CoinTransaction.objects.count() == entries
    pools.pool_join(player=carol, pool_ids=[JJ_RATED_25])
    [again] = _pair(JJ_RATED_25)
    assert set(Seat.objects.filter(table_id=again).values_list("player_id", flat=True)) == {
        alice.pk,
        carol.pk,
    }


def test_leaving_a_paired_table_before_it_starts_calls_it_off(alice, bob):
    for player in (alice, bob):
        pools.pool_join(player=player, pool_ids=[JJ_CASUAL_FREE])
    [table_id] = _pair(JJ_CASUAL_FREE)
    _arrive(table_id, bob)
    assert committed(pools.pool_leave, player=alice)
    assert Table.objects.get(pk=table_id).status == Table.Status.CANCELLED
    assert PoolTicket.objects.get(player=bob).table_id is None
    assert not PoolTicket.objects.filter(player=alice).exists()
    assert committed(pools.pool_leave, player=alice) is False


def test_computers_fill_a_casual_table_for_those_who_asked_after_their_time(alice, bob):
    pools.pool_join(player=alice, pool_ids=[CJ_CASUAL_FREE], fill_after_seconds=20)
    pools.pool_join(player=bob, pool_ids=[CJ_CASUAL_FREE], fill_after_seconds=20)
    now = timezone.now()
    assert _pair(CJ_CASUAL_FREE, now=now + timedelta(seconds=5)) == []
    [table_id] = _pair(CJ_CASUAL_FREE, now=now + timedelta(seconds=21))
    seats = Seat.objects.filter(table_id=table_id)
    assert sorted(s.is_bot for s in seats) == [False, False, True, True]
    assert not _arrive(table_id, alice)
    assert _arrive(table_id, bob)
    assert Match.objects.get(table_id=table_id).status == Match.Status.PLAYING


def test_a_player_who_sat_down_elsewhere_is_not_paired(alice, bob, carol):
    for player in (alice, bob):
        pools.pool_join(player=player, pool_ids=[JJ_CASUAL_FREE])
    # alice sits down at an ordinary table meanwhile (another tab): her ticket cannot seat her
    table = Table.objects.create(
        game="japanese_joker", options={}, creator=alice, seats_total=2, visibility="public"
    )
    Seat.objects.create(table=table, player=alice, position=0)
    assert _pair(JJ_CASUAL_FREE) == []
    assert not PoolTicket.objects.filter(player=alice).exists()
    pools.pool_join(player=carol, pool_ids=[JJ_CASUAL_FREE])
    assert len(_pair(JJ_CASUAL_FREE)) == 1
