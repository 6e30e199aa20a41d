"""The review through the services and the match page (issue 31 § 1): who may ask and when,
one review a seat kept for everyone, the daily limit, the task that makes it (in a process of its
own, twice safely) and the sweep that makes a lost one; the page's summary and marks."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from core.errors import ServiceError
from games.models import Match, MatchReview
from games.services import reviews
from tests.games.test_lobby import befriend
from tests.support.matches import play_out, start
from tests.support.players import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def small_search(settings):
    settings.REVIEW_WORLDS = 3
    settings.REVIEW_PER_DAY = 2


@pytest.fixture
def finished(alice, bob) -> Match:
    return play_out(start("japanese_joker", [alice, bob], options={"points": 11}), random.Random(9))


@pytest.mark.slow
def test_a_review_is_made_once_kept_and_shown_on_the_page(finished, alice, carol):
    review = reviews.review_request(player=alice, match_id=finished.pk, seat=0)
    assert review.status == MatchReview.Status.PENDING and review.worlds == 3
    assert reviews.review_run(review.pk) and not reviews.review_run(review.pk)  # once
    review.refresh_from_db()
    summary = review.summary
    assert review.status == MatchReview.Status.DONE and summary["decisions"] == len(
        review.decisions
    )
    assert summary["decisions"] > 0 and 0 <= summary["accuracy"] <= 100 and review.seconds > 0
    again = reviews.review_request(player=carol, match_id=finished.pk, seat=0)  # public: anyone
    assert again.pk == review.pk and MatchReview.objects.count() == 1

    html = client_for(carol).get(f"/matches/{finished.pk}/").content.decode()
    assert 'id="review"' in html and "accuracy" in html
    marked = [d for d in review.decisions if d["mark"]]
    for mark in marked:
        assert f'href="?step={mark["step"]}#replay"' in html
    # The chart: a point for each decision on the line of the choices made, the marked called out.
    chart = html[html.index('class="review-chart"') : html.index("</figure>")]
    assert chart.count("<circle") == len(review.decisions) and chart.count("<polyline") == 2
    assert chart.count('class="mistake"') + chart.count('class="blunder"') == len(marked)
    last = review.decisions[-1]
    expected = f"{last['standing'] + last['taken_value']:+.1f} expected after the choice made"
    assert expected in chart


def test_who_may_ask_and_when(finished, alice, bob, carol, dave):
    with pytest.raises(ServiceError) as refused:
        reviews.review_request(player=alice, match_id=finished.pk, seat=5)
    assert refused.value.code == "bad_seat"
    with pytest.raises(ServiceError) as refused:
        reviews.review_request(player=None, match_id=finished.pk, seat=0)
    assert refused.value.code == "no_match"
    running = Match.objects.get(table=start("japanese_joker", [carol, dave]))
    with pytest.raises(ServiceError) as refused:
        reviews.review_request(player=carol, match_id=running.pk, seat=0)
    assert refused.value.code == "not_over"  # never during the match
    befriend(alice, bob)
    friends = play_out(
        start("japanese_joker", [alice, bob], options={"points": 11}, visibility="friends"),
        random.Random(4),
    )
    assert reviews.may_review(alice, friends, 0) and not reviews.may_review(alice, friends, 1)
    with pytest.raises(ServiceError) as refused:
        reviews.review_request(player=alice, match_id=friends.pk, seat=1)
    assert refused.value.code == "not_yours"
    assert not MatchReview.objects.exists()


def test_a_player_asks_for_at_most_the_daily_number_of_new_reviews(finished, alice, bob):
    other = play_out(
        start("japanese_joker", [alice, bob], options={"points": 11}), random.Random(2)
    )
    reviews.review_request(player=alice, match_id=finished.pk, seat=0)
    reviews.review_request(player=alice, match_id=finished.pk, seat=1)
    with pytest.raises(ServiceError) as refused:
        reviews.review_request(player=alice, match_id=other.pk, seat=0)
    assert refused.value.code == "review_limit" and "2" in str(refused.value)
    MatchReview.objects.update(created_at=timezone.now() - timedelta(days=2))
    reviews.review_request(player=alice, match_id=other.pk, seat=0)  # a new day


@pytest.mark.slow
def test_the_page_asks_and_the_sweep_makes_a_review_whose_task_was_lost(finished, alice, settings):
    page = client_for(alice).get(f"/matches/{finished.pk}/").content.decode()
    assert page.count('name="seat"') == 2  # a public match: either seat
    response = client_for(alice).post(f"/matches/{finished.pk}/review/", {"seat": "1"})
    assert response.status_code == 302 and response["Location"].endswith("#review")
    review = MatchReview.objects.get(match=finished, seat=1)
    assert review.status == MatchReview.Status.PENDING
    assert reviews.reviews_sweep() == 0  # not late yet
    MatchReview.objects.update(created_at=timezone.now() - timedelta(hours=1))
    assert reviews.reviews_sweep() == 1
    assert MatchReview.objects.get(pk=review.pk).status == MatchReview.Status.DONE
    bad = client_for(alice).post(f"/matches/{finished.pk}/review/", {"seat": "x"})
    assert bad.status_code == 302 and MatchReview.objects.count() == 1


def test_an_admin_sees_reviews_and_may_delete_one_to_have_it_made_again(finished, alice):
    review = reviews.review_request(player=alice, match_id=finished.pk, seat=0)
    reviews.review_run(review.pk)
    admin = get_user_model().objects.create_superuser("root", "root@example.com", "pw")
    client = Client()
    client.force_login(admin)
    listing = client.get("/admin/games/matchreview/?status__exact=done").content.decode()
    assert f"review of seat 0 in match {finished.pk}" in listing
    page = client.get(f"/admin/games/matchreview/{review.pk}/change/").content.decode()
    assert "&quot;accuracy&quot;" in page
    assert client.get("/admin/games/matchreview/add/").status_code == 403
    client.post(f"/admin/games/matchreview/{review.pk}/delete/", {"post": "yes"})
    assert not MatchReview.objects.exists()
    again = reviews.review_request(player=alice, match_id=finished.pk, seat=0)
    assert again.status == MatchReview.Status.PENDING
