"""The hooks of the ladder: what the apps built on it (tournaments) add to its pages, each named
in a setting by dotted path so that the ladder imports none of them (``core.hooks``;
CONTRIBUTING.md § Hooks)."""

from __future__ import annotations

from typing import Any

from accounts.models import Player
from core.hooks import hooks


def profile_page_context(shown: Player, viewer: Player | None) -> dict[str, Any]:
    """``LADDER_PROFILE_PAGE_CONTEXT``, each ``context(shown, viewer)``: what a player's profile
    page adds to its template's context (tournaments: ``tournament_history``, the events
    ``shown`` entered that ``viewer`` may see, and their trophies). No lock; a page read."""
    merged: dict[str, Any] = {}
    for context in hooks("LADDER_PROFILE_PAGE_CONTEXT"):
        merged.update(context(shown, viewer))
    return merged
