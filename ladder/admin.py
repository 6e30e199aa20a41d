"""Ratings and rating changes are read-only here: they change only through the ladder's services,
which the two actions call (recompute a player's ratings; void the matches of some changes).
Seasons and their standings are read-only too: only the beat's close writes them."""

from __future__ import annotations

from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse

from core.errors import ServiceError

from . import services
from .models import MatchVoid, Rating, RatingChange, Season, SeasonStanding


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Rating)
class RatingAdmin(ReadOnlyAdmin):
    list_display = ["player", "game", "display", "matches", "wins", "last_played_at", "mu", "sigma"]
    list_filter = ["game"]
    search_fields = ["player__name"]
    list_select_related = ["player"]
    actions = ["recompute"]

    @admin.action(description="Recompute these players’ ratings from their matches")
    def recompute(self, request: HttpRequest, queryset: QuerySet[Rating]) -> None:
        players = sorted(set(queryset.values_list("player_id", flat=True)))
        rewritten = sum(services.player_ratings_recompute(player_id=pk) for pk in players)
        self.message_user(
            request,
            f"Recomputed {len(players)} player(s); {rewritten} rating change(s) rewritten.",
            messages.SUCCESS,
        )


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyAdmin):
    list_display = ["match", "player", "game", "place", "before", "after", "delta", "voided"]
    list_filter = ["game", "created_at"]
    search_fields = ["player__name", "=match__id"]
    list_select_related = ["match", "player", "match__ladder_void"]
    actions = ["void_matches"]

    @admin.display(boolean=True)
    def voided(self, change: RatingChange) -> bool:
        return hasattr(change.match, "ladder_void")

    @admin.action(description="Void the matches of these changes…")
    def void_matches(
        self, request: HttpRequest, queryset: QuerySet[RatingChange]
    ) -> HttpResponse | None:
        """First a page that asks why; then each match is voided through the service."""
        match_ids = sorted(set(queryset.values_list("match_id", flat=True)))
        reason = request.POST.get("reason", "").strip()
        if request.POST.get("confirm") != "yes" or not reason:
            context = {
                **self.admin_site.each_context(request),
                "title": "Void matches",
                "opts": self.model._meta,
                "match_ids": match_ids,
                "selected": request.POST.getlist(helpers.ACTION_CHECKBOX_NAME),
                "missing_reason": request.POST.get("confirm") == "yes",
            }
            return TemplateResponse(request, "ladder/admin/void_matches.html", context)
        for match_id in match_ids:
            try:
                services.match_void(
                    match_id=match_id,
                    reason=reason,
                    voided_by=request.user if isinstance(request.user, User) else None,
                )
            except ServiceError as error:
                self.message_user(request, f"Match #{match_id}: {error}", messages.ERROR)
            else:
                self.message_user(
                    request, f"Match #{match_id} voided; its players recomputed.", messages.SUCCESS
                )
        return None


@admin.register(MatchVoid)
class MatchVoidAdmin(ReadOnlyAdmin):
    list_display = ["match", "reason", "voided_by", "created_at"]
    search_fields = ["=match__id", "reason"]
    list_select_related = ["match", "voided_by"]


@admin.register(Season)
class SeasonAdmin(ReadOnlyAdmin):
    list_display = ["game", "number", "starts_at", "ends_at", "closed_at"]
    list_filter = ["game"]


@admin.register(SeasonStanding)
class SeasonStandingAdmin(ReadOnlyAdmin):
    list_display = ["season", "rank", "player", "display", "matches", "wins", "badge"]
    list_filter = ["season__game", "badge"]
    search_fields = ["player__name"]
    list_select_related = ["season", "player"]
