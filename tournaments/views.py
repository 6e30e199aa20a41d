"""The tournament pages (docs/tournaments.md § Pages): the list, an event's page, and its
buttons. Input is checked here and handed to one service (``services/entries.py``); what a
page shows comes from ``page_selectors``.

A button's POST answers a browser with the event's page and a message (a redirect either way:
the page's live script reloads and refetches its own address, which must not be the POST's).
A client that asks for JSON (``Accept: application/json``) is told how it went instead:
``{"ok": true}``, or ``{"error": {"code", "message"}}`` with a status that fits the refusal."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
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
from .realtime import standings_version
from .services import entries
from .services.creation import TermsRefused, tournament_organise
from .services.running import may_call_off, tournament_call_off

# A refusal's status for a client that asks for JSON, by its code: not for this player (403), no
# such event (404), too many wrong passwords (429). Any other refusal is 409: the event's state
# does not allow it now (full, started, over, an arena's pause at a Swiss event, too few coins,
# not in the event).
REFUSAL_STATUS = {
    "no_player": 403,
    "guest_tournament": 403,
    "friends_only": 403,
    "wrong_password": 403,
    "no_wallet": 403,
    "cooldown": 403,
    "not_yours": 403,
    "no_tournament": 404,
    "password_pause": 429,
}


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
        except TermsRefused as refused:
            for field, message, _code in refused.problems:
                form.add_error(field if field in form.fields else None, message)
        except ServiceError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, _("Your tournament is on the list. Invite your players."))
            return redirect("tournament", tournament_id=tournament.pk)
    if "password" in form.errors:  # a refused password is typed again; the rest stays
        form.fields["password"].widget.render_value = False
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
    # Before the page is read: a change in between makes the socket's first frame newer than
    # the page, and the page draws itself again; never the other way round.
    version = standings_version(tournament)
    context = {
        "version": version,
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


def _wants_json(request: HttpRequest) -> bool:
    """A client that prefers JSON to a page (a browser's Accept names text/html first)."""
    return request.get_preferred_type(["text/html", "application/json"]) == "application/json"


def _done(request: HttpRequest, tournament_id: int, message: str) -> HttpResponse:
    if _wants_json(request):
        return JsonResponse({"ok": True})
    messages.success(request, message)
    return redirect("tournament", tournament_id=tournament_id)


def _refused(
    request: HttpRequest, tournament_id: int, error: ServiceError, *, note: bool = False
) -> HttpResponse:
    """A refusal: JSON with its status, or the event's page with the message (``note``: shown
    as information, not as an error)."""
    if _wants_json(request):
        body = {"error": {"code": error.code, "message": str(error)}}
        return JsonResponse(body, status=REFUSAL_STATUS.get(error.code, 409))
    (messages.info if note else messages.error)(request, str(error))
    return redirect("tournament", tournament_id=tournament_id)


def _button(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A button's view, whose 404 (no such event, or one the viewer may not see) a JSON client
    gets as JSON too."""

    @wraps(view)
    def answered(request: HttpRequest, tournament_id: int) -> HttpResponse:
        try:
            return view(request, tournament_id)
        except Http404:
            if not _wants_json(request):
                raise
            missing = ServiceError(_("There is no such tournament."), code="no_tournament")
            return _refused(request, tournament_id, missing)

    return answered


@require_POST
@_button
def tournament_cancel(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _visible(request, tournament_id)
    staff = request.user.has_perm("tournaments.change_tournament")
    try:
        called_off = tournament_call_off(
            tournament_id=tournament.pk, player=request_player(request), staff=staff
        )
    except ServiceError as error:
        return _refused(request, tournament.pk, error)
    if not called_off:
        over = ServiceError(_("This tournament is over already."), code="over")
        return _refused(request, tournament.pk, over, note=True)
    done = _("The tournament is called off; every entry fee is back.")
    return _done(request, tournament.pk, done)


def _act(
    request: HttpRequest, tournament_id: int, action: Callable[[Player], object], done: str
) -> HttpResponse:
    """Run one entry service for the viewer and say how it went; a falsy answer means the
    viewer was not in the event."""
    tournament = _visible(request, tournament_id)
    player = request_player(request)
    if player is None:
        visitor = ServiceError(_("Play as a guest or log in first."), code="no_player")
        return _refused(request, tournament.pk, visitor, note=True)
    try:
        changed = action(player)
    except ServiceError as error:
        return _refused(request, tournament.pk, error)
    if not changed:
        absent = ServiceError(_("You are not in this tournament."), code="not_entered")
        return _refused(request, tournament.pk, absent, note=True)
    return _done(request, tournament.pk, done)


@require_POST
@_button
def tournament_join(request: HttpRequest, tournament_id: int) -> HttpResponse:
    form = JoinForm(request.POST)
    if not form.is_valid():
        _visible(request, tournament_id)
        wrong = ServiceError(_("Wrong tournament password."), code="wrong_password")
        return _refused(request, tournament_id, wrong)
    password = form.cleaned_data["password"]
    return _act(
        request,
        tournament_id,
        lambda p: entries.tournament_join(player=p, tournament_id=tournament_id, password=password),
        _("You are in the tournament."),
    )


@require_POST
@_button
def tournament_leave(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _act(
        request,
        tournament_id,
        lambda p: entries.tournament_leave(player=p, tournament_id=tournament_id),
        _("You left the tournament."),
    )


@require_POST
@_button
def tournament_pause(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _act(
        request,
        tournament_id,
        lambda p: entries.tournament_pause(player=p, tournament_id=tournament_id, paused=True),
        _("Paused: you will not be paired until you resume."),
    )


@require_POST
@_button
def tournament_resume(request: HttpRequest, tournament_id: int) -> HttpResponse:
    return _act(
        request,
        tournament_id,
        lambda p: entries.tournament_pause(player=p, tournament_id=tournament_id, paused=False),
        _("Welcome back: you will be paired as soon as an opponent is free."),
    )
