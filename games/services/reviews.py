"""The review of a seat's play, asked for on a finished match's page (docs/review.md).

Who may ask: a registered player for their own seat in any match they may see, anyone with a
player (a guest too) for every seat of a public or quick-play match, and only once it is over
(never during the match). A review is made once per seat and kept; a player may ask for at most
``REVIEW_PER_DAY`` new ones a day. The search runs in the worker at a low priority, in a process
of its own at a lower CPU priority (it is pure CPU: in the worker's threads it would hold the
interpreter lock against the live tasks).
"""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor
from datetime import timedelta
from multiprocessing import get_context
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import Player
from core.chart import Chart, line_chart
from core.errors import ServiceError

from .. import history, review
from ..models import Match, MatchReview, Table
from .jobs import enqueue_on_commit

OPEN_TO_ALL = (Table.Visibility.PUBLIC, Table.Visibility.POOL)
CHART_STEPS = (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000)  # points between grid lines


def may_review(player: Player, match: Match, seat: int) -> bool:
    """Whether ``player`` may ask for the review of ``seat`` (the module's rules)."""
    if not history.may_see_match(player, match):
        return False
    if match.table.visibility in OPEN_TO_ALL:
        return True
    holder = match.table.seats.filter(position=seat).values_list("player_id", flat=True).first()
    return not player.is_guest and holder == player.pk


def review_request(*, player: Player | None, match_id: int, seat: Any) -> MatchReview:
    """The review of ``seat``: the one made already, or a new one on its way."""
    match = Match.objects.select_related("table").filter(pk=match_id).first()
    if match is None or player is None or not history.may_see_match(player, match):
        raise ServiceError(gettext("There is no such match."), code="no_match")
    if match.status != Match.Status.FINISHED:
        raise ServiceError(
            gettext("A match is reviewed once it is over, never while it is played."),
            code="not_over",
        )
    seats = len(match.result["scores"]) if match.result else 0
    if type(seat) is not int or not 0 <= seat < seats:
        raise ServiceError(gettext("Choose a seat of this match."), code="bad_seat")
    kept = MatchReview.objects.filter(match=match, seat=seat).first()
    if kept is not None:
        return kept
    if not may_review(player, match, seat):
        raise ServiceError(
            gettext("You may review your own play, or any seat of a public match."),
            code="not_yours",
        )
    since = timezone.now() - timedelta(days=1)
    if MatchReview.objects.filter(requested_by=player, created_at__gte=since).count() >= (
        settings.REVIEW_PER_DAY
    ):
        raise ServiceError(
            gettext("You have asked for %(count)s reviews today, the most a day; try tomorrow.")
            % {"count": settings.REVIEW_PER_DAY},
            code="review_limit",
        )
    try:
        with transaction.atomic():
            made = MatchReview.objects.create(
                match=match, seat=seat, requested_by=player, worlds=settings.REVIEW_WORLDS
            )
    except IntegrityError:  # another request for the same seat a moment ago
        return MatchReview.objects.get(match=match, seat=seat)
    enqueue_on_commit("games.tasks.review_match", made.pk)
    return made


def review_run(review_id: int) -> bool:
    """Make a pending review (the task); True if this call made it. Safe to run twice."""
    made = MatchReview.objects.select_related("match").filter(pk=review_id).first()
    if made is None or made.status != MatchReview.Status.PENDING:
        return False
    match = made.match
    events = history.match_events(match)
    with ProcessPoolExecutor(1, mp_context=get_context("spawn")) as pool:
        decisions, judged, seconds = pool.submit(
            review.judge, match.game, match.options, match.seed, events, made.seat, made.worlds
        ).result()
    return bool(
        MatchReview.objects.filter(pk=made.pk, status=MatchReview.Status.PENDING).update(
            status=MatchReview.Status.DONE,
            decisions=decisions,
            summary=judged,
            seconds=seconds,
            finished_at=timezone.now(),
        )
    )


def reviews_sweep() -> int:
    """Reviews whose task was lost (a broker hiccup, a worker restart): made now. The number."""
    late = timezone.now() - timedelta(seconds=settings.REVIEW_LATE_SECONDS)
    pending = MatchReview.objects.filter(status=MatchReview.Status.PENDING, created_at__lt=late)
    return sum(review_run(review_id) for review_id in pending.values_list("pk", flat=True))


def review_chart(decisions: list[dict[str, Any]]) -> Chart | None:
    """The seat's expected standing through the match (docs/review.md § The chart): at each
    decision, its score less its opponents' mean so far plus what the search expects the hand to
    add after the choice made (the first line) and after the best one found (the second)."""
    if not decisions or any("standing" not in d for d in decisions):
        return None  # none, or made before reviews kept the standing
    taken = [d["standing"] + d["taken_value"] for d in decisions]
    best = [d["standing"] + d["best_value"] for d in decisions]
    labels = [
        gettext(
            "Hand %(hand)s, step %(step)s: %(taken)+.1f expected after the choice made, "
            "%(best)+.1f after the best found"
        )
        % {"hand": d["hand"], "step": d["step"], "taken": value, "best": better}
        for d, value, better in zip(decisions, taken, best, strict=True)
    ]
    marks = [d["mark"] for d in decisions]
    return line_chart([taken, best], labels, steps=CHART_STEPS, marks=marks)
