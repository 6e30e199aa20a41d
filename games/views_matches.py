"""Played matches: the lists at ``/matches/``, a match's page with its replay, and its export.

A running match has no page of its own here: its address leads to the table, where a visitor is
a spectator. Who may see a match is who may see its table (``history.may_see_match``).
"""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext_lazy
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_GET, require_POST

from accounts.middleware import request_player
from accounts.models import Player
from core.errors import ServiceError

from . import history, hooks, replay
from .catalog import GAME_TITLES, describe_options
from .models import Match, MatchReview
from .rules import game_specs
from .rules_text import action_text
from .services import reviews

RECENT_PER_GAME = 10


class MatchFilterForm(forms.Form):
    """The list's filters; anything else in the query is ignored, and a bad value turns its
    own filter off, not the others."""

    game = forms.ChoiceField(
        label=gettext_lazy("Game"),
        required=False,
        choices=[("", gettext_lazy("Every game")), *GAME_TITLES.items()],
    )
    result = forms.ChoiceField(
        label=gettext_lazy("Result"),
        required=False,
        choices=[
            ("", gettext_lazy("Every result")),
            ("won", gettext_lazy("Won")),
            ("lost", gettext_lazy("Lost")),
            ("aborted", gettext_lazy("Aborted or cancelled")),
        ],
    )
    player = forms.CharField(required=False, max_length=150, widget=forms.HiddenInput)


def _visible_match(request: HttpRequest, match_id: int) -> Match:
    match = get_object_or_404(Match.objects.select_related("table"), pk=match_id)
    if not history.may_see_match(request_player(request), match):
        raise Http404("No such match.")
    return match


def _rows(matches: list[Match]) -> list[dict[str, Any]]:
    seats = history.seats_by_table(matches)
    return [
        {
            "match": match,
            "title": GAME_TITLES.get(match.game, match.game),
            "seats": seats.get(match.table_id, []),
            "winners": set((match.result or {}).get("winners") or []),
        }
        for match in matches
    ]


@require_GET
def match_list(request: HttpRequest) -> HttpResponse:
    """Recent matches per game; with a game, a player or a result chosen, one paged list."""
    form = MatchFilterForm(request.GET)
    form.is_valid()  # a field with a bad value is left out of cleaned_data: that filter is off
    chosen = form.cleaned_data
    shown_player = None
    if chosen.get("player"):
        shown_player = get_object_or_404(Player, name__iexact=chosen["player"])
    query = history.MatchFilter(
        game=chosen.get("game") or None,
        player=shown_player,
        result=chosen.get("result") or None,
    )
    viewer = request_player(request)
    context: dict[str, Any] = {"form": form, "shown_player": shown_player}
    if query.game is None and query.player is None and query.result is None:
        context["recent"] = [
            {
                "game": game,
                "title": title,
                "rows": _rows(
                    list(
                        history.visible_matches(viewer, history.MatchFilter(game=game))[
                            :RECENT_PER_GAME
                        ]
                    )
                ),
            }
            for game, title in GAME_TITLES.items()
        ]
    else:
        page = Paginator(
            history.visible_matches(viewer, query), settings.MATCHES_PAGE_SIZE
        ).get_page(request.GET.get("page"))
        context["page"] = page
        context["rows"] = _rows(list(page.object_list))
        keep = request.GET.copy()
        keep.pop("page", None)
        context["page_query"] = keep.urlencode()
    return render(request, "games/match_list.html", context)


@require_GET
def match_page(request: HttpRequest, match_id: int) -> HttpResponse:
    match = _visible_match(request, match_id)
    if not history.is_over(match):
        return redirect("table", table_id=match.table_id)  # a running match: the spectator view
    seats = history.match_seats(match)
    steps = history.match_steps(match, history.match_events(match))
    final = steps[-1].state
    try:
        step = min(max(int(request.GET.get("step", "0")), 0), len(steps) - 1)
    except ValueError:
        step = 0
    winners = set((match.result or {}).get("winners") or [])
    sheet: dict[str, Any] | None = final.view(None).get("sheet")  # type: ignore[assignment]
    context = {
        "match": match,
        "table": match.table,
        "title": GAME_TITLES.get(match.game, match.game),
        "options": describe_options(match.game, match.options),
        "rated": match.table.is_rated(seats),
        "seats": [
            {"seat": seat, "score": score, "won": seat.position in winners}
            for seat, score in zip(seats, final.scores, strict=False)
        ],
        "hands": history.hand_rows(history.hand_summaries(steps)) if not sheet else [],
        "sheet": history.sheet_pulkas(sheet) if sheet else None,
        "step": step,
        "step_count": len(steps),
        "panels": hooks.match_page_panels(request, match, seats),
        "reviews": (reviewed := _reviews(request, match, seats)),
        "review_marks": [
            {**mark, "seat": row["seat"].position} for row in reviewed for mark in row["mistakes"]
        ],
        "entropy": match.entropy or None,
        "entropy_seats": [
            {"name": seat.player.display_name, "bot": seat.is_bot, **entry}
            for seat, entry in zip(seats, (match.entropy or {}).get("seats", []), strict=False)
        ],
    }
    return render(request, "games/match_page.html", context)


@require_GET
@gzip_page  # every step repeats most of the last: hundreds of KiB shrink to a few dozen
def match_replay(request: HttpRequest, match_id: int) -> JsonResponse:
    """Every step of an ended match with every card face up, for the page's replay.

    Compressed: nothing secret is in it and nothing the request sent is echoed (no BREACH)."""
    match = _visible_match(request, match_id)
    if not history.is_over(match):
        raise Http404("The match is still being played.")
    seats = history.match_seats(match)
    return JsonResponse(
        {
            "match": match.pk,
            "game": match.game,
            "names": [seat.player.display_name for seat in seats],
            "steps": replay.replay_steps(history.match_steps(match, history.match_events(match))),
        }
    )


@require_GET
def match_export(request: HttpRequest, match_id: int) -> HttpResponse:
    """The match as a JSON file (docs/match-export.md), for ``verify_match --file``."""
    match = _visible_match(request, match_id)
    if not history.is_over(match):
        raise Http404("The match is still being played.")
    events = history.match_events(match)
    steps = history.match_steps(match, events)
    record = history.match_record(match, history.match_seats(match), events, steps)
    response = HttpResponse(
        json.dumps(record, indent=1, ensure_ascii=False), content_type="application/json"
    )
    response["Content-Disposition"] = f'attachment; filename="match-{match.pk}.json"'
    return response


def _reviews(request: HttpRequest, match: Match, seats: list[Any]) -> list[dict[str, Any]]:
    """Each seat's review as the page shows it: made, on its way, or one the reader may ask for."""
    made = {review.seat: review for review in MatchReview.objects.filter(match=match)}
    reader = request_player(request)
    rows = []
    for seat in seats:
        review = made.get(seat.position)
        mistakes, chart = [], None
        if review is not None and review.status == MatchReview.Status.DONE:
            chart = reviews.review_chart(review.decisions)
            mistakes = [
                {**d, "taken_text": action_text(d["taken"]), "best_text": action_text(d["best"])}
                for d in review.decisions
                if d["mark"]
            ]
        rows.append(
            {
                "seat": seat,
                "review": review,
                "mistakes": mistakes,
                "chart": chart,
                "may_ask": review is None
                and reader is not None
                and match.status == Match.Status.FINISHED
                and reviews.may_review(reader, match, seat.position),
            }
        )
    return rows


@require_GET
def fairness_page(request: HttpRequest) -> HttpResponse:
    """The browser's check of a finished match (docs/fairness.md § Check a match in the
    browser): the page gets the record (a file, pasted text, or this site's export of
    ``?match=<id>``) and checks it with no help from the server, by the games' deal modules."""
    match_id = request.GET.get("match", "")
    checkers = {
        spec.id: {"module": static(spec.deal_check), "title": str(GAME_TITLES[spec.id])}
        for spec in game_specs()
        if spec.deal_check
    }
    context = {
        "match_id": match_id if match_id.isdigit() and len(match_id) < 19 else "",
        "checkers": checkers,
    }
    return render(request, "games/fairness.html", context)


@require_POST
def match_review(request: HttpRequest, match_id: int) -> HttpResponse:
    """Ask for the review of a seat's play (docs/review.md); back to the match's page, which
    shows it when it is made."""
    match = _visible_match(request, match_id)
    try:
        seat = int(request.POST.get("seat", ""))
    except ValueError:
        seat = -1
    try:
        reviews.review_request(player=request_player(request), match_id=match.pk, seat=seat)
    except ServiceError as error:
        messages.error(request, str(error))
    return redirect(f"{reverse('match', args=[match.pk])}#review")
