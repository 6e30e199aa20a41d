"""The ladder's pages: every game's top players, a game's leaderboard and its past seasons, a
player's profile, and a match's rating changes for the table page. Reads only; they go through
the selectors."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from accounts import selectors as accounts_selectors
from accounts import services as accounts_services
from accounts.middleware import request_player
from accounts.models import Player
from games import access
from games.catalog import GAME_TITLES
from games.models import Match
from social import selectors as social_selectors

from . import chart, hooks, season_selectors, selectors

SEARCH_MAX_LENGTH = 150


@require_GET
def ladder(request: HttpRequest) -> HttpResponse:
    now = timezone.now()
    player = request_player(request)
    tops = selectors.ladder_tops(now=now)
    mine = {}
    if player is not None and not player.is_guest:
        mine = {s.game: s for s in selectors.standings(player=player, now=now)}
    games = [
        {"key": key, "title": title, "top": tops[key], "mine": mine.get(key)}
        for key, title in GAME_TITLES.items()
    ]
    return render(request, "ladder/ladder.html", {"games": games, **_rules()})


@require_GET
def leaderboard(request: HttpRequest, game: str) -> HttpResponse:
    if game not in GAME_TITLES:
        raise Http404("No such game.")
    now = timezone.now()
    search = request.GET.get("q", "").strip()[:SEARCH_MAX_LENGTH]
    ratings = selectors.leaderboard(game=game, now=now, search=search)
    page = Paginator(ratings, settings.LADDER_PAGE_SIZE).get_page(request.GET.get("page"))
    player = request_player(request)
    mine = None
    if player is not None and not player.is_guest:
        mine = selectors.standing(player=player, game=game, now=now)
    context = {
        "game": game,
        "game_title": GAME_TITLES[game],
        "page": page,
        "search": search,
        "mine": mine,
        "season": season_selectors.current_season(game=game),
        "past_seasons": season_selectors.past_seasons(game=game),
        **_rules(),
    }
    return render(request, "ladder/leaderboard.html", context)


@require_GET
def season(request: HttpRequest, game: str, number: int) -> HttpResponse:
    """A season's final standings; a season still running says when it ends."""
    if game not in GAME_TITLES:
        raise Http404("No such game.")
    shown = season_selectors.season(game=game, number=number)
    if shown is None:
        raise Http404("No such season.")
    page = None
    if shown.closed:
        standings = season_selectors.season_standings(season=shown)
        page = Paginator(standings, settings.LADDER_PAGE_SIZE).get_page(request.GET.get("page"))
    context = {
        "game": game,
        "game_title": GAME_TITLES[game],
        "shown_season": shown,
        "page": page,
        "past_seasons": season_selectors.past_seasons(game=game),
        **_rules(),
    }
    return render(request, "ladder/season.html", context)


def _rules() -> dict[str, int]:
    return {
        "provisional_matches": settings.LADDER_PROVISIONAL_MATCHES,
        "active_days": settings.LADDER_ACTIVE_DAYS,
        "season_months": settings.LADDER_SEASON_MONTHS,
        "season_badges": settings.LADDER_SEASON_BADGES,
    }


@require_GET
def profile(request: HttpRequest, name: str) -> HttpResponse:
    now = timezone.now()
    shown = get_object_or_404(Player.objects.select_related("user"), name__iexact=name)
    viewer = request_player(request)
    is_self = viewer is not None and viewer.pk == shown.pk
    if shown.is_guest and not is_self and not _guest_session_may_live(shown, now):
        raise Http404("No such player.")
    games = []
    if not shown.is_guest:
        for standing in selectors.standings(player=shown, now=now):
            history = selectors.rating_history(player=shown, game=standing.game)
            games.append(
                {
                    "standing": standing,
                    "chart": chart.history_chart(
                        [change.after for change in history],
                        [_point_label(change.match.ended_at, change.after) for change in history],
                    ),
                }
            )
    context = {
        "shown": shown,
        "friend_count": accounts_selectors.friends_of(shown).count(),
        "is_self": is_self,
        "is_friend": viewer is not None and accounts_services.are_friends(viewer, shown),
        "can_befriend": viewer is not None and not viewer.is_guest and not shown.is_guest,
        "games": games,
        "badges": [] if shown.is_guest else season_selectors.season_badges(player=shown),
        "record": selectors.player_record(player=shown),
        "speed_records": selectors.speed_records(player=shown),
        "favourite_pools": selectors.favourite_pools(player=shown),
        "reputation": social_selectors.reputation(shown),
        "reputation_days": settings.REPUTATION_WINDOW_DAYS,
        "blocked_by_viewer": bool(viewer and social_selectors.blocked_among(viewer, [shown.pk])),
        "recent": selectors.recent_matches(player=shown, viewer=viewer),
        **_rules(),
        **hooks.profile_page_context(shown, viewer),  # tournaments: their events and trophies
    }
    return render(request, "ladder/profile.html", context)


def _guest_session_may_live(guest: Player, now: datetime) -> bool:
    """A guest's profile lives as long as their session can: a session lasts SESSION_COOKIE_AGE
    from its last use, and a guest who has not been seen for that long has none left."""
    last = max(filter(None, [guest.last_seen_at, guest.created_at]))
    return last >= now - timedelta(seconds=settings.SESSION_COOKIE_AGE)


def _point_label(ended_at: datetime | None, value: int) -> str:
    when = date_format(timezone.localtime(ended_at), "j M Y") if ended_at else ""
    return _("%(date)s: %(rating)s") % {"date": when, "rating": value}


@require_GET
def match_ratings(request: HttpRequest, match_id: int) -> JsonResponse:
    """What a match did to ratings, for a table page opened after the ``rating`` message."""
    match = get_object_or_404(Match.objects.select_related("table"), pk=match_id)
    if not access.may_see(request_player(request), match.table):
        raise Http404("No such match.")
    return JsonResponse(selectors.match_ratings(match=match))


def match_panel(request: HttpRequest, match: Match, seats: list) -> str:
    """The rating changes on a match's page (``MATCH_PAGE_PANELS``): games never imports the
    ladder, so the page asks for this section by name."""
    return render_to_string(
        "ladder/_match_ratings.html", {"ratings": selectors.match_ratings(match=match)}, request
    )
