from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from .models import FriendRequest, Friendship, Player


class KindFilter(admin.SimpleListFilter):
    title = "kind"
    parameter_name = "kind"

    def lookups(self, request: HttpRequest, model_admin: admin.ModelAdmin) -> list[tuple]:
        return [("registered", "Registered"), ("guest", "Guest")]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        if self.value() == "guest":
            return queryset.filter(user__isnull=True)
        if self.value() == "registered":
            return queryset.filter(user__isnull=False)
        return queryset


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "kind", "user", "user_email", "created_at"]
    list_filter = [KindFilter, "created_at"]
    search_fields = ["name", "user__username", "user__email"]
    readonly_fields = ["created_at"]
    raw_id_fields = ["user"]
    list_select_related = ["user"]
    date_hierarchy = "created_at"

    @admin.display(description="kind")
    def kind(self, player: Player) -> str:
        return "guest" if player.is_guest else "registered"

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
