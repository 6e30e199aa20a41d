import uuid
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm
from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse

from core.errors import ServiceError

from . import services
from .models import CoinAccount, CoinTransaction, FriendRequest, Friendship, LedgerEntry, Player
from .validators import validate_player_name


class NamedUserCreationForm(AdminUserCreationForm):
    """A user the admin adds gets a name under the players' name rule (it becomes their name)."""

    def clean_username(self) -> str:
        username = super().clean_username()
        validate_player_name(username)
        return username


class NamedUserChangeForm(UserChangeForm):
    """Renaming a user follows the rule; an existing name saved unchanged is kept."""

    def clean_username(self) -> str:
        username = self.cleaned_data["username"]
        if username != self.initial.get("username"):
            validate_player_name(username)
        return username


admin.site.unregister(get_user_model())


@admin.register(get_user_model())
class NamedUserAdmin(UserAdmin):
    """Switching an account off goes through ``services.user_deactivate``, whichever way the
    admin does it (the "active" box, the action): the player's seat and sockets go with it."""

    add_form = NamedUserCreationForm
    form = NamedUserChangeForm
    actions = ["deactivate"]

    def save_model(self, request: HttpRequest, obj: User, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        if change and "is_active" in form.changed_data and not obj.is_active:
            services.user_deactivate(user=obj)

    @admin.action(description="Deactivate the selected accounts (seats given up, sockets closed)")
    def deactivate(self, request: HttpRequest, queryset: QuerySet[User]) -> None:
        users = list(queryset.filter(is_active=True))
        for user in users:
            services.user_deactivate(user=user)
        self.message_user(request, f"Deactivated {len(users)} account(s).", messages.SUCCESS)


class KindFilter(admin.SimpleListFilter):
    """Registered people, guests, and the computers' identities (no user either, but no guest:
    ``games.ComputerPlayer``, reached by its reverse name so accounts imports nothing of games)."""

    title = "kind"
    parameter_name = "kind"

    def lookups(self, request: HttpRequest, model_admin: admin.ModelAdmin) -> list[tuple]:
        return [("registered", "Registered"), ("guest", "Guest"), ("computer", "Computer")]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        if self.value() == "guest":
            return queryset.filter(user__isnull=True, computer__isnull=True)
        if self.value() == "registered":
            return queryset.filter(user__isnull=False)
        if self.value() == "computer":
            return queryset.filter(computer__isnull=False)
        return queryset


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "kind", "user", "user_email", "created_at"]
    list_filter = [KindFilter, "created_at"]
    search_fields = ["name", "user__username", "user__email"]
    readonly_fields = ["created_at"]
    raw_id_fields = ["user"]
    list_select_related = ["user", "computer"]
    date_hierarchy = "created_at"

    @admin.display(description="kind")
    def kind(self, player: Player) -> str:
        if not player.is_guest:
            return "registered"
        return "computer" if player.is_computer else "guest"

    @admin.display(description="email", ordering="user__email")
    def user_email(self, player: Player) -> str:
        return player.user.email if player.user else ""


@admin.register(FriendRequest)
class FriendRequestAdmin(admin.ModelAdmin):
    list_display = ["from_player", "to_player", "status", "created_at", "responded_at"]
    list_filter = ["status", "created_at"]
    search_fields = ["from_player__name", "to_player__name"]
    raw_id_fields = ["from_player", "to_player"]
    list_select_related = ["from_player", "to_player"]
    date_hierarchy = "created_at"


@admin.register(Friendship)
class FriendshipAdmin(admin.ModelAdmin):
    list_display = ["player", "friend", "created_at"]
    list_filter = ["created_at"]
    search_fields = ["player__name", "friend__name"]
    raw_id_fields = ["player", "friend"]
    list_select_related = ["player", "friend"]


class ReadOnlyAdmin(admin.ModelAdmin):
    """Ledger data is never edited by hand: coins move only through the wallet services."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


class AdjustForm(forms.Form):
    amount = forms.IntegerField(
        help_text="Positive to grant, negative to deduct.",
        min_value=-1_000_000,
        max_value=1_000_000,
    )
    reason = forms.CharField(max_length=300, help_text="Kept in the ledger for everyone to see.")
    key = forms.CharField(widget=forms.HiddenInput)

    def clean_amount(self) -> int:
        amount = self.cleaned_data["amount"]
        if amount == 0:
            raise forms.ValidationError("The amount must not be zero.")
        return amount


@admin.register(CoinAccount)
class CoinAccountAdmin(ReadOnlyAdmin):
    list_display = ["__str__", "kind", "player", "match_id", "balance", "created_at"]
    list_filter = ["kind", "created_at"]
    search_fields = ["player__name", "player__user__email", "=match_id"]
    list_select_related = ["player"]
    actions = ["grant_or_deduct"]

    @admin.action(description="Grant or deduct coins (with a reason)")
    def grant_or_deduct(self, request: HttpRequest, queryset: QuerySet) -> HttpResponse | None:
        wallets = list(queryset.filter(kind=CoinAccount.Kind.WALLET).select_related("player"))
        if not wallets:
            self.message_user(request, "Choose at least one player wallet.", messages.ERROR)
            return None
        if "apply" in request.POST:
            form = AdjustForm(request.POST)
            if form.is_valid():
                done = 0
                for wallet in wallets:
                    try:
                        services.wallet_admin_adjust(
                            wallet=wallet,
                            amount=form.cleaned_data["amount"],
                            reason=form.cleaned_data["reason"],
                            admin=request.user if isinstance(request.user, User) else None,
                            key=f"admin:{form.cleaned_data['key']}:{wallet.pk}",
                        )
                        done += 1
                    except ServiceError as error:
                        self.message_user(request, f"{wallet}: {error}", messages.ERROR)
                if done:
                    self.message_user(request, f"Adjusted {done} wallet(s).", messages.SUCCESS)
                return None
        else:
            form = AdjustForm(initial={"key": uuid.uuid4().hex})
        context = {
            **self.admin_site.each_context(request),
            "title": "Grant or deduct Domino Coin",
            "wallets": wallets,
            "form": form,
            "opts": self.model._meta,
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        }
        return TemplateResponse(request, "admin/accounts/coin_adjust.html", context)


class LedgerEntryInline(admin.TabularInline):
    model = LedgerEntry
    fields = readonly_fields = ("account", "amount")
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(CoinTransaction)
class CoinTransactionAdmin(ReadOnlyAdmin):
    list_display = ["key", "kind", "match_id", "reason", "created_by", "created_at"]
    list_filter = ["kind", "created_at"]
    search_fields = ["key", "reason", "=match_id", "entries__account__player__name"]
    list_select_related = ["created_by"]
    date_hierarchy = "created_at"
    inlines = [LedgerEntryInline]


@admin.register(LedgerEntry)
class LedgerEntryAdmin(ReadOnlyAdmin):
    list_display = ["pk", "account", "amount", "transaction_kind", "transaction", "created"]
    list_filter = ["transaction__kind", "account__kind"]
    search_fields = ["account__player__name", "transaction__key", "=transaction__match_id"]
    list_select_related = ["account__player", "transaction"]

    @admin.display(description="kind", ordering="transaction__kind")
    def transaction_kind(self, entry: LedgerEntry) -> str:
        return entry.transaction.get_kind_display()

    @admin.display(description="when", ordering="transaction__created_at")
    def created(self, entry: LedgerEntry) -> object:
        return entry.transaction.created_at
