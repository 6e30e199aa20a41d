"""The pairing rule of quick play (``games.services.pairing.pair``), case by case, without a
database: the oldest first, the nearest rating within a range that widens with waiting, never
two players one of whom blocked the other, four seats for classic Joker, computers only in
casual pools and only for those who asked."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from games.services.pairing import Gap, Group, Waiting, pair

NOW = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
GAP = Gap(start=100, per_second=10, most=500)


def waiting(ticket: int, rating: float, waited: float = 0, **more) -> Waiting:
    """Ticket ``ticket`` of player ``ticket + 100``, joined ``waited`` seconds ago."""
    return Waiting(
        ticket=ticket,
        player=ticket + 100,
        rating=rating,
        joined_at=NOW - timedelta(seconds=waited),
        **more,
    )


CASES = [
    ("nobody waits: no table", [], 2, False, []),
    ("one player alone: waits", [waiting(1, 1500, 60)], 2, False, []),
    (
        "two close ratings: paired at once",
        [waiting(1, 1500), waiting(2, 1580)],
        2,
        False,
        [Group((1, 2))],
    ),
    (
        "too far apart for two who just joined",
        [waiting(1, 1500), waiting(2, 1700)],
        2,
        False,
        [],
    ),
    (
        "the range widens with waiting: 10 s each makes 200",
        [waiting(1, 1500, 10), waiting(2, 1700, 10)],
        2,
        False,
        [Group((1, 2))],
    ),
    (
        "both ranges must reach: one patient player is not enough",
        [waiting(1, 1500, 60), waiting(2, 1700, 0)],
        2,
        False,
        [],
    ),
    (
        "the widening stops at its most",
        [waiting(1, 1000, 3600), waiting(2, 1600, 3600)],
        2,
        False,
        [],
    ),
    (
        "the oldest first, with the nearest rating",
        [waiting(1, 1500, 30), waiting(2, 1400, 20), waiting(3, 1520, 10), waiting(4, 1390, 5)],
        2,
        False,
        [Group((1, 3)), Group((2, 4))],
    ),
    (
        "a block keeps two apart, both ways",
        [
            waiting(1, 1500, 30, avoids=frozenset({102})),
            waiting(2, 1500, 20),
            waiting(3, 1560, 10),
        ],
        2,
        False,
        [Group((1, 3))],
    ),
    (
        "blocked from the other side",
        [waiting(1, 1500, 30), waiting(2, 1500, 20, avoids=frozenset({101}))],
        2,
        False,
        [],
    ),
    (
        "classic Joker seats four, not three",
        [waiting(1, 1500), waiting(2, 1510), waiting(3, 1490)],
        4,
        False,
        [],
    ),
    (
        "classic Joker: four within each other's ranges",
        [
            waiting(1, 1500, 9),
            waiting(2, 1510),
            waiting(3, 1490),
            waiting(4, 1450),
            waiting(5, 1900),
        ],
        4,
        False,
        [Group((1, 2, 3, 4))],
    ),
    (
        "classic Joker: one blocked pair among five leaves the blocker out",
        [
            waiting(1, 1500, 9),
            waiting(2, 1510, avoids=frozenset({101})),
            waiting(3, 1490),
            waiting(4, 1450),
            waiting(5, 1520),
        ],
        4,
        False,
        [Group((1, 3, 5, 4))],  # each time the nearest to the group's mean
    ),
    (
        "casual with computers asked for, the fill time not reached: waits",
        [waiting(1, 1500, 5, fill_after_seconds=10)],
        2,
        True,
        [],
    ),
    (
        "casual, fill time passed: a computer opponent",
        [waiting(1, 1500, 10, fill_after_seconds=10)],
        2,
        True,
        [Group((1,), computers=1)],
    ),
    (
        "a person first, when one fits, even once the fill time has passed",
        [waiting(1, 1500, 30, fill_after_seconds=10), waiting(2, 1550)],
        2,
        True,
        [Group((1, 2))],
    ),
    (
        "rated pools wait for people whatever was asked",
        [waiting(1, 1500, 60, fill_after_seconds=10)],
        2,
        False,
        [],
    ),
    (
        "no computers for a player who did not ask",
        [waiting(1, 1500, 600)],
        2,
        True,
        [],
    ),
    (
        "classic Joker casual: two who asked, the missing two seats to computers",
        [
            waiting(1, 1500, 20, fill_after_seconds=20),
            waiting(2, 1520, 3, fill_after_seconds=20),
            waiting(3, 1480, 3),
        ],
        4,
        True,
        [Group((1, 2), computers=2)],
    ),
]


@pytest.mark.parametrize(
    ("case", "queue", "seats", "casual", "groups"),
    CASES,
    ids=[case[0] for case in CASES],
)
def test_the_pairing_rule(case, queue, seats, casual, groups):
    assert pair(queue, seats=seats, gap=GAP, now=NOW, casual=casual) == groups


def test_each_ticket_is_seated_at_most_once_whatever_the_queue():
    """A large random pool: every ticket in at most one group, every group full or filled,
    every group within its members' ranges and free of blocks."""
    rng = random.Random(7)
    queue = [
        waiting(
            n,
            rng.gauss(1500, 200),
            rng.uniform(0, 60),
            fill_after_seconds=rng.choice([None, 10, 20]),
            avoids=frozenset(rng.sample(range(100, 400), 3)),
        )
        for n in range(300)
    ]
    by_ticket = {w.ticket: w for w in queue}
    for seats in (2, 4):
        groups = pair(queue, seats=seats, gap=GAP, now=NOW, casual=True)
        seated = [t for g in groups for t in g.tickets]
        assert len(seated) == len(set(seated))
        assert len(groups) > 10
        for group in groups:
            assert len(group.tickets) + group.computers == seats
            members = [by_ticket[t] for t in group.tickets]
            for a in members:
                for b in members:
                    if a is not b:
                        assert b.player not in a.avoids
                        assert abs(a.rating - b.rating) <= GAP.allowed(a, NOW)
