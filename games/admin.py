import json

from django.contrib import admin, messages
from django.urls import reverse
from django.utils.html import format_html

from . import history
from .models import Invitation, Match, MatchEvent, MatchReview, Seat, Table
from .rules import get_game
from .services.matches import match_cancel


class SeatInline(admin.TabularInline):
    model = Seat
    fields = readonly_fields = (
        "position",
        "player",
        "active",
        "forfeited",
        "is_bot",
        "bank_deadline",
        "timeouts_in_row",
    )
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = [
        "pk",
        "game",
        "status",
        "stake",
        "speed",
        "visibility",
        "creator",
        "seats_total",
        "created_at",
        "started_at",
    ]
    list_filter = ["status", "game", "speed", "visibility", "stake", "created_at"]
    search_fields = ["=id", "creator__name", "seats__player__name"]
    list_select_related = ["creator"]
    readonly_fields = ["password_hash", "created_at", "last_activity_at", "started_at", "ended_at"]
    # The server's secret for the deal stays secret until the match ends (games/entropy.py).
    exclude = ["entropy_secret", "reveal_asked_at"]
    raw_id_fields = ["creator", "rematch_of"]
    date_hierarchy = "created_at"
    inlines = [SeatInline]


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    """Seats are read-only here: who holds a seat changes only through the table and match
    services, which tell every open socket at the table what it may now see."""

    list_display = ["table", "position", "player", "active", "forfeited", "is_bot", "joined_at"]
    list_filter = ["active", "forfeited", "is_bot", "table__game"]
    search_fields = ["player__name", "=table__id"]
    list_select_related = ["table", "player"]
    exclude = ["entropy_revealed"]  # kept to the match's record, shown once it ends

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    list_display = ["table", "player", "invited_by", "created_at"]
    search_fields = ["player__name", "invited_by__name", "=table__id"]
    list_select_related = ["table", "player", "invited_by"]
    raw_id_fields = ["table", "player", "invited_by"]


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["pk", "game", "table", "status", "version", "started_at", "ended_at"]
    list_filter = ["status", "game", "started_at"]
    search_fields = ["=id", "=table__id", "table__seats__player__name"]
    list_select_related = ["table"]
    # The state and the seed are the match's truth: an admin reads them, never edits them, and
    # while the match runs sees only what a spectator sees (no hidden card, no seed).
    readonly_fields = [
        "table",
        "game",
        "options",
        "speed",
        "seed_hash",
        "page",
        "verification",
        "state_shown",
        "version",
        "status",
        "result",
        "turn_deadline",
        "turn_on_bank",
        "started_at",
        "ended_at",
    ]
    exclude = ["seed", "state", "entropy"]
    date_hierarchy = "started_at"
    actions = ["cancel_and_refund"]

    @admin.display(description="state")
    def state_shown(self, match: Match) -> str:
        if match.status == Match.Status.PLAYING:
            shown = get_game(match.game).from_dict(match.state).view(None)
        else:
            shown = match.state  # over: the seed is public now and every card may be shown
        return json.dumps(shown, indent=1, sort_keys=True)

    @admin.display(description="match page")
    def page(self, match: Match) -> str:
        if not history.is_over(match):
            return format_html(
                '<a href="{}">table (spectator view)</a>', f"/tables/{match.table_id}/"
            )
        url = reverse("match", args=[match.pk])
        return format_html('<a href="{}">replay and result</a>', url)

    @admin.display(description="replay check")
    def verification(self, match: Match) -> str:
        """What ``verify_match`` says, once the seed is public (the log replayed, the result
        re-derived)."""
        if not history.is_over(match):
            return "after the end"
        return "; ".join(history.verify_stored(match)[1]) or "OK"

    def has_add_permission(self, request) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

    @admin.action(description="Cancel match and refund stakes", permissions=["change"])
    def cancel_and_refund(self, request, queryset) -> None:
        """One service call per match; a match that is not running is left alone."""
        cancelled = [
            match.pk
            for match in queryset
            if match_cancel(match_id=match.pk, reason=f"admin {request.user}")
        ]
        skipped = queryset.count() - len(cancelled)
        if cancelled:
            self.message_user(
                request, f"Cancelled {len(cancelled)} match(es); every stake was refunded."
            )
        if skipped:
            self.message_user(
                request,
                f"{skipped} match(es) were not running and were left alone.",
                messages.WARNING,
            )


@admin.register(MatchEvent)
class MatchEventAdmin(admin.ModelAdmin):
    list_display = ["match", "version", "seat", "kind", "client_action_id", "created_at"]
    list_filter = ["kind"]
    search_fields = ["=match__id"]
    list_select_related = ["match"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(MatchReview)
class MatchReviewAdmin(admin.ModelAdmin):
    """Reviews are made by the worker, never by hand; deleting one lets it be asked for again
    (say, after ``REVIEW_WORLDS`` changed), outside the player's daily count once a day passed."""

    list_display = ["match", "seat", "requested_by", "status", "worlds", "seconds", "created_at"]
    list_filter = ["status"]
    search_fields = ["=match__id", "requested_by__name"]
    list_select_related = ["match", "requested_by"]
    readonly_fields = ["summary_text"]
    exclude = ["decisions", "summary"]

    @admin.display(description="summary")
    def summary_text(self, obj: MatchReview) -> str:
        return json.dumps(obj.summary)

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
