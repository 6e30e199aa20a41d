"""The block list's buttons (on the friends page). Writes go through ``social.services``."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.middleware import request_player
from accounts.models import Player
from accounts.names import echoed_name
from core.errors import ServiceError
from games.models import Match

from . import selectors
from .services import blocks


@require_POST
def block(request: HttpRequest) -> HttpResponse:
    """Block by name (the friends page's form) or by id (a button beside a friend)."""
    player = request_player(request)
    if player is None:
        return redirect("friends")
    name = request.POST.get("name", "").strip()[:150]
    raw_id = request.POST.get("player", "")
    target = (
        Player.objects.filter(pk=int(raw_id)).first()
        if raw_id.isdigit()
        else Player.objects.filter(name__iexact=name, user__isnull=False).first()
    )
    if target is None:
        messages.error(
            request, _("There is no player called “%(name)s”.") % {"name": echoed_name(name)}
        )
        return redirect("friends")
    try:
        blocks.block_player(blocker=player, blocked_id=target.pk)
    except ServiceError as error:
        messages.error(request, str(error))
    else:
        messages.success(
            request,
            _("You blocked %(name)s: they cannot reach you, sit at your tables or talk to you.")
            % {"name": target.display_name},
        )
    return redirect("friends")


@require_POST
def unblock(request: HttpRequest, player_id: int) -> HttpResponse:
    player = request_player(request)
    if player is None:
        return redirect("friends")
    try:
        blocks.unblock_player(blocker=player, blocked_id=player_id)
    except ServiceError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("Unblocked."))
    return redirect("friends")


def match_chat_panel(request: HttpRequest, match: Match, seats: list) -> str:
    """What was said at the table, on a finished match's page (``MATCH_PAGE_PANELS``)."""
    lines = selectors.match_chat(match=match, viewer=request_player(request))
    return render_to_string("social/_match_chat.html", {"chat_lines": lines}, request)
