"""How the ladder writes its numbers: a provisional rating as ``1500?``, a change as ``+12`` or
``−9`` (a true minus sign), a rate as a whole percentage, a season badge's place as a medal."""

from __future__ import annotations

from django import template

from ..models import Rating, SeasonStanding

register = template.Library()


@register.filter
def rating_text(rating: Rating | SeasonStanding | None) -> str:
    if rating is None:
        return ""
    return f"{rating.display}?" if rating.provisional else str(rating.display)


@register.filter
def signed(delta: int | None) -> str:
    if delta is None:
        return ""
    if delta > 0:
        return f"+{delta}"
    if delta < 0:
        return f"−{-delta}"
    return "±0"


@register.filter
def percent(rate: float | None) -> str:
    return "—" if rate is None else f"{round(rate * 100)}%"
