"""The admin: ratings and changes are read-only; its two actions call the ladder's services."""

from __future__ import annotations

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME

from ladder import rating
from ladder.models import MatchVoid, Rating, RatingChange
from tests.support.ladder import beats

pytestmark = pytest.mark.django_db


def test_ratings_and_changes_are_read_only_in_the_admin(admin_client, alice, bob):
    match = beats(alice, bob)
    row = Rating.objects.get(player=alice)
    change = RatingChange.objects.filter(match=match).first()
    assert admin_client.get("/admin/ladder/rating/").status_code == 200
    assert admin_client.get("/admin/ladder/ratingchange/").status_code == 200
    assert admin_client.get("/admin/ladder/matchvoid/").status_code == 200
    assert admin_client.get("/admin/ladder/rating/add/").status_code == 403
    page = admin_client.get(f"/admin/ladder/rating/{row.pk}/change/").content.decode()
    assert 'name="mu"' not in page  # shown, not editable
    admin_client.post(f"/admin/ladder/ratingchange/{change.pk}/change/", {"delta": 500})
    change.refresh_from_db()
    assert change.delta != 500
    assert admin_client.post(f"/admin/ladder/rating/{row.pk}/delete/").status_code == 403


def test_the_recompute_action_rebuilds_the_selected_players_ratings(admin_client, alice, bob):
    beats(alice, bob)
    expected = Rating.objects.get(player=alice).skill
    Rating.objects.filter(player=alice).update(mu=10.0, matches=9)
    row = Rating.objects.get(player=alice)
    response = admin_client.post(
        "/admin/ladder/rating/",
        {"action": "recompute", ACTION_CHECKBOX_NAME: [row.pk]},
        follow=True,
    )
    assert "Recomputed 1 player(s)" in response.content.decode()
    row.refresh_from_db()
    assert (row.skill, row.matches) == (expected, 1)


def test_the_void_action_asks_why_then_voids_and_recomputes(admin_client, admin_user, alice, bob):
    match = beats(alice, bob)
    change = RatingChange.objects.get(match=match, player=alice)
    url = "/admin/ladder/ratingchange/"
    asked = admin_client.post(url, {"action": "void_matches", ACTION_CHECKBOX_NAME: [change.pk]})
    assert asked.status_code == 200 and 'name="reason"' in asked.content.decode()
    assert not MatchVoid.objects.exists()

    no_reason = admin_client.post(
        url,
        {"action": "void_matches", ACTION_CHECKBOX_NAME: [change.pk], "confirm": "yes"},
    )
    assert "Say why" in no_reason.content.decode() and not MatchVoid.objects.exists()

    done = admin_client.post(
        url,
        {
            "action": "void_matches",
            ACTION_CHECKBOX_NAME: [change.pk],
            "confirm": "yes",
            "reason": "played against a second account",
        },
        follow=True,
    )
    assert f"Match #{match.pk} voided" in done.content.decode()
    void = MatchVoid.objects.get(match=match)
    assert (void.reason, void.voided_by) == ("played against a second account", admin_user)
    assert Rating.objects.get(player=alice).skill == rating.NEW_SKILL

    again = admin_client.post(
        url,
        {
            "action": "void_matches",
            ACTION_CHECKBOX_NAME: [change.pk],
            "confirm": "yes",
            "reason": "x",
        },
        follow=True,
    )
    assert "voided already" in again.content.decode()
