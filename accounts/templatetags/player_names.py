"""``{{ name|shown_name }}``: a stored player name as the reader reads it (``accounts.names``),
for the names a page holds as text (a lobby entry, a table's creator) rather than as a Player,
whose ``display_name`` says the same."""

from __future__ import annotations

from django import template

from ..names import shown_name as _shown_name

register = template.Library()


@register.filter
def shown_name(name: str) -> str:
    return _shown_name(str(name))
