"""A finished match moves ratings once (ladder.services, ladder.tasks): who is rated, by how much,
and that nothing a worker does twice changes a rating twice."""

from __future__ import annotations

import random
import threading
import time
from datetime import timedelta

import pytest
from django.db import connection

from accounts.models import Player
from games.models import Match, Seat
from games.rules.cards import JOKER_DECK
from games.rules.classic_joker import final_ranking
from games.services import lobby, tables
from games.services.matches import match_cancel
from ladder import rating, services, tasks
from ladder.models import Rating, RatingChange
from tests.factories import match_at
from tests.support.ladder import beats, committed, forfeit, open_table, play_to_the_end

pytestmark = pytest.mark.django_db


def ratings_of(*players: Player, game: str = "japanese_joker") -> list[Rating]:
    return [Rating.objects.get(player=p, game=game) for p in players]


# --- Who wins what ----------------------------------------------------------------------------


def test_the_winner_gains_and_the_loser_loses_what_openskill_gives(alice, bob):
    match = beats(alice, bob)  # finishing enqueued the task, which ran (eager in tests)

    won, lost = rating.rate([rating.NEW_SKILL, rating.NEW_SKILL], [1, 2])
    winner, loser = ratings_of(alice, bob)
    assert (winner.mu, winner.sigma, winner.display) == (won.mu, won.sigma, won.display)
    assert (loser.mu, loser.sigma, loser.display) == (lost.mu, lost.sigma, lost.display)
    assert winner.display > 1500 > loser.display
    assert (winner.matches, winner.wins, loser.matches, loser.wins) == (1, 1, 1, 0)
    assert winner.last_played_at == match.ended_at == loser.last_played_at
    changes = {c.player_id: c for c in RatingChange.objects.filter(match=match)}
    assert (changes[alice.pk].before, changes[alice.pk].after) == (1500, won.display)
    assert changes[alice.pk].delta == won.display - 1500 > 0
    assert changes[bob.pk].delta == lost.display - 1500 < 0
    assert (changes[alice.pk].place, changes[bob.pk].place) == (1, 2)


def test_the_second_match_starts_from_the_ratings_the_first_left(alice, bob):
    beats(alice, bob)
    before = [r.skill for r in ratings_of(alice, bob)]
    second = beats(bob, alice, game="japanese_joker")
    after = rating.rate(before[::-1], [1, 2])  # bob first now
    bob_rating, alice_rating = ratings_of(bob, alice)
    assert (bob_rating.mu, alice_rating.mu) == (after[0].mu, after[1].mu)
    change = RatingChange.objects.get(match=second, player=bob)
    assert change.before == before[1].display and change.after == after[0].display


def test_each_game_has_its_own_rating(alice, bob):
    beats(alice, bob, game="japanese_whist")
    assert not Rating.objects.filter(game="japanese_joker").exists()
    assert ratings_of(alice, game="japanese_whist")[0].matches == 1


def test_a_four_player_match_orders_changes_by_place_and_the_leaver_is_rated_last(
    alice, bob, carol, dave
):
    # The match's last deal (CJ-4: sixteen nines), dealt explicitly: one deal to play, not 16.
    deck = sorted(JOKER_DECK)
    random.Random(5).shuffle(deck)
    hands = [deck[seat * 9 : seat * 9 + 9] for seat in range(4)]
    last = {"dealer": 3, "deal": 16, "hands": hands, "scores": [0, 0, 0, 0]}
    players = [alice, bob, carol, dave]
    table = match_at("classic_joker", players, deal=last, options={"pulkas": "nines"}).table
    assert table.rated
    match = play_to_the_end(table, random.Random(5), leaver=carol, leave_after=10)
    assert match.status == Match.Status.FINISHED
    carol_seat = Seat.objects.get(table=table, player=carol)
    assert carol_seat.is_bot and carol_seat.forfeited  # a computer finished carol's match

    _, places = final_ranking(match.result["scores"], match.result["forfeited"])
    changes = list(RatingChange.objects.filter(match=match).order_by("seat"))
    assert [c.place for c in changes] == places
    assert changes[carol_seat.position].place == 4
    by_place = sorted(changes, key=lambda c: (c.place, c.seat))
    assert [c.delta for c in by_place] == sorted((c.delta for c in by_place), reverse=True)
    assert by_place[-1].player_id == carol.pk and by_place[-1].delta < 0
    expected = rating.rate([rating.NEW_SKILL] * 4, places)
    assert [c.after for c in changes] == [skill.display for skill in expected]


# --- What never counts ------------------------------------------------------------------------


def test_a_guest_at_the_table_makes_it_casual_and_nothing_changes(alice, guest):
    table = tables.table_create(
        creator=alice, game="japanese_joker", options={}, stake=0, visibility="public"
    )
    assert table.rated and lobby.lobby_entry(table)["rated"]
    committed(tables.table_join, player=guest, table_id=table.pk)
    assert not lobby.lobby_entry(table)["rated"]
    match = forfeit(table, guest)
    assert match.status == Match.Status.FINISHED
    assert services.match_rate(match_id=match.pk) == []
    assert not Rating.objects.exists() and not RatingChange.objects.exists()


def test_a_guests_table_is_casual_whatever_they_ask(guest, alice):
    table = tables.table_create(
        creator=guest, game="japanese_joker", options={}, stake=0, visibility="public", rated=True
    )
    assert not table.rated


def test_a_casual_table_changes_nothing(alice, bob):
    match = beats(alice, bob, rated=False)
    assert services.match_rate(match_id=match.pk) == []
    assert not RatingChange.objects.exists() and not Rating.objects.exists()


def test_a_computer_player_from_the_start_makes_the_table_casual(alice, bob):
    table = open_table("japanese_joker", [alice, bob])
    # Today computers only replace leavers; a computer seated from the start (a later issue)
    # is a bot seat nobody forfeited, and the ladder checks the seats when it rates.
    Seat.objects.filter(table=table, player=bob).update(is_bot=True)
    match = forfeit(table, alice)
    assert match.status == Match.Status.FINISHED
    assert services.match_rate(match_id=match.pk) == []
    assert not RatingChange.objects.exists()


def test_a_cancelled_match_is_never_rated(alice, bob):
    table = open_table("japanese_joker", [alice, bob])
    match = Match.objects.get(table=table)
    assert match_cancel(match_id=match.pk, reason="test")
    assert services.match_rate(match_id=match.pk) == []
    assert services.matches_rate_unrated(now=match_now(match) + timedelta(hours=1)) == 0
    assert not RatingChange.objects.exists()


def test_a_match_still_playing_is_not_rated(alice, bob):
    match = Match.objects.get(table=open_table("japanese_joker", [alice, bob]))
    assert services.match_rate(match_id=match.pk) == []
    assert services.match_rate(match_id=10**9) == []  # no such match: nothing, no error


def match_now(match: Match):
    match.refresh_from_db()
    return match.ended_at or match.started_at


# --- Exactly once -----------------------------------------------------------------------------


def test_the_task_run_twice_changes_each_rating_once(alice, bob):
    match = beats(alice, bob)  # the first run came with the finish
    snapshot = [(r.mu, r.sigma, r.matches) for r in ratings_of(alice, bob)]
    assert tasks.rate_match.apply(args=[match.pk]).get() == 0
    assert tasks.rate_match.delay(match.pk).get() == 0
    assert [(r.mu, r.sigma, r.matches) for r in ratings_of(alice, bob)] == snapshot
    assert RatingChange.objects.filter(match=match).count() == 2


def test_the_sweep_rates_a_match_whose_task_was_lost_and_after_it_changes_nothing(
    alice, bob, settings
):
    settings.MATCH_FINISHED_TASKS = []  # the task is lost
    match = beats(alice, bob)
    assert not RatingChange.objects.exists()
    ended = match.ended_at
    soon = ended + timedelta(seconds=settings.LADDER_SWEEP_AFTER_SECONDS - 1)
    assert services.matches_rate_unrated(now=soon) == 0  # its task may still be on its way
    later = ended + timedelta(seconds=settings.LADDER_SWEEP_AFTER_SECONDS + 1)
    assert services.matches_rate_unrated(now=later) == 1
    assert RatingChange.objects.filter(match=match).count() == 2
    assert services.matches_rate_unrated(now=later) == 0
    assert tasks.rate_match.apply(args=[match.pk]).get() == 0  # the task after the sweep
    assert [r.matches for r in ratings_of(alice, bob)] == [1, 1]


def test_the_sweep_after_the_task_changes_nothing(alice, bob, settings):
    match = beats(alice, bob)
    later = match.ended_at + timedelta(seconds=settings.LADDER_SWEEP_AFTER_SECONDS + 1)
    assert services.matches_rate_unrated(now=later) == 0
    assert [r.matches for r in ratings_of(alice, bob)] == [1, 1]


def test_the_sweep_skips_casual_guest_and_computer_tables(alice, bob, carol, guest, settings):
    settings.MATCH_FINISHED_TASKS = []
    casual = beats(alice, bob, rated=False)
    with_guest = tables.table_create(
        creator=carol, game="japanese_joker", options={}, stake=0, visibility="public"
    )
    committed(tables.table_join, player=guest, table_id=with_guest.pk)
    forfeit(with_guest, guest)
    later = casual.ended_at + timedelta(hours=1)
    assert services.matches_rate_unrated(now=later) == 0


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_workers_rating_the_same_match_at_once_on_postgresql_change_each_rating_once(
    alice, bob, settings, monkeypatch
):
    settings.MATCH_FINISHED_TASKS = []
    match = beats(alice, bob)
    real_rate = rating.rate
    inside = threading.Event()

    def slow_rate(skills, places):
        # The first worker holds the rating locks for a while: the second must wait on them,
        # then find the match rated.
        inside.set()
        time.sleep(0.5)
        return real_rate(skills, places)

    monkeypatch.setattr(services.rating, "rate", slow_rate)
    results: list[int] = []
    start = threading.Barrier(4)

    def worker(run):
        try:
            start.wait()
            results.append(run())
        finally:
            connection.close()

    later = match.ended_at + timedelta(hours=1)
    runs = [
        lambda: len(services.match_rate(match_id=match.pk)),
        lambda: len(services.match_rate(match_id=match.pk)),
        lambda: services.matches_rate_unrated(now=later),  # the sweep at the same moment
        lambda: tasks.rate_match.apply(args=[match.pk]).get(),
    ]
    threads = [threading.Thread(target=worker, args=(run,)) for run in runs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert inside.is_set()
    assert sorted(results) in ([0, 0, 0, 1], [0, 0, 0, 2])  # one run rated it (the sweep: 1)
    assert RatingChange.objects.filter(match=match).count() == 2
    winner, loser = ratings_of(alice, bob)
    assert (winner.matches, loser.matches) == (1, 1)
    won, lost = real_rate([rating.NEW_SKILL, rating.NEW_SKILL], [1, 2])
    assert (winner.mu, loser.mu) == (won.mu, lost.mu)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_players_first_rated_matches_at_once_on_postgresql_create_one_rating_each(
    alice, bob, carol, dave, settings
):
    """Two matches of four new players rated at the same moment: every rating row is made once
    and every rating moves once."""
    settings.MATCH_FINISHED_TASKS = []
    first, second = beats(alice, bob), beats(carol, dave)
    start = threading.Barrier(4)

    def worker(match_id):
        try:
            start.wait()
            services.match_rate(match_id=match_id)
        finally:
            connection.close()

    threads = [
        threading.Thread(target=worker, args=(m.pk,)) for m in (first, second, first, second)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert Rating.objects.count() == 4
    assert sorted(Rating.objects.values_list("matches", flat=True)) == [1, 1, 1, 1]
    assert RatingChange.objects.count() == 4
