"""Lobby and table pages. Input is parsed here and handed to one service; rules live elsewhere."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts.access import client_ip
from accounts.middleware import request_player
from accounts.models import Player
from accounts.selectors import friends_of
from core.errors import ServiceError

from . import access, hooks, selectors
from .catalog import GAME_TITLES, describe_options, pool_variants, pools
from .forms import (
    STRENGTH_CHOICES,
    ComputerForm,
    InviteForm,
    JoinForm,
    LobbyFilterForm,
    RemoveComputerForm,
    lobby_filters,
    table_form_for,
)
from .models import Table
from .services import bots, entropy, invitations, tables
from .services.clock import SPEED_SETTINGS
from .services.lobby import lobby_entry, speed_text, speed_title

# The lobby lists this many of the newest matches being played, to watch.
BEING_PLAYED_SHOWN = 8
# The hidden field a page fills with the SHA-256 of its value for the deal when it sits
# (static/js/entropy.js; services.entropy): optional, checked by the services.
ENTROPY_FIELD = "entropy_commitment"


@require_GET
def lobby_page(request: HttpRequest) -> HttpResponse:
    player = request_player(request)
    filters = LobbyFilterForm(request.GET or None)
    chosen = lobby_filters(request.GET)._asdict()
    before = chosen.pop("before")
    page = selectors.lobby_page(player, before=before, **chosen)
    more_query = ""
    if page.more:
        kept = {key: value for key, value in chosen.items() if value not in (None, "")}
        more_query = urlencode({"before": page.tables[-1].pk, **kept})
    flagged = hooks.low_completion(s.player_id for t in page.tables for s in t.seats.all())
    context = {
        "tables": [lobby_entry(table, flagged) for table in page.tables],
        "table_count": page.count,
        "more_query": more_query,
        "before": before,
        "filters": filters,
        "games": GAME_TITLES.items(),
        "friends_online": selectors.friends_online(player),
        "active_seat": selectors.active_seat(player),
        "being_played": [
            lobby_entry(table)
            for table in selectors.matches_being_played(player, limit=BEING_PLAYED_SHOWN)
        ],
        "computer_form": ComputerForm(),
        "play_now": _play_now(player),
        **hooks.lobby_page_context(player),  # social: the cool-down notice
    }
    return render(request, "games/lobby.html", context)


def _play_now(player: Player | None) -> dict[str, Any]:
    """Quick play's panel (templates/games/_play_now.html): the choices the viewer may make,
    each game's counts and rating, and the ticket they wait with. A guest, and a visitor (who
    becomes one on "Play now"), waits in free casual pools only."""
    limited = player is None or player.is_guest
    counts = selectors.pool_counts()
    ratings = selectors.player_ratings(player)
    allowed = [pool for pool in pools() if not limited or (pool.stake == 0 and not pool.rated)]
    games = []
    for key, game, seats, title in pool_variants():
        here = [
            counts[pool.id]
            for pool in allowed
            if (pool.game, pool.seats) == (game, seats) and pool.id in counts
        ]
        games.append(
            {
                "key": key,
                "game": game,
                "title": title,
                "rating": ratings.get(game),
                "waiting": sum(count["waiting"] for count in here),
                "playing": sum(count["playing"] for count in here),
            }
        )
    return {
        "limited": limited,
        "games": games,
        "speeds": [(speed, speed_title(speed)) for speed in SPEED_SETTINGS],
        "stakes": list(settings.POOL_STAKES),
        "fill_seconds": list(settings.POOL_FILL_SECONDS),
        "strengths": STRENGTH_CHOICES,
        "counts": counts,
        "ticket": selectors.pool_ticket_public(player),
        "server_now": timezone.now().isoformat(),
    }


def table_create(request: HttpRequest, game: str) -> HttpResponse:
    if game not in GAME_TITLES:
        raise Http404("No such game.")
    player = request_player(request)
    if player is None:
        messages.info(request, _("Play as a guest or log in to open a table."))
        return redirect(f"{reverse('home')}?next={request.path}")
    form_class = table_form_for(game)
    form = form_class(request.POST or None, guest=player.is_guest)
    if request.method == "POST" and form.is_valid():
        try:
            table = tables.table_create(
                creator=player,
                game=game,
                options=form.option_values(),
                stake=form.cleaned_data["stake"],
                speed=form.cleaned_data["speed"],
                visibility=form.cleaned_data["visibility"],
                password=form.cleaned_data["password"],
                rated=form.cleaned_data["rated"],
                entropy_commitment=request.POST.get(ENTROPY_FIELD, ""),
            )
        except ServiceError as error:
            form.add_error(None, str(error))
        else:
            return redirect("table", table_id=table.pk)
    context = {"form": form, "game": game, "game_title": GAME_TITLES[game]}
    status = 400 if form.errors else 200
    return render(request, "games/table_create.html", context, status=status)


@require_GET
def table_page(request: HttpRequest, table_id: int) -> HttpResponse:
    table = get_object_or_404(Table.objects.select_related("creator"), pk=table_id)
    player = request_player(request)
    if not access.may_see(player, table):
        raise Http404("No such table.")
    seats = list(table.seats.select_related("player").order_by("position"))
    my_seat = next((seat for seat in seats if player and seat.player_id == player.pk), None)
    seats_by_position = [
        next((s for s in seats if s.position == p), None) for p in range(table.seats_total)
    ]
    invitable = []
    if my_seat is not None and player and not player.is_guest and table.status == "open":
        seated = {seat.player_id for seat in seats}
        invitable = [f for f in friends_of(player) if f.pk not in seated]
    context = {
        "table": table,
        "entry": lobby_entry(table),
        "options": describe_options(table.game, table.options),
        "speed_text": speed_text(table.speed),
        "seats": seats_by_position,
        "my_seat": my_seat,
        "is_creator": player is not None and table.creator_id == player.pk,
        "invitable": invitable,
        "online_ids": {f["id"] for f in selectors.friends_online(player)},
        "join_form": JoinForm(),
        **hooks.table_page_context(player, table, seats),  # social: chat, blocks, badges
        "computer_form": ComputerForm(),
        "free_seats": any(seat is None for seat in seats_by_position),
        # The full table asks this seat for its value (services.entropy): the waiting room
        # reveals as soon as its socket is open, even if it missed the request.
        "reveal": entropy.reveal_request(table, my_seat) if my_seat else None,
    }
    return render(request, "games/table.html", context)


def _act(request: HttpRequest, action, done: str) -> bool:
    """Run one service call for the current player; report the outcome as a message."""
    player = request_player(request)
    if player is None:
        messages.info(request, _("Play as a guest or log in first."))
        return False
    try:
        action(player)
    except ServiceError as error:
        messages.error(request, str(error))
        return False
    if done:
        messages.success(request, done)
    return True


@require_POST
def table_join(request: HttpRequest, table_id: int) -> HttpResponse:
    form = JoinForm(request.POST)
    password = form.cleaned_data["password"] if form.is_valid() else ""
    address = client_ip(request)
    commitment = request.POST.get(ENTROPY_FIELD, "")
    _act(
        request,
        lambda p: tables.table_join(
            player=p,
            table_id=table_id,
            password=password,
            client_ip=address,
            entropy_commitment=commitment,
        ),
        "",
    )
    return redirect("table", table_id=table_id)


@require_POST
def table_leave(request: HttpRequest, table_id: int) -> HttpResponse:
    if _act(
        request, lambda p: tables.table_leave(player=p, table_id=table_id), _("You left the table.")
    ):
        return redirect("home")
    return redirect("table", table_id=table_id)


@require_POST
def table_cancel(request: HttpRequest, table_id: int) -> HttpResponse:
    if _act(
        request,
        lambda p: tables.table_cancel(player=p, table_id=table_id),
        _("The table is cancelled."),
    ):
        return redirect("home")
    return redirect("table", table_id=table_id)


@require_POST
def table_invite(request: HttpRequest, table_id: int) -> HttpResponse:
    form = InviteForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose a friend to invite."))
    else:
        friend_id = form.cleaned_data["friend"]
        _act(
            request,
            lambda p: invitations.table_invite(inviter=p, table_id=table_id, friend_id=friend_id),
            _("Invitation sent."),
        )
    return redirect("table", table_id=table_id)


@require_POST
def practice_start(request: HttpRequest, game: str) -> HttpResponse:
    """Play the computer at once: the table starts with computers in every other seat."""
    if game not in GAME_TITLES:
        raise Http404("No such game.")
    form = ComputerForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose the computer's strength: easy or strong."))
        return redirect("home")
    strength = form.cleaned_data["strength"]
    commitment = request.POST.get(ENTROPY_FIELD, "")
    started: list[Table] = []
    if _act(
        request,
        lambda p: started.append(
            bots.practice_start(
                player=p, game=game, strength=strength, entropy_commitment=commitment
            )
        ),
        "",
    ):
        return redirect("table", table_id=started[0].pk)
    return redirect("home")


@require_POST
def computer_add(request: HttpRequest, table_id: int) -> HttpResponse:
    form = ComputerForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose the computer's strength: easy or strong."))
    else:
        strength = form.cleaned_data["strength"]
        _act(
            request,
            lambda p: bots.seat_computer_add(player=p, table_id=table_id, strength=strength),
            "",
        )
    return redirect("table", table_id=table_id)


@require_POST
def computer_remove(request: HttpRequest, table_id: int) -> HttpResponse:
    form = RemoveComputerForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("There is no computer player in that seat."))
    else:
        position = form.cleaned_data["position"]
        _act(
            request,
            lambda p: bots.seat_computer_remove(player=p, table_id=table_id, position=position),
            "",
        )
    return redirect("table", table_id=table_id)
