"""An arena pass chooses again while the tables it chose are being made (issue 29's bench: a
burst of match ends paired in rounds that each waited for their tables): players freed during a
slow seating sit down without waiting for it, and nobody is chosen twice."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection

from games.models import Match, Seat
from tests.support.ladder import committed
from tests.support.players import make_player
from tournaments.services import seating
from tournaments.services.entries import tournament_join
from tournaments.services.running import arena_pass, tournament_start

from .test_running import arena, live_tables, players_at

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def free(tables) -> set[int]:
    """Their matches over (not yet counted): their players are free."""
    for table in tables:
        Seat.objects.filter(table=table).update(active=False)
        Match.objects.filter(table=table).update(status=Match.Status.FINISHED)
    return set().union(*(players_at(table) for table in tables))


def seated(players: set[int]) -> set[int]:
    return set(
        Seat.objects.filter(player_id__in=players, active=True).values_list("player_id", flat=True)
    )


def test_players_freed_while_a_pass_seats_others_are_seated_without_waiting_for_it(
    monkeypatch,
):
    tournament = arena()
    for n in range(8):
        tournament_join(player=make_player(f"Arena{n}"), tournament_id=tournament.pk)
    committed(tournament_start, tournament_id=tournament.pk)
    tables = live_tables(tournament)
    assert len(tables) == 4
    first = free(tables[:2])

    # The first round's tables take as long as the test says.
    chosen, slow, seat_chunk = threading.Event(), threading.Event(), seating._seat_chunk

    def held_seat_chunk(tournament, groups, round_number):
        if {player.pk for group in groups for player in group} & first:
            chosen.set()
            assert slow.wait(30)
        return seat_chunk(tournament, groups, round_number)

    monkeypatch.setattr(seating, "_seat_chunk", held_seat_chunk)
    made: list[int] = []

    def run_pass() -> None:
        try:
            made.extend(arena_pass(tournament_id=tournament.pk))
        finally:
            connection.close()

    running = threading.Thread(target=run_pass)
    running.start()
    try:
        assert chosen.wait(10), "the pass chose the first four"
        second = free(tables[2:])
        # Asked for while one runs: a note, and the running pass goes round again.
        assert arena_pass(tournament_id=tournament.pk) == []
        deadline = time.monotonic() + 10
        while seated(second) != second and time.monotonic() < deadline:
            time.sleep(0.05)
        assert seated(second) == second, "the players freed later sat down first"
        assert seated(first) == set(), "the first round's tables are still being made"
    finally:
        slow.set()
        running.join(30)
    assert seated(first | second) == first | second
    assert len(made) == 4
    for table_id in made:
        assert players_at_id(table_id) not in (players_at(t) for t in tables)
    assert Seat.objects.filter(table_id__in=made).count() == 8, "nobody chosen twice"


def players_at_id(table_id: int) -> set[int]:
    return set(Seat.objects.filter(table_id=table_id).values_list("player_id", flat=True))
