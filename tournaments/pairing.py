"""Who sits with whom in arenas and Swiss events: pure Python, no Django, no clock, no I/O.

Everything works from the number of seats at a table (2 in Japanese Joker and Japanese Whist, 4
in classic Joker, any n >= 2 here), never from a game. Players are ranked by score, then rating
(both highest first), then id (lowest first); every tie ends there, so the same input always
gives the same output. Scores arrive as plain numbers. Tables list their players in rank order.

Arena (as lichess's arena): the free players, ranked, are grouped with their nearest neighbours
by a greedy scan. Each player still free in turn founds a table and takes, nearest first, the
free players among the next ``ARENA_WINDOW`` (8) who played in nobody's previous match at the
table; a founder who cannot fill the table waits for the next pass rather than meet a last
opponent again. The window keeps a pass linear (500 players are paired in a few milliseconds)
and keeps tables among near ranks. When the pool does not divide into tables, the latest
arrivals (``waiting_since``) sit this pass out, as lichess leaves out its newest player.

Swiss, two seats: a maximum-weight perfect matching (``networkx.max_weight_matching``) over
every pair, plus a bye node when the count is odd. Each edge's cost is read tier by tier, each
tier outweighing all those below it over a whole round: (1) a bye for a player who already had
one while someone has not; (2) a repeat meeting, so repeats appear only when no repeat-free
round exists, and ``SwissRound.repeats`` says how many; (3) the bye's distance from the bottom
of the ranking, so it goes to the lowest-ranked player without a bye unless that forces a
repeat (FIDE lets the pairing move the bye too); (4) the squared score difference, so players
meet within their score group and floaters drop as little as possible; (5) within a score
group, how far the pair is from top-half-against-bottom-half (1st meets the player half the
group below, as FIDE's Dutch system does); across groups, the rank distance, so a floater meets
the top of the next group. Costs are exact integers (scores via ``Fraction``) because the
matching is exact on integer weights.

Swiss, larger tables: the byes (n mod seats) go to the lowest-ranked players without a bye,
then to the lowest-ranked. The rest are grouped in rank order: the best player left founds a
table and takes the nearest players who have met nobody at it, backtracking when that leads
to a dead end. The first grouping found is the nearest to plain rank order. The search stops
after ``SEARCH_BUDGET`` tries (plenty below a few dozen players); when no repeat-free grouping
is found, each table instead takes, among the next ``SWISS_WINDOW`` players, the one who has
met the fewest of it, so repeats stay few and scores stay close. No computer fills a seat:
Swiss events are rated.

Why a matching rather than a Swiss-system package: the Swiss packages on PyPI are small and
unmaintained, and the engines that implement the FIDE Dutch rules (bbpPairings, JaVaFo) are C++
and Java programs. The hard part, an optimal pairing under hard and soft constraints, is a
maximum-weight matching, which networkx maintains and tests.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Protocol, TypeVar

import networkx as nx

ARENA_WINDOW = 8  # free players an arena founder looks at past itself
SWISS_WINDOW = 8  # players a larger Swiss table looks at when repeats cannot be avoided
SEARCH_BUDGET = 20_000  # tables tried in the search for a repeat-free Swiss grouping


@dataclass(frozen=True)
class ArenaPlayer:
    """A player waiting in an arena; ``last_opponents`` are everyone in their previous match."""

    id: int
    score: int
    rating: float
    last_opponents: frozenset[int]
    waiting_since: float


@dataclass(frozen=True)
class SwissPlayer:
    """A player before a Swiss round; ``opponents`` are everyone ever at a table with them."""

    id: int
    score: float
    rating: float
    opponents: frozenset[int]
    had_bye: bool = False


@dataclass(frozen=True)
class SwissRound:
    """One round's tables (top board first), the byes, and how many pairs meet again."""

    tables: tuple[tuple[int, ...], ...]
    byes: tuple[int, ...]
    repeats: int


class _Ranked(Protocol):
    @property
    def id(self) -> int: ...
    @property
    def score(self) -> float: ...
    @property
    def rating(self) -> float: ...


_P = TypeVar("_P", bound=_Ranked)


def _ranked(players: Iterable[_P], seats: int) -> list[_P]:
    """The players best first; one order for every rule, so ties never depend on input order."""
    if seats < 2:
        raise ValueError("A table needs at least two seats.")
    ranked = sorted(players, key=lambda player: (-player.score, -player.rating, player.id))
    if len({player.id for player in ranked}) != len(ranked):
        raise ValueError("A player appears twice.")
    return ranked


def pair_arena(players: Iterable[ArenaPlayer], seats: int) -> list[tuple[int, ...]]:
    """The tables to seat now; everyone else waits for the next pass."""
    ranked = _ranked(players, seats)
    latest = sorted(range(len(ranked)), key=lambda i: (-ranked[i].waiting_since, -i))
    out = set(latest[: len(ranked) % seats])
    pool = [player for i, player in enumerate(ranked) if i not in out]
    taken = [False] * len(pool)
    tables: list[tuple[int, ...]] = []
    for founder in range(len(pool)):
        if taken[founder]:
            continue
        table = [founder]
        looked = 0
        cursor = founder + 1
        while len(table) < seats and looked < ARENA_WINDOW and cursor < len(pool):
            if not taken[cursor]:
                looked += 1
                if all(_fresh_in_arena(pool[cursor], pool[seat]) for seat in table):
                    table.append(cursor)
            cursor += 1
        if len(table) == seats:
            for seat in table:
                taken[seat] = True
            tables.append(tuple(pool[seat].id for seat in table))
    return tables


def _fresh_in_arena(a: ArenaPlayer, b: ArenaPlayer) -> bool:
    # Either side's record counts: the other may have played someone else since.
    return b.id not in a.last_opponents and a.id not in b.last_opponents


def _met(a: SwissPlayer, b: SwissPlayer) -> bool:
    return b.id in a.opponents or a.id in b.opponents


def pair_swiss(players: Iterable[SwissPlayer], seats: int) -> SwissRound:
    """One Swiss round for tables of ``seats``: pairs get the exact matching, larger tables
    the grouping search, so callers pass the game's seat count and never branch."""
    if seats == 2:
        return swiss_pairs(players)
    return swiss_groups(players, seats)


def _multipliers(bounds: Sequence[int]) -> tuple[list[int], int]:
    """Units that make summed costs compare tier by tier: each tier's unit exceeds the largest
    total (``bounds``) all lower tiers can reach in a round. Also returns a bound on any cost."""
    units: list[int] = []
    unit = 1
    for bound in reversed(bounds):
        units.append(unit)
        unit *= bound + 1
    return units[::-1], unit


def _score_groups(points: Sequence[int]) -> list[tuple[int, int]]:
    """For each rank (points descending): the first rank of its score group and the group size."""
    groups: list[tuple[int, int]] = []
    for _, members in itertools.groupby(range(len(points)), key=points.__getitem__):
        ranks = list(members)
        groups.extend((ranks[0], len(ranks)) for _ in ranks)
    return groups


def swiss_pairs(players: Iterable[SwissPlayer]) -> SwissRound:
    """A two-seat Swiss round: the best round by the tiers in the module docstring."""
    ranked = _ranked(players, 2)
    n = len(ranked)
    fractions = [Fraction(player.score) for player in ranked]
    scale = math.lcm(*(fraction.denominator for fraction in fractions))
    points = [int(fraction * scale) for fraction in fractions]
    groups = _score_groups(points)
    widest = (points[0] - points[-1]) ** 2 if points else 0
    pairs = n // 2
    units, top = _multipliers([1, pairs, n, pairs * widest, pairs * n])
    again, repeat, bye_rank, gap, placement = units
    graph = nx.Graph()
    for i, j in itertools.combinations(range(n), 2):
        start, size = groups[i]
        shape = abs(j - i - size // 2) if groups[j][0] == start else j - i
        cost = (
            repeat * _met(ranked[i], ranked[j])
            + gap * (points[i] - points[j]) ** 2
            + placement * shape
        )
        graph.add_edge(i, j, weight=top - cost)
    if n % 2:
        someone_fresh = not all(player.had_bye for player in ranked)
        for i, player in enumerate(ranked):
            cost = again * (player.had_bye and someone_fresh) + bye_rank * (n - 1 - i)
            graph.add_edge(i, n, weight=top - cost)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    matched = sorted(tuple(sorted(edge)) for edge in matching)
    tables = tuple((ranked[i].id, ranked[j].id) for i, j in matched if j < n)
    byes = tuple(ranked[i].id for i, j in matched if j == n)
    return SwissRound(tables, byes, sum(_met(ranked[i], ranked[j]) for i, j in matched if j < n))


def swiss_groups(players: Iterable[SwissPlayer], seats: int) -> SwissRound:
    """A Swiss round at tables of ``seats`` (classic Joker's four): byes first, then tables."""
    ranked = _ranked(players, seats)
    bottom_up = sorted(reversed(ranked), key=lambda player: player.had_bye)
    out = {player.id for player in bottom_up[: len(ranked) % seats]}
    pool = [player for player in ranked if player.id not in out]
    met = [[_met(a, b) for b in pool] for a in pool]
    found = _repeat_free(met, seats)
    groups = found if found is not None else _fewest_repeats(met, seats)
    return SwissRound(
        tables=tuple(tuple(pool[i].id for i in group) for group in groups),
        byes=tuple(player.id for player in ranked if player.id in out),
        repeats=sum(met[a][b] for group in groups for a, b in itertools.combinations(group, 2)),
    )


def _repeat_free(met: list[list[bool]], seats: int) -> list[tuple[int, ...]] | None:
    """Tables (rank indices) where nobody meets anyone again, nearest to rank order; None when
    there are none, or when the budget ran out first."""
    tries = 0

    def complete(left: tuple[int, ...]) -> list[tuple[int, ...]] | None:
        nonlocal tries
        if not left:
            return []
        founder, rest = left[0], left[1:]
        options = [i for i in rest if not met[founder][i]]
        for others in itertools.combinations(options, seats - 1):
            tries += 1
            if tries > SEARCH_BUDGET:
                return None
            if any(met[a][b] for a, b in itertools.combinations(others, 2)):
                continue
            tail = complete(tuple(i for i in rest if i not in others))
            if tail is not None:
                return [(founder, *others), *tail]
        return None

    return complete(tuple(range(len(met))))


def _fewest_repeats(met: list[list[bool]], seats: int) -> list[tuple[int, ...]]:
    """Tables in rank order, each seat taken by whoever in the window has met the fewest there."""
    left = list(range(len(met)))
    tables: list[tuple[int, ...]] = []
    while left:
        table = [left.pop(0)]
        while len(table) < seats:
            pick = min(left[:SWISS_WINDOW], key=lambda i: (sum(met[i][j] for j in table), i))
            left.remove(pick)
            table.append(pick)
        tables.append(tuple(sorted(table)))
    return tables


def swiss_rounds(players: int, seats: int) -> int:
    """The rounds a Swiss should have: enough for one player to win every table.

    A round of pairs halves the players with a perfect score, so two seats need ceil(log2 n);
    a table of ``seats`` has one winner, so ceil(log_seats n) in general (16 classic Joker
    players: 2 rounds). Never more than the rounds a player can play without meeting anyone
    twice, (n - 1) // (seats - 1); at least 1 once one table can be filled, 0 before."""
    if seats < 2:
        raise ValueError("A table needs at least two seats.")
    if players < seats:
        return 0
    rounds, reach = 0, 1
    while reach < players:
        reach *= seats
        rounds += 1
    return max(1, min(rounds, (players - 1) // (seats - 1)))
