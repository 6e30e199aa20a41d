"""Players made the way the site makes them, and a browser logged in as one."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.test import Client

from accounts import services
from accounts.models import Player


def make_player(
    name: str, *, email: str | None = None, password: str = "correct-horse-9"
) -> Player:
    """A registered player, made the way sign-up makes one."""
    user = get_user_model().objects.create_user(
        username=name, email=email or f"{name}@example.com", password=password
    )
    return services.player_for_user(user=user)


def client_for(player: Player) -> Client:
    client = Client()
    client.force_login(player.user)
    return client


def untick_active_in_the_user_admin(admin: Client, player: Player) -> None:
    """What a moderator does in the user admin: the change form saved with "Active" unticked."""
    user = player.user
    joined = user.date_joined
    answer = admin.post(
        f"/admin/auth/user/{user.pk}/change/",
        {
            "username": user.username,
            "email": user.email,
            "date_joined_0": joined.strftime("%Y-%m-%d"),
            "date_joined_1": joined.strftime("%H:%M:%S"),
        },
    )
    assert answer.status_code == 302, answer.content.decode()[:2000]
