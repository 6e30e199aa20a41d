"""The tournament pages' input: the list's game filter and the join form's password."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy

from games.catalog import game_choices


class ListFilterForm(forms.Form):
    game = forms.ChoiceField(required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        game = self.fields["game"]
        assert isinstance(game, forms.ChoiceField)
        game.choices = [("", gettext_lazy("All games")), *game_choices()]


def chosen_game(params: Any) -> str | None:
    """The list's game from a query string; a value that is no game is ignored and the whole
    list shown, as the lobby does with a bad link (an old bookmark, a game renamed)."""
    form = ListFilterForm(params)
    if not form.is_valid():
        return None
    return form.cleaned_data["game"] or None


class JoinForm(forms.Form):
    password = forms.CharField(
        required=False,
        max_length=128,
        strip=False,
        label=gettext_lazy("Password"),
        widget=forms.PasswordInput(attrs={"autocomplete": "off"}),
    )
