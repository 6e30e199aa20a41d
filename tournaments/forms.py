"""The tournament pages' input: the list's game filter, the join form's password, and the form
that makes a new event."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.utils.translation import gettext, gettext_lazy, ngettext

from games.catalog import game_choices
from games.forms import option_field
from games.models import Table
from games.rules import game_spec
from games.services.lobby import speed_text

from . import scoring
from .models import Tournament


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


# How soon a new event starts: a choice rather than a clock time, so nobody has to work out
# the server's time zone from a phone (the event's page then shows the time where the reader is).
START_CHOICES_MINUTES = (5, 10, 15, 30, 60, 120, 180, 360, 720, 1440, 2880, 10080)


def _start_label(minutes: int) -> str:
    if minutes < 60:
        return ngettext("in %(count)s minute", "in %(count)s minutes", minutes) % {"count": minutes}
    if minutes < 1440:
        hours = minutes // 60
        return ngettext("in %(count)s hour", "in %(count)s hours", hours) % {"count": hours}
    days = minutes // 1440
    return ngettext("in %(count)s day", "in %(count)s days", days) % {"count": days}


class OrganiseForm(forms.Form):
    """A new tournament: a player's private event, or (``staff``) any event of the site. The
    service checks every value again (``services/creation.py``); this form only reads them."""

    game_name: str = ""

    name = forms.CharField(label=gettext_lazy("Name"), max_length=80)
    format = forms.ChoiceField(
        label=gettext_lazy("Format"),
        choices=Tournament.Format.choices,
        initial=Tournament.Format.ARENA,
        widget=forms.RadioSelect,
    )
    duration_minutes = forms.IntegerField(
        label=gettext_lazy("Arena length (minutes)"), required=False, initial=30
    )
    rounds = forms.IntegerField(label=gettext_lazy("Swiss rounds"), required=False, initial=5)
    starts_in = forms.TypedChoiceField(label=gettext_lazy("Starts"), coerce=int, initial=30)
    speed = forms.ChoiceField(
        label=gettext_lazy("Speed"), initial=Table.Speed.FAST, widget=forms.RadioSelect
    )
    rated = forms.BooleanField(
        required=False,
        initial=True,
        label=gettext_lazy("Rated"),
        help_text=gettext_lazy("Every match counts for the ladder; guests cannot enter."),
    )
    entry_fee = forms.IntegerField(
        label=gettext_lazy("Entry fee (Domino Coin)"),
        min_value=0,
        initial=0,
        help_text=gettext_lazy("Fees make the prize pool, paid out by place at the end."),
    )
    prize_shares = forms.CharField(
        label=gettext_lazy("Prize shares"),
        required=False,
        help_text=gettext_lazy("Parts of the pool by place, best first: 50, 30, 20."),
    )
    access = forms.ChoiceField(label=gettext_lazy("Who may enter"), widget=forms.RadioSelect)
    password = forms.CharField(
        required=False,
        max_length=128,
        strip=False,
        # Kept when another field is refused: the organiser chose it to share with players.
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}, render_value=True),
        label=gettext_lazy("Password"),
        help_text=gettext_lazy("Password events only: at least 4 characters."),
    )
    max_players = forms.IntegerField(label=gettext_lazy("At most this many players"))

    def __init__(self, *args: Any, staff: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.staff = staff
        self._choices("starts_in", [(m, _start_label(m)) for m in START_CHOICES_MINUTES])
        self._choices("speed", [(value, speed_text(value)) for value in Table.Speed.values])
        self._choices(
            "access",
            [
                choice
                for choice in Tournament.Access.choices
                if staff or choice[0] != Tournament.Access.PUBLIC
            ],
        )
        self.fields["access"].initial = (
            Tournament.Access.PUBLIC if staff else Tournament.Access.FRIENDS
        )
        most = settings.TOURNAMENT_MAX_PLAYERS if staff else settings.TOURNAMENT_PLAYER_MAX_PLAYERS
        self.fields["max_players"].initial = most
        self.fields["prize_shares"].initial = ", ".join(map(str, scoring.DEFAULT_PRIZE_SHARES))

    def _choices(self, name: str, choices: list[tuple[Any, Any]]) -> None:
        field = self.fields[name]
        assert isinstance(field, forms.ChoiceField)
        field.choices = choices

    def clean_prize_shares(self) -> list[int]:
        text = self.cleaned_data["prize_shares"].strip()
        if not text:
            return list(scoring.DEFAULT_PRIZE_SHARES)
        try:
            return [int(part) for part in text.replace(";", ",").split(",") if part.strip()]
        except ValueError:
            raise forms.ValidationError(
                gettext("Write whole numbers with commas between them, such as 50, 30, 20.")
            ) from None

    def terms(self) -> dict[str, Any]:
        """What ``tournament_create`` takes, but the creator and the clock."""
        data = self.cleaned_data
        arena = data["format"] == Tournament.Format.ARENA
        return {
            "name": data["name"],
            "game": self.game_name,
            "speed": data["speed"],
            "format": data["format"],
            "rated": data["rated"],
            "duration_minutes": data["duration_minutes"] if arena else None,
            "rounds": None if arena else data["rounds"],
            "entry_fee": data["entry_fee"],
            "prize_shares": data["prize_shares"],
            "options": {
                option.name: data[option.name] for option in game_spec(self.game_name).options
            },
            "access": data["access"],
            "password": data["password"],
            "max_players": data["max_players"],
        }


def organise_form_for(game: str) -> type[OrganiseForm]:
    """The form with this game's match options (a shorter match, say) after the event's own."""
    fields = {option.name: option_field(option) for option in game_spec(game).options}
    return type(
        f"{game.title().replace('_', '')}OrganiseForm",
        (OrganiseForm,),
        {**fields, "game_name": game},
    )
