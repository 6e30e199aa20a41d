"""An arena scores a player's matches in the order they ended, whatever order they are counted
in (issue 40 § 2): a count that comes late (its task lost and the tick's grace, a race) rewrites
the points and the doubling of the player's later matches, through the real count
(``table_count``); the entrant's cached score and fire, the result rows, the standings and
"who reached their final score first" all follow the matches' end, never the count."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accounts.models import Player
from games.models import Match, Seat, Table
from games.services.paired_tables import table_for_players
from tests.support.players import make_player
from tournaments import scoring, selectors
from tournaments.models import Entrant, Tournament, TournamentResult, TournamentTable
from tournaments.services.entries import tournament_join
from tournaments.services.running import table_count

from .test_running import arena

pytestmark = pytest.mark.django_db

WIN, LOSS, DRAW = "win", "loss", "draw"  # a match's outcome for its first player
OUTCOME = {WIN: scoring.Outcome(1), LOSS: scoring.Outcome(2), DRAW: scoring.Outcome(1, tied=2)}
AGAINST = {WIN: LOSS, LOSS: WIN, DRAW: DRAW}


def running_arena(players: list[Player]) -> Tournament:
    """An arena under way with these players in it (no pass: the test seats every table)."""
    tournament = arena()
    for player in players:
        tournament_join(player=player, tournament_id=tournament.pk)
    now = timezone.now()
    Tournament.objects.filter(pk=tournament.pk).update(
        status=Tournament.Status.RUNNING, started_at=now, ends_at=now + timedelta(minutes=30)
    )
    tournament.refresh_from_db()
    return tournament


def played(
    tournament: Tournament, first: Player, second: Player, outcome: str, ended_at: datetime
) -> TournamentTable:
    """A table of the event whose match is over (``outcome`` for ``first``), not yet counted."""
    table = table_for_players(
        game=tournament.game,
        players=[first, second],
        speed=tournament.speed,
        rated=tournament.rated,
        options=tournament.options,
    )
    assert table is not None
    link = TournamentTable.objects.create(tournament=tournament, table=table)
    seat = dict(Seat.objects.filter(table=table).values_list("player_id", "position"))
    winners = {
        WIN: [seat[first.pk]],
        LOSS: [seat[second.pk]],
        DRAW: sorted(seat.values()),
    }[outcome]
    Match.objects.filter(table=table).update(
        status=Match.Status.FINISHED,
        result={"reason": "points", "winners": winners, "forfeited": [], "scores": [0, 0]},
        ended_at=ended_at,
    )
    Seat.objects.filter(table=table).update(active=False)
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED, ended_at=ended_at)
    return link


def play_order(
    games: list[tuple[Player, Player, str, datetime]], counted: set[int], player: Player
) -> tuple[scoring.ArenaRecord, datetime | None]:
    """The player's run over the counted matches in the order they ended, and the end of the
    last match that scored (when they reached their final score)."""
    mine = sorted(
        (ended_at, outcome if first == player else AGAINST[outcome])
        for index, (first, second, outcome, ended_at) in enumerate(games)
        if index in counted and player in (first, second)
    )
    record = scoring.arena_record(OUTCOME[outcome] for _, outcome in mine)
    reached = [ended_at for (ended_at, _), m in zip(mine, record.matches, strict=True) if m.points]
    return record, (reached[-1] if reached else None)


def assert_scored_in_play_order(
    tournament: Tournament,
    games: list[tuple[Player, Player, str, datetime]],
    counted: set[int],
    players: list[Player],
) -> None:
    standings = {row.player: row for row in selectors.arena_table(tournament)}
    for player in players:
        record, reached = play_order(games, counted, player)
        entrant = Entrant.objects.get(tournament=tournament, player=player)
        assert (entrant.score, entrant.on_fire) == (record.total, record.on_fire), player.name
        rows = TournamentResult.objects.filter(tournament=tournament, player=player).order_by(
            "tournament_table__table__ended_at"
        )
        assert [(r.points, r.doubled) for r in rows] == [
            (m.points, m.doubled) for m in record.matches
        ], player.name
        assert standings[player.pk].record == record, player.name
        expected_reached = (reached or entrant.joined_at).timestamp()
        assert standings[player.pk].reached_at == expected_reached, player.name


def test_a_later_match_counted_before_an_earlier_one_scores_in_play_order(alice, bob):
    """The issue's player: win, loss, win, win is 2 + 0 + 2 + 2 = 6 and on fire, however the
    loss is counted last (by the counting order: 2 + 2 + 4 + 0 doubled = 8, fire out)."""
    tournament = running_arena([alice, bob])
    start = timezone.now()
    games = [
        (alice, bob, outcome, start + timedelta(minutes=n))
        for n, outcome in enumerate([WIN, LOSS, WIN, WIN])
    ]
    links = [played(tournament, *game) for game in games]
    for index in (0, 2, 3, 1):
        assert table_count(link_id=links[index].pk)
    assert not table_count(link_id=links[1].pk)  # counted once
    assert_scored_in_play_order(tournament, games, {0, 1, 2, 3}, [alice, bob])
    alice_in = Entrant.objects.get(tournament=tournament, player=alice)
    assert (alice_in.score, alice_in.on_fire) == (6, True)


def test_who_reached_the_score_first_goes_by_the_matches_end_not_their_count():
    """Equal points and performance: the one whose scoring match ended first is ahead, though
    it was counted last (and has the larger id)."""
    later, loser_of_later = make_player("later"), make_player("loserlater")
    sooner, loser_of_sooner = make_player("sooner"), make_player("losersooner")
    tournament = running_arena([later, loser_of_later, sooner, loser_of_sooner])
    start = timezone.now()
    first = played(tournament, sooner, loser_of_sooner, WIN, start)
    second = played(tournament, later, loser_of_later, WIN, start + timedelta(seconds=30))
    assert table_count(link_id=second.pk)
    assert table_count(link_id=first.pk)
    table = selectors.arena_table(tournament)
    assert [row.player for row in table[:2]] == [sooner.pk, later.pk]
    assert table[0].record.total == table[1].record.total == 2
    assert table[0].performance == table[1].performance


PAIRS = [(0, 1), (0, 2), (1, 2), (1, 0), (2, 0), (2, 1)]


@pytest.fixture
def trio(db) -> list[Player]:
    return [make_player(f"trio{n}") for n in range(3)]


@pytest.mark.slow
@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_any_counting_order_gives_the_play_order_score(trio, data):
    """Three players, matches one after another (each between two of them), counted in any
    order: after every count, each player's score, fire, result rows and standing are the run
    of their counted matches in the order they ended."""
    matches = data.draw(
        st.lists(
            st.tuples(st.sampled_from(PAIRS), st.sampled_from([WIN, LOSS, DRAW])),
            min_size=1,
            max_size=7,
        ),
        label="matches",
    )
    order = data.draw(st.permutations(range(len(matches))), label="counting order")
    tournament = running_arena(trio)
    start = timezone.now()
    games = [
        (trio[a], trio[b], outcome, start + timedelta(minutes=n))
        for n, ((a, b), outcome) in enumerate(matches)
    ]
    links = [played(tournament, *game) for game in games]
    counted: set[int] = set()
    for index in order:
        assert table_count(link_id=links[index].pk)
        counted.add(index)
        assert_scored_in_play_order(tournament, games, counted, trio)
