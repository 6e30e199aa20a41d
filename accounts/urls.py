from django.urls import path

from . import views

urlpatterns = [
    path("guest/", views.guest_start, name="guest_start"),
    path("friends/", views.friends, name="friends"),
    path("wallet/", views.wallet, name="wallet"),
    path("wallet/top-up/", views.wallet_topup, name="wallet_topup"),
    path("friends/<int:player_id>/remove/", views.friend_remove, name="friend_remove"),
] + [
    path(
        f"friends/requests/<int:request_id>/{action}/",
        views.friend_request_action,
        {"action": action},
        name=f"friend_request_{action}",
    )
    for action in ("accept", "decline", "cancel")
]
