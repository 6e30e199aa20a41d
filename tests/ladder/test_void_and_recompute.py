"""An admin voids a match (its changes are undone by recomputing its players) or recomputes a
player from their matches (ladder.services)."""

from __future__ import annotations

import pytest

from core.errors import ServiceError
from games.models import Match
from games.services.matches import match_cancel
from ladder import rating, services
from ladder.models import MatchVoid, Rating, RatingChange
from tests.support.ladder import beats, open_table

pytestmark = pytest.mark.django_db

NEW = rating.NEW_SKILL


def skill(player, game="japanese_joker") -> rating.Skill:
    return Rating.objects.get(player=player, game=game).skill


def test_voiding_a_match_recomputes_its_players_as_if_it_never_counted(alice, bob, admin_user):
    first = beats(alice, bob)
    second = beats(bob, alice)
    void = services.match_void(match_id=first.pk, reason="collusion", voided_by=admin_user)
    assert (void.reason, void.voided_by) == ("collusion", admin_user)

    # Only the second match counts now: both enter it new.
    bob_after, alice_after = rating.rate([NEW, NEW], [1, 2])
    assert skill(bob) == bob_after and skill(alice) == alice_after
    alice_rating = Rating.objects.get(player=alice, game="japanese_joker")
    assert (alice_rating.matches, alice_rating.wins) == (1, 0)
    assert alice_rating.last_played_at == second.ended_at
    change = RatingChange.objects.get(match=second, player=bob)
    assert (change.before, change.after, change.delta) == (
        1500,
        bob_after.display,
        bob_after.display - 1500,
    )
    # The voided match keeps its rows (its claim) but no longer counts, and is never rated again.
    assert RatingChange.objects.filter(match=first).count() == 2
    assert RatingChange.objects.counted().filter(match=first).count() == 0
    assert services.match_rate(match_id=first.pk) == []
    first.refresh_from_db()
    assert first.status == Match.Status.FINISHED and first.result["winners"]  # result stands


def test_a_void_leaves_the_players_opponents_in_other_matches_alone(alice, bob, carol):
    voided = beats(alice, bob)
    beats(carol, alice)
    carol_before = skill(carol)
    services.match_void(match_id=voided.pk, reason="a bug in the deal")
    assert skill(carol) == carol_before  # carol was not in the voided match
    # alice enters her match with carol new, carol with what was recorded for her then.
    carol_then = RatingChange.objects.get(player=carol)
    _, alice_now = rating.rate(
        [rating.Skill(mu=carol_then.mu_before, sigma=carol_then.sigma_before), NEW], [1, 2]
    )
    assert skill(alice) == alice_now
    assert skill(bob) == NEW
    assert Rating.objects.get(player=bob, game="japanese_joker").matches == 0


def test_a_voided_match_whose_task_had_not_run_is_never_rated(alice, bob, settings):
    settings.MATCH_FINISHED_TASKS = []
    match = beats(alice, bob)
    services.match_void(match_id=match.pk, reason="reported")
    assert services.match_rate(match_id=match.pk) == []
    assert not RatingChange.objects.exists()


def test_a_void_needs_a_reason_a_finished_match_and_happens_once(alice, bob):
    match = beats(alice, bob)
    for reason in ("", "   "):
        with pytest.raises(ServiceError, match="Say why"):
            services.match_void(match_id=match.pk, reason=reason)
    with pytest.raises(ServiceError, match="no match"):
        services.match_void(match_id=10**9, reason="x")
    services.match_void(match_id=match.pk, reason="once")
    with pytest.raises(ServiceError, match="voided already"):
        services.match_void(match_id=match.pk, reason="twice")
    assert MatchVoid.objects.count() == 1

    cancelled = Match.objects.get(table=open_table("japanese_joker", [alice, bob]))
    match_cancel(match_id=cancelled.pk)
    with pytest.raises(ServiceError, match="finished match"):
        services.match_void(match_id=cancelled.pk, reason="x")


def test_recomputing_a_player_from_their_matches_reproduces_their_rating(alice, bob, carol):
    beats(alice, bob)
    beats(carol, alice)
    beats(alice, carol)
    kept = Rating.objects.get(player=alice, game="japanese_joker")
    assert services.player_ratings_recompute(player_id=alice.pk) == 0  # nothing to rewrite
    again = Rating.objects.get(player=alice, game="japanese_joker")
    assert (again.mu, again.sigma, again.display, again.matches, again.wins) == (
        kept.mu,
        kept.sigma,
        kept.display,
        kept.matches,
        kept.wins,
    )


def test_recomputing_repairs_a_rating_that_drifted_from_its_matches(alice, bob):
    beats(alice, bob)
    beats(alice, bob, game="japanese_whist")
    expected = skill(alice)
    Rating.objects.filter(player=alice).update(mu=40.0, sigma=1.0, display=2000, matches=7)
    assert services.player_ratings_recompute(player_id=alice.pk) == 0
    assert skill(alice) == expected and skill(alice, "japanese_whist") == expected
    assert Rating.objects.get(player=alice, game="japanese_joker").matches == 1
