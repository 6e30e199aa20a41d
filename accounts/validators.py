"""The one rule for a player's name, applied wherever a name is made: sign-up, the admin's user
and player forms, and guests. Names stored before the rule keep working everywhere."""

from __future__ import annotations

import re

from django.core.exceptions import ValidationError
from django.utils.translation import ngettext_lazy

NAME_MIN_LENGTH = 3
NAME_MAX_LENGTH = 24
# Letters of any script, digits, "_" and "-": \w is letters, digits and "_" for str patterns.
_NAME = re.compile(r"[\w-]+", re.UNICODE)


_RULE = ngettext_lazy(
    "A name is %(min)s to %(max)s letter, digit, “_” or “-”, with no spaces or other signs.",
    "A name is %(min)s to %(max)s letters, digits, “_” or “-”, with no spaces or other signs.",
    "max",
)
_LIMITS = {"min": NAME_MIN_LENGTH, "max": NAME_MAX_LENGTH}


def name_rule() -> str:
    """The rule in words, in the active language (the sign-up form shows it by the field)."""
    return _RULE % _LIMITS


def validate_player_name(name: str) -> None:
    if not NAME_MIN_LENGTH <= len(name) <= NAME_MAX_LENGTH or not _NAME.fullmatch(name):
        raise ValidationError(_RULE, code="invalid_name", params=_LIMITS)


# allauth reads ACCOUNT_USERNAME_VALIDATORS as the dotted path of a list.
USERNAME_VALIDATORS = [validate_player_name]
