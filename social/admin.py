"""Moderation in the admin: reports with the table's chat log, mutes and bans (through
``social.services.moderation``, never a bare row change), and read-only views of chat lines,
blocks, forfeits and cool-downs."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone
from django.utils.html import format_html, format_html_join

from core.errors import ServiceError

from .models import Block, ChatMessage, Cooldown, Forfeit, Report, Sanction
from .selectors import table_chat
from .services import moderation


class ReadOnlyAdmin(admin.ModelAdmin):
    """Rows the site writes itself: moderators read them."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


REPORT_FACTS = (
    "reporter",
    "reported",
    "table",
    "match",
    "message",
    "reason",
    "created_at",
    "resolved_at",
    "chat_log",
)


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    list_display = ["pk", "created_at", "status", "reporter", "reported", "table", "excerpt"]
    list_filter = ["status", "created_at"]
    search_fields = ["reporter__name", "reported__name", "=table__id", "reason"]
    list_select_related = ["reporter", "reported", "table", "message"]
    readonly_fields = REPORT_FACTS
    fields = ("status", *REPORT_FACTS)
    actions = ["mute_for_a_day", "mute_for_a_week", "ban_reported", "resolve"]

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description="Message")
    def excerpt(self, report: Report) -> str:
        return report.message.text[:60] if report.message else ""

    @admin.display(description="Chat log of the table")
    def chat_log(self, report: Report) -> str:
        """Every line said at the reported table, the reported one marked (escaped: players
        wrote it)."""
        lines = table_chat(table_id=report.table_id)
        if not lines:
            return "—"
        rows = format_html_join(
            "",
            "<tr{}><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            (
                (
                    format_html(' class="{}"', "selected")
                    if line.message_id == report.message_id
                    else "",
                    line.at.strftime("%H:%M:%S"),
                    line.name,
                    line.channel,
                    line.text,
                )
                for line in lines
            ),
        )
        return format_html('<table class="chat-log">{}</table>', rows)

    def _sanction(self, request: HttpRequest, queryset: QuerySet[Report], action: Any) -> None:
        for report in queryset.select_related("reported"):
            try:
                action(report)
            except ServiceError as error:
                self.message_user(request, f"{report.reported}: {error}", messages.ERROR)
                continue
            moderation.report_resolve(report=report)
        self.message_user(request, "Done.", messages.SUCCESS)

    def _mute(self, request: HttpRequest, queryset: QuerySet[Report], days: int) -> None:
        until = timezone.now() + timedelta(days=days)
        self._sanction(
            request,
            queryset,
            lambda report: moderation.chat_mute(
                player=report.reported,
                until=until,
                by=request.user,
                reason=report.reason,
                report=report,
            ),
        )

    @admin.action(description="Mute the reported player's chat for a day")
    def mute_for_a_day(self, request: HttpRequest, queryset: QuerySet[Report]) -> None:
        self._mute(request, queryset, 1)

    @admin.action(description="Mute the reported player's chat for a week")
    def mute_for_a_week(self, request: HttpRequest, queryset: QuerySet[Report]) -> None:
        self._mute(request, queryset, 7)

    @admin.action(description="Ban the reported player's account (their sockets close now)")
    def ban_reported(self, request: HttpRequest, queryset: QuerySet[Report]) -> None:
        self._sanction(
            request,
            queryset,
            lambda report: moderation.account_ban(
                player=report.reported, by=request.user, reason=report.reason, report=report
            ),
        )

    @admin.action(description="Mark resolved")
    def resolve(self, request: HttpRequest, queryset: QuerySet[Report]) -> None:
        for report in queryset:
            moderation.report_resolve(report=report)


class SanctionForm(forms.ModelForm):
    class Meta:
        model = Sanction
        fields = ["player", "kind", "until", "reason"]

    def clean(self) -> dict[str, Any]:
        """The service's own refusals, as form errors (the admin shows them beside the field)."""
        data = super().clean() or {}
        until, player = data.get("until"), data.get("player")
        if data.get("kind") == Sanction.Kind.MUTE and (until is None or until <= timezone.now()):
            self.add_error("until", "A mute needs a time in the future when it ends.")
        if data.get("kind") == Sanction.Kind.BAN and player is not None and player.is_guest:
            self.add_error("player", "A guest has no account to ban.")
        return data


@admin.register(Sanction)
class SanctionAdmin(admin.ModelAdmin):
    """A new sanction is applied by the moderation service (a ban closes the player's sockets
    and forfeits their seat), never saved as a bare row."""

    form = SanctionForm
    list_display = ["created_at", "kind", "player", "until", "by", "reason"]
    list_filter = ["kind", "created_at"]
    search_fields = ["player__name", "reason"]
    raw_id_fields = ["player"]
    list_select_related = ["player", "by"]

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def save_model(self, request: HttpRequest, obj: Sanction, form: Any, change: bool) -> None:
        data = form.cleaned_data
        if data["kind"] == Sanction.Kind.MUTE:
            made = moderation.chat_mute(
                player=data["player"], until=data["until"], by=request.user, reason=data["reason"]
            )
        else:
            made = moderation.account_ban(
                player=data["player"], by=request.user, reason=data["reason"]
            )
        obj.pk = made.pk


@admin.register(ChatMessage)
class ChatMessageAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "table", "sender", "channel", "phrase", "text"]
    list_filter = ["channel", "created_at"]
    search_fields = ["sender__name", "text", "=table__id"]
    list_select_related = ["table", "sender"]


@admin.register(Block)
class BlockAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "blocker", "blocked"]
    search_fields = ["blocker__name", "blocked__name"]
    list_select_related = ["blocker", "blocked"]


@admin.register(Forfeit)
class ForfeitAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "player", "match", "reason", "serious", "excused"]
    list_filter = ["reason", "serious", "excused"]
    search_fields = ["player__name"]
    list_select_related = ["player", "match"]


@admin.register(Cooldown)
class CooldownAdmin(admin.ModelAdmin):
    """A moderator may lift a cool-down (delete it); they are made by the forfeit rules."""

    list_display = ["created_at", "player", "level", "quits", "until"]
    search_fields = ["player__name"]
    list_select_related = ["player"]

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
