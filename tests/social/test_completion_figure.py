"""Issue 41 § 1: one completion figure. After two arenas a profile said "often leaves · Matches
finished / started 2 / 4 · Completion 50 %" directly above "Record: Forfeits 0 · Completion rate
100 %": the reputation counted the arenas' no-shows (matches aborted before a move) and the
record counted finished matches only. The profile now shows one figure, the reputation's, and a
no-show the site caused (a pairing none of the player's pages heard of) counts for nobody."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games.models import Match, Seat, Table
from games.services import moves
from games.services.matches import engine_state
from games.services.presence import live_sweep
from social.models import Forfeit
from social.selectors import reputation
from tests.support.ladder import beats, committed
from tournaments.models import Tournament
from tournaments.services.entries import tournament_join
from tournaments.services.running import tournament_start

pytestmark = pytest.mark.django_db(transaction=True)


def _arena_no_show(player, other, *, heard: bool) -> list[Forfeit]:
    """An arena pairs the two; neither opens the table, and its clocks run out."""
    tournament = Tournament.objects.create(
        name="No-show arena",
        game="japanese_joker",
        speed="fast",
        starts_at=timezone.now(),
        duration_minutes=30,
        options={"points": 11},
    )
    for entrant in (player, other):
        tournament_join(player=entrant, tournament_id=tournament.pk)
    committed(tournament_start, tournament_id=tournament.pk)
    table: Table = tournament.tables.get().table
    if heard:  # a page of each received the pairing: staying away is their own doing
        Seat.objects.filter(table=table).update(told=True)
    _until_to_act(table, player)
    committed(live_sweep, now=timezone.now() + timedelta(hours=1))
    match = Match.objects.get(table=table)
    assert match.status == Match.Status.ABORTED, "a match nobody came to is aborted"
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
    forfeits = list(Forfeit.objects.filter(match=match, player=player))
    assert forfeits, "the player who did not come is charged with the no-show"
    return forfeits


def _until_to_act(table: Table, player) -> None:
    """The other moves (their page did open the table) until it is ``player``'s turn, whose
    clocks then run out: only the seat to act forfeits a match nobody began."""
    while True:
        match = Match.objects.get(table=table)
        state = engine_state(match)
        seat = Seat.objects.select_related("player").get(table=table, position=state.to_act)
        if seat.player_id == player.pk:
            return
        committed(
            moves.match_act,
            table_id=table.pk,
            player=seat.player,
            version=match.version,
            action=state.legal_actions()[0],
            client_action_id=f"other-{match.version}",
        )


def _completion_figures(player) -> list[str]:
    html = Client().get(f"/players/{player.name}/").content.decode()
    return re.findall(r'data-(?:record|reputation)="completion">([^<]+)<', html)


def test_the_profile_says_one_completion_figure(alice, bob, carol):
    beats(alice, bob)
    beats(alice, bob)
    for _ in range(2):
        assert not any(f.excused for f in _arena_no_show(alice, carol, heard=True))

    rep = reputation(alice)
    assert (rep.started, rep.completed) == (4, 2)
    assert _completion_figures(alice) == ["50%"]


def test_a_no_show_the_site_caused_counts_for_nobody(alice, bob, carol):
    beats(alice, bob)
    beats(alice, bob)
    for _ in range(2):
        assert all(f.excused for f in _arena_no_show(alice, carol, heard=False))

    rep = reputation(alice)
    assert (rep.started, rep.completed, rep.low) == (2, 2, False)
    assert _completion_figures(alice) == ["100%"]
    html = Client().get("/players/alice/").content.decode()
    assert "often leaves" not in html
