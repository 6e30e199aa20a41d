from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from django import forms
from django.http import HttpRequest

from .services import GUEST_PREFIX, player_for_user


class AccountAdapter(DefaultAccountAdapter):
    """Ties allauth's sign-up to our Player: a guest who signs up keeps their player."""

    def clean_username(self, username: str, shallow: bool = False) -> str:
        username = super().clean_username(username, shallow=shallow)
        if username.lower().startswith(GUEST_PREFIX.lower()):
            raise forms.ValidationError(
                f"Usernames starting with “{GUEST_PREFIX}” are kept for guests."
            )
        return username

    def save_user(self, request: HttpRequest, user: Any, form: Any, commit: bool = True) -> Any:
        user = super().save_user(request, user, form, commit=commit)
        if commit:
            player_for_user(user=user, session=request.session)
        return user
