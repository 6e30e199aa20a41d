"""Reads of tournaments: the standings, recomputed from the result rows (the entrants' cached
scores must always equal them), and the history the pairing needs."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

from games.models import Seat
from games.rules import game_spec

from . import scoring
from .models import Entrant, Tournament, TournamentResult

Standings = list[scoring.ArenaStanding] | list[scoring.SwissStanding]


def seats_of(tournament: Tournament) -> int:
    """The seats of the event's tables (its match options: classic Joker's may be 2 or 3)."""
    return game_spec(tournament.game).seat_count(tournament.options)


def _results(tournament: Tournament) -> list[TournamentResult]:
    return list(tournament.results.order_by("pk"))


def arena_table(tournament: Tournament) -> list[scoring.ArenaStanding]:
    """The arena's standings, best first (scoring.py: points, performance, who got there
    first)."""
    games: dict[int, list[scoring.ArenaGame]] = defaultdict(list)
    reached: dict[int, float] = {}
    for result in _results(tournament):
        outcome = scoring.Outcome(place=result.place or 1, tied=result.tied, seats=result.seats)
        games[result.player_id].append(
            scoring.ArenaGame(outcome, tuple(int(r) for r in result.opponent_ratings))
        )
        if result.points:  # the moment the score last changed
            reached[result.player_id] = result.recorded_at.timestamp()
    players = tournament.entrants.values_list("player_id", "joined_at")
    return scoring.arena_standings(
        scoring.ArenaPlayer(
            player=player_id,
            games=tuple(games[player_id]),
            reached_at=reached.get(player_id, joined_at.timestamp()),
        )
        for player_id, joined_at in players
    )


def swiss_table(tournament: Tournament) -> list[scoring.SwissStanding]:
    """The Swiss standings, best first (scoring.py: points, Buchholz, cut-1, Sonneborn-Berger,
    wins)."""
    tables: dict[int, dict[int, int]] = defaultdict(dict)
    byes: list[int] = []
    for result in _results(tournament):
        if result.tournament_table_id is None:
            byes.append(result.player_id)
        elif result.place is not None:
            tables[result.tournament_table_id][result.player_id] = result.place
    players = tournament.entrants.values_list("player_id", flat=True)
    return scoring.swiss_standings(players, tables.values(), byes, seats=seats_of(tournament))


def standings(tournament: Tournament) -> Standings:
    if tournament.format == Tournament.Format.ARENA:
        return arena_table(tournament)
    return swiss_table(tournament)


def score_of(standing: scoring.ArenaStanding | scoring.SwissStanding) -> int:
    """What ``Entrant.score`` holds for a standing: arena points, or Swiss half-points."""
    if isinstance(standing, scoring.ArenaStanding):
        return standing.record.total
    return int(standing.points * 2)


def last_opponents(tournament: Tournament, player_ids: set[int]) -> dict[int, frozenset[int]]:
    """Whom each player sat with at their latest table of the event (an arena never pairs them
    again at once). Read from the seats, not the results: a match that has ended but is not yet
    counted already names the opponent, so its players can be paired at once, just not together.
    """
    seats = Seat.objects.filter(
        player_id__in=player_ids, table__tournament_link__tournament=tournament
    )
    latest: dict[int, int] = {}
    for player_id, table_id in seats.values_list("player_id", "table_id"):
        latest[player_id] = max(table_id, latest.get(player_id, 0))  # tables are made in order
    at: dict[int, set[int]] = defaultdict(set)
    for table_id, player_id in Seat.objects.filter(table_id__in=set(latest.values())).values_list(
        "table_id", "player_id"
    ):
        at[table_id].add(player_id)
    return {player: frozenset(at[table] - {player}) for player, table in latest.items()}


def everyone_met(tournament: Tournament) -> dict[int, frozenset[int]]:
    """Everyone each player has sat with (a Swiss never pairs them again)."""
    met: dict[int, set[int]] = defaultdict(set)
    rows = tournament.results.filter(tournament_table__isnull=False)
    for player_id, opponents in rows.values_list("player_id", "opponents"):
        met[player_id].update(opponents)
    return {player: frozenset(others) for player, others in met.items()}


def half_points(points: Fraction) -> int:
    return int(points * 2)


def active_entrants(tournament: Tournament) -> list[Entrant]:
    return list(tournament.entrants.filter(withdrawn=False).select_related("player"))
