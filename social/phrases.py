"""The preset chat phrases: sent by id, so each reader sees them in their own language, and open
to everyone at the table, guests included (free text is for registered players)."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

PHRASES: dict[str, Promise] = {
    "good_luck": _("Good luck"),
    "well_played": _("Well played"),
    "thanks": _("Thanks"),
    "sorry": _("Sorry"),
    "one_moment": _("One moment"),
}


def phrase_text(phrase: str) -> str:
    """The phrase in the active language ('' for an id this version no longer has)."""
    text = PHRASES.get(phrase)
    return str(text) if text is not None else ""
