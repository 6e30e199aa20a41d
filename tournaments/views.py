"""The tournament pages (docs/tournaments.md § Pages): the list, an event's page, and its
buttons. Input is checked here and handed to one service (``services/entries.py``); what a
page shows comes from ``page_selectors``."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts.middleware import request_player
from accounts.models import Player
from core.errors import ServiceError
from games.catalog import GAME_TITLES, describe_options
from games.services.lobby import speed_text

from . import page_selectors
from .access import may_see
from .forms import JoinForm, chosen_game
from .models import Tournament
from .services import entries


@require_GET
def tournament_list(request: HttpRequest) -> HttpResponse:
    game = chosen_game(request.GET)
    context = {
        "listing": page_selectors.tournament_list(request_player(request), game=game),
        "games": list(GAME_TITLES.items()),
        "game": game,
        "server_now": timezone.now(),
    }
    return render(request, "tournaments/list.html", context)


def _visible(request: HttpRequest, tournament_id: int) -> Tournament:
    """The tournament, or 404 for one that does not exist or that the viewer may not see: the
    same answer, so a private event cannot be probed for."""
    tournament = Tournament.objects.select_related("creator").filter(pk=tournament_id).first()
    if tournament is None or not may_see(tournament, request_player(request)):
        raise Http404("No such tournament.")
    return tournament


@require_GET
def tournament_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _visible(request, tournament_id)
    context = {
        "page": page_selectors.tournament_page(tournament, request_player(request)),
        "t": tournament,
        "game_title": GAME_TITLES[tournament.game],
        "speed_text": speed_text(tournament.speed),
        "options": describe_options(tournament.game, tournament.options),
        "join_form": JoinForm(),
        "server_now": timezone.now(),
    }
    return render(request, "tournaments/tournament.html", context)


def _act(
    request: HttpRequest, tournament_id: int, action: Callable[[Player], object], done: str
) -> HttpResponse:
    """Run one entry service for the viewer and say how it went on the tournament's page; a
    falsy answer means the viewer was not in the event."""
    tournament = _visible(request, tournament_id)
    player = request_player(request)
    if player is None:
        messages.info(request, _("Play as a guest or log in first."))
    else:
        try:
            changed = action(player)
        except ServiceError as error:
            messages.error(request, str(error))
        else:
            if changed:
                messages.success(request, done)
            else:
                messages.info(request, _("You are not in this tournament."))
    return redirect("tournament", tournament_id=tournament.pk)


@require_POST
def tournament_join(request: HttpRequest, tournament_id: int) -> HttpResponse:
    form = JoinForm(request.POST)
    if not form.is_valid():
        _visible(request, tournament_id)
        messages.error(request, _("Wrong tournament password."))
        return redirect("tournament", tournament_id=tournament_id)
    password = form.cleaned_data["password"]
    return _act(
        request,
        tournament_id,
        lambda p: entries.tournament_join(player=p, tournament_id=tournament_id, password=password),
        _("You are in the tournament."),
    )


@require_POST
def tournament_leave(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _act(
        request,
        tournament_id,
        lambda p: entries.tournament_leave(player=p, tournament_id=tournament_id),
        _("You left the tournament."),
    )


@require_POST
def tournament_pause(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _act(
        request,
        tournament_id,
        lambda p: entries.tournament_pause(player=p, tournament_id=tournament_id, paused=True),
        _("Paused: you will not be paired until you resume."),
    )


@require_POST
def tournament_resume(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _act(
        request,
        tournament_id,
        lambda p: entries.tournament_pause(player=p, tournament_id=tournament_id, paused=False),
        _("Welcome back: you will be paired as soon as an opponent is free."),
    )
