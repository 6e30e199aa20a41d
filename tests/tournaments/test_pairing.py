"""The pure pairing rules (tournaments/pairing.py): arena tables, Swiss pairs and larger Swiss
tables, and the suggested number of rounds. Brute force is the oracle for "no repeat meeting
when a repeat-free round exists": small fields, every possible round."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing import (
    ArenaPlayer,
    SwissPlayer,
    SwissRound,
    pair_arena,
    pair_swiss,
    swiss_groups,
    swiss_pairs,
    swiss_rounds,
)


def arena(id: int, score: int = 0, rating: float = 1500, last=(), since: float = 0) -> ArenaPlayer:
    return ArenaPlayer(id, score, rating, frozenset(last), since)


def swiss(id: int, score: float = 0, rating: float = 1500, met=(), bye=False) -> SwissPlayer:
    return SwissPlayer(id, score, rating, frozenset(met), bye)


def rank(players: Sequence[SwissPlayer]) -> list[SwissPlayer]:
    return sorted(players, key=lambda p: (-p.score, -p.rating, p.id))


def met(a: SwissPlayer, b: SwissPlayer) -> bool:
    return b.id in a.opponents or a.id in b.opponents


def partitions(
    players: Sequence[SwissPlayer], seats: int
) -> Iterator[list[tuple[SwissPlayer, ...]]]:
    """Every way to seat ``players`` at tables of ``seats``."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for others in itertools.combinations(rest, seats - 1):
        left = [p for p in rest if p not in others]
        for tail in partitions(left, seats):
            yield [(first, *others), *tail]


def repeats_in(tables: Sequence[Sequence[SwissPlayer]]) -> int:
    return sum(met(a, b) for table in tables for a, b in itertools.combinations(table, 2))


# -- arena --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "seats", "expected"),
    [
        pytest.param([], 2, [], id="nobody"),
        pytest.param([arena(1)], 2, [], id="one player waits"),
        pytest.param(
            [arena(1, 3), arena(2, 9), arena(3, 5), arena(4, 1)],
            2,
            [(2, 3), (1, 4)],
            id="score neighbours",
        ),
        pytest.param(
            [arena(1, 5, 1400), arena(2, 5, 1900), arena(3, 5, 1600), arena(4, 5, 1500)],
            2,
            [(2, 3), (4, 1)],
            id="rating breaks score ties",
        ),
        pytest.param([arena(1, last=[2]), arena(2, last=[1])], 2, [], id="only the last opponent"),
        pytest.param([arena(1, last=[2]), arena(2)], 2, [], id="either side's record counts"),
        pytest.param(
            [arena(1, 9, last=[2]), arena(2, 8, last=[1]), arena(3, 7), arena(4, 6)],
            2,
            [(1, 3), (2, 4)],
            id="skip the last opponent",
        ),
        pytest.param(
            [arena(1, 9, since=5), arena(2, 8, since=1), arena(3, 7, since=3)],
            2,
            [(2, 3)],
            id="latest arrival sits out the odd seat",
        ),
        pytest.param(
            [arena(i, 10 - i, since=i % 3) for i in range(1, 7)],
            4,
            [(1, 3, 4, 6)],
            id="four seats, the two latest sit out",
        ),
        pytest.param(
            [arena(1, 9, last=[2]), arena(2, 8), arena(3, 7), arena(4, 6)],
            4,
            [],
            id="four seats, no table without last opponents",
        ),
        pytest.param(
            [arena(i, 20 - i, last=[i ^ 1]) for i in range(8)],
            4,
            [(0, 2, 4, 6), (1, 3, 5, 7)],
            id="four seats, previous pairs split",
        ),
    ],
)
def test_arena_tables(players, seats, expected):
    assert pair_arena(players, seats) == expected


def test_arena_pairs_500_free_players_into_250_tables():
    rng = random.Random(7)
    players = [
        arena(i, rng.randint(0, 40), rng.uniform(1000, 2400), last=[i ^ 1], since=rng.random())
        for i in range(500)
    ]
    tables = pair_arena(players, 2)
    assert len(tables) == 250
    assert sorted(itertools.chain.from_iterable(tables)) == list(range(500))
    assert len(pair_arena(players, 4)) == 125


@pytest.mark.parametrize("call", [pair_arena, swiss_groups, pair_swiss])
def test_a_table_needs_two_seats(call):
    with pytest.raises(ValueError):
        call([], 1)


def test_a_player_listed_twice_is_refused():
    with pytest.raises(ValueError):
        pair_arena([arena(1), arena(1, 3)], 2)
    with pytest.raises(ValueError):
        swiss_pairs([swiss(1), swiss(1)])


@st.composite
def arena_pools(draw) -> tuple[list[ArenaPlayer], int]:
    """Up to 30 free players and a seat count; a player's last opponents need not list them."""
    n = draw(st.integers(0, 30))
    ids = st.integers(0, max(n - 1, 0))
    last = draw(st.lists(st.tuples(ids, ids), max_size=n))
    players = [
        arena(
            i,
            draw(st.integers(0, 6)),
            draw(st.sampled_from([1200.0, 1500.0, 1800.0])),
            last={b for a, b in last if a == i},
            since=draw(st.integers(0, 3)),
        )
        for i in range(n)
    ]
    return draw(st.permutations(players)), draw(st.integers(2, 4))


@settings(deadline=None)
@given(arena_pools())
def test_arena_tables_are_full_fresh_and_from_the_pool(pool):
    players, seats = pool
    by_id = {p.id: p for p in players}
    tables = pair_arena(players, seats)
    seated = [i for table in tables for i in table]
    assert len(seated) == len(set(seated)) and set(seated) <= set(by_id)
    assert all(len(table) == seats for table in tables)
    for table in tables:
        for a, b in itertools.combinations(table, 2):
            assert a not in by_id[b].last_opponents and b not in by_id[a].last_opponents
    assert pair_arena(list(reversed(players)), seats) == tables


@settings(deadline=None)
@given(arena_pools())
def test_without_last_opponents_only_the_latest_arrivals_wait(pool):
    players, seats = pool
    players = [arena(p.id, p.score, p.rating, since=p.waiting_since) for p in players]
    seated = {i for table in pair_arena(players, seats) for i in table}
    waiting = [p for p in players if p.id not in seated]
    assert len(waiting) == len(players) % seats
    latest_seated = max((p.waiting_since for p in players if p.id in seated), default=-1)
    assert all(p.waiting_since >= latest_seated for p in waiting)


# -- Swiss, two seats ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "tables", "byes", "repeats"),
    [
        pytest.param([], (), (), 0, id="nobody"),
        pytest.param([swiss(1)], (), (1,), 0, id="one player has the bye"),
        pytest.param(
            [swiss(i, rating=2000 - i) for i in range(1, 7)],
            ((1, 4), (2, 5), (3, 6)),
            (),
            0,
            id="top half against bottom half",
        ),
        pytest.param(
            [swiss(1, 2), swiss(2, 2), swiss(3, 1), swiss(4, 1)],
            ((1, 2), (3, 4)),
            (),
            0,
            id="within score groups",
        ),
        pytest.param(
            [swiss(1, 2), swiss(2, 2), swiss(3, 2), swiss(4, 1), swiss(5, 1), swiss(6, 1)],
            ((1, 2), (3, 4), (5, 6)),
            (),
            0,
            id="the group's lowest floats to the top of the next",
        ),
        pytest.param(
            [swiss(1, 1.5), swiss(2, 1.5), swiss(3, 1.0), swiss(4, 0.5)],
            ((1, 2), (3, 4)),
            (),
            0,
            id="half points",
        ),
        pytest.param(
            [swiss(1, 3), swiss(2, 2), swiss(3, 1, bye=True), swiss(4, 0, bye=True), swiss(5, 0)],
            ((1, 2), (3, 4)),
            (5,),
            0,
            id="bye to the lowest without one",
        ),
        pytest.param(
            [swiss(1, 3, bye=True), swiss(2, 2, bye=True), swiss(3, 1, bye=True)],
            ((1, 2),),
            (3,),
            0,
            id="everyone had one: the lowest",
        ),
        pytest.param(
            [swiss(1, 2, met=[2]), swiss(2, 1), swiss(3, 0)],
            ((1, 3),),
            (2,),
            0,
            id="the bye moves up to avoid a repeat",
        ),
        pytest.param(
            [swiss(1, 2), swiss(2, 1, met=[3], bye=True), swiss(3, 0, bye=True)],
            ((2, 3),),
            (1,),
            1,
            id="never a second bye while someone lacks one",
        ),
        pytest.param(
            [swiss(1, 1, met=[2]), swiss(2, 0)], ((1, 2),), (), 1, id="an unavoidable repeat"
        ),
    ],
)
def test_swiss_pairs(players, tables, byes, repeats):
    assert swiss_pairs(players) == SwissRound(tables, byes, repeats)
    assert pair_swiss(players, 2) == swiss_pairs(players)


@st.composite
def swiss_fields(draw, most: int) -> list[SwissPlayer]:
    """Up to ``most`` players with scores, ratings, byes and a random (symmetric) history."""
    n = draw(st.integers(0, most))
    pairs = list(itertools.combinations(range(n), 2))
    history = draw(st.sets(st.sampled_from(pairs), max_size=2 * n)) if pairs else set()
    players = [
        swiss(
            i,
            draw(st.sampled_from([0, 0.5, 1, 1.5, 2, 3])),
            draw(st.sampled_from([1400.0, 1500.0, 1600.0])),
            met={b if a == i else a for a, b in history if i in (a, b)},
            bye=draw(st.booleans()),
        )
        for i in range(n)
    ]
    return draw(st.permutations(players))


def check_round(players: Sequence[SwissPlayer], result: SwissRound, seats: int) -> None:
    """What every Swiss round keeps: each player once, full tables in rank order, n mod seats
    byes, and an honest repeat count."""
    by_id = {p.id: p for p in players}
    seen = [i for table in result.tables for i in table] + list(result.byes)
    assert sorted(seen) == sorted(by_id)
    assert all(len(table) == seats for table in result.tables)
    assert len(result.byes) == len(players) % seats
    order = [p.id for p in rank(players)]
    assert all(list(table) == sorted(table, key=order.index) for table in result.tables)
    assert result.repeats == repeats_in([[by_id[i] for i in t] for t in result.tables])


@settings(max_examples=150, deadline=None)
@given(swiss_fields(most=9))
def test_swiss_pairs_repeat_only_when_every_round_does(players):
    result = swiss_pairs(players)
    check_round(players, result, 2)
    fresh = [p for p in players if not p.had_bye] or list(players)
    byes = [[p] for p in fresh] if len(players) % 2 else [[]]
    fewest = min(
        repeats_in(tables)
        for bye in byes
        for tables in partitions([p for p in players if p not in bye], 2)
    )
    assert result.repeats == fewest
    assert all(p.id in {f.id for f in fresh} for p in players if p.id in result.byes)
    assert swiss_pairs(list(reversed(players))) == result


@settings(max_examples=150, deadline=None)
@given(swiss_fields(most=13), st.integers(2, 4))
def test_swiss_groups_repeat_only_when_every_round_does(players, seats):
    result = swiss_groups(players, seats)
    check_round(players, result, seats)
    bottom_up = sorted(reversed(rank(players)), key=lambda p: p.had_bye)
    assert set(result.byes) == {p.id for p in bottom_up[: len(players) % seats]}
    pool = [p for p in rank(players) if p.id not in result.byes]
    if any(repeats_in(tables) == 0 for tables in partitions(pool, seats)):
        assert result.repeats == 0
    assert swiss_groups(list(reversed(players)), seats) == result


def play(players: list[SwissPlayer], result: SwissRound, rng: random.Random) -> list[SwissPlayer]:
    """Everyone after the round: places score seats - place, a bye scores a win."""
    by_id = {p.id: p for p in players}
    after = []
    for table in result.tables:
        for place, i in enumerate(rng.sample(table, len(table))):
            p = by_id[i]
            met = p.opponents | set(table) - {i}
            after.append(swiss(i, p.score + len(table) - 1 - place, p.rating, met, p.had_bye))
    after += [
        swiss(i, by_id[i].score + 1, by_id[i].rating, by_id[i].opponents, True) for i in result.byes
    ]
    return after


@settings(max_examples=25, deadline=None)
@given(st.randoms(use_true_random=False))
def test_eight_players_play_four_swiss_rounds_without_meeting_twice(rng):
    # After three rounds each player still has four of seven unmet: a repeat-free round exists.
    players = [swiss(i, rating=rng.uniform(1200, 2000)) for i in range(8)]
    for _ in range(4):
        result = pair_swiss(players, 2)
        assert result.repeats == 0
        players = play(players, result, rng)


@settings(max_examples=25, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(16, 19))
def test_a_second_round_of_four_seat_tables_meets_nobody_again(rng, n):
    # Sixteen at four tables can always be reseated one from each first-round table.
    players = [swiss(i, rating=rng.uniform(1200, 2000)) for i in range(n)]
    for _ in range(2):
        result = pair_swiss(players, 4)
        check_round(players, result, 4)
        assert result.repeats == 0
        players = play(players, result, rng)


# -- Swiss, larger tables -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "seats", "tables", "byes", "repeats"),
    [
        pytest.param(
            [swiss(i, rating=2000 - i) for i in range(8)],
            4,
            ((0, 1, 2, 3), (4, 5, 6, 7)),
            (),
            0,
            id="rank order",
        ),
        pytest.param(
            [swiss(i, 9 - i) for i in range(10)],
            4,
            ((0, 1, 2, 3), (4, 5, 6, 7)),
            (8, 9),
            0,
            id="the lowest two sit out",
        ),
        pytest.param(
            [swiss(i, 9 - i, bye=i in (8, 9)) for i in range(10)],
            4,
            ((0, 1, 2, 3), (4, 5, 8, 9)),
            (6, 7),
            0,
            id="the lowest without a bye sit out",
        ),
        pytest.param(
            [swiss(i, 9 - i, bye=True) for i in range(5)],
            4,
            ((0, 1, 2, 3),),
            (4,),
            0,
            id="everyone had one: the lowest",
        ),
        pytest.param(
            [swiss(i, 9 - i, met=[1] if i == 3 else []) for i in range(8)],
            4,
            ((0, 1, 2, 4), (3, 5, 6, 7)),
            (),
            0,
            id="the nearest who met nobody at the table swaps in",
        ),
        pytest.param(
            [
                swiss(i, 9 - i, met={j for j in range(8) if j // 4 == i // 4} - {i})
                for i in range(8)
            ],
            4,
            ((0, 1, 4, 5), (2, 3, 6, 7)),
            (),
            4,
            id="eight players' second round: the fewest repeats",
        ),
        pytest.param(
            [swiss(i, 9 - i) for i in range(7)],
            3,
            ((0, 1, 2), (3, 4, 5)),
            (6,),
            0,
            id="three seats",
        ),
    ],
)
def test_swiss_groups(players, seats, tables, byes, repeats):
    assert swiss_groups(players, seats) == SwissRound(tables, byes, repeats)
    assert pair_swiss(players, seats) == swiss_groups(players, seats)


# -- rounds -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "seats", "rounds"),
    [
        (1, 2, 0),
        (2, 2, 1),
        (3, 2, 2),
        (8, 2, 3),
        (9, 2, 4),
        (100, 2, 7),
        (3, 4, 0),
        (4, 4, 1),
        (5, 4, 1),
        (16, 4, 2),
        (17, 4, 3),
        (64, 4, 3),
        (9, 3, 2),
    ],
)
def test_swiss_rounds(players, seats, rounds):
    assert swiss_rounds(players, seats) == rounds


@settings(deadline=None)
@given(st.integers(0, 5000), st.integers(2, 6))
def test_rounds_fit_a_repeat_free_schedule(players, seats):
    rounds = swiss_rounds(players, seats)
    assert rounds * (seats - 1) <= max(players - 1, 0)
    assert rounds == 0 or seats ** (rounds - 1) < players


def test_rounds_need_two_seats():
    with pytest.raises(ValueError):
        swiss_rounds(8, 1)
