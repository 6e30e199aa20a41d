"""Reads of tournaments: the standings, recomputed from the result rows (the entrants' cached
scores must always equal them), and the history the pairing needs."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from datetime import datetime
from fractions import Fraction

from games.models import Seat
from games.rules import game_spec

from . import scoring
from .models import Entrant, Tournament, TournamentResult

Standings = list[scoring.ArenaStanding] | list[scoring.SwissStanding]


def seats_of(tournament: Tournament) -> int:
    """The seats of the event's tables (its match options: classic Joker's may be 2 or 3)."""
    return game_spec(tournament.game).seat_count(tournament.options)


def play_order(result: TournamentResult) -> tuple[datetime, int]:
    """A result's place in its player's run: the order their matches ended, whatever order
    they were counted in (a count may come late: its task lost, then the tick's grace). A row
    the previous release wrote during a deploy has no end: its count's time stands in."""
    return (result.ended_at or result.recorded_at, result.pk)


def outcome_of(result: TournamentResult) -> scoring.Outcome:
    return scoring.Outcome(place=result.place or 1, tied=result.tied, seats=result.seats)


def _results(tournament: Tournament) -> list[TournamentResult]:
    """Every result of the event, each player's in the order their matches ended."""
    return sorted(tournament.results.all(), key=play_order)


def _entrants(tournament: Tournament, entrants: Sequence[Entrant] | None) -> Sequence[Entrant]:
    """The entrants the caller read (a page lists them beside the standings: one read for
    both, or a player who entered in between is in one and not the other), or read now."""
    return list(tournament.entrants.all()) if entrants is None else entrants


def arena_table(
    tournament: Tournament, entrants: Sequence[Entrant] | None = None
) -> list[scoring.ArenaStanding]:
    """The arena's standings, best first (scoring.py: points, performance, who got there
    first), each player's matches in the order they ended."""
    runs: dict[int, list[TournamentResult]] = defaultdict(list)
    for result in _results(tournament):
        runs[result.player_id].append(result)
    return scoring.arena_standings(
        _arena_player(entrant, runs[entrant.player_id])
        for entrant in _entrants(tournament, entrants)
    )


def _arena_player(entrant: Entrant, results: list[TournamentResult]) -> scoring.ArenaPlayer:
    """One player's run; they reached their final score when the last match that scored
    ended (not when it was counted), or when they entered if none did."""
    games = tuple(
        scoring.ArenaGame(outcome_of(result), tuple(int(r) for r in result.opponent_ratings))
        for result in results
    )
    record = scoring.arena_record(game.outcome for game in games)
    scored = [
        play_order(result)[0]
        for result, match in zip(results, record.matches, strict=True)
        if match.points
    ]
    reached = scored[-1] if scored else entrant.joined_at
    return scoring.ArenaPlayer(
        player=entrant.player_id, games=games, reached_at=reached.timestamp()
    )


def swiss_table(
    tournament: Tournament, entrants: Sequence[Entrant] | None = None
) -> list[scoring.SwissStanding]:
    """The Swiss standings, best first (scoring.py: points, Buchholz, cut-1, Sonneborn-Berger,
    wins). The order of counting changes nothing here: every value is a sum over rounds."""
    tables: dict[int, dict[int, int]] = defaultdict(dict)
    byes: list[int] = []
    for result in _results(tournament):
        if result.tournament_table_id is None:
            byes.append(result.player_id)
        elif result.place is not None:
            tables[result.tournament_table_id][result.player_id] = result.place
    players = [entrant.player_id for entrant in _entrants(tournament, entrants)]
    return scoring.swiss_standings(players, tables.values(), byes, seats=seats_of(tournament))


def standings(tournament: Tournament, entrants: Sequence[Entrant] | None = None) -> Standings:
    if tournament.format == Tournament.Format.ARENA:
        return arena_table(tournament, entrants)
    return swiss_table(tournament, entrants)


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
