"""Issue 41 § 1 as a person sees it, at 375×667 and on a phone on its side (844×390): the New
table form offers no "Quick play", a profile says one completion figure, and the review's marks
read in the replay's words. Each screen is pictured under tests/e2e/artifacts/."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.models import MatchReview
from games.services import reviews
from tests.support.ladder import beats
from tests.support.players import make_player

from .people import TOUCH_PHONE, Person
from .test_match_replay import play_match
from .threads import on_a_thread

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SIZES = [
    {"width": 375, "height": 667},
    {"width": 360, "height": 640},
    {"width": 844, "height": 390},
]


def test_the_newcomers_screens_at_a_phones_sizes(browser, e2e_server, artifacts):
    def finished_matches() -> None:
        una, vic = make_player("una"), make_player("vic")
        beats(una, vic)
        beats(vic, una)

    on_a_thread(finished_matches)
    match_id = play_match(e2e_server, "japanese_joker", 2, {"points": 11}, "ns", 6)
    MatchReview.objects.all().delete()
    person = Person(browser, e2e_server, "newcomer", viewport=SIZES[0], device=TOUCH_PHONE)
    page = person.page
    try:
        person.become_guest()
        for size in SIZES:
            page.set_viewport_size(size)
            page.goto("/tables/new/japanese_joker/")
            expect(page.get_by_text("Public", exact=True)).to_be_visible()
            assert page.locator("input[value='pool']").count() == 0
            page.screenshot(
                scale="css", path=str(artifacts / f"newcomer-new-table-{size['width']}.png")
            )

            page.goto("/players/una/")
            figure = page.locator("[data-reputation=completion]")
            figure.scroll_into_view_if_needed()
            expect(figure).to_be_in_viewport()
            assert page.locator("[data-record=completion]").count() == 0  # one figure
            page.screenshot(
                scale="css", path=str(artifacts / f"newcomer-profile-{size['width']}.png")
            )

        page.set_viewport_size(SIZES[0])
        page.goto(f"/matches/{match_id}/")
        # The test server runs its tasks eagerly: the review is made inside this request, and
        # on a loaded machine the click's navigation takes as long as the review itself.
        page.locator(".review-seat[data-seat='0']").get_by_role(
            "button", name="Review this play"
        ).click(timeout=60_000)
        page.wait_for_url(re.compile(rf"/matches/{match_id}/#review$"), timeout=60_000)
        review = MatchReview.objects.get(match_id=match_id, seat=0)
        if review.status != MatchReview.Status.DONE:
            on_a_thread(lambda: reviews.review_run(review.pk))
        marks = page.locator(".review-seat[data-seat='0'][data-status='done'] .review-marks")
        marks.wait_for(timeout=30_000)
        said = marks.inner_text()
        assert not re.search(r"\b([2-9TJQKA][SHDC]|X[12])\b", said), said
        for size in SIZES:
            page.set_viewport_size(size)
            marks.scroll_into_view_if_needed()
            expect(marks.locator("li").first).to_be_in_viewport()
            page.screenshot(
                scale="css", path=str(artifacts / f"newcomer-review-{size['width']}.png")
            )
        assert not person.errors, person.errors
    finally:
        person.context.close()
