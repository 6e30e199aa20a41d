"""What a page needs of a game's spec: its table renderer and its help page."""

from __future__ import annotations

from django import template
from django.templatetags.static import static

from ..rules import game_spec

register = template.Library()


@register.simple_tag
def game_renderer(game: str) -> str:
    """The static URL of the ES module that draws ``game``'s table (its ``GameSpec.renderer``)."""
    return static(game_spec(game).renderer)


@register.filter
def help_slug(game: str) -> str:
    """The slug of ``game``'s help page (/help/<slug>/)."""
    return game_spec(game).help_slug
