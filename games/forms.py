"""Table forms: one per game, built from the options its rules engine lists, and nothing else."""

from __future__ import annotations

from typing import Any, NamedTuple

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy

from .access import CHOOSABLE_VISIBILITIES
from .catalog import STAKES, game_choices, option_label, value_label
from .models import Table
from .rules import Option, game_spec
from .services.lobby import speed_text

STAKE_CHOICES = [(0, gettext_lazy("Free"))] + [
    (s, format_lazy("{} {}", s, gettext_lazy("Domino Coin"))) for s in STAKES if s
]


class TableForm(forms.Form):
    """Stake, speed, visibility and password; each game's subclass adds its own options."""

    game_name: str = ""

    stake = forms.TypedChoiceField(
        label=gettext_lazy("Stake"), choices=STAKE_CHOICES, coerce=int, initial=0
    )
    # Not required: a form posted without it (an older page, a script) opens a Normal table.
    speed = forms.ChoiceField(
        label=gettext_lazy("Speed"),
        choices=Table.Speed.choices,
        initial=Table.Speed.NORMAL,
        required=False,
        widget=forms.RadioSelect,
        help_text=gettext_lazy(
            "Each turn has its clock. When it runs out, the turn goes on to your bank, which "
            "lasts the whole match; when that is empty too, the server plays for you."
        ),
    )
    visibility = forms.ChoiceField(
        label=gettext_lazy("Visibility"),
        choices=[(value, Table.Visibility(value).label) for value in CHOOSABLE_VISIBILITIES],
        initial="public",
        widget=forms.RadioSelect,
    )
    password = forms.CharField(
        required=False,
        max_length=128,
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        label=gettext_lazy("Password"),
        help_text=gettext_lazy("Password tables only: at least 4 characters."),
    )
    rated = forms.BooleanField(
        required=False,
        initial=True,
        label=gettext_lazy("Rated"),
        help_text=gettext_lazy(
            "The match counts for the ladder. A table with a guest or a computer player is "
            "always casual."
        ),
    )

    def __init__(self, *args: Any, guest: bool = False, **kwargs: Any) -> None:
        """A guest is offered only what a guest may open: a free table, public or password
        (the service refuses the rest all the same, tables.table_create)."""
        super().__init__(*args, **kwargs)
        self.guest = guest
        # Each speed with its numbers ("Fast · 12 s + 30 s bank"), read from the settings now.
        speed = self.fields["speed"]
        assert isinstance(speed, forms.ChoiceField)
        speed.choices = [(value, speed_text(value)) for value in Table.Speed.values]
        if guest:
            # Only what is drawn changes: a guest who sends a stake or "friends" anyway is
            # refused by the service, with its own words.
            self.fields["stake"].widget = forms.HiddenInput()
            self.fields["visibility"].widget.choices = [
                (value, Table.Visibility(value).label)
                for value in CHOOSABLE_VISIBILITIES
                if value != Table.Visibility.FRIENDS
            ]

    def clean_speed(self) -> str:
        return self.cleaned_data["speed"] or Table.Speed.NORMAL

    def option_values(self) -> dict[str, Any]:
        return {
            option.name: self.cleaned_data[option.name]
            for option in game_spec(self.game_name).options
        }


def option_field(option: Option) -> forms.Field:
    """A game option as a choice field (a table's form, a tournament's form). Left out, it is
    the option's default: a page or client from before an option existed still posts."""
    by_text = {str(value): value for value in option.choices}
    return forms.TypedChoiceField(
        label=option_label(option),
        choices=[(str(value), value_label(option, value)) for value in option.choices],
        initial=str(option.default),
        coerce=by_text.__getitem__,
        required=False,
        empty_value=option.default,
    )


def table_form_for(game: str) -> type[TableForm]:
    """A form class with exactly this game's table options (rules files, "Table options")."""
    fields = {option.name: option_field(option) for option in game_spec(game).options}
    return type(
        f"{game.title().replace('_', '')}TableForm", (TableForm,), {**fields, "game_name": game}
    )


STRENGTH_CHOICES = [("easy", gettext_lazy("Easy")), ("strong", gettext_lazy("Strong"))]


class ComputerForm(forms.Form):
    """The strength of a computer player: to play against at once, or to fill a seat."""

    strength = forms.ChoiceField(
        label=gettext_lazy("Strength"), choices=STRENGTH_CHOICES, initial="easy"
    )


class RemoveComputerForm(forms.Form):
    position = forms.IntegerField(min_value=0, max_value=3)


class JoinForm(forms.Form):
    password = forms.CharField(
        required=False, max_length=128, strip=False, widget=forms.PasswordInput
    )


class InviteForm(forms.Form):
    friend = forms.IntegerField(min_value=1)


class LobbyFilterForm(forms.Form):
    game = forms.ChoiceField(required=False)
    stake = forms.TypedChoiceField(
        required=False,
        coerce=int,
        empty_value=None,
        choices=[("", gettext_lazy("Any stake")), *STAKE_CHOICES],
    )
    speed = forms.ChoiceField(
        required=False, choices=[("", gettext_lazy("Any speed")), *Table.Speed.choices]
    )
    # Classic Joker's tables may have 2, 3 or 4 seats; the other games' have 2.
    seats = forms.TypedChoiceField(
        required=False,
        coerce=int,
        empty_value=None,
        choices=[
            ("", gettext_lazy("Any number of players")),
            ("2", gettext_lazy("2 players")),
            ("3", gettext_lazy("3 players")),
            ("4", gettext_lazy("4 players")),
        ],
    )
    # The lobby's next page: tables older than this one (docs/protocol.md § The lobby socket).
    before = forms.IntegerField(
        required=False, min_value=1, max_value=2**63 - 1, widget=forms.HiddenInput
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        game_field = self.fields["game"]
        assert isinstance(game_field, forms.ChoiceField)
        game_field.choices = [("", gettext_lazy("All games")), *game_choices()]


class LobbyFilters(NamedTuple):
    """What the lobby lists: None is "any" (the page start: the newest table)."""

    game: str | None = None
    stake: int | None = None
    before: int | None = None
    speed: str | None = None
    seats: int | None = None


def lobby_filters(params: Any) -> LobbyFilters:
    """Game, stake, speed, seats and page start from a query string; a value that does not
    parse is ignored with the rest, so a bad link shows the whole lobby instead of an error."""
    form = LobbyFilterForm(params)
    if not form.is_valid():
        return LobbyFilters()
    data = form.cleaned_data
    return LobbyFilters(
        data["game"] or None, data["stake"], data["before"], data["speed"] or None, data["seats"]
    )
