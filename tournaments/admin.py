"""Tournaments in the admin: events are made through the same service as everywhere
(``tournaments.services.creation``), so the admin's form refuses what a player's would; entrants,
tables and results are read-only (they change only by playing); a cancel refunds every fee."""

from __future__ import annotations

from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest

from core.errors import ServiceError

from .models import Entrant, Schedule, Tournament, TournamentResult
from .services.creation import schedule_template_check, tournament_create
from .services.running import tournament_cancel

TERMS = (
    "name",
    "game",
    "speed",
    "format",
    "rated",
    "starts_at",
    "duration_minutes",
    "rounds",
    "entry_fee",
    "prize_shares",
    "options",
    "access",
    "max_players",
)


class TournamentForm(forms.ModelForm):
    password = forms.CharField(
        required=False, widget=forms.PasswordInput, help_text="Password events only."
    )

    class Meta:
        model = Tournament
        fields = TERMS

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.errors or self.instance.pk:
            return data
        try:
            given: dict[str, Any] = {name: data.get(name) for name in TERMS}
            self.created = tournament_create(**given, password=data.get("password") or "")
        except ServiceError as error:
            raise ValidationError(str(error)) from None
        return data


class EntrantInline(admin.TabularInline):
    model = Entrant
    extra = 0
    can_delete = False
    fields = readonly_fields = (
        "player",
        "score",
        "on_fire",
        "paused",
        "withdrawn",
        "rank",
        "prize",
    )

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    form = TournamentForm
    list_display = ["name", "game", "format", "speed", "status", "starts_at", "entry_fee"]
    list_filter = ["status", "format", "game"]
    search_fields = ["name"]
    inlines = [EntrantInline]
    actions = ["cancel"]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        # Once made, an event changes only by running (or its cancel): its terms were entered on.
        return [field.name for field in Tournament._meta.fields] if obj else []

    def save_model(self, request: HttpRequest, obj: Tournament, form: Any, change: bool) -> None:
        if not change:  # the service made it in the form's clean
            obj.pk = form.created.pk
            obj.refresh_from_db()

    @admin.action(description="Cancel these tournaments (every entry fee back)")
    def cancel(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        done = sum(
            tournament_cancel(tournament_id=pk) for pk in queryset.values_list("pk", flat=True)
        )
        self.message_user(request, f"Cancelled {done} tournament(s).", messages.SUCCESS)


class ScheduleForm(forms.ModelForm):
    class Meta:
        model = Schedule
        fields = ["name", "every", "weekday", "time_of_day", "time_zone", "template", "active"]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        try:
            schedule_template_check(data.get("template"))
        except ServiceError as error:
            raise ValidationError(str(error)) from None
        if data.get("every") == Schedule.Every.WEEK and data.get("weekday") not in range(7):
            raise ValidationError("A weekly schedule needs its weekday, 0 (Monday) to 6.")
        try:
            ZoneInfo(data.get("time_zone") or "")
        except (ValueError, ZoneInfoNotFoundError):
            raise ValidationError("Unknown time zone (e.g. Asia/Tbilisi).") from None
        return data


@admin.register(Schedule)
class ScheduleAdmin(admin.ModelAdmin):
    form = ScheduleForm
    list_display = ["name", "every", "weekday", "time_of_day", "time_zone", "active"]


@admin.register(TournamentResult)
class TournamentResultAdmin(admin.ModelAdmin):
    list_display = ["tournament", "player", "round_number", "place", "points", "doubled"]
    list_filter = ["tournament"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
