"""The scoring of tournaments: pure Python, no Django, no clock, no I/O.

Nothing here knows which game is played: a match is its number of seats (two one-on-one, four
in classic Joker, any n >= 2) and each player's place. Places are only compared, so ``1, 1, 2``
and ``1, 1, 3`` both mean "two tied first, one third". A forfeit is last place (the caller says
so); an aborted match is :data:`ABORTED` and counts for nothing. Player ids (ints) break only
the very last tie, so no order is left to chance.

**Arena** (lichess's model). Points by place: two seats 2/0, three 4/2/0, four 4/2/1/0; more
seats go on halving from 4 with last place 0 (only the top three of a big table score). Tied
players share the mean of the places they span, rounded half up (a two-player draw is 1, two
tied first of four get 3). A *win* is a sole first place. After two wins in a row the player is
*on fire*: every following match scores double, up to and including the first that is not a
win, which puts the fire out. An aborted match neither scores nor touches the streak.
Standings: points, then performance (lichess's: the mean over matches played of the opponents'
mean rating + 500 × the result on -1..+1 — win +1, draw 0, loss -1; at a bigger table the
share of the other seats beaten, ties half, mapped onto -1..+1 — rounded half up), then who
reached their final score first (a time or sequence number from the caller), then the id.

**Swiss**. Points are the seats beaten, a tie half: one-on-one 1/½/0, four seats 3/2/1/0 (two
tied first of four get 2½), as exact :class:`~fractions.Fraction`. A bye is a win one-on-one
(1) and second place at a bigger table (four seats: 2), so a group short of a full table sits
out with a bye's points; a bye is not a win. Standings: points, then Buchholz (the sum of the
final points of every opponent met, every groupmate being an opponent), then Buchholz cut-1
(less its lowest single value), then Sonneborn-Berger (over the opponents met: the result
against them — 1 placed above, ½ tied, 0 below — times their final points), then wins, then
the id. A bye counts FIDE-like as *virtual opponents* with the player's own final points in
each seat not faced (one one-on-one, three at four seats), and in Sonneborn-Berger as the
bye's points times the player's own, so sitting out barely moves the tiebreaks.

Both tables are a strict order, but players equal on all but the id share a ``rank``.

**Prizes**. A pool of whole coins is paid by a table of positive, non-increasing weights per
place (:data:`DEFAULT_PRIZE_SHARES`), normalised over the places actually filled, so fewer
players than places still share the whole pool. Players tied over several places split those
places' total equally. Payouts are rounded down and the coins left over go one at a time to
the best placed first (ranking order, also within a tie): they sum exactly to the pool, never
go up with the rank, and each is within one coin of its exact share.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import pairwise
from typing import TypeVar

DEFAULT_PRIZE_SHARES = (50, 30, 20)  # percent of the pool for the first three places
WINNER_TAKES_ALL = (100,)
PERFORMANCE_SPREAD = 500  # rating points a whole win adds to (a loss takes from) performance


@dataclass(frozen=True)
class Outcome:
    """One player's result in one match: sharing ``place`` with ``tied`` players in all."""

    place: int
    tied: int = 1
    seats: int = 2

    def __post_init__(self) -> None:
        if self.seats < 2 or self.tied < 1 or self.place < 1:
            raise ValueError("A match has two seats or more and a place and tie of one or more.")
        if self.place + self.tied - 1 > self.seats:
            raise ValueError("The tied places run past the last seat.")

    @property
    def is_win(self) -> bool:
        """A shared first place is no win: it neither lights nor keeps the arena fire."""
        return self.place == 1 and self.tied == 1

    @property
    def places(self) -> range:
        """The places this player's tie spans, which its points are averaged over."""
        return range(self.place, self.place + self.tied)


@dataclass(frozen=True)
class Aborted:
    """A match that came to no result: it scores nothing and leaves a streak as it was."""


ABORTED = Aborted()


def outcomes_from_places(places: Mapping[int, int]) -> dict[int, Outcome]:
    """Each player's outcome from a match's places, so callers never count ties themselves."""
    if len(places) < 2:
        raise ValueError("A match has at least two players.")
    seats = len(places)
    counted = Counter(places.values())
    return {
        player: Outcome(
            place=1 + sum(n for other, n in counted.items() if other < place),
            tied=counted[place],
            seats=seats,
        )
        for player, place in places.items()
    }


def _round_half_up(value: Fraction) -> int:
    return math.floor(value + Fraction(1, 2))


# Arena -----------------------------------------------------------------------------------------


def arena_place_points(seats: int) -> tuple[int, ...]:
    """The arena points of each place; a sole winner always scores most, last place nothing."""
    if seats < 2:
        raise ValueError("A match has at least two seats.")
    if seats == 2:
        return (2, 0)
    return tuple(4 >> (place - 1) if place < seats else 0 for place in range(1, seats + 1))


def arena_points(outcome: Outcome) -> int:
    """The arena points of one outcome before any doubling."""
    table = arena_place_points(outcome.seats)
    spanned = sum(table[place - 1] for place in outcome.places)
    return _round_half_up(Fraction(spanned, outcome.tied))


@dataclass(frozen=True)
class ArenaMatch:
    """One played match as the results line shows it ("2 2 4 4 0", with 🔥 where doubled)."""

    points: int
    doubled: bool
    win: bool


@dataclass(frozen=True)
class ArenaRecord:
    """A player's arena run; aborted matches are left out of ``matches``."""

    matches: tuple[ArenaMatch, ...]
    on_fire: bool

    @property
    def total(self) -> int:
        return sum(match.points for match in self.matches)

    @property
    def wins(self) -> int:
        return sum(match.win for match in self.matches)

    @property
    def played(self) -> int:
        return len(self.matches)


def arena_record(outcomes: Iterable[Outcome | Aborted]) -> ArenaRecord:
    """Fold a player's outcomes, in the order played, into points with the streak applied."""
    matches: list[ArenaMatch] = []
    wins_in_a_row = 0
    for outcome in outcomes:
        if isinstance(outcome, Aborted):
            continue
        on_fire = wins_in_a_row >= 2
        points = arena_points(outcome) * (2 if on_fire else 1)
        matches.append(ArenaMatch(points=points, doubled=on_fire, win=outcome.is_win))
        wins_in_a_row = wins_in_a_row + 1 if outcome.is_win else 0
    return ArenaRecord(matches=tuple(matches), on_fire=wins_in_a_row >= 2)


@dataclass(frozen=True)
class ArenaGame:
    """One match of an arena player, with the ratings the opponents had when it began."""

    outcome: Outcome | Aborted
    opponent_ratings: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if isinstance(self.outcome, Outcome) and (
            len(self.opponent_ratings) != self.outcome.seats - 1
        ):
            raise ValueError("A played match needs the rating of every other seat.")


@dataclass(frozen=True)
class ArenaPlayer:
    """What the arena standings need of one player; ``reached_at`` orders equal scores."""

    player: int
    games: tuple[ArenaGame, ...]
    reached_at: float


@dataclass(frozen=True)
class ArenaStanding:
    """One row of the arena table, with every value its tiebreaks used, for the page."""

    rank: int
    player: int
    record: ArenaRecord
    performance: int | None  # None until a match is played
    reached_at: float

    @property
    def sort_key(self) -> tuple[int, bool, int, float]:
        """The tiebreaks in order, smaller is better; only the id is left to order equal keys."""
        perf = self.performance
        return (-self.record.total, perf is None, -(perf or 0), self.reached_at)


def performance(games: Iterable[ArenaGame]) -> int | None:
    """Lichess's tournament performance, which breaks ties in favour of tougher opposition."""
    per_match = [
        Fraction(sum(game.opponent_ratings), len(game.opponent_ratings))
        + PERFORMANCE_SPREAD * (2 * swiss_points(game.outcome) / (game.outcome.seats - 1) - 1)
        for game in games
        if isinstance(game.outcome, Outcome)
    ]
    if not per_match:
        return None
    return _round_half_up(sum(per_match, Fraction(0)) / len(per_match))


def arena_standings(players: Iterable[ArenaPlayer]) -> list[ArenaStanding]:
    """The arena table, best first, in the tiebreak order of the module docstring."""
    rows = [
        ArenaStanding(
            rank=0,
            player=entry.player,
            record=arena_record(game.outcome for game in entry.games),
            performance=performance(entry.games),
            reached_at=entry.reached_at,
        )
        for entry in players
    ]
    return _ranked(rows)


# Swiss -----------------------------------------------------------------------------------------


def swiss_points(outcome: Outcome) -> Fraction:
    """The Swiss points of one outcome: one per seat beaten, half per seat tied with."""
    beaten = outcome.seats - (outcome.place + outcome.tied - 1)
    return beaten + Fraction(outcome.tied - 1, 2)


def _result_against(place: int, theirs: int) -> Fraction:
    """A group read as one-on-one games: the pairwise result Sonneborn-Berger weighs."""
    return Fraction(1 if place < theirs else 0) if place != theirs else Fraction(1, 2)


def swiss_bye_points(seats: int) -> Fraction:
    """What sitting a round out is worth: a win one-on-one, second place at a bigger table."""
    if seats < 2:
        raise ValueError("A match has at least two seats.")
    return Fraction(1 if seats == 2 else seats - 2)


@dataclass(frozen=True)
class SwissStanding:
    """One row of the Swiss table, with every value its tiebreaks used, for the page."""

    rank: int
    player: int
    points: Fraction
    buchholz: Fraction
    buchholz_cut1: Fraction
    sonneborn_berger: Fraction
    wins: int

    @property
    def sort_key(self) -> tuple[Fraction, Fraction, Fraction, Fraction, int]:
        """The tiebreaks in order, smaller is better; only the id is left to order equal keys."""
        points, wins = self.points, self.wins
        return (-points, -self.buchholz, -self.buchholz_cut1, -self.sonneborn_berger, -wins)


def swiss_standings(
    players: Iterable[int],
    matches: Iterable[Mapping[int, int]],
    byes: Iterable[int] = (),
    *,
    seats: int,
) -> list[SwissStanding]:
    """The Swiss table, best first, in the tiebreak order of the module docstring.

    ``matches`` are every played match of every round, each as player → place, so both sides
    of a pairing come from one record and cannot disagree; ``byes`` names a player once per
    round sat out. Aborted matches are simply not passed."""
    points = {player: Fraction(0) for player in players}
    wins = dict.fromkeys(points, 0)
    met: dict[int, list[tuple[int, Fraction]]] = {player: [] for player in points}
    bye_count = Counter(byes)
    for places in matches:
        if not points.keys() >= places.keys():
            raise ValueError("A match names a player who is not in the tournament.")
        for player, outcome in outcomes_from_places(places).items():
            points[player] += swiss_points(outcome)
            wins[player] += outcome.is_win
        for player, place in places.items():
            met[player].extend(
                (other, _result_against(place, theirs))
                for other, theirs in places.items()
                if other != player
            )
    if not points.keys() >= bye_count.keys():
        raise ValueError("A bye names a player who is not in the tournament.")
    for player, count in bye_count.items():
        points[player] += count * swiss_bye_points(seats)

    rows = []
    for player, own in points.items():
        byes_had = bye_count[player]
        faced = [points[other] for other, _ in met[player]] + [own] * (byes_had * (seats - 1))
        buchholz = sum(faced, Fraction(0))
        sonneborn_berger = sum(
            (result * points[other] for other, result in met[player]),
            byes_had * swiss_bye_points(seats) * own,
        )
        rows.append(
            SwissStanding(
                rank=0,
                player=player,
                points=own,
                buchholz=buchholz,
                buchholz_cut1=buchholz - min(faced, default=Fraction(0)),
                sonneborn_berger=sonneborn_berger,
                wins=wins[player],
            )
        )
    return _ranked(rows)


_Standing = TypeVar("_Standing", ArenaStanding, SwissStanding)


def _ranked(rows: list[_Standing]) -> list[_Standing]:
    """Sort by the tiebreaks then id; rows equal but for the id share a rank (1, 2, 2, 4)."""
    rows.sort(key=lambda row: (row.sort_key, row.player))
    ranked: list[_Standing] = []
    for index, row in enumerate(rows):
        tied = index > 0 and row.sort_key == rows[index - 1].sort_key
        ranked.append(replace(row, rank=ranked[-1].rank if tied else index + 1))
    return ranked


# Prizes ----------------------------------------------------------------------------------------


def tied_groups(standings: Iterable[ArenaStanding | SwissStanding]) -> list[list[int]]:
    """The players of standings grouped by shared rank, the ranking :func:`prize_payouts` takes."""
    groups: list[list[int]] = []
    last_rank = 0
    for row in standings:
        if row.rank != last_rank:
            groups.append([])
            last_rank = row.rank
        groups[-1].append(row.player)
    return groups


def prize_payouts(
    pool: int,
    ranking: Sequence[Sequence[int]],
    shares: Sequence[int] = DEFAULT_PRIZE_SHARES,
) -> dict[int, int]:
    """Whole coins per ranked player (0 past the paid places), summing exactly to ``pool``.

    ``ranking`` is best first, each group the players sharing consecutive places (a strict
    ranking is groups of one); within a group, leftover coins go in the order given."""
    if pool < 0 or not shares or any(share <= 0 for share in shares):
        raise ValueError("A prize needs a pool of zero or more and positive shares.")
    if any(better < worse for better, worse in pairwise(shares)):
        raise ValueError("A prize table never pays a place more than the one above it.")
    if any(not group for group in ranking):
        raise ValueError("A tied group has at least one player.")
    players = [player for group in ranking for player in group]
    if len(set(players)) != len(players):
        raise ValueError("A player is ranked twice.")
    if not players:
        return {}

    filled = shares[: len(players)]
    exact: list[Fraction] = []
    for group in ranking:
        spanned = filled[len(exact) : len(exact) + len(group)]
        exact.extend([Fraction(pool * sum(spanned), sum(filled) * len(group))] * len(group))
    payouts = [math.floor(share) for share in exact]
    for index in range(pool - sum(payouts)):
        payouts[index] += 1
    return dict(zip(players, payouts, strict=True))
