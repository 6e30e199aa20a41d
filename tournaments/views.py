"""The tournament pages (docs/tournaments.md § Pages): the list, an event's page, and its
buttons. Input is checked here and handed to one service (``services/entries.py``); what a
page shows comes from ``page_selectors``."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
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
from .forms import JoinForm, chosen_game, organise_form_for
from .models import Tournament
from .services import entries
from .services.creation import tournament_organise
from .services.running import may_call_off, tournament_call_off


@require_GET
def tournament_list(request: HttpRequest) -> HttpResponse:
    game = chosen_game(request.GET)
    context = {
        "listing": page_selectors.tournament_list(request_player(request), game=game),
        "games": list(GAME_TITLES.items()),
        "game": game,
        "server_now": timezone.now(),
        "staff": _staff(request),
    }
    return render(request, "tournaments/list.html", context)


def _staff(request: HttpRequest) -> bool:
    """Staff make the site's own events here as in the admin, with the admin's permission."""
    return request.user.has_perm("tournaments.add_tournament")


def tournament_new(request: HttpRequest, game: str) -> HttpResponse:
    """A new event: a registered player's private one, or any event for staff."""
    if game not in GAME_TITLES:
        raise Http404("No such game.")
    player = request_player(request)
    staff = _staff(request)
    if player is None and not staff:
        messages.info(request, _("Log in to organise a tournament."))
        return redirect(f"{reverse('account_login')}?next={request.path}")
    if player is not None and player.is_guest and not staff:
        context = {"game": game, "game_title": GAME_TITLES[game], "guest": True}
        return render(request, "tournaments/new.html", context)
    form = organise_form_for(game)(request.POST or None, staff=staff)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = tournament_organise(
                **form.terms(),
                organiser=player,
                staff=staff,
                starts_in_minutes=form.cleaned_data["starts_in"],
            )
        except ServiceError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, _("Your tournament is on the list. Invite your players."))
            return redirect("tournament", tournament_id=tournament.pk)
    context = {"form": form, "game": game, "game_title": GAME_TITLES[game], "staff": staff}
    return render(request, "tournaments/new.html", context, status=400 if form.errors else 200)


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
        "may_call_off": _may_call_off(request, tournament),
    }
    return render(request, "tournaments/tournament.html", context)


def _may_call_off(request: HttpRequest, tournament: Tournament) -> bool:
    staff = request.user.has_perm("tournaments.change_tournament")
    return may_call_off(tournament, request_player(request), staff)


@require_POST
def tournament_cancel(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _visible(request, tournament_id)
    staff = request.user.has_perm("tournaments.change_tournament")
    try:
        called_off = tournament_call_off(
            tournament_id=tournament.pk, player=request_player(request), staff=staff
        )
    except ServiceError as error:
        messages.error(request, str(error))
    else:
        if called_off:
            messages.success(request, _("The tournament is called off; every entry fee is back."))
        else:
            messages.info(request, _("This tournament is over already."))
    return redirect("tournament", tournament_id=tournament.pk)


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
