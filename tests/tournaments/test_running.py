"""Tournaments run through the real services (issue 29 § 2): an arena pairs, counts every table
once, pairs the free players again (never the last opponent), ends and pays the prizes once;
a Swiss event pairs its rounds with byes and no repeats; an event short of players is cancelled
with every fee back; the beat's tick does each step once however often it runs."""

from __future__ import annotations

import random
import re
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import CoinAccount, CoinTransaction
from accounts.selectors import coin_audit
from games.models import Match, Seat, Table
from games.services.presence import live_sweep
from tests.support.ladder import committed, forfeit, play_to_the_end
from tests.support.pages import shown
from tests.support.players import client_for, make_player
from tournaments import selectors
from tournaments.models import Entrant, Tournament, TournamentResult, TournamentTable
from tournaments.services.entries import tournament_join, tournament_leave
from tournaments.services.running import (
    arena_pass,
    table_count,
    tournament_finish,
    tournament_start,
)
from tournaments.services.ticks import tournaments_tick

pytestmark = pytest.mark.django_db(transaction=True)


def balance(player) -> int:
    return CoinAccount.objects.get(player=player).balance


def arena(**fields) -> Tournament:
    now = timezone.now()
    defaults = {
        "name": "Evening arena",
        "game": "japanese_joker",
        "speed": "fast",
        "format": Tournament.Format.ARENA,
        "starts_at": now,
        "duration_minutes": 30,
        "options": {"points": 11},
    }
    return Tournament.objects.create(**{**defaults, **fields})


def live_tables(tournament: Tournament) -> list[Table]:
    return [link.table for link in tournament.tables.select_related("table").filter(counted=False)]


def players_at(table: Table) -> set[int]:
    return set(Seat.objects.filter(table=table).values_list("player_id", flat=True))


def finish_by_forfeit(table: Table, loser_id: int):
    loser = Seat.objects.get(table=table, player_id=loser_id).player
    return forfeit(table, loser)


def test_an_arena_pairs_counts_once_pairs_again_and_pays_the_prizes_once(alice, bob, carol, dave):
    tournament = arena(entry_fee=100, prize_shares=[50, 30, 20])
    people = [alice, bob, carol, dave]
    for player in people:
        tournament_join(player=player, tournament_id=tournament.pk)
    assert balance(alice) == 900
    # The wallet's history names the event, not the ledger's key for its pool.
    fee = CoinTransaction.objects.filter(kind="entry_fee").first()
    assert fee is not None and fee.reason == "Evening arena"
    assert committed(tournament_start, tournament_id=tournament.pk)
    first = live_tables(tournament)
    assert len(first) == 2 and set().union(*map(players_at, first)) == {p.pk for p in people}
    winners = set()
    for table in first:
        one, other = sorted(players_at(table))
        match = finish_by_forfeit(table, other)  # the counting task runs after the commit
        assert match.status == Match.Status.FINISHED
        winners.add(one)
    # Counted once: the task ran; a second count (a retried task, the tick) changes nothing.
    links = TournamentTable.objects.filter(table__in=first)
    assert all(link.counted for link in links)
    assert not table_count(link_id=links[0].pk)
    assert TournamentResult.objects.filter(tournament=tournament).count() == 4
    scores = dict(Entrant.objects.values_list("player_id", "score"))
    assert sorted(scores.values()) == [0, 0, 2, 2]
    # The freed players were paired again at once, winners together: nobody meets the last
    # opponent.
    second = live_tables(tournament)
    assert len(second) == 2
    assert {frozenset(players_at(table)) for table in second} == {
        frozenset(winners),
        frozenset(set(scores) - winners),
    }
    # Time is up: the running matches still count when they end, then the prizes are paid.
    Tournament.objects.filter(pk=tournament.pk).update(ends_at=timezone.now())
    assert not tournament_finish(tournament_id=tournament.pk)
    play_to_the_end(second[0], random.Random(29))  # one played out, one decided by a forfeit
    finish_by_forfeit(second[1], min(players_at(second[1])))
    assert live_tables(tournament) == []  # nobody is paired after the end
    tournaments_tick()
    tournaments_tick()  # a second tick (two workers) pays nothing more
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    entrants = list(Entrant.objects.filter(tournament=tournament).order_by("rank"))
    assert [e.prize for e in entrants if e.prize] == [200, 120, 80]
    assert sum(balance(p) for p in people) == 4000
    # The cached scores are what the result rows give, and the ledger balances.
    table = selectors.arena_table(tournament)
    assert {row.player: row.record.total for row in table} == {
        e.player_id: e.score for e in entrants
    }
    assert [row.player for row in table] == [e.player_id for e in entrants]
    assert coin_audit().ok


def test_two_wins_in_a_row_light_the_fire_and_the_third_counts_double(alice, bob, carol, dave):
    tournament = arena()
    for player in (alice, bob, carol, dave):
        tournament_join(player=player, tournament_id=tournament.pk)
    committed(tournament_start, tournament_id=tournament.pk)
    for _round in range(3):
        for table in live_tables(tournament):
            seated = players_at(table)
            loser = bob.pk if bob.pk in seated else max(seated - {alice.pk})
            if alice.pk in seated:
                loser = max(seated - {alice.pk})
            finish_by_forfeit(table, loser)
    alice_results = list(
        TournamentResult.objects.filter(player=alice)
        .order_by("pk")
        .values_list("points", "doubled")
    )
    assert alice_results[:3] == [(2, False), (2, False), (4, True)]
    assert Entrant.objects.get(player=alice).on_fire


def test_a_player_who_left_the_arena_is_not_paired_again(alice, bob, carol):
    tournament = arena()
    for player in (alice, bob, carol):
        tournament_join(player=player, tournament_id=tournament.pk)
    committed(tournament_start, tournament_id=tournament.pk)
    (table,) = live_tables(tournament)
    waiting = ({alice.pk, bob.pk, carol.pk} - players_at(table)).pop()
    leaver = Entrant.objects.get(player_id=waiting).player
    assert tournament_leave(player=leaver, tournament_id=tournament.pk)
    other = max(players_at(table))
    finish_by_forfeit(table, other)
    # The third left: the two who played, alone in the event now, meet again rather than wait
    # out the arena; the one who left is not seated.
    (again,) = live_tables(tournament)
    assert players_at(again) == players_at(table)
    assert leaver.pk not in players_at(again)


def test_the_same_two_do_not_meet_twice_in_a_row_while_others_are_in(alice, bob, carol, dave):
    tournament = arena()
    for player in (alice, bob, carol, dave):
        tournament_join(player=player, tournament_id=tournament.pk)
    committed(tournament_start, tournament_id=tournament.pk)
    first, second = live_tables(tournament)
    finish_by_forfeit(first, max(players_at(first)))
    # The other table is still being played: the two who just met wait for it.
    assert live_tables(tournament) == [second]
    finish_by_forfeit(second, max(players_at(second)))
    tables = live_tables(tournament)
    assert len(tables) == 2
    for table in tables:
        assert players_at(table) not in (players_at(first), players_at(second))


def test_a_match_over_but_not_yet_counted_frees_its_players_but_not_together(
    alice, bob, carol, dave
):
    """Between a match's end and its count (a task), its players are free: a pass then seats
    them at once, each with someone they did not just meet (read from the tables)."""
    tournament = arena()
    for player in (alice, bob, carol, dave):
        tournament_join(player=player, tournament_id=tournament.pk)
    committed(tournament_start, tournament_id=tournament.pk)
    first, second = live_tables(tournament)
    for table in (first, second):  # both over, neither counted (the count task not run yet)
        Seat.objects.filter(table=table).update(active=False)
        Match.objects.filter(table=table).update(status=Match.Status.FINISHED)
    made = arena_pass(tournament_id=tournament.pk)
    assert len(made) == 2
    for table in Table.objects.filter(pk__in=made):
        assert players_at(table) not in (players_at(first), players_at(second))


def test_an_event_short_of_players_is_cancelled_with_every_fee_back(alice):
    tournament = arena(entry_fee=50)
    tournament_join(player=alice, tournament_id=tournament.pk)
    assert balance(alice) == 950
    assert not tournament_start(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.CANCELLED
    assert balance(alice) == 1000 and coin_audit().ok


def test_leaving_before_the_start_gives_the_fee_back(alice, bob):
    tournament = arena(entry_fee=50, starts_at=timezone.now() + timedelta(hours=1))
    tournament_join(player=alice, tournament_id=tournament.pk)
    tournament_join(player=alice, tournament_id=tournament.pk)  # a double click: one entry
    assert balance(alice) == 950
    assert tournament_leave(player=alice, tournament_id=tournament.pk)
    assert balance(alice) == 1000
    assert not Entrant.objects.filter(tournament=tournament).exists()
    assert coin_audit().ok


def test_a_swiss_event_pairs_its_rounds_with_a_bye_and_no_repeats():
    people = [make_player(f"swiss{index}") for index in range(5)]
    tournament = arena(format=Tournament.Format.SWISS, rounds=3, duration_minutes=None)
    for player in people:
        tournament_join(player=player, tournament_id=tournament.pk)
    committed(tournament_start, tournament_id=tournament.pk)
    rng = random.Random(5)
    met: set[frozenset[int]] = set()
    for round_number in (1, 2, 3):
        tournament.refresh_from_db()
        assert tournament.round_number == round_number
        tables = live_tables(tournament)
        assert len(tables) == 2
        byes = TournamentResult.objects.filter(
            tournament=tournament, tournament_table=None, round_number=round_number
        )
        assert byes.count() == 1
        for table in tables:
            pair = frozenset(players_at(table))
            assert pair not in met
            met.add(pair)
            finish_by_forfeit(table, rng.choice(sorted(pair)))
        tournaments_tick()  # counts, then pairs the next round or ends
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert Entrant.objects.filter(tournament=tournament, had_bye=True).count() == 3
    table = selectors.swiss_table(tournament)
    assert {row.player: int(row.points * 2) for row in table} == dict(
        Entrant.objects.values_list("player_id", "score")
    )
    assert TournamentTable.objects.filter(tournament=tournament, counted=False).count() == 0


@pytest.mark.slow
def test_a_swiss_event_of_three_seat_classic_tables_seats_threes_and_ranks_by_place():
    """Classic Joker at three seats (the event's options): seven entrants sit at two tables of
    three and one has the round's bye; a finished table scores its seats by place."""
    people = [make_player(f"trio{index}") for index in range(7)]
    tournament = arena(
        format=Tournament.Format.SWISS,
        rounds=2,
        duration_minutes=None,
        game="classic_joker",
        options={"seats": 3, "pulkas": "short"},
    )
    assert selectors.seats_of(tournament) == 3
    for player in people:
        tournament_join(player=player, tournament_id=tournament.pk)
    committed(tournament_start, tournament_id=tournament.pk)
    rng = random.Random(3)
    for round_number in (1, 2):
        tournament.refresh_from_db()
        assert tournament.round_number == round_number
        tables = live_tables(tournament)
        assert len(tables) == 2 and all(table.seats_total == 3 for table in tables)
        assert all(len(players_at(table)) == 3 for table in tables)
        for table in tables:
            match = play_to_the_end(table, rng)
            assert match.status == Match.Status.FINISHED and len(match.result["scores"]) == 3
        tournaments_tick()
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    results = TournamentResult.objects.filter(tournament=tournament).exclude(tournament_table=None)
    by_table: dict[int, list[int]] = {}
    for table_id, place, seats in results.values_list("tournament_table", "place", "seats"):
        assert seats == 3
        by_table.setdefault(table_id, []).append(place)
    assert len(by_table) == 4  # two tables a round, each seat placed 1 to 3 (ties share one)
    assert all(
        len(places) == 3 and min(places) == 1 and max(places) <= 3 for places in by_table.values()
    )
    assert TournamentResult.objects.filter(tournament=tournament, place=None).count() == 2


def test_an_arena_player_who_never_comes_to_the_table_is_paused(alice, bob):
    tournament = arena()
    for player in (alice, bob):
        tournament_join(player=player, tournament_id=tournament.pk)
    committed(tournament_start, tournament_id=tournament.pk)
    (table,) = live_tables(tournament)
    # Nobody opened the table: the absence banks run dry and the sweep forfeits a seat.
    committed(live_sweep, now=timezone.now() + timedelta(hours=1))
    match = Match.objects.get(table=table)
    assert match.status != Match.Status.PLAYING
    gone = set(Seat.objects.filter(table=table, forfeited=True).values_list("player_id", flat=True))
    paused = set(
        Entrant.objects.filter(tournament=tournament, paused=True).values_list(
            "player_id", flat=True
        )
    )
    assert gone and paused == gone


def test_the_table_page_says_the_event_its_time_left_and_the_readers_place(alice, bob):
    tournament = arena(name="Evening arena")
    for player in (alice, bob):
        tournament_join(player=player, tournament_id=tournament.pk)
    committed(tournament_start, tournament_id=tournament.pk)
    (table,) = live_tables(tournament)
    page = shown(client_for(alice).get(f"/tables/{table.pk}/").content.decode())
    text = re.sub(r"<[^>]+>", "", page)
    assert "Evening arena · 30 minutes left · you are #1" in text
