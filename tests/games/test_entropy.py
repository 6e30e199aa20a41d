"""Deals no one can choose (issue 31 § 2) through the services: a seat's commitment when it
sits, the full table asking for the values, the start on the last value or when the window is
over, the server's value for a seat with none or a wrong one, and the record verify checks."""

from __future__ import annotations

import hashlib
import random
import secrets
from datetime import timedelta

import pytest
from django.utils import timezone

from core.errors import ServiceError
from games import history, replay
from games.entropy import (
    PLAYER,
    REFUSED,
    SERVER,
    entropy_problems,
    entropy_record,
    match_seed,
    server_value,
)
from games.models import Match, Table
from games.services import pools, reveals, tables
from tests.games.test_pools import _arrive, _pair
from tests.support.matches import play_out

pytestmark = pytest.mark.django_db


def share() -> tuple[str, str]:
    """A browser's value and its commitment."""
    value = secrets.token_hex(32)
    return value, hashlib.sha256(value.encode()).hexdigest()


def open_table(creator, commitment: str = "", game: str = "japanese_joker") -> Table:
    return tables.table_create(
        creator=creator,
        game=game,
        options={},
        stake=0,
        visibility="public",
        entropy_commitment=commitment,
    )


def test_the_seed_is_the_hmac_of_the_values_and_the_record_says_what_differs():
    secret = "ab" * 32
    value, commitment = share()
    record = entropy_record(secret, [(commitment, value), ("", "")])
    assert [s["source"] for s in record["seats"]] == [PLAYER, SERVER]
    assert record["seats"][1]["value"] == server_value(secret, 1) != server_value(secret, 0)
    seed = match_seed(secret, [value, server_value(secret, 1)])
    assert seed.startswith("sha256:") and entropy_problems(record, seed) == []
    assert entropy_problems(record, match_seed(secret, [value, value])) == [
        "seed: it is not the HMAC of the seats' values under the server's secret"
    ]
    lied = {
        **record,
        "seats": [{**record["seats"][0], "value": server_value(secret, 0)}, record["seats"][1]],
    }
    assert entropy_problems(lied, seed)[0].startswith("entropy.seats[0].value: the values give")
    other = {**record, "server_secret": "cd" * 32}
    assert entropy_problems(other, seed)[0].startswith("entropy.server_commitment: SHA-256")
    assert entropy_problems("nothing", seed) == ["entropy must be an object"]


def test_without_commitments_the_last_seat_starts_the_match_with_the_servers_values(alice, bob):
    table = open_table(alice)
    tables.table_join(player=bob, table_id=table.pk)
    match = Match.objects.get(table=table)
    assert [s["source"] for s in match.entropy["seats"]] == [SERVER, SERVER]
    values = [s["value"] for s in match.entropy["seats"]]
    assert match.seed == match_seed(match.entropy["server_secret"], values)
    assert not Table.objects.get(pk=table.pk).entropy_secret


def test_two_committed_seats_start_when_both_have_revealed_and_the_record_verifies(alice, bob):
    (a_value, a_commit), (b_value, b_commit) = share(), share()
    table = open_table(alice, a_commit)
    tables.table_join(player=bob, table_id=table.pk, entropy_commitment=b_commit)
    table.refresh_from_db()
    assert table.status == Table.Status.OPEN and table.reveal_asked_at is not None
    assert len(table.entropy_secret) == 64 and not Match.objects.filter(table=table).exists()
    with pytest.raises(ServiceError) as late:
        reveals.entropy_commit(table_id=table.pk, player=alice, commitment=share()[1])
    assert late.value.code == "entropy_late"
    reveals.entropy_reveal(table_id=table.pk, player=alice, value=a_value)
    assert not Match.objects.filter(table=table).exists()  # bob's is still to come
    secret = Table.objects.get(pk=table.pk).entropy_secret
    reveals.entropy_reveal(table_id=table.pk, player=bob, value=b_value)
    match = Match.objects.get(table=table)
    assert match.entropy["server_secret"] == secret  # drawn before either value was known
    assert [s["source"] for s in match.entropy["seats"]] == [PLAYER, PLAYER]
    assert match.seed == match_seed(secret, [a_value, b_value])
    match = play_out(Table.objects.get(pk=table.pk), random.Random(2))
    record, problems = history.verify_stored(match)
    assert problems == [] and record["entropy"]["seats"][1]["revealed"] == b_value
    record["entropy"]["seats"][0]["revealed"] = b_value  # someone rewrites a seat's value
    assert "entropy.seats[0].source: the values give refused" in " ".join(replay.verify(record))


def test_a_value_that_does_not_match_its_commitment_is_kept_marked_and_not_used(alice, bob):
    (_a_value, a_commit), (b_value, _) = share(), share()
    table = open_table(alice, a_commit)
    tables.table_join(player=bob, table_id=table.pk)  # bob's page sent no commitment
    reveals.entropy_reveal(table_id=table.pk, player=alice, value=b_value)  # not hers
    match = Match.objects.get(table=table)
    seat = match.entropy["seats"][0]
    assert (seat["source"], seat["revealed"]) == (REFUSED, b_value)
    assert seat["value"] == server_value(match.entropy["server_secret"], 0)
    assert entropy_problems(match.entropy, match.seed) == []


def test_a_seat_silent_past_the_window_gets_the_servers_value(alice, bob, settings):
    (_a_value, a_commit), (b_value, b_commit) = share(), share()
    table = open_table(alice, a_commit)
    tables.table_join(player=bob, table_id=table.pk, entropy_commitment=b_commit)
    reveals.entropy_reveal(table_id=table.pk, player=bob, value=b_value)
    now = timezone.now()
    assert reveals.reveals_sweep(now=now) == 0  # within the window: asked again, not started
    assert not Match.objects.filter(table=table).exists()
    later = now + timedelta(seconds=settings.ENTROPY_REVEAL_SECONDS + 1)
    assert reveals.reveals_sweep(now=later) == 1
    match = Match.objects.get(table=table)
    assert [s["source"] for s in match.entropy["seats"]] == [SERVER, PLAYER]
    assert reveals.reveals_sweep(now=later) == 0  # started once


def test_a_player_leaving_a_full_table_in_its_window_is_asked_for_again(alice, bob, carol):
    (a_value, a_commit), (_b, b_commit), (c_value, c_commit) = share(), share(), share()
    table = open_table(alice, a_commit)
    tables.table_join(player=bob, table_id=table.pk, entropy_commitment=b_commit)
    reveals.entropy_reveal(table_id=table.pk, player=alice, value=a_value)
    tables.table_leave(player=bob, table_id=table.pk)
    table.refresh_from_db()
    assert table.reveal_asked_at is None and table.status == Table.Status.OPEN
    tables.table_join(player=carol, table_id=table.pk, entropy_commitment=c_commit)
    assert not Match.objects.filter(table=table).exists()  # carol is asked
    reveals.entropy_reveal(table_id=table.pk, player=carol, value=c_value)
    match = Match.objects.get(table=table)
    assert [s["revealed"] for s in match.entropy["seats"]] == [a_value, c_value]


@pytest.mark.parametrize(
    ("call", "value", "code"),
    [
        ("commit", "ABC", "bad_entropy"),
        ("commit", "g" * 64, "bad_entropy"),
        ("commit", ["not", "text"], "bad_entropy"),
        ("reveal", "0" * 63, "bad_entropy"),
        ("reveal", "0" * 64, "entropy_unasked"),
    ],
)
def test_bad_input_is_refused_in_words_and_changes_nothing(alice, call, value, code):
    table = open_table(alice)
    service = reveals.entropy_commit if call == "commit" else reveals.entropy_reveal
    argument = {"commitment": value} if call == "commit" else {"value": value}
    with pytest.raises(ServiceError) as refused:
        service(table_id=table.pk, player=alice, **argument)
    assert refused.value.code == code and str(refused.value)
    assert not table.seats.exclude(entropy_commitment="").exists()


def test_only_a_seated_player_of_an_open_table_takes_part(alice, bob):
    table = open_table(alice)
    with pytest.raises(ServiceError) as refused:
        reveals.entropy_commit(table_id=table.pk, player=bob, commitment=share()[1])
    assert refused.value.code == "not_seated"
    with pytest.raises(ServiceError) as refused:
        tables.table_join(player=bob, table_id=table.pk, entropy_commitment="nope")
    assert refused.value.code == "bad_entropy" and table.seats.count() == 1


def test_a_pool_table_waits_for_the_values_of_those_who_committed(alice, bob):
    pool = "japanese_joker/normal/0/casual"
    for player in (alice, bob):
        pools.pool_join(player=player, pool_ids=[pool])
    [table_id] = _pair(pool)
    value, commitment = share()
    assert not _arrive(table_id, alice)
    reveals.entropy_commit(table_id=table_id, player=alice, commitment=commitment)
    assert not _arrive(table_id, bob)  # full, alice's value to come: not called off
    assert Table.objects.get(pk=table_id).status == Table.Status.OPEN
    reveals.entropy_reveal(table_id=table_id, player=alice, value=value)
    match = Match.objects.get(table_id=table_id)
    assert [s["source"] for s in match.entropy["seats"]] in ([PLAYER, SERVER], [SERVER, PLAYER])
