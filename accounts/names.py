"""The names the site makes for players nobody named: guests and computers.

They are stored in one stable English form ("Guest-4821", "Computer 7"), which keeps them unique
and keeps every stored record and URL valid, and shown in the reader's language
(:func:`shown_name`). No person's name can take either form: sign-up keeps the guest prefix for
guests, and a person's name has no space (``accounts.validators``).
"""

from __future__ import annotations

import re

from django.utils.text import Truncator
from django.utils.translation import gettext

from .validators import NAME_MAX_LENGTH

GUEST_PREFIX = "Guest-"
_GUEST = re.compile(r"Guest-(\d+)")
_COMPUTER = re.compile(r"Computer (\d+)")


def guest_name(number: str) -> str:
    return f"{GUEST_PREFIX}{number}"


def computer_name(number: int) -> str:
    return f"Computer {number}"


def shown_name(name: str) -> str:
    """A stored name as the reader reads it: a guest's or a computer's in the active language,
    anyone else's as it is."""
    if guest := _GUEST.fullmatch(name):
        return gettext("Guest-%(number)s") % {"number": guest[1]}
    if computer := _COMPUTER.fullmatch(name):
        return gettext("Computer %(number)s") % {"number": computer[1]}
    return name


def echoed_name(typed: str) -> str:
    """What someone typed for a name, to quote back in a message: whole if it could be a name,
    else cut to that length with an ellipsis, so a pasted paragraph cannot flood the page."""
    return Truncator(typed).chars(NAME_MAX_LENGTH + 1)
