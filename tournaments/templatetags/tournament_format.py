"""How the tournament pages write their values: ``{{ value|points }}``, a score or tiebreak as a
person writes it (Swiss points come in halves, a draw, and Sonneborn-Berger in quarters, so
``2½`` and ``1¼``, never ``2.5``), and ``{{ game|game_title }}``, a game's name."""

from __future__ import annotations

from fractions import Fraction

from django import template

from games.catalog import GAME_TITLES

register = template.Library()

PARTS = {Fraction(1, 4): "¼", Fraction(1, 2): "½", Fraction(3, 4): "¾"}


@register.filter
def points(value: int | Fraction | None) -> str:
    if value is None:
        return "—"
    whole, part = divmod(Fraction(value), 1)
    if not part:
        return str(whole)
    if part in PARTS:
        return f"{whole or ''}{PARTS[part]}"
    return f"{float(value):.2f}"


@register.filter
def game_title(game: str) -> str:
    return str(GAME_TITLES.get(game, game))
