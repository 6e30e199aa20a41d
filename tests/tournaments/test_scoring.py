"""The pure tournament scoring (tournaments/scoring.py): arena streaks, Swiss tiebreaks, prizes."""

from __future__ import annotations

import ast
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments import scoring
from tournaments.scoring import (
    ABORTED,
    DEFAULT_PRIZE_SHARES,
    WINNER_TAKES_ALL,
    Aborted,
    ArenaGame,
    ArenaPlayer,
    Outcome,
    arena_place_points,
    arena_points,
    arena_record,
    arena_standings,
    outcomes_from_places,
    performance,
    prize_payouts,
    swiss_bye_points,
    swiss_points,
    swiss_standings,
    tied_groups,
)

WIN, DRAW, LOSS = Outcome(1), Outcome(1, tied=2), Outcome(2)
HALF = Fraction(1, 2)


def test_the_module_imports_only_the_standard_library():
    tree = ast.parse(Path(scoring.__file__).read_text())
    imported = {
        (node.module if isinstance(node, ast.ImportFrom) else alias.name).split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    }
    assert imported - {"__future__"} <= set(sys.stdlib_module_names)


# Outcomes --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("place", "tied", "seats"),
    [(0, 1, 2), (1, 0, 2), (1, 1, 1), (2, 2, 2), (3, 1, 2), (4, 2, 4)],
)
def test_an_impossible_outcome_is_refused(place, tied, seats):
    with pytest.raises(ValueError):
        Outcome(place, tied=tied, seats=seats)


@pytest.mark.parametrize(
    ("places", "expected"),
    [
        ({7: 1, 8: 2}, {7: Outcome(1), 8: Outcome(2)}),
        ({7: 1, 8: 1}, {7: DRAW, 8: DRAW}),
        (
            {1: 2, 2: 1, 3: 4, 4: 3},
            {1: Outcome(2, 1, 4), 2: Outcome(1, 1, 4), 3: Outcome(4, 1, 4), 4: Outcome(3, 1, 4)},
        ),
        (
            {1: 1, 2: 1, 3: 3, 4: 4},
            {1: Outcome(1, 2, 4), 2: Outcome(1, 2, 4), 3: Outcome(3, 1, 4), 4: Outcome(4, 1, 4)},
        ),
        # Dense places (1, 1, 2) mean the same as competition places (1, 1, 3).
        ({1: 1, 2: 1, 3: 2}, {1: Outcome(1, 2, 3), 2: Outcome(1, 2, 3), 3: Outcome(3, 1, 3)}),
        (
            {1: 2, 2: 2, 3: 2, 4: 1},
            {1: Outcome(2, 3, 4), 2: Outcome(2, 3, 4), 3: Outcome(2, 3, 4), 4: Outcome(1, 1, 4)},
        ),
    ],
)
def test_outcomes_are_read_from_a_matchs_places(places, expected):
    assert outcomes_from_places(places) == expected


def test_a_match_of_one_is_refused():
    with pytest.raises(ValueError):
        outcomes_from_places({1: 1})


# Arena -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seats", "points"),
    [(2, (2, 0)), (3, (4, 2, 0)), (4, (4, 2, 1, 0)), (5, (4, 2, 1, 0, 0))],
)
def test_arena_points_by_place(seats, points):
    assert arena_place_points(seats) == points


@pytest.mark.parametrize(
    ("outcome", "points"),
    [
        (WIN, 2),
        (LOSS, 0),
        (DRAW, 1),
        (Outcome(1, 1, 4), 4),
        (Outcome(2, 1, 4), 2),
        (Outcome(3, 1, 4), 1),
        (Outcome(4, 1, 4), 0),
        (Outcome(1, 2, 4), 3),  # (4 + 2) / 2
        (Outcome(2, 2, 4), 2),  # (2 + 1) / 2 = 1.5, half up
        (Outcome(3, 2, 4), 1),  # (1 + 0) / 2 = 0.5, half up
        (Outcome(1, 3, 4), 2),  # 7 / 3
        (Outcome(2, 3, 4), 1),
        (Outcome(1, 4, 4), 2),  # 7 / 4
        (Outcome(1, 1, 3), 4),
        (Outcome(2, 1, 3), 2),
        (Outcome(3, 1, 3), 0),
        (Outcome(1, 3, 3), 2),
    ],
)
def test_arena_points_of_an_outcome_share_the_spanned_places(outcome, points):
    assert arena_points(outcome) == points


W4, SECOND4, LAST4 = Outcome(1, 1, 4), Outcome(2, 1, 4), Outcome(4, 1, 4)
TIED_FIRST4 = Outcome(1, 2, 4)


@pytest.mark.parametrize(
    ("outcomes", "points", "doubled", "on_fire"),
    [
        ([], [], [], False),
        ([WIN], [2], [False], False),
        ([WIN, WIN], [2, 2], [False, False], True),
        ([WIN, WIN, WIN, WIN], [2, 2, 4, 4], [False, False, True, True], True),
        ([WIN, WIN, LOSS, WIN], [2, 2, 0, 2], [False, False, True, False], False),
        ([WIN, WIN, DRAW, WIN, WIN], [2, 2, 2, 2, 2], [False, False, True, False, False], True),
        ([WIN, LOSS, WIN, DRAW], [2, 0, 2, 1], [False] * 4, False),
        ([WIN, ABORTED, WIN, WIN], [2, 2, 4], [False, False, True], True),
        ([WIN, WIN, ABORTED], [2, 2], [False, False], True),
        ([ABORTED, ABORTED], [], [], False),
        ([W4, W4, SECOND4, W4, W4, W4], [4, 4, 4, 4, 4, 8], [0, 0, 1, 0, 0, 1], True),
        # A shared first place is no win: it is doubled, then the fire is out.
        ([W4, W4, TIED_FIRST4, W4], [4, 4, 6, 4], [0, 0, 1, 0], False),
        ([W4, W4, LAST4], [4, 4, 0], [0, 0, 1], False),
    ],
)
def test_the_arena_streak(outcomes, points, doubled, on_fire):
    record = arena_record(outcomes)
    assert [match.points for match in record.matches] == points
    assert [match.doubled for match in record.matches] == [bool(flag) for flag in doubled]
    assert record.on_fire is on_fire
    assert record.total == sum(points)
    assert record.played == len(points)
    assert record.wins == sum(isinstance(o, Outcome) and o.is_win for o in outcomes)


outcomes_2 = st.sampled_from([WIN, DRAW, LOSS, ABORTED])
outcomes_4 = st.builds(
    lambda place, tied: Outcome(place, min(tied, 5 - place), 4),
    st.integers(1, 4),
    st.integers(1, 4),
) | st.just(ABORTED)


@given(st.lists(outcomes_2) | st.lists(outcomes_4))
def test_a_match_is_doubled_exactly_after_two_wins_in_a_row(outcomes):
    played = [outcome for outcome in outcomes if not isinstance(outcome, Aborted)]
    record = arena_record(outcomes)
    assert record == arena_record(played)  # an abort changes nothing
    for index, (outcome, match) in enumerate(zip(played, record.matches, strict=True)):
        after_two_wins = index >= 2 and played[index - 1].is_win and played[index - 2].is_win
        assert match.doubled is after_two_wins
        assert match.points == arena_points(outcome) * (2 if after_two_wins else 1)
    assert record.on_fire is (len(played) >= 2 and played[-1].is_win and played[-2].is_win)


@pytest.mark.parametrize(
    ("games", "expected"),
    [
        ([], None),
        ([ArenaGame(ABORTED)], None),
        ([ArenaGame(WIN, (1600,)), ArenaGame(LOSS, (1400,))], 1500),
        ([ArenaGame(DRAW, (1500,)), ArenaGame(ABORTED)], 1500),
        ([ArenaGame(WIN, (1600,)), ArenaGame(WIN, (1601,))], 2101),  # 2100.5, half up
        ([ArenaGame(SECOND4, (1500, 1600, 1700))], 1767),  # 1600 + 500 / 3
        ([ArenaGame(TIED_FIRST4, (1500, 1600, 1700))], 1933),  # 1600 + 500 × (2 × 5/6 − 1)
        ([ArenaGame(LAST4, (1500, 1600, 1700))], 1100),
    ],
)
def test_performance_is_lichess_like(games, expected):
    assert performance(games) == expected


def test_a_played_arena_game_needs_every_opponents_rating():
    with pytest.raises(ValueError):
        ArenaGame(SECOND4, (1500, 1600))
    assert ArenaGame(ABORTED).opponent_ratings == ()


def _arena(player, outcomes, ratings=1500, reached_at=0.0):
    games = tuple(
        ArenaGame(o) if isinstance(o, Aborted) else ArenaGame(o, (ratings,) * (o.seats - 1))
        for o in outcomes
    )
    return ArenaPlayer(player=player, games=games, reached_at=reached_at)


@pytest.mark.parametrize(
    ("players", "order", "ranks"),
    [
        # Points first, whatever else.
        ([_arena(1, [LOSS], 2500), _arena(2, [WIN])], [2, 1], [1, 2]),
        # Equal points: the stronger opposition (performance) first.
        ([_arena(1, [WIN], 1500), _arena(2, [WIN], 1700)], [2, 1], [1, 2]),
        # Equal performance: the first to reach the final score.
        ([_arena(1, [WIN], reached_at=9), _arena(2, [WIN], reached_at=3)], [2, 1], [1, 2]),
        # Equal on everything: the id orders them, the rank is shared.
        ([_arena(2, [WIN]), _arena(1, [WIN]), _arena(3, [LOSS])], [1, 2, 3], [1, 1, 3]),
        # No match played yet sorts after any performance on equal points.
        ([_arena(1, []), _arena(2, [LOSS], 900)], [2, 1], [1, 2]),
        # The same three wins, but the streak doubled only the unbroken run's third.
        ([_arena(1, [WIN, WIN, WIN]), _arena(2, [WIN, WIN, LOSS, WIN])], [1, 2], [1, 2]),
    ],
)
def test_the_arena_tiebreaks(players, order, ranks):
    standings = arena_standings(players)
    assert [row.player for row in standings] == order
    assert [row.rank for row in standings] == ranks


def test_arena_standings_show_the_values_they_used():
    [first, second] = arena_standings(
        [_arena(5, [WIN, WIN, WIN], 1600, reached_at=4), _arena(6, [ABORTED, LOSS], 1500)]
    )
    assert (first.player, first.record.total, first.performance) == (5, 8, 2100)
    assert first.reached_at == 4
    assert first.record.on_fire and first.record.wins == 3
    assert (second.record.total, second.record.played, second.performance) == (0, 1, 1000)


# Swiss -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("outcome", "points"),
    [
        (WIN, 1),
        (DRAW, HALF),
        (LOSS, 0),
        (Outcome(1, 1, 4), 3),
        (Outcome(2, 1, 4), 2),
        (Outcome(3, 1, 4), 1),
        (Outcome(4, 1, 4), 0),
        (Outcome(1, 2, 4), Fraction(5, 2)),
        (Outcome(2, 2, 4), Fraction(3, 2)),
        (Outcome(3, 2, 4), HALF),
        (Outcome(1, 3, 4), 2),
        (Outcome(1, 4, 4), Fraction(3, 2)),
    ],
)
def test_swiss_points(outcome, points):
    assert swiss_points(outcome) == points


@pytest.mark.parametrize(("seats", "points"), [(2, 1), (3, 1), (4, 2)])
def test_a_bye_is_a_win_one_on_one_and_second_place_at_a_bigger_table(seats, points):
    assert swiss_bye_points(seats) == points


def _table(standings):
    return {
        row.player: (row.points, row.buchholz, row.buchholz_cut1, row.sonneborn_berger, row.wins)
        for row in standings
    }


def test_swiss_one_on_one_tiebreaks():
    # Round 1: 1 beats 2, 3 draws 4. Round 2: 1 beats 3, 2 beats 4.
    matches = [{1: 1, 2: 2}, {3: 1, 4: 1}, {1: 1, 3: 2}, {2: 1, 4: 2}]
    standings = swiss_standings([4, 3, 2, 1], matches, seats=2)
    assert [row.player for row in standings] == [1, 2, 3, 4]  # 3 over 4 on Buchholz
    assert [row.rank for row in standings] == [1, 2, 3, 4]
    assert _table(standings) == {
        1: (2, Fraction(3, 2), 1, Fraction(3, 2), 2),
        2: (1, Fraction(5, 2), 2, HALF, 1),
        3: (HALF, Fraction(5, 2), 2, Fraction(1, 4), 0),
        4: (HALF, Fraction(3, 2), 1, Fraction(1, 4), 0),
    }


def test_a_one_on_one_bye_is_a_virtual_opponent_with_the_players_own_score():
    # Round 1: 1 beats 2, 3 sits out. Round 2: 3 beats 1, 2 sits out.
    standings = swiss_standings([1, 2, 3], [{1: 1, 2: 2}, {3: 1, 1: 2}], [3, 2], seats=2)
    assert [row.player for row in standings] == [3, 1, 2]
    assert _table(standings) == {
        1: (1, 3, 2, 1, 1),
        2: (1, 2, 1, 1, 0),
        3: (2, 3, 2, 3, 1),
    }


def test_a_four_seat_round_makes_every_groupmate_an_opponent():
    standings = swiss_standings(range(1, 6), [{1: 1, 2: 2, 3: 3, 4: 4}], [5], seats=4)
    assert [row.player for row in standings] == [1, 5, 2, 3, 4]  # 5's bye: Buchholz 6 over 4
    assert _table(standings) == {
        1: (3, 3, 3, 3, 1),
        2: (2, 4, 4, 1, 0),
        3: (1, 5, 5, 0, 0),
        4: (0, 6, 5, 0, 0),
        5: (2, 6, 4, 4, 0),
    }


def test_a_tie_in_a_group_is_half_a_result_against_each_other():
    standings = swiss_standings([1, 2, 3, 4], [{1: 1, 2: 1, 3: 3, 4: 3}], seats=4)
    assert _table(standings) == {
        1: (Fraction(5, 2), Fraction(7, 2), 3, Fraction(9, 4), 0),
        2: (Fraction(5, 2), Fraction(7, 2), 3, Fraction(9, 4), 0),
        3: (HALF, Fraction(11, 2), Fraction(5, 1), Fraction(1, 4), 0),
        4: (HALF, Fraction(11, 2), Fraction(5, 1), Fraction(1, 4), 0),
    }
    assert [(row.player, row.rank) for row in standings] == [(1, 1), (2, 1), (3, 3), (4, 3)]
    assert tied_groups(standings) == [[1, 2], [3, 4]]


def test_a_player_without_a_game_still_stands():
    standings = swiss_standings([9], [], seats=4)
    assert _table(standings) == {9: (0, 0, 0, 0, 0)}
    assert standings[0].rank == 1


@pytest.mark.parametrize(
    ("matches", "byes"),
    [([{1: 1, 99: 2}], []), ([], [99])],
)
def test_swiss_refuses_a_stranger(matches, byes):
    with pytest.raises(ValueError):
        swiss_standings([1, 2], matches, byes, seats=2)


@st.composite
def swiss_events(draw):
    """Random rounds: everyone shuffled into full groups, whoever is left over sits out."""
    seats = draw(st.sampled_from([2, 4]))
    players = list(range(1, draw(st.integers(seats, 11)) + 1))
    matches, byes = [], []
    for _ in range(draw(st.integers(0, 5))):
        order = draw(st.permutations(players))
        full = len(order) - len(order) % seats
        byes.extend(order[full:])
        for start in range(0, full, seats):
            places = draw(st.lists(st.integers(1, seats), min_size=seats, max_size=seats))
            matches.append(dict(zip(order[start : start + seats], places, strict=True)))
    return seats, players, matches, byes


@given(swiss_events())
def test_swiss_standings_are_sorted_by_the_documented_tiebreaks(event):
    seats, players, matches, byes = event
    standings = swiss_standings(players, matches, byes, seats=seats)
    assert sorted(row.player for row in standings) == players
    keys = [
        (-r.points, -r.buchholz, -r.buchholz_cut1, -r.sonneborn_berger, -r.wins, r.player)
        for r in standings
    ]
    assert keys == sorted(keys)
    # Every group hands out one point per pair of seats; every bye its own points.
    pairs_per_match = Fraction(seats * (seats - 1), 2)
    expected = len(matches) * pairs_per_match + len(byes) * swiss_bye_points(seats)
    assert sum(row.points for row in standings) == expected
    for row in standings:
        assert 0 <= row.buchholz_cut1 <= row.buchholz
        assert 0 <= row.sonneborn_berger <= row.buchholz


# Prizes ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pool", "ranking", "shares", "expected"),
    [
        (100, [[1], [2], [3]], DEFAULT_PRIZE_SHARES, {1: 50, 2: 30, 3: 20}),
        (100, [[1], [2], [3], [4], [5]], DEFAULT_PRIZE_SHARES, {1: 50, 2: 30, 3: 20, 4: 0, 5: 0}),
        # Two players: 50 : 30 of the whole pool, 62.5 / 37.5; the odd coin to the winner.
        (100, [[1], [2]], DEFAULT_PRIZE_SHARES, {1: 63, 2: 37}),
        (100, [[1]], DEFAULT_PRIZE_SHARES, {1: 100}),
        (7, [[1], [2]], WINNER_TAKES_ALL, {1: 7, 2: 0}),
        (0, [[1], [2], [3]], DEFAULT_PRIZE_SHARES, {1: 0, 2: 0, 3: 0}),
        (100, [], DEFAULT_PRIZE_SHARES, {}),
        # Ties split the places they span.
        (100, [[1], [2, 3]], DEFAULT_PRIZE_SHARES, {1: 50, 2: 25, 3: 25}),
        (100, [[1, 2], [3]], DEFAULT_PRIZE_SHARES, {1: 40, 2: 40, 3: 20}),
        (100, [[1], [2], [3, 4]], DEFAULT_PRIZE_SHARES, {1: 50, 2: 30, 3: 10, 4: 10}),
        (100, [[1, 2, 3]], DEFAULT_PRIZE_SHARES, {1: 34, 2: 33, 3: 33}),
        (1, [[1, 2]], DEFAULT_PRIZE_SHARES, {1: 1, 2: 0}),
        # Leftover coins go to the best placed first.
        (10, [[1], [2], [3]], (1, 1, 1), {1: 4, 2: 3, 3: 3}),
        (11, [[1], [2], [3]], (1, 1, 1), {1: 4, 2: 4, 3: 3}),
        (99, [[1], [2], [3]], DEFAULT_PRIZE_SHARES, {1: 50, 2: 30, 3: 19}),
    ],
)
def test_prize_payouts(pool, ranking, shares, expected):
    assert prize_payouts(pool, ranking, shares) == expected


@pytest.mark.parametrize(
    ("pool", "ranking", "shares"),
    [
        (-1, [[1]], DEFAULT_PRIZE_SHARES),
        (10, [[1]], ()),
        (10, [[1]], (50, 0)),
        (10, [[1]], (20, 30, 50)),
        (10, [[1], [1]], DEFAULT_PRIZE_SHARES),
        (10, [[1], []], DEFAULT_PRIZE_SHARES),
    ],
)
def test_a_broken_prize_is_refused(pool, ranking, shares):
    with pytest.raises(ValueError):
        prize_payouts(pool, ranking, shares)


share_tables = st.lists(st.integers(1, 1000), min_size=1, max_size=12).map(
    lambda shares: sorted(shares, reverse=True)
)


def _exact_shares(pool, group_sizes, shares):
    filled = shares[: sum(group_sizes)]
    exact, place = [], 0
    for size in group_sizes:
        group_total = Fraction(pool * sum(filled[place : place + size]), sum(filled))
        exact.extend([group_total / size] * size)
        place += size
    return exact


@given(st.integers(0, 10**7), share_tables, st.integers(1, 20))
def test_a_strict_ranking_is_paid_the_whole_pool_in_order(pool, shares, count):
    payouts = prize_payouts(pool, [[player] for player in range(count)], shares)
    paid = [payouts[player] for player in range(count)]
    assert sum(paid) == pool
    assert paid == sorted(paid, reverse=True)
    for coins, exact in zip(paid, _exact_shares(pool, [1] * count, shares), strict=True):
        assert coins >= 0 and abs(coins - exact) <= 1


@given(st.integers(0, 10**7), share_tables, st.lists(st.integers(1, 4), min_size=1, max_size=8))
def test_tied_players_split_their_places_within_a_coin(pool, shares, group_sizes):
    players = iter(range(100))
    ranking = [[next(players) for _ in range(size)] for size in group_sizes]
    payouts = prize_payouts(pool, ranking, shares)
    paid = [payouts[player] for group in ranking for player in group]
    assert sum(paid) == pool
    for coins, exact in zip(paid, _exact_shares(pool, group_sizes, shares), strict=True):
        assert coins >= 0 and abs(coins - exact) <= 1
    for group in ranking:
        assert max(payouts[p] for p in group) - min(payouts[p] for p in group) <= 1
