"""Pages for players: the home page, guests and friends. Writes go through services."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_GET, require_POST

from core.errors import ServiceError

from . import hooks, selectors, services
from .forms import FriendRequestForm
from .middleware import request_player


def _safe_next(request: HttpRequest, fallback: str) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure()):
        return target
    return fallback


@require_POST
def guest_start(request: HttpRequest) -> HttpResponse:
    """Play without an account: a guest player bound to this browser's session."""
    player = request_player(request)
    if player:
        messages.info(
            request, _("You are already playing as %(name)s.") % {"name": player.display_name}
        )
    else:
        player = services.player_create_guest(session=request.session)
        messages.success(
            request,
            _("Welcome, %(name)s! You can play at free tables.") % {"name": player.display_name},
        )
    return redirect(_safe_next(request, reverse("home")))


def friends(request: HttpRequest) -> HttpResponse:
    player = request_player(request)
    if player is None or player.is_guest:
        return render(request, "accounts/friends_signup.html", status=200)
    form = FriendRequestForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            sent = services.friend_request_send(
                sender=player, username=form.cleaned_data["username"]
            )
        except ServiceError as error:
            form.add_error("username", str(error))
        else:
            if sent.status == sent.Status.ACCEPTED:
                messages.success(
                    request,
                    _("You and %(name)s are now friends.") % {"name": sent.from_player.name},
                )
            else:
                messages.success(
                    request, _("Friend request sent to %(name)s.") % {"name": sent.to_player.name}
                )
            return redirect("friends")
    context = {
        "form": form,
        "friends": selectors.friends_of(player),
        "incoming": selectors.incoming_requests(player),
        "outgoing": selectors.outgoing_requests(player),
        **hooks.friends_page_context(player),  # social: the block list
    }
    return render(request, "accounts/friends.html", context, status=400 if form.errors else 200)


_REQUEST_ACTIONS = {
    "accept": (services.friend_request_accept, gettext_lazy("You are now friends with %(other)s.")),
    "decline": (services.friend_request_decline, gettext_lazy("You declined %(other)s’s request.")),
    "cancel": (
        services.friend_request_cancel,
        gettext_lazy("Your request to %(other)s is withdrawn."),
    ),
}


@require_POST
def friend_request_action(request: HttpRequest, request_id: int, action: str) -> HttpResponse:
    player = request_player(request)
    if player is None:
        return redirect("account_login")
    service, done = _REQUEST_ACTIONS[action]
    try:
        friend_request = service(player=player, request_id=request_id)
    except ServiceError as error:
        messages.error(request, str(error))
    else:
        other = (
            friend_request.to_player
            if friend_request.from_player_id == player.pk
            else friend_request.from_player
        )
        messages.success(request, done % {"other": other.name})
    return redirect("friends")


@require_POST
def friend_remove(request: HttpRequest, player_id: int) -> HttpResponse:
    player = request_player(request)
    if player is None:
        return redirect("account_login")
    try:
        services.friend_remove(player=player, friend_id=player_id)
    except ServiceError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("Removed from your friends."))
    return redirect("friends")


@require_GET
def wallet(request: HttpRequest) -> HttpResponse:
    player = request_player(request)
    account = selectors.wallet_of(player) if player else None
    if account is None:
        return render(request, "accounts/wallet_none.html")
    page = Paginator(selectors.wallet_history(account), 25).get_page(request.GET.get("page"))
    context = {
        "wallet": account,
        "page": page,
        "can_claim": services.can_claim_daily(wallet=account, today=timezone.now().date()),
        "topup_amount": settings.COIN_DAILY_TOPUP_AMOUNT,
        "topup_below": settings.COIN_DAILY_TOPUP_BELOW,
    }
    return render(request, "accounts/wallet.html", context)


@require_POST
def wallet_topup(request: HttpRequest) -> HttpResponse:
    player = request_player(request)
    if player is None:
        return redirect("account_login")
    try:
        services.wallet_claim_daily(player=player, today=timezone.now().date())
    except ServiceError as error:
        messages.error(request, str(error))
    else:
        messages.success(
            request,
            ngettext(
                "%(amount)s coin added to your wallet.",
                "%(amount)s coins added to your wallet.",
                settings.COIN_DAILY_TOPUP_AMOUNT,
            )
            % {"amount": settings.COIN_DAILY_TOPUP_AMOUNT},
        )
    return redirect("wallet")
